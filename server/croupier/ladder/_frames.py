"""Frames between a ladder's process and the helper processes it starts (the local executor's
workers, :mod:`croupier.ladder._workers`; the control variates' process,
:mod:`croupier.ladder._offload`): a 4-byte big-endian length, then a pickle. Both ends are this
installation's code, the helper started by its parent on its own standard input and output;
nothing else can write to those pipes.

A helper reads its orders on its standard input and answers on what was its standard output,
which then becomes a copy of its standard error (a stray print cannot break a frame): when its
parent is gone, however it died, the helper reads end of file and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import signal
import struct
import sys
from collections.abc import Awaitable, Callable
from typing import Any

#: A frame's length prefix.
LENGTH = struct.Struct(">I")


def frame(message: Any) -> bytes:
    """``message`` as one frame."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return LENGTH.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader) -> Any:
    """The next frame's message (:class:`asyncio.IncompleteReadError` at the end)."""
    head = await reader.readexactly(LENGTH.size)
    return pickle.loads(await reader.readexactly(LENGTH.unpack(head)[0]))


async def start_helper(module: str) -> asyncio.subprocess.Process:
    """A Python process running ``module``'s ``main()`` (imported as itself, so what it
    pickles names its classes as the parent does), with pipes on its standard input and
    output, in a session of its own (a Ctrl-C reaches the parent, which ends it)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        f"from {module} import main; main()",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        start_new_session=True,
    )


def send(process: asyncio.subprocess.Process, message: Any) -> None:
    """Queue a frame to a helper (its pipe's buffer; dropped when its input is closed)."""
    stdin = process.stdin
    if stdin is not None and not stdin.is_closing():
        stdin.write(frame(message))


async def end_helper(process: asyncio.subprocess.Process, timeout_s: float) -> None:
    """End a helper: close its input, and wait for it to exit, killing it after ``timeout_s``.
    A stopped helper (SIGSTOP) is continued first: it then reads the end of its input at once
    rather than being killed after the whole wait."""
    stdin = process.stdin
    if stdin is not None and not stdin.is_closing():
        stdin.close()
    with contextlib.suppress(ProcessLookupError):
        process.send_signal(signal.SIGCONT)
    try:
        await asyncio.wait_for(process.wait(), timeout_s)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()


def helper_main(serve: Callable[[HelperChannel], Awaitable[None]]) -> None:
    """A helper's ``main``: SIGINT ignored (its parent ends it), its frames out on what was its
    standard output, ``serve`` run on the channel."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    out = os.dup(1)
    os.dup2(2, 1)
    os.set_inheritable(out, False)

    async def run() -> None:
        reader = asyncio.StreamReader()
        await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(0, "rb", buffering=0)
        )
        await serve(HelperChannel(reader, out))

    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run())


class HelperChannel:
    """A helper's side: :meth:`receive` its orders, :meth:`send` its answers."""

    def __init__(self, reader: asyncio.StreamReader, out: int) -> None:
        self._reader = reader
        self._out = out

    async def receive(self) -> Any:
        """The next order, or ``None`` at the end of the input (the parent is done or gone)."""
        try:
            return await read_frame(self._reader)
        except asyncio.IncompleteReadError:
            return None

    def send(self, message: Any) -> None:
        """Write one answer (blocking: answers are small; :class:`OSError` when the parent is
        gone)."""
        view = memoryview(frame(message))
        while view:
            view = view[os.write(self._out, view) :]
