"""A registered bot for the server tests: plays the first legal action after ``SLOW_BOT_MS``
milliseconds (default 20), so that a match lasts long enough to be cancelled or cut off. It
connects by itself (``CROUPIER_ADDRESS``, its key in ``CROUPIER_SESSION_TOKEN``)."""

from __future__ import annotations

import os
import time

from croupier_bot import Decision, main

DELAY_S = int(os.environ.get("SLOW_BOT_MS", "20")) / 1000


def choose(decision: Decision) -> int:
    time.sleep(DELAY_S)
    return decision.legal_ids[0]


if __name__ == "__main__":
    main(choose, name="slow-bot", version="1")
