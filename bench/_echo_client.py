"""The bare gRPC baseline's client of bench/sessions.py and bench/cpu.py: STREAMS ping-pong
streams at once on one ``grpc.aio`` channel to ``bench/_echo_server.py`` on 127.0.0.1:PORT, each
EACH round trips of a 300-byte payload.

    python bench/_echo_client.py PORT STREAMS EACH

After a warm-up (5 round trips on every stream) it prints ``ready`` and waits for a line on
stdin (the caller zeroes its counters then); then the timed part, and one line
``done ROUND_TRIPS ROUND_TRIPS_PER_S CPU_S_PER_ROUND_TRIP``: the round trips of the timed part,
their rate in wall time, and this process's own CPU seconds per round trip
(``time.process_time()``: user + system, all its threads, gRPC's included)."""

import asyncio
import sys
import time

import grpc

PAYLOAD = b"x" * 300
WARM_UP = 5


async def one(channel, n):
    call = channel.stream_stream("/bench.Echo/Echo")()
    for _ in range(n):
        await call.write(PAYLOAD)
        await call.read()
    await call.done_writing()


async def main():
    port, streams, each = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        await channel.channel_ready()
        await asyncio.gather(*(one(channel, WARM_UP) for _ in range(streams)))
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(one(channel, each) for _ in range(streams)))
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        trips = streams * each
        print("done", trips, trips / wall, cpu / trips, flush=True)


asyncio.run(main())
