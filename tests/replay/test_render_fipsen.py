"""The Fipsen narrator of ``croupier replay show``: each way a deal ends reads as it happened,
and a seat's private lines show only its own cards."""

from __future__ import annotations

from typing import Any

from croupier.games import get_game, get_spec
from croupier.games.fipsen.rules import make_card, stacked_deal

G = get_game("fipsen")
NARRATOR = get_spec("fipsen").narrator
SPADES_TO_M = ("A♣ K♣ Q♣ J♣ 10♣", "A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥", "9♣ 9♠ 9♥ 8♣ 8♠")


def cards(text: str) -> tuple[int, ...]:
    return tuple(make_card(name[:-1], name[-1]) for name in text.split())


def deal(hands: tuple[str, ...], skat: str, stock: str) -> Any:
    state = G.apply_chance(G.initial_state({"deals": 2}), (3,))
    outcome = stacked_deal(tuple(cards(h) for h in hands), cards(skat), cards(stock))
    return G.apply_chance(state, outcome)


def do(state: Any, *labels: str) -> Any:
    for label in labels:
        legal = {G.action_label(state, a): a for a in G.legal_actions(state)}
        state = G.apply(state, legal[label])
    return state


def test_a_played_deal_shows_contract_tricks_with_winners_and_score() -> None:
    start = deal(SPADES_TO_M, "8♥ 7♦", "7♣ 7♠ 7♥")
    assert NARRATOR.round_header(G.observe(start, 0)).startswith("── Deal 1/2 · dealer seat 3")
    s = do(start, "Bid:2", "Pass", "Pass", "Pass", "PlayHand", "Trump:♣")
    s = do(s, "Play:A♣", "Play:10♠", "Play:10♥", "Play:8♣", "Play:K♣", "Play:J♠", "Play:J♥")
    s = do(s, "Play:9♣", "Stop")
    lines = NARRATOR.round_end(G.observe(s, 2))
    assert lines == [
        "   contract: seat 0 plays 2, trump ♣ (Hand)",
        "   trick 1: seat 0 A♣ · seat 1 10♠ · seat 2 10♥ · seat 3 8♣ → seat 0",
        "   trick 2: seat 0 K♣ · seat 1 J♠ · seat 2 J♥ · seat 3 9♣ → seat 0",
        "   seat 0 took 2 tricks: won, +4",
    ]


def test_a_throw_in_and_a_siebener_fips_call_are_narrated() -> None:
    s = do(deal(SPADES_TO_M, "8♥ 7♦", "7♣ 7♠ 7♥"), "Pass", "Pass", "Pass", "Pass")
    assert "thrown in" in NARRATOR.round_end(G.observe(s, None))[0]
    fips = ("K♣ Q♣ J♣ 10♣ 9♣", "7♣ 7♠ 7♥ 7♦ A♣", "A♠ K♠ Q♠ J♠ 10♠", "A♥ K♥ Q♥ J♥ 10♥")
    start = deal(fips, "8♣ 9♠", "8♠ 9♥ 8♥")
    undealt = G.apply_chance(G.initial_state({}), (3,))
    assert NARRATOR.private(G.observe(undealt, 1), G.observe(start, 1)) == [
        "   seat 1 holds 7♣ A♣ 7♠ 7♥ 7♦",
        "   seat 1 may call Siebener Fips",
    ]
    s = do(start, "SiebenerFips")
    assert NARRATOR.round_end(G.observe(s, 0)) == [
        "   seat 1 calls Siebener Fips with 7♣ A♣ 7♠ 7♥ 7♦: +30"
    ]


def test_private_lines_show_the_seats_own_cards_and_the_skat_only_to_the_declarer() -> None:
    before = deal(SPADES_TO_M, "8♥ 7♦", "7♣ 7♠ 7♥")
    after = do(before, "Bid:2", "Pass", "Pass", "Pass", "TakeSkat")
    assert NARRATOR.private(G.observe(before, 0), G.observe(after, 0)) == ["   seat 0 takes 8♥ 7♦"]
    for seat in (1, 2, 3):
        assert NARRATOR.private(G.observe(before, seat), G.observe(after, seat)) == []
