"""Live spectating (croupier.serve.watch_match): the public stream is built by observe(state,
None) and nothing else, is the same live and from the file, carries the table's events, and
holds back as asked.

The leak tests play real matches (the arbiter, seats driven in-process) that differ only in
cards the public never sees, and require the public stream to be byte-identical; the seat whose
cards changed must see a different stream (so the check can fail).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scauver_kit
from seats_kit import play, scripted
from serve_kit import card_ids, hidden_cards, public_steps

from croupier.arbiter import (
    ActionEvent,
    ClockRules,
    DecisionRequest,
    Match,
    MatchConfig,
    MatchOver,
    Reply,
    RoundEnded,
    RoundStarted,
)
from croupier.errors import ConfigError, PermissionDeniedError
from croupier.games import get_spec
from croupier.replay import ReplayWriter, read_replay
from croupier.serve import MatchFeed, watch_match
from croupier.transport._codec import encode_event
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import control_pb2 as cpb

FOLDER = 2  # the seat whose hidden cards change
DEALER = 2


def _request(seat: int | None = None, **delay: int) -> cpb.WatchMatchRequest:
    request = cpb.WatchMatchRequest(match_id="m", **delay)
    if seat is not None:
        request.seat = seat
    return request


async def _collect(
    source: MatchFeed | Path, request: cpb.WatchMatchRequest, allow: bool = True
) -> list[cpb.WatchMatchResponse]:
    return [m async for m in watch_match(source, request, may_see_seat=lambda s: allow)]


def _bytes(messages: Sequence[cpb.WatchMatchResponse]) -> list[bytes]:
    return [m.SerializeToString(deterministic=True) for m in messages]


def _watch_file(path: Path, seat: int | None = None) -> list[bytes]:
    return _bytes(asyncio.run(_collect(path, _request(seat))))


def _scauver_pair(tmp_path: Path) -> tuple[Path, Path]:
    """Two Scauver matches, the same public play; seat 2's hand and its draw differ (it folds
    without a showdown: the public never sees them); test_chip_games_no_leak's scenario."""
    hands = {0: "A♦ 2♦ 3♦ 4♦ 5♦", 1: "A♥ 2♥ 3♥ 4♥ 5♥"}
    stock = "6♦ 6♥ {} 7♦ 7♥ J♦ J♥"
    decks = (
        scauver_kit.deck_for(3, DEALER, {**hands, 2: "A♣ 2♣ 3♣ J♠ K♠"}, stock=stock.format("Q♠")),
        scauver_kit.deck_for(3, DEALER, {**hands, 2: "A♣ 2♣ 3♣ 7♠ Q♠"}, stock=stock.format("6♠")),
    )
    turns: list[str | int] = ["Proceed", 0, "Proceed", 0, "Proceed", 0, 0, "NoBet"]
    paths = []
    for name, deck in zip("ab", decks, strict=True):
        path = tmp_path / f"{name}.jsonl"
        config = MatchConfig(
            "scauver",
            {"players": 3, "round_cap": 1},
            seed=1,
            clock=ClockRules(move_time_ms=5000, time_bank_ms=0),
            connect_timeout_s=5,
            chance_script=((DEALER,), deck),
        )
        scripts = [[0, *turns], [0, *turns], [0, "Fold"]]
        play(config, "m", path, [scripted(moves) for moves in scripts])
        paths.append(path)
    return paths[0], paths[1]


def test_the_public_stream_is_byte_identical_whatever_the_public_cannot_see(
    tmp_path: Path,
) -> None:
    a, b = _scauver_pair(tmp_path)
    assert read_replay(a).records != read_replay(b).records  # the omniscient files differ
    public_a, public_b = _watch_file(a), _watch_file(b)
    assert len(public_a) > 10
    assert public_a == public_b
    # a seat that never sees seat 2's cards has the same view in both (but for the reveal at
    # the end: a fresh salt every match); seat 2 does not (the comparison can fail)
    assert _watch_file(a, seat=0)[:-1] == _watch_file(b, seat=0)[:-1]
    assert _watch_file(a, seat=FOLDER)[:-1] != _watch_file(b, seat=FOLDER)[:-1]


def test_no_public_frame_holds_a_card_from_a_hand_or_the_stock(tmp_path: Path) -> None:
    """Computed from the omniscient replay: at each public step, the cards then in the hands
    and the stock are not public, and the frame of that step holds none of them; the cards
    left in hands and stock when the round ended were never shown, and no message holds one.
    The folding seat's own view does hold its cards (the check can fail)."""
    a, _ = _scauver_pair(tmp_path)
    at_step, never_shown = public_steps(read_replay(a))
    assert len(never_shown) > 10
    public = asyncio.run(_collect(a, _request()))
    frames = [m.frame for m in public if m.WhichOneof("kind") == "frame"]
    assert len(frames) > 10
    for frame in frames:
        assert not card_ids(frame) & hidden_cards(at_step[frame.step - 1]), frame.step
    for message in public:
        assert not card_ids(message) & never_shown
    own = asyncio.run(_collect(a, _request(seat=FOLDER)))
    assert set().union(*(card_ids(m) for m in own)) & never_shown


class _Random:
    """A seeded random policy."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def __call__(self, request: DecisionRequest) -> int:
        return int(request.legal_actions[self.rng.integers(len(request.legal_actions))])


async def _play_live(
    path: Path, game: str, params: dict[str, int], seed: int, feed: MatchFeed
) -> list[list[Any]]:
    match = Match(MatchConfig(game, params, seed=seed), "m", ReplayWriter(path, feed))
    seen: list[list[Any]] = [[] for _ in match.seats]

    async def drive(link: Any) -> None:
        policy = _Random(seed + link.seat)
        link.claim(f"random-{link.seat}", "1")
        while True:
            message = await link.outbox.get()
            if message is None or isinstance(message, MatchOver):
                return
            seen[link.seat].append(message)
            if isinstance(message, DecisionRequest):
                await asyncio.sleep(0)
                link.inbox.put_nowait(Reply(message.request_id, policy(message)))

    seats = [asyncio.create_task(drive(link)) for link in match.seats]
    await match.run()
    await asyncio.gather(*seats)
    return seen


@pytest.mark.parametrize(
    ("game", "params"),
    [
        ("scauver", {"players": 3, "round_cap": 3}),
        ("felduz", {"players": 3, "round_cap": 3}),
        ("as-nas", {"deals": 3}),
        ("fipsen", {"deals": 2}),
    ],
)
def test_live_early_late_and_file_streams_agree_and_carry_the_tables_events(
    tmp_path: Path, game: str, params: dict[str, int]
) -> None:
    path = tmp_path / "m.jsonl"

    async def main() -> tuple[list[Any], list[Any], list[list[Any]]]:
        feed = MatchFeed("m")
        early = asyncio.create_task(_collect(feed, _request()))
        await asyncio.sleep(0)
        play = asyncio.create_task(_play_live(path, game, params, 7, feed))
        while len(feed.records) < 10:
            await asyncio.sleep(0.001)
        late = asyncio.create_task(_collect(feed, _request()))  # joins mid-match
        seen = await play
        return await early, await late, seen

    early, late, seen = asyncio.run(main())
    from_file = asyncio.run(_collect(path, _request()))
    assert _bytes(early)[1:] == _bytes(late)[1:] == _bytes(from_file)[1:]
    assert early[0].started.match.state == cpb.MATCH_STATE_RUNNING
    assert from_file[0].started.match.state == cpb.MATCH_STATE_FINISHED
    assert early[0].WhichOneof("kind") == "started"
    assert early[-1].WhichOneof("kind") == "end"
    assert [r.bot_name for r in early[-1].end.results] == [f"random-{s}" for s in range(len(seen))]
    assert early[-1].end.seed == 0  # the reveal is not public
    assert not early[-1].end.salt
    # the frames' events are the events every seat received, in order, with their steps
    codec = get_spec(game).codec
    table = []
    for message in seen[0]:
        if isinstance(message, ActionEvent | RoundStarted | RoundEnded):
            event = pb.Event()
            encode_event(message, codec, event)
            table.append(event.SerializeToString(deterministic=True))
    frames = [m.frame for m in early if m.WhichOneof("kind") == "frame"]
    watched = [e.SerializeToString(deterministic=True) for f in frames for e in f.events]
    assert watched == table
    # one frame per public step; a round ended by an unannounced action ends in a frame of its
    # own, with the step before it
    alone = [bool(f.events) and all(e.HasField("deal_ended") for e in f.events) for f in frames]
    steps = [f.step for f, end_only in zip(frames, alone, strict=True) if not end_only]
    assert steps == sorted(set(steps)) == list(range(1, len(steps) + 1))


def test_a_seats_view_needs_permission_and_a_real_seat(tmp_path: Path) -> None:
    a, _ = _scauver_pair(tmp_path)
    with pytest.raises(PermissionDeniedError):
        asyncio.run(_collect(a, _request(seat=1), allow=False))
    with pytest.raises(ConfigError, match=r"seats 0\.\.2"):
        asyncio.run(_collect(a, _request(seat=3)))
    own = asyncio.run(_collect(a, _request(seat=1)))
    assert own[0].started.seat == 1
    assert own[-1].end.seed == 1  # the seat's bot was told the reveal


def _batches(path: Path) -> list[list[dict[str, Any]]]:
    """The replay's records as the arbiter writes them in one go: an action with its round's
    end, every other record alone (the header first)."""
    records = [r.data for r in read_replay(path).records]
    header = json.loads(path.read_text().splitlines()[0])  # as written (the seed as text)
    out: list[list[dict[str, Any]]] = [[header]]
    for record in records:
        if record["type"] == "round_end" and out[-1][-1]["type"] == "action":
            out[-1].append(record)
        else:
            out.append([record])
    return out


@pytest.mark.parametrize("delay", [{"delay_decisions": 4}, {"delay_rounds": 1}])
def test_a_delayed_watcher_sees_each_frame_only_that_far_behind_play(
    tmp_path: Path, delay: dict[str, int]
) -> None:
    """The records are fed in by hand, as the arbiter writes them; after each batch the
    watchers run. A frame's delayed release comes only once play is ``delay`` past the moment
    the undelayed watcher showed it (or at the end), and the frames are the same."""
    path = tmp_path / "m.jsonl"

    async def record() -> None:
        await _play_live(path, "scauver", {"players": 3, "round_cap": 4}, 3, MatchFeed("x"))

    asyncio.run(record())
    batches = _batches(path)
    replay = read_replay(path)  # a delay counts the announced decisions (Scauver's opening is not)
    announced = iter(
        replay.game.is_public(replay.before(i), r.data["action"])
        for i, r in enumerate(replay.records)
        if r.type == "action"
    )

    async def main() -> tuple[list[tuple[Any, int, int]], list[tuple[Any, int, int]]]:
        feed = MatchFeed("m")
        seen: dict[str, list[tuple[Any, int, int]]] = {"live": [], "held": []}
        played = {"decisions": 0, "rounds": 0}

        async def watcher(name: str, request: cpb.WatchMatchRequest) -> None:
            async for m in watch_match(feed, request, may_see_seat=lambda s: False):
                if m.WhichOneof("kind") == "frame":
                    seen[name].append((m.frame, played["decisions"], played["rounds"]))

        tasks = [
            asyncio.create_task(watcher("live", _request())),
            asyncio.create_task(watcher("held", _request(**delay))),
        ]
        for batch in batches:
            for record in batch:
                played["decisions"] += record["type"] == "action" and next(announced)
                played["rounds"] += record["type"] == "round_end"
                feed(record)
            for _ in range(30):  # every watcher takes in the batch
                await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        return seen["live"], seen["held"]

    live, held = asyncio.run(main())
    assert [f for f, _, _ in live] == [f for f, _, _ in held]
    total = (live[-1][1], live[-1][2])
    late = 0
    for (frame, decisions, _), (_, held_decisions, held_rounds) in zip(live, held, strict=True):
        if (held_decisions, held_rounds) == total:
            continue  # released at the end of the match
        if "delay_decisions" in delay:
            assert held_decisions == decisions + delay["delay_decisions"]
        else:
            ended = [e.deal_ended.deal_index for e in frame.events if e.HasField("deal_ended")]
            round_ = ended[0] if ended else frame.view.scauver.table.round
            assert held_rounds == round_ + 1
        late += 1
    assert late > 10


# ---- snapshots (WatchMatchRequest.snapshot: what the web page asks for) ---------------------


def _frames(messages: Sequence[cpb.WatchMatchResponse]) -> list[cpb.WatchFrame]:
    return [m.frame for m in messages if m.WhichOneof("kind") == "frame"]


def _snapshot_matches(full: list[cpb.WatchFrame], snap: list[cpb.WatchMatchResponse]) -> int:
    """Where in the full stream's frames ``snap`` (started, a snapshot, then frames) joined:
    the snapshot is the view of full frame k with the last events up to it, and the frames
    after it are the full stream's after k. Fails if there is no such k."""
    assert snap[0].WhichOneof("kind") == "started"
    first = snap[1].frame
    assert first.snapshot
    assert len(first.events) <= 64
    rest = _bytes([cpb.WatchMatchResponse(frame=f) for f in _frames(snap[2:])])
    for k, frame in enumerate(full):
        events = [e for f in full[: k + 1] for e in f.events][-64:]
        if (
            frame.step == first.step
            and frame.view == first.view
            and list(first.events) == events
            and rest == _bytes([cpb.WatchMatchResponse(frame=f) for f in full[k + 1 :]])
        ):
            return k
    raise AssertionError(f"the snapshot at step {first.step} is no frame of the full stream")


@pytest.mark.parametrize(
    ("game", "params"),
    [("scauver", {"players": 3, "round_cap": 6}), ("fipsen", {"deals": 3})],
)
def test_a_late_snapshot_watcher_gets_the_view_now_then_every_frame_after_it(
    tmp_path: Path, game: str, params: dict[str, int]
) -> None:
    """Records fed in by hand as the arbiter writes them; a snapshot watcher joins halfway
    (while another watches from the start: the public frames are shared), another after the
    end. The first gets one frame that is the full stream's frame there with its last events,
    then exactly the full stream's frames after it; the last gets the final view and the end."""
    path = tmp_path / "m.jsonl"
    asyncio.run(_play_live(path, game, params, 5, MatchFeed("x")))
    batches = _batches(path)

    async def main() -> tuple[list[Any], list[Any]]:
        feed = MatchFeed("m")
        early = asyncio.create_task(_collect(feed, _request()))
        late: asyncio.Task[list[Any]] | None = None
        for i, batch in enumerate(batches):
            for record in batch:
                feed(record)
            for _ in range(30):
                await asyncio.sleep(0)
            if i == len(batches) // 2:
                late = asyncio.create_task(_collect(feed, _request(snapshot=True)))
        assert late is not None
        return await early, await late

    early, late = asyncio.run(main())
    full = _frames(early)
    k = _snapshot_matches(full, late)
    assert 10 < k < len(full) - 10  # it joined mid-match, and went on live
    assert late[-1] == early[-1]  # the end
    after = asyncio.run(_collect(path, _request(snapshot=True)))
    assert _snapshot_matches(full, after) == len(full) - 1
    assert [m.WhichOneof("kind") for m in after] == ["started", "frame", "end"]
    assert sum(len(m.SerializeToString()) for m in after) < 8000


def test_no_snapshot_holds_a_card_from_a_hand_or_the_stock(tmp_path: Path) -> None:
    """A snapshot watcher joining at every point of a Scauver match (its records fed in one
    batch at a time) is never sent a card then in a hand or the stock; the two matches that
    differ only in seat 2's hidden cards give byte-identical snapshot streams."""
    a, b = _scauver_pair(tmp_path)
    at_step, never_shown = public_steps(read_replay(a))

    async def snapshots(path: Path) -> list[list[cpb.WatchMatchResponse]]:
        feed = MatchFeed("m")
        out: list[list[cpb.WatchMatchResponse]] = []
        for batch in _batches(path):
            for record in batch:
                feed(record)
            task = asyncio.create_task(_collect(feed, _request(snapshot=True)))
            for _ in range(30):
                await asyncio.sleep(0)
            out.append([])
            task.add_done_callback(lambda t, got=out[-1]: got.extend(t.result()))
        feed.close()
        for _ in range(30):
            await asyncio.sleep(0)
        return out

    seen_a, seen_b = asyncio.run(snapshots(a)), asyncio.run(snapshots(b))
    assert [_bytes(s) for s in seen_a] == [_bytes(s) for s in seen_b]
    checked = 0
    for stream in seen_a:
        frames = _frames(stream)
        if not frames:
            continue
        for frame in frames:
            assert not card_ids(frame) & hidden_cards(at_step[frame.step - 1]), frame.step
        for message in stream:
            assert not card_ids(message) & never_shown
        checked += frames[0].snapshot  # (one that joined before play began has none)
    assert checked > 10


def test_a_delayed_snapshot_is_no_further_on_than_the_delay_allows(tmp_path: Path) -> None:
    """A snapshot watcher with a delay, joining mid-match, gets as its snapshot the frame the
    same delay has released by then to a watcher there from the start, never a later one, and
    after it the frames that watcher gets."""
    path = tmp_path / "m.jsonl"
    asyncio.run(_play_live(path, "scauver", {"players": 3, "round_cap": 4}, 3, MatchFeed("x")))
    batches = _batches(path)

    async def main() -> tuple[list[Any], cpb.WatchFrame, list[Any]]:
        feed = MatchFeed("m")
        held: list[Any] = []

        async def watch_held() -> None:
            async for m in watch_match(feed, _request(delay_decisions=6), may_see_seat=bool):
                if m.WhichOneof("kind") == "frame":
                    held.append(m.frame)

        task = asyncio.create_task(watch_held())
        late: asyncio.Task[list[Any]] | None = None
        at_join: cpb.WatchFrame | None = None
        for i, batch in enumerate(batches):
            for record in batch:
                feed(record)
            for _ in range(30):
                await asyncio.sleep(0)
            if i == len(batches) // 2:
                at_join = held[-1]
                late = asyncio.create_task(
                    _collect(feed, _request(snapshot=True, delay_decisions=6))
                )
                for _ in range(30):
                    await asyncio.sleep(0)
        await task
        assert late is not None
        assert at_join is not None
        return held, at_join, await late

    held, at_join, late = asyncio.run(main())
    snap = late[1].frame
    assert snap.snapshot
    assert (snap.step, snap.view) == (at_join.step, at_join.view)
    k = held.index(at_join)
    assert _bytes([cpb.WatchMatchResponse(frame=f) for f in _frames(late[2:])]) == _bytes(
        [cpb.WatchMatchResponse(frame=f) for f in held[k + 1 :]]
    )
