"""The Scauver narrator: what a seat's (or the public) view says when cards are dealt and drawn,
when the openings are revealed, and at the end of a round (the chosen links and scores)."""

from __future__ import annotations

from scauver_kit import TWO, TWO_STOCK, act, start, two_player_round

from croupier.games import get_game, get_spec

G = get_game("scauver")
N = get_spec("scauver").narrator


def _lines(before: object, after: object) -> list[str]:
    return N.private(before, after)


def test_a_seat_sees_its_deal_and_its_draws_and_nobody_elses() -> None:
    empty = G.apply_chance(G.initial_state({}), (0,))
    dealt = start(2, 0, TWO, TWO_STOCK)
    assert _lines(G.observe(empty, 1), G.observe(dealt, 1)) == [
        "   seat 1 is dealt [A♣ 4♣ 6♣ 2♦ 3♦]"
    ]
    assert _lines(G.observe(empty, 0), G.observe(dealt, 0)) == [
        "   seat 0 is dealt [A♥ 4♥ 6♥ 2♠ 3♠]"
    ]
    assert _lines(G.observe(empty, None), G.observe(dealt, None)) == []
    one = act(dealt, "Open:[A♣→L 4♣→L 2♦→R]")
    assert _lines(G.observe(dealt, 0), G.observe(one, 0)) == []  # nothing of seat 1's choice
    both = act(one, "Open:[A♥→L 4♥→L 2♠→R]")
    reveal = [
        "   seat 0 opens: L [A♥ 4♥] (5)  R [2♠] (2)",
        "   seat 1 opens: L [A♣ 4♣] (5)  R [2♦] (2)",
    ]
    assert _lines(G.observe(one, None), G.observe(both, None)) == reveal
    assert _lines(G.observe(one, 1), G.observe(both, 1)) == [*reveal, "   seat 1 draws [7♣]"]
    assert _lines(G.observe(one, 0), G.observe(both, 0)) == reveal


def test_the_round_end_shows_the_links_the_scores_and_the_pot() -> None:
    state = two_player_round(start(2, 0, TWO, TWO_STOCK))
    assert N.round_end(G.observe(state, None)) == [
        "   showdown: seat 0: L [A♥ 4♥ 6♥ 7♥] (18)  R [2♠ 3♠ 5♠ J♠] (18)  D 0, "
        "link [6♥ 7♥] = [2♠ 3♠ J♠] v 13 (3–2), score 0",
        "   showdown: seat 1: L [A♣ 4♣ 6♣ 7♣] (18)  R [2♦ 3♦ 5♦ J♦] (18)  D 0, "
        "link [6♣ 7♣] = [2♦ 3♦ J♦] v 13 (3–2), score 0",
        "   decided by a tie",
        "   pot 2 → seat 0, seat 1",
    ]
    lost = two_player_round(start(2, 0, TWO, TWO_STOCK), "Place:J♠→L,7♥→R")
    assert "   decided by the lowest score" in N.round_end(G.observe(lost, 0))
    folded = act(start(2, 0, TWO, TWO_STOCK), "Open:[A♣→L 4♣→L 2♦→R]", "Open:[A♥→L 4♥→L 2♠→R]")
    folded = act(folded, "Bet:3", "Out")
    assert N.round_end(G.observe(folded, 0)) == [
        "   seat 1 is the last one in; no showdown",
        "   pot 5 → seat 1",
    ]
    assert N.round_header(G.observe(folded, 0)) == (
        "── Round 2/300 · dealer seat 1 · amphora 1 · cap 99 ──"
    )
