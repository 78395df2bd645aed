"""The Fipsen search bot: determinized sampling with rollouts (``croupier_bots._search``).

Every decision with a choice is searched: it samples the hidden cards from what the seat has
seen (voids, Kieker bids, the Skat it took), weighs each sample by how well the rollout policy
explains the others' bids, plays each candidate out to the end of the deal in every sample, and
keeps the best mean result (its own gain minus the others' mean: a defender gains by beating the
declarer). Bidding searches passing, holding and the cheapest bid of each trick count (plain,
and with Hand); play searches every legal card. Siebener Fips is always called.

Rollout policy (every seat, on the full state): bid the tricks its hand should take
(:func:`croupier_bots.fipsen_heuristic.worth`, the heuristic's bidder), take the Skat, keep
the five cards with the best estimate, name the best suit; the declarer cashes sure winners and
leads trumps, defenders lead side Aces; following, let a partner's winning card stand, else win
as cheaply as possible, else throw the lowest card.
"""

from __future__ import annotations

import itertools
import os
from functools import cache
from typing import Any

import numpy as np

from croupier.games.fipsen.rules import BIDS, GAME, Action, FipsenState, Phase
from croupier_bot import Decision, main

from ._search import SearchBot
from .fipsen_heuristic import (
    estimate,
    make_chance,
    ruten_keep,
    ruten_tricks,
    worth,
)

_PASS, _HOLD, _BID = int(Action.PASS), int(Action.HOLD), int(Action.BID_BASE)
_FIPS, _TAKE, _PLAY_HAND = int(Action.SIEBENER_FIPS), int(Action.TAKE_SKAT), int(Action.PLAY_HAND)
_DISCARD, _TRUMP, _PLAY = int(Action.DISCARD_BASE), int(Action.TRUMP_BASE), int(Action.PLAY_BASE)
_STOP, _DURCH, _KIEKER = int(Action.STOP), int(Action.DURCH), int(Action.KIEKER)


def _card(c: int) -> tuple[int, int]:
    return c >> 3, c & 7


@cache
def best_suit(hand: tuple[int, ...]) -> tuple[int, float]:
    """The trump suit giving ``hand`` the best estimate, and that estimate."""
    cards = [_card(c) for c in hand]
    return max(((t, estimate(cards, t)) for t in range(4)), key=lambda te: te[1])


@cache
def _ruten_tricks(hand: tuple[int, ...]) -> int:
    return ruten_tricks([_card(c) for c in hand])


@cache
def keep_best(hand: tuple[int, ...], keep: int) -> tuple[int, ...]:
    """The ``keep`` cards of ``hand`` with the best estimate (ties: the higher cards)."""
    return max(itertools.combinations(hand, keep), key=lambda k: (best_suit(k)[1], k))


def _beats(card: int, best: int, led: int, trump: int) -> bool:
    def key(c: int) -> tuple[int, int]:
        s = c >> 3
        return (2 if s == trump else 1 if s == led else 0, c & 7)

    return key(card) > key(best)


def rollout_policy(state: FipsenState, player: int, rng: np.random.Generator) -> int:
    """A fast Fipsen move for ``player`` on the full state (it reads its own hand and the
    table only)."""
    phase = state.phase
    hand = state.hands[player]
    if phase is Phase.PLAY:
        return _PLAY + play_card(state, player)
    if phase is Phase.BIDDING:
        return bid(state, player)
    if phase is Phase.SIEBENER_FIPS:
        return _FIPS
    if phase is Phase.SKAT:
        return _TAKE
    if phase is Phase.DISCARD:
        if BIDS[state.bid - _BID].ruten:  # ♦ is trump: keep the 7♦, Aces and Kings
            return _DISCARD + min(hand, key=lambda c: ruten_keep(_card(c)))
        kept = keep_best(hand, len(hand) - state.discards_left)
        out = [c for c in hand if c not in kept]
        return _DISCARD + min(out, key=lambda c: (c & 7, c))
    if phase is Phase.TRUMP:
        return _TRUMP + best_suit(hand)[0]
    return _STOP  # STOP_OR_DURCH


def bid(state: FipsenState, player: int) -> int:
    """The heuristic's bid (:func:`croupier_bots.fipsen_heuristic.worth`): the hold or bid worth
    most on average among those it would play, else pass."""
    e, k = best_suit(state.hands[player])[1], _ruten_tricks(state.hands[player])
    best, best_worth = _PASS, 0.0
    for action in _legal_bids(state, player):
        if action == _PASS:
            continue
        contract = BIDS[(state.bid if action == _HOLD else action) - _BID]
        value = worth(contract, e, k)
        if value is not None and (best == _PASS or value > best_worth):
            best, best_worth = action, value
    return best


def _legal_bids(state: FipsenState, player: int) -> tuple[int, ...]:
    return GAME.legal_actions(state)


def legal_cards(state: FipsenState) -> list[int]:
    """The cards the seat to act may play: of the suit led if it can, else any."""
    hand = state.hands[state.to_act]
    if state.trick:
        led = state.trick[0] >> 3
        follow = [c for c in hand if c >> 3 == led]
        if follow:
            return follow
    return list(hand)


def play_card(state: FipsenState, player: int) -> int:
    """The card the rollout policy plays."""
    options = legal_cards(state)
    trump = state.trump
    declarer = state.declarer

    def low_key(c: int) -> tuple[int, int]:
        return ((c >> 3) == trump, c & 7)

    trick = state.trick
    if not trick:
        if player == declarer:
            trumps = [c for c in options if c >> 3 == trump]
            if trumps:
                return max(trumps, key=lambda c: c & 7)
            return max(options, key=lambda c: c & 7)
        aces = [c for c in options if c & 7 == 7 and c >> 3 != trump]
        return aces[0] if aces else min(options, key=low_key)
    led = trick[0] >> 3
    best_i = 0
    for i in range(1, len(trick)):
        if _beats(trick[i], trick[best_i], led, trump):
            best_i = i
    winner = (state.leader + best_i) % 4
    if player != declarer and winner != declarer:
        return min(options, key=low_key)
    winning = [c for c in options if _beats(c, trick[best_i], led, trump)]
    if winning:
        return min(winning, key=low_key)
    return min(options, key=low_key)


#: A bid is searched when the heuristic's table gives it at least this chance.
LIKELY = 0.45
#: At most this many bids are searched at one decision.
MAX_BIDS = 4


class FipsenSearch(SearchBot):
    """Searches bids, the Skat, discards, trump and every card over sampled deals."""

    name = "fipsen-search"
    game = "fipsen"

    def policy(self, state: Any, player: int, rng: np.random.Generator) -> int:
        return rollout_policy(state, player, rng)

    def shortcut(self, decision: Decision, legal: list[int]) -> int | None:
        if _FIPS in legal:
            return _FIPS  # +30, nothing can beat it
        return None

    def candidates(self, decision: Decision, legal: list[int]) -> list[int]:
        if legal[0] != _PASS:
            return legal
        # bidding: pass, hold, and the cheapest bid of each kind (tricks, Hand, Ruten) that the
        # heuristic's table gives a fair chance (:data:`LIKELY`), the likeliest first
        hand = tuple(sorted(int(c.id) for c in decision.observation.fipsen.hand))
        cards = [_card(c) for c in hand]
        e, k = best_suit(hand)[1], ruten_tricks(cards)
        out = [_PASS, *([_HOLD] if _HOLD in legal else [])]
        seen: set[tuple[int, bool, bool]] = set()
        scored: list[tuple[float, int]] = []
        for action in legal:
            if action < _BID or action >= _FIPS:
                continue
            b = BIDS[action - _BID]
            key = (b.tricks, b.hand, b.ruten)
            if b.kieker or b.durch or key in seen:
                continue
            seen.add(key)
            p = make_chance(b.tricks, b.hand, k if b.ruten else e, b.ruten)
            if p >= LIKELY:
                scored.append((-p, action))
        out += [a for _, a in sorted(scored)[:MAX_BIDS]]
        return out


if __name__ == "__main__":
    main(FipsenSearch(int(os.environ.get("CROUPIER_SEED", "0"))))
