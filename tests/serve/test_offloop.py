"""The control port answers reads while the play loop is busy (docs/server.md, "Scale"): a real
``CompetitionServer`` in this process, its event loop (where every match is played) held up as
hundreds of matches at full speed hold it, and ``ListMatches``/``GetMatch`` called meanwhile
from another thread over real gRPC. Every other call is handed to the play loop, and answered
once it runs again."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import grpc
import pytest

from croupier.serve import CompetitionServer, ServeConfig
from croupier.v1 import control_pb2 as cpb
from croupier.v1 import control_pb2_grpc

pytestmark = pytest.mark.e2e

#: How long the play loop is held up, and the reads' deadline within it.
BLOCK_S = 6.0
DEADLINE_S = 3.0


def test_reads_are_answered_while_the_play_loop_is_held_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CROUPIER_SANDBOX", "none")
    asyncio.run(_scenario(tmp_path))


async def _scenario(tmp_path: Path) -> None:
    config = ServeConfig(
        state_dir=tmp_path / "state", bot_listen="127.0.0.1:0", control_listen="127.0.0.1:0"
    )
    server = CompetitionServer(config)
    await server.start()
    try:
        key = (config.state_dir / "operator.key").read_text().strip()
        md = (("authorization", f"Bearer {key}"),)
        ready, held = threading.Event(), threading.Event()
        answered: list[str] = []

        def reads() -> None:
            with grpc.insecure_channel(server.control_address) as channel:
                stub = control_pb2_grpc.ControlServiceStub(channel)  # type: ignore[no-untyped-call]
                stub.ListMatches(cpb.ListMatchesRequest(), metadata=md, timeout=30)  # connected
                ready.set()
                held.wait()
                stub.ListMatches(cpb.ListMatchesRequest(limit=1), metadata=md, timeout=DEADLINE_S)
                answered.append("ListMatches")
                with pytest.raises(grpc.RpcError) as missing:
                    stub.GetMatch(
                        cpb.GetMatchRequest(match_id="nope"), metadata=md, timeout=DEADLINE_S
                    )
                if missing.value.code() == grpc.StatusCode.NOT_FOUND:  # type: ignore[attr-defined]
                    answered.append("GetMatch")
                # a call the play loop serves: answered once it runs again
                stub.ListBots(cpb.ListBotsRequest(), metadata=md, timeout=BLOCK_S + 30)
                answered.append("ListBots")

        errors: list[BaseException] = []

        def run() -> None:
            try:
                reads()
            except BaseException as exc:  # (reported below, in the test's thread)
                errors.append(exc)

        thread = threading.Thread(target=run)
        thread.start()
        await asyncio.to_thread(ready.wait, 30)
        held.set()
        time.sleep(BLOCK_S)  # the play loop held up: nothing runs on it meanwhile
        during = list(answered)
        await asyncio.to_thread(thread.join, 60)
        assert not errors, f"a call failed: {errors[0]!r}"
        assert during == ["ListMatches", "GetMatch"], (
            f"answered while the play loop was held up for {BLOCK_S} s: {during}"
        )
        assert answered == ["ListMatches", "GetMatch", "ListBots"]
    finally:
        await server.stop()
