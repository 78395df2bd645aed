"""The ceiling of any arbiter on this stack: a *null arbiter* that does no work of its own. Not a
test; nothing here asserts a time.

    .venv/bin/python bench/ceiling.py                 # both (about two minutes)
    .venv/bin/python bench/ceiling.py decisions       # one: decisions | matches
    .venv/bin/python bench/ceiling.py --repeats 1

The null arbiter is a ``grpc.aio`` server of ``BotService`` that plays back, byte for byte, the
wire messages one real 12-deal As-Nas match sends each seat (recorded once through
``play_local``, the real rules and codec): it hands the seats out on bot sessions, writes each
seat its recorded Welcome, decisions (with their events) and MatchEnd in table order, and waits
for the reply to each decision without looking inside it. No rules, no codec, no clocks, no
replay: what is left is what gRPC and the bots cost. (It sends no events-only messages, so it is
a bound from above.) It comes in the two designs of the protocol: **per seat stream** (protocol
2: each seat on a Play stream of its own, one message per decision; it refuses a protocol 3
hello, so the bots fall back to 2), the bound issue 12 measured; and **multiplexed** (protocol 3:
every seat of a bot process on its Session stream, each write taking everything queued for the
process, as the arbiter's does), the bound of the design the arbiter has now.

* decisions: decisions per second with C matches at once (C = 8 and 64), four light session
  bots (``bench/_light_bot.py``, as in ``bench/sessions.py decisions``): the null arbiter (both
  designs), the real arbiter (and again with ``event_flush_ms = 0``, and again with the light
  bots on their session pipes, ``arbiter_pipe_*``: no gRPC between them), and bare ``grpc.aio``
  ping-pong with C streams, in the same run; and the CPU each side spends per decision (the
  server's process, and the four bots together).
* matches: complete matches per second with four random Python SDK bots at concurrency 1 and
  at ``os.cpu_count()``: the null arbiter (both designs), the real arbiter with bot sessions
  (``BotPool``), and (c) in-process play (``play_local``).

The null arbiter against bare gRPC is the most any arbiter written on ``grpc.aio`` can reach with
these bots on this machine; the real arbiter against the null one is what its own work costs.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import sessions  # bench/sessions.py: the real arbiter's runs and the bare baseline
from _kit import cpu_s, run_benches

from croupier.transport import BotPool, play_local
from croupier.transport._local import LocalSeat
from croupier.v1 import bot_pb2 as pb
from croupier_bot import Seat
from croupier_bots.random_bot import RandomBot

LIGHT = [sys.executable, str(Path(__file__).with_name("_light_bot.py"))]
#: Whether the packages measured speak protocol 3 (``--compare`` with a revision from before it
#: measures the null arbiter per seat stream only).
MULTIPLEXED = hasattr(pb, "SeatMessage")
#: Whether the arbiter measured gives launched bots session pipes (``--compare`` with a revision
#: from before them measures it on gRPC only).
PIPE = "pipe" in inspect.signature(BotPool).parameters
SDK = [sys.executable, "-m", "croupier_bots.random_bot"]


@dataclass(frozen=True)
class Script:
    """One match's wire messages: per seat its Welcome; then, in table order, (seat, bytes,
    whether it asks a decision); per seat its MatchEnd."""

    welcomes: tuple[bytes, ...]
    steps: tuple[tuple[int, bytes, bool], ...]
    end: bytes

    @property
    def decisions(self) -> int:
        return sum(1 for _, _, decision in self.steps if decision)


def record(seed: int = 0) -> Script:
    """The messages of one real 12-deal As-Nas match (``play_local``: the real rules and codec)."""
    welcomes: list[bytes] = [b""] * 4
    steps: list[tuple[int, bytes, bool]] = []

    def recording(seat: int) -> LocalSeat:
        inner = Seat(RandomBot(seed * 4 + seat))

        def respond(response: pb.PlayResponse) -> int | None:
            data = response.SerializeToString()
            if response.WhichOneof("kind") == "welcome":
                welcomes[seat] = data
            else:
                steps.append((seat, data, response.WhichOneof("kind") == "decision"))
            return inner(response)

        return respond

    play_local("as-nas", {"deals": 12}, seed, [recording(s) for s in range(4)])
    end = pb.PlayResponse(
        match_end=pb.MatchEnd(
            seed=seed,
            salt="0" * 32,
            chance_script_sha256="0" * 64,
            results=[
                pb.SeatResult(
                    seat=s, bot_name="random", place=1 + s, outcome=pb.SEAT_OUTCOME_NORMAL
                )
                for s in range(4)
            ],
        )
    )
    return Script(tuple(welcomes), tuple(steps), end.SerializeToString())


@dataclass
class _Session:
    seats: asyncio.Queue[bytes | None] = field(default_factory=asyncio.Queue)


class NullArbiter:
    """Serves ``BotService`` (``Play``, ``Session``) with raw bytes: plays ``script`` back, each
    seat on a Play stream of its own (protocol 2: a protocol 3 hello is refused, as an arbiter
    from before it refuses it, and the bots say it again in 2)."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.sessions: dict[str, _Session] = {}
        self.ready: dict[str, asyncio.Event] = {}
        #: seat token -> [the seat's stream, once it said Hello; the match is over for it]
        self.streams: dict[str, tuple[asyncio.Future[grpc.aio.ServicerContext], asyncio.Event]] = {}
        self.decisions = 0

    async def session(self, request_iterator: object, context: grpc.aio.ServicerContext) -> None:
        first = await context.read()
        hello = pb.SessionRequest.FromString(first).hello
        if hello.protocol_version != 2:
            await context.abort(
                grpc.StatusCode.FAILED_PRECONDITION,
                "this null arbiter speaks protocol 2",
                trailing_metadata=(("croupier-reason", "PROTOCOL_VERSION"),),
            )
        session = self.sessions[hello.token]
        welcome = pb.SessionResponse(
            welcome=pb.SessionWelcome(
                session_id=hello.token, protocol_version=2, capacity=hello.capacity
            )
        )
        await context.write(welcome.SerializeToString())
        self.ready[hello.token].set()
        while (seat := await session.seats.get()) is not None:
            await context.write(seat)

    async def play(self, request_iterator: object, context: grpc.aio.ServicerContext) -> None:
        first = await context.read()
        token = pb.PlayRequest.FromString(first).hello.token
        stream, over = self.streams.pop(token)
        stream.set_result(context)
        await over.wait()
        while await context.read() is not grpc.aio.EOF:  # the bot closes its side
            pass

    def handlers(self) -> grpc.GenericRpcHandler:
        return grpc.method_handlers_generic_handler(
            "croupier.v1.BotService",
            {
                "Play": grpc.stream_stream_rpc_method_handler(self.play),
                "Session": grpc.stream_stream_rpc_method_handler(self.session),
            },
        )

    async def match(self, number: int, sessions: list[str]) -> None:
        loop = asyncio.get_running_loop()
        contexts, over = [], asyncio.Event()
        for seat, session in enumerate(sessions):
            token = secrets.token_hex(12)
            stream: asyncio.Future[grpc.aio.ServicerContext] = loop.create_future()
            self.streams[token] = (stream, over)
            contexts.append(stream)
            assignment = pb.SessionResponse(
                seat=pb.SeatAssignment(
                    match_id=f"null-{number}", game="as-nas", seat=seat, token=token, seed=number
                )
            )
            self.sessions[session].seats.put_nowait(assignment.SerializeToString())
        seats = await asyncio.gather(*contexts)
        script = self.script
        for seat, context in enumerate(seats):
            await context.write(script.welcomes[seat])
        for seat, data, decision in script.steps:
            context = seats[seat]
            await context.write(data)
            if decision:
                await context.read()
                self.decisions += 1
        for context in seats:
            await context.write(script.end)
        over.set()


@dataclass(eq=False)
class _Multiplexed:
    """One bot process's multiplexed Session stream on :class:`NullMux`."""

    queued: list[bytes] = field(default_factory=list)
    wake: asyncio.Future[None] | None = None
    waiting: dict[int, asyncio.Future[None]] = field(default_factory=dict)  # by seat_ref
    next_ref: int = 1
    closed: bool = False

    def put(self, data: bytes) -> None:
        self.queued.append(data)
        if self.wake is not None and not self.wake.done():
            self.wake.set_result(None)

    def close(self) -> None:
        self.closed = True
        self.put(b"")


class NullMux:
    """:class:`NullArbiter` in the design of protocol 3: each bot process's seats on its one
    Session stream, each write taking everything queued for the process (never waiting to
    batch), the replies matched to their seats by ``seat_ref``."""

    def __init__(self, script: Script) -> None:
        self.script = script
        self.sessions: dict[str, _Multiplexed] = {}
        self.ready: dict[str, asyncio.Event] = {}
        self.decisions = 0

    async def session(self, request_iterator: object, context: grpc.aio.ServicerContext) -> None:
        first = await context.read()
        hello = pb.SessionRequest.FromString(first).hello
        session = self.sessions[hello.token]
        welcome = pb.SessionResponse(
            welcome=pb.SessionWelcome(
                session_id=hello.token, protocol_version=3, capacity=hello.capacity
            )
        )
        await context.write(welcome.SerializeToString())
        self.ready[hello.token].set()
        reader = asyncio.create_task(self._read(session, context))
        loop = asyncio.get_running_loop()
        try:
            while not (session.closed and not session.queued):
                if not session.queued:
                    session.wake = loop.create_future()
                    await session.wake
                data, session.queued = b"".join(session.queued), []
                if data:
                    await context.write(data)
        finally:
            reader.cancel()

    async def _read(self, session: _Multiplexed, context: grpc.aio.ServicerContext) -> None:
        while (raw := await context.read()) is not grpc.aio.EOF:
            for reply in pb.SessionRequest.FromString(raw).replies:
                session.waiting.pop(reply.seat_ref).set_result(None)

    async def play(self, request_iterator: object, context: grpc.aio.ServicerContext) -> None:
        raise NotImplementedError  # (every seat is multiplexed)

    def handlers(self) -> grpc.GenericRpcHandler:
        return grpc.method_handlers_generic_handler(
            "croupier.v1.BotService",
            {
                "Play": grpc.stream_stream_rpc_method_handler(self.play),
                "Session": grpc.stream_stream_rpc_method_handler(self.session),
            },
        )

    async def match(self, number: int, sessions: list[str]) -> None:
        from croupier.transport._mux import seat_message  # (protocol 3 only: MULTIPLEXED)

        loop = asyncio.get_running_loop()
        streams = [self.sessions[name] for name in sessions]
        refs = []
        script = self.script
        for seat, stream in enumerate(streams):
            ref = stream.next_ref
            stream.next_ref += 1
            refs.append(ref)
            opening = pb.SeatAssignment(
                match_id=f"null-{number}", game="as-nas", seat=seat, seed=number
            ).SerializeToString()
            stream.put(seat_message(ref, script.welcomes[seat], opening))
        for seat, data, decision in script.steps:
            stream = streams[seat]
            if decision:
                answered = stream.waiting[refs[seat]] = loop.create_future()
            stream.put(seat_message(refs[seat], data))
            if decision:
                await answered
                self.decisions += 1
        for seat, stream in enumerate(streams):
            stream.put(seat_message(refs[seat], script.end))


async def _null_run(
    bot: list[str], concurrency: int, matches: int, script: Script, *, multiplexed: bool = False
) -> dict[str, float]:
    """Play ``matches`` on the null arbiter (``multiplexed``: :class:`NullMux`), ``concurrency``
    at a time, after one warm-up match per slot; decisions/s, matches/s, and CPU per decision of
    the server and of the bots."""
    null: NullArbiter | NullMux = NullMux(script) if multiplexed else NullArbiter(script)
    server = grpc.aio.server()
    server.add_generic_rpc_handlers((null.handlers(),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    names = [secrets.token_hex(8) for _ in range(4)]
    procs = []
    try:
        for name in names:
            if isinstance(null, NullMux):
                null.sessions[name] = _Multiplexed()
            else:
                null.sessions[name] = _Session()
            null.ready[name] = asyncio.Event()
            env = dict(
                os.environ,
                CROUPIER_ADDRESS=f"127.0.0.1:{port}",
                CROUPIER_SESSION_TOKEN=name,
                CROUPIER_SESSION_CAPACITY=str(concurrency),
            )
            quiet = subprocess.DEVNULL
            procs.append(subprocess.Popen(bot, env=env, stdout=quiet, stderr=quiet))
        try:
            async with asyncio.timeout(30):
                await asyncio.gather(*(null.ready[name].wait() for name in names))
        except TimeoutError:
            raise SystemExit(f"ceiling: {' '.join(bot)} did not open its session in 30 s") from None
        numbers = iter(range(10**9))
        await asyncio.gather(*(null.match(next(numbers), names) for _ in range(concurrency)))
        queue = list(range(matches))

        async def worker() -> None:
            while queue:
                queue.pop()
                await null.match(next(numbers), names)

        before = null.decisions
        bots = sum(cpu_s(p.pid) for p in procs)
        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        bots = sum(cpu_s(p.pid) for p in procs) - bots
        decisions = null.decisions - before
    finally:
        for name in names:
            if isinstance(null, NullMux):
                null.sessions[name].close()
            else:
                null.sessions[name].seats.put_nowait(None)
        for proc in procs:
            try:
                await asyncio.to_thread(proc.wait, 10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        await server.stop(None)
    return {
        "decisions_per_s": decisions / elapsed,
        "matches_per_s": matches / elapsed,
        "server_cpu_us": 1e6 * cpu / decisions,
        "bots_cpu_us": 1e6 * bots / decisions,
    }


def bench_decisions(repeats: int) -> dict[str, float]:
    script = record()
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for concurrency, matches in ((8, 32), (64, 64)):
            bare, null, mux, arbiter, null_cpu, null_bots, arbiter_cpu = [], [], [], [], [], [], []
            mux_cpu, mux_bots, off, off_cpu, bare_cpu = [], [], [], [], []
            writes, off_writes = [], []
            piped: list[float] = []
            piped_cpu: list[float] = []
            for r in range(repeats):
                trips, server_s, client_s = sessions._ping_pong(concurrency, 6000)
                bare.append(trips)
                bare_cpu.append((server_s + client_s) * 1e6)
                run = asyncio.run(_null_run(LIGHT, concurrency, matches, script))
                null.append(run["decisions_per_s"])
                null_cpu.append(run["server_cpu_us"])
                null_bots.append(run["bots_cpu_us"])
                if MULTIPLEXED:
                    run = asyncio.run(
                        _null_run(LIGHT, concurrency, matches, script, multiplexed=True)
                    )
                    mux.append(run["decisions_per_s"])
                    mux_cpu.append(run["server_cpu_us"])
                    mux_bots.append(run["bots_cpu_us"])
                path = Path(tmp) / f"c{concurrency}-{r}"
                rate, cpu, wrote = asyncio.run(
                    sessions._arbiter_decisions(concurrency, matches, path)
                )
                arbiter.append(rate)
                arbiter_cpu.append(cpu * 1e6)
                writes.append(wrote)
                path = Path(tmp) / f"c{concurrency}-{r}-flush0"
                rate, cpu, wrote = asyncio.run(
                    sessions._arbiter_decisions(concurrency, matches, path, 0)
                )
                off.append(rate)
                off_cpu.append(cpu * 1e6)
                off_writes.append(wrote)
                if PIPE:
                    path = Path(tmp) / f"c{concurrency}-{r}-pipe"
                    rate, cpu, _ = asyncio.run(
                        sessions._arbiter_decisions(concurrency, matches, path, pipe=True)
                    )
                    piped.append(rate)
                    piped_cpu.append(cpu * 1e6)
            b, n, a = (statistics.median(x) for x in (bare, null, arbiter))
            c = concurrency
            out[f"bare_grpc_round_trips_per_s_c{c}"] = b
            out[f"null_arbiter_decisions_per_s_c{c}"] = n
            out[f"arbiter_decisions_per_s_c{c}"] = a
            out[f"ratio_null_to_bare_c{c}"] = n / b
            out[f"ratio_arbiter_to_bare_c{c}"] = a / b
            out[f"null_server_cpu_us_per_decision_c{c}"] = statistics.median(null_cpu)
            out[f"null_bots_cpu_us_per_decision_c{c}"] = statistics.median(null_bots)
            # CPU per round trip of the bare pair against per decision of the null server and
            # its bots: their rates' ratio once both keep every core busy (steadier under load)
            pair = statistics.median(bare_cpu)
            null_all = statistics.median([x + y for x, y in zip(null_cpu, null_bots, strict=True)])
            out[f"bare_pair_cpu_us_per_round_trip_c{c}"] = pair
            out[f"cpu_bound_ratio_null_to_bare_c{c}"] = pair / null_all
            if mux:
                m = statistics.median(mux)
                mux_all = statistics.median([x + y for x, y in zip(mux_cpu, mux_bots, strict=True)])
                out[f"null_mux_decisions_per_s_c{c}"] = m
                out[f"ratio_null_mux_to_bare_c{c}"] = m / b
                out[f"ratio_arbiter_to_null_mux_c{c}"] = a / m
                out[f"null_mux_server_cpu_us_per_decision_c{c}"] = statistics.median(mux_cpu)
                out[f"null_mux_bots_cpu_us_per_decision_c{c}"] = statistics.median(mux_bots)
                out[f"cpu_bound_ratio_null_mux_to_bare_c{c}"] = pair / mux_all
            out[f"arbiter_cpu_us_per_decision_c{c}"] = statistics.median(arbiter_cpu)
            out[f"arbiter_flush0_decisions_per_s_c{c}"] = statistics.median(off)
            out[f"arbiter_flush0_cpu_us_per_decision_c{c}"] = statistics.median(off_cpu)
            out[f"arbiter_writes_per_decision_c{c}"] = statistics.median(writes)
            out[f"arbiter_flush0_writes_per_decision_c{c}"] = statistics.median(off_writes)
            if piped:
                out[f"arbiter_pipe_decisions_per_s_c{c}"] = statistics.median(piped)
                out[f"ratio_arbiter_pipe_to_bare_c{c}"] = statistics.median(piped) / b
                out[f"arbiter_pipe_cpu_us_per_decision_c{c}"] = statistics.median(piped_cpu)
    return out


def bench_matches(repeats: int) -> dict[str, float]:
    script = record()
    cores = os.cpu_count() or 1
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        local = [sessions._local_matches_per_s(100) for _ in range(repeats)]
        c = statistics.median(local)
        out["c_local_matches_per_s"] = c
        for concurrency, matches in ((1, 20), (cores, 30)):
            null, mux, arbiter = [], [], []
            for r in range(repeats):
                run = asyncio.run(_null_run(SDK, concurrency, matches, script))
                null.append(run["matches_per_s"])
                if MULTIPLEXED:
                    run = asyncio.run(
                        _null_run(SDK, concurrency, matches, script, multiplexed=True)
                    )
                    mux.append(run["matches_per_s"])
                path = Path(tmp) / f"m{concurrency}-{r}"
                arbiter.append(asyncio.run(sessions._session_matches(matches, concurrency, path)))
            n, b = statistics.median(null), statistics.median(arbiter)
            out[f"null_arbiter_matches_per_s_concurrency_{concurrency}"] = n
            out[f"b_session_matches_per_s_concurrency_{concurrency}"] = b
            out[f"ratio_null_to_c_concurrency_{concurrency}"] = n / c
            out[f"ratio_b_to_c_concurrency_{concurrency}"] = b / c
            if mux:
                m = statistics.median(mux)
                out[f"null_mux_matches_per_s_concurrency_{concurrency}"] = m
                out[f"ratio_null_mux_to_c_concurrency_{concurrency}"] = m / c
                out[f"ratio_b_to_null_mux_concurrency_{concurrency}"] = b / m
    return out


BENCHES = {"decisions": bench_decisions, "matches": bench_matches}


if __name__ == "__main__":
    run_benches(__doc__, BENCHES)
