"""The ``croupier.v1.ControlService`` servicer: every RPC of ``control.proto`` on top of the
server's parts: its keys (``serve/_auth.py``), registered bots (``serve/_bots.py``), matches
(``serve/_matches.py``) and tournaments (``serve/_tournaments.py``).

Each call is authenticated first (``authorization: Bearer KEY``: see the server's roles); a call
outside the caller's role ends with PERMISSION_DENIED, a key that admits nothing with
UNAUTHENTICATED. What each role may call:

============== ======== ============================== =========
RPC            operator registered bot                 spectator
============== ======== ============================== =========
CreateMatch    yes      no                             no
CreateMatches  yes      no                             no
CreateTournament yes    no                             no
ListMatches    yes      yes                            yes
GetMatch       yes      yes                            yes
CancelMatch    yes      no                             no
WatchMatch     yes      public view; its own seat's    public view
FetchReplay    yes      no                             no
FetchSeatView  yes      its own seats only             no
FetchSeatLog   yes      its own seats only             no
GetStandings   yes      yes                            yes
RegisterBot    yes      no                             no
ListBots       yes      yes (no owners)                yes (no owners)
RevokeBotKey   yes      no                             no
RotateBotKey   yes      no                             no
DisableBot     yes      no                             no
EnableBot      yes      no                             no
SetBotGames    yes      no                             no
============== ======== ============================== =========

An owner's contact details (``BotInfo.owner``) are sent to operators only. Errors carry a
stable reason in the trailing metadata ``croupier-reason`` where one is defined
(``control.proto``'s ``ControlErrorReason``: ``BOT_NOT_FOUND``, ``KEY_REVOKED``, ...).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import grpc
import structlog

from croupier.errors import (
    ConfigError,
    CroupierError,
    PermissionDeniedError,
    ReplayError,
    StoreError,
)
from croupier.ladder import Standings
from croupier.serve._auth import AuthError, Caller, Keys, Role
from croupier.serve._bots import Bots, BotStatus
from croupier.serve._errors import ExistsError, NotFoundError, StateError, reason_of
from croupier.serve._matches import Matches, MatchOrder
from croupier.serve._seats import read_seat_replay, seat_log, seat_view
from croupier.serve._store import (
    ABORTED,
    CANCELLED,
    FINISHED,
    PENDING,
    RUNNING,
    ServerMatch,
)
from croupier.serve._tournaments import Tournaments
from croupier.serve._watch import watch_match
from croupier.transport import SandboxOptions, sandbox_isolation
from croupier.v1 import bot_pb2, control_pb2, control_pb2_grpc, score_pb2

#: ListMatches' page size when the request names none, and the largest it may ask for.
DEFAULT_PAGE = 100
MAX_PAGE = 1000
#: FetchReplay's chunk size.
CHUNK_BYTES = 64 * 1024
#: FetchSeatView's lines per message.
VIEW_LINES = 500
#: The trailing-metadata key of a control error's stable reason (as on the bot port).
REASON_KEY = "croupier-reason"

_STATE_TO_PB = {
    PENDING: control_pb2.MATCH_STATE_PENDING,
    RUNNING: control_pb2.MATCH_STATE_RUNNING,
    FINISHED: control_pb2.MATCH_STATE_FINISHED,
    CANCELLED: control_pb2.MATCH_STATE_CANCELLED,
    ABORTED: control_pb2.MATCH_STATE_ABORTED,
}
_PB_TO_STATE = {v: k for k, v in _STATE_TO_PB.items()}
_OUTCOME_TO_PB = {
    "normal": bot_pb2.SEAT_OUTCOME_NORMAL,
    "timeouts": bot_pb2.SEAT_OUTCOME_TIMEOUTS,
    "illegal_actions": bot_pb2.SEAT_OUTCOME_ILLEGAL_ACTIONS,
    "disconnected": bot_pb2.SEAT_OUTCOME_DISCONNECTED,
}


def _score(value: Fraction) -> score_pb2.Score:
    return score_pb2.Score(numerator=value.numerator, denominator=value.denominator)


def match_info(record: ServerMatch) -> control_pb2.MatchInfo:
    """A stored match as the control API shows it (the public facts: no seed, no replay)."""
    results = {s.seat: s for s in record.seats}
    seats = []
    for seat, name in enumerate(record.bots):
        entry = control_pb2.MatchSeat(seat=seat, bot_name=name)
        r = results.get(seat)
        if r is not None:
            entry.result.CopyFrom(
                bot_pb2.SeatResult(
                    seat=seat,
                    bot_name=name,
                    score=_score(r.score),
                    place=r.place,
                    outcome=_OUTCOME_TO_PB.get(r.outcome, bot_pb2.SEAT_OUTCOME_UNSPECIFIED),
                    timeouts=r.timeouts,
                    rejected=r.rejected,
                )
            )
        seats.append(entry)
    return control_pb2.MatchInfo(
        match_id=record.match_id,
        game=record.game,
        params=record.params,
        state=_STATE_TO_PB[record.state],
        seats=seats,
        created_unix_ms=record.created_ms,
        started_unix_ms=record.started_ms,
        ended_unix_ms=record.ended_ms,
        tournament=record.tournament,
        decisions=record.decisions,
    )


def _order(request: control_pb2.CreateMatchRequest) -> MatchOrder:
    return MatchOrder(
        game=request.game,
        bots=tuple(request.bots),
        params=dict(request.params),
        seed=request.seed or None,
    )


def _page_token(record: ServerMatch) -> str:
    raw = json.dumps([record.created_ms, record.match_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _read_page_token(token: str) -> tuple[int, str]:
    try:
        raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
        created, match_id = json.loads(raw)
        if not isinstance(created, int) or not isinstance(match_id, str):
            raise ValueError
    except (ValueError, TypeError, json.JSONDecodeError):
        raise ConfigError("page_token: not a token this server gave out") from None
    return created, match_id


def _may_see_seat(caller: Caller, record: ServerMatch, seat: int) -> bool:
    """Whether ``caller`` may watch ``seat``'s own view: an operator, or the registered bot
    in that seat. A server-side tournament's bots are commands the operator named, not
    registered bots (a registered bot of the same name is someone else): only operators."""
    if caller.role is Role.OPERATOR:
        return True
    return (
        caller.role is Role.BOT and not record.tournament and record.bots[seat] == caller.bot_name
    )


class ControlServicer(control_pb2_grpc.ControlServiceServicer):
    """See the module docstring. ``sandbox`` is how the server launches bots (the standings'
    warning); ``deal_set_open`` says whether a match belongs to a duplicate set still being
    played (by a tournament or the ladder: only operators may watch it)."""

    def __init__(
        self,
        keys: Keys,
        bots: Bots,
        matches: Matches,
        tournaments: Tournaments,
        *,
        sandbox: SandboxOptions,
        deal_set_open: Callable[[ServerMatch], bool],
    ) -> None:
        self._keys = keys
        self._bots = bots
        self._matches = matches
        self._tournaments = tournaments
        self._sandbox = sandbox
        self._deal_set_open = deal_set_open
        self._log = structlog.get_logger("croupier.control")

    # -- plumbing -------------------------------------------------------------------------------

    async def _caller(
        self, context: grpc.aio.ServicerContext, method: str, *allowed: Role
    ) -> Caller:
        try:
            caller = self._keys.authenticate(context.invocation_metadata())
        except AuthError as exc:
            await context.abort(
                grpc.StatusCode.UNAUTHENTICATED,
                str(exc),
                trailing_metadata=((REASON_KEY, "KEY_UNKNOWN"),),
            )
            raise AssertionError("unreachable") from None  # abort raises
        if allowed and caller.role not in allowed:
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                f"{method} is not allowed to a {caller.role.value} key",
                trailing_metadata=((REASON_KEY, "ROLE"),),
            )
        return caller

    async def _standings(self, tournament: str) -> tuple[str, Standings]:
        """The game and the standings of ``tournament`` (``""``: the server's own matches),
        recomputed from the stored results."""
        if tournament:
            return await self._tournaments.standings(tournament)
        return await self._matches.standings()

    async def _standings_warning(self, tournament: str) -> str:
        """One line for the standings of ``tournament`` (``""``: the server's own) when some of
        its launched bots ran without a sandbox (``--sandbox none``); ``""`` otherwise."""
        if tournament:
            return await self._tournaments.standings_warning(tournament)
        how = await asyncio.to_thread(sandbox_isolation, self._sandbox.mode)
        if how.isolated:
            return ""
        return f"this server launches its bots without a sandbox: {how.summary}"

    async def _fail(self, context: grpc.aio.ServicerContext, exc: CroupierError) -> None:
        code = grpc.StatusCode.INVALID_ARGUMENT
        if isinstance(exc, NotFoundError):
            code = grpc.StatusCode.NOT_FOUND
        elif isinstance(exc, ExistsError):
            code = grpc.StatusCode.ALREADY_EXISTS
        elif isinstance(exc, StateError):
            code = grpc.StatusCode.FAILED_PRECONDITION
        elif isinstance(exc, PermissionDeniedError):
            code = grpc.StatusCode.PERMISSION_DENIED
        elif isinstance(exc, ReplayError):  # a stored replay that does not read
            code = grpc.StatusCode.DATA_LOSS
        elif isinstance(exc, StoreError):  # the server's store could not commit (disk full)
            code = grpc.StatusCode.INTERNAL
        reason = reason_of(exc)
        await context.abort(
            code, str(exc), trailing_metadata=((REASON_KEY, reason),) if reason else ()
        )

    # -- matches --------------------------------------------------------------------------------

    async def CreateMatch(
        self, request: control_pb2.CreateMatchRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.CreateMatchResponse:
        await self._caller(context, "CreateMatch", Role.OPERATOR)
        try:
            record = await self._matches.submit(_order(request))
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.CreateMatchResponse(match=match_info(record))

    async def CreateMatches(
        self, request: control_pb2.CreateMatchesRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.CreateMatchesResponse:
        await self._caller(context, "CreateMatches", Role.OPERATOR)
        try:
            records = await self._matches.submit_many(
                [_order(m) for m in request.matches], request.batch
            )
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.CreateMatchesResponse(matches=[match_info(r) for r in records])

    async def ListMatches(
        self, request: control_pb2.ListMatchesRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.ListMatchesResponse:
        caller = await self._caller(context, "ListMatches")
        limit = request.limit or DEFAULT_PAGE
        if limit > MAX_PAGE:
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT, f"limit: at most {MAX_PAGE}, got {limit}"
            )
        state = None
        if request.state != control_pb2.MATCH_STATE_UNSPECIFIED:
            state = _PB_TO_STATE.get(request.state)
            if state is None:
                await context.abort(
                    grpc.StatusCode.INVALID_ARGUMENT, f"state: unknown value {request.state}"
                )
        try:
            after = _read_page_token(request.page_token) if request.page_token else None
        except ConfigError as exc:
            await self._fail(context, exc)
            raise
        rows = await self._matches.page(state, limit + 1, after)
        more = len(rows) > limit
        rows = rows[:limit]
        return control_pb2.ListMatchesResponse(
            matches=[match_info(self._shown(caller, r)) for r in rows],
            next_page_token=_page_token(rows[-1]) if more and rows else "",
        )

    async def GetMatch(
        self, request: control_pb2.GetMatchRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.GetMatchResponse:
        caller = await self._caller(context, "GetMatch")
        try:
            record = await self._matches.get(request.match_id)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.GetMatchResponse(match=match_info(self._shown(caller, record)))

    def _shown(self, caller: Caller, record: ServerMatch) -> ServerMatch:
        """``record`` as ``caller`` may see it: a running seating of a duplicate set still
        being played without its live decision count (0) but for operators. The count follows
        that seating's public view, which is theirs only until the set is over (how long each
        deal lasted there tells the other seatings about the same deals). (Served on the
        control thread too: ``deal_set_open`` only reads.)"""
        if (
            record.state == RUNNING
            and record.deal_set
            and caller.role is not Role.OPERATOR
            and self._deal_set_open(record)
        ):
            return replace(record, decisions=0)
        return record

    async def CancelMatch(
        self, request: control_pb2.CancelMatchRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.CancelMatchResponse:
        await self._caller(context, "CancelMatch", Role.OPERATOR)
        try:
            self._matches.cancel(request.match_id)
            record = await self._matches.wait_ended(request.match_id)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.CancelMatchResponse(match=match_info(record))

    async def WatchMatch(
        self, request: control_pb2.WatchMatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[control_pb2.WatchMatchResponse]:
        caller = await self._caller(context, "WatchMatch")
        try:
            record = await self._matches.get(request.match_id)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        if caller.role is not Role.OPERATOR and self._deal_set_open(record):
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                f"match {record.match_id} is a seating of a duplicate set still being played: "
                "its cards are hidden at the other seatings, so only operators may watch it "
                "until the set is over",
            )
        if request.HasField("seat"):
            seat = request.seat
            if seat >= len(record.bots):
                await context.abort(
                    grpc.StatusCode.INVALID_ARGUMENT,
                    f"seat: match {record.match_id} has seats 0 to {len(record.bots) - 1}",
                )
            if not _may_see_seat(caller, record, seat):
                await context.abort(
                    grpc.StatusCode.PERMISSION_DENIED,
                    f"seat {seat}'s view is only for its own bot's key and operators",
                )

        source = await self._matches.watch_source(record.match_id)
        try:
            async for response in watch_match(
                source,
                request,
                may_see_seat=lambda seat: _may_see_seat(caller, record, seat),
                match=match_info(record),
            ):
                yield response
        except CroupierError as exc:
            await self._fail(context, exc)
            raise

    async def FetchReplay(
        self, request: control_pb2.FetchReplayRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[control_pb2.FetchReplayResponse]:
        await self._caller(context, "FetchReplay", Role.OPERATOR)
        try:
            path, record = await self._matches.replay_file(request.match_id)
            data = await asyncio.to_thread(path.read_bytes)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        except OSError as exc:
            await context.abort(
                grpc.StatusCode.DATA_LOSS, f"the replay cannot be read: {exc.strerror or exc}"
            )
            raise
        sha = hashlib.sha256(data).hexdigest()
        if record.replay_sha256 and sha != record.replay_sha256:
            await context.abort(
                grpc.StatusCode.DATA_LOSS,
                f"the replay on disk does not match its stored SHA-256 ({record.replay_sha256})",
            )
        for start in range(0, max(len(data), 1), CHUNK_BYTES):
            chunk = data[start : start + CHUNK_BYTES]
            yield control_pb2.FetchReplayResponse(chunk=chunk, sha256=sha if start == 0 else "")

    # -- a seat's own record (bot authors' self-service: serve/_seats.py) ------------------------

    async def _ended_seat(
        self,
        context: grpc.aio.ServicerContext,
        method: str,
        request: control_pb2.FetchSeatViewRequest | control_pb2.FetchSeatLogRequest,
    ) -> tuple[ServerMatch, Path | None, Path]:
        """The match, replay and log folder of a seat ``request`` names that the caller may
        read: an operator any seat, a registered bot's key its own seats only."""
        caller = await self._caller(context, method, Role.OPERATOR, Role.BOT)
        try:
            record, path, log_dir = await self._matches.ended(request.match_id)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        if request.seat >= len(record.bots):
            await context.abort(
                grpc.StatusCode.INVALID_ARGUMENT,
                f"seat: match {record.match_id} has seats 0 to {len(record.bots) - 1}",
            )
        if not _may_see_seat(caller, record, request.seat):
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                f"seat {request.seat} of match {record.match_id} is only for its own bot's key "
                "and operators",
                trailing_metadata=((REASON_KEY, "ROLE"),),
            )
        if caller.role is not Role.OPERATOR and self._deal_set_open(record):
            await context.abort(
                grpc.StatusCode.PERMISSION_DENIED,
                f"match {record.match_id} is a seating of a duplicate set still being played: "
                "only operators may read its seats until the set is over",
            )
        return record, path, log_dir

    async def FetchSeatView(
        self, request: control_pb2.FetchSeatViewRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[control_pb2.FetchSeatViewResponse]:
        _, path, _ = await self._ended_seat(context, "FetchSeatView", request)
        if path is None:
            await context.abort(
                grpc.StatusCode.NOT_FOUND, f"match {request.match_id} has no replay"
            )
            return
        try:  # (a whole re-simulation: off the event loop)
            replay = await asyncio.to_thread(read_seat_replay, path)
            lines = await asyncio.to_thread(seat_view, replay, request.seat)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        for start in range(0, max(len(lines), 1), VIEW_LINES):
            yield control_pb2.FetchSeatViewResponse(lines=lines[start : start + VIEW_LINES])

    async def FetchSeatLog(
        self, request: control_pb2.FetchSeatLogRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[control_pb2.FetchSeatLogResponse]:
        record, path, log_dir = await self._ended_seat(context, "FetchSeatLog", request)
        try:
            replay = None if path is None else await asyncio.to_thread(read_seat_replay, path)
            data = await asyncio.to_thread(seat_log, record, replay, request.seat, log_dir)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        for start in range(0, max(len(data), 1), CHUNK_BYTES):
            yield control_pb2.FetchSeatLogResponse(chunk=data[start : start + CHUNK_BYTES])

    # -- standings, tournaments -------------------------------------------------------------------

    async def GetStandings(
        self, request: control_pb2.GetStandingsRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.GetStandingsResponse:
        await self._caller(context, "GetStandings")
        try:
            game, table = await self._standings(request.tournament)
            warning = await self._standings_warning(request.tournament)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        rows = [
            control_pb2.StandingsRow(
                rank=rank,
                bot_name=b.name,
                mu=b.rating.mu,
                sigma=b.rating.sigma,
                matches=b.matches,
                mean_score=b.score.mean if b.matches else 0.0,
                mean_score_ci95=b.score.half_width if b.score.n >= 2 else 0.0,
                faults=b.faults,
            )
            for rank, b in enumerate(table.bots, 1)
        ]
        return control_pb2.GetStandingsResponse(rows=rows, game=game, isolation_warning=warning)

    async def CreateTournament(
        self, request: control_pb2.CreateTournamentRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.CreateTournamentResponse:
        await self._caller(context, "CreateTournament", Role.OPERATOR)
        try:
            name, total = await self._tournaments.create(request.config_toml)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.CreateTournamentResponse(tournament=name, matches=total)

    # -- bots -----------------------------------------------------------------------------------

    async def RegisterBot(
        self, request: control_pb2.RegisterBotRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.RegisterBotResponse:
        await self._caller(context, "RegisterBot", Role.OPERATOR)
        try:
            key = await self._bots.register(request.bot_name, request.owner, tuple(request.games))
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.RegisterBotResponse(key=key)

    async def ListBots(
        self, request: control_pb2.ListBotsRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.ListBotsResponse:
        caller = await self._caller(context, "ListBots")
        operator = caller.role is Role.OPERATOR
        return control_pb2.ListBotsResponse(
            bots=[bot_info(s, owner=operator) for s in self._bots.statuses()]
        )

    def _status(self, name: str) -> BotStatus:
        return next(s for s in self._bots.statuses() if s.bot.name == name)

    async def RevokeBotKey(
        self, request: control_pb2.RevokeBotKeyRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.RevokeBotKeyResponse:
        await self._caller(context, "RevokeBotKey", Role.OPERATOR)
        try:
            await self._bots.revoke_key(request.bot_name)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.RevokeBotKeyResponse(bot=bot_info(self._status(request.bot_name)))

    async def RotateBotKey(
        self, request: control_pb2.RotateBotKeyRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.RotateBotKeyResponse:
        await self._caller(context, "RotateBotKey", Role.OPERATOR)
        try:
            key, _ = await self._bots.rotate_key(request.bot_name)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.RotateBotKeyResponse(
            key=key, bot=bot_info(self._status(request.bot_name))
        )

    async def DisableBot(
        self, request: control_pb2.DisableBotRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.DisableBotResponse:
        await self._caller(context, "DisableBot", Role.OPERATOR)
        try:
            await self._bots.set_disabled(request.bot_name, True)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.DisableBotResponse(bot=bot_info(self._status(request.bot_name)))

    async def EnableBot(
        self, request: control_pb2.EnableBotRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.EnableBotResponse:
        await self._caller(context, "EnableBot", Role.OPERATOR)
        try:
            await self._bots.set_disabled(request.bot_name, False)
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.EnableBotResponse(bot=bot_info(self._status(request.bot_name)))

    async def SetBotGames(
        self, request: control_pb2.SetBotGamesRequest, context: grpc.aio.ServicerContext
    ) -> control_pb2.SetBotGamesResponse:
        await self._caller(context, "SetBotGames", Role.OPERATOR)
        try:
            await self._bots.set_games(request.bot_name, tuple(request.games))
        except CroupierError as exc:
            await self._fail(context, exc)
            raise
        return control_pb2.SetBotGamesResponse(bot=bot_info(self._status(request.bot_name)))


def bot_info(status: BotStatus, *, owner: bool = True) -> control_pb2.BotInfo:
    """A registered bot as the control API shows it; its owner only with ``owner`` (operators:
    an owner's contact details are never sent to bot keys or spectators)."""
    bot = status.bot
    return control_pb2.BotInfo(
        bot_name=bot.name,
        owner=bot.owner if owner else "",
        connected=status.connected,
        bot_version=status.version,
        games=list(bot.games),
        disabled=bot.disabled,
        key_revoked=bool(bot.revoked_ms),
        reported_name=status.reported_name,
    )
