"""Croupier benchmarks: figures a user can reproduce. Not tests; nothing here asserts a time.

    .venv/bin/python bench/run.py               # all
    .venv/bin/python bench/run.py rules         # one: rules | wire | match | bots | export

Every figure is reported with a baseline measured in the same run, as a ratio, because absolute
times on a shared machine drift:

* rules: random play of every game, µs per decision (chance included), against a floor of the
  same loop driving a trivial immutable state machine (one NamedTuple per step).
* wire: decisions per second through the real arbiter (standard matches, gRPC over loopback,
  four bot processes), from the arbiter's measured reply latencies, against raw gRPC round trips
  per second on a bare bidirectional stream between two processes (same payload size class).
* match: whole 12-deal As-Nas matches with four bundled bot processes, per second.
* export: ``croupier replay export`` of 1,000 real replays (every check of the one validating
  reader and the re-simulation included), rows/s and MB/s, against reading the same files with
  the standard library's ``json`` module (every line decoded, nothing checked).
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

import numpy as np
from _kit import run_benches

ROOT = Path(__file__).resolve().parent.parent


# ---- rules ---------------------------------------------------------------------------------------


class _Tiny(NamedTuple):
    turn: int
    counter: int
    history: tuple[int, ...]


def _floor_loop(decisions: int, choices: np.ndarray) -> float:
    """The same driving loop over a trivial immutable state machine: the interpreter's floor."""
    start = time.perf_counter()
    state = _Tiny(0, 0, ())
    for i in range(decisions):
        legal = (0, 1, 2) if state.counter % 2 else (0, 1)
        action = legal[choices[i] % len(legal)]
        state = _Tiny((state.turn + 1) % 4, state.counter + action, (*state.history[-3:], action))
    return (time.perf_counter() - start) / decisions


def _rules_loop(name: str, decisions_wanted: int, choices: np.ndarray) -> tuple[float, int]:
    """Random play of whole matches of ``name`` until ``decisions_wanted`` decisions: seconds per
    decision, chance nodes (shuffles drawn with numpy) included."""
    from croupier.games import CHANCE, TERMINAL, get_game

    game = get_game(name)
    rng = np.random.default_rng(1)
    decisions = 0
    start = time.perf_counter()
    while decisions < decisions_wanted:
        state = game.initial_state({})
        while (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            legal = game.legal_actions(state)
            state = game.apply(state, legal[choices[decisions % len(choices)] % len(legal)])
            decisions += 1
    return (time.perf_counter() - start) / decisions, decisions


def bench_rules(repeats: int) -> dict[str, float]:
    """Per game: µs per decision in random play (default parameters), and its ratio to the floor."""
    from croupier.games import GAMES

    choices = np.random.default_rng(7).integers(0, 1 << 30, size=1 << 16)
    out: dict[str, float] = {}
    floors = []
    for _ in range(repeats):
        floors.append(_floor_loop(20000, choices))
    floor = statistics.median(floors)
    out["floor_us_per_decision"] = floor * 1e6
    for name in GAMES:
        per_decision = [_rules_loop(name, 20000, choices)[0] for _ in range(repeats)]
        engine = statistics.median(per_decision)
        key = name.replace("-", "_")
        out[f"{key}_us_per_decision"] = engine * 1e6
        out[f"{key}_ratio_to_floor"] = engine / floor
    return out


# ---- wire ----------------------------------------------------------------------------------------

#: The bare gRPC echo server (a file bench/sessions.py and bench/cpu.py run too).
_ECHO_SERVER = str(Path(__file__).with_name("_echo_server.py"))

_ECHO_CLIENT = r"""
import sys, time, grpc, queue
port, n = sys.argv[1], int(sys.argv[2])
payload = b"x" * 300
with grpc.insecure_channel(f"127.0.0.1:{port}") as ch:
    call = ch.stream_stream("/bench.Echo/Echo")
    q = queue.SimpleQueue()
    def gen():
        while (m := q.get()) is not None:
            yield m
    q.put(payload)
    responses = call(gen())
    start = time.perf_counter()
    for i, _ in enumerate(responses):
        if i + 1 == n:
            q.put(None); break
        q.put(payload)
    print(n / (time.perf_counter() - start))
"""


def _raw_round_trips(n: int) -> float:
    server = subprocess.Popen([sys.executable, _ECHO_SERVER], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        port = server.stdout.readline().strip()
        out = subprocess.run(
            [sys.executable, "-c", _ECHO_CLIENT, port, str(n)],
            capture_output=True,
            text=True,
            check=True,
        )
        return float(out.stdout.strip())
    finally:
        server.kill()
        server.wait()


def _arbiter_decisions(matches: int) -> tuple[float, float]:
    """Standard 12-deal matches of four random-bot processes hosted one after another on one
    server. Returns (decisions per second of wall time, bot startup included; decisions per
    second of the latency the arbiter measured, i.e. back-to-back decision round trips)."""
    from croupier.arbiter import ClockRules, MatchConfig
    from croupier.replay import read_replay
    from croupier.runner import run_match
    from croupier.transport import ArbiterServer

    bot = [sys.executable, "-m", "croupier_bots.random_bot"]

    async def play(out: Path) -> tuple[float, int, int]:
        server = ArbiterServer()
        await server.start()
        decisions = waited_us = 0
        start = time.perf_counter()
        try:
            for m in range(matches):
                config = MatchConfig("as-nas", seed=m, clock=ClockRules(5000, 60000))
                run = await run_match(config, [bot] * 4, out, server=server)
                times = [r.data["time_us"] for r in read_replay(run.replay).records
                         if r.type == "action"]  # fmt: skip
                decisions += len(times)
                waited_us += sum(times)
        finally:
            await server.stop()
        return time.perf_counter() - start, decisions, waited_us

    with tempfile.TemporaryDirectory() as tmp:
        elapsed, decisions, waited_us = asyncio.run(play(Path(tmp)))
    return decisions / elapsed, decisions / (waited_us / 1e6)


def bench_wire(repeats: int) -> dict[str, float]:
    raw, arbiter, in_match = [], [], []
    for _ in range(repeats):
        raw.append(_raw_round_trips(5000))
        whole, waiting = _arbiter_decisions(8)
        arbiter.append(whole)
        in_match.append(waiting)
    r, a, w = statistics.median(raw), statistics.median(arbiter), statistics.median(in_match)
    return {
        "raw_grpc_round_trips_per_s": r,
        "arbiter_decisions_per_s_incl_startup": a,
        "arbiter_decisions_per_s_measured_latency": w,
        "ratio_latency_based_to_raw": w / r,
    }


# ---- match ---------------------------------------------------------------------------------------


def bench_match(repeats: int) -> dict[str, float]:
    env = dict(os.environ)
    seconds = []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(repeats):
            start = time.perf_counter()
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "croupier",
                    "match",
                    "--game",
                    "as-nas",
                    "--seed",
                    str(i),
                    "--out",
                    tmp,
                ],
                check=True,
                capture_output=True,
                env=env,
            )
            seconds.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import croupier.cli"], check=True, env=env)
        import_s = time.perf_counter() - start
    median = statistics.median(seconds)
    return {
        "match_seconds": median,
        "cli_import_seconds": import_s,
        "ratio_match_to_cli_import": median / import_s,
    }


# ---- bot strength (not a timing) -----------------------------------------------------------------


def _heuristic_vs_random(
    game: str, heuristic: type, deals: int, seed: int
) -> tuple[list[float], list[float]]:
    """Per match (100 matches, seats alternating), the mean result per deal of a heuristic seat
    and of a random seat."""
    from croupier.transport import play_local
    from croupier_bot import Seat
    from croupier_bots.random_bot import RandomBot

    mine: list[float] = []
    theirs: list[float] = []
    for m in range(100):
        if m % 2 == 0:
            bots = [heuristic(), RandomBot(4 * m + 1), heuristic(), RandomBot(4 * m + 3)]
        else:
            bots = [RandomBot(4 * m), heuristic(), RandomBot(4 * m + 2), heuristic()]
        scores = play_local(game, {}, seed + m, [Seat(b) for b in bots])
        for out, is_random in ((mine, False), (theirs, True)):
            seats = [s for s in range(4) if (bots[s].name == "random") == is_random]
            out.append(sum(float(scores[s]) for s in seats) / (2 * deals))
    return mine, theirs


def _chip_duel(game: str, heuristic: type, seed: int, matches: int = 100) -> list[float]:
    """Two-player matches of a chip game (default parameters, seats alternating): per match 1 if
    the heuristic ends with more chips than the random bot, 0.5 on equal chips, else 0."""
    from croupier.transport import play_local
    from croupier_bot import Seat
    from croupier_bots.random_bot import RandomBot

    results = []
    for m in range(matches):
        mine = m % 2
        bots = [RandomBot(seed + m), RandomBot(seed + m)]
        bots[mine] = heuristic()
        scores = play_local(game, {"players": 2}, seed + m, [Seat(b) for b in bots])
        results.append(0.5 if scores[0] == scores[1] else float(scores[mine] > scores[1 - mine]))
    return results


def bench_bots(repeats: int) -> dict[str, float]:
    """The bundled heuristics against the random bot, 2 v 2, seats alternating: the mean result
    per deal of a heuristic seat over 100 matches (As-Nas 1,200 deals, Fipsen 1,600), in-process;
    for Fipsen also the random seats' result (Fipsen is not zero-sum); for Felduz and Scauver the
    heuristic's win rate over 100 two-player matches."""
    from croupier_bots.as_nas_heuristic import AsNasHeuristic
    from croupier_bots.felduz_heuristic import FelduzHeuristic
    from croupier_bots.fipsen_heuristic import FipsenHeuristic
    from croupier_bots.scauver_heuristic import ScauverHeuristic

    duels = {
        "felduz": _chip_duel("felduz", FelduzHeuristic, 70000),
        "scauver": _chip_duel("scauver", ScauverHeuristic, 80000),
    }
    as_nas = _heuristic_vs_random("as-nas", AsNasHeuristic, 12, 90000)[0]
    fipsen, fipsen_random = _heuristic_vs_random("fipsen", FipsenHeuristic, 16, 90000)
    return {
        "heuristic_points_per_deal": statistics.mean(as_nas),
        "stderr": statistics.stdev(as_nas) / len(as_nas) ** 0.5,
        "deals": 1200.0,
        "fipsen_heuristic_points_per_deal": statistics.mean(fipsen),
        "fipsen_stderr": statistics.stdev(fipsen) / len(fipsen) ** 0.5,
        "fipsen_random_points_per_deal": statistics.mean(fipsen_random),
        "fipsen_random_stderr": statistics.stdev(fipsen_random) / len(fipsen_random) ** 0.5,
        "fipsen_deals": 1600.0,
        **{f"{game}_heuristic_win_rate": statistics.mean(wins) for game, wins in duels.items()},
        **{
            f"{game}_win_rate_stderr": statistics.stdev(wins) / len(wins) ** 0.5
            for game, wins in duels.items()
        },
    }


# ---- export -------------------------------------------------------------------------------------

#: The replays the export bench writes: (game, params, matches); 1,000 in all.
_EXPORT_MIX = (
    ("as-nas", {"deals": 12}, 250),
    ("fipsen", {"deals": 8}, 250),
    ("felduz", {"players": 3, "round_cap": 20}, 250),
    ("scauver", {"players": 3, "round_cap": 20}, 250),
)


def _make_replays(out: Path) -> list[Path]:
    """1,000 real matches recorded in-process by the arbiter, random seats."""
    import random

    from croupier.arbiter import MatchConfig
    from croupier.games import get_game
    from croupier.replay import record_match

    files = []
    for game, params, count in _EXPORT_MIX:
        seats = get_game(game).info.make_params(params)["players"]
        for m in range(count):
            rng = random.Random(m)
            policy = lambda request, rng=rng: rng.choice(request.legal_actions)  # noqa: E731
            files.append(
                record_match(
                    MatchConfig(game, params, seed=m),
                    out / f"{game}-{m}.jsonl",
                    [policy] * seats,
                    [f"bot{s}" for s in range(seats)],
                )
            )
    return files


def bench_export(repeats: int) -> dict[str, float]:
    """Export 1,000 replays to Parquet and to CSV against json-reading the same files."""
    from croupier.replay import TABLES, Tables, read_replay, write_table

    with tempfile.TemporaryDirectory() as tmp:
        files = _make_replays(Path(tmp))
        size = sum(f.stat().st_size for f in files)
        json_s, parquet_s, csv_s, rows = [], [], [], 0
        for _ in range(repeats):
            start = time.perf_counter()
            lines = 0
            for f in files:
                with f.open("rb") as handle:
                    lines += sum(1 for line in handle if json.loads(line))
            json_s.append(time.perf_counter() - start)
            for fmt, times in (("parquet", parquet_s), ("csv", csv_s)):
                start = time.perf_counter()
                tables = Tables()
                for f in files:
                    tables.add_replay(read_replay(f))
                for table in TABLES:
                    write_table(tables, table, Path(tmp) / f"{table}.{fmt}", fmt)
                times.append(time.perf_counter() - start)
                rows = sum(tables.rows(t) for t in TABLES)
    js, pq, cs = (statistics.median(x) for x in (json_s, parquet_s, csv_s))
    mb = size / 1e6
    return {
        "replays": float(len(files)),
        "megabytes": mb,
        "rows": float(rows),
        "json_lines": float(lines),
        "json_read_s": js,
        "json_mb_per_s": mb / js,
        "json_lines_per_s": lines / js,
        "export_parquet_s": pq,
        "export_parquet_rows_per_s": rows / pq,
        "export_parquet_mb_per_s": mb / pq,
        "export_csv_s": cs,
        "export_csv_rows_per_s": rows / cs,
        "export_csv_mb_per_s": mb / cs,
        "parquet_over_json_time": pq / js,
        "csv_over_json_time": cs / js,
    }


BENCHES = {
    "rules": bench_rules,
    "wire": bench_wire,
    "match": bench_match,
    "bots": bench_bots,
    "export": bench_export,
}


if __name__ == "__main__":
    run_benches(__doc__, BENCHES)
