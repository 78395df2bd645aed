"""Reconnect with resync on the competition server (issue 13 item 4): a registered bot whose
connection drops mid-decision (its session and its Play stream both break, as in a network
failure) comes back within ``--reconnect-grace`` with its seat token and answers the pending
decision itself: no default action is played, and the gap is in the replay.

The bot is a real SDK process in session mode (``tests/e2e/bots/sleeper.py``, slow over its
2nd decision) that dials the bot port through a TCP relay (``relay_kit.Relay``); the test
resets every relayed connection while that decision is pending, and keeps the bot's network
down for a moment. (The ladder scenario, ``tests/e2e/test_ladder_scenario.py``, cuts two bots
inside a running ladder at the protocol point where a reply is on its way.)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import pytest
from relay_kit import Relay
from serve_kit import (
    Control,
    ServeProcess,
    register,
    start_bot,
    wait_connected,
    wait_for,
    wait_state,
)

from croupier.replay import read_replay, verify
from croupier.v1 import bot_pb2 as bpb
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

SLEEPER = [
    sys.executable,
    str(Path(__file__).resolve().parents[1] / "e2e" / "bots" / "sleeper.py"),
    "--on",
    "2",
    "--sleep-ms",
    "1500",
]


def _records(path: Path) -> list[dict[str, Any]]:
    return [r.data | {"type": r.type} for r in read_replay(path).records]


def test_a_registered_bot_that_drops_mid_decision_comes_back_and_answers(tmp_path: Path) -> None:
    state = tmp_path / "state"
    names = ("sleepy", "bob", "carol", "dan")
    with ServeProcess(state, "--reconnect-grace", "8") as server:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, *names)
        relay = Relay(server.bot_address)
        log = tmp_path / "sleepy.log"
        bots = [start_bot(relay.address, keys["sleepy"], SLEEPER, log=log)]
        bots += [start_bot(server.bot_address, keys[n]) for n in names[1:]]
        try:
            wait_connected(op, names)
            created = op.CreateMatch(
                # a fixed deal: with the server's own random seed the sleeper's seat could be
                # dealt a match in which it is asked fewer than two decisions
                cpb.CreateMatchRequest(game="as-nas", params={"deals": 2}, bots=names, seed=7)
            )
            match_id = created.match.match_id
            wait_for(lambda: "sleeping 1500 ms" in log.read_text(), 60, "the 2nd decision")
            time.sleep(0.3)  # the bot is thinking about it
            relay.refusing = True
            relay.cut()
            time.sleep(0.4)
            relay.refusing = False
            done = wait_state(op, match_id, [cpb.MATCH_STATE_FINISHED], timeout=90)
        finally:
            relay.close()
            for bot in bots:
                bot.kill()
                bot.wait()
        assert relay.accepted >= 2, "the bot dialled in again"
        seat = next(s.seat for s in done.seats if s.bot_name == "sleepy")
        assert done.seats[seat].result.outcome == bpb.SEAT_OUTCOME_NORMAL
        assert (done.seats[seat].result.timeouts, done.seats[seat].result.rejected) == (0, 0)
        replay = next((state / "replays").rglob(f"{match_id}*.jsonl"))
        records = _records(replay)
        kinds = [(r["type"], r.get("seat")) for r in records]
        assert ("dropped", seat) in kinds, "the gap is recorded"
        assert ("rejoined", seat) in kinds
        assert kinds.index(("dropped", seat)) < kinds.index(("rejoined", seat))
        mine = [r for r in records if r["type"] == "action" and r["seat"] == seat]
        assert mine
        assert all(r["fault"] is None and not r.get("conceded") for r in mine), "no default action"
        verify(read_replay(replay))


def test_a_seat_handed_to_a_session_as_it_drops_goes_to_its_next_session(tmp_path: Path) -> None:
    """The server hands the bot's session a seat and the connection breaks before the bot has
    it (the relay drops the SeatAssignment and resets). Its SDK dials a new session by itself
    (the same process), and the new session is handed that seat again: the bot plays it,
    rather than being a no-show at the connect timeout (15 s) and ranked as disconnected."""
    state = tmp_path / "state"
    names = ("flaky", "bob", "carol")
    with ServeProcess(state, "--reconnect-grace", "8") as server:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, *names)
        relay = Relay(server.bot_address)
        log = tmp_path / "flaky.log"
        first = start_bot(relay.address, keys["flaky"], log=log)
        bots = [first, *(start_bot(server.bot_address, keys[n]) for n in names[1:])]
        try:
            wait_connected(op, names)
            relay.cut_at_seat()
            params = {"players": 3, "round_cap": 2}
            created = op.CreateMatch(
                cpb.CreateMatchRequest(game="scauver", params=params, bots=names)
            )
            match_id = created.match.match_id
            assert relay.was_cut.wait(30), "the seat was never handed over"
            done = wait_state(op, match_id, [cpb.MATCH_STATE_FINISHED], timeout=60)
            assert first.poll() is None, "the same process came back"
        finally:
            relay.close()
            for bot in bots:
                bot.kill()
                bot.wait()
    assert relay.accepted >= 2, "it dialled in again"
    assert "session back after" in log.read_text()
    assert relay.cut_at is not None
    assert relay.cut_at.match_id == match_id
    seat = relay.cut_at.seat
    assert done.seats[seat].bot_name == "flaky"
    assert done.seats[seat].result.outcome == bpb.SEAT_OUTCOME_NORMAL
    replay = next((state / "replays").rglob(f"{match_id}*.jsonl"))
    records = _records(replay)
    assert [r for r in records if r["type"] == "fault"] == [], "no no-show, no disconnect"
    mine = [r for r in records if r["type"] == "action" and r["seat"] == seat]
    assert mine
    # asked and answered: wall time passed (the time charged may be 0 when the server's own
    # stalls, never charged, took the whole of a quick reply on a loaded machine)
    assert all(r["fault"] is None and r["wall_us"] > 0 for r in mine), "the bot played them"
    verify(read_replay(replay))
