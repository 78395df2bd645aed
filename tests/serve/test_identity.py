"""Who a bot is on ``croupier serve`` (issue 19, "Server identity"): the name it was registered
under, never the name it reports about itself in its Hello (a bot could pose as another), in the
standings, the results, ListMatches, the replay, WatchMatch and the web page's JSON; and its
owner's contact details, which only operators see (docs/server.md, "Roles and keys")."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serve_kit import (
    CROUPIER,
    RANDOM_SLOW_BOT,
    Control,
    ServeProcess,
    start_bot,
    stop_bots,
    wait_connected,
    wait_state,
)

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

#: The registered bots; "mallory" says in its Hello that it is "alice".
BOTS = ("alice", "bob", "mallory")
POSES_AS = {"mallory": "alice", "alice": "alice", "bob": "bob"}


class World:
    def __init__(self, server: ServeProcess, match: Any, tmp: Path) -> None:
        self.server, self.match, self.tmp = server, match, tmp

    def control(self, key: str | None) -> Control:
        return Control(self.server.control_address, key)

    def web(self, path: str) -> Any:
        with urllib.request.urlopen(self.server.web_url.rstrip("/") + path, timeout=30) as r:
            return r.read().decode()


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("identity")
    with ServeProcess(tmp / "state", "--web-listen", "127.0.0.1:0") as server:
        op = Control(server.control_address, server.operator_key)
        keys = {
            n: op.RegisterBot(cpb.RegisterBotRequest(bot_name=n, owner=f"{n}@example.org")).key
            for n in BOTS
        }
        bots = [
            start_bot(
                server.bot_address,
                keys[n],
                RANDOM_SLOW_BOT,
                SLOW_BOT_NAME=POSES_AS[n],
                SLOW_BOT_DELAY_S="0",
            )
            for n in BOTS
        ]
        try:
            wait_connected(op, BOTS)
            created = op.CreateMatch(
                cpb.CreateMatchRequest(
                    game="scauver", params={"players": 3, "round_cap": 3}, bots=BOTS
                )
            ).match
            match = wait_state(op, created.match_id, [cpb.MATCH_STATE_FINISHED])
            op.close()
            yield World(server, match, tmp)
        finally:
            server.stop()
            stop_bots(bots)


def _watch_end(control: Control, match_id: str) -> Any:
    stream = control.WatchMatch(cpb.WatchMatchRequest(match_id=match_id))
    ends = [m.end for m in stream if m.WhichOneof("kind") == "end"]
    assert len(ends) == 1
    return ends[0]


def test_the_registered_name_is_the_name_in_every_view(world: World) -> None:
    match_id = world.match.match_id
    op = world.control(world.server.operator_key)
    # the store's view: GetMatch, ListMatches, the standings
    seats = [(s.seat, s.bot_name, s.result.bot_name) for s in world.match.seats]
    assert seats == [(i, n, n) for i, n in enumerate(BOTS)]
    listed = op.ListMatches(cpb.ListMatchesRequest()).matches
    assert [s.bot_name for s in listed[0].seats] == list(BOTS)
    standings = op.GetStandings(cpb.GetStandingsRequest())
    assert sorted((r.bot_name, r.matches) for r in standings.rows) == [(n, 1) for n in BOTS]

    # WatchMatch's end (what ctl watch and the web page's playback show), for everyone
    for key in (None, world.server.operator_key):
        end = _watch_end(world.control(key), match_id)
        got = [(r.seat, r.bot_name) for r in end.results]
        assert got == list(enumerate(BOTS)), f"WatchMatch's results name {got}"

    # the replay: each seat's registered name, and what the bot said of itself (secondary)
    out = world.tmp / "m.jsonl"
    fetched = subprocess.run(
        [*CROUPIER, "ctl", "--address", world.server.control_address,
         "--key", world.server.operator_key, "replay", "fetch", match_id, "--out", str(out)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert fetched.returncode == 0, fetched.stderr
    header = json.loads(out.read_text().splitlines()[0])
    recorded = [(s.get("registered_name"), s["bot_name"]) for s in header["seats"]]
    assert recorded == [(n, POSES_AS[n]) for n in BOTS], f"the replay's seats: {recorded}"
    shown = subprocess.run(
        [*CROUPIER, "replay", "show", str(out)], capture_output=True, text=True, timeout=60
    )
    assert shown.returncode == 0, shown.stderr
    final = shown.stdout.split("Final standings")[-1]
    for n in BOTS:
        assert f" {n}:" in final, final
    assert "seat 2 mallory" in shown.stdout, shown.stdout
    assert "seat 2: mallory (says 'alice')" in shown.stdout, shown.stdout

    # the web page's JSON: the matches, the standings, a finished match's playback
    listed_web = json.loads(world.web("/api/matches?state=finished"))
    assert [s["bot_name"] for s in listed_web["matches"][0]["seats"]] == list(BOTS)
    table = json.loads(world.web("/api/standings"))
    assert sorted(r["bot_name"] for r in table["rows"]) == sorted(BOTS)
    playback = json.loads(world.web(f"/api/matches/{match_id}/replay"))["messages"]
    ends = [m["end"] for m in playback if "end" in m]
    names = [(r.get("seat", 0), r["bot_name"]) for r in ends[0]["results"]]
    assert names == list(enumerate(BOTS)), f"the web playback's results name {names}"


def test_the_self_description_is_kept_as_such(world: World) -> None:
    op = world.control(world.server.operator_key)
    bots = {b.bot_name: b for b in op.ListBots(cpb.ListBotsRequest()).bots}
    assert sorted(bots) == sorted(BOTS)
    assert bots["mallory"].reported_name == "alice"
    assert bots["bob"].reported_name == "bob"


@pytest.mark.parametrize("who", ["anonymous", "spectator", "bot"])
def test_owners_are_for_operators_only(world: World, who: str) -> None:
    keys: dict[str, str | None] = {
        "anonymous": None,
        "spectator": world.server.spectator_key,
        "bot": None,
    }
    if who == "bot":  # a registered bot's key: the operator registers one more to get a key
        op = world.control(world.server.operator_key)
        keys["bot"] = op.RegisterBot(cpb.RegisterBotRequest(bot_name=f"k-{who}")).key
    listed = world.control(keys[who]).ListBots(cpb.ListBotsRequest()).bots
    assert [b.owner for b in listed if b.owner] == [], f"{who} sees owners"
    assert "example.org" not in str(listed)
    web = world.web("/api/bots")
    assert "example.org" not in web, web
    assert '"owner"' not in web, web
    # an operator sees them
    op_listed = world.control(world.server.operator_key).ListBots(cpb.ListBotsRequest()).bots
    owners = {b.bot_name: b.owner for b in op_listed}
    assert owners["alice"] == "alice@example.org"
