"""Live spectating (WatchMatch): a per-match record feed, and the stream of views built from it.

A running match's :class:`ReplayWriter` is given a :class:`MatchFeed` as its listener: each
record, once written, is appended to the feed (a cheap call: no I/O, no re-simulation), which
keeps every record so that a late watcher starts from the beginning, and wakes the watchers.

:func:`watch_match` re-simulates the records with the game's rules (the one validating reader's
:class:`~croupier.replay.ReplayCheck`, once per feed however many watch) and builds each frame's
view with ``game.observe(state, None)`` — the public view — or ``game.observe(state, seat)`` for
a caller allowed to see that seat, encoded by the game's codec. Nothing is ever built from the
omniscient state by stripping it. Events are the ones the arbiter broadcasts to the table (the
same step numbers: chance events and public actions only), and a public frame never says that
the arbiter played an action for a seat (the default action would tell about its cards). The
public :class:`MatchEnd` carries the results only: the seed and salt (which redraw every deal,
mucked hands included) go only to a seat's own view. A seating of a duplicate set is watched by
operators only until the set is over (``CompetitionServer.deal_set_open``), so a bot's key gets
its seat's reveal there only then, though its bot was not told it at the end of the match.

A finished match is streamed from its replay file, read by the same reader.

A watcher may ask for a snapshot (``WatchMatchRequest.snapshot``: what the web page does): the
frames made so far come as one frame, the latest view with the last events
(:func:`snapshot`), then the stream goes on frame by frame; a late watcher is then sent a few
kilobytes, however long the match has run.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from croupier.arbiter import header_terms, terms_digest
from croupier.errors import ConfigError, PermissionDeniedError
from croupier.games import CHANCE, get_spec, score
from croupier.replay import Record, Replay, ReplayCheck, read_replay
from croupier.transport import reveal_seed
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import control_pb2 as cpb

#: Faults after which the arbiter plays every action of the seat (its bot has gone).
_GONE = frozenset({"disconnect", "no_show"})
_OUTCOME = {
    "normal": pb.SEAT_OUTCOME_NORMAL,
    "timeouts": pb.SEAT_OUTCOME_TIMEOUTS,
    "illegal_actions": pb.SEAT_OUTCOME_ILLEGAL_ACTIONS,
    "disconnected": pb.SEAT_OUTCOME_DISCONNECTED,
}


class MatchFeed:
    """The records of one running match, as its replay writer writes them
    (``ReplayWriter(path, listener=feed)``). Keeps them all; re-simulates them once, lazily, for
    every watcher. :meth:`close` when the match is over or its writer stopped (a result record
    closes it too)."""

    def __init__(self, match_id: str) -> None:
        self.match_id = match_id
        self.records: list[dict[str, Any]] = []
        #: The announced decisions so far (what ListMatches shows live): the action records the
        #: table was told of. An unannounced one (a Fipsen discard, a declined Siebener Fips,
        #: which only a seat holding 7777+A is asked) is not counted: the count is public, and
        #: would tell the table that it happened. One attribute, written once per record: a
        #: reader in another thread (the control thread) never sees a half-made count.
        self.decisions = 0
        self._unannounced = False  # the next action record is an unannounced one
        self.closed = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None
        self._check: ReplayCheck | None = None
        self._states: list[Any] = []  # the state after records[i + 1] (records[0]: the header)
        #: The public frames, made once for every public watcher (by :func:`watch_match`).
        self.public: _Frames | None = None

    # -- the writer's side ----------------------------------------------------------------------

    def __call__(self, record: dict[str, Any]) -> None:
        """The replay writer's listener: keep ``record`` and wake the watchers."""
        self.records.append(record)
        kind = record.get("type")
        if kind == "action":
            if self._unannounced:
                self._unannounced = False
            else:
                self.decisions += 1
        elif kind == "result":
            self.closed = True
        self._wake()

    def unannounced(self) -> None:
        """The replay writer's word that the next action record is one the table was not told
        of (``ReplayWriter.action``): it is kept, not counted in :attr:`decisions`."""
        self._unannounced = True

    def close(self) -> None:
        """No more records will come (the match ended, was aborted, or its writer failed)."""
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        loop = self._loop
        if loop is None:  # nobody has waited yet
            return
        try:
            running: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._notify()
        else:  # a writer in another thread
            loop.call_soon_threadsafe(self._notify)

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None

    # -- the watchers' side ---------------------------------------------------------------------

    async def wait(self, count: int) -> None:
        """Until the feed holds more than ``count`` records, or is closed."""
        while len(self.records) <= count and not self.closed:
            self._loop = asyncio.get_running_loop()
            if self._changed is None:
                self._changed = asyncio.Event()
            await self._changed.wait()

    def header(self) -> dict[str, Any]:
        """The header as the reader gives it (the seed an int, as in every format)."""
        return self._checker().header

    def _checker(self) -> ReplayCheck:
        if self._check is None:
            self._check = ReplayCheck(Record(1, self.records[0]))
        return self._check

    def simulated(self, index: int) -> tuple[Record, Any, Any]:
        """Record ``index`` (1-based: 0 is the header) with the states before and after it."""
        check = self._checker()
        while len(self._states) < index:
            n = len(self._states) + 1
            self._states.append(check.feed(Record(n + 1, self.records[n])))
        before = self._states[index - 2] if index > 1 else check.initial
        return Record(index + 1, self.records[index]), before, self._states[index - 1]


# ---- the frames ---------------------------------------------------------------------------------


@dataclass(slots=True)
class _Pending:
    """A frame being built: it may still get its round's DealEnded (the next record)."""

    frame: cpb.WatchFrame
    decisions: int  # decisions played up to and including this frame
    round: int  # the round it belongs to
    _response: cpb.WatchMatchResponse | None = None

    def response(self) -> cpb.WatchMatchResponse:
        """The frame as a stream message, built once: every watcher of a feed's public view is
        handed the same (read-only) message."""
        if self._response is None:
            self._response = cpb.WatchMatchResponse(frame=self.frame)
        return self._response


@dataclass(slots=True)
class _Viewer:
    """Turns records into frames for one viewpoint (``seat`` None: the public view)."""

    header: dict[str, Any]
    seat: int | None
    game: Any = None
    codec: Any = None
    shown: int = 0
    announced: int = -1
    decisions: int = 0  # the decisions this view is told of (what a delay counts)
    gone: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        spec = get_spec(self.header["game"])
        self.game, self.codec = spec.game, spec.codec
        self.gone = [False] * len(self.header["seats"])

    def frame(self, after: Any, events: list[pb.Event]) -> _Pending:
        view = self.game.observe(after, self.seat)
        frame = cpb.WatchFrame(step=self.shown, events=events)
        self.codec.observation(view, frame.view)
        to_act = getattr(view, "to_act", None)  # only what the observation itself says
        if isinstance(to_act, int) and to_act >= 0:
            frame.to_act = to_act
        return _Pending(frame, self.decisions, self.game.round_index(after))

    def feed(self, rec: Record, before: Any, after: Any) -> _Pending | None:
        """The frame ``rec`` makes, if any."""
        game, data = self.game, rec.data
        kind = rec.type
        if kind == "chance":
            self.shown += 1
            events = []
            index = game.round_index(after)
            if game.current_player(after) != CHANCE and index != self.announced:
                self.announced = index
                events.append(
                    pb.Event(
                        step=self.shown,
                        deal_started=pb.DealStarted(deal_index=index, dealer=game.dealer(after)),
                    )
                )
            return self.frame(after, events)
        if kind == "action":
            seat, fault = data["seat"], data["fault"]
            public = game.is_public(before, data["action"])
            if public or self.seat == seat:  # a delay counts the decisions this view is told of:
                self.decisions += 1  # another seat's hidden one must not release a frame
            by_arbiter = self.seat == seat and (fault is not None or self.gone[seat])
            if fault in _GONE:
                self.gone[seat] = True
            if public:
                self.shown += 1
                taken = pb.ActionTaken(
                    seat=seat, action_id=data["action"], label=data["label"], by_arbiter=by_arbiter
                )
                return self.frame(after, [pb.Event(step=self.shown, action_taken=taken)])
            if self.seat == seat:  # the seat's own unannounced action changed its view
                return self.frame(after, [])
            return None
        if kind == "fault":
            if data["fault"] in _GONE:
                self.gone[data["seat"]] = True
            return None
        if kind == "round_end":
            totals = game.returns(after)
            ended = pb.DealEnded(
                deal_index=data["round"],
                deltas=[score(Fraction(d)) for d in data["deltas"]],
                totals=[score(t) for t in totals],
            )
            self.codec.round_detail(game.observe(after, None), ended)  # a round's result: public
            made = self.frame(after, [pb.Event(step=self.shown, deal_ended=ended)])
            made.round = data["round"]  # (the state after it may count the next round)
            return made
        return None

    def end(self, data: dict[str, Any]) -> cpb.WatchMatchResponse:
        end = pb.MatchEnd(
            cancelled=data["cancelled"],
            results=[
                pb.SeatResult(
                    seat=r["seat"],
                    bot_name=seat_name(self.header, r["seat"], r["bot_name"]),
                    score=score(Fraction(r["score"])),
                    place=r["place"],
                    outcome=_OUTCOME[r["outcome"]],
                    timeouts=r["timeouts"],
                    rejected=r["rejected"],
                )
                for r in data["seats"]
            ],
        )
        if self.seat is not None:  # (others than operators: a duplicate set's once it is over)
            reveal_seed(end, int(self.header["seed"]))
            end.salt = data.get("salt") or ""
            end.chance_script_sha256 = data.get("chance_script_sha256") or ""
            if "deal_commitment" in self.header:  # format 4: the terms are committed too
                end.terms_sha256 = terms_digest(header_terms(self.header))
        return cpb.WatchMatchResponse(end=end)


def match_info(header: dict[str, Any], state: int) -> cpb.MatchInfo:
    """A match as the control API shows it, from its replay header's public part (the names of
    its bots, not their addresses or the seed)."""
    return cpb.MatchInfo(
        match_id=header["match_id"],
        game=header["game"],
        params=header["params"],
        state=state,  # type: ignore[arg-type]
        seats=[
            cpb.MatchSeat(seat=s["seat"], bot_name=seat_name(header, s["seat"], s["bot_name"]))
            for s in header["seats"]
        ],
    )


def seat_name(header: dict[str, Any], seat: int, said: str) -> str:
    """Who sits in ``seat``: the name the server registered its bot under (the header's
    ``registered_name``), never the name the bot said in its Hello (``said``), which is only
    what it says of itself; ``said`` for a replay whose host named no bots."""
    seats = header.get("seats") or []
    entry = seats[seat] if 0 <= seat < len(seats) else {}
    registered = entry.get("registered_name") if isinstance(entry, dict) else None
    return registered if isinstance(registered, str) and registered else said


# ---- the stream ---------------------------------------------------------------------------------

#: Whether the caller may watch this seat's own view (its bot's key, or an operator).
SeatPolicy = Callable[[int], bool]


class _FeedSource:
    """The records of a running match, waiting for each."""

    def __init__(self, feed: MatchFeed) -> None:
        self.feed = feed
        self.index = 1

    async def header(self) -> dict[str, Any] | None:
        await self.feed.wait(0)
        return self.feed.header() if self.feed.records else None

    async def next(self) -> tuple[Record, Any, Any] | None:
        await self.feed.wait(self.index)
        if self.index >= len(self.feed.records):
            return None  # closed
        item = self.feed.simulated(self.index)
        self.index += 1
        return item

    def state(self) -> int:
        return cpb.MATCH_STATE_RUNNING

    def available(self) -> bool:
        """Whether the next record is there already (taking it in will not wait for play)."""
        return self.index < len(self.feed.records)

    def round_end_next(self) -> bool:
        """Whether the next record is already there and is a round's end. The arbiter records
        the action that ends a round and the round's end in one go (no await between them), so
        a watcher woken by the action finds its round_end there already."""
        records = self.feed.records
        return self.index < len(records) and records[self.index].get("type") == "round_end"


class _FileSource:
    """The records of a finished (or aborted) match's replay file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.index = 0
        self.replay: Replay | None = None

    async def header(self) -> dict[str, Any] | None:
        self.replay = await asyncio.to_thread(read_replay, self.path, tolerate_truncated_tail=True)
        return self.replay.header

    def state(self) -> int:
        status = "unfinished" if self.replay is None else self.replay.status
        return {
            "finished": cpb.MATCH_STATE_FINISHED,
            "cancelled": cpb.MATCH_STATE_CANCELLED,
        }.get(status, cpb.MATCH_STATE_ABORTED)

    def available(self) -> bool:
        return self.replay is not None and self.index < len(self.replay.records)

    async def next(self) -> tuple[Record, Any, Any] | None:
        replay, i = self.replay, self.index
        if replay is None or i >= len(replay.records):
            return None
        self.index += 1
        return replay.records[i], replay.before(i), replay.states[i]

    def round_end_next(self) -> bool:
        replay = self.replay
        return (
            replay is not None
            and self.index < len(replay.records)
            and replay.records[self.index].type == "round_end"
        )


class _Frames:
    """The frames of one viewpoint, made once from a source as far as any consumer has asked;
    consumers read them by position. A feed keeps its public one, so that however many watch a
    match in public its frames are simulated, observed and encoded once."""

    def __init__(self, records: _FeedSource | _FileSource, viewer: _Viewer) -> None:
        self.records, self.viewer = records, viewer
        self.items: list[_Pending] = []
        self.rounds_done = 0
        self.taken = 0  # records taken in
        self.end: cpb.WatchMatchResponse | None = None
        self.done = False
        self._lock = asyncio.Lock()

    async def wait(self, index: int, taken: int) -> None:
        """Until there are more than ``index`` frames or more than ``taken`` records taken in
        (play went on, so a delayed frame may be due), or the frames are complete."""
        while len(self.items) <= index and self.taken <= taken and not self.done:
            async with self._lock:
                if len(self.items) <= index and self.taken <= taken and not self.done:
                    await self._step()

    async def catch_up(self) -> None:
        """Take in every record there is now (never waiting for play to go on)."""
        while not self.done and self.records.available():
            await self.wait(len(self.items), self.taken)

    async def _step(self) -> None:
        """Take in one record (two for an action and the round's end it caused)."""
        records, viewer = self.records, self.viewer
        item = await records.next()
        if item is None:  # cut off (aborted): what was played is shown
            self.done = True
            return
        self.taken += 1
        rec, before, after = item
        if rec.type == "result":
            self.end = viewer.end(rec.data)
            self.done = True
            return
        made = viewer.feed(rec, before, after)
        if rec.type == "round_end":
            self.rounds_done += 1
        elif made is not None and records.round_end_next():  # the round's end joins this frame
            end_item = await records.next()
            assert end_item is not None
            self.taken += 1
            ended = viewer.feed(*end_item)
            self.rounds_done += 1
            if ended is not None:
                made.frame.events.extend(ended.frame.events)
                made.frame.view.CopyFrom(ended.frame.view)
                made.round = ended.round
        if made is not None:
            self.items.append(made)


async def watch_match(
    source: MatchFeed | Path,
    request: cpb.WatchMatchRequest,
    *,
    may_see_seat: SeatPolicy,
    match: cpb.MatchInfo | None = None,
) -> AsyncIterator[cpb.WatchMatchResponse]:
    """The WatchMatch stream of a running match (its :class:`MatchFeed`) or a finished one (its
    replay file): ``started``, one ``frame`` per public step (``request.delay_decisions`` /
    ``delay_rounds`` behind play; everything once the match is over), then ``end`` (none for a
    match cut off without a result: an aborted one). ``request.seat``, when set, asks for that
    seat's view: :class:`PermissionDeniedError` unless ``may_see_seat(seat)``;
    :class:`ConfigError` for a seat the match does not have. ``request.snapshot``: the frames
    there are already come as one, :func:`snapshot` (the view now and the last events), and
    the stream goes on from there (delays apply as ever: the snapshot is the latest frame a
    delay releases; a match that has ended is its final view, then ``end``). ``match``: the
    match as the server knows it (default: from the replay header). A replay file that does
    not read is a :class:`~croupier.errors.ReplayError`."""
    records = _FeedSource(source) if isinstance(source, MatchFeed) else _FileSource(source)
    header = await records.header()
    if header is None:  # closed before it started
        return
    seats = len(header["seats"])
    seat = request.seat if request.HasField("seat") else None
    if seat is not None:
        if seat not in range(seats):
            raise ConfigError(f"seat {seat}: the match has seats 0..{seats - 1}")
        if not may_see_seat(seat):
            raise PermissionDeniedError(f"seat {seat}'s view is for its own bot and operators")
    if match is None:
        match = match_info(header, records.state())
    started = cpb.WatchStarted(match=match, rules_version=header["rules_version"])
    if seat is not None:
        started.seat = seat
    yield cpb.WatchMatchResponse(started=started)
    if isinstance(source, MatchFeed) and seat is None:
        if source.public is None:
            source.public = _Frames(records, _Viewer(header, None))
        frames = source.public
    else:
        frames = _Frames(records, _Viewer(header, seat))
    held: deque[_Pending] = deque()

    def ready(over: bool) -> Iterator[_Pending]:
        while held and (
            over
            or (
                frames.viewer.decisions >= held[0].decisions + request.delay_decisions
                and frames.rounds_done >= held[0].round + request.delay_rounds
            )
        ):
            yield held.popleft()

    index = taken = 0
    if request.snapshot:  # everything so far in one frame: the view now, the last events
        await frames.catch_up()
        taken = frames.taken
        held.extend(frames.items)
        index = len(frames.items)
        so_far = list(ready(frames.done))
        if so_far:
            yield snapshot(so_far)
    while not frames.done:
        await frames.wait(index, taken)
        taken = frames.taken
        held.extend(frames.items[index:])
        index = len(frames.items)
        if frames.done:
            break
        for item in ready(False):
            yield item.response()
    for item in ready(True):
        yield item.response()
    if frames.end is not None:
        yield frames.end


#: The events a snapshot frame carries at most (the latest ones).
SNAPSHOT_EVENTS = 64


def snapshot(items: list[_Pending]) -> cpb.WatchMatchResponse:
    """The snapshot frame of ``items`` (the frames so far, in order, at least one): the last one's
    step, view and seat to act, with the last :data:`SNAPSHOT_EVENTS` events of them all."""
    last = items[-1].frame
    picked: list[pb.Event] = []
    for item in reversed(items):  # from the end: only as far back as the events are kept
        picked.extend(reversed(item.frame.events))
        if len(picked) >= SNAPSHOT_EVENTS:
            break
    events = reversed(picked[:SNAPSHOT_EVENTS])
    frame = cpb.WatchFrame(step=last.step, view=last.view, events=events, snapshot=True)
    if last.HasField("to_act"):
        frame.to_act = last.to_act
    return cpb.WatchMatchResponse(frame=frame)
