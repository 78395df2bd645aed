"""The As-Nas search bot: determinized sampling with rollouts (``croupier_bots._search``).

It always looks first (free information). Then at each bet it samples the others' hands from
what it has seen, weighs each sample by how well it explains the others' bets (a raise makes
strong hands likelier), and plays each of its legal moves out in every sample with the rollout
policy below, choosing the move with the best mean result.

Rollout policy (every seat, on the full state): look; raise with two pair or better, raise a
pair of Shahs or As while the bet is 1, call with a pair of Bibis or better, call a pair for one
more chip, else hold when free or fold.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from croupier.games.as_nas.rules import AsNasState, hand_key
from croupier_bot import Decision, main

from ._search import SearchBot

LOOK, FOLD, CALL, HOLD, RAISE = range(5)
#: Category and top rank -> the heuristic's strength number, for the rollout policy.
MAX_BET = 4


def strength(state: AsNasState, seat: int) -> float:
    """The seat's hand as category + top grouped rank / 10 (ranks 1..5, as the heuristic)."""
    key = hand_key(tuple(c // 4 for c in state.hands[seat]))
    return key[0] + (key[1] + 1) / 10


def rollout_policy(state: AsNasState, player: int, rng: np.random.Generator) -> int:
    """A fast As-Nas move on the full state (the seat reads only its own hand)."""
    if not state.looked[player]:
        return LOOK
    s = strength(state, player)
    stake, high = state.stakes[player], state.high
    can_raise = high < MAX_BET
    call = CALL if stake < high else HOLD
    if s >= 2.0 and can_raise:
        return RAISE
    if s >= 1.3:
        if can_raise and high <= 1 and s >= 1.4:
            return RAISE
        return call
    if s >= 1.0 and high - stake <= 1:
        return call
    return HOLD if stake == high else FOLD


class AsNasSearch(SearchBot):
    """Looks, then searches every bet over sampled hands."""

    name = "as-nas-search"
    game = "as-nas"

    def policy(self, state: Any, player: int, rng: np.random.Generator) -> int:
        return rollout_policy(state, player, rng)

    def shortcut(self, decision: Decision, legal: list[int]) -> int | None:
        return LOOK if LOOK in legal else None


if __name__ == "__main__":
    main(AsNasSearch(int(os.environ.get("CROUPIER_SEED", "0"))))
