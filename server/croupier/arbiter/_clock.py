"""The fair clock: what each seat may spend on a decision, and what it is charged.

A seat's clock (:class:`SeatClock`) holds its time bank, its total charged time (for the seat
cap) and the latency of its last decision, shown with its next request (:meth:`SeatClock.shown`).
A decision may take ``move_time_ms`` plus the bank (:meth:`SeatClock.budget_ms`; no more than
what the seat cap leaves), and ``margin_ms`` more before it is a timeout. Each decision is timed
by a :class:`Turn`:

- it starts when the request is written to the connection (:meth:`Turn.start_at`; until the
  transport says so, when it was asked);
- it is charged its wall time less the arbiter's own stalls inside it (``lag``: a
  :meth:`~croupier.arbiter._lag.LagMonitor.between`), or in CPU mode the CPU time of the bot's
  process tree (``meter``), to the microsecond (:meth:`Turn.timing`);
- it times out at ``start + limit + stalls`` (in CPU mode the limit is a CPU limit, and the wall
  time also has ``cpu_wall_guard_ms`` more as a hard limit; the CPU used is read every
  :data:`CPU_POLL_S`): :meth:`Turn.deadline`, :meth:`Turn.expired`, :meth:`Turn.late`.

An accepted reply costs the bank what it took beyond ``move_time_ms``
(:meth:`SeatClock.charge`); a timeout empties the bank (:meth:`SeatClock.time_out`).

Pure: no asyncio, no I/O. The time source (``now``: the event loop's ``time``), the stalls and
the CPU meter are given, so the clock is tested on its own with a fake time source
(``tests/arbiter/test_clock_unit.py``).
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.arbiter._types import ClockRules, Clocks, DecisionTiming

#: How often a decision on the CPU clock looks at the CPU its bot has used, in seconds.
CPU_POLL_S = 0.05

#: Seconds -> seconds: a time source (``loop.time``) or a CPU meter.
Source = Callable[[], float]
#: ``(start, end) -> seconds`` of the arbiter's own stalls inside ``[start, end]``.
Stalls = Callable[[float, float], float]


class SeatClock:
    """One seat's clock across the match: its bank, its charged time, its last latency."""

    def __init__(self, rules: ClockRules) -> None:
        self.rules = rules
        self.bank_ms = rules.time_bank_ms
        #: Charged time so far, for the seat cap.
        self.used_us = 0
        #: The time of the last decision (charged, or waited for a fault), shown next time.
        self.last_latency_us = 0

    def budget_ms(self) -> int | None:
        """What the next decision may be charged before the margin: the move time and the
        bank, no more than the seat cap leaves; ``None``: the seat cap is used up (its flag
        has fallen: no more thinking time this match)."""
        rules = self.rules
        budget_ms = rules.move_time_ms + self.bank_ms
        if rules.seat_cap_ms:
            left_ms = rules.seat_cap_ms - self.used_us // 1000
            if left_ms <= 0:
                return None
            budget_ms = min(budget_ms, left_ms)
        return budget_ms

    def shown(self) -> Clocks:
        """The clock as the seat's next request shows it."""
        return Clocks(self.rules.move_time_ms, self.bank_ms, self.last_latency_us)

    def charge(self, charged_us: int) -> None:
        """An accepted reply charged ``charged_us``: what it took beyond the move time comes
        out of the bank (whole milliseconds, never below 0)."""
        self.used_us += charged_us
        overrun = charged_us // 1000 - self.rules.move_time_ms
        if overrun > 0:
            self.bank_ms = max(0, self.bank_ms - overrun)
        self.last_latency_us = charged_us

    def time_out(self, charged_us: int) -> None:
        """The decision timed out after ``charged_us``: the bank is empty."""
        self.bank_ms = 0
        self.used_us += charged_us

    def waited(self, elapsed_us: int) -> None:
        """A decision ended in a fault after ``elapsed_us`` (shown as the last latency)."""
        self.last_latency_us = elapsed_us


class Turn:
    """The clock of one decision, from the request to the reply (see the module's text)."""

    def __init__(
        self,
        rules: ClockRules,
        budget_ms: int,
        now: Source,
        lag: Stalls,
        meter: Source | None = None,
    ) -> None:
        """``meter``: the bot's CPU seconds (CPU mode), or ``None`` (wall time is charged)."""
        self._now, self._lag, self._meter = now, lag, meter
        #: When the clock started: asked now, until :meth:`start_at` moves it to the write.
        self.start = now()
        self.cpu_start = meter() if meter else 0.0
        #: What may be charged, in seconds: the budget and the margin.
        self.limit_s = (budget_ms + rules.margin_ms) / 1000
        #: The hard limit on the wall time (the CPU clock's wall guard on top).
        self.wall_s = self.limit_s + (rules.cpu_wall_guard_ms / 1000 if meter else 0.0)

    @property
    def cpu(self) -> bool:
        """Whether the decision is charged CPU time."""
        return self._meter is not None

    def start_at(self, at: float, cpu: float) -> None:
        """The request was written at ``at`` (the bot's CPU seconds then: ``cpu``): the clock
        starts there."""
        self.start = at
        self.cpu_start = cpu if self._meter else 0.0

    def _due(self, now: float) -> float:
        """When the wall time runs out, seen at ``now``: the stalls so far move it on."""
        return self.start + self.wall_s + self._lag(self.start, now)

    def deadline(self) -> float:
        """When to stop waiting for the reply and look again (:meth:`expired`)."""
        now = self._now()
        deadline = self._due(now)
        if self._meter is not None:  # look at the CPU used every so often
            deadline = min(deadline, now + CPU_POLL_S)
        return deadline

    def expired(self) -> str | None:
        """Why the decision has timed out, seen after its :meth:`deadline`; ``None``: not yet
        (the arbiter stalled meanwhile, so the deadline moved on, or the CPU is still left)."""
        now = self._now()
        if self._meter is not None and self._meter() - self.cpu_start > self.limit_s:
            return "CPU time used up before a reply"
        if now < self._due(now):
            return None
        return "no reply before the deadline"

    def timing(self, end: float | None = None) -> tuple[int, DecisionTiming]:
        """The time charged for the decision ending at ``end`` (default: now), and its
        record: the wall time, the stalls inside it (never charged) and the CPU time."""
        if end is None:
            end = self._now()
        wall = max(0.0, end - self.start)
        lag = max(0.0, min(wall, self._lag(self.start, end)))
        meter = self._meter
        cpu = max(0.0, meter() - self.cpu_start) if meter else None
        # to the microsecond, rounded (truncating made 0.02 s 19,999 µs); the time charged
        # is exactly the time recorded: the wall time less the stalls, or the CPU time
        cpu_us = None if cpu is None else round(cpu * 1e6)
        wall_us, lag_us = round(wall * 1e6), round(lag * 1e6)
        charged_us = cpu_us if cpu_us is not None else wall_us - lag_us
        return charged_us, DecisionTiming(wall_us, lag_us, cpu_us)

    def late(self, charged_us: int) -> bool:
        """Whether a reply charged ``charged_us`` came too late (it was read before the timer
        fired, but after the limit)."""
        return charged_us > self.limit_s * 1e6
