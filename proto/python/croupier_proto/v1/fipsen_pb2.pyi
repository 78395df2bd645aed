from . import score_pb2 as _score_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    deltas: _containers.RepeatedCompositeFieldContainer[_score_pb2.Score]
    def __init__(self, deal_index: _Optional[int] = ..., dealer: _Optional[int] = ..., outcome: _Optional[_Union[FipsenDealOutcome, str]] = ..., declarer: _Optional[int] = ..., contract: _Optional[_Union[FipsenBid, _Mapping]] = ..., trump: _Optional[_Union[FipsenSuit, str]] = ..., hand: _Optional[bool] = ..., ruten: _Optional[bool] = ..., durch: _Optional[bool] = ..., declarer_tricks: _Optional[int] = ..., value: _Optional[int] = ..., revealed: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., deltas: _Optional[_Iterable[_Union[_score_pb2.Score, _Mapping]]] = ...) -> None: ...

class FipsenPastDeal(_message.Message):
    __slots__ = ("history", "result")
    HISTORY_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    history: _containers.RepeatedCompositeFieldContainer[FipsenHistoryEntry]
    result: FipsenDealResult
    def __init__(self, history: _Optional[_Iterable[_Union[FipsenHistoryEntry, _Mapping]]] = ..., result: _Optional[_Union[FipsenDealResult, _Mapping]] = ...) -> None: ...

class FipsenObservation(_message.Message):
    __slots__ = ("deal_index", "num_deals", "dealer", "phase", "to_act", "hand", "history", "standing_bid", "passed", "declarer", "contract", "trump", "hand_applied", "ruten_applied", "durch_applied", "skat_taken", "skat", "discards", "tricks", "trick_leader", "trick_cards", "declarer_tricks", "defender_tricks", "totals", "past_deals")
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
    PAST_DEALS_FIELD_NUMBER: _ClassVar[int]
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
    totals: _containers.RepeatedCompositeFieldContainer[_score_pb2.Score]
    past_deals: _containers.RepeatedCompositeFieldContainer[FipsenPastDeal]
    def __init__(self, deal_index: _Optional[int] = ..., num_deals: _Optional[int] = ..., dealer: _Optional[int] = ..., phase: _Optional[_Union[FipsenPhase, str]] = ..., to_act: _Optional[int] = ..., hand: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., history: _Optional[_Iterable[_Union[FipsenHistoryEntry, _Mapping]]] = ..., standing_bid: _Optional[_Union[FipsenBid, _Mapping]] = ..., passed: _Optional[_Iterable[bool]] = ..., declarer: _Optional[int] = ..., contract: _Optional[_Union[FipsenBid, _Mapping]] = ..., trump: _Optional[_Union[FipsenSuit, str]] = ..., hand_applied: _Optional[bool] = ..., ruten_applied: _Optional[bool] = ..., durch_applied: _Optional[bool] = ..., skat_taken: _Optional[bool] = ..., skat: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., discards: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., tricks: _Optional[_Iterable[_Union[FipsenTrick, _Mapping]]] = ..., trick_leader: _Optional[int] = ..., trick_cards: _Optional[_Iterable[_Union[FipsenCard, _Mapping]]] = ..., declarer_tricks: _Optional[int] = ..., defender_tricks: _Optional[int] = ..., totals: _Optional[_Iterable[_Union[_score_pb2.Score, _Mapping]]] = ..., past_deals: _Optional[_Iterable[_Union[FipsenPastDeal, _Mapping]]] = ...) -> None: ...
