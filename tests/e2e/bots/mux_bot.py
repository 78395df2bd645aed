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
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from pathlib import Path

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


async def main(args: argparse.Namespace) -> None:
    holds = {int(s): int(ms) for s, ms in (h.split(":") for h in args.hold_ms)}
    async with grpc.aio.insecure_channel(os.environ["CROUPIER_ADDRESS"]) as channel:
        call = bot_pb2_grpc.BotServiceStub(channel).Session()
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
    asyncio.run(main(parser.parse_args()))
