"""Fipsen rules, clause by clause (``shared/rules/fipsen.md``; seat conventions in its README).

Every scenario applies the chance outcomes explicitly: ``(dealer,)`` for the first dealer, then a
25-card permutation built by :func:`deck_for` from the hands each role should hold (V, M, H, D),
the Skat and the Kieker stock. With the usual dealer 3 the roles are seats V=0, M=1, H=2, D=3.
Actions are named by their labels (``Bid:2H``, ``Play:A♣``), so a scenario reads like a game
record; :func:`do` fails when a named action is not legal.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from croupier.errors import IllegalActionError
from croupier.games import CHANCE, TERMINAL, get_game
from croupier.games.fipsen.rules import (
    BIDS,
    DECK_SIZE,
    Action,
    Bid,
    DealOutcome,
    MoveKind,
    Phase,
    Trick,
    bid_action,
    card_name,
    make_card,
    move,
    stacked_deal,
    trick_winner,
)

G = get_game("fipsen")
CLUBS, SPADES, HEARTS, DIAMONDS = range(4)


# -- helpers ---------------------------------------------------------------------------------------


def cards(text: str) -> tuple[int, ...]:
    """Card ids from names separated by spaces (``"A♣ 10♥ 7♦"``), sorted."""
    return tuple(sorted(make_card(name[:-1], name[-1]) for name in text.split()))


def deck_for(v: str, m: str, h: str, d: str, skat: str, stock: str) -> tuple[int, ...]:
    """The deal outcome giving V, M, H, D the hands asked for: 3 each, Skat 2, 2 each, stock 3."""
    return stacked_deal(tuple(cards(x) for x in (v, m, h, d)), cards(skat), cards(stock))


def start(
    v: str, m: str, h: str, d: str, skat: str, stock: str, dealer: int = 3, deals: int = 16
) -> Any:
    """A match with ``dealer`` drawn and the stacked deal applied."""
    s = G.initial_state({"deals": deals})
    s = G.apply_chance(s, (dealer,))
    return G.apply_chance(s, deck_for(v, m, h, d, skat, stock))


def label_id(state: Any, label: str) -> int:
    legal = G.legal_actions(state)
    ids = [a for a in legal if G.action_label(state, a) == label]
    assert ids, f"{label} is not legal; legal: {[G.action_label(state, a) for a in legal]}"
    return ids[0]


def do(state: Any, *labels: str) -> Any:
    """Apply the legal actions with these labels in turn."""
    for label in labels:
        state = G.apply(state, label_id(state, label))
    return state


def labels(state: Any) -> list[str]:
    return [G.action_label(state, a) for a in G.legal_actions(state)]


def pub(state: Any) -> Any:
    return G.observe(state, None)


def last(state: Any) -> Any:
    result = pub(state).last_deal
    assert result is not None
    return result


# Deal A: V holds the five top clubs, M spades, H hearts, D the small cards.
A = ("A♣ K♣ Q♣ J♣ 10♣", "A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥", "9♣ 9♠ 9♥ 8♣ 8♠", "8♥ 7♦",
     "7♣ 7♠ 7♥")  # fmt: skip
# Deal B: V has three top clubs and two sevens.
B = ("A♣ K♣ Q♣ 7♠ 7♥", "A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥", "J♣ 10♣ 9♣ 8♣ 9♠", "8♠ 7♦",
     "7♣ 9♥ 8♥")  # fmt: skip
# Deal D: V and M may bid Kieker (no K, Q, J); H and D may not.
D = ("A♣ 10♣ 9♣ 8♣ 7♣", "A♠ 10♠ 9♠ 8♠ 7♠", "A♥ K♥ Q♥ J♥ 10♥", "K♣ Q♣ J♣ K♠ Q♠", "J♠ 9♥",
     "8♥ 7♥ 7♦")  # fmt: skip
# Deal F: V holds four Aces/Kings of ♣♠ and the 7♦; D holds the top hearts.
F = ("A♣ K♣ A♠ K♠ 7♦", "Q♣ J♣ 10♣ Q♠ J♠", "9♣ 8♣ 10♠ 9♠ 8♠", "A♥ K♥ Q♥ J♥ 10♥", "7♣ 7♠",
     "9♥ 8♥ 7♥")  # fmt: skip
# Deal G: M holds Siebener Fips (four sevens and an Ace).
G7 = ("K♣ Q♣ J♣ 10♣ 9♣", "7♣ 7♠ 7♥ 7♦ A♣", "A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥", "8♣ 9♠",
      "8♠ 9♥ 8♥")  # fmt: skip
# Deal H: V gets Siebener Fips by taking the Skat (7♦ Q♣) and discarding K♣ Q♣.
H7 = ("7♣ 7♠ 7♥ A♣ K♣", "A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥", "J♣ 10♣ 9♣ 8♣ 9♠", "7♦ Q♣",
      "8♠ 9♥ 8♥")  # fmt: skip

PASS3 = ("Pass", "Pass", "Pass")


def v_declares_2_clubs(deal: tuple[str, ...] = A) -> Any:
    """V bids 2, the others pass, V takes the Skat, discards it again, and names ♣."""
    s = do(start(*deal), "Bid:2", *PASS3, "TakeSkat")
    skat = cards(deal[4])
    s = do(s, *(f"Discard:{card_name(c)}" for c in skat))
    return do(s, "Trump:♣")


# -- cards and deal --------------------------------------------------------------------------------


def test_the_deck_has_25_cards_three_full_suits_and_the_seven_of_diamonds() -> None:
    names = {card_name(c) for c in range(DECK_SIZE)}
    assert len(names) == 25
    for suit in "♣♠♥":
        assert {f"{r}{suit}" for r in ("7", "8", "9", "10", "J", "Q", "K", "A")} <= names
    assert "7♦" in names
    assert not any(n.endswith("♦") and n != "7♦" for n in names)
    with pytest.raises(ValueError, match="no such card"):
        make_card("8", "♦")
    s = G.apply_chance(G.initial_state({}), (0,))
    outcome = G.sample_chance(s, np.random.default_rng(1))
    assert sorted(outcome) == list(range(25))
    with pytest.raises(IllegalActionError):
        G.apply_chance(s, tuple(range(24)))


def test_deal_order_3_each_from_v_skat_2_each_stock() -> None:
    s = G.apply_chance(G.initial_state({}), (1,))  # dealer 1: V=2, M=3, H=0, D=1
    deck = tuple(range(25))
    s = G.apply_chance(s, deck)
    hands = {seat: G.observe(s, seat).hand for seat in range(4)}
    assert hands[2] == (0, 1, 2, 14, 15)
    assert hands[3] == (3, 4, 5, 16, 17)
    assert hands[0] == (6, 7, 8, 18, 19)
    assert hands[1] == (9, 10, 11, 20, 21)
    assert G.current_player(s) == 2  # V bids first
    assert "Skat J♠ Q♠; stock K♥ A♥ 7♦" in G.chance_label(G.apply_chance(
        G.initial_state({}), (1,)), deck)  # fmt: skip


def test_first_dealer_is_a_chance_event_and_v_is_left_of_the_dealer() -> None:
    s = G.initial_state({})
    assert G.current_player(s) == CHANCE
    assert G.dealer(s) == -1
    with pytest.raises(IllegalActionError):
        G.apply_chance(s, (4,))
    s = G.apply_chance(s, (2,))
    assert G.dealer(s) == 2
    s = G.apply_chance(s, deck_for(*A))
    assert G.current_player(s) == 3  # V = dealer + 1


def test_a_seat_sees_its_own_hand_only() -> None:
    s = start(*A)
    assert G.observe(s, 0).hand == cards(A[0])
    assert G.observe(s, 3).hand == cards(A[3])
    assert pub(s).hand == ()
    assert all(G.observe(s, seat).skat == () for seat in range(4))


# -- bid ranking -----------------------------------------------------------------------------------


def test_bid_ranking_table() -> None:
    rank = {b.label: b.rank for b in BIDS}
    for n in (2, 3, 4):
        assert rank[f"{n}"] == (n, 0)
        assert rank[f"{n}H"] == rank[f"{n}R"] == rank[f"{n}HR"] == (n, 1)
        assert rank[f"{n}D"] == rank[f"{n}HD"] == rank[f"{n}RD"] == rank[f"{n}HRD"] == (n, 2)
    assert rank["Kieker"] == (4, 3)
    assert rank["5"] == (5, 0)
    assert rank["5H"] == rank["5R"] == rank["5HR"] == (5, 1)
    chain = ["2", "2H", "2D", "3", "3R", "3D", "4", "4HR", "4HRD", "Kieker", "5", "5H"]
    assert all(rank[a] < rank[b] for a, b in itertools.pairwise(chain))
    # action ids are in rank order, so every legal bid list is ascending
    assert [b.rank for b in BIDS] == sorted(b.rank for b in BIDS)
    assert int(Action.KIEKER) == bid_action(Bid(5, kieker=True))


def test_durch_is_not_allowed_with_5() -> None:
    assert not any(b.tricks == 5 and b.durch for b in BIDS)
    assert len(BIDS) == 3 * 8 + 4 + 1
    s = do(start(*D), "Bid:4HRD")
    assert labels(s) == ["Pass", "Kieker", "Bid:5", "Bid:5H", "Bid:5R", "Bid:5HR"]


def test_opening_lists_every_bid_and_a_junior_must_outrank() -> None:
    s = start(*A)
    opening = labels(s)
    assert opening[0] == "Pass"
    assert "Hold" not in opening
    assert "Kieker" not in opening  # V holds K, Q, J
    assert len(opening) == 1 + len(BIDS) - 1
    s = do(s, "Bid:2H")
    junior = labels(s)  # M: only bids that outrank 2H; 2R and 2HR are equal, not higher
    assert junior[:3] == ["Pass", "Bid:2D", "Bid:2HD"]
    assert "Bid:2R" not in junior
    assert "Bid:2HR" not in junior
    assert "Hold" not in junior
    s = do(s, "Bid:2D")
    senior = labels(s)
    assert senior[:3] == ["Pass", "Hold", "Bid:3"]
    assert "Bid:2HD" not in senior  # equal rank to 2D


# -- bidding paths ---------------------------------------------------------------------------------


def test_v_opens_and_holds_then_others_pass() -> None:
    s = do(start(*A), "Bid:2", "Bid:3", "Hold", "Pass")
    assert G.current_player(s) == 2  # H now bids against V
    s = do(s, "Pass", "Pass")
    o = pub(s)
    assert o.declarer == 0
    assert o.contract == bid_action(Bid(3))
    assert o.passed == (False, True, True, True)
    assert o.phase is Phase.SKAT


def test_a_junior_overbids_and_the_senior_passes() -> None:
    s = do(start(*A), "Bid:2", "Bid:3", "Pass")  # V out: M is the senior with 3
    assert G.current_player(s) == 2
    s = do(s, "Bid:4")  # H against M
    assert G.current_player(s) == 1
    s = do(s, "Pass")  # M out: H is the senior with 4
    assert G.current_player(s) == 3
    s = do(s, "Pass")
    assert pub(s).declarer == 2
    assert pub(s).contract == bid_action(Bid(4))


def test_a_senior_may_overbid_instead_of_holding() -> None:
    s = do(start(*A), "Bid:2", "Bid:3", "Bid:3D", "Bid:4", "Hold", "Pass", *("Pass",) * 2)
    assert pub(s).declarer == 0
    assert pub(s).contract == bid_action(Bid(4))


def test_vorhand_passes_outright_and_m_opens() -> None:
    s = do(start(*A), "Pass")
    assert G.current_player(s) == 1
    assert "Hold" not in labels(s)
    s = do(s, "Bid:2", "Pass", "Pass")
    assert pub(s).declarer == 1


def test_the_dealer_opens_last_and_declares_at_once() -> None:
    s = do(start(*A), "Pass", "Pass", "Pass", "Bid:3")
    assert pub(s).declarer == 3
    assert pub(s).contract == bid_action(Bid(3))


def test_passed_players_never_re_enter() -> None:
    s = do(start(*A), "Bid:2", "Pass")  # M out
    s = do(s, "Bid:3", "Pass")  # H beats V; V out
    s = do(s, "Bid:4")  # D against H
    assert G.current_player(s) == 2
    s = do(s, "Bid:5")
    s = do(s, "Pass")  # D out: H declares; nobody who passed was asked again
    assert pub(s).declarer == 2
    actors = [seat for seat, _ in pub(s).history]
    assert actors == [0, 1, 2, 0, 3, 2, 3]


def test_all_pass_is_a_throw_in_redealt_by_the_same_dealer_and_counted() -> None:
    s = do(start(*A), "Pass", "Pass", "Pass", "Pass")
    assert G.current_player(s) == CHANCE
    assert G.round_index(s) == 1
    assert G.dealer(s) == 3  # the same dealer deals again
    result = last(s)
    assert result.outcome is DealOutcome.THROW_IN
    assert result.deltas == (0, 0, 0, 0)
    assert G.returns(s) == (0, 0, 0, 0)


def test_a_match_of_16_deals_counts_throw_ins() -> None:
    s = G.apply_chance(G.initial_state({}), (0,))
    for deal in range(16):
        assert G.round_index(s) == deal
        s = G.apply_chance(s, deck_for(*A))
        s = do(s, "Pass", "Pass", "Pass", "Pass")
    assert G.current_player(s) == TERMINAL
    assert len(pub(s).past_deals) == 16
    assert G.legal_actions(s) == ()


def test_the_deal_passes_left_after_a_played_deal() -> None:
    s = do(v_declares_2_clubs(), "Play:A♣", "Play:10♠", "Play:10♥", "Play:8♣")
    s = do(s, "Play:K♣", "Play:J♠", "Play:J♥", "Play:9♣", "Stop")
    assert G.current_player(s) == CHANCE
    assert G.dealer(s) == 0  # dealer 3 -> seat 0, its left
    s = G.apply_chance(s, deck_for(*A))
    assert G.current_player(s) == 1  # V of the new deal


# -- Kieker ----------------------------------------------------------------------------------------


def test_kieker_only_for_a_dealt_hand_without_king_queen_or_jack() -> None:
    s = start(*D)
    assert "Kieker" in labels(s)  # V: A 10 9 8 7 of clubs
    s = do(s, "Bid:2")
    assert "Kieker" in labels(s)  # M: A 10 9 8 7 of spades
    s = do(s, "Pass")
    assert "Kieker" not in labels(s)  # H holds K Q J of hearts
    s = do(s, "Pass")
    assert "Kieker" not in labels(s)  # D holds K Q J


def test_an_eligible_senior_may_hold_kieker() -> None:
    s = do(start(*D), "Bid:2", "Kieker")
    assert "Hold" in labels(s)
    s = do(s, "Hold", "Pass", "Pass", "Pass")
    o = G.observe(s, 0)
    assert o.declarer == 0
    assert o.contract == int(Action.KIEKER)
    assert o.phase is Phase.DISCARD
    assert len(o.hand) == 10  # Skat and stock taken
    assert o.skat == cards("J♠ 9♥ 8♥ 7♥ 7♦")


def test_an_ineligible_senior_may_not_hold_kieker() -> None:
    v, m, h, d, skat, stock = D
    s = do(start(d, m, h, v, skat, stock), "Bid:2", "Kieker")  # V now holds K Q J
    assert "Hold" not in labels(s)
    assert labels(s) == ["Pass", "Bid:5", "Bid:5H", "Bid:5R", "Bid:5HR"]


def kieker_for_v(deal: tuple[str, ...], discards: str, trump: str) -> Any:
    s = do(start(*deal), "Kieker", *PASS3)
    assert pub(s).phase is Phase.DISCARD
    s = do(s, *(f"Discard:{c}" for c in discards.split()))
    assert labels(s) == ["Trump:♣", "Trump:♠", "Trump:♥", "Trump:♦"]
    return do(s, f"Trump:{trump}")


def test_kieker_won_scores_20_without_multipliers() -> None:
    deal = ("A♣ 10♣ 9♣ 8♣ 7♣", "A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥", "9♠ 8♠ 7♠ 9♥ 8♥",
            "K♣ Q♣", "J♣ 7♥ 7♦")  # fmt: skip
    s = kieker_for_v(deal, "7♥ 7♦ 7♣ 8♣ 9♣", "♣")
    assert G.observe(s, 0).hand == cards("A♣ K♣ Q♣ J♣ 10♣")
    assert G.observe(s, 0).discards == cards("7♥ 7♦ 7♣ 8♣ 9♣")
    for lead in ("A♣", "K♣", "Q♣", "J♣", "10♣"):
        s = do(s, f"Play:{lead}")
        s = do(s, *(f"Play:{card_name(G.observe(s, p).hand[0])}" for p in (1, 2, 3)))
    result = last(s)
    assert result.outcome is DealOutcome.WON
    assert result.deltas == (20, 0, 0, 0)
    assert not (result.hand)
    assert not (result.ruten)
    assert not result.durch


def test_kieker_fails_at_the_first_lost_trick_minus_40_even_with_diamonds() -> None:
    deal = ("A♣ 10♣ 9♣ 8♣ 7♣", "K♣ Q♣ J♣ A♠ K♠", "Q♠ J♠ 10♠ 9♠ 8♠", "A♥ K♥ Q♥ J♥ 10♥",
            "7♠ 9♥", "8♥ 7♥ 7♦")  # fmt: skip
    s = kieker_for_v(deal, "7♠ 9♥ 8♥ 7♥ 7♣", "♦")
    assert not pub(s).ruten_applied  # no multipliers under Kieker
    s = do(s, "Play:7♦", "Play:A♠", "Play:8♠", "Play:10♥")  # only trump: V wins
    s = do(s, "Play:A♣", "Play:J♣", "Play:9♠", "Play:J♥")
    s = do(s, "Play:10♣", "Play:K♣", "Play:10♠", "Play:Q♥")  # lost: the deal stops at once
    result = last(s)
    assert result.outcome is DealOutcome.LOST
    assert result.declarer_tricks == 2
    assert result.deltas == (-40, 0, 0, 0)


# -- declarer setup --------------------------------------------------------------------------------


def test_a_hand_bid_skips_the_skat_choice() -> None:
    s = do(start(*A), "Bid:2H", *PASS3)
    assert pub(s).phase is Phase.TRUMP
    assert pub(s).hand_applied
    assert not pub(s).skat_taken
    assert G.observe(s, 0).skat == ()
    assert G.observe(s, 0).hand == cards(A[0])


def test_take_skat_then_discard_two_one_at_a_time() -> None:
    s = do(start(*A), "Bid:2", *PASS3)
    assert labels(s) == ["TakeSkat", "PlayHand"]
    assert not G.observe(s, 0).skat_taken  # declared, not yet taken
    s = do(s, "TakeSkat")
    me = G.observe(s, 0)
    assert me.hand == cards("A♣ K♣ Q♣ J♣ 10♣ 8♥ 7♦")
    assert me.skat == cards("8♥ 7♦")
    assert me.skat_taken
    assert labels(s) == [f"Discard:{card_name(c)}" for c in me.hand]
    s = do(s, "Discard:10♣")  # any card may go, not only Skat cards
    assert pub(s).phase is Phase.DISCARD
    s = do(s, "Discard:8♥")
    me = G.observe(s, 0)
    assert me.hand == cards("A♣ K♣ Q♣ J♣ 7♦")
    assert me.discards == cards("10♣ 8♥")
    assert pub(s).phase is Phase.TRUMP
    assert not me.hand_applied
    for seat in (1, 2, 3, None):  # defenders never see the Skat or the discards
        o = G.observe(s, seat)
        assert o.skat == ()
        assert o.discards == ()
        assert o.skat_taken
    assert not G.is_public(s, int(Action.DISCARD_BASE))
    assert all(a < Action.DISCARD_BASE or a >= Action.TRUMP_BASE for _, a in pub(s).history)


def test_play_hand_applies_hand() -> None:
    s = do(start(*A), "Bid:2", *PASS3, "PlayHand")
    assert pub(s).hand_applied
    assert not pub(s).skat_taken
    assert pub(s).phase is Phase.TRUMP
    s = do(s, "Trump:♣", "Play:A♣", "Play:10♠", "Play:10♥", "Play:8♣")
    s = do(s, "Play:K♣", "Play:J♠", "Play:J♥", "Play:9♣", "Stop")
    assert last(s).deltas == (4, 0, 0, 0)  # 2 x 2 (Hand)


def test_ruten_forces_diamonds_whoever_holds_the_seven() -> None:
    s = do(start(*A), "Bid:2R", *PASS3, "PlayHand")  # the 7♦ stays in the Skat
    o = pub(s)
    assert o.phase is Phase.PLAY
    assert o.trump == DIAMONDS
    assert o.ruten_applied
    assert o.hand_applied
    s = do(start(*A), "Bid:2R", *PASS3, "TakeSkat", "Discard:8♥", "Discard:10♣")
    o = G.observe(s, 0)
    assert o.phase is Phase.PLAY
    assert o.trump == DIAMONDS
    assert SEVEN_D in o.hand
    assert not o.hand_applied


SEVEN_D = make_card("7", "♦")


def test_naming_diamonds_applies_ruten() -> None:
    s = do(start(*F), "Bid:4", *PASS3, "TakeSkat", "Discard:7♣", "Discard:7♠", "Trump:♦")
    assert pub(s).ruten_applied
    s = do(s, "Play:A♣", "Play:Q♣", "Play:9♣", "Play:A♥")
    s = do(s, "Play:K♣", "Play:J♣", "Play:8♣", "Play:K♥")
    s = do(s, "Play:A♠", "Play:Q♠", "Play:10♠", "Play:Q♥")
    s = do(s, "Play:K♠", "Play:J♠", "Play:9♠", "Play:J♥")
    assert labels(s) == ["Stop", "Durch"]
    s = do(s, "Stop")
    assert last(s).deltas == (8, 0, 0, 0)  # 4 x 2 (Ruten)


# -- play ------------------------------------------------------------------------------------------


def test_v_leads_the_first_trick_whoever_declares() -> None:
    s = do(start(*F), "Pass", "Pass", "Pass", "Bid:4HR")
    o = pub(s)
    assert o.declarer == 3
    assert o.phase is Phase.PLAY
    assert G.current_player(s) == 0
    assert o.trick_leader == 0


def test_seed_example_4_hand_ruten_lost_scores_minus_32() -> None:
    """D (hearts) bids 4HR: ♦ is trump, so its hearts are not trumps and V's Aces win."""
    s = do(start(*F), "Pass", "Pass", "Pass", "Bid:4HR")
    s = do(s, "Play:A♣", "Play:Q♣", "Play:9♣", "Play:10♥")  # a heart does not trump
    assert pub(s).tricks[-1].winner == 0
    s = do(s, "Play:K♣", "Play:J♣", "Play:8♣", "Play:J♥")  # L = 2 > 5 - 4: lost at once
    result = last(s)
    assert result.outcome is DealOutcome.LOST
    assert result.deltas == (0, 0, 0, -32)
    assert result.value == 16
    assert (result.hand, result.ruten, result.durch) == (True, True, False)


def test_seed_example_4_hand_ruten_won_scores_16_and_durch_32() -> None:
    s = do(start(*F), "Bid:4HR", *PASS3)
    assert pub(s).trump == DIAMONDS
    s = do(s, "Play:A♣", "Play:Q♣", "Play:9♣", "Play:A♥")
    s = do(s, "Play:K♣", "Play:J♣", "Play:8♣", "Play:K♥")
    s = do(s, "Play:A♠", "Play:Q♠", "Play:10♠", "Play:Q♥")
    s = do(s, "Play:K♠", "Play:J♠", "Play:9♠", "Play:J♥")
    assert G.current_player(s) == 0
    assert last_deal_index(s) is None
    assert last(do(s, "Stop")).deltas == (16, 0, 0, 0)
    s = do(s, "Durch", "Play:7♦", "Play:10♣", "Play:8♠", "Play:10♥")  # the only trump wins
    result = last(s)
    assert result.deltas == (32, 0, 0, 0)
    assert result.durch
    assert result.declarer_tricks == 5


def last_deal_index(state: Any) -> int | None:
    result = pub(state).last_deal
    return None if result is None else result.deal_index


def test_follow_suit_no_duty_to_trump_and_highest_of_the_suit_led_wins() -> None:
    s = do(start(*B), "Bid:2", *PASS3, "TakeSkat", "Discard:8♠", "Discard:7♦", "Trump:♣")
    s = do(s, "Play:7♠")
    assert labels(s) == ["Play:10♠", "Play:J♠", "Play:Q♠", "Play:K♠", "Play:A♠"]  # follow
    s = do(s, "Play:10♠")
    assert len(labels(s)) == 5  # H has no spade: any card
    s = do(s, "Play:A♥", "Play:9♠")
    assert pub(s).tricks[-1].winner == 1  # 10♠ beats the off-suit A♥
    s = do(s, "Play:K♠", "Play:K♥", "Play:8♣")
    assert "Play:7♥" in labels(s)  # V is void in spades and need not trump
    s = do(s, "Play:Q♣")
    assert pub(s).tricks[-1].winner == 0  # the higher trump wins
    assert (pub(s).declarer_tricks, pub(s).defender_tricks) == (1, 1)
    s = do(s, "Play:A♣", "Play:J♠", "Play:Q♥", "Play:J♣")  # T reaches 2 with L = 1: won
    result = last(s)
    assert result.outcome is DealOutcome.WON
    assert result.deltas == (2, 0, 0, 0)
    assert result.declarer_tricks == 2


def test_trick_winner_highest_trump_else_highest_of_suit_led() -> None:
    a_c, k_c, eight_c = make_card("A", "♣"), make_card("K", "♣"), make_card("8", "♣")
    seven_h, a_s = make_card("7", "♥"), make_card("A", "♠")
    assert trick_winner((k_c, a_s, a_c, eight_c), 1, HEARTS) == 3  # A♣ highest of suit led
    assert trick_winner((k_c, a_s, a_c, seven_h), 1, HEARTS) == 0  # 7♥ trumps
    assert trick_winner((k_c, a_s, a_c, eight_c), 1, SPADES) == 2  # A♠ trumps
    assert trick_winner((k_c, SEVEN_D, a_c, eight_c), 0, DIAMONDS) == 1  # the only ♦ trump
    assert trick_winner((SEVEN_D, a_s, a_c, k_c), 2, CLUBS) == 0  # 7♦ led, A♣ trumps


def test_stop_scores_the_contract() -> None:
    s = do(v_declares_2_clubs(), "Play:A♣", "Play:10♠", "Play:10♥", "Play:8♣")
    s = do(s, "Play:K♣", "Play:J♠", "Play:J♥", "Play:9♣")
    assert pub(s).phase is Phase.STOP_OR_DURCH
    assert G.current_player(s) == 0
    s = do(s, "Stop")
    result = last(s)
    assert (result.outcome, result.deltas, result.declarer_tricks) == (
        DealOutcome.WON, (2, 0, 0, 0), 2)  # fmt: skip


def test_durch_then_all_five_doubles() -> None:
    s = do(v_declares_2_clubs(), "Play:A♣", "Play:10♠", "Play:10♥", "Play:8♣")
    s = do(s, "Play:K♣", "Play:J♠", "Play:J♥", "Play:9♣", "Durch")
    assert pub(s).durch_applied
    s = do(s, "Play:Q♣", "Play:Q♠", "Play:Q♥", "Play:9♠")
    s = do(s, "Play:J♣", "Play:K♠", "Play:K♥", "Play:8♠")
    s = do(s, "Play:10♣", "Play:A♠", "Play:A♥", "Play:9♥")
    assert last(s).deltas == (4, 0, 0, 0)


def test_durch_then_a_lost_trick_fails_at_once() -> None:
    s = do(start(*B), "Bid:2", *PASS3, "TakeSkat", "Discard:8♠", "Discard:7♦", "Trump:♣")
    s = do(s, "Play:A♣", "Play:A♠", "Play:A♥", "Play:8♣")
    s = do(s, "Play:K♣", "Play:K♠", "Play:K♥", "Play:9♣", "Durch")
    s = do(s, "Play:7♠", "Play:Q♠", "Play:Q♥", "Play:9♠")
    result = last(s)
    assert result.outcome is DealOutcome.LOST
    assert result.deltas == (-8, 0, 0, 0)  # -2 x (2 x 2)
    assert result.declarer_tricks == 2


def test_a_durch_bid_gives_no_stop_choice_and_fails_at_the_first_lost_trick() -> None:
    s = do(start(*A), "Bid:2D", *PASS3, "TakeSkat", "Discard:8♥", "Discard:7♦", "Trump:♣")
    assert pub(s).durch_applied
    s = do(s, "Play:A♣", "Play:10♠", "Play:10♥", "Play:8♣")
    s = do(s, "Play:K♣", "Play:J♠", "Play:J♥", "Play:9♣")
    assert pub(s).phase is Phase.PLAY  # no choice: the contract is all five
    s = do(s, "Play:Q♣", "Play:Q♠", "Play:Q♥", "Play:9♠")
    s = do(s, "Play:J♣", "Play:K♠", "Play:K♥", "Play:8♠")
    s = do(s, "Play:10♣", "Play:A♠", "Play:A♥", "Play:9♥")
    assert last(s).deltas == (4, 0, 0, 0)
    s = do(start(*B), "Bid:2D", *PASS3, "TakeSkat", "Discard:8♠", "Discard:7♦", "Trump:♣")
    s = do(s, "Play:7♠", "Play:A♠", "Play:A♥", "Play:9♠")
    result = last(s)
    assert (result.outcome, result.deltas, len(pub(s).past_deals)) == (
        DealOutcome.LOST, (-8, 0, 0, 0), 1)  # fmt: skip


def test_too_many_lost_tricks_end_the_deal_at_once() -> None:
    """D bids 4 and plays from hand with the small cards: L = 2 > 5 - 4 after two tricks."""
    s = do(start(*A), "Pass", "Pass", "Pass", "Bid:4", "PlayHand", "Trump:♣")
    s = do(s, "Play:A♣", "Play:10♠", "Play:10♥", "Play:8♣")
    assert G.current_player(s) == 0
    s = do(s, "Play:K♣", "Play:J♠", "Play:J♥", "Play:9♣")
    result = last(s)
    assert result.outcome is DealOutcome.LOST
    assert result.deltas == (0, 0, 0, -16)  # -2 x (4 x 2 Hand)
    assert len(pub(s).past_deals[-1].history) == 4 + 2 + 8


def test_a_5_bid_has_no_stop_choice_and_wins_with_all_five() -> None:
    s = do(start(*A), "Bid:5", *PASS3, "TakeSkat", "Discard:8♥", "Discard:7♦", "Trump:♣")
    for lead, m, h, d in (("A♣", "10♠", "10♥", "8♣"), ("K♣", "J♠", "J♥", "9♣"),
                          ("Q♣", "Q♠", "Q♥", "9♠"), ("J♣", "K♠", "K♥", "8♠")):  # fmt: skip
        s = do(s, f"Play:{lead}", f"Play:{m}", f"Play:{h}", f"Play:{d}")
        assert pub(s).phase is Phase.PLAY
    s = do(s, "Play:10♣", "Play:A♠", "Play:A♥", "Play:9♥")
    assert last(s).deltas == (5, 0, 0, 0)


def test_illegal_actions_are_rejected_and_the_state_is_untouched() -> None:
    s = start(*A)
    before = s
    for bad in (1, int(Action.KIEKER), int(Action.STOP), -1, 91, True, 2.0):
        with pytest.raises(IllegalActionError):
            G.apply(s, bad)  # type: ignore[arg-type]
    assert s == before
    with pytest.raises(IllegalActionError):
        G.apply(G.initial_state({}), 0)


# -- Siebener Fips ---------------------------------------------------------------------------------


def test_siebener_fips_is_offered_before_bidding_only_to_the_qualifying_seat() -> None:
    s = start(*G7)
    assert G.current_player(s) == 1
    assert labels(s) == ["SiebenerFips", "Decline"]
    assert G.observe(s, 1).phase is Phase.SIEBENER_FIPS
    declined = do(s, "Decline")
    assert not G.is_public(s, int(Action.DECLINE_FIPS))
    assert G.current_player(declined) == 0  # bidding starts with V
    for seat in (0, 2, 3, None):  # nobody else can tell an offer exists
        assert G.observe(s, seat) == G.observe(declined, seat)
    assert pub(declined).history == ()
    assert G.default_action(s) == int(Action.DECLINE_FIPS)
    s = do(start(*A))
    assert "SiebenerFips" not in labels(s)


def test_siebener_fips_called_before_bidding_scores_30_and_reveals_the_hand() -> None:
    s = do(start(*G7), "SiebenerFips")
    result = last(s)
    assert result.outcome is DealOutcome.SIEBENER_FIPS
    assert result.declarer == 1
    assert result.revealed == cards("7♣ 7♠ 7♥ 7♦ A♣")
    assert result.deltas == (0, 30, 0, 0)
    assert G.returns(s) == (0, 30, 0, 0)
    assert G.ranking(s) == (2, 1, 2, 2)  # ties share places
    assert G.current_player(s) == CHANCE
    assert G.dealer(s) == 0


def test_siebener_fips_offered_to_the_declarer_after_the_exchange() -> None:
    s = do(start(*H7), "Bid:2", *PASS3, "TakeSkat", "Discard:K♣")
    assert pub(s).phase is Phase.DISCARD
    s = do(s, "Discard:Q♣")
    assert G.current_player(s) == 0
    assert labels(s) == ["SiebenerFips", "Decline"]
    declined = do(s, "Decline")
    assert pub(declined).phase is Phase.TRUMP
    for seat in (1, 2, 3, None):
        assert G.observe(s, seat) == G.observe(declined, seat)
    called = do(s, "SiebenerFips")
    result = last(called)
    assert result.outcome is DealOutcome.SIEBENER_FIPS
    assert result.revealed == cards("7♣ 7♠ 7♥ 7♦ A♣")
    assert result.deltas == (30, 0, 0, 0)
    assert G.returns(called) == (30, 0, 0, 0)


def test_a_qualifying_declarer_is_asked_again_after_a_hand_bid() -> None:
    s = do(start(*G7), "Decline", "Pass", "Bid:2H", "Pass", "Pass")
    assert pub(s).declarer == 1
    assert labels(s) == ["SiebenerFips", "Decline"]
    s = do(s, "Decline")
    assert labels(s) == ["Trump:♣", "Trump:♠", "Trump:♥", "Trump:♦"]


# -- defaults, ranking, match ----------------------------------------------------------------------


def test_default_actions_are_harmless_and_legal() -> None:
    s = start(*A)
    assert G.default_action(s) == int(Action.PASS)
    s = do(s, "Bid:2", *PASS3)
    assert G.default_action(s) == int(Action.PLAY_HAND)
    s = do(s, "TakeSkat")
    assert G.action_label(s, G.default_action(s)) == "Discard:10♣"
    s = do(s, "Discard:10♣", "Discard:8♥")
    assert G.action_label(s, G.default_action(s)) == "Trump:♣"
    s = do(s, "Trump:♣", "Play:A♣")
    assert G.action_label(s, G.default_action(s)) == "Play:10♠"
    s = do(s, "Play:10♠", "Play:10♥", "Play:8♣", "Play:K♣", "Play:J♠", "Play:J♥", "Play:9♣")
    assert G.default_action(s) == int(Action.STOP)
    with pytest.raises(IllegalActionError):
        G.default_action(G.initial_state({}))


def test_labels_are_readable() -> None:
    s = start(*A)
    assert [G.action_label(s, a) for a in (0, 1, 2, 3, 26, 31, 32, 33, 34, 89, 90)] == [
        "Pass", "Hold", "Bid:2", "Bid:2H", "Kieker", "SiebenerFips", "Decline", "TakeSkat",
        "PlayHand", "Stop", "Durch",
    ]  # fmt: skip
    assert G.action_label(s, bid_action(Bid(4, hand=True, ruten=True, durch=True))) == "Bid:4HRD"
    assert G.action_label(s, int(Action.TRUMP_BASE) + 2) == "Trump:♥"
    q_spades = make_card("Q", "♠")
    assert G.action_label(s, int(Action.PLAY_BASE) + q_spades) == "Play:Q♠"
    assert G.action_label(s, int(Action.DISCARD_BASE) + q_spades) == "Discard:Q♠"
    assert G.info.num_distinct_actions == 91


def test_every_id_decodes_to_one_move_that_names_it() -> None:
    """The one decoder: each id's move has its kind and exactly the bid, card or suit of its
    range, different ids give different moves, and the label is the move's."""
    s = start(*A)
    kinds = {0: MoveKind.PASS, 1: MoveKind.HOLD, 31: MoveKind.SIEBENER_FIPS,
             32: MoveKind.DECLINE_FIPS, 33: MoveKind.TAKE_SKAT, 34: MoveKind.PLAY_HAND,
             89: MoveKind.STOP, 90: MoveKind.DURCH}  # fmt: skip
    moves = [move(a) for a in range(G.info.num_distinct_actions)]
    assert len(set(moves)) == len(moves)
    for a, m in enumerate(moves):
        assert m is move(a)  # decoded once
        assert m.label == G.action_label(s, a)
        named = (m.bid is not None) + (m.card is not None) + (m.suit is not None)
        if a in kinds:
            assert (m.kind, named) == (kinds[a], 0)
        elif a < Action.SIEBENER_FIPS:
            assert (m.kind, m.bid, named) == (MoveKind.BID, BIDS[a - Action.BID_BASE], 1)
            assert bid_action(m.bid) == a
        elif a < Action.TRUMP_BASE:
            assert (m.kind, m.card, named) == (MoveKind.DISCARD, a - Action.DISCARD_BASE, 1)
        elif a < Action.PLAY_BASE:
            assert (m.kind, m.suit, named) == (MoveKind.TRUMP, a - Action.TRUMP_BASE, 1)
        else:
            assert (m.kind, m.card, named) == (MoveKind.PLAY, a - Action.PLAY_BASE, 1)
    assert move(int(Action.KIEKER)).bid == Bid(5, kieker=True)
    for bad in (-1, 91):
        with pytest.raises(IllegalActionError):
            move(bad)


def test_a_deal_result_carries_its_finished_tricks() -> None:
    s = do(start(*A), "Bid:2", *PASS3, "PlayHand", "Trump:♣", "Play:A♣", "Play:10♠",
           "Play:10♥", "Play:8♣", "Play:K♣", "Play:J♠", "Play:J♥")  # fmt: skip
    before = pub(s)
    s = do(s, "Play:9♣", "Stop")
    result = pub(s).last_deal
    assert result is not None
    assert result.outcome is DealOutcome.WON
    last = Trick(before.trick_leader, (*before.trick_cards, make_card("9", "♣")), 0)
    assert result.tricks == (*before.tricks, last)
    in_play_order = [tuple(make_card(n[:-1], n[-1]) for n in t.split())
                     for t in ("A♣ 10♠ 10♥ 8♣", "K♣ J♠ J♥ 9♣")]  # fmt: skip
    assert result.tricks == tuple(Trick(0, t, 0) for t in in_play_order)  # V leads, wins both
    thrown = pub(do(start(*A), "Pass", *PASS3)).last_deal
    fips = pub(do(start(*G7), "SiebenerFips")).last_deal
    assert thrown is not None
    assert fips is not None
    assert (thrown.outcome, thrown.tricks) == (DealOutcome.THROW_IN, ())
    assert (fips.outcome, fips.tricks) == (DealOutcome.SIEBENER_FIPS, ())


def test_scores_accumulate_over_deals_and_the_match_ranks_by_total() -> None:
    s = G.apply_chance(G.initial_state({"deals": 2}), (3,))
    s = G.apply_chance(s, deck_for(*G7))
    s = do(s, "SiebenerFips")  # M +30; dealer 3 -> 0
    s = G.apply_chance(s, deck_for(*A))  # V = 1 now holds the top clubs
    s = do(s, "Bid:2", *PASS3, "PlayHand", "Trump:♣", "Play:A♣", "Play:10♠", "Play:10♥",
           "Play:8♣", "Play:K♣", "Play:J♠", "Play:J♥", "Play:9♣", "Stop")  # fmt: skip
    assert G.current_player(s) == TERMINAL
    assert G.returns(s) == (Fraction(0), Fraction(34), Fraction(0), Fraction(0))
    assert G.ranking(s) == (2, 1, 2, 2)
    assert [d.result.dealer for d in pub(s).past_deals] == [3, 0]
