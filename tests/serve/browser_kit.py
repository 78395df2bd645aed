"""What the browser tests share (tests/serve/test_*browser*.py, test_web_live.py,
test_human_seat.py): Debian's chromium driven by playwright, and a proxy that keeps every byte
the browser is sent.

A test module calls :func:`require_browser` at import: without chromium or playwright it is
skipped, except in CI, where that is an error (``tests/run`` installs both).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

try:
    from playwright.sync_api import sync_playwright
except ImportError:  # pragma: no cover - the dev group installs it
    sync_playwright = None  # type: ignore[assignment]


def require_browser() -> None:
    """Skip the calling test module when chromium or playwright is missing (fail in CI)."""
    if CHROMIUM is None or sync_playwright is None:
        if os.environ.get("CI") == "true":
            raise RuntimeError(
                "CI needs chromium (tests/run installs it) and playwright (dev group)"
            )
        pytest.skip("chromium or playwright is missing", allow_module_level=True)


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless chromium (playwright's ``Browser``), closed afterwards."""
    assert sync_playwright is not None
    assert CHROMIUM is not None
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            yield browser
        finally:
            browser.close()


# ---- a proxy that keeps every byte the browser is sent --------------------------------------


@dataclass
class Exchange:
    request: bytearray = field(default_factory=bytearray)
    response: bytearray = field(default_factory=bytearray)

    @property
    def path(self) -> str:
        line = bytes(self.request).split(b"\r\n", 1)[0].decode("latin-1")
        parts = line.split(" ")
        return parts[1] if len(parts) > 1 else ""


class Proxy:
    """TCP proxy to ``target`` on its own loop in a thread; one exchange per connection."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.exchanges: list[Exchange] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.port = asyncio.run_coroutine_threadsafe(self._start(), self.loop).result(10)

    async def _start(self) -> int:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        exchange = Exchange()
        self.exchanges.append(exchange)
        up_reader, up_writer = await asyncio.open_connection(*self.target)

        async def pipe(
            src: asyncio.StreamReader, dst: asyncio.StreamWriter, keep: bytearray
        ) -> None:
            try:
                while data := await src.read(65536):
                    keep += data
                    dst.write(data)
                    await dst.drain()
            except (ConnectionError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(
            pipe(reader, up_writer, exchange.request),
            pipe(up_reader, writer, exchange.response),
        )

    def stop(self) -> None:
        async def close() -> None:
            self.server.close()

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
