"""The stdio protocol's lines as messages of this package (``docs/protocol.md``, "Bots without
gRPC: the stdio bridge"): what both stdio bridges share, the arbiter's (``croupier match --bot
stdio:CMD``) and the Python SDK's (``python -m croupier_bot.stdio``).

* :func:`to_line`: a ``PlayResponse`` as the program reads it, one line of protobuf's canonical
  JSON with every field written;
* :func:`parse_reply`: a line the program wrote as the ``PlayRequest`` that goes to the arbiter
  (an action id, or an object naming its request; anything else a message that is not an
  action);
* :func:`bot_name`: the name a program plays under in ``Hello``;
* :func:`parse_hello`: the program's optional first line, ``{"hello": {"botName": ...,
  "botVersion": ...}}``, which names it in ``Hello`` instead;
* :func:`read_line`: the program's next line, a too-long one read as not an action.

Written by hand (``proto/generate.py`` rewrites only the ``*_pb2*`` modules beside it); it
imports nothing but protobuf and the generated ``bot_pb2``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from google.protobuf import json_format

from . import bot_pb2 as pb

#: Longest line a bridge reads from the program; a longer one is not an action.
MAX_LINE_BYTES = 1 << 20
#: How long a bridge waits for the program's first line (a hello, maybe) before it says
#: ``Hello`` under the default name: a program that writes no hello starts this much later.
HELLO_WAIT_S = 1.0
#: Longest name or version a hello may give (the arbiter cleans and cuts them further).
_HELLO_FIELD_CHARS = 200


async def read_line(stdout: asyncio.StreamReader) -> bytes:
    """The program's next line (``b""`` at the end); a line longer than the reader's limit
    (``MAX_LINE_BYTES`` where a bridge starts the program) is dropped and read as ``?`` (not an
    action)."""
    try:
        return await stdout.readline()
    except ValueError:
        with contextlib.suppress(ValueError, asyncio.IncompleteReadError):
            await stdout.readuntil(b"\n")
        return b"?\n"


def bot_name(program: Sequence[str]) -> str:
    """The name in ``Hello``: the last argument that names a file (``bash bot.sh`` -> ``bot.sh``),
    else the program's own name."""
    for arg in reversed(program):
        if os.path.isfile(arg):
            return Path(arg).name
    return Path(program[0]).name


def parse_hello(line: bytes) -> tuple[str, str] | None:
    """The bot's name and version from a hello line, ``{"hello": {"botName": "x", "botVersion":
    "1.0"}}`` (``bot_name``/``bot_version`` accepted too; either may be left out, as ``""``);
    ``None`` when the line is not a hello."""
    text = line.strip()
    if not text.startswith(b"{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(data, dict) or not isinstance(hello := data.get("hello"), dict):
        return None
    name = hello.get("botName", hello.get("bot_name", ""))
    version = hello.get("botVersion", hello.get("bot_version", ""))
    if not isinstance(name, str) or not isinstance(version, str):
        return None
    return name[:_HELLO_FIELD_CHARS], version[:_HELLO_FIELD_CHARS]


def to_line(response: pb.PlayResponse) -> bytes:
    """One arbiter message as the program reads it: canonical JSON on one line."""
    data = json_format.MessageToDict(response, always_print_fields_with_no_presence=True)
    return json.dumps(data, separators=(",", ":")).encode() + b"\n"


def _int(value: object, bound: int) -> int | None:
    """``value`` if it is an integer in ``[0, bound)`` (a digit string too), else ``None``."""
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < bound:
        return value
    return None


def parse_reply(line: bytes, pending: deque[int], last: int) -> pb.PlayRequest | None:
    """The message for one line from the program (``None`` for a blank line). ``pending`` holds
    the request ids sent to the program and not yet answered, oldest first; ``last`` is the most
    recent request id, which a bare id answers when nothing is pending (a stale reply).

    A line that names its request settles that one and every earlier one; any other line (a bare
    id, an object without a request id, or something that is not an action at all) answers the
    oldest unanswered decision."""
    text = line.strip()
    if not text:
        return None
    action_id: int | None = None
    named, request_id = False, None
    if text.isdigit():
        action_id = _int(int(text), 1 << 32)
    else:
        try:
            data = json.loads(text)
        except (ValueError, UnicodeDecodeError):
            data = None
        if isinstance(data, dict):
            raw = data.get("action_id", data.get("actionId"))
            action_id = None if isinstance(raw, str) else _int(raw, 1 << 32)
            if "request_id" in data or "requestId" in data:
                named = True
                request_id = _int(data.get("request_id", data.get("requestId")), 1 << 64)
    oldest = last
    if request_id is not None:
        while pending and pending[0] <= request_id:  # earlier ones are settled or abandoned
            pending.popleft()
    elif pending:
        oldest = pending.popleft()
    if action_id is None or (named and request_id is None):
        return pb.PlayRequest()  # not an action: the arbiter rejects it
    rid = request_id if request_id is not None else oldest
    return pb.PlayRequest(action=pb.ActionReply(request_id=rid, action_id=action_id))
