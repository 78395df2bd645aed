"""The random bot: plays a uniformly random legal action, for any game.

Seeded from ``CROUPIER_SEED`` (the arbiter derives it from the match seed), so a match between
random bots is reproducible.
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

from croupier_bot import Bot, Decision, MatchInfo, main


class RandomBot(Bot):
    """Picks uniformly among the legal actions."""

    name = "random"
    version = "1"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __deepcopy__(self, memo: dict[int, Any]) -> RandomBot:
        """The copy a session plays each match with: the generator copied through its state
        (``getstate``/``setstate``, in C) instead of word by word, the rest deep-copied."""
        twin = copy.copy(self)
        for key, value in vars(self).items():
            if key != "rng":
                setattr(twin, key, copy.deepcopy(value, memo))
        twin.rng = random.Random()
        twin.rng.setstate(self.rng.getstate())
        return twin

    def on_welcome(self, match: MatchInfo) -> None:
        if match.seed is not None:  # the match's own seed (in a session: one per match)
            self.rng.seed(match.seed)

    def act(self, decision: Decision) -> int:
        # the same draw as choosing among decision.legal_ids, without building that list
        action: int = self.rng.choice(decision.legal_actions).id
        return action


if __name__ == "__main__":
    main(RandomBot(int(os.environ.get("CROUPIER_SEED", "0"))))
