"""The random bot, slowed down: sleeps ``--delay-s`` before each action, and first appends its
match id to ``--starts FILE`` (one line per seat it is admitted to, whether launched for the
match or serving a session), so a test can see which matches were started more than once
(played again after their worker died)."""

from __future__ import annotations

import argparse
import os
import time

from croupier_bot import Decision, MatchInfo, main
from croupier_bots.random_bot import RandomBot


class SlowRandom(RandomBot):
    name = "slow-random"

    def __init__(self, seed: int, delay_s: float, starts: str) -> None:
        super().__init__(seed)
        self.delay_s, self.starts = delay_s, starts

    def on_welcome(self, match: MatchInfo) -> None:
        super().on_welcome(match)
        if self.starts:
            with open(self.starts, "a", encoding="utf-8") as f:
                f.write(match.match_id + "\n")

    def act(self, decision: Decision) -> int:
        time.sleep(self.delay_s)
        return super().act(decision)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--delay-s", type=float, default=0.02)
    parser.add_argument("--starts", default="")
    args = parser.parse_args()
    main(SlowRandom(int(os.environ.get("CROUPIER_SEED", "0")), args.delay_s, args.starts))
