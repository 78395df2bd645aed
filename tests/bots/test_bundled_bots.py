"""The bundled bots, played in-process through the real codec (croupier.transport.play_local)."""

from __future__ import annotations

import statistics
from typing import Any

from croupier.games.fipsen.rules import Action
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


def _fipsen_bidding(make: Any, matches: int) -> tuple[int, int, int, int]:
    """The Fipsen heuristic (``make()``) in two seats, random bots in the others: deals, deals
    it bid or held in, deals it declared, contracts it made."""
    deals = bid = declared = made = 0
    for m in range(matches):
        ours = (0, 2) if m % 2 == 0 else (1, 3)
        seats = [Seat(make() if s in ours else RandomBot(4 * m + s)) for s in range(4)]
        play_local("fipsen", {}, 9100 + m, seats)
        for past in seats[ours[0]].history.rounds:
            deals += 1
            bid += any(
                h.seat in ours and int(Action.HOLD) <= h.action_id < int(Action.SIEBENER_FIPS)
                for h in past.history
            )
            result = past.result
            if result.HasField("declarer") and result.declarer in ours and result.outcome in (3, 4):
                declared += 1
                made += result.outcome == 3
    return deals, bid, declared, made


def test_fipsen_heuristic_bids_in_a_sensible_share_of_deals_against_random_bidders() -> None:
    """Issue 22: its first bidder almost never played a contract. Random bidders jump to a
    contract nobody could make in nearly every auction, so no sound bidder declares against them
    (it passes and lets them lose); what it can do is bid whenever its hand is worth it: at
    least 3 deals in 10 (version 1: 2 in 10)."""
    deals, bid, _, _ = _fipsen_bidding(FipsenHeuristic, 8)
    assert bid >= 0.3 * deals, f"bid in {bid} of {deals} deals"


def test_fipsen_heuristic_declares_and_makes_its_contracts_in_self_play() -> None:
    """Among its own kind it declares in at least 4 deals in 10 and makes at least 4 in 5."""
    deals = declared = made = 0
    for m in range(6):
        seats = [Seat(FipsenHeuristic()) for _ in range(4)]
        play_local("fipsen", {}, 300 + m, seats)
        for past in seats[0].history.rounds:
            deals += 1
            result = past.result
            if result.HasField("declarer") and result.outcome in (3, 4):
                declared += 1
                made += result.outcome == 3
    assert declared >= 0.4 * deals, f"declared in {declared} of {deals} deals"
    assert made >= 0.8 * declared, f"made {made} of {declared} contracts"
