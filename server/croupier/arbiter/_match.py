"""Runs one match: deals chance, asks seats for decisions under the clock, applies the fault policy,
broadcasts public events and records everything through a :class:`Recorder`."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import partial
from typing import Any, NamedTuple, Protocol

import numpy as np
import structlog

from croupier.arbiter import _commit
from croupier.arbiter._clock import SeatClock, Turn
from croupier.arbiter._config import MatchConfig
from croupier.arbiter._faults import FaultClass, Policy, fault_class, forfeit_places
from croupier.arbiter._lag import LagMonitor
from croupier.arbiter._seat import SeatLink
from croupier.arbiter._seeds import bot_seed, check_seed
from croupier.arbiter._types import (
    ActionEvent,
    Cancelled,
    ClockKind,
    Clocks,
    DecisionRequest,
    DecisionTiming,
    Dropped,
    Fault,
    Gone,
    MatchOver,
    MatchResult,
    Rejection,
    Rejoined,
    Reply,
    RoundEnded,
    RoundStarted,
    SeatResult,
    SeatStats,
    Unexpected,
    Welcome,
)
from croupier.errors import ConfigError, IllegalActionError
from croupier.games import CHANCE, TERMINAL, Labels, get_game


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """A seat as the replay header records it."""

    seat: int
    bot_name: str
    bot_version: str
    connected: bool
    #: Where the bot connected from, as gRPC names it (``ipv4:127.0.0.1:41120``,
    #: ``unix:/run/...``); empty for a seat that never joined.
    peer: str = ""
    #: The name the host knows the seat's bot by (its roster's ``registered_name``); ``""``: none
    #: (``bot_name``, what the bot said in its Hello, is then all there is).
    registered_name: str = ""


def decision_request(
    game: Any, state: Any, seat: int, request_id: int, clocks: Clocks
) -> DecisionRequest:
    """What ``seat``, to act in ``state``, is sent: its observation, the legal actions (as runs)
    and their labels (made as the codec reads them: a run of amounts goes on the wire as one
    entry, so its labels are never made). The match and the in-process ``play_local`` both
    build requests here."""
    legal = game.legal_runs(state)
    return DecisionRequest(
        request_id,
        game.observe(state, seat),
        legal,
        Labels(legal, partial(game.action_label, state)),
        clocks,
    )


#: How long the arbiter waits, after a launched bot's stream ends, for its process to exit
#: (then the fault is a crash, else a disconnect).
CRASH_WAIT_S = 0.5
#: A seat asked a decision within the match's last ``SOON_TURNS`` x seats decisions is taken to
#: be asked again soon: its public events wait for that decision, with no events-only message
#: (whatever ``event_flush_ms``); any other seat's (out of the game, or sitting out a long round)
#: go after ``event_flush_ms``, and so do those of a seat that has forfeited the match or gone
#: (never asked again). Four turns of the table: a seat may act several times in its turn (look,
#: then bet) and sit out the rest of a short round after folding.
SOON_TURNS = 4


class _MatchCancelled(Exception):
    """Raised out of a pending decision when the match is cancelled."""


class _OutOfTime(NamedTuple):
    """No answer came before the decision's clock ran out: why."""

    detail: str


class _Decided(NamedTuple):
    action: int
    fault: Fault | None
    detail: str
    time_us: int
    timing: DecisionTiming | None = None
    #: The policy applied to ``fault`` (None without one).
    policy: Policy | None = None
    #: The seat had forfeited the round or match: the arbiter played for it without asking.
    conceded: bool = False
    #: The state after the rules' own forfeit of the round (``forfeit_round``), which is then
    #: recorded instead of an action (``action`` is -1).
    forfeit: Any = None


#: ``Match._conceding`` of a seat that concedes every decision to the end of the match.
_ALWAYS = -1


class Recorder(Protocol):
    """Where a match writes its record (the replay writer implements this)."""

    def header(self, match: Match, seats: tuple[SeatInfo, ...]) -> None: ...
    def chance(self, step: int, outcome: tuple[int, ...], label: str) -> None: ...
    def action(
        self,
        step: int,
        seat: int,
        action: int,
        label: str,
        time_us: int,
        fault: Fault | None,
        detail: str,
        timing: DecisionTiming | None = None,
        policy: Policy | None = None,
        conceded: bool = False,
        announced: bool = True,
    ) -> None:
        """A seat's action; ``announced``: whether the table is told of it (``is_public``)."""

    def fault(
        self, step: int, seat: int, fault: Fault, detail: str, policy: Policy | None = None
    ) -> None: ...
    def forfeit(
        self,
        step: int,
        seat: int,
        fault: Fault | None,
        detail: str,
        policy: Policy | None,
        time_us: int,
    ) -> None:
        """The rules ended the round as forfeited by ``seat`` (``forfeit_round``); ``fault``
        and ``policy`` say why (``None``: the seat had forfeited already)."""

    def round_end(
        self, step: int, round_index: int, deltas: tuple[Fraction, ...], public: Any
    ) -> None:
        """A round has ended; ``public`` is the public observation after it."""

    def result(self, result: MatchResult, step: int) -> None: ...
    def dropped(self, step: int, seat: int, reason: str) -> None:
        """The seat's connection dropped; its bot may come back within the grace window."""

    def rejoined(self, step: int, seat: int, gap_us: int, peer: str) -> None:
        """The seat's bot came back after ``gap_us`` away."""


class Match:
    """One match between seats linked by the transport: create, hand out :attr:`tokens`, run."""

    def __init__(
        self,
        config: MatchConfig,
        match_id: str,
        recorder: Recorder,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """``progress`` is called with the number of rounds (deals) finished after each one."""
        self.config = config
        self.match_id = match_id
        self.game = get_game(config.game)
        self.params = self.game.info.make_params(config.params)
        self.num_seats = self.params["players"]
        check_seed(config.seed, "match seed")
        self.seats = [SeatLink(i, secrets.token_urlsafe(24)) for i in range(self.num_seats)]
        for link in self.seats:
            link.grace_s = config.reconnect_grace_s
            link.bot_seed = bot_seed(config.seed, link.seat)
        self._step = 0  # the replay step of the decision being asked, for the gap records
        #: Decisions asked so far, and per seat the count when it was last asked (SOON_TURNS).
        self._asks = 0
        self._asked_at = [0] * self.num_seats
        #: Per seat: when its bot dropped (event-loop time), while it is away.
        self._dropped_at: list[float | None] = [None] * self.num_seats
        self.stats = [SeatStats() for _ in range(self.num_seats)]
        self._recorder = recorder
        self._progress = progress
        #: Per seat: its clock (bank, charged time, last latency).
        self._clocks = [SeatClock(config.clock) for _ in range(self.num_seats)]
        self._next_request = [1] * self.num_seats
        self._timed_out: list[set[int]] = [set() for _ in range(self.num_seats)]
        # requests settled by the default action before any reply naming them came (after a
        # second Hello, a garbled message or a wrong request id): the bot's reply to one, when it
        # comes, is turned away like a late one, not charged to the request then pending
        self._unanswered: list[set[int]] = [set() for _ in range(self.num_seats)]
        if (wrong := _commit.check_roster(config.seat_roster, self.num_seats)) is not None:
            raise ConfigError(wrong)
        self._salt = _commit.new_salt()
        #: What decides the match, fixed now (the replay header's committed fields).
        self.terms = _commit.match_terms(match_id, self.game.info, self.params, config)
        self._script_digest = self.terms["chance_script_sha256"]
        self._terms_digest = _commit.terms_digest(self.terms)
        #: Told to every bot at Welcome (the seed and salt behind them are revealed at
        #: MatchEnd, unless ``config.withhold_reveal``: then by the replay, to whoever may read
        #: it): the whole match's commitment (scheme v2), and the deals' (scheme v1).
        self.commitment = _commit.commitment_v2(config.seed, self._salt, self.terms)
        self.deal_commitment = _commit.commitment(config.seed, self._salt, self._script_digest)
        #: Per seat: None, or the round it forfeited (it concedes while that round lasts), or
        #: _ALWAYS (it forfeited the match, or left under a forfeit policy).
        self._conceding: list[int | None] = [None] * self.num_seats
        self._lag = LagMonitor()
        self._cancelled = False
        self._cancel_reason = ""
        self._cancel_event = asyncio.Event()
        self._log = structlog.get_logger("croupier.match").bind(match_id=match_id, game=config.game)

    @property
    def tokens(self) -> list[str]:
        """One token per seat; each admits exactly one connection."""
        return [link.token for link in self.seats]

    def welcome(self, seat: int) -> Welcome:
        """The message admitting a bot to ``seat``."""
        info = self.game.info
        clock = self.config.clock
        if clock.kind is ClockKind.CPU and self.seats[seat].cpu_meter is None:
            clock = dataclasses.replace(clock, kind=ClockKind.WALL)  # a bot that dialed in
        return Welcome(
            self.match_id,
            seat,
            self.num_seats,
            info.name,
            info.version,
            dict(self.params),
            clock,
            self.deal_commitment,
            0 if self.seats[seat].launched else round(self.config.reconnect_grace_s * 1000),
            self.commitment,
        )

    def cancel(self, reason: str = "cancelled by the operator") -> None:
        """Stop now (a pending decision stops waiting); the result is recorded as cancelled."""
        if self._cancelled:
            return
        self._cancel_reason = reason
        self._cancelled = True
        self._cancel_event.set()
        for link in self.seats:
            link.inbox.put_nowait(Cancelled())

    # -- running --------------------------------------------------------------------------------

    async def wait_for_seats(self) -> None:
        """Wait until every seat has joined or been abandoned, or the connect timeout passes."""

        async def settled(link: SeatLink) -> None:
            """Until the seat joins or is abandoned, or the match is cancelled."""
            events = (link.joined, link.abandoned, self._cancel_event)
            waits = [asyncio.ensure_future(event.wait()) for event in events]
            try:
                await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for wait in waits:
                    wait.cancel()

        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(self.config.connect_timeout_s), asyncio.TaskGroup() as seats:
                for link in self.seats:
                    seats.create_task(settled(link))
        for link in self.seats:
            if not link.joined.is_set():
                self._mark_gone(link.seat)

    async def run(self) -> MatchResult:
        """Play the match to its end (or cancellation) and return the result."""
        cap_ms = self.config.clock.match_cap_ms
        capper = None
        if cap_ms:
            loop = asyncio.get_running_loop()
            capper = loop.call_later(
                cap_ms / 1000, self.cancel, f"the match time cap of {cap_ms} ms was reached"
            )
        self._lag.start()
        try:
            return await self._run()
        finally:
            await self._lag.stop()
            if capper is not None:
                capper.cancel()

    async def _run(self) -> MatchResult:
        await self.wait_for_seats()
        game, rng = self.game, np.random.default_rng(self.config.seed)
        seats_info = tuple(
            SeatInfo(
                s.seat,
                s.bot_name,
                s.bot_version,
                s.joined.is_set(),
                s.peer,
                self.registered_name(s.seat),
            )
            for s in self.seats
        )
        self._recorder.header(self, seats_info)
        for link in self.seats:
            link.expect_soon(True)  # every seat acts early in the first round
            if self._gone(link.seat):
                kind, detail = Fault.NO_SHOW, "did not join in time"
                if link.launched and link.crashed.is_set():
                    kind = Fault.CRASH
                    detail = f"the bot process exited with code {link.exit_code} before joining"
                policy = self._apply_policy(link.seat, kind, None)
                self._recorder.fault(0, link.seat, kind, detail, policy)
                self._log.warning("seat_no_show", seat=link.seat, fault=kind.value)
        state = game.initial_state(self.params)
        step = 0
        # Events count only the steps everyone saw (chance events and announced actions): a gap
        # in their numbers would otherwise reveal an unannounced action, such as Fipsen's
        # declined Siebener Fips. The replay counts every step.
        shown = 0
        announced = -1
        round_start = game.returns(state)
        script = iter(self.config.chance_script)
        while not self._cancelled and (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                outcome = next(script, None)
                if outcome is None:
                    outcome = game.sample_chance(state, rng)
                try:
                    after = game.apply_chance(state, outcome)  # validates a scripted outcome
                    label = game.chance_label(state, outcome)
                except IllegalActionError as exc:
                    raise ConfigError(f"chance_script does not fit the match: {exc}") from None
                self._recorder.chance(step, outcome, label)
                state = after
                step += 1
                shown += 1
                index = game.round_index(state)
                if game.current_player(state) != CHANCE and index != announced:
                    announced = index
                    self._broadcast(RoundStarted(shown, index, game.dealer(state)))
                continue
            self._step = step
            try:
                decided = await self._decide(player, state)
            except _MatchCancelled:
                break
            action, fault = decided.action, decided.fault
            if decided.forfeit is not None:  # the rules ended the round for the seat
                self._recorder.forfeit(
                    step, player, fault, decided.detail, decided.policy, decided.time_us
                )
                state = decided.forfeit
                step += 1
            else:
                label = game.action_label(state, action)
                public = game.is_public(state, action)
                self._recorder.action(
                    step,
                    player,
                    action,
                    label,
                    decided.time_us,
                    fault,
                    decided.detail,
                    decided.timing,
                    decided.policy,
                    decided.conceded,
                    announced=public,
                )
                state = game.apply(state, action)
                step += 1
                if public:
                    shown += 1
                    by_arbiter = fault is not None or decided.conceded
                    self._announce(ActionEvent(shown, player, action, label, False), by_arbiter)
            if game.current_player(state) == TERMINAL or game.round_index(state) != announced:
                totals = game.returns(state)
                deltas = tuple(t - s for t, s in zip(totals, round_start, strict=True))
                round_start = totals
                public = game.observe(state, None)  # a round's result is public
                self._recorder.round_end(step, announced, deltas, public)
                if self._progress is not None:
                    self._progress(announced + 1)
                self._broadcast(RoundEnded(shown, announced, deltas, totals, public))
        self._drain_departures(step)
        if self._cancelled and game.current_player(state) == TERMINAL:
            self._cancelled, self._cancel_reason = False, ""  # it came after the last move
        ranking = forfeit_places(game.ranking(state), tuple(s.forfeited_match for s in self.stats))
        result = self._result(game.returns(state), ranking)
        self._recorder.result(result, step)
        told = result
        if self.config.withhold_reveal:
            told = dataclasses.replace(
                result, seed=0, salt="", script_digest="", terms_digest="", revealed=False
            )
        for link in self.seats:
            link.send(MatchOver(told))
            link.closed = True
            link.over = True
            link.done.set()
        self._log.info(
            "match_finished",
            steps=step,
            cancelled=result.cancelled,
            scores=[str(r.score) for r in result.seats],
            outcomes=[r.outcome.value for r in result.seats],
        )
        return result

    # -- one decision ---------------------------------------------------------------------------

    async def _decide(self, seat: int, state: Any) -> _Decided:
        """Ask ``seat`` for an action under the clock; apply the fault policy if it fails."""
        game = self.game
        if self._concedes(seat, state):
            return self._concede(seat, state, None, "", None, 0)
        if self._gone(seat):
            return _Decided(game.default_action(state), None, "", 0)
        link = self.seats[seat]
        if link.abandoned.is_set():  # gone, whatever it sent before (which is not read now)
            self._mark_gone(seat)
            fault = await self._departure(link)
            return self._fault(seat, state, fault, link.left_reason, 0)
        request_id = self._next_request[seat]
        self._next_request[seat] += 1
        seat_clock = self._clocks[seat]
        budget_ms = seat_clock.budget_ms()
        if budget_ms is None:  # flag fallen: no more thinking time this match
            self.stats[seat].timeouts += 1
            detail = f"the seat's time cap of {self.config.clock.seat_cap_ms} ms is used up"
            return self._fault(seat, state, Fault.TIMEOUT, detail, 0)
        request = decision_request(game, state, seat, request_id, seat_clock.shown())
        meter = link.cpu_meter if self.config.clock.kind is ClockKind.CPU else None
        link.cpu_at_write = meter is not None
        link.send(request)
        self._asked(seat)
        loop = asyncio.get_running_loop()
        link.pending, link.pending_since = request, loop.time()
        try:
            return await self._await_reply(seat, state, request, budget_ms)
        finally:
            link.pending = None

    async def _await_reply(
        self, seat: int, state: Any, request: DecisionRequest, budget_ms: int
    ) -> _Decided:
        """Wait for the reply to ``request`` under the clock (the rest of :meth:`_decide`). What
        comes first decides: the clock running out, the bot gone, the match cancelled, a
        message that is not a reply, a reply naming another request, an illegal action, a reply
        read too late, or the action. A reply to a request settled before is turned away and
        the wait goes on."""
        link, request_id, legal = self.seats[seat], request.request_id, request.legal_actions
        meter = link.cpu_meter if self.config.clock.kind is ClockKind.CPU else None
        loop = asyncio.get_running_loop()
        turn = Turn(self.config.clock, budget_ms, loop.time, self._lag.between, meter)
        while True:
            message = await self._receive(seat, request_id, turn)
            if isinstance(message, _OutOfTime):
                return self._time_out(seat, state, request_id, turn, message.detail)
            end = message.received_at if isinstance(message, Reply) else 0.0
            self._started(link, request_id, turn, end)
            elapsed_us, times = turn.timing(end or None)
            if isinstance(message, Gone):
                self._mark_gone(seat)
                fault = await self._departure(link)
                return self._fault(seat, state, fault, message.reason, elapsed_us, times)
            if isinstance(message, Cancelled):
                raise _MatchCancelled
            if isinstance(message, Unexpected):
                self._unanswered[seat].add(request_id)
                return self._reject(
                    seat,
                    state,
                    request_id,
                    Fault.UNEXPECTED_MESSAGE,
                    message.description,
                    elapsed_us,
                    times,
                )
            if self._turned_away(seat, message):
                continue
            if message.request_id != request_id:
                self._unanswered[seat].add(request_id)
                return self._reject(
                    seat,
                    state,
                    message.request_id,
                    Fault.STALE_REQUEST,
                    f"request id {message.request_id} is not the pending {request_id}",
                    elapsed_us,
                    times,
                )
            if message.action not in legal:  # arithmetic over the runs
                return self._reject(
                    seat,
                    state,
                    request_id,
                    Fault.ILLEGAL_ACTION,
                    f"action {message.action} is not among the legal {list(legal)}",
                    elapsed_us,
                    times,
                )
            if turn.late(elapsed_us):  # read before the timer fired, but too late
                link.send(
                    Rejection(request_id, Fault.TIMEOUT, "reply came after the deadline", True)
                )
                return self._time_out(
                    seat, state, request_id, turn, "the reply came after the deadline"
                )
            self._clocks[seat].charge(elapsed_us)
            return _Decided(message.action, None, "", elapsed_us, times)

    async def _receive(
        self, seat: int, request_id: int, turn: Turn
    ) -> Reply | Unexpected | Gone | Cancelled | _OutOfTime:
        """The seat's next message that answers or ends the wait, or why its clock ran out
        first. Its bot dropping out and coming back are recorded meanwhile: the clock runs on."""
        link = self.seats[seat]
        while True:
            self._started(link, request_id, turn)
            try:
                message = await link.inbox.get_until(turn.deadline())
            except TimeoutError:
                self._started(link, request_id, turn)
                detail = turn.expired()
                if detail is None:
                    continue  # the arbiter stalled meanwhile: the deadline moved on
                return _OutOfTime(detail)
            if isinstance(message, Dropped | Rejoined):
                self._gap(seat, message)
                continue
            return message

    @staticmethod
    def _started(link: SeatLink, request_id: int, turn: Turn, read_at: float = 0.0) -> None:
        """The clock starts when the transport reports the request written (``link.written``),
        until then from when it was asked; but not from a write noted after the reply being
        handled was read (``read_at``): the transport may resume from the write after the reply
        came in. Taking it again is a no-op: the link keeps a request's first write
        (``SeatLink.written`` ignores the rewrite of a request resent to a bot that came back)."""
        if link.written_id != request_id or (read_at and link.written_at > read_at):
            return
        link.pending_since = link.written_at
        turn.start_at(link.written_at, link.written_cpu)

    def _turned_away(self, seat: int, reply: Reply) -> bool:
        """Whether ``reply`` answers a request settled before (timed out, or played by default
        before any reply named it): it is rejected without a fault, and the wait goes on."""
        if reply.request_id in self._timed_out[seat]:
            detail = "reply came after the deadline"
            self.seats[seat].send(Rejection(reply.request_id, Fault.TIMEOUT, detail, False))
            return True
        if reply.request_id in self._unanswered[seat]:
            self._unanswered[seat].discard(reply.request_id)
            detail = "the default action was already played for that request"
            self.seats[seat].send(Rejection(reply.request_id, Fault.STALE_REQUEST, detail, False))
            return True
        return False

    def _time_out(
        self, seat: int, state: Any, request_id: int, turn: Turn, detail: str
    ) -> _Decided:
        """The decision timed out: charged up to now, the bank emptied, the fault policy."""
        self._timed_out[seat].add(request_id)
        self.stats[seat].timeouts += 1
        charged_us, times = turn.timing()
        self._clocks[seat].time_out(charged_us)
        return self._fault(seat, state, Fault.TIMEOUT, detail, charged_us, times)

    def _reject(
        self,
        seat: int,
        state: Any,
        request_id: int,
        fault: Fault,
        detail: str,
        elapsed_us: int,
        timing: DecisionTiming | None = None,
    ) -> _Decided:
        self.stats[seat].rejected += 1
        self.seats[seat].send(Rejection(request_id, fault, detail, True))
        return self._fault(seat, state, fault, detail, elapsed_us, timing)

    def _fault(
        self,
        seat: int,
        state: Any,
        fault: Fault,
        detail: str,
        elapsed_us: int,
        timing: DecisionTiming | None = None,
    ) -> _Decided:
        """The fault policy for ``fault``: the game's default action is played for the seat,
        or it forfeits the round or the match (see :meth:`_concede`); log the fault."""
        self._clocks[seat].waited(elapsed_us)
        policy = self._apply_policy(seat, fault, state)
        self._log.warning(
            "seat_fault", seat=seat, fault=fault.value, detail=detail, policy=policy.value
        )
        if policy.forfeits:
            return self._concede(seat, state, fault, detail, policy, elapsed_us, timing)
        return _Decided(self.game.default_action(state), fault, detail, elapsed_us, timing, policy)

    def _apply_policy(self, seat: int, fault: Fault, state: Any) -> Policy:
        """The policy for ``fault``; a forfeit makes the seat concede from now on: while the
        current round lasts (``forfeit-round``), or to the end of the match (``forfeit-match``,
        or any forfeit of a seat whose bot has gone: it cannot come back)."""
        policy = self.config.fault_policy.of(fault)
        stats = self.stats[seat]
        if not policy.forfeits:
            return policy
        stats.forfeits += 1
        gone = fault_class(fault) in (FaultClass.DISCONNECT, FaultClass.CRASH)
        if policy is Policy.FORFEIT_MATCH:
            stats.forfeited_match = True
        if policy is Policy.FORFEIT_MATCH or gone or state is None:
            self._conceding[seat] = _ALWAYS
        else:
            self._conceding[seat] = self.game.round_index(state)
        return policy

    def _concedes(self, seat: int, state: Any) -> bool:
        """Whether ``seat`` has forfeited the round (or match) it is asked to act in."""
        conceding = self._conceding[seat]
        if conceding is None:
            return False
        if conceding == _ALWAYS or conceding == self.game.round_index(state):
            return True
        self._conceding[seat] = None  # that round is over
        return False

    def _concede(
        self,
        seat: int,
        state: Any,
        fault: Fault | None,
        detail: str,
        policy: Policy | None,
        elapsed_us: int,
        timing: DecisionTiming | None = None,
    ) -> _Decided:
        """A decision of a seat that has forfeited: the rules end the round for it
        (``forfeit_round``) or the arbiter plays its ``concede_action``, without asking it."""
        after = self.game.forfeit_round(state)
        conceded = fault is None
        if after is not None:
            return _Decided(-1, fault, detail, elapsed_us, timing, policy, conceded, after)
        action = self.game.concede_action(state)
        return _Decided(action, fault, detail, elapsed_us, timing, policy, conceded)

    async def _departure(self, link: SeatLink) -> Fault:
        """Whether a seat whose connection ended crashed (its launched process died; that
        shows a moment after the stream ends) or only disconnected."""
        if not link.launched:
            return Fault.DISCONNECT
        if not link.crashed.is_set():
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(CRASH_WAIT_S):
                    await link.crashed.wait()
        return Fault.CRASH if link.crashed.is_set() else Fault.DISCONNECT

    def _gone(self, seat: int) -> bool:
        return self.stats[seat].disconnected

    def _mark_gone(self, seat: int) -> None:
        self.seats[seat].closed = True
        self.stats[seat].disconnected = True

    # -- helpers --------------------------------------------------------------------------------

    def _broadcast(self, message: ActionEvent | RoundStarted | RoundEnded) -> None:
        for link in self.seats:
            link.send(message)

    def _announce(self, event: ActionEvent, by_arbiter: bool) -> None:
        """Tell every seat about a public action; only its own seat learns that the arbiter
        played it. The default actions are known (the lowest legal card, say), so telling the
        table would tell it something about the seat's hidden cards."""
        if not by_arbiter and not self._gone(event.seat):
            self._broadcast(event)
            return
        own = dataclasses.replace(event, by_arbiter=True)
        for link in self.seats:
            link.send(own if link.seat == event.seat else event)

    def _asked(self, seat: int) -> None:
        """``seat`` was just sent a decision: it is expected to act again soon; a seat not asked
        within the last ``SOON_TURNS`` turns of the table no longer is
        (``SeatLink.expect_soon``)."""
        self._asks += 1
        self._asked_at[seat] = self._asks
        self.seats[seat].expect_soon(True)
        horizon = SOON_TURNS * self.num_seats
        for link in self.seats:
            if link.outbox.holding and (
                self._asks - self._asked_at[link.seat] >= horizon
                or self._conceding[link.seat] == _ALWAYS
                or self._gone(link.seat)
            ):
                link.expect_soon(False)

    def _gap(self, seat: int, message: Dropped | Rejoined) -> None:
        """Record a seat's bot dropping out (it may come back) or coming back."""
        if isinstance(message, Dropped):
            self._dropped_at[seat] = message.at
            self._recorder.dropped(self._step, seat, message.reason)
            self._log.warning("seat_dropped", seat=seat, reason=message.reason)
            return
        away = self._dropped_at[seat]
        self._dropped_at[seat] = None
        gap_us = 0 if away is None else max(0, int((message.at - away) * 1e6))
        self._recorder.rejoined(self._step, seat, gap_us, message.peer)
        self._log.info("seat_rejoined", seat=seat, gap_us=gap_us, peer=message.peer)

    def registered_name(self, seat: int) -> str:
        """The name the host knows ``seat``'s bot by (``""``: none): its roster entry's
        ``registered_name`` (see :attr:`MatchConfig.seat_roster`)."""
        roster = self.config.seat_roster
        name = roster[seat].get("registered_name", "") if seat < len(roster) else ""
        return name if isinstance(name, str) else ""

    def _drain_departures(self, step: int) -> None:
        """Seats whose bot left after their last decision still count as disconnected."""
        self._step = step
        for link in self.seats:
            while not link.inbox.empty():
                message = link.inbox.get_nowait()
                if isinstance(message, Dropped | Rejoined) and not self._gone(link.seat):
                    self._gap(link.seat, message)
                if isinstance(message, Gone) and not self._gone(link.seat):
                    self._mark_gone(link.seat)
                    crashed = link.launched and link.crashed.is_set()
                    fault = Fault.CRASH if crashed else Fault.DISCONNECT
                    policy = self._apply_policy(link.seat, fault, None)
                    self._recorder.fault(step, link.seat, fault, message.reason, policy)

    def _result(self, scores: tuple[Fraction, ...], place: tuple[int, ...]) -> MatchResult:
        return MatchResult(
            self.match_id,
            tuple(
                SeatResult(
                    seat=link.seat,
                    bot_name=link.bot_name,
                    registered_name=self.registered_name(link.seat),
                    score=scores[link.seat],
                    place=place[link.seat],
                    outcome=self.stats[link.seat].outcome(),
                    timeouts=self.stats[link.seat].timeouts,
                    rejected=self.stats[link.seat].rejected,
                    forfeits=self.stats[link.seat].forfeits,
                )
                for link in self.seats
            ),
            cancelled=self._cancelled,
            cancel_reason=self._cancel_reason,
            seed=self.config.seed,
            salt=self._salt,
            script_digest=self._script_digest,
            terms_digest=self._terms_digest,
        )
