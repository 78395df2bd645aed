"""Reaching game states for property tests, shared by the games' test files (any game module).

Import it as ``walk`` from any test (``pythonpath`` in pyproject.toml puts ``tests/games`` on
``sys.path``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from croupier.games import CHANCE
from croupier.games._drive import play


def by_index(legal: Sequence[int], pick: int) -> int:
    """The default choice: the pick-th legal action, wrapping around."""
    return legal[pick % len(legal)]


def drive(
    game: Any,
    params: dict[str, int],
    seed: int,
    picks: list[int],
    choose: Callable[[Sequence[int], int], int] = by_index,
) -> list[Any]:
    """Every state from the start: chance outcomes drawn from ``seed`` through ``sample_chance``,
    one decision per pick by ``choose(legal, pick)``; stops at the end of the match."""
    rng = np.random.default_rng(seed)
    todo = iter(picks)

    def move(state: Any, player: int) -> tuple[int, ...] | int:
        pick = next(todo)  # every ply, chance included, takes one pick
        if player == CHANCE:
            outcome: tuple[int, ...] = game.sample_chance(state, rng)
            return outcome
        return choose(game.legal_actions(state), pick)

    start = game.initial_state(params)
    return [start, *(ply.after for ply in play(game, start, move, limit=len(picks)))]
