"""The stdio bridge: a bot in any language that reads JSON lines on stdin and answers on stdout.

``croupier match --bot stdio:CMD`` launches this module as the seat's bot process (a script, so
it imports only the stubs package ``croupier.v1`` and grpc, not the server) with CMD after
``--``. The bridge dials the arbiter like any bot (``CROUPIER_ADDRESS``, ``CROUPIER_TOKEN``),
starts CMD with pipes on its stdin and stdout, and then, for the whole match:

* each ``PlayResponse`` from the arbiter (welcome, events, decision, rejection, match end) goes
  to CMD as one line of protobuf's canonical JSON (``json_format``, every field written, absent
  messages left out), so nothing in here is written per game;
* each line CMD writes is one reply: an action id (``3``) answering the oldest decision CMD has
  not answered yet, or a JSON object ``{"request_id": "3", "action_id": 1}`` naming the request;
  whitespace-only lines are ignored, and any other line goes to the arbiter as a message that
  is not an action (the arbiter rejects it and plays the default, as for a gRPC bot; the first
  such line is named in the seat log);
* CMD's first line may be a hello, ``{"hello": {"botName": "x", "botVersion": "1.0"}}``: the
  bridge waits ``HELLO_WAIT_S`` for it before it says ``Hello`` (with that name and version,
  else the default name and version ``stdio``); a hello is never sent on as a reply;
* CMD's stderr is the bridge's, which the launcher writes to the seat log;
* when CMD closes its stdout (or exits) before ``MatchEnd`` the bridge exits with status 1,
  which the launcher reports as a disconnect; after ``MatchEnd`` it closes CMD's stdin and exits
  with CMD's exit status.

The bridge plays one match per process (it speaks ``Play`` only): launched to serve a bot session,
it is refused with ``SESSION_EXPECTED`` and exits, and the pool launches it per match instead.

The clocks are the arbiter's, so a CMD that stops answering times out exactly as a gRPC bot does.
Why a process and not a seat adapter inside the arbiter: the bridge is launched (and sandboxed)
by the same launcher as every other bot, so CMD runs wherever a bot runs, with the same limits;
and the arbiter keeps a single code path for clocks, faults and what a seat may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections import deque
from pathlib import Path

import grpc

from croupier.v1 import PROTOCOL_VERSION, bot_pb2_grpc, stdio
from croupier.v1 import bot_pb2 as pb

#: ``--bot stdio:CMD`` names a program that speaks the stdio protocol.
PREFIX = "stdio:"
#: Largest message the bridge accepts from the arbiter (decision messages grow with the match).
MAX_RECEIVE_BYTES = 64 << 20
#: The bridge's own environment variables that the program does not get (it speaks stdio only).
_HIDDEN_ENV = (
    "CROUPIER_ADDRESS",
    "CROUPIER_TOKEN",
    "CROUPIER_SESSION_TOKEN",
    "CROUPIER_SESSION_CAPACITY",
)
_REASON_KEY = "croupier-reason"


def bridge_argv(program: list[str]) -> list[str]:
    """The command line that runs ``program`` behind the bridge."""
    return [sys.executable, str(Path(__file__).resolve()), "--", *program]


class _Disconnected(Exception):
    """The program closed its stdout (or its stdin broke) before the match ended."""


async def run_bridge(program: list[str], address: str, token: str) -> int:
    """Play one match for ``program``; return the bridge's exit status."""
    env = {k: v for k, v in os.environ.items() if k not in _HIDDEN_ENV}
    try:
        proc = await asyncio.create_subprocess_exec(
            *program,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            limit=stdio.MAX_LINE_BYTES,
        )
    except OSError as exc:
        print(f"stdio bridge: cannot start {program[0]}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    assert proc.stdin is not None
    assert proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout
    # the program's first line may be a hello naming it: waited for HELLO_WAIT_S, then the
    # bridge says Hello under the default name; a first line that is not a hello is a reply
    first = asyncio.create_task(stdio.read_line(stdout))
    await asyncio.wait({first}, timeout=stdio.HELLO_WAIT_S)
    said = stdio.parse_hello(first.result()) if first.done() else None
    hello = pb.Hello(
        token=token,
        bot_name=(said and said[0]) or stdio.bot_name(program),
        bot_version=(said and said[1]) or "stdio",
        protocol_version=PROTOCOL_VERSION,
    )
    pending: deque[int] = deque()
    last = 0
    options = [("grpc.max_receive_message_length", MAX_RECEIVE_BYTES)]
    try:
        async with grpc.aio.insecure_channel(address, options=options) as channel:
            call = bot_pb2_grpc.BotServiceStub(channel).Play()

            async def downstream() -> None:
                """Arbiter -> program, until MatchEnd."""
                nonlocal last
                await call.write(pb.PlayRequest(hello=hello))
                while (response := await call.read()) is not grpc.aio.EOF:
                    if response.WhichOneof("kind") == "decision":
                        last = response.decision.request_id
                        pending.append(last)
                    try:
                        stdin.write(stdio.to_line(response))
                        await stdin.drain()
                    except ConnectionError:
                        raise _Disconnected from None
                    if response.WhichOneof("kind") == "match_end":
                        return
                raise _Disconnected  # the arbiter ended the stream without MatchEnd

            async def upstream() -> None:
                """Program -> arbiter, until the program closes its stdout. The first line
                that is not an action is named in the log (check-bot points at it)."""
                lines, named = 0, False
                while True:
                    line = await first if lines == 0 else await stdio.read_line(stdout)
                    if not line:
                        return
                    lines += 1
                    if lines == 1 and said is None and stdio.parse_hello(line) is not None:
                        print(  # a hello after the wait: not an action, and too late to use
                            f"stdio bridge: the hello came after {stdio.HELLO_WAIT_S:g} s; "
                            f"playing as {hello.bot_name}",
                            file=sys.stderr,
                        )
                        continue
                    if lines == 1 and said is not None:
                        continue
                    reply = stdio.parse_reply(line, pending, last)
                    if reply is not None and not named and not reply.HasField("action"):
                        named = True
                        shown = line.strip()[:80].decode(errors="replace")
                        print(
                            f"stdio bridge: line {lines} is not an action: {shown!r}",
                            file=sys.stderr,
                        )
                    if reply is not None:
                        with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                            await call.write(reply)

            reader = asyncio.create_task(upstream())
            writer = asyncio.create_task(downstream())
            done, _ = await asyncio.wait({reader, writer}, return_when=asyncio.FIRST_COMPLETED)
            if writer not in done:  # the program closed its stdout mid-match: a disconnect
                writer.cancel()
                call.cancel()
                print("stdio bridge: the program closed its stdout", file=sys.stderr)
                return 1
            writer.result()  # MatchEnd reached the program (or _Disconnected / AioRpcError)
            with contextlib.suppress(grpc.aio.AioRpcError, asyncio.InvalidStateError):
                await call.done_writing()
            stdin.close()
            await reader  # what the program still writes is read and dropped
            return await proc.wait()
    except _Disconnected:
        print("stdio bridge: the program stopped reading, or the stream ended", file=sys.stderr)
        return 1
    except grpc.aio.AioRpcError as exc:
        reason = dict(exc.trailing_metadata() or ()).get(_REASON_KEY, "")
        tail = f" [{reason}]" if reason else ""
        print(f"stdio bridge: {exc.code().name}: {exc.details()}{tail}", file=sys.stderr)
        return 2
    finally:
        first.cancel()
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            await proc.wait()


def main(argv: list[str]) -> int:
    """``python _stdio.py -- CMD...``: bridge CMD to the arbiter in ``CROUPIER_ADDRESS``."""
    if argv[:1] == ["--"]:
        argv = argv[1:]
    address = os.environ.get("CROUPIER_ADDRESS", "")
    if not argv or not address:
        print("usage: CROUPIER_ADDRESS=... CROUPIER_TOKEN=... _stdio.py -- CMD...", file=sys.stderr)
        return 2
    return asyncio.run(run_bridge(argv, address, os.environ.get("CROUPIER_TOKEN", "")))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
