"""The control port off the play loop: a thread of its own, with its own event loop, that
serves ``ControlService`` (``docs/server.md``, "Reads off the play loop").

Every match is played on the server's event loop (the play loop): with hundreds of matches at
full speed its ready queue is long, and a control call served there waits behind all of them
(``ListMatches`` once missed a 120 s deadline with 594 matches playing). So the control port's
gRPC server runs in :class:`ControlThread`, and :class:`OffLoopServicer` serves:

* the reads (:data:`READS`: ``ListMatches``, ``GetMatch``, ``GetStandings``) right there: they
  touch the store through its reader thread and connection (``serve/_storage.py``) and read the
  live decision counts of the matches' feeds (plain attribute reads), never the play loop;
* every other call on the play loop, as before (they change or watch what the play loop owns):
  the call is handed over with :func:`asyncio.run_coroutine_threadsafe`, a stream's messages
  come back through a bounded queue (a slow reader holds its producer back, as gRPC's own flow
  control did), and an abort on the play loop becomes the same abort here (its code, message
  and ``croupier-reason``).
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar, cast

import grpc

from croupier.v1 import control_pb2

T = TypeVar("T")

#: The calls served on the control thread itself (everything else is handed to the play loop).
READS = frozenset({"ListMatches", "GetMatch", "GetStandings"})
#: A stream's messages in flight between the play loop and the control thread.
STREAM_BUFFER = 64

_SERVICE = control_pb2.DESCRIPTOR.services_by_name["ControlService"]


class ControlThread:
    """A daemon thread running an event loop of its own (:meth:`start`, :meth:`stop`)."""

    def __init__(self, name: str = "croupier-control") -> None:
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None, "the control thread is not started"
        return self._loop

    def start(self) -> None:
        ready = threading.Event()

        def main() -> None:
            loop = self._loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            loop.call_soon(ready.set)
            try:
                loop.run_forever()
            finally:
                loop.close()

        self._thread = threading.Thread(target=main, name=self._name, daemon=True)
        self._thread.start()
        ready.wait()

    async def run(self, coro: Coroutine[Any, Any, T]) -> T:
        """Run ``coro`` on the control thread's loop; its result here."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    def stop(self) -> None:
        """Stop the loop and wait for the thread (what still runs there is dropped)."""
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
        self._thread = None


class _Aborted(Exception):
    """An abort of a call served on the play loop, to be repeated on the control thread."""

    def __init__(
        self, code: grpc.StatusCode, details: str, trailing: Sequence[tuple[str, str]]
    ) -> None:
        super().__init__(details)
        self.code = code
        self.details = details
        self.trailing = tuple(trailing)


class _PlayContext:
    """What a call handed to the play loop sees of its context: the caller's metadata, and an
    :meth:`abort` that ends it (all the servicer uses)."""

    def __init__(self, metadata: Any) -> None:
        self._metadata = tuple(metadata or ())

    def invocation_metadata(self) -> Any:
        return self._metadata

    async def abort(
        self,
        code: grpc.StatusCode,
        details: str = "",
        trailing_metadata: Sequence[tuple[str, str]] = (),
    ) -> None:
        raise _Aborted(code, details, trailing_metadata)


_END = object()


class OffLoopServicer:
    """``ControlService`` on the control thread, over ``servicer`` (whose non-read calls run on
    ``play``, the play loop): see the module docstring. Registered like the servicer itself
    (``add_ControlServiceServicer_to_server`` looks its methods up by name)."""

    def __init__(self, servicer: Any, play: asyncio.AbstractEventLoop) -> None:
        self._servicer = servicer
        self._play = play

    def __getattr__(self, name: str) -> Callable[..., Any]:
        method = _SERVICE.methods_by_name.get(name)
        if method is None:
            raise AttributeError(name)
        real = getattr(self._servicer, name)
        if name in READS:
            return cast(Callable[..., Any], real)
        if method.server_streaming:
            return functools.partial(self._stream, real)
        return functools.partial(self._unary, real)

    async def _unary(
        self,
        real: Callable[[Any, Any], Awaitable[Any]],
        request: Any,
        context: grpc.aio.ServicerContext,
    ) -> Any:
        async def call() -> Any:
            return await real(request, _PlayContext(context.invocation_metadata()))

        handed = asyncio.run_coroutine_threadsafe(call(), self._play)
        try:
            return await asyncio.wrap_future(handed)
        except _Aborted as exc:
            await context.abort(exc.code, exc.details, trailing_metadata=exc.trailing)

    async def _stream(
        self,
        real: Callable[[Any, Any], AsyncIterator[Any]],
        request: Any,
        context: grpc.aio.ServicerContext,
    ) -> AsyncIterator[Any]:
        here = asyncio.get_running_loop()
        queue: asyncio.Queue[Any] = asyncio.Queue(STREAM_BUFFER)
        metadata = context.invocation_metadata()

        async def give(item: Any) -> None:  # (on the play loop) wait for room here
            await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(queue.put(item), here))

        async def pump() -> None:  # on the play loop
            end: Any = _END
            try:
                async for item in real(request, _PlayContext(metadata)):
                    await give(item)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # (repeated on the control thread)
                end = exc
            await give(end)

        handed = asyncio.run_coroutine_threadsafe(pump(), self._play)
        try:
            while (item := await queue.get()) is not _END:
                if isinstance(item, _Aborted):
                    await context.abort(item.code, item.details, trailing_metadata=item.trailing)
                if isinstance(item, Exception):
                    raise item
                yield item
        finally:
            handed.cancel()
