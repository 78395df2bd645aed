"""A running seating of a duplicate set still being played shows no live decision count but to
operators (``ListMatches``, ``GetMatch``, the web page's ``/api/pages``): the count follows that
seating's public view, which only operators may watch until the set is over, and how long each
deal lasts at one seating tells the bots of the others about the same deals."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

import grpc
import pytest
from serve_kit import (
    SLOW_BOT,
    Control,
    ServeProcess,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_for,
)

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

LADDER = """
[serve]
move_ms = 2000
[ladder]
game = "as-nas"
params = { deals = 20 }
concurrency = 1
duplicate = true
allow_remote_duplicate = true
"""


def _page(port: int, path: str) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        return json.loads(connection.getresponse().read())
    finally:
        connection.close()


def test_a_running_seating_of_an_open_set_shows_no_live_count(tmp_path: Path) -> None:
    config = tmp_path / "serve.toml"
    config.write_text(LADDER)
    names = ("ann", "ben", "cyd", "dee")
    with ServeProcess(
        tmp_path / "state", "--config", str(config), "--web-listen", "127.0.0.1:0"
    ) as server:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, *names)
        bots = [start_bot(server.bot_address, keys[n], SLOW_BOT, SLOW_BOT_MS="30") for n in names]
        try:
            wait_connected(op, names)
            running: list[Any] = []

            def seating_under_way() -> bool:
                listed = op.ListMatches(cpb.ListMatchesRequest(state=cpb.MATCH_STATE_RUNNING))
                running[:] = [m for m in listed.matches if m.decisions >= 5]
                return bool(running)

            wait_for(seating_under_way, 60, "a seating with a few decisions played")
            match_id = running[0].match_id
            spectator = Control(server.control_address, None)
            with pytest.raises(grpc.RpcError) as refused:  # the premise: its set is open
                list(spectator.WatchMatch(cpb.WatchMatchRequest(match_id=match_id)))
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
            shown = {
                "spectator GetMatch": spectator.GetMatch(
                    cpb.GetMatchRequest(match_id=match_id)
                ).match.decisions,
                "ann's key ListMatches": next(
                    m.decisions
                    for m in Control(server.control_address, keys["ann"])
                    .ListMatches(cpb.ListMatchesRequest(state=cpb.MATCH_STATE_RUNNING))
                    .matches
                    if m.match_id == match_id
                ),
            }
            port = int(server.web_url.rsplit(":", 1)[1].strip("/"))
            paged = _page(port, "/api/pages/matches?state=running")["matches"]
            shown["/api/pages/matches"] = next(
                m["decisions"] for m in paged if m["match_id"] == match_id
            )
            assert op.GetMatch(cpb.GetMatchRequest(match_id=match_id)).match.decisions >= 5
            assert shown == dict.fromkeys(shown, 0), (
                f"a running seating of an open duplicate set shows its live count: {shown}"
            )
        finally:
            stop_bots(bots)
