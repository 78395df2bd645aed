"""Scale of the competition server (issue 13, "Must show"). Not a test; nothing here asserts a
time.

    .venv/bin/python bench/serve_scale.py                    # 200 matches, then 1,000
    .venv/bin/python bench/serve_scale.py --matches 200      # one size
    .venv/bin/python bench/serve_scale.py --matches 1000 --shards 2 --batch 1

One run starts ``croupier serve`` (a real process, or ``--shards`` of them, each with its share
of the matches), registers ``--bots`` bots per shard (default 16), played by ``--processes``
light bot processes per shard (default 4: raw ``grpc.aio`` clients that answer a random legal
id, no SDK, so the bots cost little next to the server; each process holds the sessions of its
share of the bots on one connection, each session with capacity for every seat its bot is
handed), creates ``--matches`` 4-seat As-Nas matches at once through the control API (each
between 4 of the registered bots; ``CreateMatches`` of ``--batch`` matches a call, 8 calls in
flight; ``--batch 1``: ``CreateMatch`` one by one), and measures while they play:

* admission: the creation calls' latency and rate; for each match created -> running (the store:
  a place taken, its seats being handed out) -> playing (the replay's header: every seat has
  joined); the rate at which matches were admitted (playing) = matches / (last one playing -
  first created), against the same on the idle server (``IDLE_CREATES`` matches created, timed
  until all play, then cancelled: the baseline);
* the peak number **playing at once** with every seat joined, exact, from the replays' start and
  end times (and the peak running from the store's), and how many ended with a seat that never
  joined (admission failures);
* decisions per second of wall time, from the first match created to the last one ended (the
  server's own count: ``MatchInfo.decisions``), against the same server with **one** match at a
  time (without slowed bots only);
* the latency of ``ListMatches`` (100 per page) while it runs: p50 and p99, against the same call
  on the idle server before the matches (the baseline);
* RSS (sampled from /proc every 0.5 s): of the server(s) alone and of everything (servers + bot
  processes), idle, at the moment most matches played and at the peak; per playing match =
  (at that moment - idle) / peak playing.

Above 200 matches the bots wait ``--delay-ms`` (default 3 s) before each reply and the matches
have 4 deals (about 27 decisions: 80 s), so that the first matches are still playing when the
last one is admitted: the question there is whether 4,000 seats are admitted and play at once
within 1 GiB, not how fast (and no one-match baseline is run: it would measure the bots' delay).
The delay also bounds the play load: 1,000 matches each waiting 3 s per decision ask about 330
decisions/s of the server, which one event loop serves on this machine with room for admission.

Prints one JSON line per size.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc

from croupier.v1 import control_pb2 as cpb
from croupier.v1 import control_pb2_grpc

SEATS = 4
GAME = "as-nas"
#: CreateMatch calls in flight at once (clients, each one call at a time).
CLIENTS = 8
#: Matches created (and cancelled) on the idle server(s) for the creation baseline.
IDLE_CREATES = 100

#: Every control call's deadline: a call that misses it ends the bench (one line, exit 1).
CALL_DEADLINE_S = 120.0


class Timeout(Exception):
    """A control call that missed its deadline: the bench stops with one line."""


#: The light bot (raw ``grpc.aio``, no SDK); each process holds the sessions of the tokens in
#: ``LIGHT_SESSION_TOKENS`` on one connection and waits ``LIGHT_DELAY_MS`` before each reply.
_LIGHT_BOT = str(Path(__file__).with_name("_light_bot.py"))


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Shard:
    """One ``croupier serve`` with its registered light bots."""

    def __init__(
        self,
        root: Path,
        index: int,
        server_python: str,
        bots: int,
        processes: int,
        capacity: int,
        matches: int,
        delay_ms: int,
    ) -> None:
        self.state = state = root / f"shard{index}"
        state.mkdir(parents=True)
        config = state / "serve.toml"
        config.write_text(
            "[serve]\n"
            f"max_matches = {max(matches, 1)}\n"
            "move_ms = 30000\nbank_ms = 120000\nconnect_timeout_s = 600\n"
        )
        self.log = (root / f"shard{index}.log").open("wb")
        self.proc = subprocess.Popen(
            [
                server_python,
                "-m",
                "croupier",
                "serve",
                "--config",
                str(config),
                "--state-dir",
                str(state),
                "--bot-listen",
                "127.0.0.1:0",
                "--control-listen",
                "127.0.0.1:0",
            ],
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env={**os.environ, "CROUPIER_SANDBOX": "none"},
        )
        assert self.proc.stdout is not None
        lines = dict(self.proc.stdout.readline().strip().split(": ", 1) for _ in range(3))
        self.bot_address, self.control_address = lines["bots"], lines["control"]
        key = (state / "operator.key").read_text().strip()
        self.metadata = (("authorization", f"Bearer {key}"),)
        self.channel = grpc.insecure_channel(self.control_address)
        self.stub = control_pb2_grpc.ControlServiceStub(self.channel)
        self.names = [f"light{index}-{i}" for i in range(bots)]
        keys = [
            self.call("RegisterBot", cpb.RegisterBotRequest(bot_name=name)).key
            for name in self.names
        ]
        self.bots = [
            subprocess.Popen(
                [sys.executable, _LIGHT_BOT],
                env={
                    **os.environ,
                    "CROUPIER_ADDRESS": self.bot_address,
                    "LIGHT_SESSION_TOKENS": ",".join(keys[p::processes]),
                    "CROUPIER_SESSION_CAPACITY": str(capacity),
                    "LIGHT_DELAY_MS": str(delay_ms),
                },
            )
            for p in range(processes)
        ]
        while True:
            listed = self.call("ListBots", cpb.ListBotsRequest()).bots
            if all(b.connected for b in listed):
                break
            time.sleep(0.1)

    def call(self, name: str, request: Any, timeout: float = CALL_DEADLINE_S) -> Any:
        try:
            return getattr(self.stub, name)(request, metadata=self.metadata, timeout=timeout)
        except grpc.RpcError as exc:
            if exc.code() != grpc.StatusCode.DEADLINE_EXCEEDED:  # type: ignore[attr-defined]
                raise
            raise Timeout(
                f"{name} got no answer within its {timeout:g} s deadline "
                f"(the server at {self.control_address} did not answer under load)"
            ) from None

    def order(self, i: int, deals: int, seed: int) -> cpb.CreateMatchRequest:
        """The ``i``-th match of this shard: 4 of its bots in turn."""
        bots = [self.names[(i + k) % len(self.names)] for k in range(SEATS)]
        return cpb.CreateMatchRequest(game=GAME, bots=bots, params={"deals": deals}, seed=seed)

    def create(self, orders: list[cpb.CreateMatchRequest]) -> list[str]:
        """Create ``orders``: one CreateMatch call for one, one CreateMatches call for more."""
        if len(orders) == 1:
            return [str(self.call("CreateMatch", orders[0]).match.match_id)]
        request = cpb.CreateMatchesRequest(matches=orders)
        return [str(m.match_id) for m in self.call("CreateMatches", request).matches]

    def pids(self) -> list[int]:
        return [self.proc.pid, *(b.pid for b in self.bots)]

    def close(self) -> None:
        self.channel.close()
        self.proc.terminate()
        try:
            self.proc.wait(120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        for bot in self.bots:
            try:
                bot.wait(30)
            except subprocess.TimeoutExpired:
                bot.kill()
        self.log.close()


def _list_latency(shard: Shard, n: int) -> list[float]:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        shard.call("ListMatches", cpb.ListMatchesRequest(limit=100))
        times.append(time.perf_counter() - start)
    return times


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000 if xs else float("nan")


def _iso_ms(text: str) -> int:
    """Unix ms of a replay's ``started_at`` / ``ended_at`` (ISO 8601 UTC, to the millisecond)."""
    return int(dt.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000)


def _replay_times(path: Path) -> tuple[int, int, bool] | None:
    """When the match started playing (every seat settled: the header's ``started_at``) and
    ended (the result's ``ended_at``), and whether every seat had joined; ``None`` without a
    complete replay."""
    try:
        lines = path.read_bytes().splitlines()
    except OSError:
        return None
    if len(lines) < 2:
        return None
    header, result = json.loads(lines[0]), json.loads(lines[-1])
    if result.get("type") != "result" or "started_at" not in header:
        return None
    joined = all(seat["connected"] for seat in header["seats"])
    return _iso_ms(header["started_at"]), _iso_ms(result["ended_at"]), joined


def _peak(intervals: list[tuple[int, int]]) -> tuple[int, int]:
    """The most intervals open at one instant, and that instant (Unix ms)."""
    edges = sorted([(a, 1) for a, _ in intervals] + [(b, -1) for _, b in intervals])
    best, at, now = 0, 0, 0
    for t, step in edges:  # an end sorts before a start at the same ms: touching is not overlap
        now += step
        if now > best:
            best, at = now, t
    return best, at


def _open_left(shards: list[Shard]) -> bool:
    """Whether any shard still has a pending or running match (one row asked of each)."""
    return any(
        s.call("ListMatches", cpb.ListMatchesRequest(state=state, limit=1)).matches
        for s in shards
        for state in (cpb.MATCH_STATE_PENDING, cpb.MATCH_STATE_RUNNING)
    )


def _play(
    shards: list[Shard], matches: int, deals: int, first_seed: int, batch: int
) -> dict[str, Any]:
    """Create ``matches`` (spread over the shards) at once; measure until all have ended."""
    latencies: list[float] = []
    rss: list[tuple[int, int, int]] = []  # (Unix ms, server(s) KB, everything KB)
    done = threading.Event()

    def sample() -> None:  # /proc only: nothing asked of the servers
        while not done.is_set():
            server_kb = sum(_rss_kb(s.proc.pid) for s in shards)
            all_kb = sum(_rss_kb(p) for s in shards for p in s.pids())
            rss.append((time.time_ns() // 1_000_000, server_kb, all_kb))
            done.wait(0.5)

    failed: list[Timeout] = []

    def probe() -> None:
        while not done.is_set():
            try:
                latencies.extend(_list_latency(shards[0], 1))
            except Timeout as exc:
                failed.append(exc)
                return
            done.wait(0.05)

    started = time.perf_counter()
    threads = [threading.Thread(target=sample), threading.Thread(target=probe)]
    for t in threads:
        t.start()
    ids, create_latencies = _create(shards, matches, deals, first_seed, started, batch)
    created = time.perf_counter() - started
    try:
        while _open_left(shards) and not failed:
            time.sleep(0.5)
    finally:
        done.set()
        for t in threads:
            t.join()
    if failed:
        raise failed[0]
    wall = time.perf_counter() - started
    infos = [s.call("GetMatch", cpb.GetMatchRequest(match_id=m)).match for s, m in ids]
    open_states = (cpb.MATCH_STATE_PENDING, cpb.MATCH_STATE_RUNNING)
    assert not any(m.state in open_states for m in infos)
    decisions = sum(m.decisions for m in infos)
    no_shows = sum(
        1
        for m in infos
        if any(s.HasField("result") and s.result.outcome == 4 for s in m.seats)  # disconnected
    )
    # the store's times: created -> running (a place taken, seats being handed out) -> ended
    running_peak, _ = _peak([(m.started_unix_ms, m.ended_unix_ms) for m in infos])
    # the replays' times: playing = every seat settled (the header) -> the result
    plays = []
    for (shard, match_id), info in zip(ids, infos, strict=True):
        times = _replay_times(shard.state / "replays" / f"{match_id}.jsonl")
        if times is not None:
            plays.append((info, *times))
    joined = [(a, b) for _, a, b, every in plays if every]
    playing_peak, playing_at = _peak(joined)
    at_peak = min(rss, key=lambda r: abs(r[0] - playing_at)) if rss else (0, 0, 0)
    to_running = [m.started_unix_ms - m.created_unix_ms for m in infos]
    to_playing = [a - info.started_unix_ms for info, a, _, _ in plays]
    first_created = min(m.created_unix_ms for m in infos)
    last_playing = max((a for _, a, _, _ in plays), default=first_created) - first_created
    return {
        "wall_s": round(wall, 2),
        "create_s": round(created, 2),
        "created_per_s": round(matches / created, 1),
        "create_call_p50_ms": round(_pct(create_latencies, 0.5), 1),
        "create_call_p99_ms": round(_pct(create_latencies, 0.99), 1),
        "created_to_running_p50_ms": round(_pct(to_running, 0.5) / 1000, 1),
        "created_to_running_max_ms": max(to_running),
        "running_to_playing_p50_ms": round(_pct(to_playing, 0.5) / 1000, 1),
        "running_to_playing_p99_ms": round(_pct(to_playing, 0.99) / 1000, 1),
        "running_to_playing_max_ms": max(to_playing, default=0),
        "last_playing_after_s": round(last_playing / 1000, 2),
        "admitted_per_s": round(len(joined) / max(last_playing / 1000, 1e-3), 1),
        "first_ended_after_s": round((min(b for _, _, b, _ in plays) - first_created) / 1000, 2)
        if plays
        else None,
        "decisions": decisions,
        "decisions_per_s": round(decisions / wall, 1),
        "finished": sum(m.state == cpb.MATCH_STATE_FINISHED for m in infos),
        "every_seat_joined": len(joined),
        "with_a_disconnected_seat": no_shows,
        "peak_running": running_peak,
        "peak_playing": playing_peak,
        "rss_server_at_peak_mb": round(at_peak[1] / 1024, 1),
        "rss_all_at_peak_mb": round(at_peak[2] / 1024, 1),
        "peak_rss_server_mb": round(max((r[1] for r in rss), default=0) / 1024, 1),
        "peak_rss_all_mb": round(max((r[2] for r in rss), default=0) / 1024, 1),
        "list_p50_ms": round(_pct(latencies, 0.5), 2),
        "list_p99_ms": round(_pct(latencies, 0.99), 2),
        "list_samples": len(latencies),
    }


def _create(
    shards: list[Shard], matches: int, deals: int, first_seed: int, started: float, batch: int
) -> tuple[list[tuple[Shard, str]], list[float]]:
    """Create the matches through the control API, ``CLIENTS`` calls in flight at once, each
    of ``batch`` matches (``CreateMatches``; 1: ``CreateMatch``); match ``i`` on shard
    ``i % shards``. Returns (shard, id) by ``i`` and each call's latency."""
    made = [0]
    lock = threading.Lock()
    latencies: list[float] = []
    per_shard: list[list[int]] = [list(range(k, matches, len(shards))) for k in range(len(shards))]
    calls = [
        (shard, chunk[j : j + batch])
        for shard, chunk in zip(shards, per_shard, strict=True)
        for j in range(0, len(chunk), batch)
    ]
    calls.sort(key=lambda c: c[1][0])  # interleave the shards, first matches first

    def create(call: tuple[Shard, list[int]]) -> list[tuple[int, Shard, str]]:
        shard, indexes = call
        orders = [shard.order(i // len(shards), deals, first_seed + i) for i in indexes]
        t0 = time.perf_counter()
        ids = shard.create(orders)
        with lock:
            latencies.append(time.perf_counter() - t0)
            before, made[0] = made[0], made[0] + len(ids)
            if made[0] // 100 > before // 100:
                elapsed = time.perf_counter() - started
                print(f"created {made[0]} in {elapsed:.1f} s", file=sys.stderr, flush=True)
        return [(i, shard, m) for i, m in zip(indexes, ids, strict=True)]

    with ThreadPoolExecutor(CLIENTS) as creators:  # as many clients, each one call at a time
        out = sorted(x for chunk in creators.map(create, calls) for x in chunk)
    return [(shard, m) for _, shard, m in out], latencies


def _idle_create(shards: list[Shard], n: int, deals: int, batch: int) -> dict[str, float]:
    """The admission rate of the idle server(s): ``n`` matches created by the same clients,
    timed until every one is playing (its replay has its header: every seat settled), then
    cancelled (and waited for) before the measured run."""
    started = time.perf_counter()
    first = time.time_ns() // 1_000_000
    ids, latencies = _create(shards, n, deals, 1 << 40, started, batch)
    created = time.perf_counter() - started
    paths = [shard.state / "replays" / f"{match_id}.jsonl" for shard, match_id in ids]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not all(_has_header(p) for p in paths):
        time.sleep(0.05)
    headers = [json.loads(p.read_bytes().split(b"\n", 1)[0]) for p in paths if _has_header(p)]
    last = max((_iso_ms(h["started_at"]) for h in headers), default=0)

    def cancel(shard_id: tuple[Shard, str]) -> None:
        shard, match_id = shard_id
        try:
            shard.call("CancelMatch", cpb.CancelMatchRequest(match_id=match_id))
        except grpc.RpcError as exc:  # it may have ended (without slowed bots)
            if exc.code() != grpc.StatusCode.FAILED_PRECONDITION:
                raise

    with ThreadPoolExecutor(CLIENTS) as cancellers:
        list(cancellers.map(cancel, ids))
    while _open_left(shards):
        time.sleep(0.2)
    return {
        "created_per_s": round(n / created, 1),
        "create_call_p50_ms": round(_pct(latencies, 0.5), 1),
        "playing": len(headers),
        "admitted_per_s": round(len(headers) / max((last - first) / 1000, 1e-3), 1),
    }


def _has_header(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.readline().endswith(b"\n")
    except OSError:
        return False


def bench(
    matches: int,
    shards_n: int,
    bots: int,
    processes: int,
    deals: int,
    delay_ms: int,
    batch: int,
    server_python: str = sys.executable,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="serve-scale-") as tmp:
        per_shard = -(-matches // shards_n)
        capacity = SEATS * -(-per_shard // bots)  # the most seats one bot holds at once
        shards = [
            Shard(Path(tmp), i, server_python, bots, processes, capacity, per_shard, delay_ms)
            for i in range(shards_n)
        ]
        try:
            idle_list = _list_latency(shards[0], 50)
            idle_server = sum(_rss_kb(s.proc.pid) for s in shards)
            idle_all = sum(_rss_kb(p) for s in shards for p in s.pids())
            idle_create = _idle_create(shards, min(IDLE_CREATES, matches), deals, batch)
            # one match alone: the baseline (not with slowed bots: it would measure their delay)
            baseline = _play(shards[:1], 1, deals, 1, 1) if not delay_ms else None
            loaded = _play(shards, matches, deals, 1000, batch)
        finally:
            for shard in shards:
                shard.close()
    playing = max(loaded["peak_playing"], 1)
    load = os.getloadavg()
    return {
        "bench": "serve_scale",
        "server_python": server_python,
        "matches": matches,
        "shards": shards_n,
        "registered_bots": bots * shards_n,
        "bot_processes": processes * shards_n,
        "create_batch": batch,
        "seats": matches * SEATS,
        "game": f"{GAME}, {deals} deals",
        "bot_delay_ms": delay_ms,
        **loaded,
        "baseline_one_match_decisions_per_s": baseline and baseline["decisions_per_s"],
        "decisions_per_s_ratio_to_one_match": baseline
        and round(loaded["decisions_per_s"] / max(baseline["decisions_per_s"], 1e-9), 2),
        "idle_list_p50_ms": round(_pct(idle_list, 0.5), 2),
        "idle_list_p99_ms": round(_pct(idle_list, 0.99), 2),
        "list_p50_ratio_to_idle": round(loaded["list_p50_ms"] / max(_pct(idle_list, 0.5), 1e-9), 1),
        "idle_rss_server_mb": round(idle_server / 1024, 1),
        "idle_rss_all_mb": round(idle_all / 1024, 1),
        "idle_matches": idle_create["playing"],
        "idle_created_per_s": idle_create["created_per_s"],
        "idle_create_call_p50_ms": idle_create["create_call_p50_ms"],
        "idle_admitted_per_s": idle_create["admitted_per_s"],
        "admitted_per_s_ratio_to_idle": round(
            loaded["admitted_per_s"] / max(idle_create["admitted_per_s"], 1e-9), 2
        ),
        "rss_per_playing_match_kb": round(
            (loaded["rss_all_at_peak_mb"] * 1024 - idle_all) / playing, 1
        ),
        "server_rss_per_playing_match_kb": round(
            (loaded["rss_server_at_peak_mb"] * 1024 - idle_server) / playing, 1
        ),
        "under_1_gib": loaded["peak_rss_all_mb"] < 1024,
        "load_average_1_5_15": [round(x, 1) for x in load],
        "statistic": "one run; latencies over every ListMatches probe while the matches played",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, action="append", default=None)
    parser.add_argument("--shards", type=int, default=1, help="croupier serve processes")
    parser.add_argument("--bots", type=int, default=16, help="registered bots per shard")
    parser.add_argument(
        "--processes", type=int, default=4, help="bot processes per shard (sharing its bots)"
    )
    parser.add_argument(
        "--batch",
        type=int,
        default=100,
        help="matches per creating call: CreateMatches of this many (1: CreateMatch)",
    )
    parser.add_argument(
        "--deals", type=int, default=None, help="deals per match (default: 12; 4 above 200)"
    )
    parser.add_argument(
        "--delay-ms",
        type=int,
        default=None,
        help="each bot waits this long before a reply (default: 0 at 200 matches or fewer, "
        "else 3000, so that every match is still playing when the last is admitted)",
    )
    parser.add_argument(
        "--compare-python",
        default=None,
        metavar="PYTHON",
        help="first run each size with this Python's croupier serve (e.g. another checkout's "
        "venv: the baseline), then with this one, and print the ratios",
    )
    args = parser.parse_args()
    if args.bots < SEATS:
        parser.error(f"--bots: at least {SEATS} (a match seats {SEATS} different bots)")
    if not 1 <= args.processes <= args.bots:
        parser.error("--processes: from 1 to --bots")
    if not 1 <= args.batch <= 1000:
        parser.error("--batch: from 1 to 1000")
    for matches in args.matches or [200, 1000]:
        big = matches > 200
        delay = args.delay_ms if args.delay_ms is not None else (3000 if big else 0)
        deals = args.deals if args.deals is not None else (4 if big else 12)
        runs = [args.compare_python, sys.executable] if args.compare_python else [sys.executable]
        results: list[dict[str, Any] | None] = []
        for python in runs:
            try:
                result = bench(
                    matches,
                    args.shards,
                    args.bots,
                    args.processes,
                    deals,
                    delay,
                    args.batch,
                    python,
                )
            except Timeout as exc:
                if python == runs[-1]:
                    sys.exit(f"serve_scale: error: {matches} matches: {exc}")
                print(
                    json.dumps(
                        {
                            "bench": "serve_scale",
                            "server_python": python,
                            "matches": matches,
                            "failed": str(exc),
                        }
                    ),
                    flush=True,
                )
                results.append(None)
                continue
            print(json.dumps(result), flush=True)
            results.append(result)
        if len(results) == 2 and results[0] is not None and results[1] is not None:
            before, after = results
            print(
                json.dumps(
                    {
                        "bench": "serve_scale_compare",
                        "matches": matches,
                        **{
                            f"{key}_before_over_after": round(
                                before[key] / max(after[key], 1e-9), 2
                            )
                            for key in (
                                "list_p50_ms",
                                "list_p99_ms",
                                "decisions_per_s",
                                "wall_s",
                                "peak_rss_server_mb",
                            )
                        },
                    }
                ),
                flush=True,
            )


if __name__ == "__main__":
    main()
