"""Helpers shared by the Scauver tests (``tests/games``, ``tests/transport``, ``tests/replay``):
a random policy, reachable states, a re-deal of what a seat may not see, and scenarios built
from stacked decks with actions chosen by label."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from croupier.games import CHANCE, TERMINAL, cards40, chips, get_game
from croupier.games.scauver import rules as sc
from croupier.games.scauver.rules import Phase

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
    hidden = list(state.stock)
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
    return state._replace(hands=tuple(hands), fields=tuple(fields), stock=tuple(hidden))


# -- scenarios: stacked decks, actions by label ---------------------------------------------------


def cid(label: str) -> int:
    """A card id from its label, e.g. ``7♥``."""
    return cards40.CARD_LABELS.index(label)


def cards(text: str) -> tuple[int, ...]:
    """Card ids from space-separated labels."""
    return tuple(cid(x) for x in text.split())


def deck_for(
    players: int, dealer: int, hands: Mapping[int, str], stock: str = ""
) -> tuple[int, ...]:
    """The deal outcome giving each seat in ``hands`` those 5 cards and putting ``stock`` on top
    of the stock; other seats and the rest of the stock get the leftover cards in id order."""
    given = {seat: list(cards(text)) for seat, text in hands.items()}
    top = list(cards(stock)) if stock else []
    used = {c for hand in given.values() for c in hand} | set(top)
    assert len(used) == sum(len(h) for h in given.values()) + len(top), "a card is used twice"
    rest = [c for c in range(cards40.DECK_SIZE) if c not in used]
    for seat in range(players):
        if seat not in given:
            given[seat], rest = rest[:5], rest[5:]
    order = [(dealer + 1 + k) % players for k in range(players)]
    deck = [given[seat][k] for k in range(5) for seat in order]
    return (*deck, *top, *rest)


def start(
    players: int, dealer: int, hands: Mapping[int, str], stock: str = "", **params: int
) -> Any:
    """A state right after the first deal of a match."""
    state = G.initial_state({"players": players, **params})
    state = G.apply_chance(state, (dealer,))
    return G.apply_chance(state, deck_for(players, dealer, hands, stock))


def act(state: Any, *labels: str) -> Any:
    """Apply actions by label, checking each is legal."""
    for label in labels:
        legal = {G.action_label(state, a): a for a in G.legal_actions(state)}
        assert label in legal, (
            f"{label} not legal for seat {G.current_player(state)}: {list(legal)}"
        )
        state = G.apply(state, legal[label])
    return state


def labels(state: Any) -> list[str]:
    return [G.action_label(state, a) for a in G.legal_actions(state)]


# Two players, dealer 0: seat 1 is dealt first and plays first. Both build L = A 4 6 7 (18) and
# R = 2 3 5 J (18): D = 0, best link 6+7 = 2+3+J (v 13, shape 3–2), score 0.
TWO = {1: "A♣ 4♣ 6♣ 2♦ 3♦", 0: "A♥ 4♥ 6♥ 2♠ 3♠"}
TWO_STOCK = "7♣ 7♥ 5♦ 5♠ J♦ J♠"


def two_player_round(state: Any, last_pair_of_seat0: str = "Place:7♥→L,J♠→R") -> Any:
    """Play the TWO round passively to its end (seat 0's last pair placement as given)."""
    state = act(state, "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]")
    state = act(state, "Proceed", "Place:6♣→L", "Proceed", "Place:6♥→L")
    state = act(state, "Proceed", "Place:3♦→R", "Proceed", "Place:3♠→R")
    state = act(state, "Proceed", "Place:5♦→R", "Place:7♣→L,J♦→R", "NoBet")
    return act(state, "Proceed", "Place:5♠→R", last_pair_of_seat0, "NoBet")
