from . import chips_pb2 as _chips_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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

class FelduzAction(_message.Message):
    __slots__ = ("move", "chip", "cards")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    CHIP_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    move: FelduzMove
    chip: _chips_pb2.ChipAction
    cards: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    def __init__(self, move: _Optional[_Union[FelduzMove, str]] = ..., chip: _Optional[_Union[_chips_pb2.ChipAction, _Mapping]] = ..., cards: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ...) -> None: ...

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
    field: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    reserve: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    field_sum: int
    reserve_sum: int
    def __init__(self, seat: _Optional[int] = ..., field: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., reserve: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., field_sum: _Optional[int] = ..., reserve_sum: _Optional[int] = ...) -> None: ...

class FelduzRoundResult(_message.Message):
    __slots__ = ("round", "dealer", "settlement", "shown", "events")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    SETTLEMENT_FIELD_NUMBER: _ClassVar[int]
    SHOWN_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    round: int
    dealer: int
    settlement: _chips_pb2.ChipSettlement
    shown: _containers.RepeatedCompositeFieldContainer[FelduzShownField]
    events: _containers.RepeatedCompositeFieldContainer[FelduzShowdownEvent]
    def __init__(self, round: _Optional[int] = ..., dealer: _Optional[int] = ..., settlement: _Optional[_Union[_chips_pb2.ChipSettlement, _Mapping]] = ..., shown: _Optional[_Iterable[_Union[FelduzShownField, _Mapping]]] = ..., events: _Optional[_Iterable[_Union[FelduzShowdownEvent, _Mapping]]] = ...) -> None: ...

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
    open: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    closed_count: int
    reserve_count: int
    stood: bool
    chosen: bool
    def __init__(self, open: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., closed_count: _Optional[int] = ..., reserve_count: _Optional[int] = ..., stood: _Optional[bool] = ..., chosen: _Optional[bool] = ...) -> None: ...

class FelduzObservation(_message.Message):
    __slots__ = ("round", "round_cap", "phase", "to_act", "turn", "turn_start", "table", "seats", "stock", "closed", "reserve", "history", "past_rounds")
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
    PAST_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    round: int
    round_cap: int
    phase: FelduzPhase
    to_act: int
    turn: int
    turn_start: FelduzTurnStart
    table: _chips_pb2.ChipTable
    seats: _containers.RepeatedCompositeFieldContainer[FelduzSeat]
    stock: int
    closed: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    reserve: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    history: _containers.RepeatedCompositeFieldContainer[FelduzHistoryEntry]
    past_rounds: _containers.RepeatedCompositeFieldContainer[FelduzPastRound]
    def __init__(self, round: _Optional[int] = ..., round_cap: _Optional[int] = ..., phase: _Optional[_Union[FelduzPhase, str]] = ..., to_act: _Optional[int] = ..., turn: _Optional[int] = ..., turn_start: _Optional[_Union[FelduzTurnStart, str]] = ..., table: _Optional[_Union[_chips_pb2.ChipTable, _Mapping]] = ..., seats: _Optional[_Iterable[_Union[FelduzSeat, _Mapping]]] = ..., stock: _Optional[int] = ..., closed: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., reserve: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[FelduzHistoryEntry, _Mapping]]] = ..., past_rounds: _Optional[_Iterable[_Union[FelduzPastRound, _Mapping]]] = ...) -> None: ...
