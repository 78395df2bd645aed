from . import chips_pb2 as _chips_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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

class ScauverPlacement(_message.Message):
    __slots__ = ("card", "flank")
    CARD_FIELD_NUMBER: _ClassVar[int]
    FLANK_FIELD_NUMBER: _ClassVar[int]
    card: _chips_pb2.Card40
    flank: ScauverFlank
    def __init__(self, card: _Optional[_Union[_chips_pb2.Card40, _Mapping]] = ..., flank: _Optional[_Union[ScauverFlank, str]] = ...) -> None: ...

class ScauverAction(_message.Message):
    __slots__ = ("move", "chip", "placements")
    MOVE_FIELD_NUMBER: _ClassVar[int]
    CHIP_FIELD_NUMBER: _ClassVar[int]
    PLACEMENTS_FIELD_NUMBER: _ClassVar[int]
    move: ScauverMove
    chip: _chips_pb2.ChipAction
    placements: _containers.RepeatedCompositeFieldContainer[ScauverPlacement]
    def __init__(self, move: _Optional[_Union[ScauverMove, str]] = ..., chip: _Optional[_Union[_chips_pb2.ChipAction, _Mapping]] = ..., placements: _Optional[_Iterable[_Union[ScauverPlacement, _Mapping]]] = ...) -> None: ...

class ScauverField(_message.Message):
    __slots__ = ("left", "right")
    LEFT_FIELD_NUMBER: _ClassVar[int]
    RIGHT_FIELD_NUMBER: _ClassVar[int]
    left: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    right: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    def __init__(self, left: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., right: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ...) -> None: ...

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
    left: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    right: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    value: int
    greater_cards: int
    lesser_cards: int
    def __init__(self, left: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., right: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., value: _Optional[int] = ..., greater_cards: _Optional[int] = ..., lesser_cards: _Optional[int] = ...) -> None: ...

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
    settlement: _chips_pb2.ChipSettlement
    def __init__(self, round: _Optional[int] = ..., dealer: _Optional[int] = ..., fields: _Optional[_Iterable[_Union[ScauverField, _Mapping]]] = ..., showings: _Optional[_Iterable[_Union[ScauverShowing, _Mapping]]] = ..., decided_by: _Optional[_Union[ScauverCriterion, str]] = ..., settlement: _Optional[_Union[_chips_pb2.ChipSettlement, _Mapping]] = ...) -> None: ...

class ScauverPastRound(_message.Message):
    __slots__ = ("history", "result")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[ScauverHistoryEntry]
    result: ScauverRoundResult
    def __init__(self, history: _Optional[_Iterable[_Union[ScauverHistoryEntry, _Mapping]]] = ..., result: _Optional[_Union[ScauverRoundResult, _Mapping]] = ...) -> None: ...

class ScauverObservation(_message.Message):
    __slots__ = ("table", "phase", "to_act", "turn_seat", "turn", "hand", "seats", "stock_size", "history", "past_rounds")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    TURN_SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STOCK_SIZE_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    PAST_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    table: _chips_pb2.ChipTable
    phase: ScauverPhase
    to_act: int
    turn_seat: int
    turn: int
    hand: _containers.RepeatedCompositeFieldContainer[_chips_pb2.Card40]
    seats: _containers.RepeatedCompositeFieldContainer[ScauverSeat]
    stock_size: int
    history: _containers.RepeatedCompositeFieldContainer[ScauverHistoryEntry]
    past_rounds: _containers.RepeatedCompositeFieldContainer[ScauverPastRound]
    def __init__(self, table: _Optional[_Union[_chips_pb2.ChipTable, _Mapping]] = ..., phase: _Optional[_Union[ScauverPhase, str]] = ..., to_act: _Optional[int] = ..., turn_seat: _Optional[int] = ..., turn: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[_chips_pb2.Card40, _Mapping]]] = ..., seats: _Optional[_Iterable[_Union[ScauverSeat, _Mapping]]] = ..., stock_size: _Optional[int] = ..., history: _Optional[_Iterable[_Union[ScauverHistoryEntry, _Mapping]]] = ..., past_rounds: _Optional[_Iterable[_Union[ScauverPastRound, _Mapping]]] = ...) -> None: ...
