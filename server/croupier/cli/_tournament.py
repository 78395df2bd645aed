"""``croupier tournament``: parse the flags, run the ladder, print progress and standings."""

from __future__ import annotations

import argparse
import asyncio
import csv
import io
import json
import math
import signal
import sys
import time
from pathlib import Path
from typing import Any

from croupier.arbiter import searchable, searchable_warning
from croupier.cli._sandbox import add_sandbox_arguments, bots_note, sandbox_options, warn
from croupier.cli._tls import add_tls_arguments, tls_config
from croupier.errors import ConfigError
from croupier.ladder import (
    EXECUTORS,
    RESTARTS,
    Interval,
    Progress,
    Standings,
    check_launch,
    load_config,
    parse_override,
    resolve_bot,
    results_path,
    run_tournament,
    same_program,
    seatings,
    store_standings,
    with_runtime,
)

#: Exit status of a tournament interrupted by SIGINT/SIGTERM (finished matches are kept).
EXIT_INTERRUPTED = 130


def add_arguments(t: argparse.ArgumentParser) -> None:
    """``croupier tournament``'s description and arguments (its help line is the CLI's)."""
    t.description = (
        "croupier tournament CONFIG.toml runs the tournament the file describes (see "
        "docs/ladder.md), resuming it if its store already holds finished matches. "
        "croupier tournament standings STORE prints the standings held in a store, "
        "also while the tournament runs."
    )
    t.add_argument("config", metavar="CONFIG.toml|standings", help="the tournament file")
    t.add_argument("store_path", nargs="?", type=Path, metavar="STORE", help=argparse.SUPPRESS)
    t.add_argument("--store", type=Path, default=None, help="the SQLite store (overrides store)")
    t.add_argument("--out", type=Path, default=None, metavar="DIR", help="where replays go")
    t.add_argument("--rounds", type=int, default=None, metavar="N", help="overrides rounds")
    t.add_argument(
        "--seed",
        type=int,
        default=None,
        metavar="N",
        help="a reproducible seed, which is then the secret every deal derives from "
        "(default: the store draws a secret key)",
    )
    t.add_argument(
        "--concurrency",
        type=int,
        default=None,
        metavar="N",
        help="matches at once (default: the number of cores)",
    )
    t.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="local executor: N worker processes, each its own arbiter and bots, sharing "
        "--concurrency (default 1: one arbiter; no remote bots with more)",
    )
    t.add_argument("--executor", choices=EXECUTORS, default=None, help="local (default) or ray")
    t.add_argument("--address", default=None, help="the Ray cluster's address (with ray)")
    t.add_argument(
        "--restart",
        choices=RESTARTS,
        default=None,
        help="session (default): each bot's process stays up across matches, restarted after "
        "a crash; per-match: fresh processes for every match",
    )
    t.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override any key of the file, dotted (--set format.duplicate=false)",
    )
    add_tls_arguments(t)
    add_sandbox_arguments(t, strict=True)
    t.add_argument("--json", action="store_true", help="standings: print JSON")
    t.add_argument("--csv", action="store_true", help="standings: print CSV (one row per bot)")


def standings_parser() -> argparse.ArgumentParser:
    """The help of ``croupier tournament standings`` (its arguments are parsed with the
    tournament's: ``STORE``, ``--json``, ``--csv``)."""
    p = argparse.ArgumentParser(
        prog="croupier tournament standings",
        description=(
            "Print the standings held in a tournament store, also while the tournament runs: "
            "each bot's score (in the game's unit, with the control variate), match points, "
            "rating, and each pair's comparison (docs/ladder.md, 'Progress and standings')."
        ),
    )
    p.add_argument("store_path", type=Path, metavar="STORE", help="the tournament's store")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print everything as JSON")
    out.add_argument("--csv", action="store_true", help="print CSV, one row per bot")
    return p


def wants_standings_help(argv: list[str]) -> bool:
    """Whether ``argv`` asks for ``croupier tournament standings --help``."""
    if "tournament" not in argv:
        return False
    rest = argv[argv.index("tournament") + 1 :]
    return bool(rest) and rest[0] == "standings" and ("-h" in rest or "--help" in rest)


def run(args: argparse.Namespace) -> int:
    if args.config == "standings":
        if args.store_path is None:
            raise ConfigError("croupier tournament standings STORE: the store is missing")
        return _standings(args)
    if args.store_path is not None:
        raise ConfigError(f"unexpected argument {str(args.store_path)!r}")
    overrides: dict[str, Any] = dict(parse_override(s) for s in args.set)
    for key in ("rounds", "seed"):
        if getattr(args, key) is not None:
            overrides[key] = getattr(args, key)
    config = load_config(Path(args.config), overrides)
    runtime: dict[str, Any] = {}
    if args.store is not None:
        runtime["store"] = args.store
    if args.out is not None:
        runtime["out"] = args.out
    if args.concurrency is not None:
        if args.concurrency < 1:
            raise ConfigError(f"--concurrency {args.concurrency}: must be at least 1")
        runtime["concurrency"] = args.concurrency
    if args.workers is not None:
        if args.workers < 1:
            raise ConfigError(f"--workers {args.workers}: must be at least 1")
        runtime["workers"] = args.workers
    if args.executor is not None:
        runtime["executor"] = args.executor
    if args.address is not None:
        runtime["address"] = args.address
    if args.restart is not None:
        runtime["restart"] = args.restart
    if (tls := tls_config(args)) is not None:
        if runtime.get("executor", config.executor) != "local":
            raise ConfigError("--tls-cert: TLS serves remote bots, which the local executor hosts")
        runtime["tls"] = tls
    runtime["sandbox"] = sandbox_options(args, config.sandbox.mode)
    config = with_runtime(config, **runtime)
    resolved = {b.name: resolve_bot(b) for b in config.bots}
    check_launch(config, resolved)  # refused here, in one line, before anything starts
    if any(b.argv and not b.error for b in resolved.values()):
        warn(config.sandbox)
    seat_warnings = [
        f"croupier: warning: bots {', '.join(names)} run the same program and sit in "
        "rotations, where each always sits after the same bots: seat order can set them apart "
        '(the standings show by how much); format.seatings = "permutations" seats every order'
        for names in same_program(config.bots)
        if config.fmt.seatings == "rotations" and config.seats >= 3
    ]
    display = _Live(config.store) if sys.stderr.isatty() else _Plain(config.store)
    began = time.monotonic()
    warned = config.seed is None or not searchable(config.seed)

    def update(progress: Progress) -> None:
        nonlocal warned
        while seat_warnings:  # once the store took the config, before the first match
            print(seat_warnings.pop(0), file=sys.stderr, flush=True)
        if not warned:  # once the store took the config: said before the first match
            warned = True
            assert config.seed is not None
            warning = searchable_warning(config.seed, "seed")
            print(f"croupier: warning: {warning}", file=sys.stderr, flush=True)
        display.update(progress)

    async def main() -> Any:
        cancel = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, cancel.set)
        loop.add_signal_handler(signal.SIGTERM, cancel.set)
        return await run_tournament(config, on_progress=update, cancel=cancel, announce=_announce)

    try:
        summary = asyncio.run(main())
    finally:
        display.close()
    info, table = store_standings(config.store)
    print(render_standings(table, title=f"{config.name}: {summary.done}/{summary.total} matches"))
    _print_bot_errors(info, table)
    if config.fmt.duplicate and config.restart == "session":
        lanes = len(seatings(config.seats, config.fmt.seatings))
        started = sum(bot.processes for bot in info["bots"].values())
        print(
            f"bot processes: {started} started; duplicate sets: {lanes} lanes per session bot, "
            "each playing one seating of every set (docs/ladder.md, 'Bot processes')"
        )
    elapsed = time.monotonic() - began
    rate = summary.played / elapsed if elapsed > 0 else 0.0
    print(
        f"played {summary.played} matches in {elapsed:.1f} s ({rate:.2f} matches/s); "
        f"{summary.done}/{summary.total} stored"
    )
    print(f"store: {config.store}; results: {results_path(config)}")
    if summary.stopped_early:
        print("stopped early: the sequential test decided")
    if summary.cancelled:
        print("interrupted: rerun the same command to resume", file=sys.stderr)
        return EXIT_INTERRUPTED
    return 0


def _announce(match_id: str, seat: int, bot: str, token: str, address: str) -> None:
    print(
        f"{match_id}: seat {seat} ({bot}) waits for a remote bot at {address}: "
        f"CROUPIER_TOKEN={token}",
        file=sys.stderr,
        flush=True,
    )


def _line(p: Progress) -> str:
    if p.record is None:
        return f"tournament: {p.total} matches, {p.skipped} already finished"
    r = p.record
    seats = "  ".join(
        f"{s.bot} {s.score}" + ("" if s.outcome == "normal" else f" ({s.outcome})") for s in r.seats
    )
    width = len(str(p.total))
    return f"[{p.done:>{width}}/{p.total}] {r.match_id}: {seats}"


#: Not on a terminal, a standings line is printed at least this often (and at each tenth of
#: the schedule).
STANDINGS_EVERY_S = 60.0
#: The most of a run's time the live standings may take: each recompute (from the whole store,
#: which grows with the run, on the arbiter's event loop: its matches wait meanwhile) waits
#: 1 / this times its own duration before the next (2,000 stored matches: 0.7 s each).
STANDINGS_SHARE = 0.05


class _Standings:
    """The store's standings for the progress display, recomputed no sooner than ``every``
    seconds after the last, nor than the last one's duration / :data:`STANDINGS_SHARE`."""

    def __init__(self, store: Path, every: float) -> None:
        self._store = store
        self._every = every
        self._next = 0.0

    def due(self, now: float) -> bool:
        return now >= self._next

    def compute(self) -> Standings | None:
        """The standings now (``None`` while the store has none), and when the next is due."""
        start = time.monotonic()
        try:
            _, table = store_standings(self._store)
        except ConfigError:
            table = None
        end = time.monotonic()
        self._next = end + max(self._every, (end - start) / STANDINGS_SHARE)
        return table


def standings_line(table: Standings, done: int, total: int) -> str:
    """The standings in one line: rank, bot, headline score (unit), match points."""
    head = "points" if table.ranked_by == "points" else table.unit
    cells = [
        f"{rank}. {b.name} " + (_iv(b.points) if table.ranked_by == "points" else _iv(b.score))
        for rank, b in enumerate(table.bots, 1)
    ]
    return f"standings [{done}/{total}] ({head}): " + " | ".join(cells)


class _Plain:
    """Not a terminal: one line per finished match on stderr, and a standings line every
    :data:`STANDINGS_EVERY_S` seconds and at each tenth of the schedule (fewer when they are
    slow to compute: :class:`_Standings`)."""

    def __init__(self, store: Path) -> None:
        self._standings = _Standings(store, 0.0)
        self._last = time.monotonic()
        self._tenth = -1

    def update(self, p: Progress) -> None:
        print(_line(p), file=sys.stderr, flush=True)
        if p.record is None or not p.total:
            self._tenth = p.done * 10 // max(p.total, 1)
            return
        now = time.monotonic()
        tenth = p.done * 10 // p.total
        wanted = tenth > self._tenth or now - self._last >= STANDINGS_EVERY_S
        if wanted and self._standings.due(now):
            self._tenth, self._last = tenth, now
            table = self._standings.compute()
            if table is not None:
                print(standings_line(table, p.done, p.total), file=sys.stderr, flush=True)

    def close(self) -> None:
        pass


class _Live:
    """A terminal: a progress bar with ETA above the live standings (refreshed at most once a
    second, and less often when they are slow to recompute from the store: :class:`_Standings`)."""

    def __init__(self, store: Path) -> None:
        from rich.console import Console, Group
        from rich.live import Live
        from rich.progress import BarColumn, MofNCompleteColumn, TimeRemainingColumn
        from rich.progress import Progress as Bar

        self._standings = _Standings(store, 1.0)
        self._group = Group
        self._bar = Bar(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        self._task = self._bar.add_task("matches", total=None)
        self._table: Any = ""
        self._live = Live(self._render(), console=Console(stderr=True), refresh_per_second=4)
        self._live.start()

    def _render(self) -> Any:
        return self._group(self._bar, self._table)

    def update(self, p: Progress) -> None:
        if p.record is None:
            self._bar.reset(self._task, total=p.total - p.skipped, completed=0)
            self._bar.update(self._task, description=f"matches ({p.skipped} done before)")
        else:
            self._bar.advance(self._task)
        if self._standings.due(time.monotonic()) or p.done == p.total:
            table = self._standings.compute()
            if table is not None:
                self._table = _rich_table(table)
                self._live.update(self._render())

    def close(self) -> None:
        self._live.stop()


def _rich_table(table: Standings) -> Any:
    from rich.table import Table

    out = Table(title="standings", title_justify="left")
    head, _ = _headers(table)
    for col in ("#", "bot", head, "points", "μ", "σ", "μ−3σ", "matches", "faults"):
        out.add_column(col, justify="left" if col == "bot" else "right")
    for rank, b in enumerate(table.bots, 1):
        out.add_row(
            str(rank),
            b.name,
            _iv(b.score),
            _iv(b.points),
            f"{b.rating.mu:.2f}",
            f"{b.rating.sigma:.2f}",
            f"{b.rating.ordinal:.2f}",
            str(b.matches),
            str(b.faults),
        )
    return out


def _iv(i: Interval, digits: int = 3) -> str:
    if i.n == 0 or math.isnan(i.mean):
        return "-"
    if not math.isfinite(i.half_width):
        return f"{i.mean:+.{digits}f}"
    return f"{i.mean:+.{digits}f} ± {i.half_width:.{digits}f}"


def _grid(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _headers(table: Standings) -> tuple[str, str]:
    """The score column's heading and the note under the table that says what it is."""
    unit = table.unit
    head = f"score {unit} (95% CI)"
    if table.estimator == "control-variate":
        how = f"control variate, beta {table.beta:.2f}"
        if table.beta_action:
            how += f", action terms beta {table.beta_action:.2f}"
    else:
        how = "raw"
    note = (
        f"score: {unit}, {how}; raw: without the control variate; points: match points by "
        "place (1 first, 0 last); ranked by "
        + ("points" if table.ranked_by == "points" else "score")
        + "; pairs lead with "
        + ("the control variate" if table.estimator == "control-variate" else "duplicate pairs")
        + " (docs/ladder.md, 'Statistics')"
    )
    return head, note


def render_standings(table: Standings, title: str) -> str:
    """The standings as plain text: the bots, then each pair's comparison, then the SPRT."""
    chips = any(b.per100 is not None for b in table.bots)
    head, note = _headers(table)
    cols = ["rank", "bot", head, "raw", "points (95% CI)"]
    if chips:
        cols.append("chips/100 rounds")
    cols += ["mu", "sigma", "mu-3sigma", "matches", "firsts", "faults"]
    rows: list[tuple[str, ...]] = [tuple(cols)]
    for rank, b in enumerate(table.bots, 1):
        row = [str(rank), b.name, _iv(b.score), _iv(b.raw), _iv(b.points)]
        if chips:
            row.append(_iv(b.per100, 1) if b.per100 is not None else "-")
        row += [
            f"{b.rating.mu:.2f}",
            f"{b.rating.sigma:.2f}",
            f"{b.rating.ordinal:.2f}",
            str(b.matches),
            str(b.firsts),
            str(b.faults),
        ]
        rows.append(tuple(row))
    lines = [title, *_grid(rows)]
    if table.pairs:
        two = any(p.elo is not None for p in table.pairs)
        cv = any(p.cv is not None for p in table.pairs)
        phead: list[str] = ["pair"]
        if cv:
            phead.append("control variate")
        phead += ["paired diff", "unpaired", "above-level-below"]
        if two:
            phead.append("elo")
        prow: list[tuple[str, ...]] = [tuple(phead)]
        for p in table.pairs:
            cells = [f"{p.a} - {p.b}"]
            if cv:
                cells.append(_iv(p.cv) if p.cv is not None else "-")
            cells += [
                _iv(p.paired),
                _iv(p.unpaired),
                f"{p.record.wins}-{p.record.draws}-{p.record.losses}",
            ]
            if two:
                cells.append("-" if p.elo is None else _elo(p.elo))
            prow.append(tuple(cells))
        lines += ["", *_grid(prow)]
    lines += ["", note]
    if table.sprt is not None:
        s = table.sprt
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", None: "undecided"}[s.decision]
        lines += [
            "",
            f"sprt: {verdict} after {s.n} paired samples; llr {s.llr:.2f} in "
            f"[{s.lower:.2f}, {s.upper:.2f}] (H0: diff {s.d0:g}, H1: diff {s.d1:g}, "
            f"alpha {s.alpha:g}, beta {s.beta:g})",
        ]
    return "\n".join(lines)


def _elo(i: Interval) -> str:
    if not math.isfinite(i.mean):
        return "inf" if i.mean > 0 else "-inf"
    low = f"{i.low:.0f}" if math.isfinite(i.low) else "-inf"
    high = f"{i.high:.0f}" if math.isfinite(i.high) else "inf"
    return f"{i.mean:+.0f} [{low}, {high}]"


def _standings(args: argparse.Namespace) -> int:
    if args.json and args.csv:
        raise ConfigError("croupier tournament standings: --json and --csv: choose one")
    info, table = store_standings(args.store_path)
    if args.json:
        data = table.as_dict()
        data.update(
            tournament=info["tournament"],
            game=info["game"],
            finished=info["finished"],
            total=info["total"],
            bot_errors={n: b.error for n, b in sorted(info["bots"].items()) if b.error},
            bot_processes={
                n: {"mode": b.mode, "processes": b.processes, "crashes": b.crashes}
                for n, b in sorted(info["bots"].items())
            },
            bot_isolation={n: b.isolation for n, b in sorted(info["bots"].items())},
        )
        print(json.dumps(data, indent=2))
        return 0
    if args.csv:
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(
            [
                "rank",
                "bot",
                "mu",
                "sigma",
                "ordinal",
                "score",
                "low",
                "high",
                "unit",
                "estimator",
                "score_raw",
                "points",
                "points_low",
                "points_high",
                "per_100_rounds",
                "matches",
                "rounds",
                "firsts",
                "faults",
            ]
        )
        for rank, b in enumerate(table.bots, 1):
            w.writerow(
                [
                    rank,
                    b.name,
                    f"{b.rating.mu:.4f}",
                    f"{b.rating.sigma:.4f}",
                    f"{b.rating.ordinal:.4f}",
                    f"{b.score.mean:.5f}",
                    f"{b.score.low:.5f}",
                    f"{b.score.high:.5f}",
                    table.unit,
                    table.estimator,
                    f"{b.raw.mean:.5f}",
                    f"{b.points.mean:.5f}",
                    f"{b.points.low:.5f}",
                    f"{b.points.high:.5f}",
                    "" if b.per100 is None else f"{b.per100.mean:.5f}",
                    b.matches,
                    b.rounds,
                    b.firsts,
                    b.faults,
                ]
            )
        sys.stdout.write(buf.getvalue())
        return 0
    title = f"{info['tournament']} ({info['game']}): {info['finished']}/{info['total']} matches"
    print(render_standings(table, title))
    _print_bot_errors(info, table)
    return 0


def _seat_order_notes(info: dict[str, Any], table: Standings) -> list[str]:
    """For two bots that run the same program: their difference, which only seat order (and
    chance) can make: the measured seat-order bias."""
    commands = {name: bot.command for name, bot in info["bots"].items() if bot.command != "random"}
    out = []
    for p in table.pairs:
        if commands.get(p.a) is not None and commands.get(p.a) == commands.get(p.b):
            out.append(
                f"seat order: {p.a} and {p.b} run the same program; their difference "
                f"{_iv(p.lead)} ({table.unit}) is what their seats gave them"
            )
    return out


def _print_bot_errors(info: dict[str, Any], table: Standings | None = None) -> None:
    if table is not None:
        for line in _seat_order_notes(info, table):
            print(line)
    if note := bots_note({name: bot.isolation for name, bot in info["bots"].items()}):
        print(note)
    for name, bot in sorted(info["bots"].items()):
        if bot.error:
            print(f"{name} could not be started: {bot.error}")
        if bot.crashes:
            s = "es" if bot.crashes > 1 else ""
            print(
                f"{name}: {bot.crashes} crash{s} (each charged in the matches its process held; "
                f"{bot.processes} processes started)"
            )
