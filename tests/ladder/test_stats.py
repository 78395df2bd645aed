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
    paired_samples,
    sprt,
    sprt_bounds,
    standings,
    stratified_interval,
    stratified_welch,
    t95,
    unpaired_difference,
    welch_interval,
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


def test_a_stratified_interval_covers_the_mean_95_percent_of_the_time() -> None:
    """Fixed strata with far apart means and unequal spreads (one nearly constant), few
    samples each: the interval covers the overall mean at its nominal rate and is far
    narrower than the plain one, which counts the strata's differences as noise."""
    rng = np.random.default_rng(7)
    means, spreads, sizes = (150.0, 290.0, 40.0), (1.0, 50.0, 20.0), (7, 7, 5)
    truth = sum(m * n for m, n in zip(means, sizes, strict=True)) / sum(sizes)
    hits, ratios = 0, []
    for _ in range(4000):
        groups = [
            list(rng.normal(m, sd, n)) for m, sd, n in zip(means, spreads, sizes, strict=True)
        ]
        iv = stratified_interval(groups)
        hits += iv.low <= truth <= iv.high
        ratios.append(iv.half_width / mean_interval([x for g in groups for x in g]).half_width)
    assert 0.935 <= hits / 4000 <= 0.97
    assert float(np.median(ratios)) < 0.4


def test_a_stratified_interval_without_strata_to_stand_on_is_the_plain_one() -> None:
    one = [1.0, 2.0, 4.0]
    assert stratified_interval([one]) == mean_interval(one)
    lonely = [[1.0, 2.0, 4.0], [9.0]]  # a stratum of one sample joins the largest: one left
    assert stratified_interval(lonely) == mean_interval([1.0, 2.0, 4.0, 9.0])


def test_strata_of_one_sample_are_pooled_not_given_up_on() -> None:
    singles = [[1.0, 2.0], [11.0, 12.0], [5.0], [7.0]]  # the two lone samples: one stratum
    assert stratified_interval(singles) == stratified_interval([[1.0, 2.0], [11.0, 12.0], [5, 7]])
    lone = [[1.0, 2.0, 3.0], [11.0, 12.0], [2.5]]  # a lone sample joins the largest stratum
    assert stratified_interval(lone) == stratified_interval([[1.0, 2.0, 3.0, 2.5], [11.0, 12.0]])
    assert stratified_interval(lone).half_width < mean_interval([1, 2, 3, 11, 12, 2.5]).half_width


def test_fractional_degrees_of_freedom_take_the_t_quantile_between_its_neighbours() -> None:
    assert t95(1.0) == pytest.approx(12.706)
    assert t95(2.0) == pytest.approx(4.303)
    assert t95(2.0) < t95(1.5) < t95(1.0)
    assert t95(30.0) > t95(30.5) > t95(31.0)
    assert t95(0.5) == math.inf


def test_a_stratified_interval_of_two_samples_a_stratum_still_covers_and_narrows() -> None:
    """Tables of two sets each (a short round robin): Welch–Satterthwaite's degrees of freedom
    fall between 1 and 2; rounded down to 1 (t = 12.7) the interval was wider than the plain."""
    rng = np.random.default_rng(11)
    hits, ratios = 0, []
    for _ in range(3000):
        groups = [list(rng.normal(m, 1.0, 2)) for m in (0.0, 4.0, 8.0)]
        iv = stratified_interval(groups)
        hits += iv.low <= 4.0 <= iv.high
        ratios.append(iv.half_width / mean_interval([x for g in groups for x in g]).half_width)
    assert 0.94 <= hits / 3000 <= 0.99
    assert float(np.median(ratios)) < 0.8


def _shares(table: str) -> dict[str, float]:
    """A zero-sum table's expected scores: each bot's share of the pot by its strength."""
    strength = {"A": 10.0, "B": 10.0, "C": 1.0, "D": 1.0}
    total = sum(strength[b] for b in table)
    return {b: 3 * strength[b] / total - 1 for b in table}


def _three_seat_round_robin(rounds: int, seed: int) -> list[MatchRecord]:
    """Four bots at three seats, every table each round, six seatings of one deal set per
    table (the deal's luck, by seat, cancels over them); what is left is each match's own
    noise and the table's company, which sets how much a bot takes from the others."""
    rng = np.random.default_rng(seed)
    out = []
    for r in range(rounds):
        for t, table in enumerate(("ABC", "ABD", "ACD", "BCD")):
            luck = rng.normal(0, 0.5, 3)
            for k in range(6):
                noisy = {
                    b: _shares(table)[b] + luck[(i + k) % 3] + rng.normal(0, 0.1)
                    for i, b in enumerate(table)
                }
                mean = sum(noisy.values()) / 3
                out.append(_match(len(out), {b: x - mean for b, x in noisy.items()}, f"r{r}t{t}"))
    return out


def test_pairs_that_meet_in_different_company_are_blocked_by_table() -> None:
    """A and C meet at ABC and ACD, where A − C depends on the third bot (a strong B takes
    its share of C's chips, a weak D does not): the blocked interval covers the schedule's
    mean difference, as the plain one does, and is far narrower."""
    truth = sum(_shares(t)["A"] - _shares(t)["C"] for t in ("ABC", "ACD")) / 2
    hits, ratios = 0, []
    for seed in range(200):
        matches = _three_seat_round_robin(rounds=6, seed=seed)
        plain = mean_interval(paired_samples(matches, "A", "C"))
        blocked = paired_difference(matches, "A", "C")
        assert blocked.mean == pytest.approx(plain.mean)  # the same estimate
        assert blocked.n == plain.n == 12
        hits += blocked.low <= truth <= blocked.high
        ratios.append(blocked.half_width / plain.half_width)
    assert hits >= 180  # 95 % of 200, less three standard errors
    assert float(np.median(ratios)) < 0.3


def test_the_standings_pair_table_is_blocked_by_table() -> None:
    """What the standings show for a pair that meets in different company: the blocked
    intervals, far narrower than the plain paired one, the same mean."""
    matches = _three_seat_round_robin(rounds=6, seed=4)
    table = standings(matches, ["A", "B", "C", "D"], 3)
    (pair,) = [p for p in table.pairs if {p.a, p.b} == {"A", "C"}]
    sign = 1 if pair.a == "A" else -1
    plain = mean_interval(paired_samples(matches, "A", "C"))
    assert sign * pair.paired.mean == pytest.approx(plain.mean)
    assert pair.paired.half_width < 0.5 * plain.half_width
    assert pair.unpaired == unpaired_difference(matches, pair.a, pair.b)


def test_paired_samples_keep_the_order_of_play_for_the_sprt() -> None:
    """The SPRT reads the paired samples in the order the sets were played and stops at the
    first bound crossed: grouped by table they would run +2, +2, ... then −2, −2, ... and the
    test would decide on the first table alone."""
    matches = []
    for r in range(4):
        for third, edge in (("B", 1.0), ("D", -1.0)):
            scores = {"A": edge, "C": -edge, third: 0.0}
            matches.append(_match(len(matches), scores, f"r{r}{third}"))
    assert paired_samples(matches, "A", "C") == [2.0, -2.0] * 4


def test_a_stratified_welch_interval_covers_the_difference_and_ignores_the_tables_spread() -> None:
    """Two samples from the same fixed strata (a bot's matches at each table), far apart
    means by table and unequal spreads: the interval covers the difference of the overall
    means at its nominal rate and is narrower than plain Welch, which counts the tables'
    differences as noise."""
    rng = np.random.default_rng(13)
    tables = ((0.0, 150.0, 1.0, 30.0, 12), (100.0, 290.0, 20.0, 40.0, 9))
    truth = sum((ma - mb) * n for ma, mb, _, _, n in tables) / sum(t[-1] for t in tables)
    hits, ratios = 0, []
    for _ in range(4000):
        xa = [list(rng.normal(ma, sa, n)) for ma, _, sa, _, n in tables]
        xb = [list(rng.normal(mb, sb, n)) for _, mb, _, sb, n in tables]
        iv = stratified_welch(xa, xb)
        hits += iv.low <= truth <= iv.high
        plain = welch_interval([x for g in xa for x in g], [x for g in xb for x in g])
        assert iv.mean == pytest.approx(plain.mean)
        ratios.append(iv.half_width / plain.half_width)
    assert 0.935 <= hits / 4000 <= 0.97
    assert float(np.median(ratios)) < 0.7


def test_a_stratified_welch_interval_of_one_table_is_welch() -> None:
    xa, xb = [1.0, 2.0, 4.0, 3.0], [0.0, 1.0, 0.5]
    assert stratified_welch([xa], [xb]) == welch_interval(xa, xb)
    assert stratified_welch([xa, []], [xb, []]) == welch_interval(xa, xb)


def test_welch_keeps_its_degrees_of_freedom_fractional() -> None:
    # Welch–Satterthwaite: here df = 3.64 (truncated to 3, the interval would be 10 % wider)
    xa, xb = [1.0, 5.0, 2.0, 9.0], [3.0, 5.5, 1.2, 2.9, 4.1, 3.3]
    va, vb = float(np.var(xa, ddof=1)) / 4, float(np.var(xb, ddof=1)) / 6
    df = (va + vb) ** 2 / (va**2 / 3 + vb**2 / 5)
    assert 3.5 < df < 3.8
    got = welch_interval(xa, xb)
    assert got.half_width == pytest.approx(t95(df) * math.sqrt(va + vb))
    assert got.half_width < t95(3) * math.sqrt(va + vb) * 0.95


def test_unpaired_differences_are_blocked_by_table_too() -> None:
    """The unpaired interval is what the same schedule would give without duplicate deals:
    the same tables, so blocked the same way as the paired one, or the comparison flatters
    pairing (in a 3-seat field the tables' difference is most of the plain spread)."""
    matches = _three_seat_round_robin(rounds=6, seed=3)

    def scores(bot: str, other: str) -> list[float]:
        return [
            float(s.score)
            for m in matches
            if other in {t.bot for t in m.seats}
            for s in m.seats
            if s.bot == bot
        ]

    plain = welch_interval(scores("A", "C"), scores("C", "A"))
    blocked = unpaired_difference(matches, "A", "C")
    assert blocked.mean == pytest.approx(plain.mean)
    assert blocked.half_width < 0.8 * plain.half_width


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
