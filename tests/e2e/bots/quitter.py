"""Quitter: plays passively and leaves the match before it ends.

``--how os-exit``: when its decision number ``--after`` + 1 arrives, the process dies at once
(``os._exit(3)``) without answering - a crash while a decision is pending.

``--how sys-exit``: the same, but through ``sys.exit(3)`` inside the SDK's loop, so the SDK closes
its request stream and channel on the way out - an orderly but early goodbye.

``--how last-fold``: plays until the last deal, folds at its first decision there, and exits with
status 0 a moment (0.1 s) after its fold is sent - it has no decision pending and none to come,
yet the match is not over. (It does not wait to see its fold announced: a seat asked recently
gets the public events with its next decision, not alone; in the last deal that is MatchEnd.)
"""

from __future__ import annotations

import argparse
import os
import sys
import threading

from _common import FOLD, CountingBot, MatchInfo, say

from croupier_bot import Decision, main


class Quitter(CountingBot):
    name = "quitter"

    def __init__(self, after: int, how: str) -> None:
        super().__init__()
        self.after, self.how = after, how
        self.num_deals = 0
        self.deal = -1

    def on_welcome(self, match: MatchInfo) -> None:
        super().on_welcome(match)
        self.num_deals = match.params["deals"]

    def choose(self, decision: Decision) -> int:
        if self.how == "last-fold":
            if decision.observation.as_nas.deal_index == self.num_deals - 1:
                say("folding in the last deal, then leaving")
                threading.Timer(0.1, self._leave).start()  # once the fold has gone out
                return FOLD
            return super().choose(decision)
        if self.count > self.after:
            say(f"quitting on decision {self.count} ({self.how})")
            if self.how == "os-exit":
                os._exit(3)
            sys.exit(3)
        return super().choose(decision)

    @staticmethod
    def _leave() -> None:
        say("left after my fold; exiting")
        os._exit(0)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--after", type=int, default=2)
    parser.add_argument("--how", choices=("os-exit", "sys-exit", "last-fold"), default="os-exit")
    args = parser.parse_args()
    main(Quitter(args.after, args.how))
