"""The SDK's one loop: dial, hello, answer decisions, return the match end; and the session
loop around it (a process that stays up and plays every seat the arbiter hands it)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import os
import random
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import grpc

from croupier_bot._view import History, LegalActions, ObservationView, runs_hold
from croupier_proto.v1 import PROTOCOL_VERSION, bot_pb2_grpc
from croupier_proto.v1 import bot_pb2 as pb

_REASON_KEY = "croupier-reason"  # croupier.transport.REASON_KEY (not imported: server-side)

#: TLS settings of a bot dialling a remote arbiter (docs/protocol.md, "Remote bots over TLS").
ENV_TLS = "CROUPIER_TLS"  # "1": TLS, verified against the system's root certificates
ENV_TLS_CA = "CROUPIER_TLS_CA"  # PEM file of the CA (or self-signed certificate) to trust: TLS
ENV_TLS_CERT = "CROUPIER_TLS_CERT"  # the bot's own certificate chain, for mutual TLS
ENV_TLS_KEY = "CROUPIER_TLS_KEY"  # and its private key
ENV_TLS_SERVER_NAME = "CROUPIER_TLS_SERVER_NAME"  # the name to check the certificate for
#: How long a session dials again after its Session stream breaks (seconds; 0: it does not).
#: A tournament that launches the bot sets it to 0: a launched bot does not outlive its arbiter.
ENV_SESSION_RECONNECT = "CROUPIER_SESSION_RECONNECT_S"
#: The default of a bot that connects by itself (a competition server's registered bot): long
#: enough for the server to be restarted or the network to come back.
DEFAULT_SESSION_RECONNECT_S = 300.0


class BotError(Exception):
    """The arbiter refused the bot or the stream broke; ``reason``: the stable ErrorReason name."""

    def __init__(self, message: str, reason: str = "", code: str = "") -> None:
        super().__init__(message)
        self.reason = reason
        self.code = code


@dataclass(frozen=True)
class MatchInfo:
    """From the Welcome message: who and where the bot is."""

    match_id: str
    seat: int
    num_seats: int
    game: str
    rules_version: int
    params: dict[str, int]
    move_time_ms: int
    time_bank_ms: int
    #: The seed meant for the bot's own randomness in this match (``CROUPIER_SEED`` of a bot
    #: launched per match, the seat assignment's seed in a session); None when there is none.
    seed: int | None = None
    #: How long the seat may be away after its stream drops: the SDK dials in again with the
    #: same token for that long and gets the pending decision again (0: no reconnect).
    reconnect_grace_ms: int = 0


@dataclass(frozen=True)
class Decision:
    """One decision: the seat's observation (a ``croupier.v1.Observation`` with the match's
    finished rounds in ``past_deals`` / ``past_rounds``: an :class:`ObservationView`), the legal
    actions (``croupier.v1.LegalAction``, one per action, ascending by id, amount ranges
    expanded: :class:`LegalActions`), the clocks, and the match info."""

    request_id: int
    observation: Any
    legal_actions: Sequence[Any]
    clocks: Any
    match: MatchInfo

    @property
    def legal_ids(self) -> list[int]:
        """Every legal id, ascending, as a list (a run of 1,000 bets is 1,000 ints)."""
        actions = self.legal_actions
        if isinstance(actions, LegalActions):
            return actions.ids
        return [a.id for a in actions]

    @property
    def legal_runs(self) -> tuple[range, ...]:
        """The legal ids as ascending ranges, as the wire carries them (a run of bets or raises
        is one ``range``, any other action a range of one id); lists no id."""
        actions = self.legal_actions
        if isinstance(actions, LegalActions):
            return actions.runs
        return tuple(range(i, i + 1) for i in sorted(a.id for a in actions))

    def is_legal(self, action_id: int) -> bool:
        """Whether ``action_id`` is one of the legal ids, by arithmetic on the runs (the
        arbiter's own check); False for anything that is not an integer."""
        actions = self.legal_actions
        if isinstance(actions, LegalActions):
            return actions.has_id(action_id)
        return runs_hold(self.legal_runs, action_id)

    def id_for_amount(self, amount: int, kind: str = "") -> int | None:
        """The id of the bet or raise of ``amount`` chips (``kind``: ``"Bet"`` or ``"Raise"``,
        optional), or ``None`` if no run offers that amount; arithmetic on the wire's entries,
        so it builds no entry of a run (:meth:`LegalActions.id_for_amount`)."""
        actions = self.legal_actions
        if isinstance(actions, LegalActions):
            return actions.id_for_amount(amount, kind)
        wanted = {f"{k}:{amount}" for k in ((kind,) if kind else ("Bet", "Raise"))}
        for action in actions:  # a plain list: one action per amount, labelled "<kind>:<a>"
            if action.label in wanted:
                return int(action.id)
        return None

    def tensor(self, kind: str = "position") -> Any:
        """The observation as a ``numpy.float32`` vector, byte for byte the tensor the arbiter's
        encoders make of this seat's observation (what ``croupier.env`` gives a policy trained
        in-process): ``kind`` ``"position"`` (the current position) or ``"info"`` (the position
        and the round's public actions). Needs numpy (:mod:`croupier_bot.tensors`)."""
        return _tensors().encode(self.match.game, self.observation, self.match.seat, kind)

    def action_mask(self) -> Any:
        """A ``numpy.int8`` vector with one entry per action id of the game, 1 for the legal
        ones (as ``croupier.env``'s ``action_mask``). Needs numpy."""
        return _tensors().action_mask(self.match.game, self.legal_ids)


def _tensors() -> Any:
    """:mod:`croupier_bot.tensors`, imported when a bot first asks for a tensor: it needs numpy,
    which the rest of the SDK does not."""
    try:
        from croupier_bot import tensors
    except ModuleNotFoundError as exc:
        if exc.name != "numpy":
            raise
        raise ModuleNotFoundError(
            'tensors need numpy: pip install "croupier-bot[tensors]"', name="numpy"
        ) from None
    return tensors


class Bot:
    """Subclass and override :meth:`act` (and any ``on_*`` hook you need); then ``run(MyBot())``."""

    name = "python-bot"
    version = "0"
    #: In a session (a process that plays many matches), how many matches at a time this bot
    #: may play at most; None: as many as the organiser asks (``CROUPIER_SESSION_CAPACITY``).
    capacity: int | None = None

    def on_welcome(self, match: MatchInfo) -> None:
        """The bot was admitted to a seat."""

    def act(self, decision: Decision) -> int:
        """Return one of ``decision.legal_ids``."""
        raise NotImplementedError

    def on_event(self, event: Any) -> None:
        """A public event (``croupier.v1.Event``)."""

    def on_rejected(self, rejected: Any) -> None:
        """A reply was not accepted (``croupier.v1.ActionRejected``)."""

    def on_match_end(self, end: Any) -> None:
        """The match is over (``croupier.v1.MatchEnd``)."""


class Seat:
    """A bot at one seat, driven by the arbiter's messages: ``seat(response)`` hands one
    ``croupier.v1.PlayResponse`` to the bot's hooks and returns the action id to send back when
    it held a decision (else ``None``). The gRPC stream runs on it, and so does in-process play
    (``croupier.transport.play_local``), so a bot sees the same calls either way."""

    def __init__(self, bot: Bot, seed: int | None = None) -> None:
        self.bot = bot
        self.seed = seed  # MatchInfo.seed
        self.match: MatchInfo | None = None
        self.end: Any = None
        self.history = History()  # the finished rounds, from the round-end events

    def __call__(self, response: Any) -> int | None:
        bot = self.bot
        for event in response.events:
            if event.WhichOneof("kind") == "deal_ended":
                self.history.add(event.deal_ended)
            bot.on_event(event)
        kind = response.WhichOneof("kind")
        if kind == "decision":
            if self.match is None:
                raise BotError("a decision arrived before the Welcome")
            d = response.decision
            return bot.act(
                Decision(
                    d.request_id,
                    ObservationView(d.observation, self.history.rounds),
                    LegalActions(d.legal_actions),
                    d.clocks,
                    self.match,
                )
            )
        if kind == "welcome":
            if self.match is not None:  # back after a dropped stream: the same seat
                return None
            w = response.welcome
            self.match = MatchInfo(
                w.match_id,
                w.seat,
                w.num_seats,
                w.game,
                w.rules_version,
                dict(w.params),
                w.clock_rules.move_time_ms,
                w.clock_rules.time_bank_ms,
                self.seed,
                w.reconnect_grace_ms,
            )
            bot.on_welcome(self.match)
        elif kind == "rejected":
            bot.on_rejected(response.rejected)
        elif kind == "match_end":
            self.end = response.match_end
            bot.on_match_end(response.match_end)
        return None


@dataclass(frozen=True)
class Tls:
    """How to dial the arbiter over TLS: ``ca``, the PEM file to trust (``None``: the system's
    roots); for mutual TLS the bot's own ``cert`` and ``key``; ``server_name`` when the
    certificate names the arbiter differently from the address dialled."""

    ca: str | None = None
    cert: str | None = None
    key: str | None = None
    server_name: str | None = None

    @classmethod
    def from_env(cls) -> Tls | None:
        """From ``CROUPIER_TLS_CA`` (or ``CROUPIER_TLS=1``), ``CROUPIER_TLS_CERT``,
        ``CROUPIER_TLS_KEY``, ``CROUPIER_TLS_SERVER_NAME``; ``None`` (plaintext) when neither
        of the first two is set."""
        env = os.environ
        if not env.get(ENV_TLS_CA) and env.get(ENV_TLS, "") not in ("1", "true", "yes"):
            return None
        return cls(
            env.get(ENV_TLS_CA) or None,
            env.get(ENV_TLS_CERT) or None,
            env.get(ENV_TLS_KEY) or None,
            env.get(ENV_TLS_SERVER_NAME) or None,
        )


def _pem(path: str | None, what: str) -> bytes | None:
    if path is None:
        return None
    try:
        with open(path, "rb") as file:
            return file.read()
    except OSError as exc:
        raise BotError(f"cannot read the TLS {what} {path}: {exc.strerror or exc}") from None


def _channel(address: str, tls: Tls | None) -> grpc.aio.Channel:
    """A channel to ``address``: TLS with ``tls`` (default: :meth:`Tls.from_env`), except to a
    ``unix:`` address (the arbiter's local socket is plaintext; a launched bot dials it)."""
    tls = tls if tls is not None else Tls.from_env()
    if tls is None or address.startswith("unix:"):
        return grpc.aio.insecure_channel(address, options=_CHANNEL_OPTIONS)
    if (tls.cert is None) != (tls.key is None):
        raise BotError("mutual TLS needs both a certificate and its key (CROUPIER_TLS_CERT/KEY)")
    credentials = grpc.ssl_channel_credentials(
        root_certificates=_pem(tls.ca, "CA"),
        private_key=_pem(tls.key, "key"),
        certificate_chain=_pem(tls.cert, "certificate"),
    )
    options: list[tuple[str, str | int]] = list(_CHANNEL_OPTIONS)
    if tls.server_name:
        options.append(("grpc.ssl_target_name_override", tls.server_name))
    return grpc.aio.secure_channel(address, credentials, options=options)


class _FunctionBot(Bot):
    def __init__(self, fn: Callable[[Decision], int], name: str, version: str) -> None:
        self._fn, self.name, self.version = fn, name, version

    def act(self, decision: Decision) -> int:
        return self._fn(decision)


def play(
    bot: Bot,
    *,
    address: str | None = None,
    token: str | None = None,
    connect_timeout_s: float = 30.0,
    tls: Tls | None = None,
) -> Any:
    """Play one match and return the ``MatchEnd`` message; :class:`BotError` on refusal/failure.

    ``address`` and ``token`` default to ``CROUPIER_ADDRESS`` and ``CROUPIER_TOKEN``, ``tls``
    to :meth:`Tls.from_env` (plaintext unless ``CROUPIER_TLS_CA`` or ``CROUPIER_TLS`` is set).
    Runs its own asyncio loop (grpc.aio streams are faster than the threaded sync API); the
    bot's hooks are plain functions called on that loop.
    """
    return asyncio.run(
        play_async(bot, address=address, token=token, connect_timeout_s=connect_timeout_s, tls=tls)
    )


async def play_async(
    bot: Bot,
    *,
    address: str | None = None,
    token: str | None = None,
    connect_timeout_s: float = 30.0,
    tls: Tls | None = None,
) -> Any:
    """:func:`play` for code that already runs an asyncio loop (several bots in one process)."""
    address = address or os.environ.get("CROUPIER_ADDRESS", "")
    token = token if token is not None else os.environ.get("CROUPIER_TOKEN", "")
    if not address:
        raise BotError("no arbiter address: set CROUPIER_ADDRESS or pass address=")
    seed = os.environ.get("CROUPIER_SEED", "")
    async with _channel(address, tls) as channel:
        await _ready(channel, address, connect_timeout_s)
        return await _play_seat(channel, bot, token, int(seed) if seed.isdigit() else None)


async def _ready(channel: grpc.aio.Channel, address: str, timeout_s: float) -> None:
    try:
        await asyncio.wait_for(channel.channel_ready(), timeout_s)
    except TimeoutError:
        raise BotError(f"cannot reach the arbiter at {address}") from None


def _rpc_error(exc: grpc.aio.AioRpcError, *, hello_sent: bool = True) -> BotError:
    """``exc`` as the SDK acts on it. A stream that failed while its Hello was being written
    with gRPC core's INTERNAL error was ended by the arbiter as the Hello went out: refused
    before its Hello was read, which only the per-peer limits do (TOO_MANY_ATTEMPTS; grpcio
    then reports INTERNAL, not the arbiter's status: seen in about one refusal in ten), so it
    counts as that refusal and is tried again."""
    code = exc.code().name
    if not hello_sent and exc.code() is grpc.StatusCode.INTERNAL:
        return BotError(f"{code}: the arbiter ended the stream as its Hello was sent", _BUSY, code)
    reason = dict(exc.trailing_metadata() or ()).get(_REASON_KEY, "")
    return BotError(f"{code}: {exc.details()}", str(reason), code)


#: The channel dials again quickly after a dropped connection (gRPC's default first backoff is
#: a second, a good part of a short reconnect window).
_CHANNEL_OPTIONS = [
    ("grpc.initial_reconnect_backoff_ms", 100),
    ("grpc.min_reconnect_backoff_ms", 100),
    ("grpc.max_reconnect_backoff_ms", 1000),
]
#: Refusals worth another try while the seat's reconnect window lasts: the arbiter has not yet
#: noticed that the old stream is gone (SEAT_TAKEN), or cannot be reached for a moment.
_RETRY_REASONS = {"SEAT_TAKEN", ""}
_RETRY_PAUSE_S = 0.1
#: The oldest protocol version the SDK speaks: 2, to an arbiter that refuses 3 (from before
#: multiplexed sessions: a Play stream is the same in both; a session then gets its seats as
#: assignments to play on Play streams of their own).
OLDEST_PROTOCOL_VERSION = 2


def _older_arbiter(error: BotError, hello: Any) -> bool:
    """Whether ``error`` refused ``hello`` for a protocol version an older arbiter does not
    speak yet (then the SDK says hello again in the oldest it speaks)."""
    return error.reason == "PROTOCOL_VERSION" and hello.protocol_version > OLDEST_PROTOCOL_VERSION


#: The arbiter's per-peer limits refused a stream before reading its Hello ("try again later":
#: the address is flooded, or many bots behind it dialled at once); a stream that says Hello with
#: a valid token gets in once there is room, so the SDK dials again, with backoff, for up to
#: :data:`BUSY_RETRY_S`.
_BUSY = "TOO_MANY_ATTEMPTS"
BUSY_RETRY_S = 30.0


class _StreamLost(Exception):
    """The Play stream ended or broke before MatchEnd (``error``: what to raise if the seat
    cannot be played on; ``welcomed``: the stream had been admitted, so this is a new drop)."""

    def __init__(self, error: BotError, *, welcomed: bool) -> None:
        super().__init__(str(error))
        self.error = error
        self.welcomed = welcomed


async def _play_seat(channel: grpc.aio.Channel, bot: Bot, token: str, seed: int | None) -> Any:
    """Play the seat ``token`` admits on a Play stream of ``channel``; return the MatchEnd.

    If the stream drops after the Welcome and the seat has a reconnect window, dial in again
    with the same token until the window has passed: the arbiter sends the Welcome and the
    pending decision again. Each drop has a window of its own, as in the arbiter."""
    hello = pb.Hello(
        token=token, bot_name=bot.name, bot_version=bot.version, protocol_version=PROTOCOL_VERSION
    )
    seat = Seat(bot, seed)
    give_up = 0.0
    busy_until = time.monotonic() + BUSY_RETRY_S  # (before its first Welcome)
    pause = _RETRY_PAUSE_S
    while True:
        try:
            return await _play_stream(channel, seat, hello, retrying=give_up > 0)
        except BotError as exc:
            if not _older_arbiter(exc, hello):
                raise
            hello.protocol_version = OLDEST_PROTOCOL_VERSION  # an arbiter from before protocol 3
        except _StreamLost as lost:
            window = seat.match.reconnect_grace_ms / 1000 if seat.match is not None else 0.0
            now = time.monotonic()
            if lost.welcomed:  # a new drop (not a refused retry): its own window
                give_up = now + window
            elif seat.match is None and lost.error.reason == _BUSY and now < busy_until:
                await asyncio.sleep(random.uniform(pause / 2, pause))  # refused for room
                pause = min(pause * 2, _SESSION_BACKOFF_CAP_S)
                continue
            if window <= 0 or now >= give_up:
                raise lost.error from None
            await asyncio.sleep(_RETRY_PAUSE_S)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(channel.channel_ready(), max(0.01, give_up - now))


async def _play_stream(channel: grpc.aio.Channel, seat: Seat, hello: Any, *, retrying: bool) -> Any:
    """One Play stream of the seat; :class:`_StreamLost` if it ends before MatchEnd after a
    Welcome (or, ``retrying``, is refused for a reason a moment may cure)."""
    call = bot_pb2_grpc.BotServiceStub(channel).Play()
    welcomed = False
    hello_sent = False
    try:
        await call.write(pb.PlayRequest(hello=hello))
        hello_sent = True
        while (response := await call.read()) is not grpc.aio.EOF:
            welcomed = welcomed or response.WhichOneof("kind") == "welcome"
            action = seat(response)
            if action is not None:
                request = pb.PlayRequest()  # filled in place: no copy of a sub-message
                reply = request.action
                reply.request_id = response.decision.request_id
                reply.action_id = action
                # too late (the match ended meanwhile)? MatchEnd is still there to be read
                with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                    await call.write(request)
            elif seat.end is not None:
                await call.done_writing()
                return seat.end
    except grpc.aio.AioRpcError as exc:
        error = _rpc_error(exc, hello_sent=hello_sent)
        if welcomed or error.reason == _BUSY or (retrying and error.reason in _RETRY_REASONS):
            raise _StreamLost(error, welcomed=welcomed) from None
        raise error from None
    except BaseException:
        call.cancel()  # a hook failed: leave the seat (in a session the channel stays up)
        raise
    error = BotError("the arbiter closed the stream before the match ended")
    if welcomed:
        raise _StreamLost(error, welcomed=True)
    raise error


@dataclass(frozen=True)
class SessionSummary:
    """What a session (a process that stayed up for many matches) played: ``matches`` and
    ``failed`` count every session it opened (``sessions``: more than 1 when its Session stream
    broke and it dialled in again); ``session_id`` is the last one's."""

    session_id: str
    matches: int
    failed: int
    sessions: int = 1


#: The pause before dialling a broken session again: the first, doubled after each failed try
#: up to the cap, each drawn between half and all of it (jitter: the bots a restarted server
#: had do not all dial at the same instant).
_SESSION_BACKOFF_FIRST_S = 0.1
_SESSION_BACKOFF_CAP_S = 5.0
#: Refusals of a session dialled again after a drop that are worth another try: the server
#: still holds the old session (it has not noticed the drop yet: SESSION_TAKEN), limits this
#: address's attempts for a moment, or cannot be reached (no reason).
_SESSION_RETRY_REASONS = {"", "SESSION_TAKEN", "TOO_MANY_ATTEMPTS"}


class _SessionLost(Exception):
    """The Session stream broke (``welcomed``: after its SessionWelcome, so a new drop), or a
    session dialled again was refused for a reason a moment may cure."""

    def __init__(self, error: BotError, *, welcomed: bool) -> None:
        super().__init__(str(error))
        self.error = error
        self.welcomed = welcomed


def _session_reconnect_s(reconnect_s: float | None) -> float:
    if reconnect_s is not None:
        return max(0.0, reconnect_s)
    raw = os.environ.get(ENV_SESSION_RECONNECT, "")
    if not raw:
        return DEFAULT_SESSION_RECONNECT_S
    try:
        return max(0.0, float(raw))
    except ValueError:
        raise BotError(
            f"{ENV_SESSION_RECONNECT} must be a number of seconds, got {raw!r}"
        ) from None


async def _session_stream(
    channel: grpc.aio.Channel,
    hello: Any,
    *,
    again: bool,
    welcomed: Callable[[Any], None],
    seated: Callable[[Any], None],
) -> None:
    """One Session stream: send ``hello``, hand its SessionWelcome to ``welcomed`` and each
    SeatAssignment to ``seated``; return when the arbiter ends it with status OK.
    :class:`_SessionLost` if it breaks after the welcome (or, ``again``: dialled again after a
    drop, is refused for a reason a moment may cure); :class:`BotError` for a refusal."""
    call = bot_pb2_grpc.BotServiceStub(channel).Session()
    welcome = None
    hello_sent = False
    try:
        await call.write(pb.SessionRequest(hello=hello))
        hello_sent = True
        first = await call.read()
        if first is grpc.aio.EOF or first.WhichOneof("kind") != "welcome":
            raise BotError("the arbiter did not welcome the session")
        welcome = first.welcome
        welcomed(welcome)
        while (response := await call.read()) is not grpc.aio.EOF:
            if response.WhichOneof("kind") == "seat":
                seated(response.seat)
    except grpc.aio.AioRpcError as exc:
        welcomed_ = welcome is not None
        raise _session_error(exc, hello_sent=hello_sent, welcomed=welcomed_, again=again) from None
    finally:
        call.cancel()  # (a no-op once the stream has ended)


def _session_error(
    exc: grpc.aio.AioRpcError, *, hello_sent: bool, welcomed: bool, again: bool
) -> Exception:
    """What a Session stream that ended with ``exc`` raises: :class:`_SessionLost` when it
    broke after its welcome, was refused for room, or (``again``: dialled again after a drop)
    was refused for a reason a moment may cure; else the refusal itself (a :class:`BotError`)."""
    error = _rpc_error(exc, hello_sent=hello_sent)
    if welcomed or error.reason == _BUSY or (again and error.reason in _SESSION_RETRY_REASONS):
        return _SessionLost(error, welcomed=welcomed)
    return error


#: In a multiplexed session the replies to the decisions of one message go back in one message,
#: unless computing them takes longer than this (seconds): then those computed so far go at once,
#: so that a decision's reply waits at most about this long for the others' (its clock runs).
REPLY_BATCH_S = 0.002


class _Replies:
    """The writer of a multiplexed stream's replies: a task of its own, so that reading and
    playing the next message never waits for a write in flight. Each write takes every reply
    queued by then (never waiting to batch); a write that fails (the stream ended) loses them,
    as the stream's end does."""

    def __init__(self, call: Any) -> None:
        self._call = call
        self._queued: list[Any] = []
        self._wake = asyncio.Event()
        self._task = asyncio.create_task(self._run())

    def put(self, replies: Any) -> None:
        if self._task.done():  # the writer failed unexpectedly: so does the stream
            self._task.result()
        self._queued.extend(replies)
        self._wake.set()

    async def _run(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._queued:
                out = pb.SessionRequest()
                out.replies.extend(self._queued)
                self._queued.clear()
                # too late (a seat's match ended meanwhile)? what follows is still read
                with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                    await self._call.write(out)

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class _Seats:
    """The seats a multiplexed session plays: each a :class:`Seat` with its own deep copy of the
    bot (taken before any match), known by its token (across the session's streams: a seat
    handed again after a drop is the same one) and by its ``seat_ref`` on the current stream."""

    def __init__(self, template: Bot, name: str) -> None:
        self.template, self.name = template, name
        self.by_token: dict[str, tuple[Seat, str]] = {}  # token -> (seat, match id)
        self.refs: dict[int, str] = {}  # seat_ref on the current stream -> token
        self.played = 0
        self.failed = 0

    def new_stream(self) -> None:
        self.refs = {}

    def _fail(self, token: str, exc: BaseException) -> None:
        self.by_token.pop(token, None)
        self.played += 1
        self.failed += 1
        print(f"{self.name}: a match failed:", file=sys.stderr)
        traceback.print_exception(exc, file=sys.stderr)

    def handle(self, item: Any) -> tuple[int | None, bool]:
        """One SeatMessage: ``(action id to send, or None; leave the seat)``."""
        ref = item.seat_ref
        if item.HasField("assignment"):
            token = item.assignment.token
            self.refs[ref] = token
            if token not in self.by_token:
                seat = Seat(copy.deepcopy(self.template), item.assignment.seed)
                self.by_token[token] = (seat, item.assignment.match_id)
        token = self.refs.get(ref, "")
        found = self.by_token.get(token)
        if found is None:  # a seat that failed here (or none this process was handed)
            return None, False
        seat = found[0]
        try:
            action = seat(item.message)
        except Exception as exc:  # the bot's own code failed: it leaves this seat only
            self._fail(token, exc)
            return None, True
        if seat.end is not None:
            del self.by_token[token]
            del self.refs[ref]
            self.played += 1
        return action, False

    def unfinished(self) -> int:
        """Seats still held when the session is over for good: counted as failed."""
        left = len(self.by_token)
        self.played += left
        self.failed += left
        self.by_token.clear()
        return left


async def _mux_stream(
    channel: grpc.aio.Channel,
    hello: Any,
    seats: _Seats,
    *,
    again: bool,
    welcomed: Callable[[Any], None],
) -> None:
    """One multiplexed Session stream (protocol 3): send ``hello``, hand its SessionWelcome to
    ``welcomed``, then play every seat on it (:class:`_Seats`), answering the decisions of each
    message in one message; return when the arbiter ends it with status OK. Raises as
    :func:`_session_stream` does."""
    call = bot_pb2_grpc.BotServiceStub(channel).Session()
    welcome = None
    seats.new_stream()
    clock = time.perf_counter
    replies: _Replies | None = None
    hello_sent = False
    try:
        await call.write(pb.SessionRequest(hello=hello))
        hello_sent = True
        first = await call.read()
        if first is grpc.aio.EOF or first.WhichOneof("kind") != "welcome":
            raise BotError("the arbiter did not welcome the session")
        welcome = first.welcome
        welcomed(welcome)
        replies = _Replies(call)
        while (response := await call.read()) is not grpc.aio.EOF:
            out: list[Any] = []
            started = 0.0
            for item in response.seat_messages:
                action, leave = seats.handle(item)
                if leave:
                    out.append(pb.SeatReply(seat_ref=item.seat_ref, leave=True))
                    continue
                if action is None:
                    continue
                reply = pb.SeatReply(seat_ref=item.seat_ref)
                reply.action.request_id = item.message.decision.request_id
                reply.action.action_id = action
                out.append(reply)
                if not started:
                    started = clock()
                elif clock() - started > REPLY_BATCH_S:  # the first has waited long enough
                    replies.put(out)
                    out, started = [], 0.0
                    await asyncio.sleep(0)  # (the writer's turn)
            if out:
                replies.put(out)
    except grpc.aio.AioRpcError as exc:
        welcomed_ = welcome is not None
        raise _session_error(exc, hello_sent=hello_sent, welcomed=welcomed_, again=again) from None
    finally:
        if replies is not None:
            await replies.close()
        call.cancel()  # (a no-op once the stream has ended)


def serve(
    bot: Bot,
    *,
    address: str | None = None,
    token: str | None = None,
    capacity: int | None = None,
    connect_timeout_s: float = 30.0,
    tls: Tls | None = None,
    reconnect_s: float | None = None,
) -> SessionSummary:
    """Serve a bot session: play every seat the arbiter hands this process, each with its own
    deep copy of ``bot`` (taken before any match: per-match state starts afresh), up to
    ``capacity`` at a time, until the arbiter ends the session. The seats come multiplexed on
    the session's one stream (protocol 3), the decisions of each message answered in one
    message; an arbiter from before protocol 3 hands each out to be played on a Play stream of
    its own instead.

    ``address``, ``token`` and ``capacity`` default to ``CROUPIER_ADDRESS``,
    ``CROUPIER_SESSION_TOKEN`` and the smaller of ``bot.capacity`` and
    ``CROUPIER_SESSION_CAPACITY`` (1 if neither says). :class:`BotError` if the arbiter refuses.

    If the Session stream breaks (the network, or the server was killed and restarted), a new
    session is dialled with the same token, with backoff, for ``reconnect_s`` seconds (default
    ``CROUPIER_SESSION_RECONNECT_S``, else 300; 0: it is not, and the session ends); each drop
    has a window of its own. The seats held go on: handed again on the new stream while their
    reconnect window lasts (protocol 3), or on their own Play streams (2). A session the arbiter
    ends (status OK) or refuses is not dialled again.
    """
    return asyncio.run(
        serve_async(
            bot,
            address=address,
            token=token,
            capacity=capacity,
            connect_timeout_s=connect_timeout_s,
            tls=tls,
            reconnect_s=reconnect_s,
        )
    )


def _session_capacity(bot: Bot, capacity: int | None) -> int:
    if capacity is not None:
        return max(1, capacity)
    asked = os.environ.get("CROUPIER_SESSION_CAPACITY", "")
    wanted = [c for c in (bot.capacity, int(asked) if asked.isdigit() else None) if c]
    return max(1, min(wanted)) if wanted else 1


async def serve_async(
    bot: Bot,
    *,
    address: str | None = None,
    token: str | None = None,
    capacity: int | None = None,
    connect_timeout_s: float = 30.0,
    tls: Tls | None = None,
    reconnect_s: float | None = None,
) -> SessionSummary:
    """:func:`serve` for code that already runs an asyncio loop."""
    address = address or os.environ.get("CROUPIER_ADDRESS", "")
    token = token if token is not None else os.environ.get("CROUPIER_SESSION_TOKEN", "")
    if not address:
        raise BotError("no arbiter address: set CROUPIER_ADDRESS or pass address=")
    window = _session_reconnect_s(reconnect_s)
    template = copy.deepcopy(bot)  # the pristine bot: each match plays a copy of it
    hello = pb.SessionHello(
        token=token,
        bot_name=bot.name,
        bot_version=bot.version,
        protocol_version=PROTOCOL_VERSION,
        capacity=_session_capacity(bot, capacity),
    )
    played = failed = sessions = 0
    session_id = ""
    dropped_at: float | None = None  # when the session being dialled again broke
    seats: set[asyncio.Task[Any]] = set()

    def finished(task: asyncio.Task[Any]) -> None:
        nonlocal played, failed
        seats.discard(task)
        played += 1
        if not task.cancelled() and (exc := task.exception()) is not None:
            failed += 1
            print(f"{bot.name}: a match failed:", file=sys.stderr)
            traceback.print_exception(exc, file=sys.stderr)

    def welcomed(welcome: Any) -> None:
        nonlocal session_id, sessions, dropped_at
        session_id = welcome.session_id
        sessions += 1
        if dropped_at is not None:
            away = time.monotonic() - dropped_at
            print(f"{bot.name}: session back after {away:.1f}s ({session_id})", file=sys.stderr)
            dropped_at = None

    def seated(seat: Any) -> None:
        task = asyncio.create_task(
            _play_seat(channel, copy.deepcopy(template), seat.token, seat.seed)
        )
        seats.add(task)
        task.add_done_callback(finished)

    multiplexed = _Seats(template, bot.name)
    async with _channel(address, tls) as channel:
        await _ready(channel, address, connect_timeout_s)
        try:
            pause = _SESSION_BACKOFF_FIRST_S
            busy_until = time.monotonic() + BUSY_RETRY_S
            while True:
                again = dropped_at is not None
                try:
                    if hello.protocol_version > OLDEST_PROTOCOL_VERSION:
                        await _mux_stream(
                            channel, hello, multiplexed, again=again, welcomed=welcomed
                        )
                    else:
                        await _session_stream(
                            channel, hello, again=again, welcomed=welcomed, seated=seated
                        )
                    break  # the arbiter ended the session
                except BotError as exc:
                    if not (sessions == 0 and _older_arbiter(exc, hello)):
                        raise
                    hello.protocol_version = OLDEST_PROTOCOL_VERSION  # from before protocol 3
                except _SessionLost as lost:
                    now = time.monotonic()
                    if dropped_at is None and not lost.welcomed:  # the first dial: no room yet
                        if now >= busy_until:
                            raise lost.error from None
                        await asyncio.sleep(random.uniform(pause / 2, pause))
                        pause = min(pause * 2, _SESSION_BACKOFF_CAP_S)
                        continue
                    if lost.welcomed:  # a new drop: its own window
                        dropped_at, pause = now, _SESSION_BACKOFF_FIRST_S
                        if window > 0:
                            print(
                                f"{bot.name}: session dropped ({lost.error}); dialling again "
                                f"for up to {window:g}s",
                                file=sys.stderr,
                            )
                    assert dropped_at is not None  # (set by the drop that led here)
                    left = dropped_at + window - now
                    if left <= 0:
                        raise lost.error from None
                    await asyncio.sleep(min(left, random.uniform(pause / 2, pause)))
                    pause = min(pause * 2, _SESSION_BACKOFF_CAP_S)
        finally:
            # the session is over (or broke for good): the seats handed out are played to the
            # end (protocol 2); those a multiplexed session still held are lost
            if seats:
                await asyncio.gather(*seats, return_exceptions=True)
            if multiplexed.unfinished():
                print(f"{bot.name}: the session ended with seats unfinished", file=sys.stderr)
    played += multiplexed.played
    failed += multiplexed.failed
    return SessionSummary(session_id, played, failed, sessions)


def run(
    bot: Bot | Callable[[Decision], int], *, name: str = "python-bot", version: str = "0"
) -> Any:
    """Play one match with ``bot`` (a :class:`Bot` or a function); exit with status 2 and one
    line on stderr if the arbiter refuses it or the stream breaks.

    When the environment says session mode (``CROUPIER_SESSION_TOKEN``: the bot was launched to
    stay up across matches), serve the session instead (:func:`serve`) and return its
    :class:`SessionSummary`."""
    if not isinstance(bot, Bot):
        bot = _FunctionBot(bot, name, version)
    try:
        if os.environ.get("CROUPIER_SESSION_TOKEN"):
            return serve(bot)
        return play(bot)
    except BotError as exc:
        reason = f" [{exc.reason}]" if exc.reason else ""
        print(f"{bot.name}: {exc}{reason}", file=sys.stderr)
        raise SystemExit(2) from None


def main(bot: Bot | Callable[[Decision], int], **kwargs: Any) -> None:
    """Entry point for a bot script: ``if __name__ == "__main__": main(MyBot())``."""
    started = time.monotonic()
    end = run(bot, **kwargs)
    seconds = time.monotonic() - started
    if isinstance(end, SessionSummary):
        print(f"session over after {seconds:.1f}s; matches={end.matches}", file=sys.stderr)
    else:
        print(f"match over after {seconds:.1f}s; cancelled={end.cancelled}", file=sys.stderr)
