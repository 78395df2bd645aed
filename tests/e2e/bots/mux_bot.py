"""Mux bot: a raw protocol 3 session bot (``BotService.Session`` with every seat multiplexed on
it; raw ``grpc.aio``, no SDK) for the multiplexed stream's tests.

Each seat plays a seeded random legal action, chosen exactly as ``recorder.py`` chooses (the
seat's own ``random.Random(seed)``, seeded by its ``SeatAssignment.seed``, over every id of its
legal actions), so a seat plays the same on a Play stream as here. It logs one line per message
received, ``message n=I seats=K decisions=D`` (the I-th message, items for K distinct seats, D
decisions), and one per reply sent, ``reply n=J asked=I`` (the J-th reply, to a decision of the
I-th message).

* ``--record DIR``: appends every seat's PlayResponses as they came (each ``SeatMessage.message``,
  a 4-byte big-endian length then the bytes) to ``DIR/<match_id>.seat<N>.bin``.
* ``--hold-ms REF:MS`` (repeatable): the replies to the decisions of the seat whose ``seat_ref``
  is REF leave MS ms after the message carrying them came; each goes in a message with
  whatever else is due then, so replies leave out of the order they were asked in. Logs
  ``held match=M seat=N request_id=R ms=X``
  with the time X actually held (from reading the message to writing the reply).
* ``--break MARKER``: while the file MARKER is absent, the first message carrying decisions of
  two seats or more gets the first one answered, then the process creates MARKER and dies at
  once (``os._exit(3)``) without answering the others: the stream breaks mid-batch.
* ``--protocol 2``: says protocol 2 in its SessionHello (an old bot: it plays each
  SeatAssignment on a Play stream of its own, the same way).
* ``--name NAME``: the bot name it says (default ``mux``).
* ``--pipe``: the session on its session pipe (``CROUPIER_SESSION_FD``: 4-byte big-endian
  length frames, no gRPC), the same messages and behaviour.
* ``--attack KIND`` (with ``--pipe``): once the first decision has come, a hostile frame:
  ``oversize`` (a header saying 1 GiB, then silence), ``garbage`` (a frame of bytes that are
  no SessionRequest, then it plays on) or ``cut`` (a header saying 100 bytes, 10 of them, then
  it exits). Logs ``attack KIND``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import time
from pathlib import Path
from typing import Any

import grpc
from _common import say

from croupier_bot import LegalActions
from croupier_proto.v1 import bot_pb2 as pb
from croupier_proto.v1 import bot_pb2_grpc


class _Seat:
    def __init__(self, assignment: pb.SeatAssignment) -> None:
        self.rng = random.Random(assignment.seed)
        self.match_id, self.seat = assignment.match_id, assignment.seat


async def play_stream(
    stub: bot_pb2_grpc.BotServiceStub, seat: pb.SeatAssignment, name: str
) -> None:
    """A protocol 2 bot's seat: on a Play stream of its own."""
    rng = random.Random(seat.seed)
    call = stub.Play()
    hello = pb.Hello(token=seat.token, bot_name=name, bot_version="test", protocol_version=2)
    await call.write(pb.PlayRequest(hello=hello))
    while (response := await call.read()) is not grpc.aio.EOF:
        if response.WhichOneof("kind") == "welcome":
            say(f"play stream welcome protocol_version={response.welcome.protocol_version}")
        if response.WhichOneof("kind") == "decision":
            d = response.decision
            reply = pb.PlayRequest()
            reply.action.request_id = d.request_id
            reply.action.action_id = rng.choice(LegalActions(d.legal_actions).ids)
            await call.write(reply)
        if response.WhichOneof("kind") == "match_end":
            await call.done_writing()
            return


class _PipeCall:
    """The Session stream on the session pipe, read and written as a gRPC call is."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def write(self, message: pb.SessionRequest) -> None:
        await self.write_raw(message.SerializeToString())

    async def write_raw(self, data: bytes, length: int | None = None) -> None:
        size = len(data) if length is None else length
        self.writer.write(size.to_bytes(4, "big") + data)
        await self.writer.drain()

    async def read(self) -> object:
        try:
            header = await self.reader.readexactly(4)
            data = await self.reader.readexactly(int.from_bytes(header, "big"))
        except (asyncio.IncompleteReadError, ConnectionError):
            return grpc.aio.EOF
        return pb.SessionResponse.FromString(data)


async def _session_call(stub: bot_pb2_grpc.BotServiceStub, pipe: bool) -> Any:
    if not pipe:
        return stub.Session()
    sock = socket.socket(fileno=int(os.environ["CROUPIER_SESSION_FD"]))
    reader, writer = await asyncio.open_unix_connection(sock=sock)
    return _PipeCall(reader, writer)


async def _attack(call: Any, kind: str) -> None:
    say(f"attack {kind}")
    if kind == "oversize":
        await call.write_raw(b"", 1 << 30)
        await asyncio.sleep(3600)
    elif kind == "garbage":
        await call.write_raw(b"\xff\xff\xff\xff not a SessionRequest")
    elif kind == "cut":
        await call.write_raw(b"0123456789", 100)
        os._exit(4)
    elif kind == "flood":
        for _ in range(10_000):  # messages that answer nothing, as fast as it can write them
            await call.write(pb.SessionRequest())


async def main(args: argparse.Namespace) -> None:
    holds = {int(s): int(ms) for s, ms in (h.split(":") for h in args.hold_ms)}
    async with grpc.aio.insecure_channel(os.environ["CROUPIER_ADDRESS"]) as channel:
        call = await _session_call(bot_pb2_grpc.BotServiceStub(channel), args.pipe)
        hello = pb.SessionHello(
            token=os.environ["CROUPIER_SESSION_TOKEN"],
            bot_name=args.name,
            bot_version="test",
            protocol_version=args.protocol,
            capacity=int(os.environ.get("CROUPIER_SESSION_CAPACITY", "1")),
        )
        await call.write(pb.SessionRequest(hello=hello))
        welcome = await call.read()
        say(f"welcome protocol_version={welcome.welcome.protocol_version}")
        seats: dict[int, _Seat] = {}
        outgoing: asyncio.Queue[pb.SeatReply] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        async def writer() -> None:
            while True:
                out = pb.SessionRequest()
                out.replies.append(await outgoing.get())
                while not outgoing.empty():
                    out.replies.append(outgoing.get_nowait())
                await call.write(out)

        sent = received = 0
        waiting: list[tuple[pb.SeatReply, int]] = []  # (--break) replies not yet sent

        def send(reply: pb.SeatReply, seat: _Seat, came: float, asked: int, hold: bool) -> None:
            nonlocal sent
            if hold:
                held_ms = (time.monotonic() - came) * 1000
                say(
                    f"held match={seat.match_id} seat={seat.seat} "
                    f"request_id={reply.action.request_id} ms={held_ms:.1f}"
                )
            sent += 1
            say(f"reply n={sent} asked={asked}")
            outgoing.put_nowait(reply)

        sending = asyncio.create_task(writer())
        plays: set[asyncio.Task[None]] = set()
        stub = bot_pb2_grpc.BotServiceStub(channel)
        try:
            while (response := await call.read()) is not grpc.aio.EOF:
                came = time.monotonic()
                received += 1
                if response.WhichOneof("kind") == "seat":  # protocol 2: a Play stream per seat
                    say("seat assignment received")
                    task = asyncio.create_task(play_stream(stub, response.seat, args.name))
                    plays.add(task)
                    task.add_done_callback(plays.discard)
                    continue
                items = response.seat_messages
                decisions = sum(1 for i in items if i.message.HasField("decision"))
                seats_in = len({i.seat_ref for i in items})
                say(f"message n={received} seats={seats_in} decisions={decisions}")
                for item in items:
                    if item.HasField("assignment"):
                        seats[item.seat_ref] = _Seat(item.assignment)
                    seat = seats[item.seat_ref]
                    message = item.message
                    if args.record is not None:
                        raw = message.SerializeToString()
                        path = args.record / f"{seat.match_id}.seat{seat.seat}.bin"
                        with path.open("ab") as out:
                            out.write(len(raw).to_bytes(4, "big") + raw)
                    if not message.HasField("decision"):
                        continue
                    if args.attack:
                        await _attack(call, args.attack)
                        args.attack = ""
                    d = message.decision
                    reply = pb.SeatReply(seat_ref=item.seat_ref)
                    reply.action.request_id = d.request_id
                    reply.action.action_id = seat.rng.choice(LegalActions(d.legal_actions).ids)
                    if args.break_marker is not None and not args.break_marker.exists():
                        waiting.append((reply, received))
                        if len(waiting) < 2:
                            continue  # held until a second seat waits too
                        first, _ = waiting[0]
                        await call.write(pb.SessionRequest(replies=[first]))
                        args.break_marker.touch()
                        say(f"breaking after answering seat_ref={first.seat_ref}")
                        os._exit(3)
                    ms = holds.get(item.seat_ref, 0)
                    if ms:
                        loop.call_later(ms / 1000, send, reply, seat, came, received, True)
                    else:
                        send(reply, seat, came, received, False)
            if plays:
                await asyncio.gather(*plays)
        finally:
            sending.cancel()
    say("session over")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--record", type=Path)
    parser.add_argument("--hold-ms", action="append", default=[])
    parser.add_argument("--break", dest="break_marker", type=Path)
    parser.add_argument("--protocol", type=int, default=3)
    parser.add_argument("--name", default="mux")
    parser.add_argument("--pipe", action="store_true")
    parser.add_argument("--attack", choices=("oversize", "garbage", "cut", "flood"), default="")
    asyncio.run(main(parser.parse_args()))
