"""A registered bot for the web page's test: random legal actions, each after a pause (so a
human, or a browser, can watch the match being played). Session mode: CROUPIER_ADDRESS and
CROUPIER_SESSION_TOKEN (its key) say where and who; SLOW_BOT_DELAY_S the pause."""

from __future__ import annotations

import os
import random
import time

from croupier_bot import Decision, run

_rng = random.Random(int(os.environ.get("CROUPIER_SEED", "1")))
_DELAY_S = float(os.environ.get("SLOW_BOT_DELAY_S", "0.2"))


def act(decision: Decision) -> int:
    time.sleep(_DELAY_S)
    return _rng.choice(decision.legal_ids)


if __name__ == "__main__":
    run(act, name=os.environ.get("SLOW_BOT_NAME", "slow"))
