"""``croupier match``: one match between bot processes started here (or dialling in), its
standings and its replay."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from croupier import _defaults as defaults
from croupier.cli._args import (
    _flush_ms,
    _listen,
    _param,
    _seconds,
    _seed,
    add_clock_arguments,
    clock_rules,
    game_params,
)
from croupier.cli._output import EXIT_CANCELLED, say
from croupier.errors import ConfigError

if TYPE_CHECKING:  # (annotations only: the command imports what it runs, when it runs)
    from croupier.arbiter import Match, MatchResult
    from croupier.runner import MatchRun
    from croupier.serve import HumanDesk, WebServer

#: The ``--bot`` value for a seat whose bot is not launched here but dials in with its token.
REMOTE = "remote"
#: The ``--bot`` value for a seat a person plays in the browser (``croupier.serve.HUMAN``).
HUMAN = "human"
#: The clocks when a person holds a seat and no ``--move-ms`` / ``--bank-ms`` is given (the
#: same for every seat: the arbiter charges a human as it charges a bot).
HUMAN_MOVE_MS, HUMAN_BANK_MS = 30_000, 120_000
#: How long the page server stays up after the match, for the pages to be sent the match end.
HUMAN_LINGER_S = 10.0


class _Default(int):
    """A clock flag's default, told apart from the same number given on the command line."""


def default_bots(game: str, seats: int) -> list[str]:
    """The bundled line-up for ``seats`` seats: the game's bots (its spec's line-up) repeated
    in seat order."""
    from croupier.games import get_spec

    pattern = get_spec(game).bots.lineup
    return [pattern[i % len(pattern)] for i in range(seats)]


def add_arguments(m: argparse.ArgumentParser) -> None:
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
            "stdin and stdout; 'remote' for a bot that dials in by itself; or 'human' for a "
            "seat you play in the browser, at the URL printed at the start); "
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
    add_clock_arguments(m, bank_ms=defaults.BANK_MS)
    for action in m._actions:  # a human seat gets a person's clocks unless they are given
        if action.dest in ("move_ms", "bank_ms"):
            human = HUMAN_MOVE_MS if action.dest == "move_ms" else HUMAN_BANK_MS
            action.help = f"{(action.help or '')[:-1]}; {human} with a --bot human seat)"
            action.default = _Default(action.default)
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
    m.add_argument(
        "--play-listen",
        type=_listen,
        default=None,
        metavar="HOST:PORT",
        help=(
            "where the page of the --bot human seats listens (default: a free loopback port; "
            "the URL is printed at the start; an error without a --bot human seat)"
        ),
    )
    add_tls_arguments(m)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import dataclasses
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
    from croupier.transport import parse_bot_command, sandbox_private_refusal

    game = get_game(args.game)
    params = game_params(game, args)
    seats = params["players"]
    if len(args.bot) > seats:
        raise ConfigError(f"{len(args.bot)} bots given for {seats} seats")
    commands = list(args.bot) or default_bots(game.info.name, seats)
    commands += ["random"] * (seats - len(commands))
    humans = [seat for seat, c in enumerate(commands) if c == HUMAN]
    bots = [None if c in (REMOTE, HUMAN) else parse_bot_command(c) for c in commands]
    if args.play_listen is not None and not humans:  # (not ignored: the page would not be up)
        raise ConfigError(
            "--play-listen is where the page of --bot human seats listens, and no seat is human"
        )
    if humans and args.tls_cert is not None:
        raise ConfigError("--bot human plays over a plaintext loopback arbiter: drop --tls-cert")
    has_remote = REMOTE in commands
    for warning in _plaintext_warnings(args, has_remote, bool(humans)):  # (said, not refused)
        print(f"croupier: warning: {warning}", file=sys.stderr)
    if humans and isinstance(args.move_ms, _Default):
        args.move_ms = HUMAN_MOVE_MS
    if humans and isinstance(args.bank_ms, _Default):
        args.bank_ms = HUMAN_BANK_MS
    seed = args.seed if args.seed is not None else random_seed()
    if args.seed is not None and searchable(args.seed):
        print(f"croupier: warning: {searchable_warning(args.seed, '--seed')}", file=sys.stderr)
    config = MatchConfig(
        game=game.info.name,
        params=params,
        seed=seed,
        clock=clock_rules(args),
        connect_timeout_s=args.connect_timeout,
        fault_policy=FaultPolicy.parse(args.fault_policy),
        reconnect_grace_s=args.reconnect_grace,
        event_flush_ms=args.event_flush_ms,
    )

    sandbox = sandbox_options(args)
    warn(sandbox)
    tls = tls_config(args)
    if tls is not None:  # the listener's private key: no bot's to see
        sandbox = dataclasses.replace(sandbox, forbidden=(*sandbox.forbidden, tls.key))
        if problem := sandbox_private_refusal(sandbox):
            raise ConfigError(problem)

    async def main() -> MatchRun:
        cancel = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, cancel.set)
        loop.add_signal_handler(signal.SIGTERM, cancel.set)
        page = await _HumanPage.start(args.play_listen or "127.0.0.1:0") if humans else None
        try:
            run = await run_match(
                config,
                bots,
                args.out,
                listen=args.listen,
                cancel=cancel,
                progress=progress,
                on_ready=lambda address, match: announce(address, match, page),
                sandbox=sandbox,
                tls=tls,
            )
            if page is not None:
                await page.linger(HUMAN_LINGER_S)
        finally:
            if page is not None:
                await page.stop()
        if progress is not None:
            print(file=sys.stderr)
        return run

    def announce(address: str, match: Match, page: _HumanPage | None) -> None:
        if page is not None:
            page.desk.address = address  # a --bot remote seat's token may be pasted in the page
            for seat in humans:
                url = page.open(address, match.tokens[seat])
                print(f"seat {seat} is yours: open {url}", file=sys.stderr, flush=True)
        remote = [seat for seat, c in enumerate(commands) if c == REMOTE]
        if remote:
            over = " (TLS)" if tls is not None else ""
            print(
                f"arbiter listening on {address}{over}; remote seats may join now:",
                file=sys.stderr,
            )
            for seat in remote:
                print(f"  seat {seat}: CROUPIER_TOKEN={match.tokens[seat]}", file=sys.stderr)
            if page is not None:
                print(f"  (or paste one at {page.url}/play to play it)", file=sys.stderr)

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
        say(line)
    if note := isolation_note(run.isolation):
        print(note)
    print(f"replay: {run.replay}")
    if run.result.cancelled:
        print(f"croupier: match cancelled: {run.result.cancel_reason}", file=sys.stderr)
        return EXIT_CANCELLED
    return 0


def _plaintext_warnings(args: argparse.Namespace, remote: bool, humans: bool) -> list[str]:
    """One line for each port of this match that others reach to play and that speaks plaintext:
    the arbiter's for ``--bot remote`` seats (``--listen`` without ``--tls-cert``: their seat
    tokens cross the network in clear) and the human seats' page (``--play-listen``, plain
    HTTP)."""
    from croupier.transport import is_loopback  # (imported by run() already)

    out = []
    if remote and args.tls_cert is None and not is_loopback(args.listen):
        out.append(
            f"--listen {args.listen} is not a loopback address and the arbiter speaks "
            "plaintext: anyone on the network path can read the seat tokens and play those "
            "seats (--tls-cert and --tls-key make it TLS)"
        )
    if humans and args.play_listen is not None and not is_loopback(args.play_listen):
        out.append(
            f"--play-listen {args.play_listen} is not a loopback address and the page is plain "
            "HTTP: anyone on the network path can read a seat's link and play that seat"
        )
    return out


class _HumanPage:
    """The page of this match's human seats: a web server on ``listen`` serving them alone."""

    def __init__(self, desk: HumanDesk, web: WebServer) -> None:
        self.desk, self.web = desk, web

    @classmethod
    async def start(cls, listen: str) -> _HumanPage:
        from croupier.serve import HumanDesk, WebServer

        host, _, port = listen.rpartition(":")
        desk = HumanDesk()
        web = WebServer(None, host.strip("[]"), int(port), human=desk)
        try:
            await web.start()
        except OSError as exc:
            raise ConfigError(f"--play-listen {listen}: {exc.strerror or exc}") from None
        return cls(desk, web)

    @property
    def url(self) -> str:
        host = self.web.host if ":" not in self.web.host else f"[{self.web.host}]"
        return f"{self.web.scheme}://{host}:{self.web.port}"

    def open(self, address: str, token: str) -> str:
        seat = self.desk.open(address, token)
        return f"{self.url}/play#{seat.secret}"

    async def linger(self, seconds: float) -> None:
        """Wait (at most ``seconds``) for every seat's page to have been sent the match end."""
        import asyncio

        waits = [asyncio.ensure_future(seat.delivered.wait()) for seat in self.desk.seats()]
        if waits:
            _, pending = await asyncio.wait(waits, timeout=seconds)
            for task in pending:
                task.cancel()

    async def stop(self) -> None:
        await self.web.stop()
        await self.desk.close()


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
