"""The bundled bots, played in-process through the real codec (croupier.transport.play_local)."""

from __future__ import annotations

import statistics

from croupier.transport import play_local
from croupier_bot import Seat
from croupier_bots.as_nas_heuristic import AsNasHeuristic, strength
from croupier_bots.fipsen_heuristic import FipsenHeuristic
from croupier_bots.random_bot import RandomBot


def _heuristic_vs_random(matches: int) -> tuple[list[float], list[float]]:
    """Per match, the mean per-deal result of the two heuristic and of the two random seats
    (seats alternate between matches)."""
    heuristic, random_ = [], []
    for m in range(matches):
        if m % 2 == 0:
            bots = [AsNasHeuristic(), RandomBot(4 * m + 1), AsNasHeuristic(), RandomBot(4 * m + 3)]
        else:
            bots = [RandomBot(4 * m), AsNasHeuristic(), RandomBot(4 * m + 2), AsNasHeuristic()]
        scores = play_local("as-nas", {}, 7000 + m, [Seat(b) for b in bots])
        deals = 12 * 2
        heuristic.append(
            sum(float(scores[s]) for s in range(4) if bots[s].name != "random") / deals
        )
        random_.append(sum(float(scores[s]) for s in range(4) if bots[s].name == "random") / deals)
    return heuristic, random_


def test_heuristic_beats_random_clearly_over_480_deals() -> None:
    heuristic, random_ = _heuristic_vs_random(40)  # 40 matches x 12 deals
    h, r = statistics.mean(heuristic), statistics.mean(random_)
    stderr = statistics.stdev(heuristic) / len(heuristic) ** 0.5
    assert h > 0.3, f"heuristic wins {h:.2f} per deal"
    assert h - 3 * stderr > 0, f"not clear: {h:.2f} ± {stderr:.2f}"
    assert abs(r + h) < 1e-9  # zero-sum between the two pairs


def test_random_bot_is_reproducible_from_its_seed() -> None:
    one = play_local("as-nas", {"deals": 3}, 1, [Seat(RandomBot(s)) for s in range(4)])
    two = play_local("as-nas", {"deals": 3}, 1, [Seat(RandomBot(s)) for s in range(4)])
    three = play_local("as-nas", {"deals": 3}, 1, [Seat(RandomBot(s + 10)) for s in range(4)])
    assert one == two
    assert one != three


def test_a_sessions_copy_of_the_random_bot_plays_as_the_original_would() -> None:
    """A session plays each match with a deep copy of the bot: the copy's generator starts
    where the original's is and draws on its own (the original is left untouched)."""
    import copy

    from croupier_bot import Seat

    original = RandomBot(5)
    original.rng.random()  # not at a fresh seed
    twin = copy.deepcopy(original)
    assert twin.rng is not original.rng
    state = original.rng.getstate()
    assert twin.rng.getstate() == state
    played = play_local(
        "as-nas", {"deals": 3}, 1, [Seat(twin), *(Seat(RandomBot(s)) for s in (1, 2, 3))]
    )
    assert original.rng.getstate() == state
    again = play_local(
        "as-nas", {"deals": 3}, 1, [Seat(original), *(Seat(RandomBot(s)) for s in (1, 2, 3))]
    )
    assert played == again


def test_strength_orders_categories() -> None:
    ranks_on_wire = {"pair": [5, 5, 3, 2, 1], "two_pair": [5, 5, 3, 3, 1], "quads": [1, 1, 1, 1, 2]}
    assert strength([5, 4, 3, 2, 1]) < strength(ranks_on_wire["pair"])
    assert strength(ranks_on_wire["pair"]) < strength(ranks_on_wire["two_pair"])
    assert strength(ranks_on_wire["two_pair"]) < strength(ranks_on_wire["quads"])


# -- Fipsen ----------------------------------------------------------------------------------------


def test_fipsen_heuristic_beats_random_clearly_over_192_deals() -> None:
    """Heuristic seats against random seats (alternating), 12 matches x 16 deals: the random
    seats overbid and lose, the heuristic declares only contracts it can make."""
    heuristic, random_ = [], []
    for m in range(12):
        if m % 2 == 0:
            bots = [
                FipsenHeuristic(),
                RandomBot(4 * m + 1),
                FipsenHeuristic(),
                RandomBot(4 * m + 3),
            ]
        else:
            bots = [RandomBot(4 * m), FipsenHeuristic(), RandomBot(4 * m + 2), FipsenHeuristic()]
        scores = play_local("fipsen", {}, 9000 + m, [Seat(b) for b in bots])
        mine = [s for s in range(4) if bots[s].name != "random"]
        heuristic.append(sum(float(scores[s]) for s in mine) / 32)
        random_.append(sum(float(scores[s]) for s in range(4) if s not in mine) / 32)
    h, r = statistics.mean(heuristic), statistics.mean(random_)
    assert h > -0.5, f"the heuristic loses {h:.2f} per deal"
    assert h - r > 5, f"heuristic {h:.2f} vs random {r:.2f} per seat and deal"


def test_fipsen_heuristic_contracts_win_on_average_in_self_play() -> None:
    scores = [
        play_local("fipsen", {}, 300 + m, [Seat(FipsenHeuristic()) for _ in range(4)])
        for m in range(6)
    ]
    assert sum(float(sum(s)) for s in scores) / (6 * 16) > 0.5
