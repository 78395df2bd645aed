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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

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

    def tables(self, round_index: int, ratings: Mapping[str, float]) -> list[Table]:
        """The tables (bots in table order) of round ``round_index``."""
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

    def tables(self, round_index: int, ratings: Mapping[str, float]) -> list[Table]:
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

    def tables(self, round_index: int, ratings: Mapping[str, float]) -> list[Table]:
        if self._sampled:
            return self._rounds[round_index]
        return [
            (c, *rest)
            for c in self.candidates
            for rest in itertools.combinations(self.field, self.n - 1)
        ]


class Swiss(Format):
    """Rating-near pairing for large fields: each round the bots are ordered by rating (the
    first round at random) and cut into tables of n neighbours; the m mod n lowest-rated bots
    sit the round out."""

    dynamic = True

    def tables_per_round(self) -> int:
        return len(self.names) // self.n

    def tables(self, round_index: int, ratings: Mapping[str, float]) -> list[Table]:
        if round_index == 0:
            order = list(self.names)
            self._rng("swiss").shuffle(order)
        else:
            order = sorted(self.names, key=lambda b: (-ratings.get(b, 0.0), b))
        k = self.tables_per_round()
        return [tuple(order[i * self.n : (i + 1) * self.n]) for i in range(k)]


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

    def round_slots(self, round_index: int, ratings: Mapping[str, float]) -> list[Slot]:
        """The matches of one round (``ratings`` matter only to dynamic formats)."""
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
