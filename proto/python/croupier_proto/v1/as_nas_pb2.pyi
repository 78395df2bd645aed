from . import score_pb2 as _score_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    total: _score_pb2.Score
    def __init__(self, stake: _Optional[int] = ..., folded: _Optional[bool] = ..., looked: _Optional[bool] = ..., total: _Optional[_Union[_score_pb2.Score, _Mapping]] = ...) -> None: ...

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
    deltas: _containers.RepeatedCompositeFieldContainer[_score_pb2.Score]
    def __init__(self, deal_index: _Optional[int] = ..., dealer: _Optional[int] = ..., shown: _Optional[_Iterable[_Union[AsNasShownHand, _Mapping]]] = ..., winners: _Optional[_Iterable[int]] = ..., pot: _Optional[int] = ..., deltas: _Optional[_Iterable[_Union[_score_pb2.Score, _Mapping]]] = ...) -> None: ...

class AsNasObservation(_message.Message):
    __slots__ = ("deal_index", "num_deals", "dealer", "to_act", "hand", "seats", "high_bet", "pot", "history", "past_deals")
    DEAL_INDEX_FIELD_NUMBER: _ClassVar[int]
    NUM_DEALS_FIELD_NUMBER: _ClassVar[int]
    DEALER_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    HIGH_BET_FIELD_NUMBER: _ClassVar[int]
    POT_FIELD_NUMBER: _ClassVar[int]
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    PAST_DEALS_FIELD_NUMBER: _ClassVar[int]
    deal_index: int
    num_deals: int
    dealer: int
    to_act: int
    hand: _containers.RepeatedScalarFieldContainer[AsNasRank]
    seats: _containers.RepeatedCompositeFieldContainer[AsNasSeat]
    high_bet: int
    pot: int
    history: _containers.RepeatedCompositeFieldContainer[AsNasHistoryEntry]
    past_deals: _containers.RepeatedCompositeFieldContainer[AsNasPastDeal]
    def __init__(self, deal_index: _Optional[int] = ..., num_deals: _Optional[int] = ..., dealer: _Optional[int] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[AsNasRank, str]]] = ..., seats: _Optional[_Iterable[_Union[AsNasSeat, _Mapping]]] = ..., high_bet: _Optional[int] = ..., pot: _Optional[int] = ..., history: _Optional[_Iterable[_Union[AsNasHistoryEntry, _Mapping]]] = ..., past_deals: _Optional[_Iterable[_Union[AsNasPastDeal, _Mapping]]] = ...) -> None: ...

class AsNasPastDeal(_message.Message):
    __slots__ = ("history", "result")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[AsNasHistoryEntry]
    result: AsNasDealResult
    def __init__(self, history: _Optional[_Iterable[_Union[AsNasHistoryEntry, _Mapping]]] = ..., result: _Optional[_Union[AsNasDealResult, _Mapping]] = ...) -> None: ...
