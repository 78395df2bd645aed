"""As-Nas rules, clause by clause (``shared/rules/as-nas.md``; seat conventions in its README).

Every scenario applies the chance outcomes explicitly: ``(dealer,)`` for the first dealer, then a
20-card permutation built by :func:`deck_for` from the hands each seat should hold. Seats are
numbered clockwise; the right of seat ``i`` is ``i - 1 (mod 4)``, so with dealer 0 the betting order
is 3, 2, 1, 0.

Hands are written as letters, one per card: ``C`` Couli, ``S`` Sarbaz, ``B`` Bibi, ``K`` Shah,
``A`` As (ranks 0..4, As highest).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from croupier.errors import ConfigError, IllegalActionError
from croupier.games import CHANCE, TERMINAL, get_game, places
from croupier.games.as_nas.rules import Action, DealResult

G = get_game("as-nas")

LOOK, FOLD, CALL, HOLD, RAISE = map(int, Action)  # ids, ascending
RANK = {"C": 0, "S": 1, "B": 2, "K": 3, "A": 4}


# -- helpers ---------------------------------------------------------------------------------------


def ranks(text: str) -> tuple[int, ...]:
    """Ranks of a hand written as letters, high to low (the order observations and reveals use)."""
    return tuple(sorted((RANK[c] for c in text), reverse=True))


def right(seat: int) -> int:
    return (seat - 1) % 4


def deck_for(dealer: int, hands: Mapping[int, str] | None = None) -> tuple[int, ...]:
    """The deal outcome (20 card ids in deal order) that gives each seat the hand asked for.

    Seats missing from ``hands`` get the leftover cards, highest first, in seat order. Cards are
    dealt one at a time to dealer-1, dealer-2, dealer-3, dealer, and round again.
    """
    hands = dict(hands or {})
    next_copy = [0] * 5
    cards: dict[int, list[int]] = {}
    for seat, text in sorted(hands.items()):
        assert len(text) == 5, text
        cards[seat] = []
        for r in (RANK[c] for c in text):
            assert next_copy[r] < 4, f"more than 4 copies of rank {r}"
            cards[seat].append(4 * r + next_copy[r])
            next_copy[r] += 1
    used = {c for cs in cards.values() for c in cs}
    leftover = sorted((c for c in range(20) if c not in used), reverse=True)
    for seat in range(4):
        if seat not in cards:
            cards[seat], leftover = leftover[:5], leftover[5:]
    order = [(dealer - k) % 4 for k in (1, 2, 3, 4)]
    deck = tuple(cards[order[i % 4]][i // 4] for i in range(20))
    assert sorted(deck) == list(range(20))
    return deck


def new_match(deals: int | None = None, dealer: int = 0) -> Any:
    """A match after the first-dealer draw, waiting for the first deal."""
    s = G.initial_state({} if deals is None else {"deals": deals})
    assert G.current_player(s) == CHANCE
    s = G.apply_chance(s, (dealer,))
    assert G.current_player(s) == CHANCE
    return s


def start(dealer: int = 0, hands: Mapping[int, str] | None = None, deals: int | None = None) -> Any:
    """A match with the first deal dealt: ``hands`` per seat, the dealer's right to act."""
    return G.apply_chance(new_match(deals, dealer), deck_for(dealer, hands))


def play(s: Any, *moves: tuple[int, int]) -> Any:
    """Apply ``(seat, action)`` moves, checking that it is that seat's turn each time."""
    for seat, action in moves:
        assert G.current_player(s) == seat, (
            f"expected seat {seat} to act, not {G.current_player(s)}"
        )
        s = G.apply(s, action)
    return s


def passive(s: Any) -> Any:
    """Finish the current deal with every seat calling or holding (no look, no raise)."""
    deal = G.round_index(s)
    while G.current_player(s) >= 0 and G.round_index(s) == deal:
        legal = G.legal_actions(s)
        s = G.apply(s, HOLD if HOLD in legal else CALL)
    return s


def pub(s: Any) -> Any:
    return G.observe(s, None)


def last(s: Any) -> DealResult:
    result = pub(s).last_deal
    assert result is not None
    return result


def deal_over(s: Any, deal_index: int = 0) -> bool:
    """The deal ``deal_index`` has been settled (next deal waiting, or the match is over)."""
    result = pub(s).last_deal
    return (
        G.current_player(s) in (CHANCE, TERMINAL)
        and result is not None
        and result.deal_index == deal_index
    )


# -- the deal --------------------------------------------------------------------------------------

# One rank per seat: the 1st, 5th, 9th, 13th dealt cards are the four As, and so on.
STRIPED_DECK = (16, 12, 8, 0, 17, 13, 9, 1, 18, 14, 10, 2, 19, 15, 11, 3, 4, 5, 6, 7)


@pytest.mark.parametrize("dealer", range(4))
def test_cards_are_dealt_one_at_a_time_counter_clockwise_from_the_dealers_right(
    dealer: int,
) -> None:
    s = G.apply_chance(new_match(dealer=dealer), STRIPED_DECK)
    first, second, third = right(dealer), right(right(dealer)), right(right(right(dealer)))
    # The omniscient state names the physical cards (card id = 4 * rank + copy).
    assert s.hands[first] == (4, 16, 17, 18, 19)
    assert s.hands[second] == (5, 12, 13, 14, 15)
    assert s.hands[third] == (6, 8, 9, 10, 11)
    assert s.hands[dealer] == (0, 1, 2, 3, 7)
    # The seat on the dealer's right looks and sees its cards as ranks, high to low.
    s = play(s, (first, LOOK))
    assert G.observe(s, first).hand == ranks("AAAAS")
    # Everyone calls or holds: the showdown shows who got which cards.
    s = passive(s)
    result = last(s)
    assert result.revealed[first] == ranks("AAAAS")
    assert result.revealed[second] == ranks("KKKKS")
    assert result.revealed[third] == ranks("BBBBS")
    assert result.revealed[dealer] == ranks("CCCCS")
    assert result.winners == (first,)


def test_deck_helper_gives_each_seat_the_hand_asked_for() -> None:
    hands = {0: "AAKKC", 1: "SSBBC", 2: "ABKSC", 3: "ABKSC"}
    for dealer in range(4):
        s = passive(start(dealer, hands))
        assert last(s).revealed == tuple(ranks(hands[seat]) for seat in range(4))


def test_chance_labels_name_the_dealer_and_the_dealt_ranks() -> None:
    s = G.initial_state({})
    assert "seat 2" in G.chance_label(s, (2,))
    s = G.apply_chance(s, (2,))
    label = G.chance_label(s, STRIPED_DECK)
    assert "As As As As Sarbaz" in label  # seat 1, the dealer's right
    assert "Couli Couli Couli Couli" in label


def test_sample_chance_draws_a_seat_then_a_permutation_of_the_deck() -> None:
    rng = np.random.default_rng(7)
    s = G.initial_state({})
    seats = {G.sample_chance(s, rng) for _ in range(200)}
    assert seats == {(0,), (1,), (2,), (3,)}
    s = G.apply_chance(s, (0,))
    decks = [G.sample_chance(s, rng) for _ in range(20)]
    assert all(sorted(d) == list(range(20)) for d in decks)
    assert len(set(decks)) == 20
    with pytest.raises(IllegalActionError):
        G.sample_chance(G.apply_chance(s, decks[0]), rng)  # a decision node


def test_same_seeded_generator_draws_the_same_outcomes() -> None:
    s = G.apply_chance(G.initial_state({}), (1,))
    a = [G.sample_chance(s, np.random.default_rng(99)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    assert G.sample_chance(s, np.random.default_rng(100)) != a[0]


# -- forced opening, turn order --------------------------------------------------------------------


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_stakes_one_everyone_else_zero_and_the_dealers_right_acts_first(dealer: int) -> None:
    s = start(dealer)
    obs = pub(s)
    assert obs.dealer == dealer
    assert G.dealer(s) == dealer
    assert obs.stakes == tuple(1 if seat == dealer else 0 for seat in range(4))
    assert obs.high == 1
    assert obs.pot == 1
    assert obs.looked == (False,) * 4
    assert obs.folded == (False,) * 4
    assert obs.history == ()
    assert G.current_player(s) == right(dealer)
    assert obs.to_act == right(dealer)
    assert obs.deal_index == 0
    assert obs.num_deals == 12


@pytest.mark.parametrize("dealer", range(4))
def test_turns_go_counter_clockwise_and_the_dealer_acts_last(dealer: int) -> None:
    s = start(dealer)
    seen = []
    while not deal_over(s):
        seen.append(G.current_player(s))
        s = G.apply(s, HOLD if HOLD in G.legal_actions(s) else CALL)
    assert seen == [right(dealer), right(right(dealer)), (dealer + 1) % 4, dealer]


def test_turns_skip_folded_players() -> None:
    s = start(dealer=0)
    s = play(s, (3, CALL), (2, FOLD), (1, CALL), (0, RAISE), (3, CALL))
    # Seat 2 folded: after seat 3 the turn passes straight to seat 1.
    assert G.current_player(s) == 1
    assert pub(s).to_act == 1
    s = play(s, (1, CALL))
    assert deal_over(s)
    assert last(s).revealed[2] is None
    assert last(s).pot == 2 + 2 + 0 + 2  # stakes of seats 0, 1, 2, 3


def test_turns_skip_several_folded_players_in_a_row() -> None:
    s = start(dealer=1)  # order 0, 3, 2, 1
    s = play(s, (0, CALL), (3, FOLD), (2, FOLD), (1, RAISE))
    assert G.current_player(s) == 0
    s = play(s, (0, RAISE))
    assert G.current_player(s) == 1  # 3 and 2 skipped
    s = play(s, (1, CALL))
    assert deal_over(s)
    assert last(s).pot == 3 + 3 + 0 + 0 + 0


# -- HOLD / CALL / RAISE ---------------------------------------------------------------------------


def test_call_is_legal_below_the_high_bet_and_hold_only_when_matched() -> None:
    s = start(dealer=0)
    assert G.legal_actions(s) == (LOOK, FOLD, CALL, RAISE)
    with pytest.raises(IllegalActionError):
        G.apply(s, HOLD)
    s = play(s, (3, CALL))
    assert pub(s).stakes == (1, 0, 0, 1)
    s = play(s, (2, CALL), (1, CALL))
    # The dealer's forced 1 already matches H = 1.
    assert G.current_player(s) == 0
    assert G.legal_actions(s) == (LOOK, FOLD, HOLD, RAISE)
    with pytest.raises(IllegalActionError):
        G.apply(s, CALL)


def test_call_raises_the_stake_to_the_high_bet_whatever_it_was() -> None:
    s = play(start(dealer=0), (3, RAISE), (2, RAISE), (1, CALL))
    assert pub(s).stakes == (1, 3, 3, 2)
    s = play(s, (0, CALL))
    assert pub(s).stakes == (3, 3, 3, 2)
    assert pub(s).pot == 11


def test_raise_matches_and_raises_by_one_in_a_single_action() -> None:
    s = play(start(dealer=0), (3, RAISE))
    obs = pub(s)
    assert obs.high == 2
    assert obs.stakes == (1, 0, 0, 2)
    assert obs.pot == 3
    s = play(s, (2, RAISE))  # a re-raise from stake 0: stake := H + 1 = 3
    obs = pub(s)
    assert obs.high == 3
    assert obs.stakes == (1, 0, 3, 2)
    assert obs.pot == 6


def test_raising_stops_at_four_so_at_most_three_raises_and_a_pot_of_sixteen() -> None:
    s = start(dealer=0)
    for seat, high in ((3, 2), (2, 3), (1, 4)):
        assert RAISE in G.legal_actions(s)
        s = play(s, (seat, RAISE))
        assert pub(s).high == high
    assert G.legal_actions(s) == (LOOK, FOLD, CALL)
    with pytest.raises(IllegalActionError):
        G.apply(s, RAISE)
    s = play(s, (0, CALL))
    assert G.legal_actions(s) == (LOOK, FOLD, CALL)  # seat 3 must match the re-raises
    s = play(s, (3, CALL))
    assert Counter(action for _, action in pub(s).history)[RAISE] == 3
    s = play(s, (2, CALL))
    assert deal_over(s)
    result = last(s)
    assert result.pot == 16
    assert result.deltas.count(Fraction(-4)) == 3
    assert sum(result.deltas) == 0


def test_the_dealer_may_raise_on_the_forced_stake() -> None:
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, CALL), (0, RAISE))
    assert pub(s).high == 2
    assert pub(s).stakes == (2, 1, 1, 1)


# -- a raise reopens action ------------------------------------------------------------------------


def test_a_raise_reopens_action_for_players_who_already_called() -> None:
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, CALL), (0, RAISE))
    # Everyone has acted, but 3, 2, 1 are below H = 2: betting goes on, from the dealer's right.
    assert not deal_over(s)
    assert G.current_player(s) == 3
    assert G.legal_actions(s) == (LOOK, FOLD, CALL, RAISE)
    s = play(s, (3, CALL), (2, CALL))
    assert not deal_over(s)
    s = play(s, (1, CALL))
    assert deal_over(s)
    assert last(s).pot == 8


def test_a_raise_reopens_action_for_the_dealer() -> None:
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, RAISE))
    assert G.current_player(s) == 0
    assert G.legal_actions(s) == (LOOK, FOLD, CALL, RAISE)
    s = play(s, (0, CALL))
    # Seats 3 and 2 called 1 before the raise: they must act again.
    assert G.current_player(s) == 3
    s = play(s, (3, CALL), (2, CALL))
    assert deal_over(s)
    assert last(s).pot == 8


def test_a_re_raise_reopens_action_for_the_first_raiser() -> None:
    s = play(start(dealer=0), (3, RAISE), (2, CALL), (1, CALL), (0, RAISE))
    assert pub(s).high == 3
    assert G.current_player(s) == 3
    assert G.legal_actions(s) == (LOOK, FOLD, CALL, RAISE)
    s = play(s, (3, CALL), (2, CALL), (1, CALL))
    assert deal_over(s)
    assert last(s).pot == 12


# -- the dealer's turn, end of betting -------------------------------------------------------------


def test_the_forced_stake_is_not_an_action_the_dealer_still_gets_a_turn() -> None:
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, CALL))
    # All stakes equal H, but the dealer has not acted yet.
    assert not deal_over(s)
    assert G.current_player(s) == 0
    s = play(s, (0, HOLD))
    assert deal_over(s)
    assert last(s).pot == 4
    assert G.current_player(s) == CHANCE


def test_betting_ends_only_when_every_live_player_acted_and_matched() -> None:
    s = start(dealer=2)  # order 1, 0, 3, 2
    moves = [(1, CALL), (0, RAISE), (3, CALL), (2, CALL), (1, CALL)]
    for i, move in enumerate(moves):
        assert not deal_over(s), f"ended before move {i}"
        s = play(s, move)
    assert deal_over(s)
    assert last(s).pot == 8
    assert last(s).deal_index == 0


def test_the_dealer_holding_ends_the_deal_with_a_showdown_when_nobody_raised() -> None:
    hands = {0: "ABKSC", 1: "AABKS", 2: "KKBBA", 3: "CCCSS"}
    s = passive(start(0, hands))
    result = last(s)
    assert result.winners == (3,)  # full house
    assert result.revealed == tuple(ranks(hands[seat]) for seat in range(4))
    assert result.deltas == (-1, -1, -1, 3)


# -- LOOK ------------------------------------------------------------------------------------------


def test_look_does_not_end_the_turn_and_changes_no_bet() -> None:
    s = start(dealer=0)
    before = pub(s)
    s = play(s, (3, LOOK))
    after = pub(s)
    assert G.current_player(s) == 3
    assert G.legal_actions(s) == (FOLD, CALL, RAISE)
    assert after.stakes == before.stakes
    assert after.high == before.high
    assert after.pot == before.pot
    s = play(s, (3, CALL))
    assert G.current_player(s) == 2


def test_look_is_legal_only_once_per_deal() -> None:
    s = play(start(dealer=0), (3, LOOK))
    with pytest.raises(IllegalActionError):
        G.apply(s, LOOK)
    s = play(s, (3, CALL), (2, CALL), (1, CALL), (0, RAISE))
    assert G.current_player(s) == 3
    assert LOOK not in G.legal_actions(s)  # still looked on the next turn
    with pytest.raises(IllegalActionError):
        G.apply(s, LOOK)


def test_look_may_be_taken_on_a_later_turn() -> None:
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, CALL), (0, RAISE))
    assert LOOK in G.legal_actions(s)
    s = play(s, (3, LOOK), (3, CALL))
    assert pub(s).looked == (False, False, False, True)


def test_looking_is_public_and_shows_the_cards_only_to_the_looker() -> None:
    hands = {0: "CCCCS", 1: "BBBBS", 2: "KKKKS", 3: "AAAAS"}
    s = start(0, hands)
    assert G.observe(s, 3).hand == ()  # unlooked: even one's own cards are hidden
    s = play(s, (3, LOOK))
    assert G.is_public(s, LOOK)
    assert G.observe(s, 3).hand == ranks("AAAAS")
    for viewer in (0, 1, 2, None):
        obs = G.observe(s, viewer)
        assert obs.looked == (False, False, False, True)
        assert obs.history == ((3, LOOK),)
        assert obs.hand == ()
    s = play(s, (3, CALL), (2, LOOK))
    assert G.observe(s, 2).hand == ranks("KKKKS")
    assert G.observe(s, 3).hand == ranks("AAAAS")
    assert pub(s).looked == (False, False, True, True)


def test_look_does_not_count_as_acting() -> None:
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, CALL), (0, LOOK))
    assert not deal_over(s)
    assert G.current_player(s) == 0
    assert G.legal_actions(s) == (FOLD, HOLD, RAISE)


# -- FOLD ------------------------------------------------------------------------------------------


def test_fold_without_looking_leaves_the_stake_in_the_pot() -> None:
    s = play(start(dealer=0), (3, RAISE), (2, CALL), (1, CALL))
    assert pub(s).pot == 7
    s = play(s, (0, FOLD))  # the dealer folds blind, forfeiting the forced 1
    result = last(s)
    assert result.pot == 7
    assert result.deltas[0] == -1
    assert result.revealed[0] is None
    assert pub(s).looked[0] is False


def test_fold_after_looking_keeps_the_stake_in_the_pot_and_the_hand_hidden() -> None:
    s = play(start(0, {1: "AAAAC"}), (3, CALL), (2, CALL), (1, LOOK), (1, FOLD))
    obs = pub(s)
    assert obs.folded == (False, True, False, False)
    assert obs.looked == (False, True, False, False)
    assert obs.stakes == (1, 0, 1, 1)
    assert obs.pot == 3
    s = play(s, (0, HOLD))
    result = last(s)
    assert result.revealed[1] is None
    assert result.pot == 3
    assert result.deltas[1] == 0


def test_fold_is_legal_even_when_holding_is_free() -> None:
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, CALL))
    assert FOLD in G.legal_actions(s)
    s = play(s, (0, FOLD))
    assert last(s).deltas[0] == -1


def test_a_folded_best_hand_cannot_win() -> None:
    hands = {0: "CCSSB", 1: "AAAAK", 2: "KKKBB", 3: "CCSSB"}
    s = play(start(0, hands), (3, CALL), (2, CALL), (1, FOLD), (0, HOLD))
    result = last(s)
    assert result.winners == (2,)
    assert result.revealed[1] is None
    assert result.deltas == (-1, 0, 2, -1)


# -- lone survivor ---------------------------------------------------------------------------------


def test_lone_survivor_wins_at_once_without_showing_a_hand() -> None:
    hands = {3: "CCSSB", 0: "AAAAK"}  # the survivor holds the weaker hand
    s = play(start(0, hands), (3, RAISE), (2, FOLD), (1, FOLD), (0, FOLD))
    result = last(s)
    assert result.winners == (3,)
    assert result.revealed == (None, None, None, None)
    assert result.pot == 3
    assert result.deltas == (-1, 0, 0, 1)


def test_lone_survivor_mid_round_wins_even_though_others_acted_less() -> None:
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, RAISE), (0, FOLD), (3, FOLD))
    assert not deal_over(s)
    s = play(s, (2, FOLD))
    assert deal_over(s)
    result = last(s)
    assert result.winners == (1,)
    assert result.revealed == (None,) * 4
    assert result.pot == 5
    assert result.deltas == (-1, 3, -1, -1)


def test_dealer_wins_the_forced_stake_back_when_everyone_else_folds() -> None:
    s = play(start(dealer=0), (3, FOLD), (2, FOLD), (1, FOLD))
    # The dealer never acted: the deal still ends at once.
    result = last(s)
    assert result.winners == (0,)
    assert result.revealed == (None,) * 4
    assert result.pot == 1
    assert result.deltas == (0, 0, 0, 0)
    assert G.current_player(s) == CHANCE


def test_lone_survivor_on_the_last_deal_ends_the_match() -> None:
    s = play(start(dealer=0, deals=1), (3, FOLD), (2, FOLD), (1, RAISE), (0, FOLD))
    assert G.current_player(s) == TERMINAL
    assert last(s).revealed == (None,) * 4
    assert G.returns(s) == (-1, 1, 0, 0)


# -- showdown and splits ---------------------------------------------------------------------------


def test_best_hand_takes_the_whole_pot() -> None:
    hands = {0: "ABKSC", 1: "AABBS", 2: "KKKSS", 3: "CCCAB"}
    s = play(start(0, hands), (3, RAISE), (2, RAISE), (1, CALL), (0, CALL), (3, CALL))
    result = last(s)
    assert result.winners == (2,)
    assert result.pot == 12
    assert result.deltas == (-3, -3, 9, -3)
    assert G.returns(s) == (-3, -3, 9, -3)


def test_two_way_split_pays_halves_exactly() -> None:
    hands = {3: "AASSC", 2: "AASSC", 1: "KKBBC", 0: "KKBBC"}
    s = play(start(0, hands), (3, RAISE), (2, CALL), (1, CALL), (0, FOLD))
    result = last(s)
    assert sorted(result.winners) == [2, 3]
    assert result.pot == 7
    assert result.deltas == (Fraction(-1), Fraction(-2), Fraction(3, 2), Fraction(3, 2))
    assert sum(result.deltas) == 0
    totals = G.returns(s)
    assert all(isinstance(t, Fraction) for t in totals)
    assert totals == (Fraction(-1), Fraction(-2), Fraction(3, 2), Fraction(3, 2))
    assert pub(s).totals == totals


def test_two_way_split_between_the_only_two_live_players() -> None:
    hands = {3: "KKBBA", 1: "KKBBA"}
    s = play(start(0, hands), (3, RAISE), (2, FOLD), (1, CALL), (0, FOLD))
    result = last(s)
    assert sorted(result.winners) == [1, 3]
    assert result.deltas == (-1, Fraction(1, 2), 0, Fraction(1, 2))
    assert result.revealed[0] is None
    assert result.revealed[2] is None


def test_three_way_split_pays_thirds_exactly() -> None:
    every = "ABKSC"  # with 5 identities every no-pair hand is one of each: all tie
    hands = dict.fromkeys(range(4), every)
    s = play(start(0, hands), (3, RAISE), (2, CALL), (1, CALL), (0, FOLD))
    result = last(s)
    assert sorted(result.winners) == [1, 2, 3]
    assert result.pot == 7
    third = Fraction(1, 3)
    assert result.deltas == (-1, third, third, third)
    assert G.returns(s) == (-1, third, third, third)
    assert sum(G.returns(s)) == 0
    # The dealer's equal hand was folded: never shown.
    assert result.revealed == (None, ranks(every), ranks(every), ranks(every))


def test_four_way_split_returns_every_stake() -> None:
    hands = dict.fromkeys(range(4), "ABKSC")
    s = play(start(0, hands), (3, RAISE), (2, RAISE), (1, RAISE), (0, CALL), (3, CALL), (2, CALL))
    result = last(s)
    assert sorted(result.winners) == [0, 1, 2, 3]
    assert result.pot == 16
    assert result.deltas == (0, 0, 0, 0)


def test_fractional_totals_accumulate_exactly_over_deals() -> None:
    every = dict.fromkeys(range(4), "ABKSC")
    s = play(start(0, every, deals=3), (3, RAISE), (2, CALL), (1, CALL), (0, FOLD))
    # Deal 2: dealer 3, order 2, 1, 0, 3. A 3-way split of 7 again, dealer folding.
    s = G.apply_chance(s, deck_for(3, every))
    s = play(s, (2, RAISE), (1, CALL), (0, CALL), (3, FOLD))
    third = Fraction(1, 3)
    assert G.returns(s) == (-1 + third, third + third, third + third, third - 1)
    # Deal 3: dealer 2, order 1, 0, 3, 2. A 2-way split of 5.
    s = G.apply_chance(s, deck_for(2, {1: "AASSC", 3: "AASSC"}))
    s = play(s, (1, RAISE), (0, FOLD), (3, CALL), (2, FOLD))
    assert G.current_player(s) == TERMINAL
    half = Fraction(1, 2)
    assert G.returns(s) == (-1 + third, 2 * third + half, 2 * third - 1, third - 1 + half)
    assert sum(G.returns(s)) == 0
    assert {t.denominator for t in G.returns(s)} == {3, 6}


def test_folded_hands_are_never_revealed_to_any_seat_or_the_public() -> None:
    hands = {0: "AAAAC", 1: "KKKKC", 2: "BBBBC", 3: "SSSSC"}
    s = play(start(0, hands, deals=1), (3, LOOK), (3, RAISE), (2, FOLD), (1, CALL), (0, LOOK))
    s = play(s, (0, FOLD))
    assert G.current_player(s) == TERMINAL
    for viewer in (None, 0, 1, 2, 3):
        result = G.observe(s, viewer).last_deal
        assert result is not None
        assert result.revealed == (None, ranks("KKKKC"), None, ranks("SSSSC"))
    assert last(s).winners == (1,)


# -- dealer rotation, match length, parameters -----------------------------------------------------


@pytest.mark.parametrize("first", range(4))
def test_dealer_moves_right_after_each_deal_and_the_match_has_twelve_deals(first: int) -> None:
    s = new_match(dealer=first)
    dealers = []
    for deal in range(12):
        assert G.current_player(s) == CHANCE
        assert G.round_index(s) == deal
        dealer = pub(s).dealer
        dealers.append(dealer)
        s = G.apply_chance(s, deck_for(dealer))
        assert G.current_player(s) == right(dealer)  # the new dealer's right opens
        assert pub(s).stakes[dealer] == 1
        s = passive(s)
        assert last(s).deal_index == deal
        assert last(s).dealer == dealer
    assert dealers == [(first - k) % 4 for k in range(12)]
    assert Counter(dealers) == dict.fromkeys(range(4), 3)
    assert G.current_player(s) == TERMINAL
    assert G.legal_actions(s) == ()
    assert pub(s).to_act is None


def test_after_the_last_deal_nothing_more_can_happen() -> None:
    s = passive(start(deals=1))
    assert G.current_player(s) == TERMINAL
    with pytest.raises(IllegalActionError):
        G.apply(s, HOLD)
    with pytest.raises(IllegalActionError):
        G.apply_chance(s, deck_for(0))
    with pytest.raises(IllegalActionError):
        G.sample_chance(s, np.random.default_rng(0))


@pytest.mark.parametrize("deals", [1, 2, 5, 13])
def test_deals_parameter_sets_the_match_length(deals: int) -> None:
    s = new_match(deals=deals, dealer=2)
    assert pub(s).num_deals == deals
    count = 0
    while G.current_player(s) != TERMINAL:
        s = passive(G.apply_chance(s, deck_for(pub(s).dealer)))
        count += 1
    assert count == deals


def test_default_is_twelve_deals_and_four_players() -> None:
    spec = {p.name: p for p in G.info.params}
    assert spec["deals"].default == 12
    assert spec["players"].default == 4
    assert G.info.min_players == G.info.max_players == 4
    assert G.num_players(G.initial_state({})) == 4
    assert G.initial_state({}) == G.initial_state({"deals": 12, "players": 4})
    assert G.info.num_distinct_actions == 5


@pytest.mark.parametrize(
    "params",
    [
        {"deals": 0},
        {"deals": -3},
        {"deals": 1001},
        {"deals": "12"},
        {"deals": 12.0},
        {"deals": True},
        {"players": 3},
        {"players": 5},
        {"decks": 1},
        {"Deals": 12},
    ],
)
def test_bad_parameters_raise_config_error(params: dict[str, Any]) -> None:
    with pytest.raises(ConfigError):
        G.initial_state(params)


def test_extreme_legal_deal_counts_are_accepted() -> None:
    assert pub(new_match(deals=1)).num_deals == 1
    assert pub(new_match(deals=1000)).num_deals == 1000


# -- illegal input ---------------------------------------------------------------------------------


ILLEGAL = {
    "hold below H": ((), HOLD),
    "call when matched": (((3, CALL), (2, CALL), (1, CALL)), CALL),
    "raise at H=4": (((3, RAISE), (2, RAISE), (1, RAISE)), RAISE),
    "look twice": (((3, LOOK),), LOOK),
    "unknown id 5": ((), 5),
    "negative id": ((), -1),
    "not an id": ((), "CALL"),
}


@pytest.mark.parametrize("case", ILLEGAL)
def test_illegal_actions_raise_and_leave_the_state_unchanged(case: str) -> None:
    moves, action = ILLEGAL[case]
    state = play(start(dealer=0), *moves)
    before = (state, G.legal_actions(state), G.current_player(state), G.observe(state, None))
    with pytest.raises(IllegalActionError):
        G.apply(state, action)
    assert (
        state,
        G.legal_actions(state),
        G.current_player(state),
        G.observe(state, None),
    ) == before
    # The state is still usable: a legal action goes through.
    assert G.apply(state, G.legal_actions(state)[-1]) != state


def test_acting_at_a_chance_node_is_illegal() -> None:
    s = new_match()
    with pytest.raises(IllegalActionError):
        G.apply(s, HOLD)
    assert G.legal_actions(s) == ()


@pytest.mark.parametrize(
    "outcome",
    [
        pytest.param(tuple(range(19)), id="19 cards"),
        pytest.param(tuple(range(21)), id="21 cards"),
        pytest.param((0, *range(19)), id="duplicate"),
        pytest.param(tuple(range(1, 21)), id="card 20"),
        pytest.param((-1, *range(1, 20)), id="negative card"),
        pytest.param((), id="empty"),
        pytest.param((0,), id="a seat"),
    ],
)
def test_apply_chance_rejects_a_deal_that_is_not_a_permutation(outcome: tuple[int, ...]) -> None:
    s = new_match()
    with pytest.raises(IllegalActionError):
        G.apply_chance(s, outcome)
    assert G.current_player(s) == CHANCE
    assert G.current_player(G.apply_chance(s, tuple(range(20)))) == 3


@pytest.mark.parametrize("outcome", [(4,), (-1,), (), (0, 1), tuple(range(20))])
def test_apply_chance_rejects_a_bad_first_dealer(outcome: tuple[int, ...]) -> None:
    s = G.initial_state({})
    with pytest.raises(IllegalActionError):
        G.apply_chance(s, outcome)
    assert pub(G.apply_chance(s, (3,))).dealer == 3


def test_apply_chance_is_illegal_during_betting() -> None:
    s = start()
    with pytest.raises(IllegalActionError):
        G.apply_chance(s, deck_for(0))


# -- default action, labels ------------------------------------------------------------------------


def test_default_action_is_hold_when_legal_else_fold() -> None:
    s = start(dealer=0)
    assert G.default_action(s) == FOLD  # seat 3 must call 1: no free hold
    s = play(s, (3, CALL), (2, CALL), (1, CALL))
    assert G.default_action(s) == HOLD  # the dealer is matched
    s = play(s, (0, LOOK))
    assert G.default_action(s) == HOLD
    s = play(start(dealer=0), (3, RAISE), (2, RAISE), (1, RAISE))
    assert G.default_action(s) == FOLD
    assert G.default_action(s) in G.legal_actions(s)


def test_action_labels() -> None:
    s = start(dealer=0)
    labels = {a: G.action_label(s, a) for a in G.legal_actions(s)}
    assert labels == {LOOK: "Look", FOLD: "Fold", CALL: "Call:1", RAISE: "Raise:2"}
    s = play(s, (3, RAISE))
    labels = {a: G.action_label(s, a) for a in G.legal_actions(s)}
    assert labels == {LOOK: "Look", FOLD: "Fold", CALL: "Call:2", RAISE: "Raise:3"}
    s = play(s, (2, RAISE))
    assert G.action_label(s, RAISE) == "Raise:4"
    assert G.action_label(s, CALL) == "Call:3"
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, CALL))
    assert G.action_label(s, HOLD) == "Hold"
    # A call names the stake it brings the caller to (H), not the chips it adds.
    s = play(start(dealer=0), (3, CALL), (2, CALL), (1, RAISE))
    assert pub(s).stakes[0] == 1
    assert G.action_label(s, CALL) == "Call:2"


# -- observation bookkeeping, scoring --------------------------------------------------------------


def test_history_is_the_public_action_list_of_the_current_deal() -> None:
    s = play(start(0, deals=2), (3, LOOK), (3, CALL), (2, FOLD), (1, RAISE), (0, CALL))
    expected = ((3, LOOK), (3, CALL), (2, FOLD), (1, RAISE), (0, CALL))
    assert G.observe(s, 2).history == expected
    s = play(s, (3, FOLD))
    assert pub(s).history == ()  # a new deal starts a new history
    assert last(s).winners in ((0,), (1,))
    s = G.apply_chance(s, deck_for(3))
    assert pub(s).history == ()
    assert pub(s).last_deal == last(s)
    assert pub(s).looked == (False,) * 4


def test_observation_has_no_seat_to_act_at_chance_nodes() -> None:
    s = new_match()
    assert pub(s).to_act is None
    assert G.observe(s, 1).to_act is None
    assert G.observe(s, 1).hand == ()


def test_places_share_ties_at_the_end_of_a_match() -> None:
    hands = {3: "KKBBA", 1: "KKBBA"}
    s = play(start(0, hands, deals=1), (3, RAISE), (2, FOLD), (1, CALL), (0, FOLD))
    assert places(G.returns(s)) == (4, 1, 3, 1)


# -- trust boundary of apply -------------------------------------------------------------------


@pytest.mark.parametrize("bad", [True, 2.0, "2", None])
def test_apply_rejects_action_ids_that_are_not_ints(bad: object) -> None:
    state = G.apply_chance(G.apply_chance(G.initial_state({}), (0,)), tuple(range(20)))
    with pytest.raises(IllegalActionError, match="an action id is an int"):
        G.apply(state, bad)  # type: ignore[arg-type]


def test_default_action_outside_a_decision_raises() -> None:
    with pytest.raises(IllegalActionError):
        G.default_action(G.initial_state({}))
