"""The ``croupier`` command: run matches, inspect and verify replays, list games.

Every error a user can cause ends in one line on stderr (``croupier: error: …``) and exit
status 2; a replay that reads but does not verify is status 1, in every ``replay`` command
(docs/replay-format.md, "Exit statuses"), and so is a failed ``check-bot``; a cancelled match
(Ctrl-C, SIGTERM, the match time cap) exits 3 after printing its standings; an interrupted
``tournament`` exits 130.
"""

from __future__ import annotations

import os

# gRPC's core would log its own lines (a port it cannot bind, ...) next to ours; the CLI says
# every error in one line of its own. Set before grpc is first imported; GRPC_VERBOSITY=ERROR
# (or DEBUG) in the environment brings its lines back.
os.environ.setdefault("GRPC_VERBOSITY", "NONE")

import argparse
import importlib
import math
import sys
import unicodedata
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from croupier import __version__
from croupier import _defaults as defaults
from croupier.errors import ConfigError, CroupierError, ReplayError, ReplayMismatchError

if TYPE_CHECKING:  # (annotations only: each command imports what it runs, when it runs)
    from fractions import Fraction

    from croupier.arbiter import ClockRules, Match, MatchResult
    from croupier.games import Game
    from croupier.replay import Replay
    from croupier.runner import MatchRun

    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction

#: The ``--bot`` value for a seat whose bot is not launched here but dials in with its token.
REMOTE = "remote"


def printable(text: str) -> str:
    """``text`` safe for a terminal: every control or format character (ESC, CR, LF, DEL, C1,
    bidirectional overrides) written as a visible escape (``\\x1b``), so nothing that came from
    a bot or a replay file can move the cursor, retitle the terminal or forge a line."""
    return "".join(
        c if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co") else _escape(c) for c in text
    )


def _escape(c: str) -> str:
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def _say(text: str = "") -> None:
    """Print one line of output, escaped (see :func:`printable`)."""
    print(printable(text))


def default_bots(game: str, seats: int) -> list[str]:
    """The bundled line-up for ``seats`` seats: the game's bots (its spec's line-up) repeated
    in seat order."""
    from croupier.games import get_spec

    pattern = get_spec(game).bots.lineup
    return [pattern[i % len(pattern)] for i in range(seats)]


def _params(game: Game[Any], args: argparse.Namespace) -> dict[str, int]:
    params = dict(getattr(args, "param", []))
    if args.deals is not None:
        params[game.info.length_param] = args.deals
    if getattr(args, "players", None) is not None:
        params["players"] = args.players
    return game.info.make_params(params)


def _param(text: str) -> tuple[str, int]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name.strip(), int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{name}: {value!r} is not an integer") from None


#: Exit statuses: 0 success; 1 a check failed (replay verify, check-bot); 2 a user error (one
#: ``croupier: error:`` line); 3 the match was cancelled (Ctrl-C, SIGTERM, --match-time-cap-s).
EXIT_CHECK_FAILED = 1
EXIT_USER_ERROR = 2
EXIT_CANCELLED = 3

#: Largest value of a numeric option (milliseconds fit the protocol's uint32; a day is plenty).
MAX_MS = 86_400_000


def nonneg(text: str) -> int:
    """An argparse type: an integer of 0 or more (one line for anything else). Here, not in
    ``_sandbox`` (which imports the transport), so that the replay actions' arguments need
    nothing heavy."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is negative")
    return value


def _seed(text: str) -> int:
    """A match seed: an integer from 0 to 2**128 - 1."""
    from croupier.arbiter import check_seed

    try:
        return check_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _listen(text: str) -> str:
    from croupier.transport import split_address

    try:
        split_address(text)
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _ms(text: str) -> int:
    """A duration in milliseconds: an integer from 0 to a day."""
    value = nonneg(text)
    if value > MAX_MS:
        raise argparse.ArgumentTypeError(f"{value} is more than a day ({MAX_MS} ms)")
    return value


def _flush_ms(text: str) -> int:
    """``--event-flush-ms``: whole milliseconds from 0 to a minute."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of ms") from None
    if not 0 <= value <= 60_000:
        raise argparse.ArgumentTypeError(f"{text} is not from 0 to 60000 ms")
    return value


def _seconds(text: str) -> float:
    """A duration in seconds: a finite number from 0 to a day."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a duration (0 or more seconds)")
    if value > MAX_MS / 1000:
        raise argparse.ArgumentTypeError(f"{text} is more than a day")
    return value


def _add_clock_arguments(parser: argparse.ArgumentParser, *, bank_ms: int) -> None:
    from croupier.arbiter import ClockKind

    parser.add_argument(
        "--move-ms",
        type=_ms,
        default=defaults.MOVE_MS,
        help=f"time per decision (default {defaults.MOVE_MS})",
    )
    parser.add_argument(
        "--bank-ms", type=_ms, default=bank_ms, help=f"time bank (default {bank_ms})"
    )
    parser.add_argument(
        "--connect-timeout",
        type=_seconds,
        default=defaults.CONNECT_TIMEOUT_S,
        metavar="S",
        help=f"seconds bots have to connect (default {defaults.CONNECT_TIMEOUT_S:g})",
    )
    parser.add_argument(
        "--clock",
        choices=[k.value for k in ClockKind],
        default=ClockKind.WALL.value,
        help=(
            "what a decision is charged: wall time (default; never the arbiter's own stalls) or "
            "the CPU time of the bot's process tree (launched bots; a wall-clock guard stays)"
        ),
    )
    parser.add_argument(
        "--margin-ms",
        type=_ms,
        default=defaults.MARGIN_MS,
        help=f"grace for small overruns before a timeout (default {defaults.MARGIN_MS})",
    )
    parser.add_argument(
        "--seat-time-cap-s",
        type=_seconds,
        default=0.0,
        metavar="S",
        help="total time a seat may be charged in the match (default 0: no cap)",
    )
    parser.add_argument(
        "--match-time-cap-s",
        type=_seconds,
        default=0.0,
        metavar="S",
        help="wall time the match may last, then it is cancelled (default 0: no cap)",
    )


class _Commands(_SubParsers):
    """Subcommands whose arguments are added when one is chosen: ``add_command(name, build,
    help=...)`` declares a command, and ``build(parser)`` adds its arguments (and description)
    just before its arguments are parsed, importing what they name (the games, the bundled
    bots, the sandbox modes). So ``croupier --version`` and ``croupier --help`` import none of
    it, and ``croupier replay verify`` only what verifying needs; the parsed arguments, the
    help and the errors are those of the whole parser."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._builders: dict[str, Callable[[argparse.ArgumentParser], None]] = {}

    def add_command(
        self, name: str, build: Callable[[argparse.ArgumentParser], None], **kwargs: Any
    ) -> argparse.ArgumentParser:
        parser = self.add_parser(name, **kwargs)
        self._builders[name] = build
        return parser

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        name = values[0] if isinstance(values, list) and values else None
        build = self._builders.pop(name, None) if isinstance(name, str) else None
        if build is not None:
            build(self._name_parser_map[cast(str, name)])
        super().__call__(parser, namespace, values, option_string)


def _commands(parser: argparse.ArgumentParser, **kwargs: Any) -> _Commands:
    """``parser``'s subcommands, built as they are chosen (:class:`_Commands`)."""
    return cast(_Commands, parser.add_subparsers(action=_Commands, **kwargs))


def _build_replay(r: argparse.ArgumentParser) -> None:
    r.description = (
        "Every ACTION reads replays through one validating reader: exit status 2 for a file "
        "that is not a readable replay, 1 for one that reads but does not verify."
    )
    rsub = _commands(r, dest="replay_command", metavar="ACTION", required=True)
    rsub.add_command("show", _build_replay_show, help="print a readable hand history")
    rsub.add_command("summary", _build_replay_summary, help="one short summary per replay")
    rsub.add_command(
        "verify", _build_replay_verify, help="re-simulate replays and check every step"
    )
    rsub.add_command(
        "export", _build_replay_export, help="write replays as tables (Parquet or CSV)"
    )
    rsub.add_command("step", _build_replay_step, help="walk a match decision by decision")
    rsub.add_command("diff", _build_replay_diff, help="compare two replays of the same deals")


def _files(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", type=Path, nargs="+", metavar="FILE", help="replays (.jsonl)")


def _build_replay_show(show: argparse.ArgumentParser) -> None:
    show.description = (
        "Print a match as a hand history: every card (default), or what one seat saw."
    )
    show.add_argument("file", type=Path, help="a replay (.jsonl)")
    view = show.add_mutually_exclusive_group()
    view.add_argument("--seat", type=nonneg, default=None, help="only what this seat saw")
    view.add_argument("--public", action="store_true", help="only what a spectator saw")
    show.add_argument(
        "--deal", "--round", dest="deal", type=int, default=None, metavar="N",
        help="only deal (round) N, from 1",
    )  # fmt: skip
    show.add_argument(
        "--where", action="append", default=[], metavar="EXPR",
        help="only the rounds matching EXPR: KEY or KEY=VALUE over the round's result "
        "(e.g. fault, fault=timeout, contract=kieker, decided_by=shape, winners=2); repeatable",
    )  # fmt: skip
    show.add_argument(
        "--follow", action="store_true",
        help="tail a replay that is still being written, until its result",
    )  # fmt: skip
    show.add_argument(
        "--idle", type=float, default=None, metavar="S",
        help="with --follow: stop when the file has not grown for S seconds (default: wait for "
        "the result)",
    )  # fmt: skip


def _build_replay_summary(summary: argparse.ArgumentParser) -> None:
    summary.description = "Per replay: the result, and per seat its deals won and actions by kind."
    _files(summary)
    summary.add_argument("--json", action="store_true", help="one JSON object per replay")


def _build_replay_verify(ver: argparse.ArgumentParser) -> None:
    ver.description = (
        "Re-simulate each replay from its recorded chance outcomes and actions, and check "
        "its commitment; each ok line says what the commitment bound. Exit 1 naming the "
        "first mismatch, 2 for a file that is not a readable replay."
    )
    _files(ver)
    ver.add_argument(
        "--require-bound",
        action="store_true",
        help="fail (status 1) a replay of an old format (1-3), whose commitment does not bind "
        "the whole match",
    )


def _build_replay_export(exp: argparse.ArgumentParser) -> None:
    from croupier.replay import FORMATS, TABLES

    exp.description = (
        "Write the matches, seats, rounds and decisions of the replays as typed tables: "
        "--to DIR gets one file per table, --to FILE.parquet or FILE.csv one table."
    )
    _files(exp)
    exp.add_argument("--to", type=Path, required=True, metavar="PATH", help="DIR, or a file")
    exp.add_argument("--format", choices=FORMATS, default=None, help="for --to DIR")
    exp.add_argument("--table", choices=TABLES, default=None, help="for --to FILE")


def _build_replay_step(step: argparse.ArgumentParser) -> None:
    step.description = (
        "Show each decision as the seat saw it and the legal actions it had. Commands (one "
        "a line, from the terminal or a pipe): n (next, also an empty line), p (previous), "
        "r N (first decision of round N), d N (decision N), q (quit)."
    )
    step.add_argument("file", type=Path, help="a replay (.jsonl)")
    step.add_argument("--seat", type=nonneg, default=None, help="only this seat's decisions")


def _build_replay_diff(dif: argparse.ArgumentParser) -> None:
    dif.description = (
        "Where the actions first diverge in each round, and the per-round score difference "
        "(A minus B, per seat) with the total."
    )
    dif.add_argument("a", type=Path, metavar="A", help="a replay")
    dif.add_argument("b", type=Path, metavar="B", help="a replay of the same game and params")


def _build_match(m: argparse.ArgumentParser) -> None:
    from croupier.cli._sandbox import add_sandbox_arguments
    from croupier.cli._tls import add_tls_arguments
    from croupier.games import GAMES
    from croupier.transport import BUNDLED

    m.description = (
        "Start an arbiter on a free loopback port, launch one bot process per seat, play a "
        "whole match, print the standings and write DIR/<match-id>.jsonl (plus one log per "
        "seat). Seats without --bot get the bundled bots."
    )
    m.add_argument("--game", required=True, choices=GAMES, help="the game to play")
    m.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="CMD",
        help=(
            "a bot command line, once per seat in seat order (or a bundled bot: "
            f"{', '.join(sorted(BUNDLED))}; stdio:CMD for a program that speaks JSON lines on "
            "stdin and stdout; or 'remote' for a bot that dials in by itself); "
            "missing seats get the random bot, no --bot at all gets the bundled bots"
        ),
    )
    m.add_argument(
        "--seed",
        type=_seed,
        default=None,
        help=(
            "match seed (0 to 2**128 - 1), for a reproducible match (default: 128 random bits; "
            "it determines every deal, so a small one is warned about)"
        ),
    )
    m.add_argument(
        "--out",
        type=Path,
        default=Path("matches"),
        metavar="DIR",
        help="where replays and bot logs go (default: ./matches)",
    )
    m.add_argument(
        "--deals",
        type=int,
        default=None,
        metavar="N",
        help="deals in the match (for the chip games: the round cap)",
    )
    m.add_argument(
        "--players",
        type=int,
        default=None,
        metavar="N",
        help="number of seats, for games that allow several (same as --param players=N)",
    )
    m.add_argument(
        "--param",
        action="append",
        type=_param,
        default=[],
        metavar="NAME=VALUE",
        help="any game parameter (see `croupier games`)",
    )
    _add_clock_arguments(m, bank_ms=defaults.BANK_MS)
    m.add_argument(
        "--fault-policy",
        default="",
        metavar="CLASS=POLICY,...",
        help=(
            "what a fault costs the seat, per class (timeout, illegal, disconnect, crash): "
            "default (the default action is played; the default for every class), "
            "forfeit-round or forfeit-match; e.g. timeout=forfeit-round,crash=forfeit-match"
        ),
    )
    m.add_argument(
        "--reconnect-grace",
        type=_seconds,
        default=defaults.RECONNECT_GRACE_S,  # (launched bots never get a window)
        metavar="S",
        help=(
            "seconds a remote bot (--bot remote) whose connection drops has to dial in again "
            "with its token and get its pending decision back; the clock keeps running "
            f"(default {defaults.RECONNECT_GRACE_S:g}; 0: a lost connection ends the seat)"
        ),
    )
    m.add_argument(
        "--event-flush-ms",
        type=_flush_ms,
        default=defaults.EVENT_FLUSH_MS,
        metavar="MS",
        help=(
            "how long a public event may wait for the next message to its seat before it is "
            f"sent alone (default {defaults.EVENT_FLUSH_MS}; 0: always with the next message: "
            "fewer messages)"
        ),
    )
    add_sandbox_arguments(m)
    m.add_argument(
        "--listen",
        type=_listen,
        default="127.0.0.1:0",
        metavar="HOST:PORT",
        help=(
            "where the arbiter listens (default: a free loopback port); with --bot remote, "
            "bots dial in from elsewhere using the seat tokens printed at the start"
        ),
    )
    add_tls_arguments(m)


def _check_games(text: str) -> list[str]:
    """``check-bot --game``: one game, a comma list of them, or ``all``."""
    from croupier.games import GAMES

    names: list[str] = []
    for part in text.split(","):
        names.extend(GAMES if part.strip() == "all" else [part.strip()])
    for name in names:
        if name not in GAMES:
            raise argparse.ArgumentTypeError(
                f"{name!r} is not a game (choose from {', '.join(GAMES)}, or all)"
            )
    return list(dict.fromkeys(names))


def _build_check_bot(c: argparse.ArgumentParser) -> None:
    from croupier.cli._sandbox import add_sandbox_arguments
    from croupier.games import GAMES

    c.description = (
        "Compliance check: play a short match with CMD in one seat and the random bot in the "
        "others, then check that the bot connected, answered every decision legally and in "
        "time, stayed to the end, exited by itself after MatchEnd, and that the replay "
        "verifies. Exits 0 when every check passes, 1 otherwise."
    )
    c.add_argument(
        "bot",
        metavar="CMD",
        help="the bot's command line (stdio:CMD for a program that speaks JSON lines on stdio)",
    )
    c.add_argument(
        "--game",
        type=_check_games,
        default=["as-nas"],
        metavar="G",
        help=f"the game ({', '.join(GAMES)}), a comma list of them, or all: one match per game, "
        "played at the same time (default as-nas)",
    )
    c.add_argument("--seat", type=nonneg, default=0, help="the bot's seat (default 0)")
    c.add_argument(
        "--deals",
        type=int,
        default=3,
        metavar="N",
        help="deals to play (default 3; for the chip games: the round cap)",
    )
    c.add_argument("--players", type=int, default=None, metavar="N", help="number of seats")
    _add_clock_arguments(c, bank_ms=defaults.CHECK_BOT_BANK_MS)
    add_sandbox_arguments(c)
    c.add_argument("--seed", type=_seed, default=1, help="match seed (default 1)")
    c.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the replay and the bot's log here (default: a temporary folder)",
    )


def _no_arguments(parser: argparse.ArgumentParser) -> None:
    """``croupier games`` takes none."""


def _module_arguments(module: str) -> Callable[[argparse.ArgumentParser], None]:
    """A command whose arguments ``croupier.cli.<module>.add_arguments`` adds."""

    def build(parser: argparse.ArgumentParser) -> None:
        add: Callable[[argparse.ArgumentParser], None] = importlib.import_module(
            f"croupier.cli.{module}"
        ).add_arguments
        add(parser)

    return build


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="croupier",
        description="Croupier: a headless match engine for hidden-information card games.",
    )
    parser.add_argument("--version", action="version", version=f"croupier {__version__}")
    parser.add_argument(
        "-v",
        "--verbose",
        action="count",
        default=0,
        help="log more (-v: per match and bot, -vv: debug)",
    )
    sub = _commands(parser, dest="command", metavar="COMMAND", required=True)
    sub.add_command(
        "match", _build_match, help="run one match between bot processes and write its replay"
    )
    sub.add_command(
        "replay",
        _build_replay,
        help="inspect, verify, export, step through or compare replay files",
    )
    sub.add_command(
        "check-bot",
        _build_check_bot,
        help="check that a bot (any language) plays the protocol correctly",
    )
    sub.add_command("games", _no_arguments, help="list the games and their parameters")
    sub.add_command(
        "tournament",
        _module_arguments("_tournament"),
        help="run (or resume) a tournament from a TOML file; or print a store's standings",
    )
    sub.add_command(
        "serve",
        _module_arguments("_serve"),
        help="run the competition server: bot port, control API, registered bots, store",
    )
    sub.add_command(
        "ctl",
        _module_arguments("_ctl"),
        help="control a running `croupier serve`: matches, bots, standings, replays",
    )
    return parser


def _clock(args: argparse.Namespace) -> ClockRules:
    from croupier.arbiter import ClockKind, ClockRules

    return ClockRules(
        args.move_ms,
        args.bank_ms,
        kind=ClockKind(args.clock),
        margin_ms=args.margin_ms,
        seat_cap_ms=round(args.seat_time_cap_s * 1000),
        match_cap_ms=round(args.match_time_cap_s * 1000),
    )


def _configure_logging(verbosity: int) -> None:
    import contextlib
    import logging

    import structlog

    class _LogLines(structlog.PrintLogger):
        """Writes log lines to a stream (stderr); a line that cannot be written (a full disk
        under a redirected stderr) is dropped, never raised into the work it describes."""

        def msg(self, message: str) -> None:
            with contextlib.suppress(OSError):
                super().msg(message)

        log = debug = info = warn = warning = msg
        fatal = failure = err = error = critical = exception = msg

    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(verbosity, 2)]
    renderer = (
        structlog.dev.ConsoleRenderer(colors=False)
        if sys.stderr.isatty()
        else structlog.processors.JSONRenderer()
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=lambda *_: _LogLines(sys.stderr),
        cache_logger_on_first_use=True,
    )


def _cmd_match(args: argparse.Namespace) -> int:
    import asyncio
    import signal

    from croupier.arbiter import (
        FaultPolicy,
        MatchConfig,
        random_seed,
        searchable,
        searchable_warning,
    )
    from croupier.cli._sandbox import isolation_note, sandbox_options, warn
    from croupier.cli._tls import tls_config
    from croupier.games import get_game
    from croupier.runner import run_match
    from croupier.transport import parse_bot_command

    game = get_game(args.game)
    params = _params(game, args)
    seats = params["players"]
    if len(args.bot) > seats:
        raise ConfigError(f"{len(args.bot)} bots given for {seats} seats")
    commands = list(args.bot) or default_bots(game.info.name, seats)
    commands += ["random"] * (seats - len(commands))
    bots = [None if c == REMOTE else parse_bot_command(c) for c in commands]
    seed = args.seed if args.seed is not None else random_seed()
    if args.seed is not None and searchable(args.seed):
        print(f"croupier: warning: {searchable_warning(args.seed, '--seed')}", file=sys.stderr)
    config = MatchConfig(
        game=game.info.name,
        params=params,
        seed=seed,
        clock=_clock(args),
        connect_timeout_s=args.connect_timeout,
        fault_policy=FaultPolicy.parse(args.fault_policy),
        reconnect_grace_s=args.reconnect_grace,
        event_flush_ms=args.event_flush_ms,
    )

    sandbox = sandbox_options(args)
    warn(sandbox)
    tls = tls_config(args)

    async def main() -> MatchRun:
        cancel = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, cancel.set)
        loop.add_signal_handler(signal.SIGTERM, cancel.set)
        run = await run_match(
            config,
            bots,
            args.out,
            listen=args.listen,
            cancel=cancel,
            progress=progress,
            on_ready=announce,
            sandbox=sandbox,
            tls=tls,
        )
        if progress is not None:
            print(file=sys.stderr)
        return run

    def announce(address: str, match: Match) -> None:
        remote = [seat for seat, argv in enumerate(bots) if argv is None]
        if remote:
            over = " (TLS)" if tls is not None else ""
            print(
                f"arbiter listening on {address}{over}; remote seats may join now:",
                file=sys.stderr,
            )
            for seat in remote:
                print(f"  seat {seat}: CROUPIER_TOKEN={match.tokens[seat]}", file=sys.stderr)

    # deal games play a fixed number of deals; chip games play rounds until one is left or the cap
    total = params[game.info.length_param]
    shown = f"/{total}" if game.info.fixed_length else f" (cap {total})"
    unit = game.info.round_noun
    progress = None
    if sys.stderr.isatty():

        def progress(done: int) -> None:
            print(f"\r  {unit} {done}{shown}", end="", file=sys.stderr, flush=True)

    chosen = f"seed {seed}" if args.seed is not None else "a random seed (in the replay)"
    print(f"{game.info.title}: {seats} seats, {chosen}", file=sys.stderr)
    run = asyncio.run(main())
    for line in _standings_table(run.result, commands).splitlines():
        _say(line)
    if note := isolation_note(run.isolation):
        print(note)
    print(f"replay: {run.replay}")
    if run.result.cancelled:
        print(f"croupier: match cancelled: {run.result.cancel_reason}", file=sys.stderr)
        return EXIT_CANCELLED
    return 0


def _standings_table(result: MatchResult, commands: Sequence[str]) -> str:
    forfeits = any(r.forfeits for r in result.seats)  # a column only when there are some
    rows: list[tuple[str, ...]] = [
        ("place", "seat", "bot", "score", "ended", "timeouts", "rejected")
    ]
    if forfeits:
        rows[0] += ("forfeits",)
    for r in sorted(result.seats, key=lambda r: (r.place, r.seat)):
        name = r.bot_name or f"({commands[r.seat]})"
        row = (
            str(r.place),
            str(r.seat),
            name,
            str(r.score),
            r.outcome.value,
            str(r.timeouts),
            str(r.rejected),
        )
        rows.append((*row, str(r.forfeits)) if forfeits else row)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    title = f"match {result.match_id}" + (" (cancelled)" if result.cancelled else "")
    return "\n".join([title, *lines])


class _ReplayFailed(CroupierError):
    """A replay that cannot be read (status 2) or does not verify (status 1), with its path."""

    def __init__(self, path: Path, exc: ReplayError) -> None:
        mismatch = isinstance(exc, ReplayMismatchError)
        super().__init__(f"{path}: {exc}" + (" (the replay does not verify)" if mismatch else ""))
        self.status = 1 if mismatch else 2


def _load(path: Path) -> Replay:
    """Read a replay through the one validating reader; errors carry the path and status."""
    from croupier.replay import read_replay

    try:
        return read_replay(path, tolerate_truncated_tail=True)
    except ReplayError as exc:
        raise _ReplayFailed(path, exc) from None


def _each(paths: Sequence[Path], work: Callable[[Replay], None]) -> int:
    """``work`` on every replay that reads; each bad file is one error line and the batch goes
    on; the status is the worst: 2 if a file did not read, else 1 if one did not verify."""
    status = 0
    for path in paths:
        try:
            replay = _load(path)
        except _ReplayFailed as exc:
            print(f"croupier: error: {exc}", file=sys.stderr)
            status = max(status, exc.status)
            continue
        work(replay)
    return status


def _cmd_replay_show(args: argparse.Namespace) -> int:
    from croupier.replay import OMNISCIENT, render, select_rounds

    seat = None if args.public else OMNISCIENT if args.seat is None else args.seat
    if args.follow:
        return _follow(args, seat)
    replay = _load(args.file)
    n = len(replay.header["seats"])
    if isinstance(seat, int) and seat >= n:
        raise ConfigError(f"--seat {seat}: the match has seats 0..{n - 1}")
    if args.deal is not None:
        _check_round(replay, args.deal)
    info = replay.game.info
    rounds = select_rounds(replay, args.where) if args.where else None
    for line in render(replay, seat, args.deal, rounds):
        _say(line)
    if rounds is not None:
        shown = ", ".join(str(r + 1) for r in rounds) or "none"
        print(f"   ({len(rounds)} {info.round_noun}s match {' and '.join(args.where)}: {shown})")
    return 0


def _follow(args: argparse.Namespace, seat: int | str | None) -> int:
    from croupier.games import get_game
    from croupier.replay import Narration, follow

    if args.deal is not None or args.where:
        raise ConfigError("--follow shows every round: it takes no --round or --where")
    narration = None
    try:
        finished = False
        for rec, before, after in follow(args.file, idle_s=args.idle):
            finished = rec.type == "result"
            if narration is None:
                game = get_game(rec.data["game"])
                n = len(rec.data["seats"])
                if isinstance(seat, int) and seat >= n:
                    raise ConfigError(f"--seat {seat}: the match has seats 0..{n - 1}")
                narration = Narration(game, rec.data, after, seat)
                lines = narration.title()
            else:
                lines = [line.text for line in narration.feed(rec, before, after)]
            for line in lines:
                print(printable(line), flush=True)
        if not finished:
            print("   (the replay ends here: the match did not finish)")
    except ReplayError as exc:
        raise _ReplayFailed(args.file, exc) from None
    except KeyboardInterrupt:
        return 130
    return 0


def _check_round(replay: Replay, number: int) -> None:
    """``--deal N`` names a deal (a round, in the chip games) the replay holds: one that ended,
    or the one in progress where the file stops."""
    ended = sum(1 for rec in replay.records if rec.type == "round_end")
    last = replay.records[-1].type if replay.records else "round_end"
    played = ended + (not replay.complete and last != "round_end")
    noun = replay.game.info.round_noun
    if not 1 <= number <= played:
        held = f"{noun}s 1..{played}" if played else f"no {noun}"
        # the wire counts from 0 (deal_index, round): say how the two numberings meet
        wire = f" (numbered from 1: the wire's {noun} 0 is {noun} 1)" if number == 0 else ""
        raise ConfigError(f"--deal {number}: the replay holds {held}{wire}")


def _cmd_replay_summary(args: argparse.Namespace) -> int:
    import json

    from croupier.replay import summarize, summary_data

    def one(replay: Replay) -> None:
        if args.json:
            print(json.dumps(summary_data(replay), ensure_ascii=False))
        else:
            for line in summarize(replay):
                _say(line)

    return _each(args.files, one)


def _cmd_replay_verify(args: argparse.Namespace) -> int:
    from croupier.replay import read_replay, verify

    status = 0
    for path in args.files:
        try:
            replay = read_replay(path, tolerate_truncated_tail=True)
            report = verify(replay)
        except ReplayMismatchError as exc:
            status = max(status, 1)
            _say(f"FAIL {path}: {exc}")
            continue
        except ReplayError as exc:
            status = 2
            print(f"croupier: error: {path}: {exc}", file=sys.stderr)
            continue
        if args.require_bound and report.unbound:
            status = max(status, 1)
            _say(f"FAIL {path}: {report.describe()} (--require-bound)")
            continue
        scores = " ".join(str(s) for s in report.scores)
        unit = replay.game.info.round_noun
        print(
            f"ok   {path}: {report.steps} steps, {report.rounds} {unit}s, scores {scores}, "
            f"{report.status}; {report.describe()}"
        )
    return status


def _cmd_replay_export(args: argparse.Namespace) -> int:
    from croupier.replay import Tables, check_parquet, destinations, write_table

    targets = destinations(args.to, args.format, args.table)
    if any(fmt == "parquet" for _, _, fmt in targets):
        check_parquet()
    tables = Tables()
    status = _each(args.files, tables.add_replay)
    for table, path, fmt in targets:
        write_table(tables, table, path, fmt)
        print(f"{path}: {tables.rows(table)} {table}")
    return status


def _cmd_replay_step(args: argparse.Namespace) -> int:
    from croupier.replay import Walk

    replay = _load(args.file)
    walk = Walk(replay, args.seat)
    if not len(walk):
        print("no decisions to step through")
        return 0
    tty = sys.stdin.isatty()
    unit = replay.game.info.round_noun
    k = 0
    show = True
    while True:
        if show:
            print("\n".join(walk.view(k)), flush=True)
        if tty:
            print("step> [n]ext [p]revious [r N] round [d N] decision [q]uit: ", end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            return 0
        command, _, arg = line.strip().partition(" ")
        show = True
        if command in ("", "n", "next"):
            if k + 1 < len(walk):
                k += 1
            else:
                print("   (the last decision)")
                show = False
        elif command in ("p", "prev", "previous"):
            if k > 0:
                k -= 1
            else:
                print("   (the first decision)")
                show = False
        elif command in ("r", "round", "d", "decision") and arg.strip().isdigit():
            n = int(arg)
            target = walk.first_of_round(n - 1) if command[0] == "r" else n - 1
            if target is None or not 0 <= target < len(walk):
                what = f"{unit} {n}" if command[0] == "r" else f"decision {n}"
                print(f"   (no {what} to step to: decisions 1..{len(walk)})")
                show = False
            else:
                k = target
        elif command in ("q", "quit", "exit"):
            return 0
        else:
            print("   commands: n (next), p (previous), r N (round N), d N (decision N), q (quit)")
            show = False


def signed(value: Fraction) -> str:
    """A score difference with its sign: ``+3``, ``-1/2``, ``0``."""
    return f"+{value}" if value > 0 else str(value)


def _cmd_replay_diff(args: argparse.Namespace) -> int:
    from fractions import Fraction

    from croupier.replay import by_bot, diff, seat_names

    a, b = _load(args.a), _load(args.b)
    rounds = diff(a, b)
    unit = a.game.info.round_noun
    print(f"diff {args.a} {args.b}: {a.header['game']}, {len(rounds)} {unit}s")
    total: list[Fraction] = [Fraction(0)] * len(a.header["seats"])
    same = 0
    for r in rounds:
        head = f"{unit} {r.round + 1}"
        if r.only is not None:
            print(f"{head}: only in {r.only}")
            continue
        deal = "" if r.same_deal else " (different deals)"
        if r.first is None:
            same += 1
            what = "same actions"
        else:

            def move(m: Any) -> str:
                return "(no more actions)" if m is None else f"seat {m.seat} {m.label}"

            at = r.a or r.b
            step = at.step if at is not None else "?"
            what = (
                f"first differs at action {r.first + 1} (step {step}): "
                f"A {move(r.a)} · B {move(r.b)}"
            )
        delta = ""
        if r.delta is not None:
            total = [t + d for t, d in zip(total, r.delta, strict=True)]
            delta = "; A−B " + " ".join(signed(d) for d in r.delta)
        print(f"{head}{deal}: {what}{delta}")
    alike = f"{same} of {len(rounds)} {unit}s played alike"
    print(f"total A−B: {' '.join(signed(t) for t in total)} ({alike})")
    if (bots := by_bot(a, b, rounds)) is not None and seat_names(a) != seat_names(b):
        # two seatings of a duplicate set: the same bots in other seats
        print("total A−B by bot: " + "  ".join(f"{n} {signed(t)}" for n, t in bots.items()))
    return 0


def _cmd_check_bot(args: argparse.Namespace) -> int:
    import asyncio

    from croupier.arbiter import MatchConfig
    from croupier.cli._sandbox import isolation_note, sandbox_options, warn
    from croupier.compliance import Report, Status, check_bot
    from croupier.games import get_game

    configs = []
    for name in args.game:
        game = get_game(name)
        configs.append(
            MatchConfig(
                game=game.info.name,
                params=_params(game, args),
                seed=args.seed,
                clock=_clock(args),
                connect_timeout_s=args.connect_timeout,
            )
        )
    sandbox = sandbox_options(args)
    warn(sandbox)

    async def check_all() -> list[Report]:
        # one match per game, at the same time (each its own files under --out/GAME)
        many = len(configs) > 1
        async with asyncio.TaskGroup() as tg:
            tasks = [
                tg.create_task(
                    check_bot(
                        args.bot,
                        config,
                        seat=args.seat,
                        out=args.out / config.game if many and args.out else args.out,
                        sandbox=sandbox,
                    )
                )
                for config in configs
            ]
        return [t.result() for t in tasks]

    try:
        reports = asyncio.run(check_all())
    except ExceptionGroup as group:  # a seat or a command it refuses: the same in every game
        raise group.exceptions[0] from None
    for report in reports:
        _say(
            f"check-bot: {report.bot_name} in seat {report.seat} of {report.game}, "
            f"{report.decisions} decisions, {report.rounds} "
            f"{get_game(report.game).info.round_noun}s"
        )
        for check in report.checks:
            why = f": {check.detail}" if check.status is Status.FAILED else ""
            _say(f"  {check.status.value:<4} {check.name}{why}")
        for hint in report.hints:
            _say(f"  hint: {hint}")
        if report.failed and report.log_tail:
            _say("  last lines of the bot's log:")
            for line in report.log_tail:
                _say(f"    {line}")
        if note := isolation_note(report.isolation):
            print(f"  {note}")
        if report.replay is not None:
            print(f"replay: {report.replay}")
        print(f"{report.passed} passed, {report.failed} failed")
    failed = sum(r.failed for r in reports)
    if len(reports) > 1:
        passed = sum(r.passed for r in reports)
        print(f"{len(reports)} games: {passed} passed, {failed} failed")
    return 1 if failed else 0


def _cmd_games(args: argparse.Namespace) -> int:
    from croupier.games import GAMES, get_game

    for name in GAMES:
        info = get_game(name).info
        print(
            f"{name}: {info.title} (rules v{info.version}, {info.min_players}-{info.max_players} "
            f"players; rules: {info.rules_doc})"
        )
        for p in info.params:
            print(f"    {p.name}={p.default}  [{p.low}..{p.high}]  {p.doc}")
    return 0


def _module_run(module: str) -> Callable[[argparse.Namespace], int]:
    """The handler ``croupier.cli.<module>.run``, imported when its command runs."""

    def run(args: argparse.Namespace) -> int:
        handler: Callable[[argparse.Namespace], int] = importlib.import_module(
            f"croupier.cli.{module}"
        ).run
        return handler(args)

    return run


#: Commands that only read files and print (the replay actions, ``games``): they run no match
#: and no server, log nothing, and so leave structlog unimported.
_OFFLINE = frozenset({"show", "verify", "summary", "export", "step", "diff", "games"})


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``croupier`` console script."""
    words = list(sys.argv[1:] if argv is None else argv)
    if "tournament" in words:  # (the tournament module is imported for that command only)
        from croupier.cli import _tournament

        if _tournament.wants_standings_help(words):
            _tournament.standings_parser().print_help()
            return 0
    args = build_parser().parse_args(argv)
    key = args.replay_command if args.command == "replay" else args.command
    if key not in _OFFLINE:
        _configure_logging(args.verbose)
    handlers: dict[str, Callable[[argparse.Namespace], int]] = {
        "match": _cmd_match,
        "games": _cmd_games,
        "check-bot": _cmd_check_bot,
        "show": _cmd_replay_show,
        "verify": _cmd_replay_verify,
        "summary": _cmd_replay_summary,
        "tournament": _module_run("_tournament"),
        "serve": _module_run("_serve"),
        "ctl": _module_run("_ctl"),
        "export": _cmd_replay_export,
        "step": _cmd_replay_step,
        "diff": _cmd_replay_diff,
    }
    try:
        return handlers[key](args)
    except CroupierError as exc:
        print(f"croupier: error: {printable(str(exc))}", file=sys.stderr)
        status = getattr(exc, "status", None)  # _ReplayFailed, ctl's errors: their own status
        return status if isinstance(status, int) else EXIT_USER_ERROR
    except BrokenPipeError:  # `croupier replay show … | head`
        return 0


if __name__ == "__main__":
    sys.exit(main())
