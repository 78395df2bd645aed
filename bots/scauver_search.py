"""The Scauver search bot: determinized sampling with rollouts (``croupier_bots._search``).

Its betting is searched: at each betting step, final bet and answer it samples the cards it
cannot see (the others' hands and the stock's order) from what it has seen, weighs each sample
by how well the rollout policy explains the others' bets, plays each candidate out to the end of
the round in every sample and keeps the best mean chip result (bets and raises at their
smallest, a middle and their largest amount). It is anchored on the heuristic: it plays the
heuristic's move unless the search finds one at least :attr:`ScauverSearch.margin` chips better
(unanchored, its rollouts misjudged the heuristic's answers: with 5,000 moves a decision it
scored 22 a round below the heuristic, 95 % interval [-41, -3], ``bench/README.md``). Its
placements are the heuristic's (sampled best completions:
``croupier_bots.scauver_heuristic``), which a rollout cannot improve on cheaply.

Rollout policy (every seat, on the full state, reading its own cards and the table only): place
the card (and flank) whose field, completed at best with typical values for the cards still to
come, scores best; bet the most the cap allows when its field promises to beat every other
field it can see, raise likewise, stay in when the promise beats the price, else go out.
"""

from __future__ import annotations

import os
from functools import cache
from typing import Any

import numpy as np

from croupier.games import chips
from croupier.games.cards40 import VALUES
from croupier.games.scauver.rules import GAME as RULES
from croupier.games.scauver.rules import (
    NO_BET,
    OPEN,
    OPEN_COMBOS,
    PLACE,
    PLACE_PAIR,
    PROCEED,
    Phase,
    ScauverState,
)
from croupier_bot import Decision, MatchInfo, main

from ._chips_search import chip_candidates, chip_kind
from ._search import SearchBot
from .scauver_heuristic import ScauverHeuristic, best_completion, goodness

#: The values a rollout assumes for cards still to be drawn (the deck's mean is 5.5).
FILLER = (5, 6, 5, 6, 5, 6, 5, 6)


@cache
def promise(left: tuple[int, ...], right: tuple[int, ...], hand: tuple[int, ...]) -> float:
    """How good a field can still become (0..1): its best completion with ``hand`` and typical
    values for the cards still to come."""
    need = 8 - len(left) - len(right) - len(hand)
    extra = tuple(sorted((*hand, *FILLER[: max(need, 0)])))
    if need < 0:
        extra = tuple(sorted(hand))[: 8 - len(left) - len(right)]
    return goodness(best_completion(left, right, extra))


def _field_values(state: ScauverState, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    left, right = state.fields[seat]
    return tuple(sorted(VALUES[c] for c in left)), tuple(sorted(VALUES[c] for c in right))


def _hand_values(state: ScauverState, seat: int) -> tuple[int, ...]:
    return tuple(sorted(VALUES[c] for c in state.hands[seat]))


def place(state: ScauverState, player: int) -> int:
    """The placement whose field promises most (:func:`promise`)."""
    left, right = _field_values(state, player)
    hand = state.hands[player]
    best, best_value = -1, -1.0
    for action in RULES.legal_actions(state):
        if PLACE <= action < PLACE_PAIR:
            card, flank = divmod(action - PLACE, 2)
            placed = [(card, flank)]
        elif PLACE_PAIR <= action < OPEN:
            low, high = divmod(action - PLACE_PAIR, 40)
            placed = [(low, 0), (high, 1)]
        else:
            placed = _opening(hand, action)
        new_left, new_right = list(left), list(right)
        rest = list(hand)
        for card, flank in placed:
            (new_left if flank == 0 else new_right).append(VALUES[card])
            rest.remove(card)
        value = promise(
            tuple(sorted(new_left)),
            tuple(sorted(new_right)),
            tuple(sorted(VALUES[c] for c in rest)),
        )
        if value > best_value:
            best, best_value = action, value
    return best


def _opening(hand: tuple[int, ...], action: int) -> list[tuple[int, int]]:
    combo, mask = divmod(action - OPEN, 8)
    return [(hand[pos], (mask >> j) & 1) for j, pos in enumerate(OPEN_COMBOS[combo])]


def chance(state: ScauverState, me: int) -> float:
    """A rough chance to win the showdown: 0.8 when the seat's field promises more than every
    other live field it can see (completed with typical values), less the more it trails."""
    mine = promise(*_field_values(state, me), _hand_values(state, me))
    live = state.table.live
    p = 0.8
    for o in range(len(live)):
        if o != me and live[o]:
            theirs = promise(*_field_values(state, o), ())
            if theirs >= mine:
                p -= 0.3 + 0.4 * min(1.0, theirs - mine)
    return max(0.05, p)


def rollout_policy(state: ScauverState, player: int, rng: np.random.Generator) -> int:
    """A fast Scauver move for ``player`` on the full state."""
    table = state.table
    if table.bet is not None:
        p = chance(state, player)
        bet = table.bet
        answers = chips.answer_actions(table)
        if p > 0.7 and len(answers) > 2:
            return answers[-1]
        price = bet.level - bet.contrib[player]
        return chips.IN if p * (chips.pot(table) + price) >= price else chips.OUT
    phase = state.phase
    if phase is Phase.BET or phase is Phase.FINAL_BET:
        p = chance(state, player)
        bets = chips.bet_actions(table)
        if p > 0.6 and bets:
            return bets[-1] if p > 0.75 else bets[len(bets) // 3]
        return PROCEED if phase is Phase.BET else NO_BET
    return place(state, player)


class ScauverSearch(SearchBot):
    """Searches every betting decision over sampled deals, anchored on the heuristic's move;
    places like the heuristic."""

    name = "scauver-search"
    game = "scauver"
    #: Its rollouts place cards by sampled completions: half the default rate (measured: 21).
    moves_per_ms = 10.0
    #: It bets like the heuristic unless the search finds a move this many chips better.
    margin = 1.0

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.placer = ScauverHeuristic(seed or 0)

    def on_welcome(self, match: MatchInfo) -> None:
        super().on_welcome(match)
        self.placer.on_welcome(match)

    def policy(self, state: Any, player: int, rng: np.random.Generator) -> int:
        return rollout_policy(state, player, rng)

    def kind(self, state: Any, action: int) -> int:
        return chip_kind(action)

    def shortcut(self, decision: Decision, legal: list[int]) -> int | None:
        if all(a >= PLACE for a in legal):  # an opening or a placement
            return self.placer.act(decision)
        return None

    def candidates(self, decision: Decision, legal: list[int]) -> list[int]:
        return chip_candidates(legal)

    def anchor(self, decision: Decision, legal: list[int]) -> int | None:
        return int(self.placer.act(decision))


if __name__ == "__main__":
    main(ScauverSearch(int(os.environ.get("CROUPIER_SEED", "0"))))
