"""The Felduz search bot: determinized sampling with rollouts (``croupier_bots._search``).

Every decision with a choice is searched: it samples the cards it cannot see (the others'
closed fields and reserves, the stock's order) from what it has seen, weighs each sample by how
well the rollout policy explains the others' moves (a bet makes a good field likelier), plays
each candidate out to the end of the round in every sample and keeps the best mean chip result.
Bets and raises are searched at their smallest, a middle and their largest amount.

Rollout policy (every seat, on the full state, reading its own cards and the table only): open
the three lowest cards; draw (and continue) while the field sums to less than 40; reveal the
lowest closed card; keep the reserve that leaves the lowest field of 40 or more; bet or raise the
most the cap allows on a good outlook (the heuristic's), stay in when the outlook beats the
price, else go out.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from croupier.games import chips
from croupier.games.cards40 import VALUES
from croupier.games.felduz.rules import (
    CONTINUE,
    DRAW,
    NO_BET,
    QUALIFY,
    REVEAL,
    SPLIT,
    SPLITS,
    STAND,
    FelduzState,
    Phase,
    field_sum,
    reserve_action,
)
from croupier.games.felduz.rules import GAME as RULES
from croupier_bot import Decision, main

from ._chips_search import chip_candidates, chip_kind
from ._search import SearchBot

MEAN_CARD = 5.5


def outlook(state: FelduzState, me: int) -> float:
    """Roughly the chance that ``me`` wins the showdown (the heuristic's outlook): its own
    field against what it sees of the others."""
    open_me = state.open[me]
    closed = state.closed[me]
    total = field_sum(open_me) + field_sum(closed)
    stood = state.stood[me]
    if total >= QUALIFY:
        trim = 0 if stood else _best_trim(closed, total)
        mine: float | None = total - trim
    elif not stood and state.stock:
        mine = QUALIFY + 3.0
    else:
        mine = None
    p = 0.85 - 0.03 * (mine - QUALIFY) if mine is not None else 0.3
    live = state.table.live
    for o in range(len(live)):
        if o == me or not live[o]:
            continue
        seen = field_sum(state.open[o])
        count = len(state.closed[o])
        guess = seen + MEAN_CARD * count
        if mine is None:
            p = min(p, 0.05 if seen + count >= QUALIFY else 0.3)
        elif state.stood[o] and guess >= QUALIFY:
            p -= 0.35 if guess <= mine else 0.12
        elif not state.stood[o]:
            p -= 0.05
    return max(0.0, min(1.0, p))


def _best_trim(closed: tuple[int, ...], total: int) -> int:
    values = [VALUES[c] for c in closed]
    options = [0, *values, sum(values)] if len(values) == 2 else [0, *values]
    fits = [v for v in options if total - v >= QUALIFY]
    return max(fits) if fits else 0


def rollout_policy(state: FelduzState, player: int, rng: np.random.Generator) -> int:
    """A fast Felduz move for ``player`` on the full state."""
    phase = state.phase
    if phase is Phase.BET:
        return _bet(state, player)
    if phase is Phase.OPENING:
        hand = state.closed[player]  # sorted by card id
        order = sorted(range(len(hand)), key=lambda i: (VALUES[hand[i]], i))
        chosen = tuple(sorted(order[:3]))
        return SPLIT + SPLITS.index(chosen)
    total = field_sum(state.open[player]) + field_sum(state.closed[player])
    if phase is Phase.DRAW:
        return DRAW if total < QUALIFY and state.stock else STAND
    if phase is Phase.REVEAL:
        return REVEAL + min(state.closed[player], key=lambda c: (VALUES[c], c))
    if phase is Phase.CONTINUE:
        return CONTINUE if total < QUALIFY and state.stock else STAND
    # RESERVE: the reserve leaving the lowest field of 40 or more, then the lowest reserve
    options = RULES.legal_actions(state)
    closed = state.closed[player]

    def key(action: int) -> tuple[int, int]:
        taken = field_sum(_reserve_cards(action, closed))
        return (total - taken, taken)

    return min(options, key=key)


def _reserve_cards(action: int, closed: tuple[int, ...]) -> tuple[int, ...]:
    for cards in ((), *((c,) for c in closed), tuple(sorted(closed))):
        if reserve_action(cards) == action:
            return cards
    return ()


def _bet(state: FelduzState, player: int) -> int:
    table = state.table
    p = outlook(state, player)
    bet = table.bet
    if bet is None:
        amounts = chips.bet_actions(table)
        if p >= 0.65 and amounts:
            return amounts[-1]
        return NO_BET
    answers = chips.answer_actions(table)
    if p >= 0.6 and len(answers) > 2:
        return answers[-1]
    price = bet.level - bet.contrib[player]
    pot = chips.pot(table)
    if p >= 0.4 or price / (pot + price) < p:
        return chips.IN
    return chips.OUT


class FelduzSearch(SearchBot):
    """Searches every Felduz decision over sampled deals."""

    name = "felduz-search"
    game = "felduz"

    def policy(self, state: Any, player: int, rng: np.random.Generator) -> int:
        return rollout_policy(state, player, rng)

    def kind(self, state: Any, action: int) -> int:
        return chip_kind(action)

    def candidates(self, decision: Decision, legal: list[int]) -> list[int]:
        return chip_candidates(legal)


if __name__ == "__main__":
    main(FelduzSearch(int(os.environ.get("CROUPIER_SEED", "0"))))
