"""Ladder benchmarks: figures a user can reproduce. Not tests; nothing here asserts a time.

    .venv/bin/python bench/ladder.py              # throughput, lanes, control, resume, ray
    .venv/bin/python bench/ladder.py throughput   # one of them
    .venv/bin/python bench/ladder.py resume --runs 20 --matches 200
    .venv/bin/python bench/ladder.py lanes --matches 96 --repeats 3
    .venv/bin/python bench/ladder.py control --matches 96 --repeats 3

* throughput: complete 12-deal As-Nas matches per second with four random Python SDK bots, all
  in one run: (a) ``croupier match`` one after another (each starts an arbiter and four bot
  processes; ``--cli-matches`` of them); (b) ``croupier tournament`` with persistent bots (the
  default ``restart = "session"``) at concurrency 1 and at the default (the number of cores),
  ``--matches`` matches each, timed over the whole command (start-up included) and in the
  steady state (from the first stored match to the last, by ``finished_at``); (c) in-process
  play, no gRPC and no processes (``transport.play_local``: the rules and the codec only).
  Reported as ratios to (a) and (c). (bw) the default tournament again with ``--workers`` the
  number of cores (each worker process its own arbiter and bots, sharing the concurrency), as a
  ratio to (b) at the default. Then where the CPU goes: the same tournament run in this
  process at the default concurrency, the arbiter's CPU (this process) and the bots' (its
  children, reaped by the pool) per match, against the cores there are.
* lanes: what it costs to play duplicate sets without leaks. The default tournament (duplicate
  sets of four rotations, four random Python SDK bots, 12-deal As-Nas) run in this process at the
  default concurrency (``--concurrency``), bots sandboxed as by default: with lanes (each bot in
  one session process per seating, as ``croupier tournament`` now plays) against one process per
  bot playing every seating (``run_tournament(lanes=False)``: the tournaments before lanes,
  which leaked a set's deals), alternated ``--repeats`` times in the same run. Matches per second
  over the whole run (the bots' start-up included) and in the steady state (the last three
  quarters of the matches: every lane is up by then), the bot processes
  started, the most memory the bots held at once (the sum of the proportional set sizes, PSS,
  of every process under this one, sampled every 0.2 s), and the CPU per match of the arbiter
  (this process) and of the bots (every process under it, their start-up included), and of both
  in the steady state: CPU time moves less than matches per second with what else the machine
  runs.
* control: where the control variates are computed. The default tournament (``--matches``)
  run in this process with the control variates of every match in a thread of the arbiter's
  process (as before the helper) and in the helper process after the first eight (as
  ``croupier tournament`` does), alternated ``--repeats`` times, with the chance terms only
  (``action_terms = false``, as in throughput) and with the action terms too (the default):
  matches per second, medians, and their ratio.
* resume: a tournament SIGKILLed at random moments (1-3 kills per run) and resumed, against one
  run without interruption: how many runs ended with the same standings (every stored seat
  result and the rating table identical).
* ray: the same tournament on the Ray executor with a one-node local cluster against the local
  executor in the same run, each at N and at 2N matches (``--matches N``): the whole run's
  matches per second at 2N and their ratio, and the **marginal** rate, the N matches more
  divided by the time they added ((2N - N) / (T(2N) - T(N))), which leaves out what a run pays
  once (joining the cluster, starting Ray's worker and the node's bots); the cluster's own
  start-up is reported apart.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from _kit import process_tree

CROUPIER = [sys.executable, "-m", "croupier"]

BOTS = "\n".join(f'r{i} = "random"' for i in range(4))


def _config(folder: Path, rounds: int, deals: int = 12, seed: int = 1) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "bench.toml"
    path.write_text(
        # (play only: the statistics' action terms for random seats are their own cost, about
        # the time of play in this all-random field: docs/ladder.md, "action_terms")
        f'game = "as-nas"\nseed = {seed}\nrounds = {rounds}\naction_terms = false\n'
        f"[params]\ndeals = {deals}\n"
        f"[bots]\n{BOTS}\n"
    )
    return path


def _run(*args: object, env: dict[str, str] | None = None) -> float:
    start = time.perf_counter()
    done = subprocess.run(
        [*CROUPIER, *(str(a) for a in args)], capture_output=True, text=True, env=env
    )
    if done.returncode != 0:
        raise SystemExit(f"croupier {' '.join(map(str, args))} failed:\n{done.stderr}")
    return time.perf_counter() - start


def _results(store: Path) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(store)
    try:
        return conn.execute(
            "SELECT m.id, s.seat, s.bot, s.score, s.place, s.outcome FROM matches m "
            "JOIN seats s ON s.match_id = m.id ORDER BY m.slot, s.seat"
        ).fetchall()
    finally:
        conn.close()


def _standings(store: Path) -> Any:
    done = subprocess.run(
        [*CROUPIER, "tournament", "standings", str(store), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data = json.loads(done.stdout)
    return data["bots"], data["pairs"]


def _steady_per_s(store: Path, skip: int = 0) -> float:
    """Matches per second from the first stored match (after ``skip`` of them) to the last
    (start-up left out)."""
    conn = sqlite3.connect(store)
    try:
        stamps = [
            dt.datetime.fromisoformat(r[0].replace("Z", "+00:00"))
            for r in conn.execute("SELECT finished_at FROM matches ORDER BY finished_at")
        ][skip:]
    finally:
        conn.close()
    span = (stamps[-1] - stamps[0]).total_seconds()
    return (len(stamps) - 1) / span if span > 0 else float("inf")


def _cpu_split(config_path: Path) -> dict[str, float]:
    """Run the tournament at ``config_path`` in this process: the arbiter's CPU (this process)
    and the bots' CPU (its reaped children) per match, and the wall time per match."""
    import structlog

    from croupier.ladder import load_config
    from croupier.ladder._tournament import run_tournament

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    # unsandboxed: a bot inside bubblewrap is reaped by the sandbox's own init, so its CPU time
    # never reaches this process's RUSAGE_CHILDREN
    os.environ["CROUPIER_SANDBOX"] = "none"
    config = load_config(config_path, {})
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    own, wall = time.process_time(), time.perf_counter()
    summary = asyncio.run(run_tournament(config))
    wall, own = time.perf_counter() - wall, time.process_time() - own
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    bots = (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    n = summary.played
    return {
        "cpu_matches": n,
        "arbiter_cpu_ms_per_match": 1000 * own / n,
        "bots_cpu_ms_per_match": 1000 * bots / n,
        "wall_ms_per_match": 1000 * wall / n,
        "cpu_bound_per_s": (os.cpu_count() or 1) * n / (own + bots),
    }


def bench_throughput(matches: int, cli_matches: int) -> dict[str, float]:
    from croupier.transport import play_local
    from croupier_bot import Seat
    from croupier_bots.random_bot import RandomBot

    rounds = max(1, matches // 4)  # one table of four, four rotations per round
    n = rounds * 4
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        start = time.perf_counter()
        for seed in range(cli_matches):
            _run(
                "match",
                "--game",
                "as-nas",
                "--seed",
                seed,
                "--out",
                root / "cli",
                *(["--bot", "random"] * 4),
            )
        cli = cli_matches / (time.perf_counter() - start)
        c1, cd = _config(root / "c1", rounds), _config(root / "cd", rounds)
        one = n / _run("tournament", c1, "--concurrency", 1)
        default = n / _run("tournament", cd)
        cores = os.cpu_count() or 1
        cw = _config(root / "cw", rounds)
        workers = n / _run("tournament", cw, "--workers", cores)
        one_steady = _steady_per_s(c1.parent / "bench.sqlite")
        default_steady = _steady_per_s(cd.parent / "bench.sqlite")
        workers_steady = _steady_per_s(cw.parent / "bench.sqlite")
        split = _cpu_split(_config(root / "cpu", rounds))
    start = time.perf_counter()
    for seed in range(n):
        seats = [Seat(RandomBot(seed * 4 + i)) for i in range(4)]
        play_local("as-nas", {"deals": 12}, seed, seats)
    local = n / (time.perf_counter() - start)
    return {
        "matches": n,
        "cli_matches": cli_matches,
        "cores": os.cpu_count() or 1,
        "a_cli_matches_per_s": cli,
        "b1_tournament_c1_per_s": one,
        "bd_tournament_default_per_s": default,
        "b1_steady_per_s": one_steady,
        "bd_steady_per_s": default_steady,
        "bw_tournament_workers_per_s": workers,
        "bw_steady_per_s": workers_steady,
        "c_in_process_per_s": local,
        "b1_over_a": one / cli,
        "bd_over_a": default / cli,
        "bd_steady_over_a": default_steady / cli,
        "b1_over_c": one / local,
        "bd_over_c": default / local,
        "bd_steady_over_c": default_steady / local,
        "bw_over_bd": workers / default,
        "bw_steady_over_bd_steady": workers_steady / default_steady,
        "bw_steady_over_c": workers_steady / local,
        **split,
    }


def _tree_pss_mb(root: int, cpu: dict[int, float] | None = None) -> float:
    """The PSS (MiB) of every process under ``root``, summed (Linux; processes that end while
    being read are skipped); ``cpu`` gets each one's CPU seconds so far, by pid."""
    tree = process_tree(root)
    kib = 0
    for pid, used in tree.items():
        if cpu is not None:
            cpu[pid] = max(cpu.get(pid, 0.0), used)
        try:
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    kib += int(line.split()[1])
        except (OSError, ValueError):
            continue
    return kib / 1024


def _lanes_run(root: Path, rounds: int, concurrency: int, lanes: bool) -> dict[str, float]:
    """One in-process run of the default duplicate tournament, with or without lanes."""
    import threading

    from croupier.ladder import Progress, load_config
    from croupier.ladder._config import with_runtime
    from croupier.ladder._tournament import run_tournament

    path = _config(root, rounds)
    config = with_runtime(load_config(path, {}), concurrency=concurrency)
    peak = [0.0]
    bots_cpu: dict[int, float] = {}  # by pid: what each bot process used, as last seen
    running = threading.Event()
    running.set()

    def sample() -> None:
        while running.is_set():
            peak[0] = max(peak[0], _tree_pss_mb(os.getpid(), bots_cpu))
            time.sleep(0.2)

    # CPU (this process, the bots) a quarter of the way in (every lane is up by then: lanes
    # start as first needed, within the first two sets or so) and at the last match: the
    # steady state's CPU per match, start-ups left out
    skip = max(4, rounds)  # (a quarter of the matches: four seatings a round)
    marks: list[tuple[int, float]] = []

    def progress(p: Progress) -> None:
        if p.done in (skip, p.total):
            now: dict[int, float] = {}
            _tree_pss_mb(os.getpid(), now)
            marks.append((p.done, time.process_time() + sum(now.values())))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start, own = time.perf_counter(), time.process_time()
    try:
        summary = asyncio.run(run_tournament(config, lanes=lanes, on_progress=progress))
    finally:
        wall, own = time.perf_counter() - start, time.process_time() - own
        running.clear()
        sampler.join()
    conn = sqlite3.connect(path.parent / "bench.sqlite")
    try:
        processes = conn.execute("SELECT SUM(processes) FROM bots").fetchone()[0]
    finally:
        conn.close()
    return {
        "per_s": summary.played / wall,
        "steady_per_s": _steady_per_s(path.parent / "bench.sqlite", skip=skip),
        "processes": float(processes),
        "peak_bots_pss_mb": peak[0],
        # CPU per match: this process (the arbiter, and the sampler's own little), and the bots
        # (every process under it, as last sampled: a process's last 0.2 s may be missed)
        "arbiter_cpu_ms_per_match": 1000 * own / summary.played,
        "bots_cpu_ms_per_match": 1000 * sum(bots_cpu.values()) / summary.played,
        "steady_cpu_ms_per_match": 1000 * (marks[1][1] - marks[0][1]) / (marks[1][0] - marks[0][0]),
    }


def bench_lanes(matches: int, concurrency: int, repeats: int) -> dict[str, float]:
    import statistics

    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    rounds = max(1, matches // 4)
    runs: dict[bool, list[dict[str, float]]] = {True: [], False: []}
    with tempfile.TemporaryDirectory(prefix="cr-bench-", dir="/tmp") as tmp:
        for r in range(repeats):
            for lanes in (False, True) if r % 2 == 0 else (True, False):
                name = f"{'lanes' if lanes else 'shared'}{r}"
                runs[lanes].append(_lanes_run(Path(tmp) / name, rounds, concurrency, lanes))

    def median(lanes: bool, key: str) -> float:
        return statistics.median(run[key] for run in runs[lanes])

    out: dict[str, float] = {"matches": rounds * 4, "concurrency": concurrency}
    keys = ("per_s", "steady_per_s", "processes", "peak_bots_pss_mb")
    cpu_keys = ("arbiter_cpu_ms_per_match", "bots_cpu_ms_per_match", "steady_cpu_ms_per_match")
    for key in (*keys, *cpu_keys):
        out[f"shared_{key}"] = median(False, key)
        out[f"lanes_{key}"] = median(True, key)
        out[f"lanes_over_shared_{key}"] = median(True, key) / median(False, key)
    # what each process more costs in CPU (arbiter and bots): its start-up, the one cost of lanes
    # once they are up (the rest of a match costs the same either way)
    extra = out["lanes_processes"] - out["shared_processes"]
    cpu = {
        lanes: median(lanes, "arbiter_cpu_ms_per_match") + median(lanes, "bots_cpu_ms_per_match")
        for lanes in (False, True)
    }
    out["cpu_ms_per_extra_process"] = (cpu[True] - cpu[False]) * out["matches"] / extra
    return out


def bench_control(matches: int, repeats: int) -> dict[str, float]:
    import statistics

    import structlog

    from croupier.ladder import _offload, load_config
    from croupier.ladder._tournament import run_tournament

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    rounds = max(1, matches // 4)
    default = _offload.OFFLOAD_AFTER
    runs: dict[tuple[bool, bool], list[float]] = {}
    with tempfile.TemporaryDirectory(prefix="cr-bench-", dir="/tmp") as tmp:
        for r in range(repeats):
            for terms in (False, True):
                for helper in (False, True) if r % 2 == 0 else (True, False):
                    path = _config(Path(tmp) / f"{terms:d}{helper:d}{r}", rounds)
                    text = path.read_text().replace(
                        "action_terms = false", f"action_terms = {str(terms).lower()}"
                    )
                    path.write_text(text)
                    _offload.OFFLOAD_AFTER = default if helper else 10**9
                    try:
                        start = time.perf_counter()
                        summary = asyncio.run(run_tournament(load_config(path, {})))
                        per_s = summary.played / (time.perf_counter() - start)
                    finally:
                        _offload.OFFLOAD_AFTER = default
                    runs.setdefault((terms, helper), []).append(per_s)
    out: dict[str, float] = {"matches": rounds * 4}
    for terms, label in ((False, "chance"), (True, "action")):
        thread = statistics.median(runs[terms, False])
        helper = statistics.median(runs[terms, True])
        out[f"{label}_thread_per_s"] = thread
        out[f"{label}_helper_per_s"] = helper
        out[f"{label}_helper_over_thread"] = helper / thread
    return out


def bench_resume(runs: int, matches: int) -> dict[str, float]:
    rounds = max(1, matches // 4)
    rng = np.random.default_rng()
    same = kills = 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        ref = _config(root / "ref", rounds, deals=2)
        start = time.perf_counter()
        _run("tournament", ref)
        duration = time.perf_counter() - start
        expected = _results(ref.parent / "bench.sqlite")
        expected_table = _standings(ref.parent / "bench.sqlite")
        for run in range(runs):
            path = _config(root / f"run{run}", rounds, deals=2)
            for _ in range(int(rng.integers(1, 4))):
                proc = subprocess.Popen(
                    [*CROUPIER, "tournament", str(path)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                time.sleep(float(rng.uniform(0.5, max(1.0, duration * 0.6))))
                if proc.poll() is None:
                    proc.send_signal(signal.SIGKILL)
                    kills += 1
                proc.wait()
            _run("tournament", path)
            store = path.parent / "bench.sqlite"
            same += _results(store) == expected and _standings(store) == expected_table
            print(f"resume: run {run + 1}/{runs}: {same} identical so far", file=sys.stderr)
    return {"runs": runs, "matches": rounds * 4, "kills": kills, "identical": same}


def bench_ray(matches: int) -> dict[str, float]:
    rounds = max(1, matches // 4)
    n = rounds * 4
    env = {**os.environ, "RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
    ray = str(Path(sys.executable).parent / "ray")
    with tempfile.TemporaryDirectory(prefix="cr-bench-", dir="/tmp") as tmp:
        root = Path(tmp)
        local = [_run("tournament", _config(root / f"local{k}", rounds * k)) for k in (1, 2)]
        start = time.perf_counter()
        head = subprocess.Popen(
            [
                ray,
                "start",
                "--head",
                "--port=0",
                "--include-dashboard=false",
                "--disable-usage-stats",
                f"--temp-dir={root / 'ray'}",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env=env,
            start_new_session=True,
        )
        out, _ = head.communicate()
        startup = time.perf_counter() - start
        address = next(
            (
                line.split("--address='")[1].split("'")[0]
                for line in out.splitlines()
                if "--address='" in line
            ),
            "",
        )
        try:
            on_ray = [
                _run(
                    "tournament",
                    _config(root / f"ray{k}", rounds * k),
                    "--executor",
                    "ray",
                    "--address",
                    address,
                    env=env,
                )
                for k in (1, 2)
            ]
        finally:
            _kill_session(head.pid)
    local_marginal = n / (local[1] - local[0])
    ray_marginal = n / (on_ray[1] - on_ray[0])
    return {
        "matches": 2 * n,
        "local_per_s": 2 * n / local[1],
        "ray_one_node_per_s": 2 * n / on_ray[1],
        "ray_over_local": local[1] / on_ray[1],
        "local_marginal_per_s": local_marginal,
        "ray_marginal_per_s": ray_marginal,
        "ray_over_local_marginal": ray_marginal / local_marginal,
        "ray_cluster_start_s": startup,
    }


def _kill_session(sid: int) -> None:
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[3]) == sid:
                os.kill(int(stat.parent.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "which", nargs="*", metavar="BENCH", help="throughput | lanes | control | resume | ray"
    )
    parser.add_argument("--matches", type=int, default=48, help="matches per measurement")
    parser.add_argument(
        "--cli-matches", type=int, default=8, help="throughput: croupier match runs for (a)"
    )
    parser.add_argument(
        "--concurrency", type=int, default=os.cpu_count() or 1, help="lanes: matches at once"
    )
    parser.add_argument(
        "--repeats", type=int, default=3, help="lanes, control: runs of each, alternated"
    )
    parser.add_argument("--runs", type=int, default=20, help="resume: interrupted runs")
    parser.add_argument(
        "--resume-matches", type=int, default=200, help="resume: matches in the tournament"
    )
    args = parser.parse_args()
    chosen = args.which or ["throughput", "lanes", "control", "resume", "ray"]
    for name in chosen:
        if name == "throughput":
            result = bench_throughput(args.matches, args.cli_matches)
        elif name == "lanes":
            result = bench_lanes(args.matches, args.concurrency, args.repeats)
        elif name == "control":
            result = bench_control(args.matches, args.repeats)
        elif name == "resume":
            result = bench_resume(args.runs, args.resume_matches)
        elif name == "ray":
            result = bench_ray(args.matches)
        else:
            parser.error(
                f"unknown benchmark {name} (known: throughput, lanes, control, resume, ray)"
            )
        rounded = {k: round(v, 3) if isinstance(v, float) else v for k, v in result.items()}
        print(json.dumps({name: rounded}), flush=True)


if __name__ == "__main__":
    main()
