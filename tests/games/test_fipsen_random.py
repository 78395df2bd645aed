"""Fipsen invariants over 2,000+ random deals, checked after every step.

The generic contract checks (legal lists, determinism, labels) run on every game in
``test_random_play.py``; this file adds what only Fipsen knows: the 25 cards are conserved across
hands, Skat, stock, discards and tricks; a deal ends after 5 tricks or as soon as its result is
decided; scores match the contract; no seat sees another's cards, the Skat or the discards.
The random policy (:func:`pick`) favours low bids, gives Kieker a fair chance and lets the declarer
often play its strongest card, with a pass weight that varies per match, so throw-ins, won and
lost contracts, STOP/DURCH choices and Kieker games all occur.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from croupier.games import CHANCE, TERMINAL, get_game
from croupier.games.fipsen.rules import (
    BIDS,
    DECK_SIZE,
    NUM_SEATS,
    Action,
    DealOutcome,
    Phase,
    contract_value,
)

G = get_game("fipsen")
MATCHES = 130  # x 16 deals
SEED = 20_261_130


def accounted_cards(state: Any) -> list[int]:
    """Every card of the deal: hands, tricks, discards, and the unused Skat and stock."""
    played = [c for t in state.tricks for c in t.cards] + list(state.trick)
    dead = [c for c in (*state.skat, *state.stock) if c not in state.taken]
    return [c for h in state.hands for c in h] + played + list(state.discards) + dead


def check_state(state: Any) -> None:
    player = G.current_player(state)
    pub = G.observe(state, None)
    assert pub.hand == ()
    assert pub.skat == ()
    assert pub.discards == ()
    assert pub.totals == G.returns(state)
    if player < 0:
        assert all(h == () for h in state.hands)
        return
    assert sorted(accounted_cards(state)) == list(range(DECK_SIZE)), "a card was lost or doubled"
    played_by = Counter(
        (t.leader + i) % NUM_SEATS for t in state.tricks for i in range(len(t.cards))
    )
    played_by.update((state.leader + i) % NUM_SEATS for i in range(len(state.trick)))
    for seat in range(NUM_SEATS):
        if state.phase is Phase.DISCARD and seat == state.declarer:
            assert len(state.hands[seat]) == 5 + state.discards_left
        else:
            assert len(state.hands[seat]) + played_by[seat] == 5
    assert len(state.tricks) <= 5
    legal = G.legal_actions(state)
    assert legal
    assert list(legal) == sorted(set(legal))
    for seat in range(NUM_SEATS):
        obs = G.observe(state, seat)
        assert obs.hand == state.hands[seat]
        if seat != state.declarer:
            assert obs.skat == ()
            assert obs.discards == ()
        if state.phase is not Phase.SIEBENER_FIPS or seat == player:
            assert obs.to_act == player
            assert obs.history == pub.history
    if state.phase is Phase.PLAY:
        hand = state.hands[player]
        if state.trick:
            led = state.trick[0] >> 3
            follow = [c for c in hand if c >> 3 == led]
            expect = follow or list(hand)
        else:
            expect = list(hand)
        assert [a - Action.PLAY_BASE for a in legal] == expect


def check_deal_end(before: Any, after: Any, seen: Counter[str]) -> None:
    result = G.observe(after, None).last_deal
    assert result is not None
    assert result.deal_index == before.round_index
    moved = tuple(a - b for a, b in zip(G.returns(after), G.returns(before), strict=True))
    assert moved == result.deltas
    seen[result.outcome.name] += 1
    if G.current_player(after) != TERMINAL:
        same = result.outcome is DealOutcome.THROW_IN
        assert G.dealer(after) == (before.dealer if same else (before.dealer + 1) % NUM_SEATS)
        assert G.round_index(after) == before.round_index + 1
    if result.outcome is DealOutcome.THROW_IN:
        assert result.deltas == (0,) * 4
        assert all(G.observe(before, None).passed[s] for s in range(4) if s != before.to_act)
        return
    if result.outcome is DealOutcome.SIEBENER_FIPS:
        assert result.deltas[result.declarer] == 30
        assert sum(result.deltas) == 30
        assert len(result.revealed) == 5
        return
    bid = BIDS[result.contract - Action.BID_BASE]
    declarer = result.declarer
    tricks = G.observe(after, None).past_deals[-1].history
    n_tricks = sum(1 for _, a in tricks if Action.PLAY_BASE <= a < Action.STOP) // 4
    won, lost = result.declarer_tricks, n_tricks - result.declarer_tricks
    value = contract_value(bid, result.hand, result.ruten, result.durch)
    assert result.value == value
    assert result.hand == (bid.hand or any(a == Action.PLAY_HAND for _, a in tricks))
    assert result.ruten == (not bid.kieker and (bid.ruten or result.trump == 3))
    if bid.ruten:
        assert result.trump == 3
    all_five = bid.kieker or result.durch
    n = 5 if all_five else bid.tricks
    if result.outcome is DealOutcome.WON:
        seen["won" + (" durch" if result.durch and not bid.durch else "")] += 1
        assert result.deltas[declarer] == value
        assert won == (5 if all_five else n)
    else:
        assert result.deltas[declarer] == -2 * value
        assert lost == (1 if all_five else 5 - n + 1)
        seen["early end" if n_tricks < 5 else "lost at the end"] += 1
    assert sum(1 for d in result.deltas if d) == 1
    if bid.kieker:
        seen["kieker"] += 1
        assert not result.hand
        assert not result.ruten
        assert not result.durch


def pick(state: Any, rng: np.random.Generator, pass_weight: float) -> int:
    """A random legal action, biased as the module docstring says."""
    legal = G.legal_actions(state)
    if state.phase is Phase.PLAY and state.to_act == state.declarer and rng.random() < 0.8:
        trump = state.trump
        return max(
            legal, key=lambda a: ((a - Action.PLAY_BASE) >> 3 == trump, (a - Action.PLAY_BASE) & 7)
        )
    weights = []
    for a in legal:
        if a == Action.PASS:
            weights.append(pass_weight)
        elif a == Action.KIEKER:
            weights.append(3.0)
        elif Action.BID_BASE <= a < Action.SIEBENER_FIPS:
            weights.append(0.7 ** (a - Action.BID_BASE))
        else:
            weights.append(1.0)
    p = np.array(weights)
    return int(legal[rng.choice(len(legal), p=p / p.sum())])


@pytest.mark.slow
def test_random_fipsen_deals_keep_every_invariant() -> None:
    seen: Counter[str] = Counter()
    deals = 0
    for match in range(MATCHES):
        rng = np.random.default_rng([SEED, match])
        pass_weight = (0.3, 1.0, 4.0)[match % 3]
        state = G.initial_state({})
        check_state(state)
        while (player := G.current_player(state)) != TERMINAL:
            if player == CHANCE:
                after = G.apply_chance(state, G.sample_chance(state, rng))
            else:
                action = pick(state, rng, pass_weight)
                if action == Action.STOP:
                    seen["stop"] += 1
                elif action == Action.DURCH:
                    seen["durch"] += 1
                after = G.apply(state, action)
                if G.round_index(after) != G.round_index(state) or (
                    G.current_player(after) == TERMINAL
                ):
                    check_deal_end(state, after, seen)
                    deals += 1
            check_state(after)
            state = after
        past = G.observe(state, None).past_deals
        assert len(past) == 16
        assert G.returns(state) == tuple(sum(p.result.deltas[s] for p in past) for s in range(4))
    assert deals >= 2_000
    # random play reached the interesting situations (otherwise the checks prove little)
    least_seen = {"THROW_IN": 20, "WON": 200, "LOST": 500, "stop": 50, "durch": 50, "kieker": 50,
                  "early end": 300, "won durch": 5}  # fmt: skip
    for what, least in least_seen.items():
        assert seen[what] >= least, (what, seen)
