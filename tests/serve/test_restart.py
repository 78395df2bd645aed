"""Restart survival (docs/server.md, "What survives a restart"): after a SIGKILL and a restart
on the same state folder, every finished match, its replay and the ratings are there unchanged,
the match that was being played is recorded as aborted (not rated), registered bots and their
keys still work, and nothing is counted twice."""

from __future__ import annotations

import hashlib
import signal
import time
from fractions import Fraction
from pathlib import Path

import pytest
from serve_kit import (
    RANDOM_BOT,
    RANDOM_SLOW_BOT,
    SLOW_BOT,
    Control,
    ServeProcess,
    ctl,
    ctl_here,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_for,
    wait_state,
)

from croupier.ladder._store import read_store
from croupier.replay import read_replay, verify
from croupier.serve._storage import decisions
from croupier.serve._store import ABORTED, RUNNING, open_server_store
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

PLAYERS = {"players": 3}


def _standings(control: Control) -> list[tuple[str, int, float, float]]:
    rows = control.GetStandings(cpb.GetStandingsRequest()).rows
    return [(r.bot_name, r.matches, round(r.mu, 9), round(r.sigma, 9)) for r in rows]


def _actions(path: Path) -> int:
    """The decisions a (partial) replay on disk holds so far."""
    return path.read_bytes().count(b'{"type":"action"') if path.is_file() else 0


def _announced(data: bytes, folder: Path) -> int:
    """The announced decisions of a (partial) replay's bytes: what the match's public count
    shows (an unannounced action is not counted: tests/serve/test_decision_count.py)."""
    path = folder / f"announced-{hashlib.sha256(data).hexdigest()[:12]}.jsonl"
    path.write_bytes(data)
    return decisions(path)


def _fetch(control: Control, match_id: str) -> tuple[bytes, str]:
    pieces = list(control.FetchReplay(cpb.FetchReplayRequest(match_id=match_id)))
    return b"".join(p.chunk for p in pieces), pieces[0].sha256


def test_a_sigkilled_server_restarts_with_nothing_lost_or_counted_twice(tmp_path: Path) -> None:
    state = tmp_path / "state"
    names = ("alice", "bob", "carol")
    first = ServeProcess(state)
    op = Control(first.control_address, first.operator_key)
    keys = register(op, *names)
    # (reconnect off: these bots end when their sessions break, as a supervised bot would be
    # restarted; tests/serve/test_serve_sessions_back.py has the bots that come back by themselves)
    off = {"CROUPIER_SESSION_RECONNECT_S": "0"}
    bots = [start_bot(first.bot_address, keys[n], **off) for n in names]
    wait_connected(op, names)
    done = op.CreateMatch(cpb.CreateMatchRequest(game="scauver", params=PLAYERS, bots=names))
    finished = wait_state(op, done.match.match_id, [cpb.MATCH_STATE_FINISHED])
    data, sha = _fetch(op, finished.match_id)
    before = _standings(op)
    assert [r[1] for r in before] == [1, 1, 1]

    # a slow match, cut off by SIGKILL while it is being played
    slow = ("dan", "eve", "fay")
    keys.update(register(op, *slow))
    bots += [
        start_bot(first.bot_address, keys[n], SLOW_BOT, SLOW_BOT_MS="300", **off) for n in slow
    ]
    wait_connected(op, slow)
    cut = op.CreateMatch(cpb.CreateMatchRequest(game="scauver", params=PLAYERS, bots=slow))
    wait_state(op, cut.match.match_id, [cpb.MATCH_STATE_RUNNING])
    partial = state / "replays" / f"{cut.match.match_id}.jsonl"
    deadline = time.monotonic() + 60
    while _actions(partial) < 3 and time.monotonic() < deadline:  # a few decisions played
        time.sleep(0.05)
    op.close()
    first.kill()
    on_disk = partial.read_bytes()
    for bot in bots:  # their sessions broke with the server: the SDK bots end (reconnect 0)
        assert bot.wait(30) == 2

    with ServeProcess(state) as second:
        op = Control(second.control_address, second.operator_key)
        assert second.operator_key == first.operator_key  # the key file is kept, not remade
        kept = op.GetMatch(cpb.GetMatchRequest(match_id=finished.match_id)).match
        assert kept.state == cpb.MATCH_STATE_FINISHED
        assert kept == finished
        again, sha_again = _fetch(op, finished.match_id)
        assert (again, sha_again) == (data, sha)
        assert sha == hashlib.sha256(data).hexdigest()
        copy = tmp_path / "fetched.jsonl"
        copy.write_bytes(again)
        verify(read_replay(copy))  # raises if any step disagrees

        aborted = op.GetMatch(cpb.GetMatchRequest(match_id=cut.match.match_id)).match
        assert aborted.state == cpb.MATCH_STATE_ABORTED
        assert not any(s.HasField("result") for s in aborted.seats)  # not rated
        # what was played is kept: its decisions counted, its partial replay fetchable
        assert on_disk.count(b'{"type":"action"') >= 3
        played = _announced(on_disk, tmp_path)
        assert aborted.decisions == played
        kept_partial, partial_sha = _fetch(op, cut.match.match_id)
        assert kept_partial == on_disk
        assert partial_sha == hashlib.sha256(on_disk).hexdigest()
        assert _standings(op) == before  # the aborted match counts for nobody
        states = [m.state for m in op.ListMatches(cpb.ListMatchesRequest()).matches]
        assert sorted(states) == [cpb.MATCH_STATE_FINISHED, cpb.MATCH_STATE_ABORTED]

        # the registered bots and their keys outlive the restart
        listed = {b.bot_name for b in op.ListBots(cpb.ListBotsRequest()).bots}
        assert listed == {*names, *slow}
        back = [start_bot(second.bot_address, keys[n]) for n in names]
        wait_connected(op, names)
        new = op.CreateMatch(cpb.CreateMatchRequest(game="scauver", params=PLAYERS, bots=names))
        wait_state(op, new.match.match_id, [cpb.MATCH_STATE_FINISHED])
        after = _standings(op)
        assert sorted(r[1] for r in after) == [2, 2, 2]  # one more match each, never two
        op.close()
        second.stop()
        stop_bots(back)


CUP = """
name = "kill-cup"
game = "scauver"
seed = 4
concurrency = 1
[params]
players = 2
round_cap = 1
[format]
duplicate = false
[bots]
amy = "{bot}"
bob = "{bot}"
"""


def test_a_kill_between_a_tournaments_commit_and_the_servers_keeps_the_match_finished(
    tmp_path: Path,
) -> None:
    """The server is SIGKILLed (its test hook) after a tournament's store has committed a
    match and before the server's store records it: restarted, the server lists that match
    finished, with its replay, digest and seats, as the tournament's store has it; it is not
    aborted."""
    state = tmp_path / "state"
    config = tmp_path / "cup.toml"
    config.write_text(CUP.format(bot=" ".join(RANDOM_BOT)))
    first = ServeProcess(state, env={"CROUPIER_TEST_KILL_BEFORE_MIRROR": "1"})
    try:
        done = ctl(first, "tournament", config)
        assert done.returncode == 0, done.stderr
        assert first.proc.wait(60) == -signal.SIGKILL  # the hook fired
    finally:
        if first.proc.poll() is None:
            first.kill()
    held = read_store(state / "tournaments" / "kill-cup" / "store.sqlite")
    try:
        (committed,) = held.matches()
    finally:
        held.close()
    store = open_server_store(state / "croupier.sqlite")
    try:
        left = store.get_match(committed.match_id)
    finally:
        store.close()
    assert left is not None
    assert left.state == RUNNING  # the window the hook opens: committed there, open here

    with ServeProcess(state) as second:
        op = Control(second.control_address, second.operator_key)
        match = op.GetMatch(cpb.GetMatchRequest(match_id=committed.match_id)).match
        assert match.state == cpb.MATCH_STATE_FINISHED
        assert match.tournament == "kill-cup"
        data, sha = _fetch(op, committed.match_id)
        assert sha == committed.replay_sha256 == hashlib.sha256(data).hexdigest()
        assert match.decisions == _announced(data, tmp_path) > 0
        scores = [
            (s.bot_name, Fraction(s.result.score.numerator, s.result.score.denominator))
            for s in match.seats
        ]
        assert scores == [(s.bot, s.score) for s in committed.seats]
        others = [
            m.state
            for m in op.ListMatches(cpb.ListMatchesRequest()).matches
            if m.match_id != committed.match_id
        ]
        assert set(others) <= {cpb.MATCH_STATE_ABORTED}  # the cup's next match, if it began
        # its name is taken for good: the same tournament again is refused, in one line
        again = ctl_here(second, "tournament", config)
        assert again.returncode == 2
        assert again.stderr == (
            "croupier: error: already_exists: a tournament named 'kill-cup' exists already: "
            "a name is used once per state folder\n"
        )
        op.close()
    copy = tmp_path / "fetched.jsonl"
    copy.write_bytes(data)
    verify(read_replay(copy))


def test_a_stop_records_the_servers_own_running_and_pending_matches_as_aborted(
    tmp_path: Path,
) -> None:
    """SIGTERM while one of the server's own matches is played and another waits for its slot
    (``--max-matches 1``): the stop records both as aborted (not cancelled by an operator, not
    left open for the next start to find), the one played with its partial replay."""
    state = tmp_path / "state"
    server = ServeProcess(state, "--max-matches", "1")
    bots = []
    try:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, "ann", "ben")
        bots = [
            start_bot(server.bot_address, key, RANDOM_SLOW_BOT, SLOW_BOT_DELAY_S="0.2")
            for key in keys.values()
        ]
        wait_connected(op, list(keys))
        request = cpb.CreateMatchRequest(game="scauver", params={"players": 2}, bots=list(keys))
        played = op.CreateMatch(request).match.match_id
        waiting = op.CreateMatch(request).match.match_id

        def under_way() -> bool:
            return op.GetMatch(cpb.GetMatchRequest(match_id=played)).match.decisions >= 1

        wait_for(under_way, 60, "the first match to be under way")
        match = op.GetMatch(cpb.GetMatchRequest(match_id=waiting)).match
        assert match.state == cpb.MATCH_STATE_PENDING
        op.close()
    finally:
        assert server.stop() == 0
        stop_bots(bots)
    store = open_server_store(state / "croupier.sqlite")
    try:
        ended = {m.match_id: m for m in store.list_matches()}
    finally:
        store.close()
    assert sorted(ended) == sorted((played, waiting))
    assert [ended[i].state for i in (played, waiting)] == [ABORTED, ABORTED]
    assert {m.detail for m in ended.values()} == {"the server stopped before the match ended"}
    assert ended[played].decisions == decisions(state / ended[played].replay_path) >= 1
