"""The web page's HTTP side against a real ``croupier serve`` (anonymous spectators refused):
its backend reads the control API with the spectator key, and without a key it gets nothing;
what a client cannot make it do (other methods, paths out of its table, huge or slow heads)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import grpc
import pytest
from serve_kit import Control, ServeProcess, wait_state

from croupier.serve import ControlSpectator, WebServer
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServeProcess, str]]:
    """A server with one finished two-seat Scauver match between bundled random bots."""
    tmp = tmp_path_factory.mktemp("web")
    with ServeProcess(tmp / "state", "--no-anonymous") as server:
        control = Control(server.control_address, server.operator_key)
        request = cpb.CreateMatchRequest(
            game="scauver",
            params={"players": 2, "round_cap": 2},
            bots=["bundled:random", "bundled:random"],
            seed=5,
        )
        match_id = control.CreateMatch(request).match.match_id
        wait_state(control, match_id, [cpb.MATCH_STATE_FINISHED])
        control.close()
        yield server, match_id


async def _exchange(port: int, raw: bytes, read_s: float = 20) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(raw)
    await writer.drain()
    try:
        async with asyncio.timeout(read_s):
            return await reader.read()
    finally:
        writer.close()


def _get(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode()


def _split(response: bytes) -> tuple[int, str, bytes]:
    head, _, body = response.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, head.decode("latin-1"), body


def _run(server: ServeProcess, key: str | None, requests: list[bytes], **kw: float) -> list[bytes]:
    async def main() -> list[bytes]:
        channel = grpc.aio.insecure_channel(server.control_address)
        web = WebServer(ControlSpectator(channel, key), **kw)  # type: ignore[arg-type]
        await web.start()
        try:
            return [await _exchange(web.port, r) for r in requests]
        finally:
            await web.stop()
            await channel.close()

    return asyncio.run(main())


def test_the_page_and_its_api_read_the_server_as_a_spectator(
    served: tuple[ServeProcess, str],
) -> None:
    server, match_id = served
    page, matches, replay, unknown, stream = _run(
        server,
        server.spectator_key,
        [
            _get("/"),
            _get("/api/matches?state=finished"),
            _get(f"/api/matches/{match_id}/replay"),
            _get("/api/matches/nope/replay"),
            _get("/api/matches/nope/watch"),
        ],
    )
    status, head, body = _split(page)
    assert status == 200
    assert "Content-Security-Policy: default-src 'self'" in head
    assert "X-Content-Type-Options: nosniff" in head
    assert b'<script src="/static/app.js"' in body
    status, _, body = _split(matches)
    assert status == 200
    assert [m["match_id"] for m in json.loads(body)["matches"]] == [match_id]
    status, _, body = _split(replay)
    messages = json.loads(body)["messages"]
    assert status == 200
    assert messages[0]["started"]["match"]["state"] == "MATCH_STATE_FINISHED"
    assert "end" in messages[-1]
    assert sum("frame" in m for m in messages) > 5
    status, _, body = _split(unknown)
    assert status == 404
    assert json.loads(body)["error"].startswith("NOT_FOUND")
    status, head, body = _split(stream)
    assert "text/event-stream" in head
    assert body.startswith(b"event: failed\ndata: ")
    assert b"NOT_FOUND" in body


def test_without_a_key_the_page_gets_nothing_from_a_server_without_anonymous_spectators(
    served: tuple[ServeProcess, str],
) -> None:
    server, match_id = served
    matches, replay = _run(
        server, None, [_get("/api/matches"), _get(f"/api/matches/{match_id}/replay")]
    )
    for response in (matches, replay):
        status, _, body = _split(response)
        assert status == 403
        assert json.loads(body)["error"].startswith("UNAUTHENTICATED")
        assert b"frame" not in body


def test_what_a_client_cannot_make_the_page_do(served: tuple[ServeProcess, str]) -> None:
    server, _ = served
    huge = b"GET / HTTP/1.1\r\nX-Pad: " + b"a" * 20000 + b"\r\n\r\n"
    responses = _run(
        server,
        server.spectator_key,
        [
            b"POST / HTTP/1.1\r\nContent-Length: 0\r\n\r\n",
            b"NONSENSE\r\n\r\n",
            _get("/static/../../pyproject.toml"),
            _get("/api/matches/..%2F..%2Fcroupier.sqlite/replay"),
            _get("/api/matches/a%20b/watch"),
            _get("/api/matches?state=secret"),
            huge,
        ],
    )
    statuses = [_split(r)[0] for r in responses]
    assert statuses == [405, 400, 404, 404, 400, 400, 431]
    assert all(b"[project]" not in r and b"SQLite" not in r for r in responses)


def test_a_request_head_that_never_ends_is_dropped(served: tuple[ServeProcess, str]) -> None:
    server, _ = served

    async def main() -> bytes:
        channel = grpc.aio.insecure_channel(server.control_address)
        web = WebServer(ControlSpectator(channel, server.spectator_key), head_timeout_s=0.3)
        await web.start()
        try:
            return await _exchange(web.port, b"GET / HTTP/1.1\r\nHost: x\r\n", read_s=5)
        finally:
            await web.stop()
            await channel.close()

    assert asyncio.run(main()) == b""  # closed without an answer
