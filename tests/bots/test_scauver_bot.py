"""The Scauver heuristic bot, played in-process through the real codec against the random bot."""

from __future__ import annotations

from croupier.transport import play_local
from croupier_bot import Seat
from croupier_bots.random_bot import RandomBot
from croupier_bots.scauver_heuristic import ScauverHeuristic, best_completion, field_key

SMALL = {"stack": 10, "round_cap": 30}


def test_heuristic_beats_random_in_two_player_matches() -> None:
    """Seats alternate; the bots and the deals are seeded, so the figure is reproducible
    (``bench``-style: 100 default matches give about 94 %, see bench/README.md)."""
    wins = 0
    matches = 12
    for m in range(matches):
        seat = m % 2
        bots: list[ScauverHeuristic | RandomBot] = [RandomBot(100 + m), RandomBot(200 + m)]
        bots[seat] = ScauverHeuristic(m)
        scores = play_local("scauver", SMALL, 3000 + m, [Seat(b) for b in bots])
        wins += scores[seat] > scores[1 - seat]
    assert wins >= 10, f"the heuristic won only {wins} of {matches}"


def test_field_key_reads_the_rules() -> None:
    # D 0 with a link (score 0) beats D 2 with a link, which beats any unlinked field
    zero = field_key((1, 4, 6, 7), (2, 3, 5, 8))
    two = field_key((1, 4, 6, 8), (2, 3, 5, 7))
    unlinked = field_key((9, 9, 9, 9), (10, 10, 10, 10))
    assert zero > two > unlinked
    assert zero[:4] == (1, 0, 13, 4)  # score 0, v 13, shape 3–2
    assert unlinked == (0, -4, 0, 0, ())


def test_best_completion_places_the_rest_as_well_as_possible() -> None:
    # L 1 4 6, R 2 3 5 and the cards 7 and 8 to come: 7 left and 8 right is the D 0 field
    assert best_completion((1, 4, 6), (2, 3, 5), (7, 8)) == field_key((1, 4, 6, 7), (2, 3, 5, 8))
