"""Bounded decision messages (issue 11, item 2): request size and per-decision latency as a match
goes on and as stacks grow, against the code before protocol 2, measured in the same run.

    .venv/bin/python bench/bounded.py                  # all (about ten minutes on 2 cores)
    .venv/bin/python bench/bounded.py rounds stack     # some: rounds | stack | long
    .venv/bin/python bench/bounded.py --rounds 300     # shorter: marks at rounds 10, 100, 300

Every match is real: an arbiter on loopback and one Python SDK bot process per seat, passive (it
answers In, Proceed, NoBet or Stand whenever it may, so no one is eliminated and a chip match runs
to its round cap; else the lowest legal id). The baseline is the same benchmark run on the code
before protocol 2 (``--base``, by default the parent of the commit that set PROTOCOL_VERSION = 2),
checked out into a temporary git worktree and imported instead of this checkout's code.

* ``rounds``: a long two-player Felduz and Scauver match (``stack`` 1000, ``double_every`` 0,
  ``round_cap`` just past the last mark): per mark (rounds 10, 100, 1,000 by default; ten rounds
  from each), the median and largest request in bytes, the median latency the arbiter
  measured (request written to reply read: the bot's parse, its SDK and its choice included),
  and the median CPU time of one request's trip measured in one process (encode, serialize,
  parse, hand to a Python SDK bot; not the rules' work): wall-clock latency on a shared machine
  is noisy, CPU time much less so.
* ``stack``: 30 rounds of each game at ``stack`` 10 and 1,000: the same figures over the betting
  steps only (where every allowed bet is a legal action).
* ``long``: one two-player Scauver match at ``round_cap`` 10000 over gRPC on this code only (the
  old one passes the SDK's 4 MiB receive limit near round 4,900): its wall time, its largest
  request and its median latency in the first and the last 100 rounds.

Request sizes are those of the requests the match sent, re-encoded from its replay with the
code's own codec (a request is a function of the state and the legal actions; the clocks are
left out). Each figure prints as one JSON line.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: Rounds measured from each mark on.
WINDOW = 10

#: The bench bot: a passive Python SDK bot, importing the code under test (argv[1]).
BOT = r"""
import sys
code = sys.argv[1]
sys.path[:0] = [code + "/server", code + "/clients/python"]
from croupier.games import chips
from croupier.games.felduz import rules as felduz
from croupier.games.scauver import rules as scauver
from croupier_bot import run

PASSIVE = {
    "felduz": {chips.IN, felduz.NO_BET, felduz.STAND},
    "scauver": {chips.IN, scauver.PROCEED, scauver.NO_BET},
}

def act(decision):
    ids = decision.legal_ids
    calm = PASSIVE[decision.match.game].intersection(ids)
    return min(calm) if calm else ids[0]

run(act, name="passive")
"""


def _match(code: Path, game: str, params: dict[str, int], out: Path) -> tuple[Path, float]:
    """Play one match of two passive bots; its replay and wall time."""
    import asyncio

    from croupier.arbiter import ClockRules, MatchConfig
    from croupier.runner import run_match
    from croupier.transport import SandboxMode, SandboxOptions

    bot = out / "passive_bot.py"
    bot.write_text(BOT)
    config = MatchConfig(
        game,
        {"players": 2, **params},
        seed=1,
        clock=ClockRules(move_time_ms=30_000, time_bank_ms=60_000),
        connect_timeout_s=60,
    )
    argv = [sys.executable, str(bot), str(code)]
    started = time.perf_counter()
    run = asyncio.run(
        run_match(config, [argv, argv], out, sandbox=SandboxOptions(mode=SandboxMode.NONE))
    )
    wall = time.perf_counter() - started
    assert all(s.outcome.value == "normal" for s in run.result.seats), run.result
    return run.replay, wall


Row = tuple[int, int, int | None, bool, float | None]


def _decisions(replay: Path, want: Any) -> list[Row]:
    """(round, latency µs, request bytes, a betting step, CPU µs) for every decision of the
    replay. Where ``want(round, betting)``, the request is re-encoded, and the CPU time of its
    trip is measured in this process: encode and serialize (the arbiter), parse and hand to a
    Python SDK bot (the bot), the rules' legal actions and labels excluded; elsewhere bytes and
    CPU are None."""
    from croupier.arbiter import ClockRules, Clocks, Welcome, decision_request
    from croupier.games import chips, get_spec
    from croupier.transport._codec import encode
    from croupier.v1 import bot_pb2 as pb
    from croupier_bot import Seat

    lines = [json.loads(line) for line in replay.read_text().splitlines()]
    header = lines[0]
    spec = get_spec(header["game"])
    game, codec = spec.game, spec.codec
    state = game.initial_state(header["params"])
    seats = [Seat(_First()) for _ in range(2)]
    for i, seat in enumerate(seats):
        seat(encode(Welcome("b", i, 2, header["game"], 1, dict(header["params"]),
                            ClockRules(0, 0)), codec))  # fmt: skip
    out: list[Row] = []
    for rec in lines[1:]:
        if rec["type"] == "chance":
            state = game.apply_chance(state, tuple(rec["outcome"]))
        elif rec["type"] == "action":
            rnd = game.round_index(state)
            size = cpu = None
            legal = game.legal_actions(state)
            betting = any(chips.BET <= a < chips.RAISE for a in legal)
            if want(rnd, betting):
                request = decision_request(game, state, rec["seat"], 1, Clocks(0, 0, 0))
                started = time.thread_time_ns()  # the message's trip, not the rules' work
                data = encode(request, codec).SerializeToString()
                seats[rec["seat"]](pb.PlayResponse.FromString(data))
                cpu = (time.thread_time_ns() - started) / 1000
                size = len(pb.PlayResponse.FromString(data).decision.SerializeToString())
            out.append((rnd, rec["time_us"], size, betting, cpu))
            state = game.apply(state, rec["action"])
    return out


class _First:
    """The bot the CPU figure hands each request to: it reads the ids and takes the first."""

    def on_event(self, event: Any) -> None:
        pass

    def on_welcome(self, match: Any) -> None:
        pass

    def act(self, decision: Any) -> int:
        return int(decision.legal_ids[0])


def _figures(rows: list[Row]) -> dict[str, float]:
    sizes = [r[2] for r in rows if r[2] is not None]
    cpu = [r[4] for r in rows if r[4] is not None]
    return {
        "decisions": len(rows),
        "median_bytes": statistics.median(sizes),
        "max_bytes": max(sizes),
        "median_latency_us": statistics.median(r[1] for r in rows),
        "median_cpu_us": round(statistics.median(cpu), 1),
    }


def measure(args: argparse.Namespace) -> None:
    """One figure on the code importable here (the child process of :func:`main`)."""
    code = Path(args.code)
    out = Path(tempfile.mkdtemp(prefix="bounded-"))
    try:
        params = json.loads(args.params)
        replay, wall = _match(code, args.game, params, out)
        if args.kind == "rounds":
            marks = [int(m) for m in args.marks.split(",")]
            windows = {m + k for m in marks for k in range(WINDOW)}
            rows = _decisions(replay, lambda rnd, betting: rnd in windows)
            result = {str(m): _figures([r for r in rows if m <= r[0] < m + WINDOW]) for m in marks}
        elif args.kind == "stack":
            rows = [r for r in _decisions(replay, lambda rnd, betting: betting) if r[3]]
            result = {"betting": _figures(rows)}
        else:
            rows = _decisions(replay, lambda rnd, betting: True)
            last = max(r[0] for r in rows)
            result = {
                "wall_s": round(wall, 1),
                "rounds": last + 1,
                "max_bytes": max(r[2] for r in rows if r[2] is not None),
                "first_100": _figures([r for r in rows if r[0] < 100]),
                "last_100": _figures([r for r in rows if r[0] > last - 100]),
            }
        print(json.dumps(result))
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _run(code: Path, kind: str, game: str, params: dict[str, int], marks: str = "") -> Any:
    env = {**os.environ, "PYTHONPATH": f"{code}/server{os.pathsep}{code}/clients/python"}
    done = subprocess.run(
        [sys.executable, __file__, "measure", "--code", str(code), "--kind", kind, "--game", game,
         "--params", json.dumps(params), "--marks", marks],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"bench/bounded.py: {kind} {game} on {code} failed:\n{done.stderr}")
    return json.loads(done.stdout.splitlines()[-1])


def _base_commit(base: str | None) -> str:
    if base:
        return base
    found = subprocess.run(
        ["git", "log", "--reverse", "--format=%H", "-S", "PROTOCOL_VERSION = 2", "--", "server"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    if not found:
        raise SystemExit("bench/bounded.py: no commit sets PROTOCOL_VERSION = 2: pass --base")
    return f"{found[0]}^"


def _ratio(new: float, old: float) -> float:
    return round(new / old, 3) if old else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="*", default=["rounds", "stack", "long"])
    parser.add_argument("--base", help="the baseline's git revision (default: before protocol 2)")
    parser.add_argument("--rounds", type=int, default=1000, help="the last mark (default 1000)")
    parser.add_argument("--long-rounds", type=int, default=10000, help="the long match's cap")
    args = parser.parse_args()
    base_dir = Path(tempfile.mkdtemp(prefix="bounded-base-"))
    rev = _base_commit(args.base)
    subprocess.run(["git", "worktree", "add", "--detach", str(base_dir), rev], cwd=ROOT,
                   check=True, capture_output=True)  # fmt: skip
    codes = {"new": ROOT, "base": base_dir}
    try:
        marks = sorted({10, min(100, args.rounds), args.rounds})
        if "rounds" in args.what:
            for game in ("felduz", "scauver"):
                params = {"stack": 1000, "double_every": 0, "round_cap": marks[-1] + WINDOW}
                got = {c: _run(d, "rounds", game, params, ",".join(map(str, marks)))
                       for c, d in codes.items()}  # fmt: skip
                for m in map(str, marks):
                    new, old = got["new"][m], got["base"][m]
                    print(json.dumps({
                        "bench": "rounds", "game": game, "round": int(m), "new": new,
                        "base": old,
                        "bytes_ratio": _ratio(new["median_bytes"], old["median_bytes"]),
                        "latency_ratio": _ratio(new["median_latency_us"],
                                                old["median_latency_us"]),
                        "cpu_ratio": _ratio(new["median_cpu_us"], old["median_cpu_us"]),
                        "new_cpu_vs_round_10": _ratio(new["median_cpu_us"],
                                                      got["new"]["10"]["median_cpu_us"]),
                        "base_cpu_vs_round_10": _ratio(old["median_cpu_us"],
                                                       got["base"]["10"]["median_cpu_us"]),
                        "new_latency_vs_round_10": _ratio(new["median_latency_us"],
                                                          got["new"]["10"]["median_latency_us"]),
                        "base_latency_vs_round_10": _ratio(old["median_latency_us"],
                                                           got["base"]["10"]["median_latency_us"]),
                    }), flush=True)  # fmt: skip
        if "stack" in args.what:
            for game in ("felduz", "scauver"):
                got = {}
                for stack in (10, 1000):
                    params = {"stack": stack, "double_every": 0, "round_cap": 30}
                    got[stack] = {c: _run(d, "stack", game, params)["betting"]
                                  for c, d in codes.items()}  # fmt: skip
                for stack in (10, 1000):
                    new, old = got[stack]["new"], got[stack]["base"]
                    print(json.dumps({
                        "bench": "stack", "game": game, "stack": stack, "new": new, "base": old,
                        "bytes_ratio": _ratio(new["median_bytes"], old["median_bytes"]),
                        "latency_ratio": _ratio(new["median_latency_us"],
                                                old["median_latency_us"]),
                        "cpu_ratio": _ratio(new["median_cpu_us"], old["median_cpu_us"]),
                        "new_cpu_vs_stack_10": _ratio(new["median_cpu_us"],
                                                      got[10]["new"]["median_cpu_us"]),
                        "base_cpu_vs_stack_10": _ratio(old["median_cpu_us"],
                                                       got[10]["base"]["median_cpu_us"]),
                        "new_latency_vs_stack_10": _ratio(new["median_latency_us"],
                                                          got[10]["new"]["median_latency_us"]),
                        "base_latency_vs_stack_10": _ratio(old["median_latency_us"],
                                                           got[10]["base"]["median_latency_us"]),
                    }), flush=True)  # fmt: skip
        if "long" in args.what:
            params = {"stack": 1000, "double_every": 0, "round_cap": args.long_rounds}
            got = _run(ROOT, "long", "scauver", params)
            print(json.dumps({"bench": "long", "game": "scauver", **got,
                              "last_vs_first_latency": _ratio(
                                  got["last_100"]["median_latency_us"],
                                  got["first_100"]["median_latency_us"])}), flush=True)  # fmt: skip
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base_dir)], cwd=ROOT,
                       check=False, capture_output=True)  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["measure"]:
        p = argparse.ArgumentParser()
        p.add_argument("measure")
        for flag in ("--code", "--kind", "--game", "--params", "--marks"):
            p.add_argument(flag, default="")
        measure(p.parse_args())
    else:
        main()
