"""The continuous ladder's choices, on a backend that plays instantly (the real parts, server
and bots, are in ``test_continuous.py`` and ``tests/e2e/test_ladder_scenario.py``): close
ratings meet most, every pair still meets, seats rotate, and a seed fixes every choice."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction

import pytest

from croupier.arbiter import Match, MatchConfig
from croupier.errors import ConfigError
from croupier.ladder import MatchRecord, SeatRecord, Seeder
from croupier.serve import LadderConfig, LadderMatch, LadderScheduler
from croupier.serve._config import parse_ladder_config
from croupier.serve._scheduler import LadderState, RateMatch


class InstantBackend:
    """Plays a match at once: the bot with the lower number in its name places first."""

    def __init__(self, names: list[str], room: int = 1) -> None:
        self.names = names
        self.away: set[str] = set()
        self.stored: list[MatchRecord] = []
        self._room = room
        self.busy: Counter[str] = Counter()
        #: (bot, duplicate set) -> its seatings being played now; the most ever at once
        self.live: Counter[tuple[str, str]] = Counter()
        self.most_live = 0

    def registered(self) -> Iterable[str]:
        return ()

    def connected(self, name: str) -> bool:
        return name not in self.away

    def room(self, name: str) -> int:
        return 0 if name in self.away else self._room - self.busy[name]

    def add_bot(self, name: str) -> None:
        assert name in self.names

    def history(self) -> list[MatchRecord]:
        return list(self.stored)

    def used_ids(self) -> Iterable[str]:
        return [m.match_id for m in self.stored]

    async def play(
        self,
        match: LadderMatch,
        config: MatchConfig,
        rate: RateMatch,
        on_ready: Callable[[Match], None],
    ) -> tuple[LadderState, MatchRecord | None]:
        for b in match.bots:
            self.busy[b] += 1
            if match.deal_set:
                self.live[(b, match.deal_set)] += 1
                self.most_live = max(self.most_live, self.live[(b, match.deal_set)])
        await asyncio.sleep(0)
        for b in match.bots:
            self.busy[b] -= 1
            self.live[(b, match.deal_set)] -= 1
        order = sorted(match.bots, key=lambda b: int(b[1:]))
        seats = tuple(
            SeatRecord(seat, bot, Fraction(0), order.index(bot) + 1, "normal", 0, 0)
            for seat, bot in enumerate(match.bots)
        )
        record = MatchRecord(
            match.match_id, len(self.stored), 0, match.table, match.seating, match.deal_set,
            match.seed, 1, "", "", "test", seats,
        )  # fmt: skip
        rate(record)
        self.stored.append(record)
        return "finished", record


def run_ladder(config: LadderConfig, backend: InstantBackend, matches: int) -> LadderScheduler:
    async def go() -> LadderScheduler:
        ladder = LadderScheduler(config, backend, seeds=Seeder.explicit(config.seed or 0))
        for name in backend.names:
            ladder.add_bot(name)
        await ladder.start()
        while len(backend.stored) < matches:
            await asyncio.sleep(0.001)
        await ladder.stop(finish=True)
        return ladder

    return asyncio.run(go())


NAMES = [f"b{i}" for i in range(8)]
CONFIG = LadderConfig("scauver", {"players": 3}, concurrency=2, seed=11, poll_s=0.001)


def test_close_ratings_meet_most_and_every_pair_meets() -> None:
    backend = InstantBackend(NAMES)
    ladder = run_ladder(CONFIG, backend, 300)
    ratings = ladder.ratings()
    by_mu = sorted(NAMES, key=lambda n: -ratings[n].mu)
    assert by_mu == NAMES, "the fixed strength order is what the ratings learnt"
    met: Counter[frozenset[str]] = Counter()
    for m in backend.stored[150:]:  # once the ratings have spread
        for a, b in itertools.combinations([s.bot for s in m.seats], 2):
            met[frozenset((a, b))] += 1
    neighbours = sum(met[frozenset((NAMES[i], NAMES[i + 1]))] for i in range(7)) / 7
    far = sum(met[frozenset((NAMES[i], NAMES[i + 5]))] for i in range(3)) / 3
    assert neighbours > 3 * far, (neighbours, far)
    everyone = {frozenset(p) for m in backend.stored for p in itertools.combinations(
        [s.bot for s in m.seats], 2)}  # fmt: skip
    assert len(everyone) == 28, "exploration: every pair met"


def test_every_bot_sits_in_every_seat_about_equally_often() -> None:
    backend = InstantBackend(NAMES)
    run_ladder(CONFIG, backend, 240)
    for name in NAMES:
        seats = Counter(s.seat for m in backend.stored for s in m.seats if s.bot == name)
        assert set(seats) == {0, 1, 2}
        assert max(seats.values()) - min(seats.values()) <= 2, (name, seats)


def test_a_seed_fixes_the_schedule_and_another_changes_it() -> None:
    def schedule(seed: int) -> list[tuple[str, ...]]:
        backend = InstantBackend(NAMES)
        config = LadderConfig("scauver", {"players": 3}, concurrency=1, seed=seed, poll_s=0.001)
        run_ladder(config, backend, 40)
        return [tuple(s.bot for s in m.seats) for m in backend.stored[:40]]

    assert schedule(5) == schedule(5)
    assert schedule(5) != schedule(6)


def test_an_absent_bot_is_left_out_and_a_duplicate_set_shares_its_deals() -> None:
    backend = InstantBackend(NAMES)
    backend.away = {"b3"}
    config = LadderConfig("scauver", {"players": 3}, concurrency=2, duplicate=True, seed=2,
                          poll_s=0.001, allow_remote_duplicate=True)  # fmt: skip
    run_ladder(config, backend, 60)
    assert all(s.bot != "b3" for m in backend.stored for s in m.seats)
    sets: dict[str, list[MatchRecord]] = {}
    for m in backend.stored:
        sets.setdefault(m.deal_set, []).append(m)
    full = [ms for ms in sets.values() if len(ms) == 3]
    assert len(full) >= 15
    for ms in full:
        assert len({m.seed for m in ms}) == 1
        assert sorted(m.seating for m in ms) == [0, 1, 2]
        assert {s.bot for s in ms[0].seats} == {s.bot for s in ms[1].seats}


def test_duplicate_sets_of_registered_bots_need_the_opt_in() -> None:
    config = LadderConfig("scauver", {"players": 3}, duplicate=True)
    with pytest.raises(ConfigError, match=r"ladder\.allow_remote_duplicate = true"):
        LadderScheduler(config, InstantBackend(NAMES), seeds=Seeder(b"key"))
    with pytest.raises(ConfigError, match=r"^s\.toml: ladder\.duplicate: .* registered bots"):
        parse_ladder_config({"game": "scauver", "duplicate": True}, "s.toml")
    allowed = {"game": "scauver", "duplicate": True, "allow_remote_duplicate": True}
    assert parse_ladder_config(allowed, "s.toml") is not None


def test_no_bot_holds_two_live_seatings_of_a_duplicate_set() -> None:
    """Each bot has room for four matches and the ladder plays four at once: the seatings of a
    set wait for each other (another table's fill the room), never run side by side."""
    backend = InstantBackend(NAMES[:3], room=4)
    config = LadderConfig("scauver", {"players": 3}, concurrency=4, duplicate=True, seed=3,
                          poll_s=0.001, allow_remote_duplicate=True)  # fmt: skip
    run_ladder(config, backend, 60)
    assert backend.most_live == 1, f"a bot held {backend.most_live} seatings of one set at once"
    assert max(backend.busy.values()) == 0
    sets = Counter(m.deal_set for m in backend.stored)
    assert sum(1 for n in sets.values() if n == 3) >= 15  # whole sets were played
