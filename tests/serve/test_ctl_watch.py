"""``croupier ctl watch``'s renderer over real gRPC: a ControlService that answers WatchMatch
with croupier.serve.watch_match (a running match's feed, or a finished match's file) on a real
socket, and the command's client rendering it live."""

from __future__ import annotations

import asyncio
import io
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import grpc
import numpy as np
import pytest

from croupier.arbiter import DecisionRequest, Match, MatchConfig, MatchOver, Reply
from croupier.cli import _watch
from croupier.replay import ReplayWriter
from croupier.serve import MatchFeed, watch_match
from croupier.v1 import control_pb2 as cpb
from croupier.v1 import control_pb2_grpc

EVIL = "evil\x1b]0;owned\x07\x1b[2J\r\nforged line"


class _Control(control_pb2_grpc.ControlServiceServicer):  # type: ignore[misc]
    """Only WatchMatch: the matches it knows, each a feed or a replay file."""

    def __init__(self) -> None:
        self.sources: dict[str, MatchFeed | Path] = {}

    async def WatchMatch(
        self, request: cpb.WatchMatchRequest, context: Any
    ) -> AsyncIterator[cpb.WatchMatchResponse]:
        source = self.sources.get(request.match_id)
        if source is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match {request.match_id}")
        async for message in watch_match(source, request, may_see_seat=lambda s: False):
            yield message


class _Server:
    """The service on its own event loop in a thread (the command under test blocks)."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.control = _Control()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.port = self.run(self._start())

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout=60)

    async def _start(self) -> int:
        self.server = grpc.aio.server()
        control_pb2_grpc.add_ControlServiceServicer_to_server(self.control, self.server)
        port = self.server.add_insecure_port("127.0.0.1:0")
        await self.server.start()
        return port

    def stop(self) -> None:
        self.run(self.server.stop(None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def server() -> Iterator[_Server]:
    s = _Server()
    yield s
    s.stop()


async def _play(path: Path, feed: MatchFeed, names: list[str], pause_s: float) -> None:
    match = Match(
        MatchConfig("scauver", {"players": 3, "round_cap": 2}, seed=5),
        "live",
        ReplayWriter(path, feed),
    )
    rng = np.random.default_rng(5)

    async def drive(link: Any) -> None:
        link.claim(names[link.seat], "1")
        while True:
            message = await link.outbox.get()
            if message is None or isinstance(message, MatchOver):
                return
            if isinstance(message, DecisionRequest):
                await asyncio.sleep(pause_s)
                legal = message.legal_actions
                link.inbox.put_nowait(
                    Reply(message.request_id, int(legal[rng.integers(len(legal))]))
                )

    seats = [asyncio.create_task(drive(link)) for link in match.seats]
    await match.run()
    await asyncio.gather(*seats)


def test_ctl_watch_renders_a_running_match_live_and_escapes_bot_names(
    server: _Server, tmp_path: Path
) -> None:
    feed = MatchFeed("live")
    server.control.sources["live"] = feed
    path = tmp_path / "live.jsonl"
    played = asyncio.run_coroutine_threadsafe(
        _play(path, feed, [EVIL, "bob", "carol"], 0.01), server.loop
    )
    out = io.StringIO()
    status = _watch.watch(f"127.0.0.1:{server.port}", "live", out)
    played.result(timeout=60)
    text = out.getvalue()
    assert status == _watch.EXIT_FINISHED
    assert "scauver · match live · public view" in text
    assert "── round 1 · dealer seat" in text
    assert "Final standings" in text
    assert "pot " in text
    assert "\x1b" not in text
    assert "\x07" not in text
    assert "\r" not in text
    assert "   seat 0 evil" in text
    assert not any(line.startswith("forged line") for line in text.splitlines())
    # a finished match, from its file: the same lines
    server.control.sources["done"] = path
    again = io.StringIO()
    assert _watch.watch(f"127.0.0.1:{server.port}", "done", again) == _watch.EXIT_FINISHED
    assert again.getvalue() == text


def test_ctl_watch_of_an_unknown_match_is_one_error_line(
    server: _Server, capsys: pytest.CaptureFixture[str]
) -> None:
    status = _watch.main([f"127.0.0.1:{server.port}", "nope"])
    err = capsys.readouterr().err
    assert status == 2
    assert err == "croupier: error: watch nope: NOT_FOUND: no match nope\n"


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
