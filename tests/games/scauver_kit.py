"""Helpers shared by the Scauver tests: a random policy, reachable states, and a re-deal of what
a seat may not see (imported by ``tests/games`` and ``tests/transport``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from croupier.games import CHANCE, TERMINAL, get_game
from croupier.games import _chips as chips
from croupier.games import scauver as sc
from croupier.games.scauver import Phase

G = get_game("scauver")
PASSIVE = {sc.PROCEED, sc.NO_BET, chips.IN}
#: Small matches: a short stack and round cap keep 1,000 matches fast.
SMALL = {"stack": 6, "round_cap": 12}


def pick(state: Any, rng: np.random.Generator, passive: float) -> int:
    """A random legal action; with probability ``passive`` the passive one when there is one."""
    legal = G.legal_actions(state)
    if rng.random() < passive:
        calm = [a for a in legal if a in PASSIVE]
        if calm:
            return calm[0]
    return int(legal[rng.integers(len(legal))])


def walk(seed: int, decisions: int, players: int) -> Any:
    """A reachable decision state after up to ``decisions`` random decisions."""
    rng = np.random.default_rng(seed)
    state = G.initial_state({"players": players, **SMALL})
    taken = 0
    while True:
        player = G.current_player(state)
        if player == CHANCE:
            state = G.apply_chance(state, G.sample_chance(state, rng))
        elif player == TERMINAL:
            return walk(seed + 1, decisions // 2, players)
        elif taken == decisions:
            return state
        else:
            state = G.apply(state, pick(state, rng, 0.8))
            taken += 1


def redeal(state: Any, viewer: int, rng: np.random.Generator) -> Any:
    """Re-deal every card ``viewer`` cannot see: the other hands, the stock order and, during
    the opening, the other seats' placements (cards and flanks)."""
    opening = state.phase is Phase.OPENING
    hidden = list(state.deck[state.stock_pos :])
    for seat, hand in enumerate(state.hands):
        if seat != viewer:
            hidden += hand
            if opening:
                hidden += [c for flank in state.fields[seat] for c in flank]
    hidden = [int(c) for c in rng.permutation(hidden)]
    hands, fields = list(state.hands), list(state.fields)
    for seat in range(len(hands)):
        if seat == viewer or not hands[seat]:
            continue
        if opening and state.opened[seat]:
            placed, hidden = hidden[:3], hidden[3:]
            flanks = rng.integers(0, 2, size=3)
            fields[seat] = (
                tuple(c for c, f in zip(placed, flanks, strict=True) if f == 0),
                tuple(c for c, f in zip(placed, flanks, strict=True) if f == 1),
            )
        size = len(hands[seat])
        hands[seat], hidden = tuple(sorted(hidden[:size])), hidden[size:]
    deck = state.deck[: state.stock_pos] + tuple(hidden)
    return state._replace(hands=tuple(hands), fields=tuple(fields), deck=deck)
