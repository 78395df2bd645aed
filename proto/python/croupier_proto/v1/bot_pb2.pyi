from . import as_nas_pb2 as _as_nas_pb2
from . import felduz_pb2 as _felduz_pb2
from . import fipsen_pb2 as _fipsen_pb2
from . import scauver_pb2 as _scauver_pb2
from . import score_pb2 as _score_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ClockKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CLOCK_KIND_UNSPECIFIED: _ClassVar[ClockKind]
    CLOCK_KIND_WALL: _ClassVar[ClockKind]
    CLOCK_KIND_CPU: _ClassVar[ClockKind]

class RejectReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    REJECT_REASON_UNSPECIFIED: _ClassVar[RejectReason]
    REJECT_REASON_ILLEGAL_ACTION: _ClassVar[RejectReason]
    REJECT_REASON_STALE_REQUEST: _ClassVar[RejectReason]
    REJECT_REASON_TOO_LATE: _ClassVar[RejectReason]
    REJECT_REASON_UNEXPECTED_MESSAGE: _ClassVar[RejectReason]

class SeatOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_OUTCOME_UNSPECIFIED: _ClassVar[SeatOutcome]
    SEAT_OUTCOME_NORMAL: _ClassVar[SeatOutcome]
    SEAT_OUTCOME_TIMEOUTS: _ClassVar[SeatOutcome]
    SEAT_OUTCOME_ILLEGAL_ACTIONS: _ClassVar[SeatOutcome]
    SEAT_OUTCOME_DISCONNECTED: _ClassVar[SeatOutcome]
    SEAT_OUTCOME_FORFEITED: _ClassVar[SeatOutcome]

class ErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ERROR_REASON_UNSPECIFIED: _ClassVar[ErrorReason]
    ERROR_REASON_HELLO_EXPECTED: _ClassVar[ErrorReason]
    ERROR_REASON_TOKEN_UNKNOWN: _ClassVar[ErrorReason]
    ERROR_REASON_SEAT_TAKEN: _ClassVar[ErrorReason]
    ERROR_REASON_PROTOCOL_VERSION: _ClassVar[ErrorReason]
    ERROR_REASON_MATCH_OVER: _ClassVar[ErrorReason]
    ERROR_REASON_SEAT_CLOSED: _ClassVar[ErrorReason]
    ERROR_REASON_FLOODING: _ClassVar[ErrorReason]
    ERROR_REASON_SESSION_EXPECTED: _ClassVar[ErrorReason]
    ERROR_REASON_SESSION_TAKEN: _ClassVar[ErrorReason]
    ERROR_REASON_SESSION_HELLO_EXPECTED: _ClassVar[ErrorReason]
    ERROR_REASON_TOO_MANY_ATTEMPTS: _ClassVar[ErrorReason]
    ERROR_REASON_BOT_DISABLED: _ClassVar[ErrorReason]
CLOCK_KIND_UNSPECIFIED: ClockKind
CLOCK_KIND_WALL: ClockKind
CLOCK_KIND_CPU: ClockKind
REJECT_REASON_UNSPECIFIED: RejectReason
REJECT_REASON_ILLEGAL_ACTION: RejectReason
REJECT_REASON_STALE_REQUEST: RejectReason
REJECT_REASON_TOO_LATE: RejectReason
REJECT_REASON_UNEXPECTED_MESSAGE: RejectReason
SEAT_OUTCOME_UNSPECIFIED: SeatOutcome
SEAT_OUTCOME_NORMAL: SeatOutcome
SEAT_OUTCOME_TIMEOUTS: SeatOutcome
SEAT_OUTCOME_ILLEGAL_ACTIONS: SeatOutcome
SEAT_OUTCOME_DISCONNECTED: SeatOutcome
SEAT_OUTCOME_FORFEITED: SeatOutcome
ERROR_REASON_UNSPECIFIED: ErrorReason
ERROR_REASON_HELLO_EXPECTED: ErrorReason
ERROR_REASON_TOKEN_UNKNOWN: ErrorReason
ERROR_REASON_SEAT_TAKEN: ErrorReason
ERROR_REASON_PROTOCOL_VERSION: ErrorReason
ERROR_REASON_MATCH_OVER: ErrorReason
ERROR_REASON_SEAT_CLOSED: ErrorReason
ERROR_REASON_FLOODING: ErrorReason
ERROR_REASON_SESSION_EXPECTED: ErrorReason
ERROR_REASON_SESSION_TAKEN: ErrorReason
ERROR_REASON_SESSION_HELLO_EXPECTED: ErrorReason
ERROR_REASON_TOO_MANY_ATTEMPTS: ErrorReason
ERROR_REASON_BOT_DISABLED: ErrorReason

class PlayRequest(_message.Message):
    __slots__ = ("hello", "action")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    hello: Hello
    action: ActionReply
    def __init__(self, hello: _Optional[_Union[Hello, _Mapping]] = ..., action: _Optional[_Union[ActionReply, _Mapping]] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("welcome", "decision", "rejected", "match_end", "events")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    MATCH_END_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    welcome: Welcome
    decision: DecisionRequest
    rejected: ActionRejected
    match_end: MatchEnd
    events: _containers.RepeatedCompositeFieldContainer[Event]
    def __init__(self, welcome: _Optional[_Union[Welcome, _Mapping]] = ..., decision: _Optional[_Union[DecisionRequest, _Mapping]] = ..., rejected: _Optional[_Union[ActionRejected, _Mapping]] = ..., match_end: _Optional[_Union[MatchEnd, _Mapping]] = ..., events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ...) -> None: ...

class Hello(_message.Message):
    __slots__ = ("token", "bot_name", "bot_version", "protocol_version")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    token: str
    bot_name: str
    bot_version: str
    protocol_version: int
    def __init__(self, token: _Optional[str] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., protocol_version: _Optional[int] = ...) -> None: ...

class Welcome(_message.Message):
    __slots__ = ("match_id", "seat", "num_seats", "game", "rules_version", "params", "protocol_version", "clock_rules", "deal_commitment", "reconnect_grace_ms", "match_commitment")
    class ParamsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NUM_SEATS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    CLOCK_RULES_FIELD_NUMBER: _ClassVar[int]
    DEAL_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    RECONNECT_GRACE_MS_FIELD_NUMBER: _ClassVar[int]
    MATCH_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    num_seats: int
    game: str
    rules_version: int
    params: _containers.ScalarMap[str, int]
    protocol_version: int
    clock_rules: ClockRules
    deal_commitment: str
    reconnect_grace_ms: int
    match_commitment: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., num_seats: _Optional[int] = ..., game: _Optional[str] = ..., rules_version: _Optional[int] = ..., params: _Optional[_Mapping[str, int]] = ..., protocol_version: _Optional[int] = ..., clock_rules: _Optional[_Union[ClockRules, _Mapping]] = ..., deal_commitment: _Optional[str] = ..., reconnect_grace_ms: _Optional[int] = ..., match_commitment: _Optional[str] = ...) -> None: ...

class ClockRules(_message.Message):
    __slots__ = ("move_time_ms", "time_bank_ms", "kind", "margin_ms", "seat_cap_ms", "match_cap_ms", "cpu_wall_guard_ms")
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MARGIN_MS_FIELD_NUMBER: _ClassVar[int]
    SEAT_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    MATCH_CAP_MS_FIELD_NUMBER: _ClassVar[int]
    CPU_WALL_GUARD_MS_FIELD_NUMBER: _ClassVar[int]
    move_time_ms: int
    time_bank_ms: int
    kind: ClockKind
    margin_ms: int
    seat_cap_ms: int
    match_cap_ms: int
    cpu_wall_guard_ms: int
    def __init__(self, move_time_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., kind: _Optional[_Union[ClockKind, str]] = ..., margin_ms: _Optional[int] = ..., seat_cap_ms: _Optional[int] = ..., match_cap_ms: _Optional[int] = ..., cpu_wall_guard_ms: _Optional[int] = ...) -> None: ...

class Clocks(_message.Message):
    __slots__ = ("move_time_ms", "time_bank_ms", "last_latency_us")
    MOVE_TIME_MS_FIELD_NUMBER: _ClassVar[int]
    TIME_BANK_MS_FIELD_NUMBER: _ClassVar[int]
    LAST_LATENCY_US_FIELD_NUMBER: _ClassVar[int]
    move_time_ms: int
    time_bank_ms: int
    last_latency_us: int
    def __init__(self, move_time_ms: _Optional[int] = ..., time_bank_ms: _Optional[int] = ..., last_latency_us: _Optional[int] = ...) -> None: ...

class DecisionRequest(_message.Message):
    __slots__ = ("request_id", "observation", "legal_actions", "clocks")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    OBSERVATION_FIELD_NUMBER: _ClassVar[int]
    LEGAL_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    CLOCKS_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    observation: Observation
    legal_actions: _containers.RepeatedCompositeFieldContainer[LegalAction]
    clocks: Clocks
    def __init__(self, request_id: _Optional[int] = ..., observation: _Optional[_Union[Observation, _Mapping]] = ..., legal_actions: _Optional[_Iterable[_Union[LegalAction, _Mapping]]] = ..., clocks: _Optional[_Union[Clocks, _Mapping]] = ...) -> None: ...

class ActionReply(_message.Message):
    __slots__ = ("request_id", "action_id")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    action_id: int
    def __init__(self, request_id: _Optional[int] = ..., action_id: _Optional[int] = ...) -> None: ...

class Observation(_message.Message):
    __slots__ = ("as_nas", "felduz", "fipsen", "scauver")
    AS_NAS_FIELD_NUMBER: _ClassVar[int]
    FELDUZ_FIELD_NUMBER: _ClassVar[int]
    FIPSEN_FIELD_NUMBER: _ClassVar[int]
    SCAUVER_FIELD_NUMBER: _ClassVar[int]
    as_nas: _as_nas_pb2.AsNasObservation
    felduz: _felduz_pb2.FelduzObservation
    fipsen: _fipsen_pb2.FipsenObservation
    scauver: _scauver_pb2.ScauverObservation
    def __init__(self, as_nas: _Optional[_Union[_as_nas_pb2.AsNasObservation, _Mapping]] = ..., felduz: _Optional[_Union[_felduz_pb2.FelduzObservation, _Mapping]] = ..., fipsen: _Optional[_Union[_fipsen_pb2.FipsenObservation, _Mapping]] = ..., scauver: _Optional[_Union[_scauver_pb2.ScauverObservation, _Mapping]] = ...) -> None: ...

class LegalAction(_message.Message):
    __slots__ = ("id", "label", "amounts", "as_nas", "felduz", "fipsen", "scauver")
    ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    AMOUNTS_FIELD_NUMBER: _ClassVar[int]
    AS_NAS_FIELD_NUMBER: _ClassVar[int]
    FELDUZ_FIELD_NUMBER: _ClassVar[int]
    FIPSEN_FIELD_NUMBER: _ClassVar[int]
    SCAUVER_FIELD_NUMBER: _ClassVar[int]
    id: int
    label: str
    amounts: AmountRange
    as_nas: _as_nas_pb2.AsNasAction
    felduz: _felduz_pb2.FelduzAction
    fipsen: _fipsen_pb2.FipsenAction
    scauver: _scauver_pb2.ScauverAction
    def __init__(self, id: _Optional[int] = ..., label: _Optional[str] = ..., amounts: _Optional[_Union[AmountRange, _Mapping]] = ..., as_nas: _Optional[_Union[_as_nas_pb2.AsNasAction, _Mapping]] = ..., felduz: _Optional[_Union[_felduz_pb2.FelduzAction, _Mapping]] = ..., fipsen: _Optional[_Union[_fipsen_pb2.FipsenAction, _Mapping]] = ..., scauver: _Optional[_Union[_scauver_pb2.ScauverAction, _Mapping]] = ...) -> None: ...

class AmountRange(_message.Message):
    __slots__ = ("lowest", "highest", "step")
    LOWEST_FIELD_NUMBER: _ClassVar[int]
    HIGHEST_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    lowest: int
    highest: int
    step: int
    def __init__(self, lowest: _Optional[int] = ..., highest: _Optional[int] = ..., step: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("step", "action_taken", "deal_started", "deal_ended")
    STEP_FIELD_NUMBER: _ClassVar[int]
    ACTION_TAKEN_FIELD_NUMBER: _ClassVar[int]
    DEAL_STARTED_FIELD_NUMBER: _ClassVar[int]
    DEAL_ENDED_FIELD_NUMBER: _ClassVar[int]
    step: int
    action_taken: ActionTaken
    deal_started: DealStarted
    deal_ended: DealEnded
    def __init__(self, step: _Optional[int] = ..., action_taken: _Optional[_Union[ActionTaken, _Mapping]] = ..., deal_started: _Optional[_Union[DealStarted, _Mapping]] = ..., deal_ended: _Optional[_Union[DealEnded, _Mapping]] = ...) -> None: ...

class ActionTaken(_message.Message):
    __slots__ = ("seat", "action_id", "label", "by_arbiter")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    BY_ARBITER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action_id: int
    label: str
    by_arbiter: bool
    def __init__(self, seat: _Optional[int] = ..., action_id: _Optional[int] = ..., label: _Optional[str] = ..., by_arbiter: _Optional[bool] = ...) -> None: ...

class DealStarted(_message.Message):
    __slots__ = ("deal_index", "dealer")
    DEAL_INDEX_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    deal_index: int
    dealer: int
    def __init__(self, deal_index: _Optional[int] = ..., dealer: _Optional[int] = ...) -> None: ...

class DealEnded(_message.Message):
    __slots__ = ("deal_index", "deltas", "totals", "as_nas", "felduz", "fipsen", "scauver", "as_nas_past", "felduz_past", "fipsen_past", "scauver_past")
    DEAL_INDEX_FIELD_NUMBER: _ClassVar[int]
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    AS_NAS_FIELD_NUMBER: _ClassVar[int]
    FELDUZ_FIELD_NUMBER: _ClassVar[int]
    FIPSEN_FIELD_NUMBER: _ClassVar[int]
    SCAUVER_FIELD_NUMBER: _ClassVar[int]
    AS_NAS_PAST_FIELD_NUMBER: _ClassVar[int]
    FELDUZ_PAST_FIELD_NUMBER: _ClassVar[int]
    FIPSEN_PAST_FIELD_NUMBER: _ClassVar[int]
    SCAUVER_PAST_FIELD_NUMBER: _ClassVar[int]
    deal_index: int
    deltas: _containers.RepeatedCompositeFieldContainer[_score_pb2.Score]
    totals: _containers.RepeatedCompositeFieldContainer[_score_pb2.Score]
    as_nas: _as_nas_pb2.AsNasDealResult
    felduz: _felduz_pb2.FelduzRoundResult
    fipsen: _fipsen_pb2.FipsenDealResult
    scauver: _scauver_pb2.ScauverRoundResult
    as_nas_past: _as_nas_pb2.AsNasPastDeal
    felduz_past: _felduz_pb2.FelduzPastRound
    fipsen_past: _fipsen_pb2.FipsenPastDeal
    scauver_past: _scauver_pb2.ScauverPastRound
    def __init__(self, deal_index: _Optional[int] = ..., deltas: _Optional[_Iterable[_Union[_score_pb2.Score, _Mapping]]] = ..., totals: _Optional[_Iterable[_Union[_score_pb2.Score, _Mapping]]] = ..., as_nas: _Optional[_Union[_as_nas_pb2.AsNasDealResult, _Mapping]] = ..., felduz: _Optional[_Union[_felduz_pb2.FelduzRoundResult, _Mapping]] = ..., fipsen: _Optional[_Union[_fipsen_pb2.FipsenDealResult, _Mapping]] = ..., scauver: _Optional[_Union[_scauver_pb2.ScauverRoundResult, _Mapping]] = ..., as_nas_past: _Optional[_Union[_as_nas_pb2.AsNasPastDeal, _Mapping]] = ..., felduz_past: _Optional[_Union[_felduz_pb2.FelduzPastRound, _Mapping]] = ..., fipsen_past: _Optional[_Union[_fipsen_pb2.FipsenPastDeal, _Mapping]] = ..., scauver_past: _Optional[_Union[_scauver_pb2.ScauverPastRound, _Mapping]] = ...) -> None: ...

class ActionRejected(_message.Message):
    __slots__ = ("request_id", "reason", "message", "default_played")
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_PLAYED_FIELD_NUMBER: _ClassVar[int]
    request_id: int
    reason: RejectReason
    message: str
    default_played: bool
    def __init__(self, request_id: _Optional[int] = ..., reason: _Optional[_Union[RejectReason, str]] = ..., message: _Optional[str] = ..., default_played: _Optional[bool] = ...) -> None: ...

class SeatResult(_message.Message):
    __slots__ = ("seat", "bot_name", "score", "place", "outcome", "timeouts", "rejected", "forfeits")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    FORFEITS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot_name: str
    score: _score_pb2.Score
    place: int
    outcome: SeatOutcome
    timeouts: int
    rejected: int
    forfeits: int
    def __init__(self, seat: _Optional[int] = ..., bot_name: _Optional[str] = ..., score: _Optional[_Union[_score_pb2.Score, _Mapping]] = ..., place: _Optional[int] = ..., outcome: _Optional[_Union[SeatOutcome, str]] = ..., timeouts: _Optional[int] = ..., rejected: _Optional[int] = ..., forfeits: _Optional[int] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("results", "cancelled", "seed", "salt", "chance_script_sha256", "seed_decimal", "terms_sha256")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    CHANCE_SCRIPT_SHA256_FIELD_NUMBER: _ClassVar[int]
    SEED_DECIMAL_FIELD_NUMBER: _ClassVar[int]
    TERMS_SHA256_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[SeatResult]
    cancelled: bool
    seed: int
    salt: str
    chance_script_sha256: str
    seed_decimal: str
    terms_sha256: str
    def __init__(self, results: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., cancelled: _Optional[bool] = ..., seed: _Optional[int] = ..., salt: _Optional[str] = ..., chance_script_sha256: _Optional[str] = ..., seed_decimal: _Optional[str] = ..., terms_sha256: _Optional[str] = ...) -> None: ...

class SessionRequest(_message.Message):
    __slots__ = ("hello", "replies")
    HELLO_FIELD_NUMBER: _ClassVar[int]
    REPLIES_FIELD_NUMBER: _ClassVar[int]
    hello: SessionHello
    replies: _containers.RepeatedCompositeFieldContainer[SeatReply]
    def __init__(self, hello: _Optional[_Union[SessionHello, _Mapping]] = ..., replies: _Optional[_Iterable[_Union[SeatReply, _Mapping]]] = ...) -> None: ...

class SessionResponse(_message.Message):
    __slots__ = ("welcome", "seat", "seat_messages")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_MESSAGES_FIELD_NUMBER: _ClassVar[int]
    welcome: SessionWelcome
    seat: SeatAssignment
    seat_messages: _containers.RepeatedCompositeFieldContainer[SeatMessage]
    def __init__(self, welcome: _Optional[_Union[SessionWelcome, _Mapping]] = ..., seat: _Optional[_Union[SeatAssignment, _Mapping]] = ..., seat_messages: _Optional[_Iterable[_Union[SeatMessage, _Mapping]]] = ...) -> None: ...

class SeatMessage(_message.Message):
    __slots__ = ("seat_ref", "message", "assignment")
    SEAT_REF_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    ASSIGNMENT_FIELD_NUMBER: _ClassVar[int]
    seat_ref: int
    message: PlayResponse
    assignment: SeatAssignment
    def __init__(self, seat_ref: _Optional[int] = ..., message: _Optional[_Union[PlayResponse, _Mapping]] = ..., assignment: _Optional[_Union[SeatAssignment, _Mapping]] = ...) -> None: ...

class SeatReply(_message.Message):
    __slots__ = ("seat_ref", "action", "leave")
    SEAT_REF_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    LEAVE_FIELD_NUMBER: _ClassVar[int]
    seat_ref: int
    action: ActionReply
    leave: bool
    def __init__(self, seat_ref: _Optional[int] = ..., action: _Optional[_Union[ActionReply, _Mapping]] = ..., leave: _Optional[bool] = ...) -> None: ...

class SessionHello(_message.Message):
    __slots__ = ("token", "bot_name", "bot_version", "protocol_version", "capacity")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    token: str
    bot_name: str
    bot_version: str
    protocol_version: int
    capacity: int
    def __init__(self, token: _Optional[str] = ..., bot_name: _Optional[str] = ..., bot_version: _Optional[str] = ..., protocol_version: _Optional[int] = ..., capacity: _Optional[int] = ...) -> None: ...

class SessionWelcome(_message.Message):
    __slots__ = ("session_id", "protocol_version", "capacity")
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    PROTOCOL_VERSION_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    session_id: str
    protocol_version: int
    capacity: int
    def __init__(self, session_id: _Optional[str] = ..., protocol_version: _Optional[int] = ..., capacity: _Optional[int] = ...) -> None: ...

class SeatAssignment(_message.Message):
    __slots__ = ("match_id", "game", "seat", "token", "seed")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    seat: int
    token: str
    seed: int
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., seat: _Optional[int] = ..., token: _Optional[str] = ..., seed: _Optional[int] = ...) -> None: ...
