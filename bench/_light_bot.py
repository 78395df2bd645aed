"""The light session bot of ``bench/sessions.py decisions``: raw ``grpc.aio``, parses each
message and answers a random legal id (no SDK). A file, not ``python -c``: a launched bot runs in
its sandbox, which resolves its program's path. Its Hello names it ``light``, or its first
argument (``bench/cpu.py bot`` tells the measured one apart)."""

import asyncio
import os
import random
import sys

import grpc

try:  # the contract's own stubs package; a checkout from before it has them in the server
    from croupier_proto.v1 import PROTOCOL_VERSION, bot_pb2_grpc
    from croupier_proto.v1 import bot_pb2 as pb
except ImportError:
    from croupier.v1 import PROTOCOL_VERSION, bot_pb2_grpc  # type: ignore[no-redef]
    from croupier.v1 import bot_pb2 as pb  # type: ignore[no-redef]

NAME = sys.argv[1] if len(sys.argv) > 1 else "light"


async def seat(stub, token, seed):
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
            action = rng.choice(d.legal_actions).id
            await call.write(
                pb.PlayRequest(action=pb.ActionReply(request_id=d.request_id, action_id=action))
            )
        elif kind == "match_end":
            await call.done_writing()
            return


async def main():
    async with grpc.aio.insecure_channel(os.environ["CROUPIER_ADDRESS"]) as channel:
        stub = bot_pb2_grpc.BotServiceStub(channel)
        session = stub.Session()
        await session.write(
            pb.SessionRequest(
                hello=pb.SessionHello(
                    token=os.environ["CROUPIER_SESSION_TOKEN"],
                    bot_name=NAME,
                    bot_version="1",
                    protocol_version=PROTOCOL_VERSION,
                    capacity=int(os.environ["CROUPIER_SESSION_CAPACITY"]),
                )
            )
        )
        seats = set()
        while (r := await session.read()) is not grpc.aio.EOF:
            if r.WhichOneof("kind") == "seat":
                task = asyncio.create_task(seat(stub, r.seat.token, r.seat.seed))
                seats.add(task)
                task.add_done_callback(seats.discard)
        await asyncio.gather(*seats)


asyncio.run(main())
