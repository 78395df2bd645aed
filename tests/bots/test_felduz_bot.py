"""The Felduz heuristic bot, played in-process through the real codec (play_local)."""

from __future__ import annotations

import statistics

from croupier.transport import play_local
from croupier_bot import Seat
from croupier_bots.felduz_heuristic import FelduzHeuristic
from croupier_bots.random_bot import RandomBot

SMALL = {"stack": 30, "round_cap": 30}


def _win_rate(matches: int, params: dict[str, int]) -> tuple[float, float]:
    """The heuristic's share of two-player matches won against the random bot (a tie counts
    half), seats alternating, and its standard error."""
    results = []
    for m in range(matches):
        seat = m % 2
        bots = [RandomBot(100 + m), RandomBot(200 + m)]
        bots[seat] = FelduzHeuristic()
        scores = play_local("felduz", params, 900 + m, [Seat(b) for b in bots])
        mine, theirs = scores[seat], scores[1 - seat]
        results.append(1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
    return statistics.mean(results), statistics.stdev(results) / len(results) ** 0.5


def test_heuristic_beats_random_clearly() -> None:
    rate, stderr = _win_rate(60, SMALL)
    assert rate >= 0.75, f"heuristic wins {rate:.2f} ± {stderr:.2f}"
    assert rate - 4 * stderr > 0.5


def test_heuristic_plays_legally_at_three_and_four_seats() -> None:
    for players in (3, 4):
        bots = [FelduzHeuristic(), *(RandomBot(s) for s in range(players - 1))]
        scores = play_local(
            "felduz", {**SMALL, "players": players}, players, [Seat(b) for b in bots]
        )
        assert sum(scores) == players * SMALL["stack"]


def test_two_heuristics_play_out_a_match() -> None:
    scores = play_local("felduz", SMALL, 3, [Seat(FelduzHeuristic()), Seat(FelduzHeuristic())])
    assert sum(scores) == 2 * SMALL["stack"]
