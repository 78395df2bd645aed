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

class AsNasRank(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AS_NAS_RANK_UNSPECIFIED: _ClassVar[AsNasRank]
    AS_NAS_RANK_COULI: _ClassVar[AsNasRank]
    AS_NAS_RANK_SARBAZ: _ClassVar[AsNasRank]
    AS_NAS_RANK_BIBI: _ClassVar[AsNasRank]
    AS_NAS_RANK_SHAH: _ClassVar[AsNasRank]
    AS_NAS_RANK_AS: _ClassVar[AsNasRank]

class AsNasMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    AS_NAS_MOVE_UNSPECIFIED: _ClassVar[AsNasMove]
    AS_NAS_MOVE_LOOK: _ClassVar[AsNasMove]
    AS_NAS_MOVE_FOLD: _ClassVar[AsNasMove]
    AS_NAS_MOVE_CALL: _ClassVar[AsNasMove]
    AS_NAS_MOVE_HOLD: _ClassVar[AsNasMove]
    AS_NAS_MOVE_RAISE: _ClassVar[AsNasMove]

class ChipMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHIP_MOVE_UNSPECIFIED: _ClassVar[ChipMove]
    CHIP_MOVE_IN: _ClassVar[ChipMove]
    CHIP_MOVE_OUT: _ClassVar[ChipMove]
    CHIP_MOVE_BET: _ClassVar[ChipMove]
    CHIP_MOVE_RAISE: _ClassVar[ChipMove]

class FelduzPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FELDUZ_PHASE_UNSPECIFIED: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_DRAW_DEALER: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_DEAL: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_OPENING: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_DRAW: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_BET: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_REVEAL: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_CONTINUE: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_RESERVE: _ClassVar[FelduzPhase]
    FELDUZ_PHASE_OVER: _ClassVar[FelduzPhase]

class FelduzTurnStart(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FELDUZ_TURN_START_UNSPECIFIED: _ClassVar[FelduzTurnStart]
    FELDUZ_TURN_START_BET_ONLY: _ClassVar[FelduzTurnStart]
    FELDUZ_TURN_START_DRAW: _ClassVar[FelduzTurnStart]
    FELDUZ_TURN_START_STAND: _ClassVar[FelduzTurnStart]

class FelduzMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FELDUZ_MOVE_UNSPECIFIED: _ClassVar[FelduzMove]
    FELDUZ_MOVE_CHIPS: _ClassVar[FelduzMove]
    FELDUZ_MOVE_NO_BET: _ClassVar[FelduzMove]
    FELDUZ_MOVE_DRAW: _ClassVar[FelduzMove]
    FELDUZ_MOVE_STAND: _ClassVar[FelduzMove]
    FELDUZ_MOVE_CONTINUE: _ClassVar[FelduzMove]
    FELDUZ_MOVE_OPEN: _ClassVar[FelduzMove]
    FELDUZ_MOVE_REVEAL: _ClassVar[FelduzMove]
    FELDUZ_MOVE_RESERVE: _ClassVar[FelduzMove]

class FelduzCriterion(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FELDUZ_CRITERION_UNSPECIFIED: _ClassVar[FelduzCriterion]
    FELDUZ_CRITERION_QUALIFIED: _ClassVar[FelduzCriterion]
    FELDUZ_CRITERION_POINTS: _ClassVar[FelduzCriterion]
    FELDUZ_CRITERION_RESERVE: _ClassVar[FelduzCriterion]
    FELDUZ_CRITERION_LENGTH: _ClassVar[FelduzCriterion]
    FELDUZ_CRITERION_RANK: _ClassVar[FelduzCriterion]
    FELDUZ_CRITERION_SPLIT: _ClassVar[FelduzCriterion]

class FipsenSuit(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FIPSEN_SUIT_UNSPECIFIED: _ClassVar[FipsenSuit]
    FIPSEN_SUIT_CLUBS: _ClassVar[FipsenSuit]
    FIPSEN_SUIT_SPADES: _ClassVar[FipsenSuit]
    FIPSEN_SUIT_HEARTS: _ClassVar[FipsenSuit]
    FIPSEN_SUIT_DIAMONDS: _ClassVar[FipsenSuit]

class FipsenRank(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FIPSEN_RANK_UNSPECIFIED: _ClassVar[FipsenRank]
    FIPSEN_RANK_SEVEN: _ClassVar[FipsenRank]
    FIPSEN_RANK_EIGHT: _ClassVar[FipsenRank]
    FIPSEN_RANK_NINE: _ClassVar[FipsenRank]
    FIPSEN_RANK_TEN: _ClassVar[FipsenRank]
    FIPSEN_RANK_JACK: _ClassVar[FipsenRank]
    FIPSEN_RANK_QUEEN: _ClassVar[FipsenRank]
    FIPSEN_RANK_KING: _ClassVar[FipsenRank]
    FIPSEN_RANK_ACE: _ClassVar[FipsenRank]

class FipsenMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FIPSEN_MOVE_UNSPECIFIED: _ClassVar[FipsenMove]
    FIPSEN_MOVE_PASS: _ClassVar[FipsenMove]
    FIPSEN_MOVE_HOLD: _ClassVar[FipsenMove]
    FIPSEN_MOVE_BID: _ClassVar[FipsenMove]
    FIPSEN_MOVE_KIEKER: _ClassVar[FipsenMove]
    FIPSEN_MOVE_SIEBENER_FIPS: _ClassVar[FipsenMove]
    FIPSEN_MOVE_DECLINE_FIPS: _ClassVar[FipsenMove]
    FIPSEN_MOVE_TAKE_SKAT: _ClassVar[FipsenMove]
    FIPSEN_MOVE_PLAY_HAND: _ClassVar[FipsenMove]
    FIPSEN_MOVE_DISCARD: _ClassVar[FipsenMove]
    FIPSEN_MOVE_TRUMP: _ClassVar[FipsenMove]
    FIPSEN_MOVE_PLAY: _ClassVar[FipsenMove]
    FIPSEN_MOVE_STOP: _ClassVar[FipsenMove]
    FIPSEN_MOVE_DURCH: _ClassVar[FipsenMove]

class FipsenPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FIPSEN_PHASE_UNSPECIFIED: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_SIEBENER_FIPS: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_BIDDING: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_SKAT: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_DISCARD: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_TRUMP: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_PLAY: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_STOP_OR_DURCH: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_BETWEEN_DEALS: _ClassVar[FipsenPhase]
    FIPSEN_PHASE_OVER: _ClassVar[FipsenPhase]

class FipsenDealOutcome(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FIPSEN_DEAL_OUTCOME_UNSPECIFIED: _ClassVar[FipsenDealOutcome]
    FIPSEN_DEAL_OUTCOME_THROW_IN: _ClassVar[FipsenDealOutcome]
    FIPSEN_DEAL_OUTCOME_SIEBENER_FIPS: _ClassVar[FipsenDealOutcome]
    FIPSEN_DEAL_OUTCOME_WON: _ClassVar[FipsenDealOutcome]
    FIPSEN_DEAL_OUTCOME_LOST: _ClassVar[FipsenDealOutcome]

class ScauverFlank(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCAUVER_FLANK_UNSPECIFIED: _ClassVar[ScauverFlank]
    SCAUVER_FLANK_LEFT: _ClassVar[ScauverFlank]
    SCAUVER_FLANK_RIGHT: _ClassVar[ScauverFlank]

class ScauverMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCAUVER_MOVE_UNSPECIFIED: _ClassVar[ScauverMove]
    SCAUVER_MOVE_CHIPS: _ClassVar[ScauverMove]
    SCAUVER_MOVE_FOLD: _ClassVar[ScauverMove]
    SCAUVER_MOVE_PROCEED: _ClassVar[ScauverMove]
    SCAUVER_MOVE_NO_BET: _ClassVar[ScauverMove]
    SCAUVER_MOVE_PLACE: _ClassVar[ScauverMove]
    SCAUVER_MOVE_PLACE_PAIR: _ClassVar[ScauverMove]
    SCAUVER_MOVE_OPEN: _ClassVar[ScauverMove]

class ScauverPhase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCAUVER_PHASE_UNSPECIFIED: _ClassVar[ScauverPhase]
    SCAUVER_PHASE_DEAL: _ClassVar[ScauverPhase]
    SCAUVER_PHASE_OPENING: _ClassVar[ScauverPhase]
    SCAUVER_PHASE_BET: _ClassVar[ScauverPhase]
    SCAUVER_PHASE_PLACE: _ClassVar[ScauverPhase]
    SCAUVER_PHASE_PLACE_PAIR: _ClassVar[ScauverPhase]
    SCAUVER_PHASE_FINAL_BET: _ClassVar[ScauverPhase]
    SCAUVER_PHASE_TURN_END: _ClassVar[ScauverPhase]
    SCAUVER_PHASE_OVER: _ClassVar[ScauverPhase]

class ScauverCriterion(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SCAUVER_CRITERION_UNSPECIFIED: _ClassVar[ScauverCriterion]
    SCAUVER_CRITERION_LONE_WINNER: _ClassVar[ScauverCriterion]
    SCAUVER_CRITERION_LINKED: _ClassVar[ScauverCriterion]
    SCAUVER_CRITERION_SCORE: _ClassVar[ScauverCriterion]
    SCAUVER_CRITERION_SIZE: _ClassVar[ScauverCriterion]
    SCAUVER_CRITERION_SHAPE: _ClassVar[ScauverCriterion]
    SCAUVER_CRITERION_HEIGHT: _ClassVar[ScauverCriterion]
    SCAUVER_CRITERION_DIFFERENCE: _ClassVar[ScauverCriterion]
    SCAUVER_CRITERION_TIE: _ClassVar[ScauverCriterion]
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
AS_NAS_RANK_UNSPECIFIED: AsNasRank
AS_NAS_RANK_COULI: AsNasRank
AS_NAS_RANK_SARBAZ: AsNasRank
AS_NAS_RANK_BIBI: AsNasRank
AS_NAS_RANK_SHAH: AsNasRank
AS_NAS_RANK_AS: AsNasRank
AS_NAS_MOVE_UNSPECIFIED: AsNasMove
AS_NAS_MOVE_LOOK: AsNasMove
AS_NAS_MOVE_FOLD: AsNasMove
AS_NAS_MOVE_CALL: AsNasMove
AS_NAS_MOVE_HOLD: AsNasMove
AS_NAS_MOVE_RAISE: AsNasMove
CHIP_MOVE_UNSPECIFIED: ChipMove
CHIP_MOVE_IN: ChipMove
CHIP_MOVE_OUT: ChipMove
CHIP_MOVE_BET: ChipMove
CHIP_MOVE_RAISE: ChipMove
FELDUZ_PHASE_UNSPECIFIED: FelduzPhase
FELDUZ_PHASE_DRAW_DEALER: FelduzPhase
FELDUZ_PHASE_DEAL: FelduzPhase
FELDUZ_PHASE_OPENING: FelduzPhase
FELDUZ_PHASE_DRAW: FelduzPhase
FELDUZ_PHASE_BET: FelduzPhase
FELDUZ_PHASE_REVEAL: FelduzPhase
FELDUZ_PHASE_CONTINUE: FelduzPhase
FELDUZ_PHASE_RESERVE: FelduzPhase
FELDUZ_PHASE_OVER: FelduzPhase
FELDUZ_TURN_START_UNSPECIFIED: FelduzTurnStart
FELDUZ_TURN_START_BET_ONLY: FelduzTurnStart
FELDUZ_TURN_START_DRAW: FelduzTurnStart
FELDUZ_TURN_START_STAND: FelduzTurnStart
FELDUZ_MOVE_UNSPECIFIED: FelduzMove
FELDUZ_MOVE_CHIPS: FelduzMove
FELDUZ_MOVE_NO_BET: FelduzMove
FELDUZ_MOVE_DRAW: FelduzMove
FELDUZ_MOVE_STAND: FelduzMove
FELDUZ_MOVE_CONTINUE: FelduzMove
FELDUZ_MOVE_OPEN: FelduzMove
FELDUZ_MOVE_REVEAL: FelduzMove
FELDUZ_MOVE_RESERVE: FelduzMove
FELDUZ_CRITERION_UNSPECIFIED: FelduzCriterion
FELDUZ_CRITERION_QUALIFIED: FelduzCriterion
FELDUZ_CRITERION_POINTS: FelduzCriterion
FELDUZ_CRITERION_RESERVE: FelduzCriterion
FELDUZ_CRITERION_LENGTH: FelduzCriterion
FELDUZ_CRITERION_RANK: FelduzCriterion
FELDUZ_CRITERION_SPLIT: FelduzCriterion
FIPSEN_SUIT_UNSPECIFIED: FipsenSuit
FIPSEN_SUIT_CLUBS: FipsenSuit
FIPSEN_SUIT_SPADES: FipsenSuit
FIPSEN_SUIT_HEARTS: FipsenSuit
FIPSEN_SUIT_DIAMONDS: FipsenSuit
FIPSEN_RANK_UNSPECIFIED: FipsenRank
FIPSEN_RANK_SEVEN: FipsenRank
FIPSEN_RANK_EIGHT: FipsenRank
FIPSEN_RANK_NINE: FipsenRank
FIPSEN_RANK_TEN: FipsenRank
FIPSEN_RANK_JACK: FipsenRank
FIPSEN_RANK_QUEEN: FipsenRank
FIPSEN_RANK_KING: FipsenRank
FIPSEN_RANK_ACE: FipsenRank
FIPSEN_MOVE_UNSPECIFIED: FipsenMove
FIPSEN_MOVE_PASS: FipsenMove
FIPSEN_MOVE_HOLD: FipsenMove
FIPSEN_MOVE_BID: FipsenMove
FIPSEN_MOVE_KIEKER: FipsenMove
FIPSEN_MOVE_SIEBENER_FIPS: FipsenMove
FIPSEN_MOVE_DECLINE_FIPS: FipsenMove
FIPSEN_MOVE_TAKE_SKAT: FipsenMove
FIPSEN_MOVE_PLAY_HAND: FipsenMove
FIPSEN_MOVE_DISCARD: FipsenMove
FIPSEN_MOVE_TRUMP: FipsenMove
FIPSEN_MOVE_PLAY: FipsenMove
FIPSEN_MOVE_STOP: FipsenMove
FIPSEN_MOVE_DURCH: FipsenMove
FIPSEN_PHASE_UNSPECIFIED: FipsenPhase
FIPSEN_PHASE_SIEBENER_FIPS: FipsenPhase
FIPSEN_PHASE_BIDDING: FipsenPhase
FIPSEN_PHASE_SKAT: FipsenPhase
FIPSEN_PHASE_DISCARD: FipsenPhase
FIPSEN_PHASE_TRUMP: FipsenPhase
FIPSEN_PHASE_PLAY: FipsenPhase
FIPSEN_PHASE_STOP_OR_DURCH: FipsenPhase
FIPSEN_PHASE_BETWEEN_DEALS: FipsenPhase
FIPSEN_PHASE_OVER: FipsenPhase
FIPSEN_DEAL_OUTCOME_UNSPECIFIED: FipsenDealOutcome
FIPSEN_DEAL_OUTCOME_THROW_IN: FipsenDealOutcome
FIPSEN_DEAL_OUTCOME_SIEBENER_FIPS: FipsenDealOutcome
FIPSEN_DEAL_OUTCOME_WON: FipsenDealOutcome
FIPSEN_DEAL_OUTCOME_LOST: FipsenDealOutcome
SCAUVER_FLANK_UNSPECIFIED: ScauverFlank
SCAUVER_FLANK_LEFT: ScauverFlank
SCAUVER_FLANK_RIGHT: ScauverFlank
SCAUVER_MOVE_UNSPECIFIED: ScauverMove
SCAUVER_MOVE_CHIPS: ScauverMove
SCAUVER_MOVE_FOLD: ScauverMove
SCAUVER_MOVE_PROCEED: ScauverMove
SCAUVER_MOVE_NO_BET: ScauverMove
SCAUVER_MOVE_PLACE: ScauverMove
SCAUVER_MOVE_PLACE_PAIR: ScauverMove
SCAUVER_MOVE_OPEN: ScauverMove
SCAUVER_PHASE_UNSPECIFIED: ScauverPhase
SCAUVER_PHASE_DEAL: ScauverPhase
SCAUVER_PHASE_OPENING: ScauverPhase
SCAUVER_PHASE_BET: ScauverPhase
SCAUVER_PHASE_PLACE: ScauverPhase
SCAUVER_PHASE_PLACE_PAIR: ScauverPhase
SCAUVER_PHASE_FINAL_BET: ScauverPhase
SCAUVER_PHASE_TURN_END: ScauverPhase
SCAUVER_PHASE_OVER: ScauverPhase
SCAUVER_CRITERION_UNSPECIFIED: ScauverCriterion
SCAUVER_CRITERION_LONE_WINNER: ScauverCriterion
SCAUVER_CRITERION_LINKED: ScauverCriterion
SCAUVER_CRITERION_SCORE: ScauverCriterion
SCAUVER_CRITERION_SIZE: ScauverCriterion
SCAUVER_CRITERION_SHAPE: ScauverCriterion
SCAUVER_CRITERION_HEIGHT: ScauverCriterion
SCAUVER_CRITERION_DIFFERENCE: ScauverCriterion
SCAUVER_CRITERION_TIE: ScauverCriterion

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
    __slots__ = ("match_id", "seat", "num_seats", "game", "rules_version", "params", "protocol_version", "clock_rules", "deal_commitment")
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
    match_id: str
    seat: int
    num_seats: int
    game: str
    rules_version: int
    params: _containers.ScalarMap[str, int]
    protocol_version: int
    clock_rules: ClockRules
    deal_commitment: str
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ..., num_seats: _Optional[int] = ..., game: _Optional[str] = ..., rules_version: _Optional[int] = ..., params: _Optional[_Mapping[str, int]] = ..., protocol_version: _Optional[int] = ..., clock_rules: _Optional[_Union[ClockRules, _Mapping]] = ..., deal_commitment: _Optional[str] = ...) -> None: ...

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
    as_nas: AsNasObservation
    felduz: FelduzObservation
    fipsen: FipsenObservation
    scauver: ScauverObservation
    def __init__(self, as_nas: _Optional[_Union[AsNasObservation, _Mapping]] = ..., felduz: _Optional[_Union[FelduzObservation, _Mapping]] = ..., fipsen: _Optional[_Union[FipsenObservation, _Mapping]] = ..., scauver: _Optional[_Union[ScauverObservation, _Mapping]] = ...) -> None: ...

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
    as_nas: AsNasAction
    felduz: FelduzAction
    fipsen: FipsenAction
    scauver: ScauverAction
    def __init__(self, id: _Optional[int] = ..., label: _Optional[str] = ..., amounts: _Optional[_Union[AmountRange, _Mapping]] = ..., as_nas: _Optional[_Union[AsNasAction, _Mapping]] = ..., felduz: _Optional[_Union[FelduzAction, _Mapping]] = ..., fipsen: _Optional[_Union[FipsenAction, _Mapping]] = ..., scauver: _Optional[_Union[ScauverAction, _Mapping]] = ...) -> None: ...

class AmountRange(_message.Message):
    __slots__ = ("lowest", "highest", "step")
    LOWEST_FIELD_NUMBER: _ClassVar[int]
    HIGHEST_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    lowest: int
    highest: int
    step: int
    def __init__(self, lowest: _Optional[int] = ..., highest: _Optional[int] = ..., step: _Optional[int] = ...) -> None: ...

class Score(_message.Message):
    __slots__ = ("numerator", "denominator")
    NUMERATOR_FIELD_NUMBER: _ClassVar[int]
    DENOMINATOR_FIELD_NUMBER: _ClassVar[int]
    numerator: int
    denominator: int
    def __init__(self, numerator: _Optional[int] = ..., denominator: _Optional[int] = ...) -> None: ...

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
    deltas: _containers.RepeatedCompositeFieldContainer[Score]
    totals: _containers.RepeatedCompositeFieldContainer[Score]
    as_nas: AsNasDealResult
    felduz: FelduzRoundResult
    fipsen: FipsenDealResult
    scauver: ScauverRoundResult
    as_nas_past: AsNasPastDeal
    felduz_past: FelduzPastRound
    fipsen_past: FipsenPastDeal
    scauver_past: ScauverPastRound
    def __init__(self, deal_index: _Optional[int] = ..., deltas: _Optional[_Iterable[_Union[Score, _Mapping]]] = ..., totals: _Optional[_Iterable[_Union[Score, _Mapping]]] = ..., as_nas: _Optional[_Union[AsNasDealResult, _Mapping]] = ..., felduz: _Optional[_Union[FelduzRoundResult, _Mapping]] = ..., fipsen: _Optional[_Union[FipsenDealResult, _Mapping]] = ..., scauver: _Optional[_Union[ScauverRoundResult, _Mapping]] = ..., as_nas_past: _Optional[_Union[AsNasPastDeal, _Mapping]] = ..., felduz_past: _Optional[_Union[FelduzPastRound, _Mapping]] = ..., fipsen_past: _Optional[_Union[FipsenPastDeal, _Mapping]] = ..., scauver_past: _Optional[_Union[ScauverPastRound, _Mapping]] = ...) -> None: ...

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
    __slots__ = ("seat", "bot_name", "score", "place", "outcome", "timeouts", "rejected")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    TIMEOUTS_FIELD_NUMBER: _ClassVar[int]
    REJECTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot_name: str
    score: Score
    place: int
    outcome: SeatOutcome
    timeouts: int
    rejected: int
    def __init__(self, seat: _Optional[int] = ..., bot_name: _Optional[str] = ..., score: _Optional[_Union[Score, _Mapping]] = ..., place: _Optional[int] = ..., outcome: _Optional[_Union[SeatOutcome, str]] = ..., timeouts: _Optional[int] = ..., rejected: _Optional[int] = ...) -> None: ...

class MatchEnd(_message.Message):
    __slots__ = ("results", "cancelled", "seed", "salt", "chance_script_sha256")
    RESULTS_FIELD_NUMBER: _ClassVar[int]
    CANCELLED_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    CHANCE_SCRIPT_SHA256_FIELD_NUMBER: _ClassVar[int]
    results: _containers.RepeatedCompositeFieldContainer[SeatResult]
    cancelled: bool
    seed: int
    salt: str
    chance_script_sha256: str
    def __init__(self, results: _Optional[_Iterable[_Union[SeatResult, _Mapping]]] = ..., cancelled: _Optional[bool] = ..., seed: _Optional[int] = ..., salt: _Optional[str] = ..., chance_script_sha256: _Optional[str] = ...) -> None: ...

class SessionRequest(_message.Message):
    __slots__ = ("hello",)
    HELLO_FIELD_NUMBER: _ClassVar[int]
    hello: SessionHello
    def __init__(self, hello: _Optional[_Union[SessionHello, _Mapping]] = ...) -> None: ...

class SessionResponse(_message.Message):
    __slots__ = ("welcome", "seat")
    WELCOME_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    welcome: SessionWelcome
    seat: SeatAssignment
    def __init__(self, welcome: _Optional[_Union[SessionWelcome, _Mapping]] = ..., seat: _Optional[_Union[SeatAssignment, _Mapping]] = ...) -> None: ...

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

class AsNasAction(_message.Message):
    __slots__ = ("move", "stake_after")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    STAKE_AFTER_FIELD_NUMBER: _ClassVar[int]
    move: AsNasMove
    stake_after: int
    def __init__(self, move: _Optional[_Union[AsNasMove, str]] = ..., stake_after: _Optional[int] = ...) -> None: ...

class AsNasSeat(_message.Message):
    __slots__ = ("stake", "folded", "looked", "total")
    STAKE_FIELD_NUMBER: _ClassVar[int]
    FOLDED_FIELD_NUMBER: _ClassVar[int]
    LOOKED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    stake: int
    folded: bool
    looked: bool
    total: Score
    def __init__(self, stake: _Optional[int] = ..., folded: _Optional[bool] = ..., looked: _Optional[bool] = ..., total: _Optional[_Union[Score, _Mapping]] = ...) -> None: ...

class AsNasHistoryEntry(_message.Message):
    __slots__ = ("seat", "move")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    move: AsNasMove
    def __init__(self, seat: _Optional[int] = ..., move: _Optional[_Union[AsNasMove, str]] = ...) -> None: ...

class AsNasShownHand(_message.Message):
    __slots__ = ("seat", "ranks")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RANKS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ranks: _containers.RepeatedScalarFieldContainer[AsNasRank]
    def __init__(self, seat: _Optional[int] = ..., ranks: _Optional[_Iterable[_Union[AsNasRank, str]]] = ...) -> None: ...

class AsNasDealResult(_message.Message):
    __slots__ = ("deal_index", "dealer", "shown", "winners", "pot", "deltas")
    DEAL_INDEX_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    deal_index: int
    dealer: int
    shown: _containers.RepeatedCompositeFieldContainer[AsNasShownHand]
    winners: _containers.RepeatedScalarFieldContainer[int]
    pot: int
    deltas: _containers.RepeatedCompositeFieldContainer[Score]
    def __init__(self, deal_index: _Optional[int] = ..., dealer: _Optional[int] = ..., shown: _Optional[_Iterable[_Union[AsNasShownHand, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., pot: _Optional[int] = ..., deltas: _Optional[_Iterable[_Union[Score, _Mapping]]] = ...) -> None: ...

class AsNasObservation(_message.Message):
    __slots__ = ("deal_index", "num_deals", "dealer", "to_act", "hand", "seats", "high_bet", "pot", "history")
    DEAL_INDEX_FIELD_NUMBER: _ClassVar[int]
    NUM_DEALS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HIGH_BET_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    deal_index: int
    num_deals: int
    dealer: int
    to_act: int
    hand: _containers.RepeatedScalarFieldContainer[AsNasRank]
    seats: _containers.RepeatedCompositeFieldContainer[AsNasSeat]
    high_bet: int
    pot: int
    history: _containers.RepeatedCompositeFieldContainer[AsNasHistoryEntry]
    def __init__(self, deal_index: _Optional[int] = ..., num_deals: _Optional[int] = ..., dealer: _Optional[int] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[AsNasRank, str]]] = ..., seats: _Optional[_Iterable[_Union[AsNasSeat, _Mapping]]] = ..., high_bet: _Optional[int] = ..., pot: _Optional[int] = ..., history: _Optional[_Iterable[_Union[AsNasHistoryEntry, _Mapping]]] = ...) -> None: ...

class AsNasPastDeal(_message.Message):
    __slots__ = ("history", "result")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[AsNasHistoryEntry]
    result: AsNasDealResult
    def __init__(self, history: _Optional[_Iterable[_Union[AsNasHistoryEntry, _Mapping]]] = ..., result: _Optional[_Union[AsNasDealResult, _Mapping]] = ...) -> None: ...

class Card40(_message.Message):
    __slots__ = ("id", "value", "label")
    ID_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    id: int
    value: int
    label: str
    def __init__(self, id: _Optional[int] = ..., value: _Optional[int] = ..., label: _Optional[str] = ...) -> None: ...

class ChipTable(_message.Message):
    __slots__ = ("stacks", "committed", "live", "eliminated_after_round", "round", "round_cap", "dealer", "amphora", "cap", "pot", "bet")
    STACKS_FIELD_NUMBER: _ClassVar[int]
    COMMITTED_FIELD_NUMBER: _ClassVar[int]
    LIVE_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_AFTER_ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUND_CAP_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    AMPHORA_FIELD_NUMBER: _ClassVar[int]
    CAP_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    BET_FIELD_NUMBER: _ClassVar[int]
    stacks: _containers.RepeatedScalarFieldContainer[int]
    committed: _containers.RepeatedScalarFieldContainer[int]
    live: _containers.RepeatedScalarFieldContainer[bool]
    eliminated_after_round: _containers.RepeatedScalarFieldContainer[int]
    round: int
    round_cap: int
    dealer: int
    amphora: int
    cap: int
    pot: int
    bet: ChipBet
    def __init__(self, stacks: _Optional[_Iterable[int]] = ..., committed: _Optional[_Iterable[int]] = ..., live: _Optional[_Iterable[bool]] = ..., eliminated_after_round: _Optional[_Iterable[int]] = ..., round: _Optional[int] = ..., round_cap: _Optional[int] = ..., dealer: _Optional[int] = ..., amphora: _Optional[int] = ..., cap: _Optional[int] = ..., pot: _Optional[int] = ..., bet: _Optional[_Union[ChipBet, _Mapping]] = ...) -> None: ...

class ChipBet(_message.Message):
    __slots__ = ("bettor", "level", "contributions", "to_act", "max_level")
    BETTOR_FIELD_NUMBER: _ClassVar[int]
    LEVEL_FIELD_NUMBER: _ClassVar[int]
    CONTRIBUTIONS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    MAX_LEVEL_FIELD_NUMBER: _ClassVar[int]
    bettor: int
    level: int
    contributions: _containers.RepeatedScalarFieldContainer[int]
    to_act: int
    max_level: int
    def __init__(self, bettor: _Optional[int] = ..., level: _Optional[int] = ..., contributions: _Optional[_Iterable[int]] = ..., to_act: _Optional[int] = ..., max_level: _Optional[int] = ...) -> None: ...

class ChipAction(_message.Message):
    __slots__ = ("move", "amount")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    move: ChipMove
    amount: int
    def __init__(self, move: _Optional[_Union[ChipMove, str]] = ..., amount: _Optional[int] = ...) -> None: ...

class ChipSettlement(_message.Message):
    __slots__ = ("winners", "pot", "shares", "eliminated", "showdown")
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    SHARES_FIELD_NUMBER: _ClassVar[int]
    ELIMINATED_FIELD_NUMBER: _ClassVar[int]
    SHOWDOWN_FIELD_NUMBER: _ClassVar[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    pot: int
    shares: _containers.RepeatedScalarFieldContainer[int]
    eliminated: _containers.RepeatedScalarFieldContainer[int]
    showdown: bool
    def __init__(self, winners: _Optional[_Iterable[int]] = ..., pot: _Optional[int] = ..., shares: _Optional[_Iterable[int]] = ..., eliminated: _Optional[_Iterable[int]] = ..., showdown: _Optional[bool] = ...) -> None: ...

class FelduzAction(_message.Message):
    __slots__ = ("move", "chip", "cards")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    CHIP_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    move: FelduzMove
    chip: ChipAction
    cards: _containers.RepeatedCompositeFieldContainer[Card40]
    def __init__(self, move: _Optional[_Union[FelduzMove, str]] = ..., chip: _Optional[_Union[ChipAction, _Mapping]] = ..., cards: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ...) -> None: ...

class FelduzShowdownEvent(_message.Message):
    __slots__ = ("criterion", "seats")
    CRITERION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    criterion: FelduzCriterion
    seats: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, criterion: _Optional[_Union[FelduzCriterion, str]] = ..., seats: _Optional[_Iterable[int]] = ...) -> None: ...

class FelduzShownField(_message.Message):
    __slots__ = ("seat", "field", "reserve", "field_sum", "reserve_sum")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    FIELD_SUM_FIELD_NUMBER: _ClassVar[int]
    RESERVE_SUM_FIELD_NUMBER: _ClassVar[int]
    seat: int
    field: _containers.RepeatedCompositeFieldContainer[Card40]
    reserve: _containers.RepeatedCompositeFieldContainer[Card40]
    field_sum: int
    reserve_sum: int
    def __init__(self, seat: _Optional[int] = ..., field: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., reserve: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., field_sum: _Optional[int] = ..., reserve_sum: _Optional[int] = ...) -> None: ...

class FelduzRoundResult(_message.Message):
    __slots__ = ("round", "dealer", "settlement", "shown", "events")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    round: int
    dealer: int
    settlement: ChipSettlement
    shown: _containers.RepeatedCompositeFieldContainer[FelduzShownField]
    events: _containers.RepeatedCompositeFieldContainer[FelduzShowdownEvent]
    def __init__(self, round: _Optional[int] = ..., dealer: _Optional[int] = ..., settlement: _Optional[_Union[ChipSettlement, _Mapping]] = ..., shown: _Optional[_Iterable[_Union[FelduzShownField, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[FelduzShowdownEvent, _Mapping]]] = ...) -> None: ...

class FelduzHistoryEntry(_message.Message):
    __slots__ = ("seat", "action_id", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action_id: int
    action: FelduzAction
    def __init__(self, seat: _Optional[int] = ..., action_id: _Optional[int] = ..., action: _Optional[_Union[FelduzAction, _Mapping]] = ...) -> None: ...

class FelduzPastRound(_message.Message):
    __slots__ = ("history", "result")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[FelduzHistoryEntry]
    result: FelduzRoundResult
    def __init__(self, history: _Optional[_Iterable[_Union[FelduzHistoryEntry, _Mapping]]] = ..., result: _Optional[_Union[FelduzRoundResult, _Mapping]] = ...) -> None: ...

class FelduzSeat(_message.Message):
    __slots__ = ("open", "closed_count", "reserve_count", "stood", "chosen")
    OPEN_FIELD_NUMBER: _ClassVar[int]
    CLOSED_COUNT_FIELD_NUMBER: _ClassVar[int]
    RESERVE_COUNT_FIELD_NUMBER: _ClassVar[int]
    STOOD_FIELD_NUMBER: _ClassVar[int]
    CHOSEN_FIELD_NUMBER: _ClassVar[int]
    open: _containers.RepeatedCompositeFieldContainer[Card40]
    closed_count: int
    reserve_count: int
    stood: bool
    chosen: bool
    def __init__(self, open: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., closed_count: _Optional[int] = ..., reserve_count: _Optional[int] = ..., stood: _Optional[bool] = ..., chosen: _Optional[bool] = ...) -> None: ...

class FelduzObservation(_message.Message):
    __slots__ = ("round", "round_cap", "phase", "to_act", "turn", "turn_start", "table", "seats", "stock", "closed", "reserve", "history")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ROUND_CAP_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    TURN_START_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STOCK_FIELD_NUMBER: _ClassVar[int]
    CLOSED_FIELD_NUMBER: _ClassVar[int]
    RESERVE_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    round: int
    round_cap: int
    phase: FelduzPhase
    to_act: int
    turn: int
    turn_start: FelduzTurnStart
    table: ChipTable
    seats: _containers.RepeatedCompositeFieldContainer[FelduzSeat]
    stock: int
    closed: _containers.RepeatedCompositeFieldContainer[Card40]
    reserve: _containers.RepeatedCompositeFieldContainer[Card40]
    history: _containers.RepeatedCompositeFieldContainer[FelduzHistoryEntry]
    def __init__(self, round: _Optional[int] = ..., round_cap: _Optional[int] = ..., phase: _Optional[_Union[FelduzPhase, str]] = ..., to_act: _Optional[int] = ..., turn: _Optional[int] = ..., turn_start: _Optional[_Union[FelduzTurnStart, str]] = ..., table: _Optional[_Union[ChipTable, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[FelduzSeat, _Mapping]]] = ..., stock: _Optional[int] = ..., closed: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., reserve: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[FelduzHistoryEntry, _Mapping]]] = ...) -> None: ...

class FipsenCard(_message.Message):
    __slots__ = ("id", "suit", "rank")
    ID_FIELD_NUMBER: _ClassVar[int]
    SUIT_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    id: int
    suit: FipsenSuit
    rank: FipsenRank
    def __init__(self, id: _Optional[int] = ..., suit: _Optional[_Union[FipsenSuit, str]] = ..., rank: _Optional[_Union[FipsenRank, str]] = ...) -> None: ...

class FipsenBid(_message.Message):
    __slots__ = ("tricks", "hand", "ruten", "durch", "kieker")
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    RUTEN_FIELD_NUMBER: _ClassVar[int]
    DURCH_FIELD_NUMBER: _ClassVar[int]
    KIEKER_FIELD_NUMBER: _ClassVar[int]
    tricks: int
    hand: bool
    ruten: bool
    durch: bool
    kieker: bool
    def __init__(self, tricks: _Optional[int] = ..., hand: _Optional[bool] = ..., ruten: _Optional[bool] = ..., durch: _Optional[bool] = ..., kieker: _Optional[bool] = ...) -> None: ...

class FipsenAction(_message.Message):
    __slots__ = ("move", "bid", "card", "trump")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    BID_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    move: FipsenMove
    bid: FipsenBid
    card: FipsenCard
    trump: FipsenSuit
    def __init__(self, move: _Optional[_Union[FipsenMove, str]] = ..., bid: _Optional[_Union[FipsenBid, _Mapping]] = ..., card: _Optional[_Union[FipsenCard, _Mapping]] = ..., trump: _Optional[_Union[FipsenSuit, str]] = ...) -> None: ...

class FipsenHistoryEntry(_message.Message):
    __slots__ = ("seat", "action_id", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action_id: int
    action: FipsenAction
    def __init__(self, seat: _Optional[int] = ..., action_id: _Optional[int] = ..., action: _Optional[_Union[FipsenAction, _Mapping]] = ...) -> None: ...

class FipsenTrick(_message.Message):
    __slots__ = ("leader", "cards", "winner")
    LEADER_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    leader: int
    cards: _containers.RepeatedCompositeFieldContainer[FipsenCard]
    winner: int
    def __init__(self, leader: _Optional[int] = ..., cards: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., winner: _Optional[int] = ...) -> None: ...

class FipsenDealResult(_message.Message):
    __slots__ = ("deal_index", "dealer", "outcome", "declarer", "contract", "trump", "hand", "ruten", "durch", "declarer_tricks", "value", "revealed", "deltas")
    DEAL_INDEX_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    RUTEN_FIELD_NUMBER: _ClassVar[int]
    DURCH_FIELD_NUMBER: _ClassVar[int]
    DECLARER_TRICKS_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    DELTAS_FIELD_NUMBER: _ClassVar[int]
    deal_index: int
    dealer: int
    outcome: FipsenDealOutcome
    declarer: int
    contract: FipsenBid
    trump: FipsenSuit
    hand: bool
    ruten: bool
    durch: bool
    declarer_tricks: int
    value: int
    revealed: _containers.RepeatedCompositeFieldContainer[FipsenCard]
    deltas: _containers.RepeatedCompositeFieldContainer[Score]
    def __init__(self, deal_index: _Optional[int] = ..., dealer: _Optional[int] = ..., outcome: _Optional[_Union[FipsenDealOutcome, str]] = ..., declarer: _Optional[int] = ..., contract: _Optional[_Union[FipsenBid, _Mapping]] = ..., trump: _Optional[_Union[FipsenSuit, str]] = ..., hand: _Optional[bool] = ..., ruten: _Optional[bool] = ..., durch: _Optional[bool] = ..., declarer_tricks: _Optional[int] = ..., value: _Optional[int] = ..., revealed: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., deltas: _Optional[_Iterable[_Union[Score, _Mapping]]] = ...) -> None: ...

class FipsenPastDeal(_message.Message):
    __slots__ = ("history", "result")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[FipsenHistoryEntry]
    result: FipsenDealResult
    def __init__(self, history: _Optional[_Iterable[_Union[FipsenHistoryEntry, _Mapping]]] = ..., result: _Optional[_Union[FipsenDealResult, _Mapping]] = ...) -> None: ...

class FipsenObservation(_message.Message):
    __slots__ = ("deal_index", "num_deals", "dealer", "phase", "to_act", "hand", "history", "standing_bid", "passed", "declarer", "contract", "trump", "hand_applied", "ruten_applied", "durch_applied", "skat_taken", "skat", "discards", "tricks", "trick_leader", "trick_cards", "declarer_tricks", "defender_tricks", "totals")
    DEAL_INDEX_FIELD_NUMBER: _ClassVar[int]
    NUM_DEALS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    STANDING_BID_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    DECLARER_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    TRUMP_FIELD_NUMBER: _ClassVar[int]
    HAND_APPLIED_FIELD_NUMBER: _ClassVar[int]
    RUTEN_APPLIED_FIELD_NUMBER: _ClassVar[int]
    DURCH_APPLIED_FIELD_NUMBER: _ClassVar[int]
    SKAT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SKAT_FIELD_NUMBER: _ClassVar[int]
    DISCARDS_FIELD_NUMBER: _ClassVar[int]
    TRICKS_FIELD_NUMBER: _ClassVar[int]
    TRICK_LEADER_FIELD_NUMBER: _ClassVar[int]
    TRICK_CARDS_FIELD_NUMBER: _ClassVar[int]
    DECLARER_TRICKS_FIELD_NUMBER: _ClassVar[int]
    DEFENDER_TRICKS_FIELD_NUMBER: _ClassVar[int]
    TOTALS_FIELD_NUMBER: _ClassVar[int]
    deal_index: int
    num_deals: int
    dealer: int
    phase: FipsenPhase
    to_act: int
    hand: _containers.RepeatedCompositeFieldContainer[FipsenCard]
    history: _containers.RepeatedCompositeFieldContainer[FipsenHistoryEntry]
    standing_bid: FipsenBid
    passed: _containers.RepeatedScalarFieldContainer[bool]
    declarer: int
    contract: FipsenBid
    trump: FipsenSuit
    hand_applied: bool
    ruten_applied: bool
    durch_applied: bool
    skat_taken: bool
    skat: _containers.RepeatedCompositeFieldContainer[FipsenCard]
    discards: _containers.RepeatedCompositeFieldContainer[FipsenCard]
    tricks: _containers.RepeatedCompositeFieldContainer[FipsenTrick]
    trick_leader: int
    trick_cards: _containers.RepeatedCompositeFieldContainer[FipsenCard]
    declarer_tricks: int
    defender_tricks: int
    totals: _containers.RepeatedCompositeFieldContainer[Score]
    def __init__(self, deal_index: _Optional[int] = ..., num_deals: _Optional[int] = ..., dealer: _Optional[int] = ..., phase: _Optional[_Union[FipsenPhase, str]] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[FipsenHistoryEntry, _Mapping]]] = ..., standing_bid: _Optional[_Union[FipsenBid, _Mapping]] = ..., passed: _Optional[_Iterable[bool]] = ..., declarer: _Optional[int] = ..., contract: _Optional[_Union[FipsenBid, _Mapping]] = ..., trump: _Optional[_Union[FipsenSuit, str]] = ..., hand_applied: _Optional[bool] = ..., ruten_applied: _Optional[bool] = ..., durch_applied: _Optional[bool] = ..., skat_taken: _Optional[bool] = ..., skat: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., discards: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[FipsenTrick, _Mapping]]] = ..., trick_leader: _Optional[int] = ..., trick_cards: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., declarer_tricks: _Optional[int] = ..., defender_tricks: _Optional[int] = ..., totals: _Optional[_Iterable[_Union[Score, _Mapping]]] = ...) -> None: ...

class ScauverPlacement(_message.Message):
    __slots__ = ("card", "flank")
    CARD_FIELD_NUMBER: _ClassVar[int]
    FLANK_FIELD_NUMBER: _ClassVar[int]
    card: Card40
    flank: ScauverFlank
    def __init__(self, card: _Optional[_Union[Card40, _Mapping]] = ..., flank: _Optional[_Union[ScauverFlank, str]] = ...) -> None: ...

class ScauverAction(_message.Message):
    __slots__ = ("move", "chip", "placements")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    CHIP_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    move: ScauverMove
    chip: ChipAction
    placements: _containers.RepeatedCompositeFieldContainer[ScauverPlacement]
    def __init__(self, move: _Optional[_Union[ScauverMove, str]] = ..., chip: _Optional[_Union[ChipAction, _Mapping]] = ..., placements: _Optional[_Iterable[_Union[ScauverPlacement, _Mapping]]] = ...) -> None: ...

class ScauverField(_message.Message):
    __slots__ = ("left", "right")
    LEFT_FIELD_NUMBER: _ClassVar[int]
    RIGHT_FIELD_NUMBER: _ClassVar[int]
    left: _containers.RepeatedCompositeFieldContainer[Card40]
    right: _containers.RepeatedCompositeFieldContainer[Card40]
    def __init__(self, left: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., right: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ...) -> None: ...

class ScauverSeat(_message.Message):
    __slots__ = ("field", "hand_size", "opened")
    FIELD_FIELD_NUMBER: _ClassVar[int]
    HAND_SIZE_FIELD_NUMBER: _ClassVar[int]
    OPENED_FIELD_NUMBER: _ClassVar[int]
    field: ScauverField
    hand_size: int
    opened: bool
    def __init__(self, field: _Optional[_Union[ScauverField, _Mapping]] = ..., hand_size: _Optional[int] = ..., opened: _Optional[bool] = ...) -> None: ...

class ScauverHistoryEntry(_message.Message):
    __slots__ = ("seat", "action_id", "action")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ACTION_ID_FIELD_NUMBER: _ClassVar[int]
    ACTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    action_id: int
    action: ScauverAction
    def __init__(self, seat: _Optional[int] = ..., action_id: _Optional[int] = ..., action: _Optional[_Union[ScauverAction, _Mapping]] = ...) -> None: ...

class ScauverLink(_message.Message):
    __slots__ = ("left", "right", "value", "greater_cards", "lesser_cards")
    LEFT_FIELD_NUMBER: _ClassVar[int]
    RIGHT_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    GREATER_CARDS_FIELD_NUMBER: _ClassVar[int]
    LESSER_CARDS_FIELD_NUMBER: _ClassVar[int]
    left: _containers.RepeatedCompositeFieldContainer[Card40]
    right: _containers.RepeatedCompositeFieldContainer[Card40]
    value: int
    greater_cards: int
    lesser_cards: int
    def __init__(self, left: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., right: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., value: _Optional[int] = ..., greater_cards: _Optional[int] = ..., lesser_cards: _Optional[int] = ...) -> None: ...

class ScauverShowing(_message.Message):
    __slots__ = ("seat", "field", "difference", "link", "score", "linked")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FIELD_FIELD_NUMBER: _ClassVar[int]
    DIFFERENCE_FIELD_NUMBER: _ClassVar[int]
    LINK_FIELD_NUMBER: _ClassVar[int]
    SCORE_FIELD_NUMBER: _ClassVar[int]
    LINKED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    field: ScauverField
    difference: int
    link: ScauverLink
    score: int
    linked: bool
    def __init__(self, seat: _Optional[int] = ..., field: _Optional[_Union[ScauverField, _Mapping]] = ..., difference: _Optional[int] = ..., link: _Optional[_Union[ScauverLink, _Mapping]] = ..., score: _Optional[int] = ..., linked: _Optional[bool] = ...) -> None: ...

class ScauverRoundResult(_message.Message):
    __slots__ = ("round", "dealer", "fields", "showings", "decided_by", "settlement")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    FIELDS_FIELD_NUMBER: _ClassVar[int]
    SHOWINGS_FIELD_NUMBER: _ClassVar[int]
    DECIDED_BY_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    round: int
    dealer: int
    fields: _containers.RepeatedCompositeFieldContainer[ScauverField]
    showings: _containers.RepeatedCompositeFieldContainer[ScauverShowing]
    decided_by: ScauverCriterion
    settlement: ChipSettlement
    def __init__(self, round: _Optional[int] = ..., dealer: _Optional[int] = ..., fields: _Optional[_Iterable[_Union[ScauverField, _Mapping]]] = ..., showings: _Optional[_Iterable[_Union[ScauverShowing, _Mapping]]] = ..., decided_by: _Optional[_Union[ScauverCriterion, str]] = ..., settlement: _Optional[_Union[ChipSettlement, _Mapping]] = ...) -> None: ...

class ScauverPastRound(_message.Message):
    __slots__ = ("history", "result")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[ScauverHistoryEntry]
    result: ScauverRoundResult
    def __init__(self, history: _Optional[_Iterable[_Union[ScauverHistoryEntry, _Mapping]]] = ..., result: _Optional[_Union[ScauverRoundResult, _Mapping]] = ...) -> None: ...

class ScauverObservation(_message.Message):
    __slots__ = ("table", "phase", "to_act", "turn_seat", "turn", "hand", "seats", "stock_size", "history")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    TURN_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    table: ChipTable
    phase: ScauverPhase
    to_act: int
    turn_seat: int
    turn: int
    hand: _containers.RepeatedCompositeFieldContainer[Card40]
    seats: _containers.RepeatedCompositeFieldContainer[ScauverSeat]
    stock_size: int
    history: _containers.RepeatedCompositeFieldContainer[ScauverHistoryEntry]
    def __init__(self, table: _Optional[_Union[ChipTable, _Mapping]] = ..., phase: _Optional[_Union[ScauverPhase, str]] = ..., to_act: _Optional[int] = ..., turn_seat: _Optional[int] = ..., turn: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[Card40, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[ScauverSeat, _Mapping]]] = ..., stock_size: _Optional[int] = ..., history: _Optional[_Iterable[_Union[ScauverHistoryEntry, _Mapping]]] = ...) -> None: ...
