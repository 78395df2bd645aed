"""What a bot is, without a transport: the :class:`Bot` to subclass, the :class:`Decision` it is
handed, the :class:`Seat` that drives it from the arbiter's messages, and the settings of a
connection (:class:`Tls`). Nothing here imports gRPC or asyncio: a bot launched with a session
pipe (:mod:`._pipe`) needs neither, and starts without their cost."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from croupier_bot._view import History, LegalActions, ObservationView, runs_hold

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


class _FunctionBot(Bot):
    def __init__(self, fn: Callable[[Decision], int], name: str, version: str) -> None:
        self._fn, self.name, self.version = fn, name, version

    def act(self, decision: Decision) -> int:
        return self._fn(decision)
