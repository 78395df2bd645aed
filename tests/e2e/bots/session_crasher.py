"""Session crasher: an SDK bot that plays passively and, while the marker file (its first
argument) is absent, creates the file and fails when its second decision arrives, without
answering. Later matches find the marker and play on, so the bot fails once.

``--how exit`` (default): the process dies at once (``os._exit(3)``), so a pool restarts it.
``--how raise``: ``act`` raises, which in a session ends only that match's stream.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from _common import CountingBot, say

from croupier_bot import Decision, main


class SessionCrasher(CountingBot):
    name = "session-crasher"

    def __init__(self, marker: Path, how: str) -> None:
        super().__init__()
        self.marker, self.how = marker, how

    def choose(self, decision: Decision) -> int:
        if self.count == 2 and not self.marker.exists():
            self.marker.touch()
            say(f"crashing in match {decision.match.match_id}")
            if self.how == "raise":
                raise RuntimeError("planned failure in act")
            os._exit(3)
        return super().choose(decision)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("marker", type=Path)
    parser.add_argument("--how", choices=("exit", "raise"), default="exit")
    args = parser.parse_args()
    main(SessionCrasher(args.marker, args.how))
