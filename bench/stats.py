"""Statistics benchmarks: figures a user can reproduce. Not tests; nothing here asserts.

    .venv/bin/python bench/stats.py                 # widths and swiss
    .venv/bin/python bench/stats.py widths --rounds 12
    .venv/bin/python bench/stats.py swiss
    .venv/bin/python bench/stats.py odds --matches 2000

* widths: the 95 % interval half-widths of the standings' estimators on the same matches, for
  three real tournaments (``croupier tournament``, real bot processes, duplicate sets, bots
  unsandboxed to spare the machine): a Fipsen round robin (two Fipsen heuristics, two random
  bots, 4 deals a match), a 3-seat Scauver round robin (two heuristics, two random bots, round
  cap 30) and an As-Nas round robin (two heuristics, two random bots, 6 deals). Per pair of
  bots, each interval blocked by table (``paired_difference``): **raw** (the unpaired
  interval: per-match scores as independent samples), **paired** (per duplicate set), **cv**
  (the same on the control-variate scores, chance and action terms: what the standings lead
  with) and **cv-unpaired** (the control variate without pairing); per bot: the raw and the
  control-variate score interval. Reported per scenario as the median over pairs (bots) of
  each width divided by the raw one, with the fitted betas (``beta``: chance terms,
  ``beta_action``: the random bots' action terms).
* odds: for each chip game, the share of the chips its reference player (the control variate's
  playout player, ``_control.reference_player``) holds at the end of heads-up matches against
  a uniform random player from equal stacks (default parameters, seats alternating, in
  process), and the odds ``p / (1 − p)`` that ``_control.ODDS`` keeps for the action terms'
  match values.
* swiss: simulated Swiss events (the real pairing, ``Schedule.round_slots``; results drawn from
  fixed strengths plus noise) of 9 and 10 bots over 8 rounds at 2, 3 and 4 seats, 20 events
  each: the most byes any bot had, rematches, and avoidable rematches (a round's rematches
  beyond the fewest any table plan of that round has, found by brute force).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from croupier.ladder import Schedule, Seeder, parse_config, read_store
from croupier.ladder._schedule import Results
from croupier.ladder._stats import (
    Scoring,
    mean_interval,
    paired_difference,
    scoring,
    unpaired_difference,
)
from croupier.ladder._store import MatchRecord, SeatRecord

CROUPIER = [sys.executable, "-m", "croupier"]

SCENARIOS: dict[str, str] = {
    "fipsen round robin": """
game = "fipsen"
[params]
deals = 4
[bots]
h1 = "fipsen-heuristic"
h2 = "fipsen-heuristic"
r1 = "random"
r2 = "random"
""",
    "scauver 3 seats": """
game = "scauver"
[params]
players = 3
round_cap = 30
[bots]
h1 = "scauver-heuristic"
h2 = "scauver-heuristic"
r1 = "random"
r2 = "random"
""",
    "as-nas round robin": """
game = "as-nas"
[params]
deals = 6
[bots]
h1 = "as-nas-heuristic"
h2 = "as-nas-heuristic"
r1 = "random"
r2 = "random"
""",
}


def _half(i: Any) -> float:
    return float(i.half_width)


def widths_of(store: Path) -> dict[str, Any]:
    """The interval half-widths of every estimator on the matches of ``store``."""
    s = read_store(store)
    try:
        held = s.tournament()
        assert held is not None
        matches = s.matches()
    finally:
        s.close()
    config = held["config"]
    names = list(config["bots"])
    how = scoring(matches, held["game"], config["params"])
    raw_how = Scoring.of(held["game"], config["params"])
    ratios: dict[str, list[float]] = {"paired": [], "cv": [], "cv_unpaired": []}
    pairs = []
    for a, b in itertools.combinations(names, 2):
        raw = unpaired_difference(matches, a, b, raw_how.raw)
        if raw.n < 2:
            continue
        paired = paired_difference(matches, a, b, raw_how.raw)
        cv = paired_difference(matches, a, b, how.adjusted)
        cv_unpaired = unpaired_difference(matches, a, b, how.adjusted)
        row = {
            "pair": f"{a}-{b}",
            "raw": _half(raw),
            "paired": _half(paired),
            "cv": _half(cv),
            "cv_unpaired": _half(cv_unpaired),
            "diff_raw": raw.mean,
            "diff_cv": cv.mean,
        }
        pairs.append(row)
        if row["raw"] > 0:  # (two deterministic bots that always tie: no spread at all)
            for key in ratios:
                ratios[key].append(row[key] / row["raw"])
    bots = []
    bot_ratio = []
    for n in names:
        xs = [raw_how.raw(m, seat) for m in matches for seat in m.seats if seat.bot == n]
        ys = [how.adjusted(m, seat) for m in matches for seat in m.seats if seat.bot == n]
        raw_i, cv_i = mean_interval(xs), mean_interval([y for y in ys if y is not None])
        bots.append({"bot": n, "raw": _half(raw_i), "cv": _half(cv_i)})
        if _half(raw_i) > 0:
            bot_ratio.append(_half(cv_i) / _half(raw_i))
    return {
        "matches": len(matches),
        "unit": how.unit,
        "beta": round(how.beta, 3),
        "beta_action": round(how.beta_action, 3),
        "median_paired_over_raw": round(statistics.median(ratios["paired"]), 3),
        "median_cv_over_raw": round(statistics.median(ratios["cv"]), 3),
        "median_cv_unpaired_over_raw": round(statistics.median(ratios["cv_unpaired"]), 3),
        "median_bot_cv_over_raw": round(statistics.median(bot_ratio), 3),
        "pairs": [
            {k: round(v, 3) if isinstance(v, float) else v for k, v in p.items()} for p in pairs
        ],
        "bots": [
            {k: round(v, 3) if isinstance(v, float) else v for k, v in b.items()} for b in bots
        ],
    }


def bench_widths(rounds: int, concurrency: int, keep: Path | None = None) -> dict[str, Any]:
    """Run the scenarios (into ``keep`` when given: rerunning resumes, so a finished store is
    only read again) and measure their widths."""
    out: dict[str, Any] = {}
    env = {**os.environ, "CROUPIER_SANDBOX": "none"}
    with tempfile.TemporaryDirectory(prefix="cr-stats-", dir="/tmp") as tmp:
        for name, body in SCENARIOS.items():
            folder = (keep or Path(tmp)) / name.replace(" ", "-")
            folder.mkdir(parents=True, exist_ok=True)
            config = folder / "t.toml"
            config.write_text(f"seed = 2023\nrounds = {rounds}\n{body}")
            start = time.perf_counter()
            done = subprocess.run(
                [*CROUPIER, "tournament", str(config), "--concurrency", str(concurrency)],
                capture_output=True,
                text=True,
                env=env,
            )
            if done.returncode != 0:
                raise SystemExit(f"{name}: croupier tournament failed:\n{done.stderr}")
            result = widths_of(folder / "t.sqlite")
            result["seconds"] = round(time.perf_counter() - start, 1)
            out[name] = result
    return out


# -- swiss ----------------------------------------------------------------------------------------


def _least(bots: list[str], n: int, met: Counter[frozenset[str]]) -> int:
    best: list[int] = []

    def go(rest: tuple[str, ...], acc: int) -> None:
        if best and acc >= best[0]:
            return
        if not rest:
            best[:] = [acc]
            return
        for combo in itertools.combinations(rest[1:], n - 1):
            table = (rest[0], *combo)
            c = sum(met[frozenset(p)] for p in itertools.combinations(table, 2))
            go(tuple(b for b in rest if b not in table), acc + c)

    go(tuple(bots), 0)
    return best[0]


def swiss_event(bots: int, seats: int, rounds: int, seed: int) -> dict[str, int]:
    config = parse_config(
        {
            "game": "scauver",
            "seed": seed,
            "rounds": rounds,
            "params": {"players": seats},
            "format": {"kind": "swiss"},
            "bots": {f"b{i}": "random" for i in range(bots)},
        },
        "swiss.toml",
    )
    schedule = Schedule(config, Seeder.explicit(seed))
    names = [b.name for b in config.bots]
    rng = np.random.default_rng(seed)
    strength = {b: float(rng.normal()) for b in names}
    matches: list[MatchRecord] = []
    met: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    rematches = avoidable = 0
    for r in range(rounds):
        ratings = {b: strength[b] + float(rng.normal()) for b in names}
        slots = schedule.round_slots(r, Results.of(matches, names, ratings))
        tables: dict[int, tuple[str, ...]] = {}
        for s in slots:
            tables.setdefault(s.table, s.bots)
        seated = [b for t in tables.values() for b in t]
        for b in set(names) - set(seated):
            byes[b] += 1
        cost = sum(met[frozenset(p)] for t in tables.values() for p in itertools.combinations(t, 2))
        rematches += cost
        avoidable += cost - _least(seated, seats, met)
        for t, table in tables.items():
            for p in itertools.combinations(table, 2):
                met[frozenset(p)] += 1
            noisy = {b: strength[b] + float(rng.normal()) for b in table}
            order = sorted(table, key=lambda b: -noisy[b])
            seat_records = tuple(
                SeatRecord(i, b, Fraction(0), order.index(b) + 1, "normal", 0, 0)
                for i, b in enumerate(table)
            )
            mid = f"m{r}-{t}"
            matches.append(
                MatchRecord(mid, len(matches), r, t, 0, "", 0, 1, "", "", "", seat_records)
            )
    return {
        "max_byes": max((byes[b] for b in names), default=0),
        "min_byes": min((byes[b] for b in names), default=0),
        "rematches": rematches,
        "avoidable": avoidable,
    }


def bench_swiss(events: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for bots, seats in ((9, 2), (10, 2), (9, 3), (10, 3), (10, 4)):
        runs = [swiss_event(bots, seats, 8, seed) for seed in range(1, events + 1)]
        out[f"{bots} bots, {seats} seats, 8 rounds"] = {
            "events": events,
            "most_byes_of_a_bot": max(r["max_byes"] for r in runs),
            "fewest_byes_of_a_bot": min(r["min_byes"] for r in runs),
            "rematches_per_event": round(sum(r["rematches"] for r in runs) / events, 2),
            "avoidable_rematches": sum(r["avoidable"] for r in runs),
        }
    return out


# -- odds ------------------------------------------------------------------------------------------


def _heads_up(name: str, matches: int) -> float:
    """The reference player's share of the chips at the end of ``matches`` heads-up matches
    against a uniform player (seeds 1000 on, the seats alternating)."""
    from croupier.games import CHANCE, TERMINAL, get_game
    from croupier.ladder._control import reference_player

    game, reference = get_game(name), reference_player(name)
    share = 0.0
    for i in range(matches):
        rng = np.random.default_rng(1000 + i)
        players = [reference, None] if i % 2 == 0 else [None, reference]
        state = game.initial_state({"players": 2})
        while (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
            elif (policy := players[player]) is not None:
                state = game.apply(state, policy(state, player, rng))
            else:
                legal = game.legal_actions(state)
                state = game.apply(state, legal[int(rng.integers(len(legal)))])
        chips = [float(c) for c in game.totals(state)]
        share += chips[i % 2] / sum(chips)
    return share / matches


def bench_odds(matches: int) -> dict[str, Any]:
    from croupier.ladder._control import ODDS

    out: dict[str, Any] = {}
    for name in ("felduz", "scauver"):
        p = _heads_up(name, matches)
        out[name] = {
            "matches": matches,
            "share": round(p, 4),
            "odds": round(p / (1 - p), 1) if p < 1 else None,
            "ODDS": ODDS.get(name),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="*", metavar="BENCH", help="widths | swiss | odds")
    parser.add_argument("--rounds", type=int, default=12, help="widths: rounds per tournament")
    parser.add_argument("--concurrency", type=int, default=2, help="widths: matches at once")
    parser.add_argument("--events", type=int, default=20, help="swiss: events per field")
    parser.add_argument("--keep", type=Path, default=None, help="widths: keep the stores here")
    parser.add_argument("--matches", type=int, default=2000, help="odds: matches per game")
    args = parser.parse_args()
    for name in args.which or ["swiss", "widths"]:
        if name == "widths":
            result = bench_widths(args.rounds, args.concurrency, args.keep)
        elif name == "swiss":
            result = bench_swiss(args.events)
        elif name == "odds":
            result = bench_odds(args.matches)
        else:
            parser.error(f"unknown benchmark {name} (known: widths, swiss, odds)")
        print(json.dumps({name: result}, indent=1), flush=True)


if __name__ == "__main__":
    main()
