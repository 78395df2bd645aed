"""A registered bot's session comes back by itself (issue: sessions survive a dropped connection
and a server restart): the Python SDK, the Node SDK and the client-side stdio bridge, each a real
process in session mode, dial a new session with their key when theirs breaks, for
``CROUPIER_SESSION_RECONNECT_S`` (300 s by default), and are seated in new matches without
being restarted.

- ``croupier serve`` is SIGKILLed (or stopped with SIGTERM) and started again on the same ports
  and state dir: the same three processes (same PIDs) are connected again and play a new match
  to a normal finish.
- A TCP relay (``relay_kit.Relay``) resets the connection of each of the three while it holds a
  decision (its reply is dropped): that match finishes normally (each seat handed again to its
  bot's new session, which is multiplexed, and answered), and a later match is played through
  the bots' new sessions.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from relay_kit import Relay
from serve_kit import (
    RANDOM_BOT,
    Control,
    ServeProcess,
    node_program,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_for,
    wait_state,
)

from croupier.replay import read_replay, verify
from croupier.v1 import bot_pb2 as bpb
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NODE_SDK = ROOT / "clients" / "node"
STDIO_BOT = [sys.executable, str(ROOT / "clients" / "stdio" / "random_bot.py")]
#: A 3-player Scauver match of two rounds: a few seconds with three random bots.
GAME, PARAMS = "scauver", {"players": 3, "round_cap": 2}
FINISHED = cpb.MATCH_STATE_FINISHED


def _bridge(address: str, key: str) -> list[str]:
    bridge = [sys.executable, "-m", "croupier_bot.stdio"]
    return [*bridge, "--connect", address, "--key", key, "--", *STDIO_BOT]


def _play(op: Control, names: tuple[str, ...]) -> Any:
    """Create a match of ``names`` and wait for its end; the finished MatchInfo."""
    created = op.CreateMatch(cpb.CreateMatchRequest(game=GAME, params=PARAMS, bots=names))
    return wait_state(op, created.match.match_id, [FINISHED], timeout=60)


def _all_normal(done: Any) -> bool:
    return all(s.result.outcome == bpb.SEAT_OUTCOME_NORMAL for s in done.seats)


@pytest.mark.parametrize("how", ["kill", "stop"])
def test_the_same_bot_processes_play_on_after_the_server_is_killed_and_restarted(
    tmp_path: Path, how: str
) -> None:
    """``kill``: SIGKILL, the sessions break. ``stop``: SIGTERM, the server ends the registered
    bots' sessions UNAVAILABLE (it will be back), not OK (no more seats), so they dial again."""
    node = node_program()
    state = tmp_path / "state"
    names = ("py", "js", "io")
    logs = {n: tmp_path / f"{n}.log" for n in names}
    first = ServeProcess(state)
    bots: list[subprocess.Popen[bytes]] = []
    try:
        op = Control(first.control_address, first.operator_key)
        keys = register(op, *names)
        address = first.bot_address
        bots = [
            start_bot(address, keys["py"], RANDOM_BOT, log=logs["py"]),
            start_bot(
                address,
                keys["js"],
                [node, str(NODE_SDK / "examples" / "random.js")],
                log=logs["js"],
            ),
            start_bot(address, keys["io"], _bridge(address, keys["io"]), log=logs["io"]),
        ]
        wait_connected(op, names)
        assert _all_normal(_play(op, names))
        op.close()
        if how == "kill":
            first.kill()
        else:
            assert first.stop() == 0
        again = ServeProcess(
            state, "--bot-listen", address, "--control-listen", first.control_address
        )
        with again:
            op = Control(again.control_address, again.operator_key)
            wait_connected(op, names, timeout=30)  # by themselves: nobody restarted them
            assert [b.poll() for b in bots] == [None, None, None], "the same processes"
            done = _play(op, names)
            op.close()
    finally:
        stop_bots(bots)
    assert _all_normal(done), [s.result for s in done.seats]
    assert sorted(s.bot_name for s in done.seats) == sorted(names)
    for name in names:
        text = logs[name].read_text()
        assert "session dropped" in text, (name, text[-2000:])
        assert "session back after" in text, (name, text[-2000:])
    replay = next((state / "replays").rglob(f"{done.match_id}*.jsonl"))
    verify(read_replay(replay))


def test_a_session_reset_mid_match_comes_back_and_its_seat_rejoins(tmp_path: Path) -> None:
    node = node_program()
    state = tmp_path / "state"
    names = ("py", "js", "io")
    with ServeProcess(state, "--reconnect-grace", "8") as server:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, *names)
        relays = {n: Relay(server.bot_address) for n in names}
        argv = {
            "py": RANDOM_BOT,
            "js": [node, str(NODE_SDK / "examples" / "random.js")],
            "io": _bridge(relays["io"].address, keys["io"]),
        }
        logs = {n: tmp_path / f"{n}.log" for n in names}
        bots = [start_bot(relays[n].address, keys[n], argv[n], log=logs[n]) for n in names]
        try:
            wait_connected(op, names)
            for relay in relays.values():
                relay.cut_at_reply()  # the bot's reply to its next decision, and everything
            held = _play(op, names)
            for name, relay in relays.items():
                assert relay.was_cut.is_set(), f"{name}'s connection was never reset"
                assert relay.cut_at is not None
                assert relay.cut_at.match_id == held.match_id
            # the bots come back by themselves, through their new sessions
            wait_for(lambda: all(r.accepted >= 2 for r in relays.values()), 30, "new dials")
            wait_connected(op, names)
            later = _play(op, names)
            alive = [b.poll() for b in bots]
        finally:
            for relay in relays.values():
                relay.close()
            stop_bots(bots)
            op.close()
    assert alive == [None, None, None], "the same processes"
    assert _all_normal(held), [s.result for s in held.seats]
    assert _all_normal(later), [s.result for s in later.seats]
    records = [
        r.data | {"type": r.type}
        for r in read_replay(next((state / "replays").rglob(f"{held.match_id}*.jsonl"))).records
    ]
    for name in relays:
        seat = next(s.seat for s in held.seats if s.bot_name == name)
        kinds = [r["type"] for r in records if r.get("seat") == seat]
        assert "dropped" in kinds, (name, kinds)
        assert "rejoined" in kinds, (name, kinds)
        assert kinds.index("dropped") < kinds.index("rejoined")
        mine = [r for r in records if r["type"] == "action" and r["seat"] == seat]
        assert all(r["fault"] is None for r in mine), "no default action for the cut seat"
    for name in relays:
        text = logs[name].read_text()
        assert "session back after" in text, (name, text[-2000:])
    for match in (held, later):
        verify(read_replay(next((state / "replays").rglob(f"{match.match_id}*.jsonl"))))
