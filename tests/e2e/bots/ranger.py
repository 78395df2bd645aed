"""Ranger: a Python SDK bot that plays from the legal ids as ranges (``decision.legal_runs``) and
checks each pick with ``decision.is_legal``, never reading ``legal_actions`` or ``legal_ids``. Now
and then it bets or raises an amount from a run (seeded by ``CROUPIER_SEED``), otherwise it plays
the first id of the first run. At the match end it writes to the file given as its one argument
one JSON line: decisions, the widest run, the steps seen, and every pick that ``is_legal`` did
not hold."""

from __future__ import annotations

import json
import os
import random
import sys
from typing import Any

from croupier_bot import Bot, Decision, run


class Ranger(Bot):
    name = "ranger"
    version = "1"

    def __init__(self) -> None:
        self.rng = random.Random(int(os.environ.get("CROUPIER_SEED", "0")))
        self.decisions = 0
        self.widest = 0
        self.steps: set[int] = set()
        self.refused: list[int] = []

    def act(self, decision: Decision) -> int:
        runs = decision.legal_runs
        self.decisions += 1
        self.widest = max(self.widest, *map(len, runs))
        wide = [r for r in runs if len(r) > 1]
        self.steps |= {r.step for r in wide}
        if wide and self.rng.random() < 0.15:
            run_ = self.rng.choice(wide)
            pick = run_[self.rng.randrange(min(len(run_), 20))]  # a small amount: the match lasts
        else:
            pick = runs[0][0]
        if not decision.is_legal(pick):
            self.refused.append(pick)
        return pick

    def on_match_end(self, end: Any) -> None:
        with open(sys.argv[1], "w") as f:
            summary = {"decisions": self.decisions, "widest": self.widest,
                       "steps": sorted(self.steps), "refused": self.refused}  # fmt: skip
            f.write(json.dumps(summary) + "\n")


if __name__ == "__main__":
    run(Ranger())
