"""``croupier ctl watch`` on a real ``croupier serve`` with registered bots playing: the public
view rendered live and again from the finished match's file; a seat's own view for its bot's
key only; the renderer escapes whatever a server sends."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import grpc
import pytest
from serve_kit import (
    RANDOM_SLOW_BOT,
    Control,
    ServeProcess,
    ctl,
    register,
    start_bot,
    wait_connected,
)

from croupier.cli import _watch
from croupier.cli._ctl import EXIT_REFUSED
from croupier.v1 import control_pb2 as cpb

EVIL = "evil\x1b]0;owned\x07\x1b[2J\r\nforged line"
BOTS = ("alice", "bob", "carol")


def _served_match(tmp_path: Path, server: ServeProcess) -> tuple[str, dict[str, str], list[Any]]:
    """Three registered random bots playing a two-round Scauver match (alice in seat 0)."""
    control = Control(server.control_address, server.operator_key)
    keys = register(control, *BOTS)
    bots = [
        start_bot(
            server.bot_address,
            keys[name],
            RANDOM_SLOW_BOT,
            tmp_path / f"{name}.log",
            CROUPIER_SEED=str(seed),
            SLOW_BOT_DELAY_S="0.02",
            SLOW_BOT_FIRST_S="0.5",
        )
        for seed, name in enumerate(BOTS, start=1)
    ]
    wait_connected(control, BOTS)
    request = cpb.CreateMatchRequest(
        game="scauver", params={"players": 3, "round_cap": 2}, bots=list(BOTS), seed=3
    )
    match_id: str = control.CreateMatch(request).match.match_id
    control.close()
    return match_id, keys, bots


@pytest.mark.e2e
def test_ctl_watch_renders_a_running_match_live_and_only_owners_see_a_seat(
    tmp_path: Path,
) -> None:
    with ServeProcess(tmp_path / "state") as server:
        match_id, keys, bots = _served_match(tmp_path, server)
        try:
            live = ctl(server, "watch", match_id, key="")  # anonymous: a spectator
            assert live.returncode == 0, live.stderr
            text = live.stdout
            assert f"scauver · match {match_id} · public view" in text
            assert "── round 1 · dealer seat" in text
            assert "── round 2 ended:" in text
            assert "Final standings" in text
            assert "pot " in text
            assert "\x1b" not in text
            # a finished match, from its replay file: the same lines
            again = ctl(server, "watch", match_id, key="")
            assert again.returncode == 0
            assert again.stdout == text
            # a seat's own view: its bot's key (and operators); nobody else
            own = Control(server.control_address, keys["alice"])
            mine = list(own.WatchMatch(cpb.WatchMatchRequest(match_id=match_id, seat=0)))
            assert mine[0].started.seat == 0
            assert any(m.frame.view.scauver.hand for m in mine if m.HasField("frame"))
            own.close()
            for key in (keys["bob"], server.spectator_key, None):
                other = Control(server.control_address, key)
                with pytest.raises(grpc.RpcError) as refused:
                    list(other.WatchMatch(cpb.WatchMatchRequest(match_id=match_id, seat=0)))
                assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
                other.close()
            denied = ctl(server, "watch", match_id, "--seat", "0", key=keys["bob"])
            assert denied.returncode == EXIT_REFUSED
            assert denied.stderr.count("\n") == 1
            assert denied.stderr.startswith("croupier: error: ")
        finally:
            for bot in bots:
                bot.terminate()
                bot.wait(10)


def test_the_renderer_escapes_whatever_a_server_sends_as_a_name() -> None:
    """Names are cleaned when a bot claims its seat; the renderer does not rely on it."""
    match = cpb.MatchInfo(match_id="m\x1b[1A", game="scauver", params={"players": 2})
    match.seats.add(seat=0, bot_name=EVIL)
    match.seats.add(seat=1, bot_name="x" * 500)
    out = io.StringIO()
    status = _watch.render_watch(
        [cpb.WatchMatchResponse(started=cpb.WatchStarted(match=match))], out
    )
    text = out.getvalue()
    assert status == _watch.EXIT_CANCELLED  # the stream ended before the match did
    assert "\x1b" not in text
    assert "\r" not in text
    assert "evil\\x1b]0;owned\\x07" in text
    assert "m\\x1b[1A" in text
    assert max(len(line) for line in text.splitlines()) < 100  # a long name is cut
    assert not any(line.startswith("forged line") for line in text.splitlines())
