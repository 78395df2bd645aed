"""Throughput of many matches: bot sessions against one ``croupier match`` per match, and the
arbiter's decisions per second against bare gRPC. Not tests; nothing here asserts a time.

    .venv/bin/python bench/sessions.py                # both
    .venv/bin/python bench/sessions.py matches        # one: matches | decisions

* matches: complete 12-deal As-Nas matches per second with four random Python SDK bots:
  (a) ``croupier match`` one after another (a fresh arbiter and four bot processes each time),
  (b) matches on one server with the bots kept up in sessions (``BotPool``), at concurrency 1 and
  at ``os.cpu_count()``, each bot on its session pipe; and (b grpc) the same at
  ``os.cpu_count()`` with the bots' sessions on gRPC (no pipe, as before it); (b loops) the same
  total concurrency as one match loop per core: ``os.cpu_count()`` processes, each its own server
  and pool of the four bots playing its share of the matches one at a time (what ``croupier
  tournament --workers`` does), all started together after each warmed up; (b wide) the same as
  (b) at 16 × ``os.cpu_count()`` matches at once, where a bot process has several decisions
  waiting at once and a write carries them together (the multiplexed stream's batching: the
  arbiter's and the bots' CPU per match at both concurrencies); (c) in-process play
  with no gRPC (``play_local``, the floor of the rules and the codec). Ratios (b)/(a), (b)/(c),
  (b)/(b grpc), (b loops)/(b), (b loops)/(c), (b wide)/(c).
* decisions: the arbiter's decisions per second with C matches at once (C = 8 and 64), its seats
  played by four light session bots (raw ``grpc.aio`` clients that parse each message and answer
  a random legal id: no SDK), against bare ``grpc.aio`` bidirectional ping-pong with C streams at
  once (300-byte payload, client and server in two processes, ``bench/_echo_client.py`` and
  ``bench/_echo_server.py``), in the same run; and CPU per decision of the arbiter against CPU
  per round trip of the bare server and, measured by itself, of the bare client.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from _kit import cpu_s, descendants_cpu_s, run_benches

from croupier.arbiter import ClockRules, MatchConfig
from croupier.replay import read_replay
from croupier.runner import run_match
from croupier.transport import ArbiterServer, BotPool

RANDOM = [sys.executable, "-m", "croupier_bots.random_bot"]
CLOCK = ClockRules(5000, 60000)  # roomy: nobody times out on a loaded machine

# ---- matches per second --------------------------------------------------------------------------


def _cli_matches_per_s(matches: int) -> float:
    """(a) ``croupier match`` processes one after another, as a user scripts it today."""
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        for i in range(matches):
            subprocess.run(
                [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", str(i),
                 "--out", tmp, *["--bot", "random"] * 4],
                check=True, capture_output=True,
            )  # fmt: skip
        return matches / (time.perf_counter() - start)


def _pool(server: ArbiterServer, out: Path, concurrency: int, pipe: bool) -> BotPool:
    """The bots' pool, its launched bots on session pipes or (``pipe`` False) on gRPC; on a
    checkout from before the session pipe, gRPC (the only way it has)."""
    try:
        return BotPool(server, out, capacity=concurrency, pipe=pipe)
    except TypeError:  # (no such option)
        return BotPool(server, out, capacity=concurrency)


async def _session_matches(
    matches: int,
    concurrency: int,
    out: Path,
    pipe: bool = True,
    ready: Callable[[], Awaitable[None]] | None = None,
    cpu: dict[str, float] | None = None,
) -> float:
    """(b) ``matches`` on one server, ``concurrency`` at a time, four pooled random bots; the
    bots are started (one warm-up match) before the clock starts. ``pipe`` False: the bots play
    their sessions on gRPC, not on their session pipes (as before the pipe existed). ``ready``:
    awaited after the warm-up, before the clock starts. ``cpu``: given the CPU seconds per
    match of the arbiter (``"arbiter"``, this process) and of the four bots (``"bots"``)."""
    server = ArbiterServer()
    await server.start()
    pool = _pool(server, out, concurrency, pipe)
    names = ["r0", "r1", "r2", "r3"]
    for name in names:
        pool.add(name, RANDOM)
    try:

        async def one(i: int) -> None:
            seats = [pool.assigner(n) for n in names[i % 4 :] + names[: i % 4]]
            config = MatchConfig("as-nas", seed=i, clock=CLOCK)
            await run_match(config, seats, out, server=server, match_id=f"s{concurrency}-{i}")

        await asyncio.gather(*(one(10_000 + c) for c in range(concurrency)))  # warm-up
        if ready is not None:
            await ready()
        queue = list(range(matches))

        async def worker() -> None:
            while queue:
                await one(queue.pop())

        bots = descendants_cpu_s()  # (the scan of /proc first: it is not the arbiter's work)
        arbiter, start = time.process_time(), time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        rate = matches / (time.perf_counter() - start)
        if cpu is not None:
            cpu["arbiter"] = (time.process_time() - arbiter) / matches
            cpu["bots"] = (descendants_cpu_s() - bots) / matches
        return rate
    finally:
        await pool.close()
        await server.stop()


def _loops_matches_per_s(matches: int, loops: int, out: Path) -> float:
    """(b loops) ``matches`` over ``loops`` processes, each its own server and pool of the four
    bots playing its share one at a time (a match loop per core, as ``croupier tournament
    --workers`` plays): every process warms up, then all start at once; the matches over the
    longest's time."""
    parts = [
        subprocess.Popen(
            [sys.executable, __file__, "_part", str(matches // loops), str(out / f"loop{k}")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for k in range(loops)
    ]
    try:
        for part in parts:
            assert part.stdout is not None
            if "ready\n" not in iter(part.stdout.readline, ""):  # (log lines may come first)
                raise SystemExit("bench/sessions.py: a part failed to start")
        for part in parts:
            assert part.stdin is not None
            part.stdin.write("go\n")
            part.stdin.flush()
        rates = [float(part.communicate()[0].split("rate ")[-1]) for part in parts]
    finally:
        for part in parts:
            part.kill()
    return loops * (matches // loops) / max((matches // loops) / r for r in rates)


def _part(matches: int, out: Path) -> None:
    """One process of (b loops): say ``ready`` after the warm-up, start on a line on stdin,
    print the matches per second."""

    async def ready() -> None:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)

    print("rate", asyncio.run(_session_matches(matches, 1, out, ready=ready)), flush=True)


def _local_matches_per_s(matches: int, cpu: dict[str, float] | None = None) -> float:
    """(c) in-process play through the codec, no gRPC: the floor. ``cpu``: given its CPU
    seconds per match (``"local"``)."""
    from croupier.transport import play_local
    from croupier_bot import Seat
    from croupier_bots.random_bot import RandomBot

    start, used = time.perf_counter(), time.process_time()
    for i in range(matches):
        play_local("as-nas", {}, i, [Seat(RandomBot(4 * i + s)) for s in range(4)])
    if cpu is not None:
        cpu["local"] = (time.process_time() - used) / matches
    return matches / (time.perf_counter() - start)


def bench_matches(repeats: int) -> dict[str, float]:
    cores = os.cpu_count() or 1
    cli, one, many, grpc_many, loops, local, wide = [], [], [], [], [], [], []
    arbiter_cpu, bots_cpu, local_cpu, wide_arbiter_cpu, wide_bots_cpu = [], [], [], [], []
    broad = 16 * cores
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(repeats):
            cli.append(_cli_matches_per_s(3))
            one.append(asyncio.run(_session_matches(20, 1, Path(tmp) / f"one{r}")))
            cpu: dict[str, float] = {}
            many.append(asyncio.run(_session_matches(60, cores, Path(tmp) / f"many{r}", cpu=cpu)))
            grpc_many.append(
                asyncio.run(_session_matches(30, cores, Path(tmp) / f"grpc{r}", pipe=False))
            )
            loops.append(_loops_matches_per_s(60, cores, Path(tmp) / f"loops{r}"))
            spread: dict[str, float] = {}
            wide.append(
                asyncio.run(_session_matches(4 * broad, broad, Path(tmp) / f"wide{r}", cpu=spread))
            )
            wide_arbiter_cpu.append(spread["arbiter"])
            wide_bots_cpu.append(spread["bots"])
            local.append(_local_matches_per_s(100, cpu=cpu))
            arbiter_cpu.append(cpu["arbiter"])
            bots_cpu.append(cpu["bots"])
            local_cpu.append(cpu["local"])
    a, b1, bn, c = (statistics.median(x) for x in (cli, one, many, local))
    bg, bl = statistics.median(grpc_many), statistics.median(loops)
    arbiter, bots, floor = (statistics.median(x) for x in (arbiter_cpu, bots_cpu, local_cpu))
    bw, wide_arbiter = statistics.median(wide), statistics.median(wide_arbiter_cpu)
    return {
        # what bounds (b)/(c): one match loop cannot play faster than its own CPU per match
        # allows (the arbiter's), nor all the cores faster than the arbiter's and the bots'
        # together; (c) is one process, its rate its CPU per match
        f"b{cores}_arbiter_cpu_ms_per_match": 1000 * arbiter,
        f"b{cores}_bots_cpu_ms_per_match": 1000 * bots,
        "c_cpu_ms_per_match": 1000 * floor,
        f"bound_b{cores}_to_c_one_loop": floor / arbiter,
        f"bound_b_to_c_{cores}_cores": cores * floor / (arbiter + bots),
        f"b_loops_matches_per_s_{cores}_loops": bl,
        f"ratio_b_loops{cores}_to_b{cores}": bl / bn,
        f"ratio_b_loops{cores}_to_c": bl / c,
        f"b_wide_session_matches_per_s_concurrency_{broad}": bw,
        f"ratio_b_wide{broad}_to_c": bw / c,
        f"b_wide{broad}_arbiter_cpu_ms_per_match": 1000 * wide_arbiter,
        f"b_wide{broad}_bots_cpu_ms_per_match": 1000 * statistics.median(wide_bots_cpu),
        f"bound_b_wide{broad}_to_c_one_loop": floor / wide_arbiter,
        f"b_grpc_session_matches_per_s_concurrency_{cores}": bg,
        f"ratio_b{cores}_to_b_grpc": bn / bg,
        f"ratio_b_grpc{cores}_to_c": bg / c,
        "a_cli_matches_per_s": a,
        "b_session_matches_per_s_concurrency_1": b1,
        f"b_session_matches_per_s_concurrency_{cores}": bn,
        "c_local_matches_per_s": c,
        "ratio_b1_to_a": b1 / a,
        f"ratio_b{cores}_to_a": bn / a,
        "ratio_b1_to_c": b1 / c,
        f"ratio_b{cores}_to_c": bn / c,
    }


# ---- decisions per second --------------------------------------------------------------------

#: The light session bot (a file: the sandbox runs a program by its path).
_LIGHT_BOT = str(Path(__file__).with_name("_light_bot.py"))

#: The bare gRPC echo server, the baseline (a file both benches run).
_ECHO_SERVER = str(Path(__file__).with_name("_echo_server.py"))

#: Its client: C ping-pong streams at once, its own CPU per round trip measured.
_ECHO_CLIENT = str(Path(__file__).with_name("_echo_client.py"))


def _ping_pong(streams: int, total: int) -> tuple[float, float, float]:
    """Bare gRPC round trips per second with ``streams`` ping-pong streams at once, and the
    server's and the client's CPU seconds per round trip (the timed part only: warm-up left
    out)."""
    server = subprocess.Popen([sys.executable, _ECHO_SERVER], stdout=subprocess.PIPE,
                              text=True)  # fmt: skip
    try:
        assert server.stdout is not None
        port = server.stdout.readline().strip()
        each = max(1, total // streams)
        client = subprocess.Popen(
            [sys.executable, _ECHO_CLIENT, port, str(streams), str(each)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert client.stdin is not None
            assert client.stdout is not None
            if client.stdout.readline().split() != ["ready"]:
                raise SystemExit(f"{_ECHO_CLIENT} did not warm up")
            cpu = cpu_s(server.pid)
            client.stdin.write("\n")
            client.stdin.flush()
            word, trips, rate, client_cpu = client.stdout.readline().split()
            server_cpu = cpu_s(server.pid) - cpu
        finally:
            client.wait()
        if word != "done" or client.returncode != 0:
            raise SystemExit(f"{_ECHO_CLIENT} failed (status {client.returncode})")
        return float(rate), server_cpu / int(trips), float(client_cpu)
    finally:
        server.kill()
        server.wait()


async def _arbiter_decisions(
    concurrency: int, matches: int, out: Path, event_flush_ms: int = 50, pipe: bool = False
) -> tuple[float, float, float]:
    """Decisions per second of wall time with ``concurrency`` matches at once, light bots; the
    arbiter's CPU seconds per decision (this process: the arbiter and its gRPC threads); and the
    messages it wrote to bots per decision (0 for a checkout that does not count them). The
    light bots speak gRPC, or (``pipe``) play on their session pipes."""
    server = ArbiterServer()
    await server.start()
    pool = _pool(server, out, concurrency, pipe)
    names = ["l0", "l1", "l2", "l3"]
    for name in names:
        pool.add(name, [sys.executable, _LIGHT_BOT])
    replays: list[Path] = []
    try:

        async def one(i: int) -> None:
            seats = [pool.assigner(n) for n in names]
            config = MatchConfig("as-nas", seed=i, clock=CLOCK, event_flush_ms=event_flush_ms)
            run = await run_match(config, seats, out, server=server, match_id=f"d{concurrency}-{i}")
            replays.append(run.replay)

        await asyncio.gather(*(one(10_000 + c) for c in range(concurrency)))  # warm-up
        replays.clear()
        queue = list(range(matches))

        async def worker() -> None:
            while queue:
                await one(queue.pop())

        writes = getattr(server.bots, "writes", 0)
        start, cpu = time.perf_counter(), time.process_time()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        writes = getattr(server.bots, "writes", 0) - writes
    finally:
        await pool.close()
        await server.stop()
    decisions = sum(
        1 for path in replays for record in read_replay(path).records if record.type == "action"
    )
    return decisions / elapsed, cpu / decisions, writes / decisions


def bench_decisions(repeats: int) -> dict[str, float]:
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for concurrency, matches in ((8, 32), (64, 64)):
            raw, raw_cpu, raw_client_cpu, arbiter, arbiter_cpu, writes = [], [], [], [], [], []
            for r in range(repeats):
                trips, trip_cpu, client_cpu = _ping_pong(concurrency, 6000)
                raw.append(trips)
                raw_cpu.append(trip_cpu)
                raw_client_cpu.append(client_cpu)
                path = Path(tmp) / f"c{concurrency}-{r}"
                rate, cpu, wrote = asyncio.run(_arbiter_decisions(concurrency, matches, path))
                arbiter.append(rate)
                arbiter_cpu.append(cpu)
                writes.append(wrote)
            rt, ad = statistics.median(raw), statistics.median(arbiter)
            rc, ac = statistics.median(raw_cpu), statistics.median(arbiter_cpu)
            out[f"raw_grpc_round_trips_per_s_c{concurrency}"] = rt
            out[f"arbiter_decisions_per_s_c{concurrency}"] = ad
            out[f"ratio_arbiter_to_raw_c{concurrency}"] = ad / rt
            out[f"raw_server_cpu_us_per_round_trip_c{concurrency}"] = rc * 1e6
            out[f"raw_client_cpu_us_per_round_trip_c{concurrency}"] = (
                statistics.median(raw_client_cpu) * 1e6
            )
            out[f"arbiter_cpu_us_per_decision_c{concurrency}"] = ac * 1e6
            out[f"ratio_cpu_arbiter_to_raw_server_c{concurrency}"] = ac / rc
            out[f"arbiter_writes_per_decision_c{concurrency}"] = statistics.median(writes)
    return out


BENCHES = {"matches": bench_matches, "decisions": bench_decisions}


if __name__ == "__main__":
    if sys.argv[1:2] == ["_part"]:  # (one process of (b loops))
        _part(int(sys.argv[2]), Path(sys.argv[3]))
    else:
        run_benches(__doc__, BENCHES)
