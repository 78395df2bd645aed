"""The light session bot of ``bench/sessions.py decisions``, ``bench/cpu.py`` and
``bench/serve_scale.py``: raw ``grpc.aio``, parses each message and answers a random legal id (no
SDK). A file, not ``python -c``: a launched bot runs in its sandbox, which resolves its program's
path. Its Hello names it ``light``, or its first argument (``bench/cpu.py bot`` tells the
measured one apart).

Launched by a ``BotPool`` it opens one session, with ``CROUPIER_SESSION_TOKEN``. With
``LIGHT_SESSION_TOKENS`` (comma-separated: ``bench/serve_scale.py``) it opens a session for each
token instead, all on its one connection; ``LIGHT_DELAY_MS`` makes it wait that long before each
reply (each message of replies in a multiplexed session is written that long after the message
it answers, while the session goes on reading: the seats wait, not the stream). A seat whose
match was cancelled before it joined ends quietly.

It speaks protocol 3 (every seat on the session's stream, one message of replies per message
received), and 2 (each seat on a Play stream of its own) to an arbiter that refuses 3 or when
``LIGHT_PROTOCOL=2``. Given a session pipe (``CROUPIER_SESSION_FD``; not with
``LIGHT_SESSION_TOKENS``) it plays its session there, with a blocking loop (``LIGHT_DELAY_MS``
then holds the whole process: a pipe bot is not used with delays)."""

import asyncio
import contextlib
import os
import random
import sys
import time

import grpc

try:  # the contract's own stubs package; a checkout from before it has them in the server
    from croupier_proto.v1 import PROTOCOL_VERSION, bot_pb2_grpc
    from croupier_proto.v1 import bot_pb2 as pb
except ImportError:
    from croupier.v1 import PROTOCOL_VERSION, bot_pb2_grpc  # type: ignore[no-redef]
    from croupier.v1 import bot_pb2 as pb  # type: ignore[no-redef]

NAME = sys.argv[1] if len(sys.argv) > 1 else "light"
DELAY = int(os.environ.get("LIGHT_DELAY_MS", "0")) / 1000
PROTOCOL = int(os.environ.get("LIGHT_PROTOCOL", str(PROTOCOL_VERSION)))


async def seat(stub, token, seed):
    with contextlib.suppress(grpc.aio.AioRpcError):  # its match was cancelled before it joined
        await play(stub, token, seed)


async def play(stub, token, seed):
    rng = random.Random(seed)
    call = stub.Play()
    await call.write(
        pb.PlayRequest(
            hello=pb.Hello(
                token=token, bot_name=NAME, bot_version="1", protocol_version=PROTOCOL_VERSION
            )
        )
    )
    while (r := await call.read()) is not grpc.aio.EOF:
        kind = r.WhichOneof("kind")
        if kind == "decision":
            d = r.decision
            if DELAY:
                await asyncio.sleep(DELAY)
            action = rng.choice(d.legal_actions).id
            await call.write(
                pb.PlayRequest(action=pb.ActionReply(request_id=d.request_id, action_id=action))
            )
        elif kind == "match_end":
            await call.done_writing()
            return


async def session(stub, token, capacity):
    if PROTOCOL >= 3:
        try:
            await multiplexed(stub, token, capacity)
            return
        except grpc.aio.AioRpcError as exc:
            reason = dict(exc.trailing_metadata() or ()).get("croupier-reason", "")
            if reason != "PROTOCOL_VERSION":  # (an arbiter from before protocol 3 says so)
                raise
    call = stub.Session()
    await call.write(
        pb.SessionRequest(
            hello=pb.SessionHello(
                token=token, bot_name=NAME, bot_version="1", protocol_version=2, capacity=capacity
            )
        )
    )
    seats = set()
    while (r := await call.read()) is not grpc.aio.EOF:
        if r.WhichOneof("kind") == "seat":
            task = asyncio.create_task(seat(stub, r.seat.token, r.seat.seed))
            seats.add(task)
            task.add_done_callback(seats.discard)
    await asyncio.gather(*seats)


def answer(response, rngs):
    """The replies to one multiplexed SessionResponse: a random legal id for each decision,
    from its seat's own generator (``rngs``, by seat_ref, kept from assignment to match end)."""
    out = pb.SessionRequest()
    for item in response.seat_messages:
        ref = item.seat_ref
        if item.HasField("assignment"):
            rngs[ref] = random.Random(item.assignment.seed)
        message = item.message
        kind = message.WhichOneof("kind")
        if kind == "decision":
            d = message.decision
            reply = out.replies.add()
            reply.seat_ref = ref
            reply.action.request_id = d.request_id
            reply.action.action_id = rngs[ref].choice(d.legal_actions).id
        elif kind == "match_end":
            rngs.pop(ref, None)
    return out


async def multiplexed(stub, token, capacity):
    call = stub.Session()
    await call.write(
        pb.SessionRequest(
            hello=pb.SessionHello(
                token=token, bot_name=NAME, bot_version="1", protocol_version=3, capacity=capacity
            )
        )
    )
    rngs = {}
    loop = asyncio.get_running_loop()
    due = asyncio.Queue()  # delayed replies, in the order they fall due: one writer

    async def write_due():
        while True:
            await call.write(await due.get())

    writer = asyncio.create_task(write_due())
    while (r := await call.read()) is not grpc.aio.EOF:
        out = answer(r, rngs)
        if out.replies:
            if DELAY:  # each reply waits, not the stream: later messages are read meanwhile
                loop.call_later(DELAY, due.put_nowait, out)
            else:
                await call.write(out)
    writer.cancel()


async def main():
    tokens = os.environ.get("LIGHT_SESSION_TOKENS") or os.environ["CROUPIER_SESSION_TOKEN"]
    capacity = int(os.environ["CROUPIER_SESSION_CAPACITY"])
    # one connection carries the sessions of every token this process plays
    options = [("grpc.max_concurrent_streams", 100000)]
    async with grpc.aio.insecure_channel(os.environ["CROUPIER_ADDRESS"], options=options) as ch:
        stub = bot_pb2_grpc.BotServiceStub(ch)
        await asyncio.gather(*(session(stub, token, capacity) for token in tokens.split(",")))


def piped(fd, token, capacity):
    """The session on the bot's session pipe (``CROUPIER_SESSION_FD``: 4-byte big-endian length
    frames of the same messages), with a blocking loop: no gRPC, no asyncio."""
    import socket

    sock = socket.socket(fileno=fd)
    pipe = sock.makefile("rb")

    def send(message):
        data = message.SerializeToString()
        sock.sendall(len(data).to_bytes(4, "big") + data)

    def read():
        header = pipe.read(4)
        return pipe.read(int.from_bytes(header, "big")) if len(header) == 4 else None

    hello = pb.SessionHello(
        token=token, bot_name=NAME, bot_version="1", protocol_version=3, capacity=capacity
    )
    send(pb.SessionRequest(hello=hello))
    if read() is None:
        return False  # refused: gRPC says why
    rngs = {}
    while (data := read()) is not None:
        out = answer(pb.SessionResponse.FromString(data), rngs)
        if out.replies:
            if DELAY:
                time.sleep(DELAY)
            with contextlib.suppress(OSError):
                send(out)
    return True


if not (
    os.environ.get("CROUPIER_SESSION_FD")
    and not os.environ.get("LIGHT_SESSION_TOKENS")
    and PROTOCOL >= 3
    and piped(
        int(os.environ["CROUPIER_SESSION_FD"]),
        os.environ["CROUPIER_SESSION_TOKEN"],
        int(os.environ["CROUPIER_SESSION_CAPACITY"]),
    )
):
    asyncio.run(main())
