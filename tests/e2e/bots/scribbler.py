"""Scribbler: a session bot (Python SDK) that, at each seat it is handed, appends the match id to
the file named by its one argument and says whether it could: ``scribble ok MATCH`` or
``scribble refused MATCH: ERROR`` on stdout (its log). It plays the first legal action. Two
processes that can both write one file can talk through it; the tests check who can."""

from __future__ import annotations

import sys

from _common import say

from croupier_bot import Bot, Decision, MatchInfo, run


class Scribbler(Bot):
    name = "scribbler"
    version = "1"

    def on_welcome(self, match: MatchInfo) -> None:
        try:
            with open(sys.argv[1], "a") as f:
                f.write(match.match_id + "\n")
        except OSError as exc:
            say(f"scribble refused {match.match_id}: {exc}")
        else:
            say(f"scribble ok {match.match_id}")

    def act(self, decision: Decision) -> int:
        return decision.legal_ids[0]


if __name__ == "__main__":
    run(Scribbler())
