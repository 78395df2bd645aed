"""A registered bot for the spectating tests: random legal actions, each after a pause (so a
human, or a browser, can watch the match being played), the first of each match after a longer
one (``SLOW_BOT_FIRST_S``: time to open the match's page before play shows anything). Session
mode: ``CROUPIER_ADDRESS`` and ``CROUPIER_SESSION_TOKEN`` (its key) say where and who;
``SLOW_BOT_DELAY_S`` the pause."""

from __future__ import annotations

import os
import random
import time

from croupier_bot import Decision, run

_rng = random.Random(int(os.environ.get("CROUPIER_SEED", "1")))
_DELAY_S = float(os.environ.get("SLOW_BOT_DELAY_S", "0.2"))
_FIRST_S = float(os.environ.get("SLOW_BOT_FIRST_S", "0"))
_seen: set[str] = set()


def act(decision: Decision) -> int:
    first = decision.match.match_id not in _seen
    _seen.add(decision.match.match_id)
    time.sleep(_FIRST_S if first else _DELAY_S)
    return _rng.choice(decision.legal_ids)


if __name__ == "__main__":
    run(act, name=os.environ.get("SLOW_BOT_NAME", "slow"))
