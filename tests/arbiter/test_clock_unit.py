"""The fair clock on its own (``croupier.arbiter._clock``), with a fake time source: the bank
drains by overruns and is never refilled, the seat cap bounds a decision, the margin and the
arbiter's stalls are never charged, CPU mode charges CPU time under a wall guard, and every
limit holds exactly at its boundary (docs/protocol.md, "Clocks")."""

from __future__ import annotations

import pytest

from croupier.arbiter import ClockKind, ClockRules, Clocks, DecisionTiming
from croupier.arbiter._clock import CPU_POLL_S, SeatClock, Turn


class Fake:
    """A time source, the arbiter's stalls (intervals) and a bot's CPU meter, all set by hand."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t
        self.cpu = 0.0
        self.stalls: list[tuple[float, float]] = []

    def now(self) -> float:
        return self.t

    def meter(self) -> float:
        return self.cpu

    def lag(self, start: float, end: float) -> float:
        return sum(max(0.0, min(b, end) - max(a, start)) for a, b in self.stalls)


WALL = ClockRules(move_time_ms=300, time_bank_ms=250, margin_ms=50)
CPU = ClockRules(
    move_time_ms=300, time_bank_ms=250, margin_ms=50, kind=ClockKind.CPU, cpu_wall_guard_ms=1000
)


def turn(fake: Fake, rules: ClockRules = WALL, budget_ms: int = 550, cpu: bool = False) -> Turn:
    return Turn(rules, budget_ms, fake.now, fake.lag, fake.meter if cpu else None)


# -- the seat's clock: bank, caps, what the next request shows -----------------------------------


def test_an_overrun_comes_out_of_the_bank_and_a_quick_reply_puts_nothing_back() -> None:
    seat = SeatClock(WALL)
    assert seat.budget_ms() == 550
    seat.charge(402_845)  # the example of docs/protocol.md: 102 ms over the move time
    assert (seat.bank_ms, seat.last_latency_us, seat.used_us) == (148, 402_845, 402_845)
    assert seat.shown() == Clocks(300, 148, 402_845)
    seat.charge(1_000)  # well within the move time: the bank is not refilled
    assert seat.bank_ms == 148
    seat.charge(300_999)  # 300 whole ms: no overrun
    assert seat.bank_ms == 148
    seat.charge(301_000)  # 1 ms over
    assert seat.bank_ms == 147
    seat.charge(5_000_000)  # far over: the bank is empty, never below 0
    assert seat.bank_ms == 0
    assert seat.budget_ms() == 300


def test_a_timeout_empties_the_bank_and_counts_towards_the_seat_cap() -> None:
    seat = SeatClock(WALL)
    seat.time_out(600_000)
    assert (seat.bank_ms, seat.used_us) == (0, 600_000)
    assert seat.last_latency_us == 0  # the fault records the latency (waited)
    seat.waited(600_000)
    assert seat.shown() == Clocks(300, 0, 600_000)


def test_the_seat_cap_bounds_a_decision_and_falls_exactly_when_used_up() -> None:
    seat = SeatClock(ClockRules(move_time_ms=300, time_bank_ms=250, seat_cap_ms=1000))
    assert seat.budget_ms() == 550  # the cap leaves more than move + bank
    seat.charge(600_000)  # 300 ms over: bank 0
    assert seat.budget_ms() == 300
    seat.charge(299_999)  # 899.999 ms used: 101 ms left (whole ms used)
    assert seat.budget_ms() == 101
    seat.charge(99_001)  # 999.000 ms used: 1 ms left
    assert seat.budget_ms() == 1
    seat.charge(999)  # 999.999 ms: still 1 ms left
    assert seat.budget_ms() == 1
    seat.charge(1)  # exactly the cap: the flag falls
    assert seat.budget_ms() is None


def test_no_seat_cap_means_no_limit() -> None:
    seat = SeatClock(ClockRules(move_time_ms=300, time_bank_ms=0))
    seat.charge(10**12)
    assert seat.budget_ms() == 300


# -- one decision: start, charge, margin, stalls ---------------------------------------------------


def test_the_charge_is_the_wall_time_from_the_write_to_the_read_to_the_microsecond() -> None:
    fake = Fake(100.0)
    clock = turn(fake)
    assert clock.start == 100.0
    assert not clock.cpu
    clock.start_at(100.5, 7.0)  # the transport wrote the request half a second later
    assert (clock.start, clock.cpu_start) == (100.5, 0.0)  # no CPU start on the wall clock
    fake.t = 100.52
    charged, timing = clock.timing()
    assert (charged, timing) == (20_000, DecisionTiming(20_000, 0, None))  # rounded, not 19,999
    assert clock.timing(100.5 + 0.1234564)[0] == 123_456
    assert clock.timing(100.4)[0] == 0  # a read noted before the start is never negative


def test_the_arbiters_stalls_are_not_charged_and_never_more_than_the_wall_time() -> None:
    fake = Fake(100.0)
    clock = turn(fake)
    fake.stalls = [(99.0, 100.1), (100.2, 100.25)]  # the first began before the request
    fake.t = 100.4
    assert clock.timing() == (250_000, DecisionTiming(400_000, 150_000, None))
    fake.stalls = [(90.0, 200.0)]
    assert clock.timing() == (0, DecisionTiming(400_000, 400_000, None))


def test_the_margin_is_allowed_and_a_reply_is_late_only_beyond_it() -> None:
    clock = turn(Fake(), budget_ms=550)
    assert clock.limit_s == pytest.approx(0.6)
    assert clock.wall_s == clock.limit_s
    assert not clock.late(600_000)  # exactly move + bank + margin
    assert clock.late(600_001)


def test_the_deadline_is_move_bank_and_margin_after_the_start_moved_on_by_stalls() -> None:
    fake = Fake(100.0)
    clock = turn(fake, budget_ms=550)
    assert clock.deadline() == pytest.approx(100.6)
    fake.t = 100.6  # exactly at the limit: timed out
    assert clock.expired() == "no reply before the deadline"
    fake.t = 100.599999
    assert clock.expired() is None
    fake.stalls = [(100.1, 100.3)]  # the arbiter stalled 0.2 s meanwhile
    fake.t = 100.6
    assert clock.expired() is None
    assert clock.deadline() == pytest.approx(100.8)
    fake.t = 100.8
    assert clock.expired() == "no reply before the deadline"


def test_the_clock_starts_at_the_write() -> None:
    fake = Fake(100.0)
    clock = turn(fake, budget_ms=550)
    clock.start_at(101.0, 0.0)
    fake.t = 101.5
    assert clock.expired() is None
    assert clock.deadline() == pytest.approx(101.6)


# -- CPU mode --------------------------------------------------------------------------------------


def test_cpu_mode_charges_the_bots_cpu_time_from_the_write() -> None:
    fake = Fake(100.0)
    fake.cpu = 3.0
    clock = turn(fake, CPU, cpu=True)
    assert clock.cpu
    assert clock.cpu_start == 3.0
    clock.start_at(100.1, 3.25)
    fake.t, fake.cpu = 102.0, 3.5
    fake.stalls = [(100.5, 101.0)]
    assert clock.timing() == (250_000, DecisionTiming(1_900_000, 500_000, 250_000))


def test_cpu_mode_looks_at_the_cpu_every_poll_and_times_out_exactly_past_the_limit() -> None:
    fake = Fake(100.0)
    clock = turn(fake, CPU, budget_ms=550, cpu=True)
    assert clock.limit_s == pytest.approx(0.6)
    assert clock.wall_s == pytest.approx(1.6)  # the wall guard on top
    assert clock.deadline() == pytest.approx(100.0 + CPU_POLL_S)
    fake.t, fake.cpu = 100.7, 0.6  # exactly the CPU limit used: not yet
    assert clock.expired() is None
    fake.cpu = 0.600001
    assert clock.expired() == "CPU time used up before a reply"


def test_cpu_mode_times_out_on_the_wall_guard_however_little_cpu_is_used() -> None:
    fake = Fake(100.0)
    clock = turn(fake, CPU, budget_ms=550, cpu=True)
    fake.t = 101.55
    assert clock.deadline() == pytest.approx(101.6)  # the guard is nearer than the next poll
    assert clock.expired() is None
    fake.t = 101.6
    assert clock.expired() == "no reply before the deadline"


def test_a_wall_clock_turn_ignores_the_cpu_and_the_guard() -> None:
    fake = Fake(100.0)
    clock = turn(fake, CPU, budget_ms=550)  # a bot that dialed in: no meter
    assert clock.wall_s == clock.limit_s
    fake.cpu = 50.0
    fake.t = 100.3
    assert clock.expired() is None
    assert clock.timing()[1].cpu_us is None
