from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ChipMove(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CHIP_MOVE_UNSPECIFIED: _ClassVar[ChipMove]
    CHIP_MOVE_IN: _ClassVar[ChipMove]
    CHIP_MOVE_OUT: _ClassVar[ChipMove]
    CHIP_MOVE_BET: _ClassVar[ChipMove]
    CHIP_MOVE_RAISE: _ClassVar[ChipMove]
CHIP_MOVE_UNSPECIFIED: ChipMove
CHIP_MOVE_IN: ChipMove
CHIP_MOVE_OUT: ChipMove
CHIP_MOVE_BET: ChipMove
CHIP_MOVE_RAISE: ChipMove

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
