"""Felduz rules, clause by clause (``shared/rules/felduz.md`` and the decisions in the module
docstring; betting itself is ``_chips``' and tested there).

Every scenario stacks the deck: ``(dealer,)`` for the first dealer, then a 40-card permutation
built by :func:`felduz_kit.deck_for`. With two players and dealer 0, seat 1 (the dealer's left)
receives the first card, splits first and plays first.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from felduz_kit import G, act, cards, deck_for, labels, open_all, split_id, start

from croupier.errors import IllegalActionError
from croupier.games import CHANCE, TERMINAL, cards40, chips
from croupier.games.felduz.rules import (
    CONTINUE,
    DRAW,
    NO_BET,
    NUM_ACTIONS,
    RESERVE,
    REVEAL,
    SPLIT,
    STAND,
    Criterion,
    FelduzState,
    Move,
    MoveKind,
    Phase,
    ShowdownEvent,
    field_sum,
    move,
    reserve_action,
    reserve_cards,
    showdown,
)

HIGH = "Kc Qc Jc 7c 6c"  # 40: qualifies as dealt
LOW = "Ad 2d 3d 4d 5d"  # 15


def stand_pat(state: FelduzState, seat_count: int = 1) -> FelduzState:
    """``seat_count`` turns of: Stand, NoBet, Reserve:[]."""
    for _ in range(seat_count):
        state = act(state, "Stand", "NoBet", "Reserve:[]")
    return state


# -- cards, chance, deal ---------------------------------------------------------------------------


def test_card_values() -> None:
    assert field_sum(cards("Ac 2d 3h 4s 5c 6d 7h")) == 28
    assert field_sum(cards("Jc Qd Ks")) == 8 + 9 + 10
    assert cards40.card_label(cards("Kc")[0]) == "K♣"


def test_first_dealer_is_a_chance_outcome_then_the_deck() -> None:
    state = G.initial_state({"players": 3})
    assert G.current_player(state) == CHANCE
    assert G.legal_actions(state) == ()
    with pytest.raises(IllegalActionError):
        G.apply_chance(state, (3,))
    state = G.apply_chance(state, (2,))
    assert G.dealer(state) == 2
    assert G.current_player(state) == CHANCE
    with pytest.raises(IllegalActionError):
        G.apply_chance(state, tuple(range(39)))
    with pytest.raises(IllegalActionError):
        G.apply_chance(state, (0, *range(39)))


def test_deal_one_card_at_a_time_clockwise_from_the_dealers_left_rest_is_the_stock() -> None:
    state = G.initial_state({"players": 3})
    state = G.apply_chance(G.apply_chance(state, (0,)), tuple(range(40)))
    assert state.closed[1] == (0, 3, 6, 9, 12)
    assert state.closed[2] == (1, 4, 7, 10, 13)
    assert state.closed[0] == (2, 5, 8, 11, 14)
    assert state.stock == tuple(range(15, 40))
    state = open_all(state, {})
    assert G.current_player(state) == 1  # turns start at the dealer's left
    state = act(state, "Draw")
    assert 15 in state.closed[1]  # the top of the stock
    assert G.observe(state, None).stock == 24


def test_amphora_is_posted_by_the_dealer_and_its_left_only() -> None:
    state = start({}, dealer=1, players=3)
    assert state.table.committed == (0, 1, 1)
    state = start({}, dealer=0, players=2)
    assert state.table.committed == (1, 1)


def test_amphora_doubles_on_schedule_and_the_dealer_rotates_left() -> None:
    state = open_all(start({1: HIGH, 0: LOW}, players=3, double_every=1), {})
    state = stand_pat(state, 3)
    assert G.current_player(state) == CHANCE
    assert G.round_index(state) == 1
    assert G.dealer(state) == 1
    assert state.table.amphora == 2
    assert state.table.committed == (0, 2, 2)


# -- the opening -----------------------------------------------------------------------------------


def test_opening_offers_the_ten_splits_seat_by_seat_from_the_dealers_left() -> None:
    state = start({1: "Kc 7h 2d Ac As", 2: "Ah 2h 3h 4h 5h"}, players=3)
    assert state.phase is Phase.OPENING
    assert G.current_player(state) == 1
    assert G.legal_actions(state) == tuple(range(SPLIT, SPLIT + 10))
    # the hand sorted by id: Ac(0) Kc(9) 2d(11) 7h(26) As(30); splits in combinations order
    assert labels(state)[0] == "Open:[A♣ K♣ 2♦]"
    assert labels(state)[-1] == "Open:[2♦ 7♥ A♠]"
    assert not G.is_public(state, SPLIT)
    state = G.apply(state, split_id(state, "Kc 7h 2d"))
    assert G.current_player(state) == 2
    state = G.apply(state, SPLIT)
    assert G.current_player(state) == 0  # the dealer chooses last
    state = G.apply(state, SPLIT)
    assert state.phase is Phase.DRAW
    assert state.open[1] == cards("Kc 2d 7h")
    assert state.closed[1] == cards("Ac As")
    assert state.open[2] == cards("Ah 2h 3h")


def test_no_seat_sees_another_split_before_all_have_chosen() -> None:
    state = start({1: HIGH, 0: LOW})
    one = G.apply(state, split_id(state, "Kc Qc Jc"))
    other = G.apply(state, split_id(state, "7c 6c Qc"))
    for seat in (0, None):
        assert G.observe(one, seat) == G.observe(other, seat)
    mine = G.observe(one, 1)
    assert mine.open_fields[1] == cards("Jc Qc Kc")
    assert mine.closed == cards("6c 7c")
    assert mine.open_fields[0] == ()
    assert G.observe(one, 0).chosen == (False, True)
    assert G.observe(one, 0).closed_counts == (5, 5)
    done = G.apply(one, split_id(one, "Ad 2d 3d"))
    for seat in (0, 1, None):
        assert G.observe(done, seat).open_fields == (cards("Ad 2d 3d"), cards("Jc Qc Kc"))


# -- a turn ----------------------------------------------------------------------------------------


def test_step_one_draw_or_stand_then_the_betting_step() -> None:
    state = open_all(start({1: HIGH, 0: LOW}, stock="5h 6h"), {})
    assert labels(state) == ["Draw", "Stand"]
    drawn = act(state, "Draw")
    assert drawn.phase is Phase.BET
    assert drawn.closed[1] == tuple(sorted((*state.closed[1], *cards("5h"))))
    assert drawn.stock[0] == cards("6h")[0]
    assert G.legal_actions(drawn)[-1] == NO_BET
    assert G.legal_actions(drawn)[:-1] == chips.bet_actions(drawn.table)
    assert labels(drawn)[0] == "Bet:1"
    assert labels(drawn)[-2] == "Bet:99"  # the cap: 100, minus the amphora already in


def test_with_an_empty_stock_only_stand_is_legal() -> None:
    state = open_all(start({}, players=4), {})
    while state.stock:
        state = act(state, "Draw", "NoBet")
        state = G.apply(state, G.legal_actions(state)[0])
        state = act(state, "Continue")
    assert state.phase is Phase.DRAW
    assert G.legal_actions(state) == (STAND,)


def test_a_bet_is_answered_by_the_others_before_play_goes_on() -> None:
    state = open_all(start({1: HIGH, 0: LOW}, players=3), {})
    state = act(state, "Draw", "Bet:4")
    assert G.current_player(state) == 2
    assert labels(state)[:3] == ["In", "Out", "Raise:1"]
    state = act(state, "In")
    assert G.current_player(state) == 0
    state = act(state, "Raise:2")  # seat 1 (the bettor) and seat 2 answer again
    assert G.current_player(state) == 1
    state = act(state, "In")
    assert G.current_player(state) == 2
    state = act(state, "In")
    assert state.phase is Phase.REVEAL
    assert G.current_player(state) == 1
    assert state.table.committed == (7, 7, 6)  # seats 0 and 1 posted the amphora


def test_a_bettor_that_answers_a_raise_with_out_ends_its_turn() -> None:
    state = open_all(start({1: HIGH, 0: LOW}, players=3), {})
    state = act(state, "Draw", "Bet:1", "Raise:1", "In", "Out")  # seat 1 goes OUT
    assert not state.table.live[1]
    assert state.phase is Phase.DRAW
    assert G.current_player(state) == 2
    assert state.table.bet is None


def test_a_raise_may_reach_the_cap_once_the_posters_are_out() -> None:
    # cap 10; seats 0 and 1 posted the amphora, so a sequence starts limited to level 9. Once
    # both answer OUT, the live seats 2 and 3 have nothing else in: level 10 breaks no cap.
    state = open_all(start({}, players=4, stack=10), {})
    state = act(state, "Draw", "NoBet")
    state = act(G.apply(state, G.legal_actions(state)[0]), "Continue")  # seat 1's turn
    state = act(state, "Draw", "Bet:2", "Raise:1", "Out", "Out")  # seat 2 bets, 3 raises
    assert G.current_player(state) == 2
    assert labels(state)[-1] == "Raise:7"  # level 10 = the cap
    state = act(state, "Raise:7", "In")
    assert state.table.committed == (1, 1, 10, 10)
    assert state.phase is Phase.REVEAL


def test_reveal_is_mandatory_and_only_of_a_closed_card() -> None:
    state = open_all(start({1: HIGH, 0: LOW}, stock="5h"), {1: "Kc Qc Jc"})
    state = act(state, "Draw", "NoBet")
    assert state.phase is Phase.REVEAL
    assert labels(state) == ["Reveal:6♣", "Reveal:7♣", "Reveal:5♥"]
    assert G.is_public(state, REVEAL + cards("5h")[0])
    state = act(state, "Reveal:5♥")
    assert state.open[1] == cards("Jc Qc Kc 5h")
    assert state.closed[1] == cards("6c 7c")
    assert labels(state) == ["Stand", "Continue"]


def test_continue_passes_the_turn_left() -> None:
    state = open_all(start({}, players=3), {})
    state = act(state, "Draw", "NoBet")
    state = G.apply(state, G.legal_actions(state)[0])
    state = act(state, "Continue")
    assert G.current_player(state) == 2
    assert state.phase is Phase.DRAW
    assert not state.stood[1]


def test_standing_at_step_one_bets_then_chooses_the_reserve() -> None:
    state = open_all(start({1: HIGH, 0: LOW}), {})
    state = act(state, "Stand")
    assert state.phase is Phase.BET
    state = act(state, "NoBet")
    assert state.phase is Phase.RESERVE
    assert G.current_player(state) == 1
    assert not G.is_public(state, RESERVE)
    state = act(state, "Reserve:[]")
    assert G.current_player(state) == 0
    assert state.stood == (False, True)


def test_a_non_empty_reserve_needs_the_rest_of_the_field_to_reach_40() -> None:
    # 36 dealt; 6h drawn: 42. Reserving 2c leaves 40; 6h leaves 36; both leave 34.
    state = open_all(start({1: "Kc Qc Jc 7c 2c", 0: LOW}, stock="6h"), {1: "Kc Qc Jc"})
    state = act(state, "Draw", "NoBet", "Reveal:7♣", "Stand")
    assert labels(state) == ["Reserve:[]", "Reserve:[2♣]"]
    state = act(state, "Reserve:[2♣]")
    assert state.reserve[1] == cards("2c")
    assert state.closed[1] == cards("6h")
    assert field_sum(state.open[1] + state.closed[1]) == 40
    seen = G.observe(state, 0)
    assert seen.reserve_counts == (0, 1)
    assert seen.reserve == ()
    assert G.observe(state, 1).reserve == cards("2c")


def test_the_reserve_may_take_both_closed_cards() -> None:
    # 46 dealt, two kings drawn and revealed: the open field alone sums to 47
    state = open_all(start({1: "Kc Qc Jc Ks Qs", 0: LOW}, stock="Kh 2h Kd"), {1: "Kc Qc Jc"})
    state = act(state, "Draw", "NoBet", "Reveal:K♥", "Continue")
    state = act(state, "Draw", "NoBet", "Reveal:2♥", "Continue")
    state = act(state, "Draw", "NoBet", "Reveal:K♦", "Stand")
    assert labels(state) == ["Reserve:[]", "Reserve:[Q♠]", "Reserve:[K♠]", "Reserve:[Q♠ K♠]"]
    assert G.legal_actions(state)[-1] == reserve_action(cards("Qs Ks"))
    assert reserve_cards(reserve_action(cards("Ks Qs"))) == cards("Qs Ks")


def test_a_seat_that_stood_only_bets_on_its_later_turns_and_still_answers() -> None:
    state = open_all(start({1: HIGH, 0: LOW}), {})
    state = stand_pat(state)
    state = act(state, "Draw", "NoBet", "Reveal:4♦", "Continue")
    assert G.current_player(state) == 1
    assert state.phase is Phase.BET
    assert DRAW not in G.legal_actions(state)
    assert G.legal_actions(state)[-1] == NO_BET
    state = act(state, "NoBet")
    assert G.current_player(state) == 0
    state = act(state, "Draw", "Bet:2")
    assert G.current_player(state) == 1  # the seat that stood answers
    state = act(state, "In")
    assert state.phase is Phase.REVEAL


def test_the_round_ends_after_the_betting_step_of_the_turn_in_which_the_last_seat_stands() -> None:
    state = open_all(start({1: HIGH, 0: LOW}), {})
    state = stand_pat(state)
    state = act(state, "Stand")
    assert state.phase is Phase.BET  # its betting step still comes
    state = act(state, "Bet:3", "In")
    assert state.phase is Phase.RESERVE
    state = act(state, "Reserve:[]")
    assert G.current_player(state) == CHANCE
    result = G.observe(state, None).last_round
    assert result is not None
    assert result.settlement.pot == 8
    assert result.settlement.winners == (1,)
    assert G.returns(state) == (Fraction(96), Fraction(104))


def test_a_seat_standing_at_step_four_ends_the_round_with_its_reserve() -> None:
    state = open_all(start({1: HIGH, 0: "Kd Qd Jd 7d 2d"}, stock="Kh"), {})
    state = stand_pat(state)
    state = act(state, "Draw", "NoBet", "Reveal:K♥", "Stand", "Reserve:[]")
    assert G.current_player(state) == CHANCE
    result = G.observe(state, None).last_round
    assert result is not None
    assert result.decided_by is Criterion.POINTS  # 36 + 10 = 46 vs 40


def test_the_round_ends_when_every_live_seat_has_stood_after_an_out() -> None:
    state = open_all(start({1: HIGH, 2: "Kd Qd Jd 7d 6d", 0: LOW}, stock="4h", players=3), {})
    state = stand_pat(state, 2)
    state = act(state, "Draw", "NoBet", "Reveal:4♥", "Continue")
    state = act(state, "Bet:1", "In", "Out")  # seat 1 bets, seat 2 in, seat 0 (drawing) out
    assert G.current_player(state) == CHANCE
    result = G.observe(state, None).last_round
    assert result is not None
    assert result.fields[0] is None
    assert result.decided_by is Criterion.SPLIT
    assert result.settlement.winners == (1, 2)


def test_a_lone_live_seat_takes_the_pot_at_once_without_showdown() -> None:
    state = open_all(start({1: HIGH, 0: LOW}), {})
    state = act(state, "Draw", "Bet:1", "Out")
    assert G.current_player(state) == CHANCE
    obs = G.observe(state, None)
    result = obs.last_round
    assert result is not None
    assert result.events == ()
    assert result.decided_by is None
    assert result.fields == (None, None)
    assert result.settlement == chips.Settlement((1,), 3, (0, 3), (), False)
    assert G.returns(state) == (Fraction(99), Fraction(101))
    assert obs.past_rounds[0].history == ((1, DRAW), (1, chips.BET + 1), (0, chips.OUT))
    assert G.dealer(state) == 1  # the next round's dealer is one seat left


def test_there_is_no_voluntary_fold() -> None:
    state = open_all(start({1: HIGH, 0: LOW}), {})
    phases = set()
    while G.current_player(state) >= 0:  # a whole round of first-legal choices
        phases.add(state.phase)
        assert chips.OUT not in G.legal_actions(state)
        state = G.apply(
            state, G.legal_actions(state)[0] if state.phase is not Phase.BET else NO_BET
        )
    assert phases == {Phase.DRAW, Phase.BET, Phase.REVEAL, Phase.CONTINUE, Phase.RESERVE}


# -- the showdown ----------------------------------------------------------------------------------


def ev(criterion: Criterion, *seats: int) -> ShowdownEvent:
    return ShowdownEvent(criterion, seats)


def test_a_qualified_field_beats_every_unqualified_one() -> None:
    fields = {0: cards("Kc Qc Jc 7c 6c 2c"), 1: cards("Ad 2d 3d"), 2: cards("Kh Qh Jh")}
    events = showdown(fields, {0: (), 1: (), 2: ()})
    assert events == (ev(Criterion.QUALIFIED, 0),)


def test_the_lower_qualified_sum_wins_then_the_lower_reserve() -> None:
    fields = {0: cards("Kc Qc Jc 7c 6c 2c"), 1: cards("Kd Qd Jd 7d 6d"), 2: cards("Kh Qh Jh 7h 6h")}
    events = showdown(fields, {0: (), 1: cards("3d"), 2: cards("As")})
    assert events == (
        ev(Criterion.QUALIFIED, 0, 1, 2),
        ev(Criterion.POINTS, 1, 2),
        ev(Criterion.RESERVE, 2),
    )


def test_an_empty_reserve_counts_zero() -> None:
    fields = {0: cards("Kc Qc Jc 7c 6c"), 1: cards("Kd Qd Jd 7d 6d")}
    assert showdown(fields, {0: cards("Ah"), 1: ()})[-1] == ev(Criterion.RESERVE, 1)


def test_on_a_tie_of_points_fewer_field_cards_win() -> None:
    fields = {0: cards("Kc Qc Jc 7c 6c"), 1: cards("Kd Qd Jd 7d 4d 2d")}
    events = showdown(fields, {0: (), 1: ()})
    assert events[-1] == ev(Criterion.LENGTH, 0)
    assert [e.criterion for e in events] == [
        Criterion.QUALIFIED,
        Criterion.POINTS,
        Criterion.RESERVE,
        Criterion.LENGTH,
    ]


def test_when_nobody_qualifies_fewer_field_cards_win_whatever_the_sums() -> None:
    fields = {0: cards("Kc Qc Jc 6c"), 1: cards("Ad 2d 3d 4d 5d")}
    assert showdown(fields, {0: (), 1: cards("As")}) == (
        ev(Criterion.QUALIFIED, 0, 1),
        ev(Criterion.LENGTH, 0),
    )


def test_then_by_rank_the_lowest_card_first_then_the_next() -> None:
    fields = {0: cards("Ac Kc Qc Jc 7c 3c"), 1: cards("Ad Kd Qd Jd 6d 4d")}
    events = showdown(fields, {0: (), 1: ()})
    assert events[-1] == ev(Criterion.RANK, 0)  # 1 3 7 8 9 10 < 1 4 6 8 9 10
    fields = {0: cards("2c 3c"), 1: cards("Ad 4d")}
    assert showdown(fields, {0: (), 1: ()})[-1] == ev(Criterion.RANK, 1)


def test_still_tied_the_pot_is_split() -> None:
    fields = {0: cards("Kc Qc Jc 7c 6c"), 1: cards("Kd Qd Jd 7d 6d"), 2: cards("Ah")}
    assert showdown(fields, {0: (), 1: (), 2: ()})[-1] == ev(Criterion.SPLIT, 0, 1)


def test_showdown_through_play_records_fields_reserves_and_events() -> None:
    hands = {1: "Kc Qc Jc 7c 2c", 0: "Kd Qd Jd 7d 3d"}
    state = open_all(start(hands, stock="6h 6s"), {1: "Kc Qc Jc", 0: "Kd Qd Jd"})
    state = act(state, "Draw", "NoBet", "Reveal:7♣", "Stand", "Reserve:[2♣]")  # 40, R = 2
    state = act(state, "Draw", "NoBet", "Reveal:7♦", "Stand", "Reserve:[3♦]")  # 40, R = 3
    result = G.observe(state, 0).last_round
    assert result is not None
    assert result.fields == (
        tuple(sorted(cards("Jd Qd Kd 7d 6s"))),
        tuple(sorted(cards("Jc Qc Kc 7c 6h"))),
    )
    assert result.reserves == (cards("3d"), cards("2c"))
    assert result.events == (
        ev(Criterion.QUALIFIED, 0, 1),
        ev(Criterion.POINTS, 0, 1),
        ev(Criterion.RESERVE, 1),
    )
    assert result.settlement.showdown
    assert result.round == 0
    assert result.dealer == 0


def test_a_split_pot_goes_through_settle_with_every_winner() -> None:
    state = open_all(start({1: HIGH, 0: "Kd Qd Jd 7d 6d"}), {})
    state = stand_pat(state, 2)
    result = G.observe(state, None).last_round
    assert result is not None
    assert result.settlement.winners == (0, 1)
    assert result.settlement.shares == (1, 1)
    assert G.returns(state) == (Fraction(100), Fraction(100))


# -- the match -------------------------------------------------------------------------------------


def test_a_seat_below_the_next_amphora_is_eliminated_and_the_match_ends() -> None:
    state = open_all(start({1: HIGH, 0: LOW}, stack=3), {})
    state = act(state, "Stand")
    assert labels(state) == ["Bet:1", "Bet:2", "NoBet"]  # cap 3, one chip already in
    state = act(state, "Bet:2", "In", "Reserve:[]")
    state = act(state, "Stand")
    assert labels(state) == ["NoBet"]
    state = act(state, "NoBet", "Reserve:[]")
    assert G.current_player(state) == TERMINAL
    assert G.legal_actions(state) == ()
    assert G.returns(state) == (Fraction(0), Fraction(6))
    assert G.ranking(state) == (2, 1)
    assert state.table.out_round == (0, -1)
    with pytest.raises(IllegalActionError):
        G.default_action(state)


def test_the_round_cap_ends_the_match() -> None:
    state = open_all(start({1: HIGH, 0: LOW}, round_cap=1), {})
    state = act(state, "Draw", "Bet:5", "Out")
    assert G.current_player(state) == TERMINAL
    assert G.ranking(state) == (2, 1)


def test_at_the_round_cap_nobody_is_eliminated_and_chips_decide_every_place() -> None:
    """The cap round has no next round: seats 0 and 1 end below the A a next round would have
    (2) with 1 and 0 chips, from equal stacks; they are ranked by chips, not as players
    eliminated together."""
    hands = {1: LOW, 2: HIGH, 0: "Ah 2h 3h 4h 5h"}
    state = open_all(start(hands, players=3, stack=3, round_cap=1, double_every=1), {})
    state = act(state, "Stand", "Bet:1", "In", "In", "Reserve:[]")  # seat 1 bets
    state = act(state, "Stand", "Bet:1", "Out", "In", "Reserve:[]")  # seat 2 bets; 0 is out
    assert G.current_player(state) == TERMINAL
    assert G.returns(state) == (Fraction(1), Fraction(0), Fraction(8))
    result = G.observe(state, None).last_round
    assert result is not None
    assert result.settlement.eliminated == ()
    assert state.table.out_round == (-1, -1, -1)
    assert G.ranking(state) == (2, 3, 1)


def test_eliminated_seats_get_no_cards_and_never_act() -> None:
    hands = {1: HIGH, 2: "Ah 2h 3h 4h 5h", 0: LOW}
    state = open_all(start(hands, players=3, stack=2, double_every=0), {})
    state = act(state, "Stand", "Bet:1", "In", "In", "Reserve:[]")
    state = stand_pat(state, 2)
    assert state.table.out_round == (0, -1, -1)
    assert G.dealer(state) == 1
    state = G.apply_chance(state, tuple(range(40)))
    assert state.closed[0] == ()
    assert state.closed[2] == (0, 2, 4, 6, 8)  # seat 2 is the dealer's left; seat 0 is skipped
    assert state.table.committed == (0, 1, 1)
    seen = set()
    while G.current_player(state) >= 0:
        seen.add(G.current_player(state))
        state = G.apply(state, G.default_action(state))
    assert 0 not in seen


# -- observations ----------------------------------------------------------------------------------


def test_a_seat_sees_open_fields_its_own_closed_cards_and_counts_of_the_others() -> None:
    state = open_all(start({1: HIGH, 0: LOW}, stock="5h"), {1: "Kc Qc Jc", 0: "Ad 2d 3d"})
    state = act(state, "Draw")
    me, other, public = G.observe(state, 1), G.observe(state, 0), G.observe(state, None)
    assert me.closed == cards("6c 7c 5h")
    assert other.closed == cards("4d 5d")
    assert public.closed == ()
    for obs in (me, other, public):
        assert obs.open_fields == (cards("Ad 2d 3d"), cards("Jc Qc Kc"))
        assert obs.closed_counts == (2, 3)
        assert obs.history == ((1, DRAW),)
        assert obs.table == state.table
        assert obs.to_act == 1
        assert obs.turn == 1
        assert obs.stock == 29
    assert G.is_public(state, NO_BET)


def test_default_actions_are_the_passive_choices() -> None:
    state = start({1: HIGH, 0: LOW}, stock="5h")
    assert G.default_action(state) == SPLIT
    state = open_all(state, {})
    assert G.default_action(state) == STAND
    state = act(state, "Draw")
    assert G.default_action(state) == NO_BET
    answering = act(state, "Bet:1")
    assert G.default_action(answering) == chips.OUT
    state = act(state, "NoBet")
    assert G.default_action(state) == G.legal_actions(state)[0]
    state = G.apply(state, G.legal_actions(state)[0])
    assert G.default_action(state) == STAND
    state = act(state, "Stand")
    assert G.default_action(state) == RESERVE


def test_illegal_actions_are_rejected_and_leave_the_state_alone() -> None:
    state = open_all(start({1: HIGH, 0: LOW}), {})
    before = state
    for bad in (CONTINUE, NO_BET, -1, NUM_ACTIONS, chips.IN, True, 1.0, "x"):
        with pytest.raises(IllegalActionError):
            G.apply(state, bad)  # type: ignore[arg-type]
    assert state == before
    with pytest.raises(IllegalActionError):
        G.apply(G.initial_state({}), DRAW)
    with pytest.raises(IllegalActionError):
        G.sample_chance(state, None)  # type: ignore[arg-type]


def test_deck_for_places_the_cards_asked() -> None:
    deck = deck_for(3, 2, {0: HIGH}, stock="Ah")
    assert sorted(deck) == list(range(40))
    assert tuple(sorted(deck[0:15:3])) == tuple(sorted(cards(HIGH)))  # seat 0 is first
    assert deck[15] == cards("Ah")[0]


# -- moves: an id decoded once ---------------------------------------------------------------------


def test_a_move_names_what_an_id_does_and_its_cards() -> None:
    assert move(DRAW) == Move(MoveKind.DRAW)
    assert move(chips.BET + 4) == Move(MoveKind.CHIPS, chip=chips.ChipMove(chips.ChipKind.BET, 4))
    assert move(REVEAL + cards("7h")[0]) == Move(MoveKind.REVEAL, cards("7h"))
    assert move(reserve_action(cards("Ks Qs"))) == Move(MoveKind.RESERVE, cards("Qs Ks"))
    assert move(RESERVE) == Move(MoveKind.RESERVE, ())
    assert move(RESERVE).label == "Reserve:[]"
    assert move(REVEAL + cards("7h")[0]).label == "Reveal:7♥"
    assert move(DRAW) is move(DRAW)  # decoded once per id


def test_a_split_decodes_with_the_hand_and_only_with_it() -> None:
    state = start({1: HIGH, 0: LOW})
    hand = state.closed[1]
    opened = move(SPLIT + 9, hand)  # the last 3-subset: the three highest card ids
    assert opened == Move(MoveKind.OPEN, hand[2:])
    assert opened.label == G.action_label(state, SPLIT + 9) == "Open:[J♣ Q♣ K♣]"
    with pytest.raises(IllegalActionError):
        move(SPLIT)  # no hand: its cards are unknown
    for bad in (-1, NUM_ACTIONS):
        with pytest.raises(IllegalActionError):
            move(bad)
