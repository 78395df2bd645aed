"""The continuous ladder: seat the connected registered bots in matches, one after another, for
as long as the server runs, and rate every finished match (``docs/server.md``, "The continuous
ladder").

A :class:`LadderScheduler` decides who plays whom and when; a :class:`LadderBackend` plays and
keeps the matches: :class:`PoolBackend` (an arbiter server, a :class:`~croupier.transport.BotPool`
whose remote bots are the registered bots, a tournament store) or ``croupier serve``'s own
(``serve/_ladder.py``). The scheduler keeps up to ``concurrency`` matches running; each time a
match ends or a bot connects (and every ``poll_s``) it fills the free places:

* **who meets whom**: among the bots that are connected and have room (their session's
  capacity less the seats they hold), an anchor is drawn with weight 1 / (1 + its rated
  matches), so new bots play first; each further seat is drawn with weight
  ``exp(-(μ - μ̄)² / (2 w²)) / sqrt(1 + games)`` (μ̄: the mean μ of the bots already at the
  table, ``w``: :attr:`LadderConfig.closeness`), so close ratings meet most; with probability
  :attr:`LadderConfig.exploration` a seat is drawn uniformly instead;
* **which seat**: the seat order that puts each bot where it has sat least so far (summed over
  the table, ties drawn), so every bot sits in every position about equally often;
* **duplicate sets** (:attr:`LadderConfig.duplicate`, refused unless
  :attr:`LadderConfig.allow_remote_duplicate`: the players are registered bots, which can
  remember one seating of a set when they play the next): a table is played in all its
  seatings (rotations, or permutations) on the same deals (one chance script and seed, as a
  tournament's duplicate set); the seatings still to play go first whenever their bots have
  room and none of them is playing another seating of the set (a bot never holds two live
  seatings of one set: the seatings of a set are played one after another), and are dropped
  when one of their bots disconnects;
* **ratings**: the openskill ratings are the fold of :func:`croupier.ladder.rate_match` over
  the backend's stored finished matches in their stored order: read at the start, folded on as
  each of the ladder's matches is stored, and read again every :data:`REFRESH_EVERY` matches
  (or a tenth of the history) to take in matches stored by others (a server's one-off
  matches), so they equal a recomputation from the stored results, also after the server is
  killed: a match that did not finish is not stored as finished, and a stored one is never
  stored again. :class:`PoolBackend` writes each match's new ratings in that match's own
  transaction (the store's ``ratings`` table); there the scheduler is the only writer and the
  fold is exact after every match.

A bot that disconnects is left out of new matches until it connects again; the matches it was
playing record it as that seat's fault (its seats are left: ``disconnected``). A cancelled
match (:meth:`LadderScheduler.cancel`) and one cut off by :meth:`LadderScheduler.stop` are not
rated. Every table's seed, and the choices (a ``numpy`` Generator seeded with the number of the
first table of this run), derive from the scheduler's :class:`~croupier.ladder.Seeder`: HMAC under
the server's secret key, or under the key :attr:`LadderConfig.seed` stands for; so a run is
reproducible given the same key and the same connections, and no seed follows from a match id.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import math
import re
import socket
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

import numpy as np
import structlog

from croupier import _defaults as defaults
from croupier.arbiter import ClockRules, Match, MatchConfig
from croupier.errors import ConfigError
from croupier.games import get_game
from croupier.ladder import (
    MatchJob,
    MatchRecord,
    Played,
    Rating,
    ResolvedBot,
    Seeder,
    Slot,
    Store,
    deal_script,
    initial_rating,
    openskill_ratings,
    play_job,
    rate_match,
    relative_path,
    seatings,
)
from croupier.transport import ArbiterServer, BotPool

#: What the store's ``bots.command`` says of a registered bot (it runs wherever its owner runs it).
REGISTERED = "registered"

#: The scheduler reads the backend's whole history again after this many of its own matches at
#: least (or a tenth of the history, if more).
REFRESH_EVERY = 50

LadderState = Literal["pending", "running", "finished", "cancelled", "aborted"]


@dataclass(frozen=True, slots=True)
class LadderConfig:
    """The continuous ladder's settings. The defining ones (``game``, ``params``, ``seats``) are
    the store's tournament: a store holds one ladder, and another is refused."""

    game: str
    #: Parameter overrides; the rest take the game's defaults.
    params: Mapping[str, int] = field(default_factory=dict)
    #: The ladder's name: match ids are ``<name>-t<table>-s<seating>``.
    name: str = "ladder"
    #: Seats per table; 0: the game's ``players`` parameter (after ``params``).
    seats: int = 0
    #: Matches running at once.
    concurrency: int = 4
    #: Play each table in all its seatings on the same deals.
    duplicate: bool = False
    #: Allow ``duplicate``: the players are registered bots, which can remember one seating of
    #: a set when they play the next (refused unless set; docs/server.md).
    allow_remote_duplicate: bool = False
    #: The seatings of a duplicate set: ``rotations`` (n) or ``permutations`` (n!).
    seatings: Literal["rotations", "permutations"] = "rotations"
    move_ms: int = defaults.MOVE_MS
    bank_ms: int = defaults.BANK_MS
    connect_timeout_s: float = defaults.CONNECT_TIMEOUT_S
    #: The chance that a seat is drawn uniformly, ignoring ratings.
    exploration: float = 0.1
    #: The rating distance (in μ) over which the weight of a pairing falls by e^(-1/2).
    closeness: float = 25 / 6
    #: ``None``: the seeds derive from the server's secret key (the default); an integer makes
    #: the ladder reproducible and is that secret (see ``croupier.arbiter._seeds``).
    seed: int | None = None
    #: How often the scheduler looks for bots that connected (it is also woken by every match end
    #: and by :meth:`LadderScheduler.wake`).
    poll_s: float = 0.2

    def full_params(self) -> dict[str, int]:
        game = get_game(self.game)
        raw = dict(self.params)
        if self.seats:
            raw["players"] = self.seats
        try:
            return dict(game.info.make_params(raw))
        except (ValueError, KeyError) as exc:
            raise ConfigError(f"ladder: {exc}") from None

    def defining(self) -> dict[str, object]:
        """What the store remembers of the ladder (a different one is refused)."""
        return {"ladder": self.name, "game": self.game, "params": self.full_params()}

    def check_duplicate(self, source: str = "ladder") -> None:
        """:class:`ConfigError` (one line) for duplicate sets without the host's opt-in."""
        if self.duplicate and not self.allow_remote_duplicate:
            raise ConfigError(
                f"{source}: ladder.duplicate: the ladder's players are registered bots, which "
                "can remember one seating of a duplicate set when they play the next; set "
                "ladder.allow_remote_duplicate = true to play duplicate sets with them anyway"
            )


@dataclass(eq=False)
class LadderMatch:
    """A match of the ladder as it goes: ``state`` moves from ``pending`` (its seats are being
    handed out) to ``running`` and then ``finished`` (stored and rated), ``cancelled`` or
    ``aborted`` (cut off when the ladder or the server stopped); neither of the last two is
    rated."""

    match_id: str
    table: int
    seating: int
    bots: tuple[str, ...]
    seed: int
    deal_set: str
    state: LadderState = "pending"
    created_unix_ms: int = 0
    started_unix_ms: int = 0
    ended_unix_ms: int = 0
    #: Rounds (deals) finished so far.
    rounds: int = 0
    #: The arbiter's match once it is running (for watching it).
    match: Match | None = None
    #: The stored record once finished.
    record: MatchRecord | None = None
    cancel_event: asyncio.Event = field(default_factory=asyncio.Event)


#: Called with a match at each change of its state.
LadderListener = Callable[[LadderMatch], None]


@dataclass(frozen=True, slots=True)
class _Seating:
    table: int
    seating: int
    bots: tuple[str, ...]
    seed: int
    deal_set: str
    script: tuple[tuple[int, ...], ...]


def _now_ms() -> int:
    return int(time.time() * 1000)


#: Given a finished match, the new ratings of its bots (what the ladder will hold after it).
RateMatch = Callable[[MatchRecord], Mapping[str, Rating]]


class LadderBackend(Protocol):
    """Where the ladder's matches are played and kept: :class:`PoolBackend` (an arbiter server,
    a bot pool and a tournament store), or ``croupier serve``'s (``serve/_ladder.py``)."""

    def registered(self) -> Iterable[str]:
        """Bots that join the ladder by themselves (every bot registered on a server); the
        scheduler takes each in (:meth:`LadderScheduler.add_bot`) when it next fills."""
        ...

    def connected(self, name: str) -> bool:
        """Whether the registered bot ``name`` is connected now."""
        ...

    def room(self, name: str) -> int:
        """How many more seats ``name`` can take now (0 when it is not connected)."""
        ...

    def add_bot(self, name: str) -> None:
        """Make sure ``name`` can be seated (``KeyError`` if it is no registered bot)."""
        ...

    def history(self) -> list[MatchRecord]:
        """The finished matches the ladder's ratings are folded over, in their rating order."""
        ...

    def used_ids(self) -> Iterable[str]:
        """Every match id used so far, in any state (a table number is never reused)."""
        ...

    async def play(
        self,
        match: LadderMatch,
        config: MatchConfig,
        rate: RateMatch,
        on_ready: Callable[[Match], None],
    ) -> tuple[LadderState, MatchRecord | None]:
        """Play ``match`` to its end (``match.cancel_event`` cuts it off) and store it; return
        its final state and, when finished, its record. ``rate`` gives the ratings after it, to
        store with it where the backend stores ratings; ``on_ready`` is called with the
        arbiter's match when it starts, where the backend can."""
        ...


class LadderScheduler:
    """Runs the continuous ladder of ``config`` on ``backend`` (see the module docstring).

    ``await start()`` begins scheduling in the background, ``await stop()`` ends it (the
    running matches are cut off and end ``aborted``, unless ``finish=True`` lets them end).
    ``listener`` is told of every match's every state change.
    """

    def __init__(
        self,
        config: LadderConfig,
        backend: LadderBackend,
        *,
        seeds: Seeder,
        listener: LadderListener | None = None,
    ) -> None:
        """``seeds`` draws every table's seed (see the module docstring)."""
        config.check_duplicate()
        self.config = config
        self._seeds = seeds
        self._backend = backend
        self._listener = listener
        self._params = config.full_params()
        self._n = self._params["players"]
        self._bots: list[str] = []
        self._ratings: dict[str, Rating] = {}
        self._games: Counter[str] = Counter()
        self._seat_counts: dict[str, Counter[int]] = {}
        self._folded: list[str] = []  # ids of the history folded into the ratings, in order
        self._since_refresh = 0
        self._pending: list[_Seating] = []
        self._running: dict[str, LadderMatch] = {}
        self._reserved: Counter[str] = Counter()  # seats chosen, not yet handed to the bots
        self._tasks: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._stopping = False
        self._loop_task: asyncio.Task[None] | None = None
        self._log = structlog.get_logger("croupier.ladder").bind(ladder=config.name)
        self._refresh()
        self._next_table = self._first_free_table()
        self._rng = np.random.default_rng(seeds(config.name, "run", self._next_table))

    # -- state from the backend ---------------------------------------------------------------

    def _refresh(self) -> None:
        """Bring ratings, match counts and seat counts up to the backend's history: fold the
        matches after those already folded, or everything again if the history changed
        before its end (a match another part of the server stored in between)."""
        history = self._backend.history()
        ids = [m.match_id for m in history]
        if ids[: len(self._folded)] != self._folded:
            self._ratings.clear()
            self._games.clear()
            self._seat_counts.clear()
            self._folded = []
        for record in history[len(self._folded) :]:
            self._fold(record)
        self._since_refresh = 0

    def _fold(self, record: MatchRecord) -> None:
        current = {s.bot: self._rating(s.bot) for s in record.seats}
        self._ratings.update(rate_match(current, record))
        for s in record.seats:
            self._games[s.bot] += 1
            self._seat_counts.setdefault(s.bot, Counter())[s.seat] += 1
        self._folded.append(record.match_id)

    def _stored(self, record: MatchRecord) -> None:
        """The ladder's own match was stored: fold it on, and read the whole history again
        now and then (every 50 matches, or a tenth of the history: a bounded cost per match)
        to take in what others stored."""
        self._fold(record)
        self._since_refresh += 1
        if self._since_refresh >= max(REFRESH_EVERY, len(self._folded) // 10):
            self._refresh()

    def _first_free_table(self) -> int:
        """One past the highest table number of any match id used so far."""
        pattern = re.compile(rf"^{re.escape(self.config.name)}-t(\d+)-s\d+")
        used = [int(m[1]) for mid in self._backend.used_ids() if (m := pattern.match(mid))]
        return max(used, default=0) + 1

    # -- the public surface -------------------------------------------------------------------

    def add_bot(self, name: str) -> None:
        """Take the registered bot ``name`` into the ladder (``KeyError`` if the backend
        cannot seat it)."""
        self._backend.add_bot(name)
        if name not in self._bots:
            self._bots.append(name)
        self.wake()

    def remove_bot(self, name: str) -> None:
        """Leave ``name`` out of new matches for good (its running matches go on)."""
        with contextlib.suppress(ValueError):
            self._bots.remove(name)
        self._pending = [p for p in self._pending if name not in p.bots]

    @property
    def bots(self) -> tuple[str, ...]:
        return tuple(self._bots)

    def ratings(self) -> dict[str, Rating]:
        """Every bot's current rating: the fold of the stored matches."""
        return {name: self._ratings.get(name, initial_rating()) for name in self._bots}

    def games(self) -> dict[str, int]:
        """Rated matches per bot."""
        return {name: self._games[name] for name in self._bots}

    def running(self) -> tuple[LadderMatch, ...]:
        """The matches being set up or played now."""
        return tuple(self._running.values())

    def deal_set_open(self, deal_set: str) -> bool:
        """Whether a seating of duplicate set ``deal_set`` is still running or queued: its
        deals are then still to be played by someone. (Also asked from the control thread:
        it copies what it looks at, in one step each, before looking.)"""
        running, pending = tuple(self._running.values()), tuple(self._pending)
        return any(m.deal_set == deal_set for m in running) or any(
            s.deal_set == deal_set for s in pending
        )

    def cancel(self, match_id: str) -> bool:
        """Cancel a running match (it ends at once, not stored as finished, not rated); False
        if the ladder runs no such match."""
        match = self._running.get(match_id)
        if match is None:
            return False
        match.cancel_event.set()
        return True

    def wake(self) -> None:
        """Look for room now (a bot connected, a match ended)."""
        self._wake.set()

    async def start(self) -> None:
        if self._loop_task is None:
            self._stopping = False
            self._loop_task = asyncio.create_task(self._run())

    def halt(self) -> None:
        """Start no more matches (at once; :meth:`stop` then waits for the loop)."""
        self._stopping = True
        self._wake.set()

    async def stop(self, *, finish: bool = False) -> None:
        """Start no more matches; cut the running ones off (``aborted``) unless ``finish``."""
        self._stopping = True
        self._wake.set()
        if self._loop_task is not None:
            await asyncio.gather(self._loop_task, return_exceptions=True)
            self._loop_task = None
        if not finish:
            for match in self._running.values():
                match.cancel_event.set()
        await self.wait_idle()

    async def wait_idle(self) -> None:
        """Wait until no match of the ladder is running."""
        # (not a TaskGroup: each match is started on its own as room frees, and one that fails
        # must not cut its siblings off)
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    # -- scheduling ---------------------------------------------------------------------------

    async def _run(self) -> None:
        while not self._stopping:
            try:
                self._fill()
            except Exception:  # a failing backend call: log it, try again at the next wake
                self._log.exception("ladder_fill_failed")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.config.poll_s):
                    await self._wake.wait()
            self._wake.clear()

    def _free(self, name: str) -> int:
        return self._backend.room(name) - self._reserved[name]

    def _fill(self) -> None:
        while len(self._running) < max(1, self.config.concurrency) and not self._stopping:
            seating = self._next_seating()
            if seating is None:
                return
            self._launch(seating)

    def _next_seating(self) -> _Seating | None:
        for name in self._backend.registered():
            if name not in self._bots:
                self.add_bot(name)
        connected = {name for name in self._bots if self._backend.connected(name)}
        kept = [p for p in self._pending if all(b in connected for b in p.bots)]
        for dropped in (p for p in self._pending if p not in kept):
            self._log.info("seating_dropped", table=dropped.table, seating=dropped.seating)
        self._pending = kept
        for i, pending in enumerate(self._pending):
            if all(self._free(b) > 0 for b in pending.bots) and not self._in_set(pending):
                return self._pending.pop(i)
        free = sorted(name for name in connected if self._free(name) > 0)
        if len(free) < self._n:
            return None
        return self._plan(self._choose_table(free))

    def _in_set(self, seating: _Seating) -> bool:
        """Whether a bot of ``seating`` holds (or is being handed) another seating of its
        duplicate set now: then it waits, so that no bot holds two live seatings of a set."""
        return any(
            m.deal_set == seating.deal_set and not set(m.bots).isdisjoint(seating.bots)
            for m in self._running.values()
        )

    def _rating(self, name: str) -> Rating:
        return self._ratings.get(name, initial_rating())

    def _choose_table(self, free: list[str]) -> list[str]:
        """Draw the bots of one table from ``free`` (see the module's docstring)."""
        rng = self._rng
        games = np.array([self._games[name] for name in free], dtype=float)
        weights = 1 / (1 + games)
        chosen = [free[int(rng.choice(len(free), p=weights / weights.sum()))]]
        while len(chosen) < self._n:
            rest = [name for name in free if name not in chosen]
            if rng.random() < self.config.exploration:
                chosen.append(rest[int(rng.integers(len(rest)))])
                continue
            centre = float(np.mean([self._rating(name).mu for name in chosen]))
            width = max(self.config.closeness, 1e-9)
            w = np.array(
                [
                    math.exp(-(((self._rating(name).mu - centre) / width) ** 2) / 2)
                    / math.sqrt(1 + self._games[name])
                    for name in rest
                ]
            )
            total = float(w.sum())
            p = w / total if total > 0 else np.full(len(rest), 1 / len(rest))
            chosen.append(rest[int(rng.choice(len(rest), p=p))])
        return chosen

    def _plan(self, table: list[str]) -> _Seating:
        """Number the table, give it its seed (and deals), pick its seat order(s); with
        duplicate sets, queue the seatings after the first."""
        t = self._next_table
        self._next_table += 1
        seed = self._seeds(self.config.name, "table", t)
        base = self._best_order(table)
        if not self.config.duplicate:
            return _Seating(t, 0, tuple(base), seed, "", ())
        params = tuple(sorted(self._params.items()))
        script = deal_script(self.config.game, params, seed)
        deal_set = f"{self.config.name}-t{t:06d}"
        plans = [
            _Seating(t, k, tuple(base[i] for i in order), seed, deal_set, script)
            for k, order in enumerate(seatings(self._n, self.config.seatings))
        ]
        self._pending.extend(plans[1:])
        return plans[0]

    def _best_order(self, table: list[str]) -> list[str]:
        """The seat order putting each bot where it sat least so far (ties drawn)."""
        orders = list(itertools.permutations(table))
        cost = [
            sum(self._seat_counts.get(b, Counter())[seat] for seat, b in enumerate(order))
            for order in orders
        ]
        best = [o for o, c in zip(orders, cost, strict=True) if c == min(cost)]
        return list(best[int(self._rng.integers(len(best)))])

    # -- one match ----------------------------------------------------------------------------

    def _tell(self, match: LadderMatch) -> None:
        if self._listener is not None:
            try:
                self._listener(match)
            except Exception:  # a listener's bug must not stop the ladder
                self._log.exception("ladder_listener_failed", match_id=match.match_id)

    def _launch(self, seating: _Seating) -> None:
        match_id = f"{self.config.name}-t{seating.table:06d}-s{seating.seating:02d}"
        match = LadderMatch(
            match_id,
            seating.table,
            seating.seating,
            seating.bots,
            seating.seed,
            seating.deal_set,
            created_unix_ms=_now_ms(),
        )
        for name in seating.bots:
            self._reserved[name] += 1
        self._running[match_id] = match
        self._tell(match)
        task = asyncio.create_task(self._play(match, seating))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _match_config(self, match: LadderMatch, seating: _Seating) -> MatchConfig:
        return MatchConfig(
            game=self.config.game,
            params=dict(self._params),
            seed=match.seed,
            clock=ClockRules(self.config.move_ms, self.config.bank_ms),
            connect_timeout_s=self.config.connect_timeout_s,
            chance_script=seating.script,
            withhold_reveal=bool(seating.deal_set),
        )

    def _rate(self, record: MatchRecord) -> dict[str, Rating]:
        """The ratings after ``record``, from the current ones (what the backend may store)."""
        current = {s.bot: self._rating(s.bot) for s in record.seats}
        return rate_match(current, record)

    async def _play(self, match: LadderMatch, seating: _Seating) -> None:
        log = self._log.bind(match_id=match.match_id, bots=list(match.bots))
        released = False

        def release() -> None:
            nonlocal released
            if not released:
                released = True
                for name in match.bots:
                    self._reserved[name] -= 1

        def ready(arbiter_match: Match) -> None:
            release()  # the bots hold the seats now
            match.match = arbiter_match
            match.state = "running"
            match.started_unix_ms = _now_ms()
            self._tell(match)

        try:
            state, record = await self._backend.play(
                match, self._match_config(match, seating), self._rate, ready
            )
            if state == "cancelled" and self._stopping:
                state = "aborted"
            match.state = state
            match.record = record
            if record is not None:
                match.rounds = record.rounds_played
                self._stored(record)
            log.info(
                "ladder_match_" + state,
                scores=[str(s.score) for s in record.seats] if record else [],
                outcomes=[s.outcome for s in record.seats] if record else [],
            )
        except Exception:
            match.state = "aborted"
            log.exception("ladder_match_failed")
        finally:
            release()
            match.ended_unix_ms = _now_ms()
            self._running.pop(match.match_id, None)
            self._tell(match)
            self._wake.set()


class PoolBackend:
    """The ladder on its own: matches played on ``server`` between ``pool``'s remote bots
    (their pool names are the registered names), replays in ``out_dir``, finished matches
    and the ratings after each in ``store`` (a tournament store, ``croupier.ladder``: slot =
    the order matches were stored in, which is the ratings' order). The store remembers the
    ladder it holds (:meth:`LadderConfig.defining`); another is refused in one line."""

    def __init__(
        self,
        config: LadderConfig,
        server: ArbiterServer,
        pool: BotPool,
        store: Store,
        out_dir: Path,
    ) -> None:
        self._server = server
        self._pool = pool
        self._store = store
        self._out_dir = out_dir
        self._worker = socket.gethostname()
        defining = config.defining()
        digest = hashlib.sha256(json.dumps(defining, sort_keys=True).encode()).hexdigest()
        held = store.tournament()
        if held is None:
            store.init_tournament(config.name, config.game, digest, defining, 0)
        elif held["hash"] != digest:
            params = json.dumps(held["config"].get("params", {}), sort_keys=True)
            raise ConfigError(
                f"{store.path} holds another ladder or tournament ({held['name']}: "
                f"{held['game']} {params}); use another store"
            )

    def registered(self) -> Iterable[str]:
        return ()  # only the bots given to add_bot

    def connected(self, name: str) -> bool:
        return self._pool.connected(name)

    def room(self, name: str) -> int:
        return self._pool.room(name)

    def add_bot(self, name: str) -> None:
        self._pool.assigner(name)  # KeyError if the pool does not know it
        if name not in self._store.bots():
            self._store.put_bot(name, REGISTERED, "")

    def history(self) -> list[MatchRecord]:
        return self._store.matches()

    def used_ids(self) -> Iterable[str]:
        """The stored ids, and those of replays left in ``out_dir`` (a match cut off by a kill
        keeps its id: it is never reused)."""
        yield from self._store.finished_ids()
        if self._out_dir.is_dir():
            for path in self._out_dir.iterdir():
                yield path.name.split(".", 1)[0]

    async def play(
        self,
        match: LadderMatch,
        config: MatchConfig,
        rate: RateMatch,
        on_ready: Callable[[Match], None],
    ) -> tuple[LadderState, MatchRecord | None]:
        slot = Slot(
            index=-1,
            round=0,
            table=match.table,
            seating=match.seating,
            bots=match.bots,
            seed=match.seed,
            deal_set=match.deal_set,
            match_id=match.match_id,
        )
        job = MatchJob(slot, config, tuple(ResolvedBot(b, REGISTERED, ()) for b in match.bots))
        played = await play_job(
            job,
            self._server,
            self._out_dir,
            cancel=match.cancel_event,
            worker=self._worker,
            pooled={name: self._pool.assigner(name) for name in match.bots},
            on_ready=on_ready,
        )
        if played.cancelled:
            return "cancelled", None
        return self._commit(match, played, rate)

    def _commit(
        self, match: LadderMatch, played: Played, rate: RateMatch
    ) -> tuple[LadderState, MatchRecord | None]:
        record = MatchRecord(
            match.match_id,
            -1,
            0,
            match.table,
            match.seating,
            match.deal_set,
            match.seed,
            played.rounds,
            relative_path(played.replay, self._store.path.parent),
            played.sha256,
            played.worker,
            played.seats,
        )
        ratings = {bot: (r.mu, r.sigma) for bot, r in rate(record).items()}
        if not self._store.commit_match(record, played.hello, ratings=ratings):
            return "aborted", None  # cannot happen (ids are never reused): never rate twice
        return "finished", record


def stored_ratings_agree(store: Store, names: Iterable[str]) -> bool:
    """Whether the ratings a :class:`PoolBackend`'s store holds equal a recomputation over its
    stored matches (in the order they were stored)."""
    names = list(names)
    again = openskill_ratings(store.matches(), names)
    held = store.ratings()
    fresh = initial_rating()
    for name in names:
        mu, sigma = held[name][:2] if name in held else (fresh.mu, fresh.sigma)
        if (mu, sigma) != (again[name].mu, again[name].sigma):
            return False
    return True
