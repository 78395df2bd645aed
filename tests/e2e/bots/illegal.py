"""Illegal: plays passively, but on the decisions listed in ``--on`` (1-based, comma-separated)
answers an action id that is not in the request's legal list.

``--kind out-of-range`` sends 99 (no such action); ``--kind in-context`` sends an id of a real
As-Nas action that is illegal right now: CALL when HOLD is the legal one (already matched), HOLD
when CALL is (behind the bet). Each bad answer is logged as ``illegal <decision> <id>``.
"""

from __future__ import annotations

import argparse

from _common import CALL, HOLD, CountingBot, say

from croupier_bot import Decision, main


class Illegal(CountingBot):
    name = "illegal"

    def __init__(self, on: set[int], kind: str) -> None:
        super().__init__()
        self.on, self.kind = on, kind

    def choose(self, decision: Decision) -> int:
        if self.count not in self.on:
            return super().choose(decision)
        legal = decision.legal_ids
        action = 99 if self.kind == "out-of-range" else (CALL if HOLD in legal else HOLD)
        assert action not in legal
        say(f"illegal {self.count} {action}")
        return action


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--on", default="2")
    parser.add_argument("--kind", choices=("out-of-range", "in-context"), default="out-of-range")
    args = parser.parse_args()
    main(Illegal({int(n) for n in args.on.split(",")}, args.kind))
