"""Scauver rules, clause by clause (``shared/rules/scauver.md`` with ``chips.md``; seat
conventions in the rules README: seats clockwise, seat ``i + 1`` is the left of seat ``i``).

Scenarios apply the chance outcomes explicitly: ``(dealer,)`` for the first dealer, then a
40-card deck built by :func:`deck_for` from the hands each seat should be dealt and the stock
order. Actions are chosen by their labels (``Place:7♥→L``), which also tests the labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest
from scauver_kit import TWO, TWO_STOCK, act, cards, cid, labels, start, two_player_round

from croupier.errors import ConfigError, IllegalActionError
from croupier.games import CHANCE, TERMINAL, cards40, chips, get_game
from croupier.games.scauver import rules as sc
from croupier.games.scauver.rules import Criterion, Link, Phase, Showing

G = get_game("scauver")


# -- match set-up ----------------------------------------------------------------------------------


def test_parameters_are_the_chip_parameters() -> None:
    assert G.info.params == chips.PARAMS
    assert (G.info.min_players, G.info.max_players) == (2, 4)
    state = G.initial_state({})
    assert G.num_players(state) == 2
    assert G.current_player(state) == CHANCE
    with pytest.raises(ConfigError):
        G.initial_state({"players": 5})


def test_first_dealer_is_a_chance_outcome_and_the_amphora_is_posted() -> None:
    state = G.apply_chance(G.initial_state({"players": 3}), (1,))
    assert G.dealer(state) == 1
    assert G.current_player(state) == CHANCE  # the deal comes next
    assert state.table.committed == (0, 1, 1)  # the dealer and its left post A
    assert state.table.stacks == (100, 99, 99)
    with pytest.raises(IllegalActionError):
        G.apply_chance(G.initial_state({"players": 3}), (3,))


def test_deal_is_one_card_at_a_time_from_the_dealers_left_and_the_rest_is_the_stock() -> None:
    state = G.apply_chance(G.initial_state({"players": 3}), (2,))
    state = G.apply_chance(state, tuple(range(40)))
    assert state.hands == ((0, 3, 6, 9, 12), (1, 4, 7, 10, 13), (2, 5, 8, 11, 14))
    assert G.observe(state, None).stock_size == 25
    assert state.stock == tuple(range(15, 40))
    with pytest.raises(IllegalActionError):
        G.apply_chance(G.apply_chance(G.initial_state({}), (0,)), (*tuple(range(39)), 38))


# -- the opening -----------------------------------------------------------------------------------


def test_opening_offers_eighty_stable_choices_over_the_hand_sorted_by_id() -> None:
    state = start(2, 0, TWO, TWO_STOCK)
    assert G.current_player(state) == 1  # the dealer's left chooses first
    legal = G.legal_actions(state)
    assert legal == tuple(range(sc.OPEN, sc.OPEN + 80))
    assert G.action_label(state, sc.OPEN) == "Open:[A♣→L 4♣→L 6♣→L]"
    # combo 9 = positions (2, 3, 4); mask 0b101: first and third chosen card right
    assert G.action_label(state, sc.OPEN + 8 * 9 + 0b101) == "Open:[6♣→R 2♦→L 3♦→R]"
    assert len(set(labels(state))) == 80


def test_opening_is_asked_clockwise_and_hidden_until_every_seat_has_chosen() -> None:
    state = start(3, 2, {0: "A♣ 2♣ 3♣ 4♣ 5♣"})
    assert G.current_player(state) == 0
    assert not G.is_public(state, sc.OPEN)
    one = act(state, "Open:[A♣→L 2♣→L 3♣→R]")
    other = act(state, "Open:[3♣→R 4♣→R 5♣→L]")
    for viewer in (1, 2, None):
        assert G.observe(one, viewer) == G.observe(other, viewer)
        seen = G.observe(one, viewer)
        assert seen.fields[0] == ((), ())
        assert seen.hand_sizes[0] == 5
        assert seen.opened == (True, False, False)
    own = G.observe(one, 0)
    assert own.fields[0] == (cards("A♣ 2♣"), cards("3♣"))
    assert own.hand == cards("4♣ 5♣")
    assert G.current_player(one) == 1
    state = one
    for _ in range(2):
        state = G.apply(state, G.legal_actions(state)[0])
    # all have chosen: every field is face up, and the turns begin at the dealer's left
    for viewer in (0, 1, 2, None):
        seen = G.observe(state, viewer)
        assert seen.fields[0] == (cards("A♣ 2♣"), cards("3♣"))
        assert all(len(left) + len(right) == 3 for left, right in seen.fields)
    assert G.current_player(state) == 0
    assert state.phase is Phase.BET
    assert G.is_public(state, sc.PROCEED)
    assert G.observe(state, None).history == ()  # the openings are not public actions


# -- turns -----------------------------------------------------------------------------------------


def test_a_turn_starts_with_an_automatic_draw_of_the_top_stock_card() -> None:
    state = act(start(2, 0, TWO, TWO_STOCK), "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]")
    assert G.current_player(state) == 1
    assert G.observe(state, 1).hand == cards("6♣ 7♣ 3♦")  # sorted by id
    assert G.observe(state, 0).hand_sizes == (2, 3)
    assert cid("7♣") not in G.observe(state, 0).hand
    assert G.observe(state, None).stock_size == 40 - 10 - 1


def test_betting_step_offers_bets_within_the_cap_fold_and_proceed() -> None:
    state = act(
        start(2, 0, TWO, TWO_STOCK, stack=6), "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]"
    )
    assert labels(state) == ["Bet:1", "Bet:2", "Bet:3", "Bet:4", "Bet:5", "Fold", "Proceed"]
    assert G.legal_actions(state)[-2:] == (sc.FOLD, sc.PROCEED)


def test_a_flank_holds_at_most_three_cards_before_completion() -> None:
    state = act(start(2, 0, TWO, TWO_STOCK), "Open:[A♣→L 4♣→L 6♣→L]", "Open:[A♥→L 4♥→L 2♠→R]")
    state = act(state, "Proceed")
    assert labels(state) == ["Place:7♣→R", "Place:2♦→R", "Place:3♦→R"]  # by id: 7♣ is 6


def test_each_live_player_takes_three_turns_clockwise_then_the_round_ends() -> None:
    state = start(2, 0, TWO, TWO_STOCK)
    turns = []
    state = act(state, "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]")
    script = [
        ("Proceed", "Place:6♣→L"),
        ("Proceed", "Place:6♥→L"),
        ("Proceed", "Place:3♦→R"),
        ("Proceed", "Place:3♠→R"),
        ("Proceed", "Place:5♦→R", "Place:7♣→L,J♦→R", "NoBet"),
        ("Proceed", "Place:5♠→R", "Place:7♥→L,J♠→R", "NoBet"),
    ]
    for steps in script:
        seat = G.current_player(state)
        turns.append((seat, G.observe(state, None).turn))
        for label in steps:
            assert G.current_player(state) == seat
            if label.count("→") == 2:  # the last turn: flanks 3 + 3, then the pair
                assert state.phase is Phase.PLACE_PAIR
                assert tuple(map(len, state.fields[seat])) == (3, 3)
                assert labels(state) == sorted(labels(state), key=lambda x: cid(x[6:8]))
            state = act(state, label)
            if label.count("→") == 2:
                assert tuple(map(len, state.fields[seat])) == (4, 4)
                assert state.phase is Phase.FINAL_BET
    assert turns == [(1, 0), (0, 0), (1, 1), (0, 1), (1, 2), (0, 2)]
    assert G.current_player(state) == CHANCE  # showdown settled: the next deal
    assert G.round_index(state) == 1
    assert G.dealer(state) == 1  # the dealer moved one seat left


def test_last_turn_pair_placement_has_two_options_naming_both_cards() -> None:
    state = two_player_round(start(2, 0, TWO, TWO_STOCK))
    history = state.past[-1].history
    pair = [a for _, a in history if sc.PLACE_PAIR <= a < sc.OPEN]
    assert pair == [sc.pair_action(cid("7♣"), cid("J♦")), sc.pair_action(cid("7♥"), cid("J♠"))]


# -- bets, folds and the end of a round ------------------------------------------------------------


def test_a_bet_is_answered_by_the_others_before_the_bettor_places() -> None:
    state = start(3, 2, {})
    for _ in range(3):
        state = G.apply(state, G.legal_actions(state)[0])
    assert G.current_player(state) == 0
    state = act(state, "Bet:4")
    assert G.current_player(state) == 1
    assert labels(state)[:3] == ["In", "Out", "Raise:1"]
    state = act(state, "In", "In")
    assert G.current_player(state) == 0
    assert state.phase is Phase.PLACE
    assert state.table.committed == (5, 4, 5)  # the dealer (2) and its left (0) posted A
    history = G.observe(state, 1).history
    assert history == ((0, chips.BET + 4), (1, chips.IN), (2, chips.IN))


def test_answering_out_leaves_the_round_and_a_lone_player_takes_the_pot() -> None:
    state = act(start(2, 0, TWO, TWO_STOCK), "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]")
    state = act(state, "Bet:5", "Out")
    assert G.current_player(state) == CHANCE
    assert G.round_index(state) == 1
    result = G.observe(state, None).last_round
    assert result.decided_by is Criterion.LONE_WINNER
    assert result.showings == ()
    assert result.winners == (1,)
    assert result.settlement.pot == 7
    assert not result.settlement.showdown
    assert G.returns(state) == (Fraction(99), Fraction(101))


def test_fold_forfeits_what_is_committed_and_the_seat_takes_no_more_turns() -> None:
    state = start(3, 2, {})
    for _ in range(3):
        state = G.apply(state, G.legal_actions(state)[0])
    state = act(state, "Proceed")
    state = G.apply(state, G.legal_actions(state)[0])
    assert G.current_player(state) == 1
    state = act(state, "Fold")
    assert not state.table.live[1]
    seats = []
    while G.current_player(state) != CHANCE:
        seat = G.current_player(state)
        if state.phase is Phase.BET:
            seats.append(seat)
        state = G.apply(state, G.default_action(state))
    assert seats == [2, 0, 2, 0, 2]
    result = G.observe(state, None).last_round
    assert [s.seat for s in result.showings] == [0, 2]
    assert result.settlement.pot == 2
    assert result.settlement.shares[1] == 0
    assert len(result.fields[1][0]) + len(result.fields[1][1]) == 3  # its opening only


def test_a_bettor_who_answers_a_raise_with_out_ends_its_turn() -> None:
    state = start(3, 2, {})
    for _ in range(3):
        state = G.apply(state, G.legal_actions(state)[0])
    state = act(state, "Bet:2", "Raise:3", "In", "Out")
    assert not state.table.live[0]
    assert G.current_player(state) == 1
    assert state.phase is Phase.BET
    assert len(state.hands[0]) == 3  # seat 0 never placed
    assert state.table.committed == (3, 5, 6)


def test_a_final_bet_is_answered_before_the_turn_passes() -> None:
    state = start(2, 0, TWO, TWO_STOCK)
    state = act(state, "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]")
    state = act(state, "Proceed", "Place:6♣→L", "Proceed", "Place:6♥→L")
    state = act(state, "Proceed", "Place:3♦→R", "Proceed", "Place:3♠→R")
    state = act(state, "Proceed", "Place:5♦→R", "Place:7♣→L,J♦→R")
    assert labels(state)[-1] == "NoBet"
    assert labels(state)[0] == "Bet:1"
    state = act(state, "Bet:3")
    assert G.current_player(state) == 0
    assert state.phase is Phase.TURN_END
    state = act(state, "Raise:2", "In")
    assert G.current_player(state) == 0
    assert state.phase is Phase.BET
    assert state.table.committed == (6, 6)


def test_the_stock_never_runs_out_with_four_players() -> None:
    state = start(4, 3, {})
    while G.current_player(state) != CHANCE:
        state = G.apply(state, G.default_action(state))
    result = G.observe(state, None).last_round
    assert len(result.showings) == 4
    assert all(len(s.left) == len(s.right) == 4 for s in result.showings)


# -- the showdown ----------------------------------------------------------------------------------


def test_d_and_the_link_of_the_lowest_score() -> None:
    showing = sc.show(0, (cards("K♣ A♠ 5♠ J♦"), cards("3♦ K♠ 5♥ K♦")))
    assert showing.difference == 4  # |24 - 28|
    assert showing.link == Link(cards("J♦"), cards("3♦ 5♥"), 8, (2, 1))  # 13 and 23 score more
    assert showing.score == 32


def test_with_d_zero_every_score_is_zero_and_the_strongest_link_is_chosen() -> None:
    showing = sc.show(0, (cards("A♣ 4♣ 6♣ 7♣"), cards("2♦ 3♦ 5♦ J♦")))
    assert showing.difference == 0
    assert showing.score == 0
    # v 13 in two shapes: 6+7 = 5+J (2–2) and 6+7 = 2+3+J (3–2): the stronger shape
    assert showing.link == Link(cards("6♣ 7♣"), cards("2♦ 3♦ J♦"), 13, (3, 2))


def test_a_link_shares_no_value_between_its_vanguards_but_may_repeat_one_inside() -> None:
    # v 8 is the lowest: 4+4 = J (2–1), 4+4 = 5+3 (2–2), 5+3 = J (2–1); 5+3 = 5+3 shares
    # values. 4+4 repeats a value inside a vanguard and is fine: 2–2 is the strongest.
    showing = sc.show(0, (cards("4♣ 4♦ 5♣ 3♣"), cards("J♦ 5♦ 3♦ K♠")))
    assert showing.link == Link(cards("4♣ 4♦"), cards("3♦ 5♦"), 8, (2, 2))
    assert showing.score == 10 * 8


def test_two_single_cards_never_link_and_no_link_is_possible() -> None:
    # L all 9s, R all 10s: sums 9/18/27 against 10/20/30; equal singles never exist here either
    showing = sc.show(1, (cards("Q♣ Q♦ Q♥ Q♠"), cards("K♣ K♦ K♥ K♠")))
    assert showing.link is None
    assert showing.score is None
    assert showing.difference == 4
    # 3♠ = 3♣ as single cards is no link (they share the value); nothing else sums equal
    lone = sc.show(1, (cards("3♠ Q♠ Q♦ Q♣"), cards("4♦ K♣ 3♣ A♥")))
    assert lone.link is None
    assert lone.difference == 12


def _showing(seat: int, difference: int, left: str, right: str) -> Showing:
    """A showing with the given link (value and shape from its cards) and score D x v."""
    lc, rc = cards(left), cards(right)
    value = sum(map(cards40.card_value, lc))
    big, small = sorted((len(lc), len(rc)), reverse=True)
    return Showing(seat, (), (), difference, Link(lc, rc, value, (big, small)), difference * value)


def _unlinked(seat: int, difference: int) -> Showing:
    return Showing(seat, (), (), difference, None, None)


@pytest.mark.parametrize(
    ("showings", "winners", "criterion"),
    [
        # lower score wins: 1 x 10 against 2 x 6
        ([_showing(0, 1, "K♣", "3♦ 7♦"), _showing(1, 2, "6♣", "2♦ 4♦")], (0,), Criterion.SCORE),
        # equal scores 12: the larger link (v 6 against v 4)
        ([_showing(0, 3, "4♣", "A♦ 3♦"), _showing(1, 2, "6♣", "2♦ 4♦")], (1,), Criterion.SIZE),
        # equal v 9: 3–1 beats 2–1
        ([_showing(0, 1, "4♣ 5♣", "Q♦"), _showing(1, 1, "2♣ 3♣ 4♣", "Q♦")], (1,), Criterion.SHAPE),
        # equal v 9: 3–3 beats 3–2, 3–2 beats 3–1, 3–1 beats 2–2
        (
            [_showing(0, 1, "2♣ 3♣ 4♣", "A♦ J♦"), _showing(1, 1, "2♣ 3♣ 4♣", "A♦ A♥ 7♦")],
            (1,),
            Criterion.SHAPE,
        ),
        (
            [_showing(0, 1, "2♣ 3♣ 4♣", "Q♦"), _showing(1, 1, "2♣ 3♣ 4♣", "A♦ J♦")],
            (1,),
            Criterion.SHAPE,
        ),
        (
            [_showing(0, 1, "2♣ 3♣ 4♣", "Q♦"), _showing(1, 1, "4♣ 5♣", "2♦ 7♦")],
            (0,),
            Criterion.SHAPE,
        ),
        # equal 2–1 of 9: the greater vanguard 6 3 beats 5 4
        ([_showing(0, 1, "4♣ 5♣", "Q♦"), _showing(1, 1, "6♣ 3♣", "Q♦")], (1,), Criterion.HEIGHT),
        # 2–2 of 9, equal counts: greater is the higher list; 7 2 | 6 3 against 6 3 | 5 4
        (
            [_showing(0, 1, "7♣ 2♣", "6♦ 3♦"), _showing(1, 1, "6♣ 3♣", "5♦ 4♦")],
            (0,),
            Criterion.HEIGHT,
        ),
        # then the lesser vanguard decides: 6 3 | 5 4 against 6 3 | 7 2 — the latter is
        # greater 7 2, so compare 7 2 6 3 against 6 3 5 4
        (
            [_showing(0, 1, "6♣ 3♣", "7♦ 2♦"), _showing(1, 1, "6♣ 3♣", "5♦ 4♦")],
            (0,),
            Criterion.HEIGHT,
        ),
        # linked (even with a big score) beats unlinked (even with D 0)
        ([_unlinked(0, 0), _showing(1, 9, "K♣", "3♦ 7♦")], (1,), Criterion.LINKED),
        # nobody linked: the lower D
        ([_unlinked(0, 5), _unlinked(1, 3), _unlinked(2, 3)], (1, 2), Criterion.DIFFERENCE),
        # nothing separates them: a split
        ([_showing(0, 1, "K♣", "3♦ 7♦"), _showing(1, 1, "K♦", "3♣ 7♣")], (0, 1), Criterion.TIE),
        ([_unlinked(0, 2), _unlinked(2, 2)], (0, 2), Criterion.TIE),
    ],
)
def test_showdown_order(
    showings: Sequence[Showing], winners: tuple[int, ...], criterion: Criterion
) -> None:
    assert sc.evaluate(tuple(showings)) == (winners, criterion)


def test_showdown_through_the_engine_split_pot() -> None:
    state = two_player_round(start(2, 0, TWO, TWO_STOCK))
    result = G.observe(state, 0).last_round
    assert result.decided_by is Criterion.TIE
    assert result.winners == (0, 1)
    for showing in result.showings:
        assert showing.difference == 0
        assert showing.score == 0
        assert showing.link.value == 13
        assert showing.link.shape == (3, 2)
    assert result.settlement.shares == (1, 1)
    assert result.fields[1] == (cards("A♣ 4♣ 6♣ 7♣"), cards("2♦ 3♦ 5♦ J♦"))


def test_showdown_through_the_engine_lower_score_wins() -> None:
    state = two_player_round(start(2, 0, TWO, TWO_STOCK), "Place:J♠→L,7♥→R")
    result = G.observe(state, 0).last_round
    assert result.winners == (1,)
    assert result.decided_by is Criterion.SCORE
    loser = result.showings[0]
    assert loser.seat == 0
    assert loser.difference == 2
    assert loser.score == 2 * loser.link.value > 0
    assert G.returns(state) == (Fraction(99), Fraction(101))


def test_odd_chip_of_a_split_goes_clockwise_from_the_dealers_left() -> None:
    state = start(3, 2, {0: TWO[1], 1: TWO[0]}, "7♣ 7♥ K♠ 5♦ 5♠ J♦ J♠")
    state = act(state, "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]")
    state = G.apply(state, G.default_action(state))  # seat 2's opening
    state = act(state, "Bet:1", "In", "In", "Place:6♣→L", "Proceed", "Place:6♥→L", "Fold")
    state = act(state, "Proceed", "Place:3♦→R", "Proceed", "Place:3♠→R")
    state = act(state, "Proceed", "Place:5♦→R", "Place:7♣→L,J♦→R", "NoBet")
    state = act(state, "Proceed", "Place:5♠→R", "Place:7♥→L,J♠→R", "NoBet")
    result = G.observe(state, None).last_round
    assert result.decided_by is Criterion.TIE
    assert result.winners == (0, 1)
    assert result.settlement.pot == 5  # A from seats 2 and 0, three bets of 1
    assert result.settlement.shares == (3, 2, 0)  # seat 0 is the dealer's left


# -- rounds, elimination and the end of the match --------------------------------------------------


def test_a_player_below_the_next_amphora_is_eliminated_and_the_match_ends() -> None:
    state = act(
        start(2, 0, TWO, TWO_STOCK, stack=3), "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]"
    )
    state = act(state, "Bet:2", "In", "Place:6♣→L", "Proceed", "Place:6♥→L")
    state = act(state, "Proceed", "Place:3♦→R", "Proceed", "Place:3♠→R")
    state = act(state, "Proceed", "Place:5♦→R", "Place:7♣→L,J♦→R", "NoBet")
    state = act(state, "Proceed", "Place:5♠→R", "Place:J♠→L,7♥→R", "NoBet")
    assert G.current_player(state) == TERMINAL
    assert G.legal_actions(state) == ()
    assert G.returns(state) == (Fraction(0), Fraction(6))
    assert G.ranking(state) == (2, 1)
    assert G.observe(state, None).last_round.settlement.eliminated == (0,)


def test_the_round_cap_ends_the_match_and_most_chips_ranks_first() -> None:
    state = act(
        start(2, 0, TWO, TWO_STOCK, round_cap=1),
        "Open:[A♣→L 4♣→L 2♦→R]",
        "Open:[A♥→L 4♥→L 2♠→R]",
    )
    state = act(state, "Bet:5", "Out")
    assert G.current_player(state) == TERMINAL
    assert G.ranking(state) == (2, 1)


def test_at_the_round_cap_nobody_is_eliminated_and_chips_decide_every_place() -> None:
    """The cap round has no next round, so no one drops out after it; at the cap the most
    chips win. Seats 0 and 1 end below the A a next round would have (2), with 0 and 1 chips
    from equal stacks: they do not share a place as players eliminated in the same round."""
    state = start(3, 0, {}, stack=3, round_cap=1, double_every=1)
    for _ in range(3):  # the openings
        state = G.apply(state, G.legal_actions(state)[0])
    state = act(state, "Bet:1", "In", "In")  # seat 1 bets; seats 2 and 0 match
    state = G.apply(state, G.legal_actions(state)[0])
    state = act(state, "Bet:1", "In", "Out")  # seat 2 bets; seat 0 matches, seat 1 is out
    state = G.apply(state, G.legal_actions(state)[0])
    state = act(state, "Fold")  # seat 0 folds: seat 2 is the last one in
    assert G.current_player(state) == TERMINAL
    assert G.returns(state) == (Fraction(0), Fraction(1), Fraction(8))
    assert G.observe(state, None).last_round.settlement.eliminated == ()
    assert G.ranking(state) == (3, 2, 1)


def test_the_amphora_doubles_on_schedule_and_the_dealer_rotates_left() -> None:
    state = start(3, 0, {}, double_every=1)
    for _ in range(3):
        state = G.apply(state, G.legal_actions(state)[0])
    state = act(state, "Fold", "Fold")  # seats 1 and 2 fold: seat 0 is left
    assert G.current_player(state) == CHANCE
    assert state.table.dealer == 1
    assert state.table.amphora == 2
    assert state.table.committed == (0, 2, 2)


def test_eliminated_seats_are_dealt_no_cards_and_never_act() -> None:
    state = start(3, 0, {}, stack=2)
    for _ in range(3):
        state = G.apply(state, G.legal_actions(state)[0])
    # seat 1 (the dealer's left) bets its last chip; seat 2 goes IN, seat 0 OUT
    state = act(state, "Bet:1", "In", "Out")
    while G.current_player(state) != CHANCE:
        state = G.apply(state, G.default_action(state))
    out = [s for s in range(3) if state.table.out_round[s] >= 0]
    assert out, "somebody lost everything"
    state = G.apply_chance(state, tuple(range(40)))
    for seat in out:
        assert state.hands[seat] == ()
    seen = set()
    while G.current_player(state) not in (CHANCE, TERMINAL):
        seen.add(G.current_player(state))
        state = G.apply(state, G.default_action(state))
    assert not seen & set(out)


# -- defaults, labels, contract --------------------------------------------------------------------


def test_default_actions_are_the_passive_choices() -> None:
    state = start(2, 0, TWO, TWO_STOCK)
    assert G.default_action(state) == sc.OPEN  # the first legal opening
    state = act(state, "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]")
    assert G.default_action(state) == sc.PROCEED
    assert G.default_action(act(state, "Bet:1")) == chips.OUT
    placing = act(state, "Proceed")
    assert G.default_action(placing) == G.legal_actions(placing)[0]
    final = act(
        placing, "Place:6♣→L", "Proceed", "Place:6♥→L", "Proceed", "Place:3♦→R", "Proceed",
        "Place:3♠→R", "Proceed", "Place:5♦→R",
    )  # fmt: skip
    assert G.default_action(final) == G.legal_actions(final)[0]
    assert G.default_action(act(final, "Place:7♣→L,J♦→R")) == sc.NO_BET


def test_illegal_actions_are_rejected_and_the_state_is_untouched() -> None:
    state = start(2, 0, TWO, TWO_STOCK)
    before = state
    for bad in (-1, 0, sc.FOLD, sc.PROCEED, sc.OPEN + 80, True, 1.0):
        with pytest.raises(IllegalActionError):
            G.apply(state, bad)  # type: ignore[arg-type]
    assert state == before
    with pytest.raises(IllegalActionError):
        G.sample_chance(state, None)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        G.apply_chance(state, (0,))


def test_a_chance_label_rejects_what_apply_chance_rejects() -> None:
    """The arbiter labels a scripted outcome before applying it and turns IllegalActionError
    into ConfigError: a malformed outcome must not escape as an IndexError."""
    fresh = G.initial_state({})
    with pytest.raises(IllegalActionError):
        G.chance_label(fresh, ())
    dealing = G.apply_chance(fresh, (0,))
    for bad in ((99,) * 40, tuple(range(41)), (1, 2, 3)):
        with pytest.raises(IllegalActionError):
            G.chance_label(dealing, bad)
    with pytest.raises(IllegalActionError):
        G.chance_label(start(2, 0, TWO, TWO_STOCK), tuple(range(40)))


def test_observation_shows_what_the_rules_allow() -> None:
    state = start(3, 2, {})
    for _ in range(3):
        state = G.apply(state, G.legal_actions(state)[0])
    state = act(state, "Proceed")
    own, other, public = (G.observe(state, s) for s in (0, 1, None))
    assert own.hand == state.hands[0]
    assert other.hand == state.hands[1] != own.hand
    assert public.hand == ()
    assert own.hand_sizes == other.hand_sizes == public.hand_sizes == (3, 2, 2)
    assert own.fields == other.fields == public.fields == state.fields
    assert own.table == public.table
    assert own.stock_size == 40 - 15 - 1
    assert own.turn_seat == 0
    assert own.to_act == 0
    assert own.phase is Phase.PLACE
    assert public.history == ((0, sc.PROCEED),)


# -- moves: an id decoded once ---------------------------------------------------------------------


def test_a_move_names_what_an_id_does_and_its_placements() -> None:
    assert sc.move(sc.FOLD) == sc.Move(sc.MoveKind.FOLD)
    raise_two = sc.move(chips.RAISE + 2)
    assert raise_two == sc.Move(sc.MoveKind.CHIPS, chip=chips.ChipMove(chips.ChipKind.RAISE, 2))
    assert raise_two.label == "Raise:2"
    place = sc.move(sc.PLACE + 2 * cid("7♥") + sc.RIGHT)
    assert place == sc.Move(sc.MoveKind.PLACE, ((cid("7♥"), sc.RIGHT),))
    assert place.label == "Place:7♥→R"
    pair = sc.move(sc.pair_action(cid("7♣"), cid("J♦")))
    assert pair.placements == ((cid("7♣"), sc.LEFT), (cid("J♦"), sc.RIGHT))
    assert pair.label == "Place:7♣→L,J♦→R"
    assert sc.move(sc.PROCEED) is sc.move(sc.PROCEED)  # decoded once per id


def test_an_opening_decodes_with_the_hand_and_only_with_it() -> None:
    state = start(2, 0, TWO, TWO_STOCK)
    legal = {G.action_label(state, a): a for a in G.legal_actions(state)}
    opening = sc.move(legal["Open:[A♣→L 4♣→L 2♦→R]"], state.hands[1])
    assert opening.kind is sc.MoveKind.OPEN
    assert opening.placements == ((cid("A♣"), sc.LEFT), (cid("4♣"), sc.LEFT), (cid("2♦"), sc.RIGHT))
    with pytest.raises(IllegalActionError):
        sc.move(sc.OPEN)  # no hand: its cards are unknown
    for bad in (-1, sc.NUM_ACTIONS):
        with pytest.raises(IllegalActionError):
            sc.move(bad)
