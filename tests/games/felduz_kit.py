"""Helpers of the Felduz tests: cards written as text, stacked decks, actions chosen by label.

Cards are written ``Kc 7h 2d As``: rank ``A 2..7 J Q K`` and suit ``c d h s`` (♣ ♦ ♥ ♠); the card
id is ``suit * 10 + rank index``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from croupier.games import CHANCE, TERMINAL, cards40, get_game
from croupier.games.felduz.rules import SPLIT, SPLITS, FelduzState

G = get_game("felduz")
SUIT_LETTERS = "cdhs"


def cards(text: str) -> tuple[int, ...]:
    """Card ids of ``text`` (``"Kc 7h"``), in the order written."""
    out = []
    for word in text.split():
        rank, suit = word[:-1], word[-1]
        out.append(SUIT_LETTERS.index(suit) * 10 + cards40.RANK_NAMES.index(rank))
    return tuple(out)


def deck_for(
    players: int, dealer: int, hands: Mapping[int, str], stock: str = ""
) -> tuple[int, ...]:
    """The deal outcome giving each seat in ``hands`` those five cards and starting the stock
    with ``stock``; other seats and the rest of the stock get the leftover cards by id."""
    wanted = {seat: list(cards(text)) for seat, text in hands.items()}
    top = list(cards(stock))
    used = [c for hand in wanted.values() for c in hand] + top
    assert len(set(used)) == len(used), "a card is used twice"
    spare = [c for c in range(cards40.DECK_SIZE) if c not in used]
    receivers = [(dealer + 1 + k) % players for k in range(players)]
    for seat in receivers:
        if seat not in wanted:
            wanted[seat], spare = spare[:5], spare[5:]
    deck = [0] * (5 * players)
    for r, seat in enumerate(receivers):
        for i, card in enumerate(wanted[seat]):
            deck[i * players + r] = card
    return (*deck, *top, *spare)


def start(
    hands: Mapping[int, str],
    *,
    dealer: int = 0,
    stock: str = "",
    **params: int,
) -> FelduzState:
    """A match with ``params`` (players default 2) right after a stacked deal (the opening)."""
    players = params.setdefault("players", 2)
    state = G.initial_state(params)
    state = G.apply_chance(state, (dealer,))
    return G.apply_chance(state, deck_for(players, dealer, hands, stock))


def split_id(state: FelduzState, opened: str) -> int:
    """The split action of the seat choosing now that opens exactly ``opened``."""
    hand = state.closed[state.turn_seat]
    want = set(cards(opened))
    for i, chosen in enumerate(SPLITS):
        if {hand[j] for j in chosen} == want:
            return SPLIT + i
    raise AssertionError(f"{opened} is not a 3-subset of the hand")


def open_all(state: FelduzState, opened: Mapping[int, str]) -> FelduzState:
    """Play the opening: each seat opens the cards given (default: its first split)."""
    while state.phase.name == "OPENING":
        seat = state.turn_seat
        action = split_id(state, opened[seat]) if seat in opened else SPLIT
        state = G.apply(state, action)
    return state


def labels(state: FelduzState) -> list[str]:
    return [G.action_label(state, a) for a in G.legal_actions(state)]


def act(state: FelduzState, *names: str) -> FelduzState:
    """Apply actions given by label, each among the legal ones."""
    for name in names:
        legal = {G.action_label(state, a): a for a in G.legal_actions(state)}
        assert name in legal, f"{name} not legal for seat {G.current_player(state)}: {legal}"
        state = G.apply(state, legal[name])
    return state


def random_match(
    rng: np.random.Generator, params: Mapping[str, int]
) -> list[tuple[FelduzState, int, Any, FelduzState]]:
    """One match played at random: ``(before, player, outcome or action, after)`` per step."""
    state = G.initial_state(params)
    steps = []
    while (player := G.current_player(state)) != TERMINAL:
        if player == CHANCE:
            value: Any = G.sample_chance(state, rng)
            after = G.apply_chance(state, value)
        else:
            legal = G.legal_actions(state)
            value = int(legal[rng.integers(len(legal))])
            after = G.apply(state, value)
        steps.append((state, player, value, after))
        state = after
    return steps


def all_cards(state: FelduzState) -> list[int]:
    """Every card in a field, a reserve or the stock, sorted."""
    held: Sequence[tuple[int, ...]] = (*state.open, *state.closed, *state.reserve, state.stock)
    return sorted(c for part in held for c in part)
