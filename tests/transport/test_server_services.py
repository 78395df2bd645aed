"""The arbiter server's side services (health, reflection) and its structured logs."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import (
    ProtoReflectionDescriptorDatabase,
)
from structlog.testing import capture_logs

from croupier.arbiter import MatchConfig
from croupier.runner import run_match
from croupier.transport import ArbiterServer


def test_health_and_reflection_are_served() -> None:
    def reflected_services(address: str) -> set[str]:
        with grpc.insecure_channel(address) as channel:  # the reflection client is synchronous
            return set(ProtoReflectionDescriptorDatabase(channel).get_services())

    async def main() -> None:
        server = ArbiterServer()
        address = await server.start()
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                health = health_pb2_grpc.HealthStub(channel)
                request = health_pb2.HealthCheckRequest(service="croupier.v1.BotService")
                reply = await health.Check(request)
                assert reply.status == health_pb2.HealthCheckResponse.SERVING
            loop = asyncio.get_running_loop()
            services = await loop.run_in_executor(None, reflected_services, address)
            assert {"croupier.v1.BotService", "grpc.health.v1.Health"} <= services
        finally:
            await server.stop(0)

    asyncio.run(main())


def test_a_match_logs_one_rich_line_with_its_context(tmp_path: Path) -> None:
    bot = [sys.executable, "-m", "croupier_bots.random_bot"]
    with capture_logs() as logs:
        run = asyncio.run(
            run_match(MatchConfig("as-nas", {"deals": 1}, seed=8), [bot] * 4, tmp_path)
        )
    finished = [e for e in logs if e["event"] == "match_finished"]
    assert len(finished) == 1
    line = finished[0]
    assert line["match_id"] == run.result.match_id
    assert line["game"] == "as-nas"
    assert "seed" not in line  # the seed is the match's secret: never in a log
    assert line["outcomes"] == ["normal"] * 4
    assert line["scores"] == [str(s.score) for s in run.result.seats]
    joined = [e for e in logs if e["event"] == "bot_joined"]
    assert sorted(e["seat"] for e in joined) == [0, 1, 2, 3]
    assert all(e["match_id"] == run.result.match_id and e["bot"] == "random" for e in joined)


def test_a_stream_that_never_says_hello_is_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    from croupier.transport import _server
    from croupier.v1 import bot_pb2_grpc

    monkeypatch.setattr(_server, "HELLO_TIMEOUT_S", 0.3)

    async def main() -> grpc.aio.AioRpcError:
        server = ArbiterServer()
        address = await server.start()
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                call = bot_pb2_grpc.BotServiceStub(channel).Play()
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await asyncio.wait_for(call.read(), 5)
                return caught.value
        finally:
            await server.stop(0)

    error = asyncio.run(main())
    assert error.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert dict(error.trailing_metadata())["croupier-reason"] == "HELLO_EXPECTED"
