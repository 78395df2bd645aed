"""The shared betting module, clause by clause (``shared/rules/chips.md``), and its invariants.

Felduz and Scauver only call these functions, so each clause is pinned here once; the games'
own tests check that they call them at the right moments.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.errors import IllegalActionError
from croupier.games import cards40, chips
from croupier.games._api import first_dealer, shuffled_deck
from croupier.games.chips import BET, IN, OUT, RAISE, Table


def table(stacks: tuple[int, ...], dealer: int = 0, amphora: int = 1) -> Table:
    """A table whose first round starts now with ``dealer``, from the given stacks."""
    t = chips.new_table(len(stacks), 0)._replace(stacks=stacks, start_stacks=stacks)
    return chips.start_round(t, dealer, amphora)


def total(t: Table) -> int:
    return sum(chips.chips(t))


# ---- the deck -----------------------------------------------------------------------------------


def test_the_deck_has_forty_cards_with_the_rules_values() -> None:
    assert cards40.DECK_SIZE == 40
    values = sorted(cards40.VALUES)
    assert values == sorted(list(range(1, 11)) * 4)
    assert cards40.card_label(0) == "A♣"
    assert cards40.card_value(0) == 1
    assert cards40.card_label(9) == "K♣"
    assert cards40.card_value(9) == 10
    assert cards40.card_value(7) == 8
    assert cards40.card_value(8) == 9
    assert len(set(cards40.CARD_LABELS)) == 40
    assert cards40.cards_label([9, 26]) == "[K♣ 7♥]"
    assert cards40.cards_label([]) == "[]"


# ---- parameters and the amphora schedule -------------------------------------------------------


def test_parameter_defaults_are_the_standard_ruleset() -> None:
    defaults = {p.name: p.default for p in chips.PARAMS}
    assert defaults == {
        "players": 2,
        "stack": 100,
        "amphora": 1,
        "double_every": 10,
        "round_cap": 300,
    }
    assert {p.name: (p.low, p.high) for p in chips.PARAMS}["players"] == (2, 4)


def test_the_amphora_doubles_every_ten_rounds() -> None:
    assert [chips.amphora_at(1, 10, r) for r in (0, 9, 10, 19, 20, 35)] == [1, 1, 2, 2, 4, 8]
    assert chips.amphora_at(3, 0, 250) == 3  # 0: never doubles


# ---- amphora posting ----------------------------------------------------------------------------


def test_with_two_players_both_post() -> None:
    t = table((100, 100), dealer=1)
    assert t.committed == (1, 1)
    assert t.stacks == (99, 99)


def test_with_three_players_the_dealer_and_its_left_post() -> None:
    t = table((100, 100, 100), dealer=2, amphora=4)
    assert t.committed == (4, 0, 4)  # seat 0 is the dealer's left


def test_with_four_players_only_two_post() -> None:
    t = table((50, 50, 50, 50), dealer=1, amphora=2)
    assert t.committed == (0, 2, 2, 0)
    assert chips.pot(t) == 4


def test_a_short_stack_posts_what_it_has() -> None:
    t = table((3, 100, 100), dealer=0, amphora=5)
    assert t.committed == (3, 5, 0)
    assert t.stacks == (0, 95, 100)


def test_eliminated_seats_neither_deal_nor_post() -> None:
    t = chips.new_table(4, 20)._replace(out_round=(-1, 0, -1, -1))
    assert chips.next_seated(t, 0) == 2
    t = chips.start_round(t._replace(round=0, dealer=3), chips.next_dealer(t._replace(dealer=3)), 1)
    # after seat 3 comes seat 0 (seat 1 is out); seat 0 deals, seat 2 is its seated left
    assert t.dealer == 0
    assert t.committed == (1, 0, 1, 0)
    assert t.live == (True, False, True, True)
    with pytest.raises(IllegalActionError):
        chips.start_round(t, 1, 1)


# ---- the cap ----------------------------------------------------------------------------------


def test_the_cap_is_the_smallest_stack_before_the_amphora() -> None:
    t = table((30, 100, 12), dealer=0)
    assert t.cap == 12


def test_bets_are_multiples_of_a_up_to_what_every_live_player_can_match() -> None:
    # cap 12; the posters have 1 committed, so the level may reach 12 - 1 = 11 at most
    t = table((30, 100, 12), dealer=0, amphora=1)
    assert chips.bet_amounts(t) == tuple(range(1, 12))
    t = table((30, 100, 13), dealer=0, amphora=2)  # posters have 2: level <= 11, multiples of 2
    assert chips.bet_amounts(t) == (2, 4, 6, 8, 10)
    assert chips.bet_actions(t) == tuple(BET + x for x in (2, 4, 6, 8, 10))


def test_no_bet_is_legal_when_the_cap_leaves_no_room() -> None:
    t = table((1, 50), dealer=0)  # both posted 1 = cap
    assert chips.bet_amounts(t) == ()
    with pytest.raises(IllegalActionError):
        chips.open_bet(t, 1, 1)


def test_a_bet_beyond_the_cap_or_off_the_multiple_is_illegal() -> None:
    t = table((20, 20, 20), dealer=0, amphora=2)
    with pytest.raises(IllegalActionError):
        chips.open_bet(t, 2, 20)  # posters hold 2: the level may reach 18
    with pytest.raises(IllegalActionError):
        chips.open_bet(t, 2, 3)  # not a multiple of A
    assert chips.open_bet(t, 2, 18).bet is not None


def test_commitments_never_exceed_the_cap_so_every_call_is_affordable() -> None:
    t = table((10, 40, 40), dealer=0)
    t = chips.open_bet(t, 2, max(chips.bet_amounts(t)))  # level 9
    assert t.bet is not None
    assert t.bet.max_level == 9
    assert chips.answer_actions(t) == (IN, OUT)  # no room to raise
    t = chips.answer(t, IN)
    t = chips.answer(t, IN)
    assert t.bet is None
    assert t.committed == (10, 10, 9)
    assert t.stacks == (0, 30, 31)


# ---- a bet sequence ----------------------------------------------------------------------------


def test_answers_go_clockwise_from_the_bettor() -> None:
    t = table((50, 50, 50, 50), dealer=0)
    t = chips.open_bet(t, 2, 3)
    assert t.bet is not None
    assert t.bet.to_act == 3
    t = chips.answer(t, IN)
    assert t.bet is not None
    assert t.bet.to_act == 0
    t = chips.answer(t, IN)
    assert t.bet is not None
    assert t.bet.to_act == 1
    t = chips.answer(t, IN)
    assert t.bet is None  # everyone matched: the sequence is over
    assert t.committed == (4, 4, 3, 3)


def test_in_matches_the_level_counted_inside_the_sequence() -> None:
    t = table((50, 50, 50), dealer=0)  # seat 0 and 1 posted 1
    t = chips.open_bet(t, 2, 5)
    t = chips.answer(t, IN)  # seat 0 puts 5 more, on top of its amphora
    assert t.committed == (6, 1, 5)


def test_a_raise_reopens_the_sequence_for_everyone_below_the_level_bettor_included() -> None:
    t = table((50, 50, 50), dealer=0)
    t = chips.open_bet(t, 0, 2)
    t = chips.answer(t, IN)  # seat 1 matches 2
    t = chips.answer(t, RAISE + 3)  # seat 2: level 5
    assert t.bet is not None
    assert t.bet.level == 5
    assert t.bet.to_act == 0
    t = chips.answer(t, IN)  # bettor answers again
    assert t.bet is not None
    assert t.bet.to_act == 1
    t = chips.answer(t, RAISE + 1)  # seat 1 re-raises to 6
    assert t.bet is not None
    assert t.bet.to_act == 2
    t = chips.answer(t, IN)
    assert t.bet is not None
    assert t.bet.to_act == 0
    t = chips.answer(t, IN)
    assert t.bet is None
    assert t.bet is None
    assert t.committed == (7, 7, 6)


def test_raises_are_multiples_of_a_within_the_cap() -> None:
    t = table((30, 30), dealer=0, amphora=2)
    t = chips.open_bet(t, 1, 4)  # level 4, max level 28
    assert chips.answer_actions(t) == (IN, OUT, *(RAISE + y for y in range(2, 25, 2)))
    with pytest.raises(IllegalActionError):
        chips.answer(t, RAISE + 3)
    with pytest.raises(IllegalActionError):
        chips.answer(t, RAISE + 26)


def test_out_forfeits_what_was_committed_and_leaves_the_round() -> None:
    t = table((50, 50, 50), dealer=0)
    t = chips.open_bet(t, 2, 4)
    t = chips.answer(t, OUT)  # seat 0 folds its amphora
    assert t.live == (False, True, True)
    assert t.committed[0] == 1
    t = chips.answer(t, IN)
    assert t.bet is None
    assert chips.pot(t) == 10
    assert chips.bet_amounts(t)  # seat 0's commitment no longer limits the level


def test_the_raise_limit_rises_when_the_largest_prior_commitment_goes_out() -> None:
    t = table((20, 20, 20, 20), dealer=0)  # seats 0 and 1 posted 1: the level may reach 19
    t = chips.open_bet(t, 2, 2)
    t = chips.answer(t, RAISE + 2)  # seat 3: level 4
    t = chips.answer(t, OUT)  # seat 0, a poster
    assert t.bet is not None
    assert t.bet.max_level == 19  # seat 1 still holds its amphora
    t = chips.answer(t, OUT)  # seat 1, the other poster
    assert t.bet is not None
    assert t.bet.to_act == 2
    assert t.bet.max_level == 20  # nobody live has a prior commitment any more
    assert chips.answer_actions(t)[-1] == RAISE + 16
    t = chips.answer(t, RAISE + 16)  # seat 2 to the cap
    t = chips.answer(t, IN)
    assert t.bet is None
    assert t.committed == (1, 1, 20, 20)


def test_one_live_player_left_ends_the_sequence_and_takes_the_pot() -> None:
    t = table((50, 50, 50), dealer=0)
    t = chips.open_bet(t, 1, 6)
    t = chips.answer(t, OUT)
    assert t.bet is not None
    t = chips.answer(t, OUT)
    assert t.bet is None
    assert chips.lone_winner(t) == 1
    t, settlement = chips.settle(t, [1], 1, showdown=False)
    assert t.stacks == (49, 51, 50)
    assert settlement.pot == 8
    assert not settlement.showdown


def test_answers_outside_a_sequence_are_illegal() -> None:
    t = table((50, 50))
    assert chips.answer_actions(t) == ()
    with pytest.raises(IllegalActionError):
        chips.answer(t, IN)
    t = chips.open_bet(t, 0, 2)
    with pytest.raises(IllegalActionError):
        chips.open_bet(t, 1, 2)  # a sequence is open
    with pytest.raises(IllegalActionError):
        chips.answer(t, BET + 2)


def test_fold_outside_a_sequence() -> None:
    t = chips.fold(table((50, 50, 50)), 1)
    assert t.live == (True, False, True)
    assert t.committed[1] == 1
    with pytest.raises(IllegalActionError):
        chips.fold(t, 1)


# ---- the pot, odd chips, elimination, the end and the ranking ----------------------------------


def test_the_pot_is_split_with_odd_chips_clockwise_from_the_dealers_left() -> None:
    t = table((50, 50, 50, 50), dealer=2)._replace(committed=(3, 3, 3, 2))  # pot 11
    assert chips.shares(t, [0, 1, 3]) == (4, 3, 0, 4)  # order 3, 0, 1: seats 3 and 0 get one
    assert chips.shares(t, [2, 1]) == (0, 6, 5, 0)  # seat 1 comes before seat 2 (the dealer)
    with pytest.raises(IllegalActionError):
        chips.shares(t, [])


def test_players_below_the_next_amphora_are_eliminated() -> None:
    t = table((10, 2, 50), dealer=0)  # 0 and 1 post 1
    t, settlement = chips.settle(t, [2], 2, showdown=True)
    # seat 1 has 1 chip left, below the next round's A of 2
    assert settlement.eliminated == (1,)
    assert t.out_round == (-1, 0, -1)
    assert t.out_stacks[1] == 2  # its stack at the start of the round it dropped out in
    assert chips.seated(t) == (0, 2)


def test_the_match_ends_with_one_player_left_or_at_the_round_cap() -> None:
    t = table((5, 50), dealer=0)
    assert not chips.match_over(t, 300)
    assert chips.match_over(t, 1)  # round 0 was the last of a one-round cap
    t, _ = chips.settle(t, [1], 6, showdown=True)
    assert chips.match_over(t, 300)


def test_ranking_survivors_by_chips_then_eliminations_by_round_then_stack() -> None:
    t = chips.new_table(4, 0)._replace(
        stacks=(0, 40, 0, 0),
        out_round=(3, -1, 7, 7),
        out_stacks=(9, 0, 5, 6),
        round=8,
    )
    assert chips.ranking(t) == (4, 1, 3, 2)
    # equal elimination round and stack share a place; survivors with equal chips share too
    t = t._replace(out_stacks=(9, 0, 6, 6))
    assert chips.ranking(t) == (4, 1, 2, 2)
    t = chips.new_table(3, 10)
    assert chips.ranking(t) == (1, 1, 1)


def test_running_chips_count_the_round_in_progress_as_not_played() -> None:
    t = chips.open_bet(table((50, 50, 50)), 2, 5)
    assert chips.chips(t) == (50, 50, 50)


def test_labels() -> None:
    assert [chips.chip_label(a) for a in (IN, OUT, BET + 4, RAISE + 2)] == [
        "In",
        "Out",
        "Bet:4",
        "Raise:2",
    ]
    with pytest.raises(IllegalActionError):
        chips.chip_label(chips.CHIP_ACTIONS)
    assert chips.is_chip_action(RAISE)
    assert not chips.is_chip_action(chips.CHIP_ACTIONS)


# ---- invariants over random sequences ----------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    stacks=st.lists(st.integers(1, 60), min_size=2, max_size=4),
    amphora=st.integers(1, 4),
    dealer=st.integers(0, 3),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=40),
)
def test_any_bet_sequence_conserves_chips_respects_the_cap_and_ends(
    stacks: list[int], amphora: int, dealer: int, choices: list[int]
) -> None:
    t = table(tuple(stacks), dealer % len(stacks), amphora)
    before = total(t)
    forced = dict(enumerate(t.committed))  # the amphora is not limited by the cap
    picks = iter(choices)
    bettor = next(picks) % len(stacks)
    options = chips.bet_amounts(t)
    if not options:
        return
    t = chips.open_bet(t, bettor, options[next(picks, 0) % len(options)])
    answers = 0
    while t.bet is not None:
        legal = chips.answer_actions(t)
        assert legal[:2] == (IN, OUT)
        assert list(legal) == sorted(set(legal))
        t = chips.answer(t, legal[next(picks, 0) % len(legal)])
        answers += 1
        assert answers < 200
        assert total(t) == before
        assert all(x >= 0 for x in t.stacks)
        for seat, c in enumerate(t.committed):
            if t.live[seat]:
                assert c <= max(t.cap, forced[seat])
    # the sequence ended: every live player matched, or one is left
    assert chips.live_count(t) >= 1
    winner = chips.lone_winner(t)
    winners = [winner] if winner is not None else [s for s, live in enumerate(t.live) if live]
    t, settlement = chips.settle(t, winners, amphora, showdown=winner is None)
    assert sum(t.stacks) == before
    assert sum(settlement.shares) == settlement.pot


def test_close_round_pays_eliminates_and_opens_the_next_round_or_ends() -> None:
    t = table((10, 2, 50), dealer=0)  # 0 and 1 post 1; A doubles every round
    after, settlement, over = chips.close_round(t, [2], 1, 1, 300, showdown=True)
    assert not over
    assert settlement.eliminated == (1,)  # 1 chip left, below the next A of 2
    assert after.round == 1
    assert after.dealer == 2  # seat 1 is out: the deal passes from seat 0 to seat 2
    assert after.amphora == 2
    assert after.committed == (2, 0, 2)  # the dealer and its seated left post the new A
    # at the cap nobody is eliminated and the table stays settled
    t = table((10, 2, 50), dealer=0)
    after, settlement, over = chips.close_round(t, [2], 1, 1, 1, showdown=True)
    assert over
    assert settlement.eliminated == ()
    assert after.committed == (0, 0, 0)
    assert chips.ranking(after) == (2, 3, 1)


def test_the_deal_goes_one_card_at_a_time_from_the_dealers_left_skipping_eliminated_seats() -> None:
    t = chips.new_table(4, 20)._replace(out_round=(-1, -1, 0, -1), dealer=1)
    deck = tuple(range(40))
    hands, dealt = chips.deal(t, deck, 5)
    assert dealt == 15
    # seat 2 is out: the order is 3, 0, 1 (the dealer last)
    assert hands == ((1, 4, 7, 10, 13), (2, 5, 8, 11, 14), (), (0, 3, 6, 9, 12))
    assert shuffled_deck(deck[::-1], 40) == deck[::-1]
    for bad in ((), deck[:-1], (*deck[:-1], 0)):
        with pytest.raises(IllegalActionError):
            shuffled_deck(bad, 40)
    assert first_dealer((3,), 4) == 3
    for bad in ((), (4,), (0, 1)):
        with pytest.raises(IllegalActionError):
            first_dealer(bad, 4)


def test_a_chip_move_decodes_a_betting_id_once() -> None:
    assert chips.chip_move(chips.IN) == chips.ChipMove(chips.ChipKind.IN)
    assert chips.chip_move(chips.OUT).label == "Out"
    assert chips.chip_move(chips.BET + 4) == chips.ChipMove(chips.ChipKind.BET, 4)
    assert chips.chip_move(chips.RAISE + 2).label == "Raise:2"
    assert chips.chip_move(chips.BET + 4) is chips.chip_move(chips.BET + 4)
    for bad in (-1, chips.CHIP_ACTIONS):
        with pytest.raises(IllegalActionError):
            chips.chip_move(bad)
