"""The SDK's one loop: dial, hello, answer decisions, return the match end (the session loop
around it, a process that stays up and plays every seat the arbiter hands it, is
:mod:`._session`'s)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
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
#: The pause before dialling a broken session again: the first, doubled after each failed try
#: up to the cap, each drawn between half and all of it (jitter: the bots a restarted server
#: had do not all dial at the same instant).
_SESSION_BACKOFF_FIRST_S = 0.1
_SESSION_BACKOFF_CAP_S = 5.0


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
