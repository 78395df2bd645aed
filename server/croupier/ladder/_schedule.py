"""Who plays whom, in which seat, with which deals: tournament formats and the schedule.

A format is a small class with one hook, :meth:`Format.tables` (cutechess ``tournament.h``'s
``nextPair``, here for tables of n seats): which groups of bots meet in a round. The schedule
expands each table into its seatings (every rotation of the seats, or every permutation), so each
bot of a table sits in each seat equally often; in a **duplicate set** all seatings of a table
play the same deals (one chance script and one seed), so the luck of the cards cancels when two
bots are compared on the deals they both played.

Every match has a slot (round, table, seating) and its id is derived from it; its seed is
HMAC-SHA256 of the slot under the tournament's secret key (:class:`Seeder`), so a rerun of the
same configuration with the same store produces the same ids, the same seeds and the same deals,
and nobody without the key can compute a seed from the slot or the match id.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from croupier.arbiter import explicit_key, keyed_seed
from croupier.games import CHANCE, TERMINAL, get_game
from croupier.ladder._config import TournamentConfig

Table = tuple[str, ...]


def legacy_seed(*parts: object) -> int:
    """The seeds of a store begun before secret keys (store schema 1): a 53-bit seed from
    SHA-256 of ``parts`` (the config's seed first), which anyone knowing the config and the
    slot can compute. Kept only so that such a tournament resumes with the deals it began."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 11


@dataclass(frozen=True, slots=True)
class Seeder:
    """Where a schedule's seeds come from: HMAC-SHA256 under a secret ``key``
    (:func:`~croupier.arbiter.keyed_seed`: the store's secret, or the key an explicit seed
    stands for), or with ``key=None`` the public derivation of a store begun before keys
    (:func:`legacy_seed` of ``legacy``, the config's seed)."""

    key: bytes | None
    legacy: int = 0

    @classmethod
    def explicit(cls, seed: int) -> Seeder:
        """The seeds of an explicit (reproducible) seed."""
        return cls(explicit_key(seed))

    def __call__(self, *parts: object) -> int:
        if self.key is None:
            return legacy_seed(self.legacy, *parts)
        return keyed_seed(self.key, *parts)


@dataclass(frozen=True, slots=True)
class Slot:
    """One scheduled match. ``bots`` are display names in seat order."""

    index: int
    round: int
    table: int
    seating: int
    bots: tuple[str, ...]
    seed: int
    deal_set: str  # shared by the seatings of one duplicate set; "" when deals are not shared
    match_id: str


def seatings(n: int, mode: str) -> list[tuple[int, ...]]:
    """Seat orders of a table of ``n``: ``order[seat]`` is the index of the table member sitting
    there. ``rotations``: n of them; ``permutations``: n! (each bot in each seat equally often,
    and each ordering of the others around it too)."""
    if mode == "permutations":
        return list(itertools.permutations(range(n)))
    return [tuple((seat + k) % n for seat in range(n)) for k in range(n)]


# ---- formats -------------------------------------------------------------------------------------


class Format:
    """Base of the formats: :meth:`tables` is the hook each one overrides."""

    #: Whether the tables of a round depend on the results so far (then a round is scheduled
    #: only after the previous one finished).
    dynamic = False

    def __init__(self, config: TournamentConfig, seeds: Seeder | None = None) -> None:
        self.config = config
        self.seeds = seeds
        self.names = tuple(b.name for b in config.bots)
        self.n = config.seats

    def tables(self, round_index: int, ratings: Mapping[str, float] | Results) -> list[Table]:
        """The tables (bots in table order) of round ``round_index``; ``ratings`` (the
        results so far) matter to dynamic formats only."""
        raise NotImplementedError

    def tables_per_round(self) -> int:
        raise NotImplementedError

    def _rng(self, *parts: object) -> np.random.Generator:
        assert self.seeds is not None, "a schedule that draws tables needs its seeds"
        return np.random.default_rng(self.seeds("format", *parts))


def balanced_sample(
    pool: Sequence[str], n: int, count: int, rng: np.random.Generator, fixed: Table = ()
) -> list[Table]:
    """``count`` tables of ``n`` (each opening with ``fixed``) filled from ``pool`` so that every
    bot plays about equally often and every pair meets about equally often: each table is built
    greedily, taking the bot with the fewest appearances, then the fewest meetings with those
    already seated (ties broken at random)."""
    appearances = dict.fromkeys(pool, 0)
    meetings: dict[frozenset[str], int] = {}
    out: list[Table] = []
    for _ in range(count):
        chosen: list[str] = list(fixed)
        while len(chosen) < n:
            free = [b for b in pool if b not in chosen]
            noise = rng.random(len(free))
            costs = [
                (
                    appearances[b],
                    sum(meetings.get(frozenset((b, c)), 0) for c in chosen),
                    noise[i],
                )
                for i, b in enumerate(free)
            ]
            pick = free[min(range(len(free)), key=costs.__getitem__)]
            for c in chosen:
                key = frozenset((pick, c))
                meetings[key] = meetings.get(key, 0) + 1
            chosen.append(pick)
            appearances[pick] += 1
        out.append(tuple(chosen))
    return out


class RoundRobin(Format):
    """Every table of n seats drawn from the m bots, each round; with ``max_tables`` (when
    C(m, n) is large) a balanced sample of that many tables per round instead."""

    def __init__(self, config: TournamentConfig, seeds: Seeder | None = None) -> None:
        super().__init__(config, seeds)
        total = math.comb(len(self.names), self.n)
        limit = config.fmt.max_tables
        self._sampled = bool(limit) and limit < total
        self._count = limit if self._sampled else total

    @functools.cached_property
    def _rounds(self) -> list[list[Table]]:
        """The sampled tables of every round (balance carries across rounds: all up front)."""
        limit, rounds = self.config.fmt.max_tables, self.config.rounds
        tables = balanced_sample(self.names, self.n, limit * rounds, self._rng("round-robin"))
        return [tables[r * limit : (r + 1) * limit] for r in range(rounds)]

    def tables_per_round(self) -> int:
        return self._count

    def tables(self, round_index: int, ratings: Mapping[str, float] | Results) -> list[Table]:
        if self._sampled:
            return self._rounds[round_index]
        return list(itertools.combinations(self.names, self.n))


class Gauntlet(Format):
    """Each candidate against the field: every table is one candidate and n-1 bots of the field
    (all such tables, or a balanced sample of ``max_tables`` per candidate)."""

    def __init__(self, config: TournamentConfig, seeds: Seeder | None = None) -> None:
        super().__init__(config, seeds)
        self.candidates = tuple(dict.fromkeys(config.fmt.candidates))
        self.field = tuple(b for b in self.names if b not in self.candidates)
        total = math.comb(len(self.field), self.n - 1)
        limit = config.fmt.max_tables
        self._sampled = bool(limit) and limit < total
        self._per = limit if self._sampled else total

    @functools.cached_property
    def _rounds(self) -> list[list[Table]]:
        """The sampled tables of every round, each candidate's balanced on its own."""
        limit, rounds = self.config.fmt.max_tables, self.config.rounds
        per_round: list[list[Table]] = [[] for _ in range(rounds)]
        for c in self.candidates:
            rng = self._rng("gauntlet", c)
            tables = balanced_sample(self.field, self.n, limit * rounds, rng, fixed=(c,))
            for r in range(rounds):
                per_round[r].extend(tables[r * limit : (r + 1) * limit])
        return per_round

    def tables_per_round(self) -> int:
        return self._per * len(self.candidates)

    def tables(self, round_index: int, ratings: Mapping[str, float] | Results) -> list[Table]:
        if self._sampled:
            return self._rounds[round_index]
        return [
            (c, *rest)
            for c in self.candidates
            for rest in itertools.combinations(self.field, self.n - 1)
        ]


@dataclass(frozen=True, slots=True)
class Results:
    """What a dynamic format pairs on, from the matches stored so far: each bot's rating μ,
    its match points (:func:`match_points`; a bye counts as half a win's, the average of a
    place), how often each pair shared a table, how many rounds each bot sat out."""

    ratings: Mapping[str, float] = field(default_factory=dict)
    points: Mapping[str, float] = field(default_factory=dict)
    met: Mapping[frozenset[str], int] = field(default_factory=dict)
    byes: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(
        cls, matches: Iterable[Any], names: Sequence[str], ratings: Mapping[str, float]
    ) -> Results:
        """From stored matches (``MatchRecord``s: ``round`` and ``seats`` with ``bot`` and
        ``place``) of the rounds played so far. A bot's points of a round are its mean match
        points over that round's matches (its seatings); a round it sat out counts 0.5."""
        earned: dict[tuple[int, str], list[float]] = {}
        tables: dict[tuple[int, int], set[str]] = {}
        rounds: set[int] = set()
        for m in matches:
            rounds.add(m.round)
            tables.setdefault((m.round, m.table), set()).update(s.bot for s in m.seats)
            for s, value in zip(m.seats, match_points([s.place for s in m.seats]), strict=True):
                earned.setdefault((m.round, s.bot), []).append(value)
        met: Counter[frozenset[str]] = Counter()  # tables (not matches) shared
        for bots in tables.values():
            for pair in itertools.combinations(sorted(bots), 2):
                met[frozenset(pair)] += 1
        points = dict.fromkeys(names, 0.0)
        byes = dict.fromkeys(names, 0)
        for r in rounds:
            for name in names:
                got = earned.get((r, name))
                if got:
                    points[name] += sum(got) / len(got)
                else:
                    points[name] += 0.5
                    byes[name] += 1
        return cls(dict(ratings), points, dict(met), byes)


def match_points(places: Sequence[int]) -> list[float]:
    """Match points of the seats of one match by place: 1 for first, 0 for last, evenly
    between ((n - place) / (n - 1) for n seats), tied seats sharing the mean of the points of
    the places they span. They add up to n / 2 in every match."""
    n = len(places)
    if n < 2:
        return [0.0] * n
    out = []
    for p in places:
        above = sum(1 for q in places if q < p)
        level = sum(1 for q in places if q == p)
        # the places above..above+level-1 (0-based), worth (n-1-i)/(n-1) each
        out.append(sum((n - 1 - i) / (n - 1) for i in range(above, above + level)) / level)
    return out


#: Search steps the Swiss pairing may take per level of allowed rematches before it settles
#: for more rematches (a field of 64 bots at two seats needs a few hundred).
PAIRING_BUDGET = 50_000


def pair_tables(order: Sequence[str], n: int, met: Mapping[frozenset[str], int]) -> list[Table]:
    """Cut ``order`` (best first; its length a multiple of ``n``) into tables of ``n`` with
    the fewest earlier meetings (pairs of bots seated together, counted once per table), and
    among those the one closest to seating neighbours of ``order`` together: a depth-first
    search that seats the best unseated bot with the nearest bots below it first, allowing 0
    meetings, then 1, and so on: a meeting is taken only when no table plan has fewer
    (within :data:`PAIRING_BUDGET` steps per level; past three levels that run out, the
    neighbours are seated as they come)."""

    def cost(table: Sequence[str]) -> int:
        return sum(met.get(frozenset(p), 0) for p in itertools.combinations(table, 2))

    class _Budget(Exception):
        pass

    steps = 0

    def search(rest: tuple[str, ...], allowed: int) -> list[Table] | None:
        nonlocal steps
        if not rest:
            return []
        first, others = rest[0], rest[1:]
        for combo in itertools.combinations(range(len(others)), n - 1):
            steps += 1
            if steps > PAIRING_BUDGET:
                raise _Budget
            table = (first, *(others[i] for i in combo))
            c = cost(table)
            if c > allowed:
                continue
            left = tuple(b for i, b in enumerate(others) if i not in combo)
            found = search(left, allowed - c)
            if found is not None:
                return [table, *found]
        return None

    ceiling = sum(met.values())
    exhausted = 0
    for allowed in range(ceiling + 1):  # the fewest meetings first
        steps = 0
        try:
            found = search(tuple(order), allowed)
        except _Budget:
            exhausted += 1
            if exhausted == 3:
                break
            continue
        if found is not None:
            return found
    return [tuple(order[i : i + n]) for i in range(0, len(order), n)]


class Swiss(Format):
    """Swiss pairing for large fields. Each round: the m mod n bots with the fewest byes so
    far sit out (of those, the lowest in match points, then rating; ties drawn from the key),
    so no bot sits out twice before every bot has sat out once; the others are ordered by
    match points (score groups), within a group by rating μ (the first round: drawn from the
    key), and seated at tables of n neighbours with no two bots who met before at one table
    unless no such plan exists (:func:`pair_tables`)."""

    dynamic = True

    def tables_per_round(self) -> int:
        return len(self.names) // self.n

    def tables(self, round_index: int, ratings: Mapping[str, float] | Results) -> list[Table]:
        results = ratings if isinstance(ratings, Results) else Results(ratings=ratings)
        noise = dict(
            zip(self.names, self._rng("swiss", round_index).random(len(self.names)), strict=True)
        )
        if round_index == 0:  # (the draw of stores begun before this pairing: same first round)
            order = list(self.names)
            self._rng("swiss").shuffle(order)
            rank = {b: i for i, b in enumerate(order)}
        else:
            rank = {
                b: i
                for i, b in enumerate(
                    sorted(
                        self.names,
                        key=lambda b: (
                            -results.points.get(b, 0.0),
                            -results.ratings.get(b, 0.0),
                            noise[b],
                        ),
                    )
                )
            }
        sit_out = len(self.names) % self.n
        out = sorted(self.names, key=lambda b: (results.byes.get(b, 0), -rank[b], noise[b]))[
            :sit_out
        ]
        order = sorted((b for b in self.names if b not in out), key=rank.__getitem__)
        return pair_tables(order, self.n, results.met)


FORMAT_CLASSES: dict[str, type[Format]] = {
    "round-robin": RoundRobin,
    "gauntlet": Gauntlet,
    "swiss": Swiss,
}


# ---- the schedule --------------------------------------------------------------------------------


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "tournament"


class Schedule:
    """The matches of a tournament, round by round, in a fixed order."""

    def __init__(self, config: TournamentConfig, seeds: Seeder | None = None) -> None:
        """``seeds`` draws every seed and table sample (see :class:`Seeder`); without it the
        schedule can only be counted (:meth:`total`), not drawn."""
        self.config = config
        self.seeds = seeds
        self.format = FORMAT_CLASSES[config.fmt.kind](config, seeds)
        self.orders = seatings(config.seats, config.fmt.seatings)
        self._slug = _slug(config.name)

    @property
    def dynamic(self) -> bool:
        return self.format.dynamic

    def per_round(self) -> int:
        return self.format.tables_per_round() * len(self.orders)

    def total(self) -> int:
        return self.per_round() * self.config.rounds

    def round_slots(self, round_index: int, ratings: Mapping[str, float] | Results) -> list[Slot]:
        """The matches of one round (``ratings``, or the :class:`Results` so far, matter only
        to dynamic formats)."""
        cfg = self.config
        out: list[Slot] = []
        index = round_index * self.per_round()
        seeds = self.seeds
        assert seeds is not None, "a schedule that draws seeds needs its seeder"
        for t, table in enumerate(self.format.tables(round_index, ratings)):
            deal_seed = seeds("deals", round_index, t)
            for s, order in enumerate(self.orders):
                if cfg.fmt.duplicate:
                    seed, deal_set = deal_seed, f"r{round_index + 1}t{t + 1}"
                else:
                    seed, deal_set = seeds("match", round_index, t, s), ""
                match_id = f"{self._slug}-r{round_index + 1:03d}-t{t + 1:03d}-s{s + 1:02d}"
                bots = tuple(table[i] for i in order)
                out.append(Slot(index, round_index, t, s, bots, seed, deal_set, match_id))
                index += 1
        return out

    def static_slots(self) -> list[Slot]:
        """Every match of a static format, in order."""
        assert not self.dynamic
        return [s for r in range(self.config.rounds) for s in self.round_slots(r, {})]


@functools.lru_cache(maxsize=256)
def deal_script(
    game_name: str, params: tuple[tuple[str, int], ...], seed: int
) -> tuple[tuple[int, ...], ...]:
    """The chance outcomes (first dealer, every deal) of one duplicate set: drawn by a seeded
    walk of the game with random actions, with the match's own numpy Generator algorithm. Every
    seating of the set replays them through ``MatchConfig.chance_script``; should a match run
    longer than the walk (a chip game whose walk ended early), the rest is drawn from the shared
    seed, which is the same in every seating too."""
    game = get_game(game_name)
    chance_seq, action_seq = np.random.SeedSequence(seed).spawn(2)
    chance_rng, action_rng = np.random.default_rng(chance_seq), np.random.default_rng(action_seq)
    state = game.initial_state(dict(params))
    script: list[tuple[int, ...]] = []
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            outcome = game.sample_chance(state, chance_rng)
            script.append(outcome)
            state = game.apply_chance(state, outcome)
            continue
        legal = game.legal_runs(state)  # the same pick as over the list, none listed
        state = game.apply(state, legal[int(action_rng.integers(len(legal)))])
    return tuple(script)
