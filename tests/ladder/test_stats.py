"""Ratings and statistics: pure functions of stored matches, checked against known answers and
by simulation (coverage of the intervals, the SPRT's error rates)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from croupier.ladder import MatchRecord, SeatRecord
from croupier.ladder._stats import (
    HeadToHead,
    elo_difference,
    head_to_head,
    llr_path,
    mean_interval,
    openskill_ratings,
    paired_difference,
    sprt,
    sprt_bounds,
    standings,
    t95,
    unpaired_difference,
)


def _match(i: int, scores: dict[str, float], deal_set: str = "", rounds: int = 1) -> MatchRecord:
    order = sorted(scores, key=lambda b: -scores[b])
    places = {b: 1 + sum(scores[o] > scores[b] for o in scores) for b in order}
    seats = tuple(
        SeatRecord(seat, b, Fraction(scores[b]).limit_denominator(1000), places[b], "normal", 0, 0)
        for seat, b in enumerate(scores)
    )
    return MatchRecord(f"m{i}", i, 0, 0, 0, deal_set, 0, rounds, "", "", "", seats)


def _duplicate_two_player(sets: int, skill: float, luck: float, seed: int) -> list[MatchRecord]:
    """Zero-sum 2-player duplicate sets: seat 0's deal luck L is shared by both seatings, A is
    ``skill`` better than B; a little noise per match."""
    rng = np.random.default_rng(seed)
    out = []
    for k in range(sets):
        lk = rng.normal(0, luck)
        a_first = lk + skill / 2 + rng.normal(0, 0.2)
        b_first = lk - skill / 2 + rng.normal(0, 0.2)
        out.append(_match(2 * k, {"A": a_first, "B": -a_first}, f"s{k}"))
        out.append(_match(2 * k + 1, {"B": b_first, "A": -b_first}, f"s{k}"))
    return out


def test_t_quantiles_match_the_tables() -> None:
    for df, exact in [(1, 12.706), (3, 3.182), (10, 2.228), (30, 2.042), (40, 2.021), (120, 1.980)]:
        assert t95(df) == pytest.approx(exact, rel=0.005)


def test_a_95_percent_interval_covers_the_mean_about_95_percent_of_the_time() -> None:
    rng = np.random.default_rng(1)
    hits = 0
    for _ in range(2000):
        iv = mean_interval(list(rng.normal(2.0, 3.0, 12)))
        hits += iv.low <= 2.0 <= iv.high
    assert 0.93 <= hits / 2000 <= 0.97


def test_paired_differences_are_much_narrower_than_unpaired_ones_on_duplicate_deals() -> None:
    matches = _duplicate_two_player(sets=40, skill=0.5, luck=3.0, seed=2)
    paired = paired_difference(matches, "A", "B")
    unpaired = unpaired_difference(matches, "A", "B")
    assert paired.n == 40
    assert paired.low <= 0.5 <= paired.high  # A gains skill/2, B loses it: A - B = skill
    assert paired.half_width < 0.2 * unpaired.half_width
    assert paired.mean == pytest.approx(unpaired.mean)  # same matches, balanced seats


def test_the_paired_interval_of_a_real_difference_excludes_zero_where_unpaired_does_not() -> None:
    matches = _duplicate_two_player(sets=20, skill=0.5, luck=4.0, seed=3)
    paired, unpaired = (f(matches, "A", "B") for f in (paired_difference, unpaired_difference))
    assert paired.low > 0
    assert unpaired.low < 0


def test_openskill_ranks_the_bot_that_always_wins_first() -> None:
    matches = [_match(i, {"A": 3, "B": 1, "C": 2}) for i in range(10)]
    ratings = openskill_ratings(matches, ["A", "B", "C"])
    assert ratings["A"].ordinal > ratings["C"].ordinal > ratings["B"].ordinal
    assert ratings["A"].sigma < 25 / 3
    table = standings(matches, ["A", "B", "C"], 3)
    assert [b.name for b in table.bots] == ["A", "C", "B"]
    assert table.bots[0].firsts == 10


def test_head_to_head_counts_places_above_level_and_below() -> None:
    matches = [_match(0, {"A": 2, "B": 1, "C": 1}), _match(1, {"A": 0, "B": 1, "C": 0})]
    h2h = head_to_head(matches, ["A", "B", "C"])
    assert h2h[("A", "B")] == HeadToHead(1, 0, 1)
    assert h2h[("B", "C")] == HeadToHead(1, 1, 0)
    assert h2h[("C", "B")] == HeadToHead(0, 1, 1)


def test_elo_from_a_score_fraction_with_error_bars() -> None:
    elo = elo_difference(HeadToHead(60, 0, 40))
    assert elo.mean == pytest.approx(-400 * math.log10(1 / 0.6 - 1))
    assert elo.low < elo.mean < elo.high
    mirror = elo_difference(HeadToHead(40, 0, 60))
    assert mirror.mean == pytest.approx(-elo.mean)
    assert mirror.high == pytest.approx(-elo.low)
    assert elo_difference(HeadToHead(50, 0, 50)).mean == pytest.approx(0)


def _error_rates(
    true_mean: float, sims: int, horizon: int, draw: str, seed: int
) -> dict[str | None, float]:
    rng = np.random.default_rng(seed)
    if draw == "normal":
        xs = rng.normal(true_mean, 2.0, (sims, horizon))
    else:  # chip-like: mostly small results, now and then a big pot either way
        big = rng.random((sims, horizon)) < 0.1
        xs = np.where(big, rng.normal(0, 6.0, (sims, horizon)), rng.normal(0, 1.0, (sims, horizon)))
        xs += true_mean
    lower, upper = sprt_bounds(0.05, 0.05)
    path = llr_path(xs, 0.0, 0.5)
    decided: dict[str | None, float] = {"H0": 0, "H1": 0, None: 0}
    for row in path:
        hit = np.flatnonzero((row >= upper) | (row <= lower))
        decided["H1" if hit.size and row[hit[0]] >= upper else "H0" if hit.size else None] += 1
    return {k: v / sims for k, v in decided.items()}


@pytest.mark.parametrize("draw", ["normal", "chip-like"])
def test_the_sprt_keeps_its_stated_error_rates(draw: str) -> None:
    """alpha = beta = 0.05, H0: mean 0, H1: mean 0.5. Under H0 it accepts H1 at most about 5 %
    of the time (3 standard errors of slack over 1,000 runs), under H1 it accepts H0 at most
    about 5 %; either way it almost always decides within the horizon."""
    under_h0 = _error_rates(0.0, 1000, 1500, draw, seed=4)
    under_h1 = _error_rates(0.5, 1000, 1500, draw, seed=5)
    slack = 3 * math.sqrt(0.05 * 0.95 / 1000)
    assert under_h0["H1"] <= 0.05 + slack
    assert under_h1["H0"] <= 0.05 + slack
    assert under_h0[None] < 0.02
    assert under_h1[None] < 0.02
    assert under_h1["H1"] > 0.9


def test_sprt_stops_at_the_first_bound_crossed() -> None:
    rng = np.random.default_rng(6)
    xs = list(rng.normal(1.0, 1.0, 500))
    result = sprt(xs, 0.0, 0.5, 0.05, 0.05)
    assert result.decision == "H1"
    assert result.n < 100
    assert result.llr >= result.upper
    undecided = sprt(xs[:3], 0.0, 0.5, 0.05, 0.05)
    assert undecided.decision is None
