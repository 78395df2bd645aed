"""Roles on a real ``croupier serve`` process: each key may do what its role allows and no
more (control.proto's top comment; docs/server.md, "Roles and keys"), and no key is ever
stored or logged in the clear."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from serve_kit import (
    Control,
    ServeProcess,
    code_of,
    ctl_here,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_state,
    watch_code,
)

from croupier.v1 import control_pb2 as cpb
from croupier.v1 import control_pb2_grpc

pytestmark = pytest.mark.e2e

BOTS = ("alice", "bob", "carol")


class World:
    def __init__(self, server: ServeProcess, keys: dict[str, str], match: Any) -> None:
        self.server = server
        self.keys = keys
        self.match = match

    def control(self, key: str | None) -> Control:
        return Control(self.server.control_address, key)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("roles")
    with ServeProcess(root / "state") as server:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, *BOTS)
        bots = [start_bot(server.bot_address, keys[n]) for n in BOTS]
        try:
            wait_connected(op, BOTS)
            created = op.CreateMatch(
                cpb.CreateMatchRequest(game="scauver", params={"players": 3}, bots=BOTS, seed=7)
            ).match
            match = wait_state(op, created.match_id, [cpb.MATCH_STATE_FINISHED])
            op.close()
            yield World(server, keys, match)
        finally:
            server.stop()
            stop_bots(bots)


def fetch(control: Control, match_id: str) -> grpc.StatusCode:
    return code_of(lambda: control.FetchReplay(cpb.FetchReplayRequest(match_id=match_id)))


DENIED = grpc.StatusCode.PERMISSION_DENIED


@pytest.mark.parametrize("who", ["spectator", "anonymous", "bot"])
def test_only_operators_fetch_the_omniscient_replay(world: World, who: str) -> None:
    key = {"spectator": world.server.spectator_key, "anonymous": None, "bot": world.keys["alice"]}
    control = world.control(key[who])
    assert fetch(control, world.match.match_id) == DENIED
    # the call is refused as a whole: no chunk of the file was sent first
    stream = control.FetchReplay(cpb.FetchReplayRequest(match_id=world.match.match_id))
    received: list[object] = []
    with pytest.raises(grpc.RpcError):
        received.extend(stream)
    assert received == []  # not one chunk reached a caller that may not fetch replays


def test_the_operator_fetches_the_replay_byte_for_byte(world: World) -> None:
    control = world.control(world.server.operator_key)
    pieces = list(control.FetchReplay(cpb.FetchReplayRequest(match_id=world.match.match_id)))
    data = b"".join(p.chunk for p in pieces)
    assert pieces[0].sha256 == hashlib.sha256(data).hexdigest()
    on_disk = world.server.state_dir / "replays" / f"{world.match.match_id}.jsonl"
    assert data == on_disk.read_bytes()


@pytest.mark.parametrize("who", ["spectator", "anonymous"])
def test_a_spectator_cannot_watch_a_seat_view(world: World, who: str) -> None:
    control = world.control(world.server.spectator_key if who == "spectator" else None)
    for seat in range(3):
        assert watch_code(control, world.match.match_id, seat) == DENIED
    assert watch_code(control, world.match.match_id) != DENIED  # the public view is for everyone


def test_a_bot_watches_its_own_seat_and_no_other(world: World) -> None:
    seat_of = {s.bot_name: s.seat for s in world.match.seats}
    control = world.control(world.keys["alice"])
    for name, seat in seat_of.items():
        code = watch_code(control, world.match.match_id, seat)
        if name == "alice":
            assert code != DENIED
        else:
            assert code == DENIED, name


@pytest.mark.parametrize("who", ["spectator", "bot"])
def test_operator_calls_are_refused_to_others(world: World, who: str) -> None:
    key = world.server.spectator_key if who == "spectator" else world.keys["bob"]
    control = world.control(key)
    mid = world.match.match_id
    calls = {
        "CreateMatch": lambda: control.CreateMatch(
            cpb.CreateMatchRequest(game="scauver", params={"players": 3}, bots=BOTS)
        ),
        "CreateMatches": lambda: control.CreateMatches(
            cpb.CreateMatchesRequest(
                matches=[cpb.CreateMatchRequest(game="scauver", params={"players": 3}, bots=BOTS)]
            )
        ),
        "CancelMatch": lambda: control.CancelMatch(cpb.CancelMatchRequest(match_id=mid)),
        "RegisterBot": lambda: control.RegisterBot(cpb.RegisterBotRequest(bot_name="mallory")),
        "CreateTournament": lambda: control.CreateTournament(
            cpb.CreateTournamentRequest(config_toml='game = "fipsen"')
        ),
    }
    for name, call in calls.items():
        assert code_of(call) == DENIED, name
    # and what every role may read
    assert code_of(lambda: control.ListMatches(cpb.ListMatchesRequest())) == grpc.StatusCode.OK
    assert code_of(lambda: control.GetStandings(cpb.GetStandingsRequest())) == grpc.StatusCode.OK


def test_an_unknown_or_malformed_key_is_unauthenticated(world: World) -> None:
    control = world.control("op_not-the-key")
    assert code_of(lambda: control.ListMatches(cpb.ListMatchesRequest())) == (
        grpc.StatusCode.UNAUTHENTICATED
    )
    raw = grpc.insecure_channel(world.server.control_address)
    try:  # a scheme that is not Bearer
        call = control_pb2_grpc.ControlServiceStub(raw).ListMatches
        code = code_of(
            lambda: call(
                cpb.ListMatchesRequest(), metadata=(("authorization", "Basic abc"),), timeout=10
            )
        )
        assert code == grpc.StatusCode.UNAUTHENTICATED
    finally:
        raw.close()


def test_ctl_says_a_refusal_in_one_line_with_status_4(world: World, tmp_path: Path) -> None:
    out = tmp_path / "refused.jsonl"
    done = ctl_here(
        world.server, "replay", "fetch", world.match.match_id, "--out", out, key=world.keys["carol"]
    )
    assert not out.exists()
    assert done.returncode == 4
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("croupier: error: permission_denied:")


def test_no_key_is_kept_or_logged_in_the_clear(world: World) -> None:
    server = world.server
    secrets = [server.operator_key, server.spectator_key, *world.keys.values()]
    state: Path = server.state_dir
    files = [p for p in state.rglob("*") if p.is_file() and not p.name.endswith(".key")]
    files.append(server.log)
    for path in files:
        data = path.read_bytes()
        for key in secrets:
            assert key.encode() not in data, f"a key in the clear in {path}"
    for name in ("operator.key", "spectator.key"):
        assert (state / name).stat().st_mode & 0o777 == 0o600
    # the store holds each bot's key only as its SHA-256
    store = (state / "croupier.sqlite").read_bytes() + b"".join(
        p.read_bytes() for p in state.glob("croupier.sqlite-*")
    )
    for key in world.keys.values():
        assert hashlib.sha256(key.encode()).hexdigest().encode() in store
