"""A match whose registered bots are not connected waits for them (at most the pool's session
timeout, ``SESSION_TIMEOUT_S``, every seat at once: ``tests/e2e/test_sessions.py``), but neither
an operator's cancel nor the server's stop waits that out. Before, the cancel was looked at only
once every seat had been handed out, one after another: a SIGTERMed server sat out 10 s per
absent bot, and a harness that gives it 30 s killed it before it recorded the match (seen in
``tests/e2e/test_secret_deals.py``, whose bots stopped while the ladder seated them)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from serve_kit import Control, ServeProcess, register, wait_state

from croupier.transport._pool import SESSION_TIMEOUT_S
from croupier.v1 import control_pb2 as cpb


def _waiting_match(op: Control) -> str:
    """A two-seat match of two registered bots that never connect, once it is running (its
    seats being handed out)."""
    match_id: str = op.CreateMatch(
        cpb.CreateMatchRequest(
            game="scauver", params={"players": 2, "round_cap": 3}, bots=["gone1", "gone2"]
        )
    ).match.match_id
    wait_state(op, match_id, [cpb.MATCH_STATE_RUNNING], 30)
    return match_id


def test_cancelling_or_stopping_does_not_wait_for_absent_bots(tmp_path: Path) -> None:
    server = ServeProcess(tmp_path / "state")
    try:
        op = Control(server.control_address, server.operator_key)
        register(op, "gone1", "gone2")

        match_id = _waiting_match(op)
        started = time.monotonic()
        op.CancelMatch(cpb.CancelMatchRequest(match_id=match_id))
        wait_state(op, match_id, [cpb.MATCH_STATE_CANCELLED], 60)
        assert time.monotonic() - started < SESSION_TIMEOUT_S / 2  # (before: 10-20 s)

        match_id = _waiting_match(op)
        op.close()
        started = time.monotonic()
        server.proc.send_signal(signal.SIGTERM)
        code = server.proc.wait(60)
        took = time.monotonic() - started
    finally:
        if server.proc.poll() is None:
            server.kill()
    assert code == 0
    assert took < SESSION_TIMEOUT_S / 2, took  # (before: 10-20 s)
    log = server.log.read_text()
    assert '"server_stopped"' in log
    assert f'"match_id": "{match_id}", "state": "aborted"' in log, log[-3000:]
