"""Value types the arbiter exchanges with seats and reports: no proto types, no I/O."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier import _defaults as defaults
from croupier.games import ActionRuns


class Fault(enum.Enum):
    """What a seat did wrong. Recorded in the replay as the lower-case name."""

    TIMEOUT = "timeout"
    ILLEGAL_ACTION = "illegal_action"  # an id not in the request's legal list
    STALE_REQUEST = "stale_request"  # a request id that is not the one pending
    UNEXPECTED_MESSAGE = "unexpected_message"  # not an ActionReply (second Hello, empty envelope)
    DISCONNECT = "disconnect"  # stream closed or broken, or the process exited, mid-match
    NO_SHOW = "no_show"  # never connected before the match started
    CRASH = "crash"  # a launched bot's process died mid-match


class Outcome(enum.Enum):
    """How a seat ended the match (cutechess-style rich result), worst fault wins."""

    NORMAL = "normal"
    TIMEOUTS = "timeouts"
    ILLEGAL_ACTIONS = "illegal_actions"
    DISCONNECTED = "disconnected"
    FORFEITED = "forfeited"  # the fault policy made it forfeit the match: placed last


class ClockKind(enum.Enum):
    """What a decision is charged: the wall time it took, or the CPU time the bot used."""

    WALL = "wall"
    CPU = "cpu"


@dataclass(frozen=True, slots=True)
class ClockRules:
    """Per-decision time plus a bank that covers overruns; a reply later than both (plus the
    margin) is a timeout. The caps (0: none) bound a seat's total charged time and the match's
    wall time. In CPU mode a decision is charged the CPU time of the bot's process tree, and
    ``cpu_wall_guard_ms`` more wall time than move + bank + margin is the hard limit."""

    move_time_ms: int = defaults.MOVE_MS
    time_bank_ms: int = defaults.BANK_MS
    kind: ClockKind = ClockKind.WALL
    margin_ms: int = defaults.MARGIN_MS
    seat_cap_ms: int = 0
    match_cap_ms: int = 0
    cpu_wall_guard_ms: int = 10000


@dataclass(frozen=True, slots=True)
class Clocks:
    """The clock as shown with one decision request."""

    move_time_ms: int
    time_bank_ms: int
    last_latency_us: int


# ---- arbiter -> seat ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Welcome:
    """Sent once a bot is admitted."""

    match_id: str
    seat: int
    num_seats: int
    game: str
    rules_version: int
    params: dict[str, int]
    clock: ClockRules
    #: The deals' commitment (scheme v1: seed, salt, chance script; ``croupier.arbiter._commit``),
    #: revealed at the end.
    commitment: str = ""
    #: How long the seat's bot may be away and come back (0: a lost stream ends the seat).
    reconnect_grace_ms: int = 0
    #: The whole match's commitment (scheme v2: seed, salt and the match's terms).
    match_commitment: str = ""


@dataclass(frozen=True, slots=True)
class DecisionRequest:
    """The seat must act; ``observation`` comes from ``game.observe(state, seat)`` alone.
    ``legal_actions`` are the legal ids as runs (``game.legal_runs``: a chip game's thousand
    bet amounts are one run, checked and sent without being listed), ``labels`` their labels by
    position, each made when it is read (:class:`~croupier.games.Labels`)."""

    request_id: int
    observation: Any
    legal_actions: ActionRuns
    labels: Sequence[str]
    clocks: Clocks


@dataclass(frozen=True, slots=True)
class ActionEvent:
    """A public action. ``by_arbiter``: the arbiter played it for the seat (set only in the copy
    the seat itself receives). ``step`` (here and in the other events) counts the steps everyone
    saw: chance events and public actions."""

    step: int
    seat: int
    action: int
    label: str
    by_arbiter: bool


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A deal/round began."""

    step: int
    round_index: int
    dealer: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A deal/round ended. ``observation`` is the public observation after it (the round's
    result is public), so one event serves every seat."""

    step: int
    round_index: int
    deltas: tuple[Fraction, ...]
    totals: tuple[Fraction, ...]
    observation: Any


@dataclass(frozen=True, slots=True)
class Rejection:
    """A reply was not accepted."""

    request_id: int
    fault: Fault
    message: str
    default_played: bool


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's result."""

    seat: int
    bot_name: str
    score: Fraction
    place: int
    outcome: Outcome
    timeouts: int
    rejected: int
    #: Faults whose policy was a forfeit (of the round or of the match).
    forfeits: int = 0
    #: The name the host knows the seat's bot by (a competition server's registered name);
    #: ``""``: none. ``bot_name`` is what the bot said in its Hello.
    registered_name: str = ""

    @property
    def name(self) -> str:
        """Who the seat's bot is: its registered name where the host gave one, else the name
        it said in its Hello."""
        return self.registered_name or self.bot_name


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result of a match, by seat; ``cancel_reason`` says why a cancelled one stopped."""

    match_id: str
    seats: tuple[SeatResult, ...]
    cancelled: bool = False
    cancel_reason: str = ""
    #: The reveal of the commitments: the match seed, the salt, the chance script's digest and
    #: the terms' digest.
    seed: int = 0
    salt: str = ""
    script_digest: str = ""
    terms_digest: str = ""
    #: False in what the bots of a duplicate seating are told (``MatchConfig.withhold_reveal``):
    #: ``seed``, ``salt`` and the digests are then blank, and MatchEnd leaves them unset.
    revealed: bool = True


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The last message to a seat."""

    result: MatchResult


# ---- seat -> arbiter ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """A bot's answer to a decision request; ``received_at``: the event-loop time the transport
    read it off the connection (0: when the match takes it)."""

    request_id: int
    action: int
    received_at: float = 0.0


@dataclass(frozen=True, slots=True)
class DecisionTiming:
    """How long one decision took: ``wall_us`` from the request written to the reply read,
    ``lag_us`` of that the arbiter's own stalls (not charged), ``cpu_us`` the bot's CPU time
    (CPU clock only, else ``None``); the charged time is the action record's ``time_us``."""

    wall_us: int
    lag_us: int
    cpu_us: int | None


@dataclass(frozen=True, slots=True)
class Unexpected:
    """A message that is not an ActionReply."""

    description: str


@dataclass(frozen=True, slots=True)
class Gone:
    """The seat's connection ended (stream closed, broken, or process exited)."""

    reason: str


@dataclass(frozen=True, slots=True)
class Dropped:
    """The seat's connection ended, but its bot may come back within the grace window; the
    clock keeps running. ``at``: event-loop time."""

    reason: str
    at: float


@dataclass(frozen=True, slots=True)
class Rejoined:
    """The seat's bot came back (same token) after a :class:`Dropped`; ``peer`` is where from."""

    at: float
    peer: str


@dataclass(frozen=True, slots=True)
class Cancelled:
    """The match was cancelled (put into every inbox so a pending decision stops waiting)."""


Outbound = (
    Welcome | DecisionRequest | ActionEvent | RoundStarted | RoundEnded | Rejection | MatchOver
)
Inbound = Reply | Unexpected | Gone | Cancelled | Dropped | Rejoined


@dataclass(slots=True)
class SeatStats:
    """Fault counters of one seat (mutable, owned by the match)."""

    timeouts: int = 0
    rejected: int = 0
    disconnected: bool = False
    forfeits: int = 0
    forfeited_match: bool = False

    def outcome(self) -> Outcome:
        if self.forfeited_match:
            return Outcome.FORFEITED
        if self.disconnected:
            return Outcome.DISCONNECTED
        if self.rejected:
            return Outcome.ILLEGAL_ACTIONS
        if self.timeouts:
            return Outcome.TIMEOUTS
        return Outcome.NORMAL
