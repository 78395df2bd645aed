from . import bot_pb2 as _bot_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ControlErrorReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONTROL_ERROR_REASON_UNSPECIFIED: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_BOT_NOT_FOUND: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_KEY_REVOKED: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_BOT_DISABLED: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_GAME_NOT_PLAYED: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_GAME_UNKNOWN: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_BOT_EXISTS: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_BAD_NAME: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_KEY_UNKNOWN: _ClassVar[ControlErrorReason]
    CONTROL_ERROR_REASON_ROLE: _ClassVar[ControlErrorReason]

class MatchState(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATE_UNSPECIFIED: _ClassVar[MatchState]
    MATCH_STATE_PENDING: _ClassVar[MatchState]
    MATCH_STATE_RUNNING: _ClassVar[MatchState]
    MATCH_STATE_FINISHED: _ClassVar[MatchState]
    MATCH_STATE_CANCELLED: _ClassVar[MatchState]
    MATCH_STATE_ABORTED: _ClassVar[MatchState]
CONTROL_ERROR_REASON_UNSPECIFIED: ControlErrorReason
CONTROL_ERROR_REASON_BOT_NOT_FOUND: ControlErrorReason
CONTROL_ERROR_REASON_KEY_REVOKED: ControlErrorReason
CONTROL_ERROR_REASON_BOT_DISABLED: ControlErrorReason
CONTROL_ERROR_REASON_GAME_NOT_PLAYED: ControlErrorReason
CONTROL_ERROR_REASON_GAME_UNKNOWN: ControlErrorReason
CONTROL_ERROR_REASON_BOT_EXISTS: ControlErrorReason
CONTROL_ERROR_REASON_BAD_NAME: ControlErrorReason
CONTROL_ERROR_REASON_KEY_UNKNOWN: ControlErrorReason
CONTROL_ERROR_REASON_ROLE: ControlErrorReason
MATCH_STATE_UNSPECIFIED: MatchState
MATCH_STATE_PENDING: MatchState
MATCH_STATE_RUNNING: MatchState
MATCH_STATE_FINISHED: MatchState
MATCH_STATE_CANCELLED: MatchState
MATCH_STATE_ABORTED: MatchState

class MatchSeat(_message.Message):
    __slots__ = ("seat", "bot_name", "result")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    bot_name: str
    result: _bot_pb2.SeatResult
    def __init__(self, seat: _Optional[int] = ..., bot_name: _Optional[str] = ..., result: _Optional[_Union[_bot_pb2.SeatResult, _Mapping]] = ...) -> None: ...

class MatchInfo(_message.Message):
    __slots__ = ("match_id", "game", "params", "state", "seats", "created_unix_ms", "started_unix_ms", "ended_unix_ms", "tournament", "decisions")
    class ParamsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    STATE_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    CREATED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    STARTED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    ENDED_UNIX_MS_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    DECISIONS_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    game: str
    params: _containers.ScalarMap[str, int]
    state: MatchState
    seats: _containers.RepeatedCompositeFieldContainer[MatchSeat]
    created_unix_ms: int
    started_unix_ms: int
    ended_unix_ms: int
    tournament: str
    decisions: int
    def __init__(self, match_id: _Optional[str] = ..., game: _Optional[str] = ..., params: _Optional[_Mapping[str, int]] = ..., state: _Optional[_Union[MatchState, str]] = ..., seats: _Optional[_Iterable[_Union[MatchSeat, _Mapping]]] = ..., created_unix_ms: _Optional[int] = ..., started_unix_ms: _Optional[int] = ..., ended_unix_ms: _Optional[int] = ..., tournament: _Optional[str] = ..., decisions: _Optional[int] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("game", "params", "bots", "seed")
    class ParamsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: int
        def __init__(self, key: _Optional[str] = ..., value: _Optional[int] = ...) -> None: ...
    GAME_FIELD_NUMBER: _ClassVar[int]
    PARAMS_FIELD_NUMBER: _ClassVar[int]
    BOTS_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    game: str
    params: _containers.ScalarMap[str, int]
    bots: _containers.RepeatedScalarFieldContainer[str]
    seed: int
    def __init__(self, game: _Optional[str] = ..., params: _Optional[_Mapping[str, int]] = ..., bots: _Optional[_Iterable[str]] = ..., seed: _Optional[int] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchInfo
    def __init__(self, match: _Optional[_Union[MatchInfo, _Mapping]] = ...) -> None: ...

class CreateMatchesRequest(_message.Message):
    __slots__ = ("matches", "batch")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    BATCH_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[CreateMatchRequest]
    batch: str
    def __init__(self, matches: _Optional[_Iterable[_Union[CreateMatchRequest, _Mapping]]] = ..., batch: _Optional[str] = ...) -> None: ...

class CreateMatchesResponse(_message.Message):
    __slots__ = ("matches",)
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchInfo]
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchInfo, _Mapping]]] = ...) -> None: ...

class CreateTournamentRequest(_message.Message):
    __slots__ = ("config_toml",)
    CONFIG_TOML_FIELD_NUMBER: _ClassVar[int]
    config_toml: str
    def __init__(self, config_toml: _Optional[str] = ...) -> None: ...

class CreateTournamentResponse(_message.Message):
    __slots__ = ("tournament", "matches")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    matches: int
    def __init__(self, tournament: _Optional[str] = ..., matches: _Optional[int] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("state", "limit", "page_token")
    STATE_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    state: MatchState
    limit: int
    page_token: str
    def __init__(self, state: _Optional[_Union[MatchState, str]] = ..., limit: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[MatchInfo]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[MatchInfo, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class GetMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchInfo
    def __init__(self, match: _Optional[_Union[MatchInfo, _Mapping]] = ...) -> None: ...

class CancelMatchRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class CancelMatchResponse(_message.Message):
    __slots__ = ("match",)
    MATCH_FIELD_NUMBER: _ClassVar[int]
    match: MatchInfo
    def __init__(self, match: _Optional[_Union[MatchInfo, _Mapping]] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id", "delay_decisions", "delay_rounds", "seat", "snapshot")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    DELAY_DECISIONS_FIELD_NUMBER: _ClassVar[int]
    DELAY_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    delay_decisions: int
    delay_rounds: int
    seat: int
    snapshot: bool
    def __init__(self, match_id: _Optional[str] = ..., delay_decisions: _Optional[int] = ..., delay_rounds: _Optional[int] = ..., seat: _Optional[int] = ..., snapshot: _Optional[bool] = ...) -> None: ...

class WatchStarted(_message.Message):
    __slots__ = ("match", "rules_version", "seat")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match: MatchInfo
    rules_version: int
    seat: int
    def __init__(self, match: _Optional[_Union[MatchInfo, _Mapping]] = ..., rules_version: _Optional[int] = ..., seat: _Optional[int] = ...) -> None: ...

class WatchFrame(_message.Message):
    __slots__ = ("step", "view", "events", "to_act", "snapshot")
    STEP_FIELD_NUMBER: _ClassVar[int]
    VIEW_FIELD_NUMBER: _ClassVar[int]
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    SNAPSHOT_FIELD_NUMBER: _ClassVar[int]
    step: int
    view: _bot_pb2.Observation
    events: _containers.RepeatedCompositeFieldContainer[_bot_pb2.Event]
    to_act: int
    snapshot: bool
    def __init__(self, step: _Optional[int] = ..., view: _Optional[_Union[_bot_pb2.Observation, _Mapping]] = ..., events: _Optional[_Iterable[_Union[_bot_pb2.Event, _Mapping]]] = ..., to_act: _Optional[int] = ..., snapshot: _Optional[bool] = ...) -> None: ...

class WatchMatchResponse(_message.Message):
    __slots__ = ("started", "frame", "end")
    STARTED_FIELD_NUMBER: _ClassVar[int]
    FRAME_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    started: WatchStarted
    frame: WatchFrame
    end: _bot_pb2.MatchEnd
    def __init__(self, started: _Optional[_Union[WatchStarted, _Mapping]] = ..., frame: _Optional[_Union[WatchFrame, _Mapping]] = ..., end: _Optional[_Union[_bot_pb2.MatchEnd, _Mapping]] = ...) -> None: ...

class FetchReplayRequest(_message.Message):
    __slots__ = ("match_id",)
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    def __init__(self, match_id: _Optional[str] = ...) -> None: ...

class FetchReplayResponse(_message.Message):
    __slots__ = ("chunk", "sha256")
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    SHA256_FIELD_NUMBER: _ClassVar[int]
    chunk: bytes
    sha256: str
    def __init__(self, chunk: _Optional[bytes] = ..., sha256: _Optional[str] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament",)
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    tournament: str
    def __init__(self, tournament: _Optional[str] = ...) -> None: ...

class StandingsRow(_message.Message):
    __slots__ = ("rank", "bot_name", "mu", "sigma", "matches", "mean_score", "mean_score_ci95", "faults")
    RANK_FIELD_NUMBER: _ClassVar[int]
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    MU_FIELD_NUMBER: _ClassVar[int]
    SIGMA_FIELD_NUMBER: _ClassVar[int]
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    MEAN_SCORE_FIELD_NUMBER: _ClassVar[int]
    MEAN_SCORE_CI95_FIELD_NUMBER: _ClassVar[int]
    FAULTS_FIELD_NUMBER: _ClassVar[int]
    rank: int
    bot_name: str
    mu: float
    sigma: float
    matches: int
    mean_score: float
    mean_score_ci95: float
    faults: int
    def __init__(self, rank: _Optional[int] = ..., bot_name: _Optional[str] = ..., mu: _Optional[float] = ..., sigma: _Optional[float] = ..., matches: _Optional[int] = ..., mean_score: _Optional[float] = ..., mean_score_ci95: _Optional[float] = ..., faults: _Optional[int] = ...) -> None: ...

class GetStandingsResponse(_message.Message):
    __slots__ = ("rows", "game", "isolation_warning")
    ROWS_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    ISOLATION_WARNING_FIELD_NUMBER: _ClassVar[int]
    rows: _containers.RepeatedCompositeFieldContainer[StandingsRow]
    game: str
    isolation_warning: str
    def __init__(self, rows: _Optional[_Iterable[_Union[StandingsRow, _Mapping]]] = ..., game: _Optional[str] = ..., isolation_warning: _Optional[str] = ...) -> None: ...

class RegisterBotRequest(_message.Message):
    __slots__ = ("bot_name", "owner", "games")
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    owner: str
    games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, bot_name: _Optional[str] = ..., owner: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class RegisterBotResponse(_message.Message):
    __slots__ = ("key",)
    KEY_FIELD_NUMBER: _ClassVar[int]
    key: str
    def __init__(self, key: _Optional[str] = ...) -> None: ...

class ListBotsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class BotInfo(_message.Message):
    __slots__ = ("bot_name", "owner", "connected", "bot_version", "games", "disabled", "key_revoked", "reported_name")
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    BOT_VERSION_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    KEY_REVOKED_FIELD_NUMBER: _ClassVar[int]
    REPORTED_NAME_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    owner: str
    connected: bool
    bot_version: str
    games: _containers.RepeatedScalarFieldContainer[str]
    disabled: bool
    key_revoked: bool
    reported_name: str
    def __init__(self, bot_name: _Optional[str] = ..., owner: _Optional[str] = ..., connected: _Optional[bool] = ..., bot_version: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ..., disabled: _Optional[bool] = ..., key_revoked: _Optional[bool] = ..., reported_name: _Optional[str] = ...) -> None: ...

class ListBotsResponse(_message.Message):
    __slots__ = ("bots",)
    BOTS_FIELD_NUMBER: _ClassVar[int]
    bots: _containers.RepeatedCompositeFieldContainer[BotInfo]
    def __init__(self, bots: _Optional[_Iterable[_Union[BotInfo, _Mapping]]] = ...) -> None: ...

class RevokeBotKeyRequest(_message.Message):
    __slots__ = ("bot_name",)
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    def __init__(self, bot_name: _Optional[str] = ...) -> None: ...

class RevokeBotKeyResponse(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ...) -> None: ...

class RotateBotKeyRequest(_message.Message):
    __slots__ = ("bot_name",)
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    def __init__(self, bot_name: _Optional[str] = ...) -> None: ...

class RotateBotKeyResponse(_message.Message):
    __slots__ = ("key", "bot")
    KEY_FIELD_NUMBER: _ClassVar[int]
    BOT_FIELD_NUMBER: _ClassVar[int]
    key: str
    bot: BotInfo
    def __init__(self, key: _Optional[str] = ..., bot: _Optional[_Union[BotInfo, _Mapping]] = ...) -> None: ...

class DisableBotRequest(_message.Message):
    __slots__ = ("bot_name",)
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    def __init__(self, bot_name: _Optional[str] = ...) -> None: ...

class DisableBotResponse(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ...) -> None: ...

class EnableBotRequest(_message.Message):
    __slots__ = ("bot_name",)
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    def __init__(self, bot_name: _Optional[str] = ...) -> None: ...

class EnableBotResponse(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ...) -> None: ...

class SetBotGamesRequest(_message.Message):
    __slots__ = ("bot_name", "games")
    BOT_NAME_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    bot_name: str
    games: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, bot_name: _Optional[str] = ..., games: _Optional[_Iterable[str]] = ...) -> None: ...

class SetBotGamesResponse(_message.Message):
    __slots__ = ("bot",)
    BOT_FIELD_NUMBER: _ClassVar[int]
    bot: BotInfo
    def __init__(self, bot: _Optional[_Union[BotInfo, _Mapping]] = ...) -> None: ...

class FetchSeatViewRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class FetchSeatViewResponse(_message.Message):
    __slots__ = ("lines",)
    LINES_FIELD_NUMBER: _ClassVar[int]
    lines: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, lines: _Optional[_Iterable[str]] = ...) -> None: ...

class FetchSeatLogRequest(_message.Message):
    __slots__ = ("match_id", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class FetchSeatLogResponse(_message.Message):
    __slots__ = ("chunk",)
    CHUNK_FIELD_NUMBER: _ClassVar[int]
    chunk: bytes
    def __init__(self, chunk: _Optional[bytes] = ...) -> None: ...
