"""Live progress and live watching on a real ``croupier serve``: a running match's decision
count as ListMatches / GetMatch show it, and a tournament created on the server watched while
it is played, never showing a spectator a hidden card, its seats' views for operators only."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from serve_kit import (
    BOTS,
    RANDOM_SLOW_BOT,
    Control,
    ServeProcess,
    card_ids,
    ctl_here,
    hidden_cards,
    public_steps,
    register,
    start_bot,
    wait_connected,
    wait_for,
    watch_code,
)

from croupier.ladder import read_store
from croupier.replay import read_replay
from croupier.serve._storage import decisions
from croupier.serve._store import ABORTED, FINISHED, open_server_store
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

PLAYERS = ("ann", "ben", "cyd")
OPEN = (cpb.MATCH_STATE_PENDING, cpb.MATCH_STATE_RUNNING)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    tmp = tmp_path_factory.mktemp("live")
    with ServeProcess(tmp / "state") as served:
        yield served


def _replay(op: Control, match_id: str, path: Path) -> Path:
    """The match's omniscient replay, fetched as an operator."""
    chunks = op.FetchReplay(cpb.FetchReplayRequest(match_id=match_id))
    path.write_bytes(b"".join(c.chunk for c in chunks))
    return path


def _actions(path: Path) -> int:
    """The announced decisions of a replay (what the public count shows: test_decision_count)."""
    return decisions(path)


def _poll(op: Control, match_id: str) -> tuple[list[int], list[int], cpb.MatchInfo]:
    """GetMatch and ListMatches of a match until it has ended: the decision counts each showed
    while it ran, and the match as it ended."""
    got, listed = [], []
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        match = op.GetMatch(cpb.GetMatchRequest(match_id=match_id)).match
        if match.state not in OPEN:
            return got, listed, match
        if match.state == cpb.MATCH_STATE_RUNNING:
            got.append(match.decisions)
        page = op.ListMatches(cpb.ListMatchesRequest(state=cpb.MATCH_STATE_RUNNING)).matches
        listed += [m.decisions for m in page if m.match_id == match_id]
        time.sleep(0.05)
    raise AssertionError(f"match {match_id} did not end")


def test_a_running_match_shows_its_decisions_so_far(server: ServeProcess, tmp_path: Path) -> None:
    op = Control(server.control_address, server.operator_key)
    keys = register(op, *PLAYERS)
    bots = [
        start_bot(server.bot_address, keys[n], RANDOM_SLOW_BOT, SLOW_BOT_DELAY_S="0.05")
        for n in PLAYERS
    ]
    try:
        wait_connected(op, PLAYERS)
        request = cpb.CreateMatchRequest(
            game="scauver", params={"players": 3, "round_cap": 2}, bots=list(PLAYERS), seed=4
        )
        match_id = op.CreateMatch(request).match.match_id
        wait_for(
            lambda: op.GetMatch(cpb.GetMatchRequest(match_id=match_id)).match.decisions >= 3,
            60,
            "decisions to be played",
        )
        shown = ctl_here(server, "list", "--state", "running", "--json")
        assert shown.returncode == 0, shown.stderr
        got, listed, final = _poll(op, match_id)
        assert final.state == cpb.MATCH_STATE_FINISHED
        played = _actions(_replay(op, match_id, tmp_path / "m.jsonl"))
        assert final.decisions == played  # the final count is the replay's
        assert got == sorted(got), got  # it only goes up
        assert len(set(got)) >= 3, got  # ... step by step while the match runs
        assert got[0] > 0
        assert got[-1] <= played
        assert listed  # ListMatches shows the same live count
        assert 0 < max(listed) <= played
        ended = op.ListMatches(cpb.ListMatchesRequest(state=cpb.MATCH_STATE_FINISHED)).matches
        assert [m.decisions for m in ended if m.match_id == match_id] == [played]
        listed_by_ctl = {m["match_id"]: m["decisions"] for m in json.loads(shown.stdout)}
        assert listed_by_ctl[match_id] >= 3  # croupier ctl list shows it too
    finally:
        for bot in bots:
            bot.terminate()
        for bot in bots:
            bot.wait(20)
        op.close()


CUP = """
name = "live-cup"
game = "scauver"
seed = 9
concurrency = 3
[params]
players = 3
round_cap = 1
[format]
duplicate = false
[bots]
amy = "{bot}"
bob = "{bot}"
cal = "{bot}"
"""


class _Stream(threading.Thread):
    """One WatchMatch stream, collected in a thread with each message's arrival time."""

    def __init__(self, control: Control, request: cpb.WatchMatchRequest) -> None:
        super().__init__(daemon=True)
        self.control, self.request = control, request
        self.messages: list[tuple[float, cpb.WatchMatchResponse]] = []
        self.error: grpc.RpcError | None = None
        self.start()

    def run(self) -> None:
        try:
            for message in self.control.WatchMatch(self.request):
                self.messages.append((time.monotonic(), message))
        except grpc.RpcError as exc:
            self.error = exc

    def frames(self) -> list[cpb.WatchFrame]:
        return [m.frame for _, m in self.messages if m.WhichOneof("kind") == "frame"]

    def wire(self) -> list[bytes]:
        """The messages after ``started`` as bytes."""
        return [m.SerializeToString(deterministic=True) for _, m in self.messages[1:]]


def test_a_server_tournament_is_watched_live_and_a_spectator_never_sees_a_hidden_card(
    server: ServeProcess, tmp_path: Path
) -> None:
    """A spectator, a delayed spectator and an operator watching a seat join a tournament
    match while it runs. Afterwards, from the omniscient replay: no public frame holds a card
    then in a hand or the stock, nor one never shown at all; the seat's view does hold them
    (the check can fail). A registered bot that shares a tournament bot's name is not that
    seat's owner."""
    op = Control(server.control_address, server.operator_key)
    spectator = Control(server.control_address, server.spectator_key)
    namesake = Control(server.control_address, register(op, "amy")["amy"])
    # (a launched bot's environment is scrubbed: env sets the pauses; the first, so that the
    # watchers join before play shows anything)
    pauses = "env SLOW_BOT_FIRST_S=1 SLOW_BOT_DELAY_S=0.1"
    bot = f"{pauses} {sys.executable} {BOTS / 'random_slow_bot.py'}"
    config = tmp_path / "cup.toml"
    config.write_text(CUP.format(bot=bot))
    started = ctl_here(server, "tournament", config)
    assert started.returncode == 0, started.stderr
    running: list[cpb.MatchInfo] = []

    def cup_running() -> bool:
        page = op.ListMatches(cpb.ListMatchesRequest(state=cpb.MATCH_STATE_RUNNING)).matches
        running[:] = [m for m in page if m.tournament == "live-cup"]
        return bool(running)

    wait_for(cup_running, 60, "a tournament match to be played")
    match = running[0]
    match_id = match.match_id
    seat = 0
    streams = [
        _Stream(spectator, cpb.WatchMatchRequest(match_id=match_id)),
        _Stream(spectator, cpb.WatchMatchRequest(match_id=match_id, delay_decisions=5)),
        _Stream(op, cpb.WatchMatchRequest(match_id=match_id, seat=seat)),
    ]
    amy = next(s.seat for s in match.seats if s.bot_name == "amy")
    assert watch_code(namesake, match_id, amy) == grpc.StatusCode.PERMISSION_DENIED
    assert watch_code(spectator, match_id, seat) == grpc.StatusCode.PERMISSION_DENIED
    got, _, final = _poll(op, match_id)
    ran_until = time.monotonic()  # the last poll that saw it running was before this
    for stream in streams:
        stream.join(30)
        assert stream.error is None, stream.error
    public, delayed, own = streams
    assert final.state == cpb.MATCH_STATE_FINISHED
    assert final.tournament == "live-cup"
    first = public.messages[0][1]
    assert first.started.match.state == cpb.MATCH_STATE_RUNNING  # live, not from the file
    assert sum(t < ran_until for t, m in public.messages if m.HasField("frame")) >= 3
    assert public.messages[-1][1].HasField("end")
    # the live decision count of a tournament match, and its final count from the replay
    replay_path = _replay(op, match_id, tmp_path / "cup.jsonl")
    assert got == sorted(got)
    assert max(got) > 0
    assert max(got) <= final.decisions == _actions(replay_path)
    # the delay holds frames back but changes none of them
    assert delayed.wire() == public.wire()
    first_public, first_delayed = (
        next(t for t, m in s.messages if m.HasField("frame")) for s in (public, delayed)
    )
    assert first_delayed > first_public
    # no hidden card, computed from the omniscient replay
    at_step, never_shown = public_steps(read_replay(replay_path))
    assert len(never_shown) > 10
    frames = public.frames()
    assert len(frames) >= 4
    for frame in frames:
        assert not card_ids(frame) & hidden_cards(at_step[frame.step - 1]), frame.step
    for _, message in public.messages:
        assert not card_ids(message) & never_shown
    # the seat's own view, live, holds its hidden hand (so the check above can fail)
    assert own.messages[0][1].started.seat == seat
    assert any(card_ids(f) & hidden_cards(at_step[f.step - 1]) for f in own.frames())
    # once ended it is streamed from its file: the same public stream
    again = _Stream(spectator, cpb.WatchMatchRequest(match_id=match_id))
    again.join(30)
    assert again.messages[0][1].started.match.state == cpb.MATCH_STATE_FINISHED
    assert again.wire() == public.wire()
    for control in (op, spectator, namesake):
        control.close()


def test_a_server_stop_records_a_tournaments_live_match_aborted_and_keeps_the_finished(
    tmp_path: Path,
) -> None:
    """SIGTERM while a tournament's second (or a later) match is played: the server's store holds
    those before it as finished, exactly as the tournament's store has them, and the one running
    as aborted by the stop (not left running for the next start to find), its partial replay
    kept."""
    bot = f"env SLOW_BOT_DELAY_S=0.05 {sys.executable} {BOTS / 'random_slow_bot.py'}"
    config = tmp_path / "cup.toml"
    config.write_text(CUP.format(bot=bot).replace("concurrency = 3", "concurrency = 1"))
    server = ServeProcess(tmp_path / "state")
    try:
        assert ctl_here(server, "tournament", config).returncode == 0
        op = Control(server.control_address, server.operator_key)

        def second_running() -> bool:
            cup = [
                m
                for m in op.ListMatches(cpb.ListMatchesRequest()).matches
                if m.tournament == "live-cup"
            ]
            finished = [m for m in cup if m.state == cpb.MATCH_STATE_FINISHED]
            running = [m for m in cup if m.state == cpb.MATCH_STATE_RUNNING]
            # (the second match, or a later one: a short match may end between two polls)
            return bool(finished) and len(running) == 1 and running[0].decisions >= 1

        wait_for(second_running, 60, "a match after the cup's first to be played")
        op.close()
    finally:
        assert server.stop() == 0
    store = open_server_store(tmp_path / "state" / "croupier.sqlite")
    try:
        cup = {m.match_id: m for m in store.list_matches() if m.tournament == "live-cup"}
    finally:
        store.close()
    folder = tmp_path / "state" / "tournaments" / "live-cup"
    tournament = read_store(folder / "store.sqlite")
    try:
        committed = tournament.finished_ids()
    finally:
        tournament.close()
    finished = {i for i, m in cup.items() if m.state == FINISHED}
    aborted = [m for m in cup.values() if m.state == ABORTED]
    assert finished == committed
    assert len(finished) >= 1
    assert len(aborted) == 1
    assert aborted[0].detail == "the server stopped before the match ended"
    assert aborted[0].decisions == _actions(tmp_path / "state" / aborted[0].replay_path) >= 1
    assert all(m.state in (FINISHED, ABORTED) for m in cup.values())  # none left running


def test_a_duplicate_set_is_watched_by_operators_only_until_its_tournament_ends(
    server: ServeProcess, tmp_path: Path
) -> None:
    """With duplicate sets every seating of a table plays the same deals: a seating's public
    view (showdowns, the stock) shows cards that are hidden at its sibling seatings, and a bot's
    owner may play one while watching another. So while the tournament may still play the set,
    WatchMatch of its matches, even finished ones, is for operators; afterwards for all."""
    op = Control(server.control_address, server.operator_key)
    spectator = Control(server.control_address, server.spectator_key)
    bot = f"env SLOW_BOT_DELAY_S=0.05 {sys.executable} {BOTS / 'random_slow_bot.py'}"
    config = tmp_path / "dup.toml"
    text = CUP.format(bot=bot).replace('"live-cup"', '"dup-cup"')
    config.write_text(text.replace("duplicate = false", "duplicate = true"))
    started = ctl_here(server, "tournament", config)
    assert started.returncode == 0, started.stderr
    # one set of 3! seatings: three seats are few, so the seats are permuted, not rotated
    assert started.stdout.strip() == "tournament dup-cup: 6 matches"

    def cup(state: int) -> list[cpb.MatchInfo]:
        page = op.ListMatches(cpb.ListMatchesRequest(state=state)).matches
        return [m for m in page if m.tournament == "dup-cup"]

    wait_for(lambda: cup(cpb.MATCH_STATE_RUNNING), 60, "a seating to be played")
    match_id = cup(cpb.MATCH_STATE_RUNNING)[0].match_id
    request = cpb.WatchMatchRequest(match_id=match_id)
    with pytest.raises(grpc.RpcError) as refused:
        next(iter(spectator.WatchMatch(request)))
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    assert "duplicate set" in (refused.value.details() or "")
    assert next(iter(op.WatchMatch(request))).HasField("started")  # operators may

    def refused_alone() -> bool:
        """A tournament's match is not cancelled alone: CancelMatch of a running seating is
        refused so. (One that ended before the call is refused as ended: the next is tried.)"""
        for running in cup(cpb.MATCH_STATE_RUNNING):
            with pytest.raises(grpc.RpcError) as kept:
                op.CancelMatch(cpb.CancelMatchRequest(match_id=running.match_id))
            assert kept.value.code() == grpc.StatusCode.FAILED_PRECONDITION
            details = kept.value.details() or ""
            if "has ended" not in details:
                assert "not cancelled one by one" in details, details
                return True
        return False

    wait_for(refused_alone, 60, "a running seating's cancel to be refused")
    standings = cpb.GetStandingsRequest(tournament="dup-cup")
    wait_for(  # (its last value: a count still growing could step over a value in between)
        lambda: sum(r.matches for r in op.GetStandings(standings).rows) == 6 * 3,
        120,
        "the tournament to end",
    )
    wait_for(lambda: not cup(cpb.MATCH_STATE_RUNNING), 30, "its last match to be listed ended")
    wait_for(
        lambda: ctl_here(server, "watch", match_id, key=server.spectator_key).returncode == 0,
        30,
        "the set to be over",
    )
    for control in (op, spectator):
        control.close()
