"""Ratings and statistics of a tournament: pure functions of the stored matches.

* openskill's Plackett–Luce model over every match (places as ranks), in schedule order:
  μ, σ and the conservative μ − 3σ that orders the standings;
* each bot's mean score per round (deal) with a 95 % confidence interval;
* paired differences between two bots: per duplicate set (or per match when deals are not
  shared), the mean per-round score of one minus the other's on the same deals, with a 95 %
  interval blocked by table (a pair that meets in different company: the company's effect is
  the schedule's, not noise); next to it the unpaired interval (the two bots' per-match
  scores taken as independent samples, blocked by table the same way), which the deal luck
  makes wider;
* a head-to-head matrix (who placed above whom in the matches they shared) and, for two-player
  games, Elo differences with 95 % error bars;
* a sequential probability ratio test (Wald's SPRT in its generalised form, the variance
  estimated from the data) of a candidate against a baseline on the paired differences.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from openskill.models import PlackettLuce

from croupier.games import get_game
from croupier.ladder._control import fit_betas
from croupier.ladder._schedule import match_points
from croupier.ladder._store import MatchRecord, SeatRecord

#: Two-sided 95 % normal quantile.
Z95 = 1.959963984540054

#: The SPRT decides only after this many paired samples (the variance is estimated from them).
SPRT_MIN_SAMPLES = 8


#: Two-sided 95 % quantiles of Student's t for 1..30 degrees of freedom (the usual table).
_T95 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip


def t95(df: float) -> float:
    """Two-sided 95 % quantile of Student's t with ``df`` degrees of freedom: the table up to
    30 (a fractional ``df``, such as Welch–Satterthwaite's, interpolated linearly in 1/df
    between its neighbours), then the Cornish–Fisher expansion about the normal quantile
    (error below 1e-4)."""
    if df < 1:
        return math.inf
    if df <= len(_T95):
        low = int(df)
        if low == df or low == len(_T95):
            return _T95[low - 1]
        w = (1 / low - 1 / df) / (1 / low - 1 / (low + 1))
        return _T95[low - 1] + w * (_T95[low] - _T95[low - 1])
    z = Z95
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean with its 95 % confidence interval and the number of samples behind it."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2

    def as_dict(self) -> dict[str, float | int]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def mean_interval(xs: Sequence[float]) -> Interval:
    """Mean and 95 % t-interval of independent samples (infinitely wide with fewer than 2)."""
    n = len(xs)
    if n == 0:
        return Interval(math.nan, -math.inf, math.inf, 0)
    mean = float(np.mean(xs))
    if n < 2:
        return Interval(mean, -math.inf, math.inf, n)
    half = t95(n - 1) * float(np.std(xs, ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half, n)


def welch_interval(xs: Sequence[float], ys: Sequence[float]) -> Interval:
    """Difference of means of two independent samples with its 95 % interval (Welch, with
    Welch–Satterthwaite's fractional degrees of freedom, as the blocked intervals)."""
    nx, ny = len(xs), len(ys)
    if nx < 2 or ny < 2:
        mean = float(np.mean(xs) - np.mean(ys)) if nx and ny else math.nan
        return Interval(mean, -math.inf, math.inf, min(nx, ny))
    vx, vy = float(np.var(xs, ddof=1)) / nx, float(np.var(ys, ddof=1)) / ny
    mean = float(np.mean(xs) - np.mean(ys))
    return _t_interval(mean, [(vx, nx - 1), (vy, ny - 1)], min(nx, ny))


@dataclass(frozen=True, slots=True)
class Scoring:
    """How a game's scores are read. Trick games (a fixed number of deals): points per deal,
    a match's score divided by its deals. Chip games (a match ends when one seat holds the
    chips, or at the round cap): **net chips per match**, the final stack less the starting
    one (a per-round figure would measure match length: a match won in one round would count
    the whole pot per round). ``beta`` scales each seat's control variate (its chance terms),
    ``beta_action`` its action terms (:func:`~croupier.ladder._control.fit_betas`)."""

    chips: bool = False
    stack: int = 0
    beta: float = 0.0
    beta_action: float = 0.0

    @classmethod
    def of(cls, game: str, params: Mapping[str, int]) -> Scoring:
        info = get_game(game).info
        if info.fixed_length:
            return cls()
        return cls(chips=True, stack=int(params.get("stack", 0)))

    @property
    def unit(self) -> str:
        return "chips/match" if self.chips else "points/deal"

    def raw(self, match: MatchRecord, seat: SeatRecord) -> float:
        """The seat's score in the standings' unit."""
        if self.chips:
            return float(seat.score) - self.stack
        return float(seat.score) / max(match.rounds_played, 1)

    def _unit(self, match: MatchRecord, value: float) -> float:
        """A match's total (a score's change) in the standings' unit."""
        return value if self.chips else value / max(match.rounds_played, 1)

    def correction(self, match: MatchRecord, seat: SeatRecord) -> float | None:
        """The seat's control variate (chance terms) in the same unit (``None``: not
        computed)."""
        return None if seat.cv is None else self._unit(match, seat.cv)

    def action_correction(self, match: MatchRecord, seat: SeatRecord) -> float:
        """The seat's action terms in the same unit (0 where not computed: a store made
        before them, which leaves the estimate unbiased)."""
        return 0.0 if seat.cv_action is None else self._unit(match, seat.cv_action)

    def adjusted(self, match: MatchRecord, seat: SeatRecord) -> float | None:
        """The control-variate estimate: raw less β times the chance terms and β_action
        times the action terms."""
        c = self.correction(match, seat)
        if c is None:
            return None
        return (
            self.raw(match, seat)
            - self.beta * c
            - self.beta_action * self.action_correction(match, seat)
        )


#: How a sample is taken from a seat of a match (``None``: this seat gives none).
Value = Callable[[MatchRecord, SeatRecord], "float | None"]


def per_round(match: MatchRecord) -> dict[str, float]:
    """Each bot's score per round (deal) in one match."""
    rounds = max(match.rounds_played, 1)
    return {s.bot: float(s.score) / rounds for s in match.seats}


def _per_deal(match: MatchRecord, seat: SeatRecord) -> float | None:
    return float(seat.score) / max(match.rounds_played, 1)


def _unit(match: MatchRecord) -> str:
    """What a paired comparison pairs on: the duplicate set, else the match itself."""
    return match.deal_set or match.match_id


def _values(match: MatchRecord, value: Value) -> dict[str, float]:
    out = {}
    for s in match.seats:
        x = value(match, s)
        if x is not None:
            out[s.bot] = x
    return out


def _paired_units(
    matches: Iterable[MatchRecord], a: str, b: str, value: Value
) -> list[tuple[frozenset[str], float]]:
    """Per unit (duplicate set, or match) in which both played, in the order the units began:
    the bots seated at the unit's table, and a's mean ``value`` minus b's over its matches."""
    by_unit: dict[str, tuple[list[float], list[float], set[str]]] = {}
    for m in matches:
        scores = _values(m, value)
        pair = by_unit.setdefault(_unit(m), ([], [], set()))
        pair[2].update(s.bot for s in m.seats)
        if a in scores:
            pair[0].append(scores[a])
        if b in scores:
            pair[1].append(scores[b])
    return [
        (frozenset(table), float(np.mean(xa) - np.mean(xb)))
        for xa, xb, table in by_unit.values()
        if xa and xb
    ]


def paired_strata(
    matches: Iterable[MatchRecord], a: str, b: str, value: Value = _per_deal
) -> dict[frozenset[str], list[float]]:
    """The paired samples (:func:`paired_samples`) grouped by the unit's **table**: the bots
    seated in it (a round robin of four bots at three seats meets a pair at two tables)."""
    strata: dict[frozenset[str], list[float]] = {}
    for table, x in _paired_units(matches, a, b, value):
        strata.setdefault(table, []).append(x)
    return strata


def paired_samples(
    matches: Iterable[MatchRecord], a: str, b: str, value: Value = _per_deal
) -> list[float]:
    """Per unit (duplicate set, or match) in which both played, in the order the units began
    (the SPRT reads them in that order): a's mean ``value`` (by default its score per deal)
    minus b's, over the matches of that unit."""
    return [x for _, x in _paired_units(matches, a, b, value)]


def _pooled(strata: Sequence[Sequence[float]]) -> list[list[float]]:
    """The strata to estimate spreads in: those of two or more samples; the strata of one
    sample (their spread unknown) pooled into one, or a lone one joined to the largest."""
    kept = [list(g) for g in strata if len(g) >= 2]
    singles = [g[0] for g in strata if len(g) == 1]
    if len(singles) >= 2 or (singles and not kept):
        kept.append(singles)
    elif singles:
        max(kept, key=len).append(singles[0])
    return kept


def _parts(groups: Sequence[Sequence[float]]) -> list[tuple[float, int]]:
    """Each stratum's share of the variance of the mean of all the samples, (n_h/n)² s_h²/n_h,
    with its degrees of freedom n_h − 1."""
    n = sum(len(g) for g in groups)
    return [((len(g) / n) ** 2 * float(np.var(g, ddof=1)) / len(g), len(g) - 1) for g in groups]


def _t_interval(mean: float, parts: Sequence[tuple[float, int]], n: int) -> Interval:
    """A 95 % t-interval from a sum of variance parts, with Welch–Satterthwaite's (fractional)
    degrees of freedom (all parts zero: the sum of theirs)."""
    var = sum(v for v, _ in parts)
    denom = sum(v * v / d for v, d in parts)
    df = var * var / denom if denom > 0 else float(sum(d for _, d in parts))
    half = t95(df) * math.sqrt(var)
    return Interval(mean, mean - half, mean + half, n)


def stratified_interval(strata: Sequence[Sequence[float]]) -> Interval:
    """Mean and 95 % interval of samples drawn from fixed strata (groups the schedule made,
    not chance): the mean of all samples, whose variance is Σ_h (n_h/n)² s_h²/n_h, with
    Welch–Satterthwaite's (fractional) degrees of freedom. Variation *between* the strata is
    the design's and does not count as noise. Strata of one sample (their spread unknown) are
    pooled into one, or a lone one joins the largest stratum; with a single stratum left, the
    plain :func:`mean_interval` of all samples."""
    groups = _pooled(strata)
    flat = [x for g in groups for x in g]
    if len(groups) < 2:
        return mean_interval(flat)
    return _t_interval(float(np.mean(flat)), _parts(groups), len(flat))


def stratified_welch(
    strata_a: Sequence[Sequence[float]], strata_b: Sequence[Sequence[float]]
) -> Interval:
    """Difference of the means of two samples, each drawn from the same fixed strata, with its
    95 % interval: Welch's, the variance of each mean taken within its strata
    (:func:`stratified_interval`); the plain :func:`welch_interval` with fewer than two
    strata."""
    flat_a = [x for g in strata_a for x in g]
    flat_b = [x for g in strata_b for x in g]
    if sum(1 for g in strata_a if len(g)) < 2 or len(flat_a) < 2 or len(flat_b) < 2:
        return welch_interval(flat_a, flat_b)
    mean = float(np.mean(flat_a) - np.mean(flat_b))
    parts = _parts(_pooled(strata_a)) + _parts(_pooled(strata_b))
    return _t_interval(mean, parts, min(len(flat_a), len(flat_b)))


def paired_difference(
    matches: Sequence[MatchRecord], a: str, b: str, value: Value = _per_deal
) -> Interval:
    """Mean paired difference a − b, with its 95 % interval, blocked by table
    (:func:`stratified_interval` over :func:`paired_strata`): where a pair meets at tables
    of different company, how its difference depends on the company is the schedule's, not
    luck."""
    return stratified_interval(list(paired_strata(matches, a, b, value).values()))


def unpaired_difference(
    matches: Sequence[MatchRecord], a: str, b: str, value: Value = _per_deal
) -> Interval:
    """The same difference from the same units' matches, ignoring that they shared deals: the
    two bots' per-match values as independent samples (Welch's interval), blocked by table as
    the paired one is (:func:`stratified_welch`)."""
    tables: dict[str, set[str]] = {}
    for m in matches:
        tables.setdefault(_unit(m), set()).update(s.bot for s in m.seats)
    xa: dict[frozenset[str], list[float]] = {}
    xb: dict[frozenset[str], list[float]] = {}
    for m in matches:
        table = tables[_unit(m)]
        if a not in table or b not in table:
            continue
        scores = _values(m, value)
        if a in scores:
            xa.setdefault(frozenset(table), []).append(scores[a])
        if b in scores:
            xb.setdefault(frozenset(table), []).append(scores[b])
    return stratified_welch(list(xa.values()), list(xb.values()))


def ratio_interval(values: Sequence[float], rounds: Sequence[int], per: float = 100.0) -> Interval:
    """``per`` × Σ values / Σ rounds (e.g. chips per 100 rounds) with a 95 % interval by the
    delta method (the ratio estimator's residuals ``value − ratio · rounds``)."""
    n = len(values)
    total = float(sum(rounds))
    if n == 0 or total <= 0:
        return Interval(math.nan, -math.inf, math.inf, n)
    x = np.asarray(values, dtype=float)
    r = np.asarray(rounds, dtype=float)
    ratio = float(x.sum()) / total
    if n < 2:
        return Interval(ratio * per, -math.inf, math.inf, n)
    resid = x - ratio * r
    se = math.sqrt(float(np.sum(resid**2)) / (n * (n - 1))) / float(r.mean())
    half = t95(n - 1) * se * per
    return Interval(ratio * per, ratio * per - half, ratio * per + half, n)


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """μ − 3σ: a conservative skill estimate (the standings sort on it)."""
        return self.mu - 3 * self.sigma


_MODEL = PlackettLuce()


def initial_rating() -> Rating:
    """A new bot's rating (openskill's defaults: μ 25, σ 25/3)."""
    fresh = _MODEL.rating()
    return Rating(float(fresh.mu), float(fresh.sigma))


def rate_match(current: Mapping[str, Rating], match: MatchRecord) -> dict[str, Rating]:
    """The new ratings of the bots of ``match`` (those in ``current``) after it: each seat a
    team of one ranked by its place (ties share a rank); nothing for fewer than two such
    seats. A continuous ladder calls this after each match; :func:`openskill_ratings` folds
    it over the stored matches, so the two agree exactly."""
    seats = [s for s in match.seats if s.bot in current]
    if len(seats) < 2:
        return {}
    teams = [[_MODEL.rating(mu=current[s.bot].mu, sigma=current[s.bot].sigma)] for s in seats]
    rated = _MODEL.rate(teams, ranks=[float(s.place) for s in seats])
    return {
        s.bot: Rating(float(team[0].mu), float(team[0].sigma))
        for s, team in zip(seats, rated, strict=True)
    }


def openskill_ratings(matches: Iterable[MatchRecord], names: Sequence[str]) -> dict[str, Rating]:
    """Plackett–Luce ratings after every match, in the order given (schedule order), each seat a
    team of one ranked by its place (ties share a rank)."""
    current = dict.fromkeys(names, initial_rating())
    for m in matches:
        current.update(rate_match(current, m))
    return current


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """a's record against b in the matches both played: placed above, level, below."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else math.nan


def head_to_head(
    matches: Iterable[MatchRecord], names: Sequence[str]
) -> dict[tuple[str, str], HeadToHead]:
    counts = {(a, b): [0, 0, 0] for a in names for b in names if a != b}
    for m in matches:
        for x in m.seats:
            for y in m.seats:
                if x.bot == y.bot or (x.bot, y.bot) not in counts:
                    continue
                c = counts[(x.bot, y.bot)]
                c[0 if x.place < y.place else 1 if x.place == y.place else 2] += 1
    return {k: HeadToHead(*v) for k, v in counts.items()}


def elo_difference(record: HeadToHead) -> Interval:
    """Elo difference from a score fraction, with the 95 % error bars of that fraction carried
    through the logistic curve (cutechess's method)."""
    n = record.games
    if n == 0:
        return Interval(math.nan, -math.inf, math.inf, 0)
    p = record.score
    w, d, lo = record.wins / n, record.draws / n, record.losses / n
    var = w * (1 - p) ** 2 + d * (0.5 - p) ** 2 + lo * (0 - p) ** 2
    se = math.sqrt(var / n)

    def elo(x: float) -> float:
        if x <= 0:
            return -math.inf
        if x >= 1:
            return math.inf
        return -400 * math.log10(1 / x - 1)

    return Interval(elo(p), elo(p - Z95 * se), elo(p + Z95 * se), n)


# ---- sequential testing --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SprtResult:
    """The state of the test: log-likelihood ratio and Wald's bounds; ``decision`` is ``"H1"``
    (the candidate is better by ``d1``), ``"H0"`` (not better than ``d0``) or ``None``."""

    llr: float
    lower: float
    upper: float
    n: int
    decision: str | None
    d0: float
    d1: float
    alpha: float
    beta: float


def sprt_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's bounds: accept H0 at or below the first, H1 at or above the second."""
    return math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)


def llr_path(xs: np.ndarray, d0: float, d1: float) -> np.ndarray:
    """The generalised SPRT's log-likelihood ratio after each sample (last axis): a normal model
    of the paired differences with the variance estimated from the samples so far,
    LLR_n = (d1 − d0) / s_n² · (Σx − n (d0 + d1) / 2). Before :data:`SPRT_MIN_SAMPLES` it is 0."""
    xs = np.asarray(xs, dtype=float)
    n = np.arange(1, xs.shape[-1] + 1, dtype=float)
    total = np.cumsum(xs, axis=-1)
    squares = np.cumsum(xs * xs, axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = (squares - total * total / n) / np.maximum(n - 1, 1)
        var = np.maximum(var, 1e-12)
        llr = (d1 - d0) / var * (total - n * (d0 + d1) / 2)
    return np.where(n >= SPRT_MIN_SAMPLES, llr, 0.0)


def sprt(xs: Sequence[float], d0: float, d1: float, alpha: float, beta: float) -> SprtResult:
    """Run the test over paired samples in order and stop at the first bound crossed."""
    lower, upper = sprt_bounds(alpha, beta)
    path = llr_path(np.asarray(xs, dtype=float), d0, d1) if len(xs) else np.zeros(0)
    for i, value in enumerate(path):
        if value >= upper or value <= lower:
            decision = "H1" if value >= upper else "H0"
            return SprtResult(float(value), lower, upper, i + 1, decision, d0, d1, alpha, beta)
    last = float(path[-1]) if len(path) else 0.0
    return SprtResult(last, lower, upper, len(xs), None, d0, d1, alpha, beta)


# ---- standings -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BotStanding:
    name: str
    matches: int
    rounds: int
    rating: Rating
    #: The headline score in the standings' unit (points per deal, or net chips per match),
    #: by the estimator the standings lead with (``Standings.estimator``).
    score: Interval
    firsts: int  # matches placed first (ties included)
    faults: int  # matches not ended "normal" (timeouts, illegal replies, disconnected)
    #: The same score, raw (no control variate).
    raw: Interval = Interval(math.nan, -math.inf, math.inf, 0)
    #: Match points by place (1 first, 0 last, ties share), mean per match.
    points: Interval = Interval(math.nan, -math.inf, math.inf, 0)
    #: Chip games: net chips per 100 rounds played (``None`` in trick games).
    per100: Interval | None = None


@dataclass(frozen=True, slots=True)
class PairStat:
    a: str
    b: str
    paired: Interval  # duplicate-paired, raw scores (blocked by table, as all three are)
    unpaired: Interval  # raw scores as independent samples (Welch)
    record: HeadToHead
    elo: Interval | None  # two-player games only
    #: Duplicate-paired on the control-variate scores (``None`` where not every match has it).
    cv: Interval | None = None

    @property
    def lead(self) -> Interval:
        """The comparison the standings lead with: control variate where there is one."""
        return self.cv if self.cv is not None else self.paired


#: The estimators, as the standings name the one they lead with.
CONTROL_VARIATE = "control-variate"
DUPLICATE_PAIRED = "duplicate-paired"


@dataclass(frozen=True, slots=True)
class Standings:
    bots: tuple[BotStanding, ...]
    pairs: tuple[PairStat, ...]
    matches: int
    sprt: SprtResult | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: The unit of the scores: ``points/deal`` or ``chips/match``.
    unit: str = "points/deal"
    #: The estimator of ``BotStanding.score`` and ``PairStat.lead``.
    estimator: str = DUPLICATE_PAIRED
    #: The fitted coefficient of the control variate (0 without one).
    beta: float = 0.0
    #: The fitted coefficient of its action terms.
    beta_action: float = 0.0
    #: What orders the bots: ``points`` (match points, chip games) or ``score``.
    ranked_by: str = "score"

    def as_dict(self) -> dict[str, Any]:
        def num(x: float) -> float | None:
            return x if math.isfinite(x) else None

        def iv(i: Interval | None) -> dict[str, Any] | None:
            if i is None:
                return None
            return {"mean": num(i.mean), "low": num(i.low), "high": num(i.high), "n": i.n}

        return {
            **self.extra,
            "matches": self.matches,
            "unit": self.unit,
            "estimator": self.estimator,
            "cv_beta": self.beta,
            "cv_beta_action": self.beta_action,
            "ranked_by": self.ranked_by,
            "bots": [
                {
                    "rank": rank,
                    "name": b.name,
                    "matches": b.matches,
                    "rounds": b.rounds,
                    "mu": b.rating.mu,
                    "sigma": b.rating.sigma,
                    "ordinal": b.rating.ordinal,
                    "score": iv(b.score),
                    "score_raw": iv(b.raw),
                    "points": iv(b.points),
                    "per_100_rounds": iv(b.per100),
                    "score_per_round": iv(b.score),  # (the name before units: score)
                    "firsts": b.firsts,
                    "faults": b.faults,
                }
                for rank, b in enumerate(self.bots, 1)
            ],
            "pairs": [
                {
                    "a": p.a,
                    "b": p.b,
                    "lead": iv(p.lead),
                    "cv": iv(p.cv),
                    "paired": iv(p.paired),
                    "unpaired": iv(p.unpaired),
                    "wins": p.record.wins,
                    "draws": p.record.draws,
                    "losses": p.record.losses,
                    "elo": iv(p.elo) if p.elo else None,
                }
                for p in self.pairs
            ],
            "sprt": None
            if self.sprt is None
            else {
                "llr": self.sprt.llr,
                "lower": self.sprt.lower,
                "upper": self.sprt.upper,
                "n": self.sprt.n,
                "decision": self.sprt.decision,
                "d0": self.sprt.d0,
                "d1": self.sprt.d1,
                "alpha": self.sprt.alpha,
                "beta": self.sprt.beta,
            },
        }


def scoring(matches: Sequence[MatchRecord], game: str, params: Mapping[str, int]) -> Scoring:
    """The game's :class:`Scoring`, with β and β_action fitted over every seat of
    ``matches`` (0 unless every seat has its control variate)."""
    base = Scoring.of(game, params)
    xs: list[float] = []
    cs: list[float] = []
    acts: list[float] = []
    for m in matches:
        for s in m.seats:
            c = base.correction(m, s)
            if c is None:
                return base
            xs.append(base.raw(m, s))
            cs.append(c)
            acts.append(base.action_correction(m, s))
    beta, beta_action = fit_betas(xs, cs, acts)
    return replace(base, beta=beta, beta_action=beta_action)


def lead_samples(
    matches: Sequence[MatchRecord], a: str, b: str, game: str, params: Mapping[str, int]
) -> list[float]:
    """The paired samples the standings lead with (and the SPRT tests): per duplicate set, a
    minus b in the standings' unit, by the control variate where every match has one."""
    how = scoring(matches, game, params)
    cv = all(s.cv is not None for m in matches for s in m.seats) and bool(matches)
    return paired_samples(matches, a, b, how.adjusted if cv else how.raw)


def standings(
    matches: Sequence[MatchRecord],
    names: Sequence[str],
    seats: int,
    sprt_spec: Mapping[str, Any] | None = None,
    *,
    game: str = "",
    params: Mapping[str, int] | None = None,
) -> Standings:
    """Everything the standings show, from the finished ``matches`` in schedule order.
    ``game`` and ``params`` say how scores read (:class:`Scoring`); without them, per deal."""
    how = scoring(matches, game, params or {}) if game else Scoring()
    cv = bool(matches) and all(s.cv is not None for m in matches for s in m.seats)
    lead: Value = how.adjusted if cv else how.raw
    ratings = openskill_ratings(matches, names)
    raw: dict[str, list[float]] = {n: [] for n in names}
    led: dict[str, list[float]] = {n: [] for n in names}
    points: dict[str, list[float]] = {n: [] for n in names}
    lengths: dict[str, list[int]] = {n: [] for n in names}
    rounds = dict.fromkeys(names, 0)
    firsts = dict.fromkeys(names, 0)
    faults = dict.fromkeys(names, 0)
    for m in matches:
        mp = match_points([s.place for s in m.seats])
        for s, pts in zip(m.seats, mp, strict=True):
            if s.bot not in raw:
                continue
            raw[s.bot].append(how.raw(m, s))
            x = lead(m, s)
            led[s.bot].append(how.raw(m, s) if x is None else x)
            points[s.bot].append(pts)
            lengths[s.bot].append(m.rounds_played)
            rounds[s.bot] += m.rounds_played
            firsts[s.bot] += s.place == 1
            faults[s.bot] += s.outcome != "normal"
    ranked_by = "points" if how.chips else "score"

    def order(b: BotStanding) -> tuple[float, float, str]:
        head = b.points.mean if how.chips else b.score.mean
        return (-head if math.isfinite(head) else math.inf, -b.rating.mu, b.name)

    bots = sorted(
        (
            BotStanding(
                n,
                len(raw[n]),
                rounds[n],
                ratings[n],
                mean_interval(led[n]),
                firsts[n],
                faults[n],
                raw=mean_interval(raw[n]),
                points=mean_interval(points[n]),
                per100=ratio_interval(raw[n], lengths[n]) if how.chips else None,
            )
            for n in names
        ),
        key=order,
    )
    h2h = head_to_head(matches, names)
    names_in_order = [b.name for b in bots]
    pairs = []
    for i, a in enumerate(names_in_order):
        for b in names_in_order[i + 1 :]:
            record = h2h[(a, b)]
            if not record.games:
                continue
            pairs.append(
                PairStat(
                    a,
                    b,
                    paired_difference(matches, a, b, how.raw),
                    unpaired_difference(matches, a, b, how.raw),
                    record,
                    elo_difference(record) if seats == 2 else None,
                    paired_difference(matches, a, b, how.adjusted) if cv else None,
                )
            )
    test = None
    if sprt_spec:
        xs = paired_samples(matches, sprt_spec["candidate"], sprt_spec["baseline"], lead)
        test = sprt(xs, sprt_spec["d0"], sprt_spec["d1"], sprt_spec["alpha"], sprt_spec["beta"])
    return Standings(
        tuple(bots),
        tuple(pairs),
        len(matches),
        test,
        unit=how.unit,
        estimator=CONTROL_VARIATE if cv else DUPLICATE_PAIRED,
        beta=how.beta if cv else 0.0,
        beta_action=how.beta_action if cv else 0.0,
        ranked_by=ranked_by,
    )
