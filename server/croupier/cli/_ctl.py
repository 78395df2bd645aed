"""``croupier ctl``: the operator's command-line client of a server's control API
(``docs/server.md``, "croupier ctl"). Parsing and printing only; every call is one gRPC call.

Exit statuses: 0 success; 1 a check failed (``replay fetch``: the bytes do not match the
SHA-256 the server sent); 2 an error you can cause (bad arguments, no such match or bot, a
request the server refuses as invalid or out of state); 3 ``watch``: the match was cancelled
or cut off; 4 refused (the key is unknown, or not allowed to do that); 5 the server cannot be
reached (or did not answer in time).
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import importlib
import json
import os
import sys
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import grpc

from croupier.cli._args import nonneg
from croupier.cli._output import EXIT_CHECK_FAILED, EXIT_USER_ERROR, printable
from croupier.errors import ConfigError, CroupierError
from croupier.v1 import control_pb2, control_pb2_grpc

#: Where ``ctl`` calls unless told (``--address``, ``CROUPIER_CONTROL_ADDRESS``).
DEFAULT_ADDRESS = "127.0.0.1:7071"
ENV_ADDRESS = "CROUPIER_CONTROL_ADDRESS"
#: The key ``ctl`` presents unless ``--key``/``--key-file`` says otherwise.
ENV_KEY = "CROUPIER_KEY"
#: Seconds one unary call may take.
CALL_TIMEOUT_S = 30.0

EXIT_REFUSED = 4
EXIT_UNREACHABLE = 5

_STATES = {
    "pending": control_pb2.MATCH_STATE_PENDING,
    "running": control_pb2.MATCH_STATE_RUNNING,
    "finished": control_pb2.MATCH_STATE_FINISHED,
    "cancelled": control_pb2.MATCH_STATE_CANCELLED,
    "aborted": control_pb2.MATCH_STATE_ABORTED,
}
_STATE_NAMES = {v: k for k, v in _STATES.items()}
_OUTCOMES = {1: "normal", 2: "timeouts", 3: "illegal_actions", 4: "disconnected"}


class CtlError(CroupierError):
    """A failed ``ctl`` command, with its exit status."""

    def __init__(self, message: str, status: int = EXIT_USER_ERROR) -> None:
        super().__init__(message)
        self.status = status


_REFUSED = {grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.PERMISSION_DENIED}
_UNREACHABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}


def rpc_error(exc: grpc.RpcError, address: str) -> CtlError:
    """One line (and its status) for a failed call."""
    code = exc.code() if hasattr(exc, "code") else grpc.StatusCode.UNKNOWN
    details = (exc.details() if hasattr(exc, "details") else "") or ""
    if code in _UNREACHABLE:
        return CtlError(
            f"cannot reach the server at {address}: {details or code.name}", EXIT_UNREACHABLE
        )
    status = EXIT_REFUSED if code in _REFUSED else EXIT_USER_ERROR
    return CtlError(f"{code.name.lower()}: {details}", status)


def add_arguments(c: argparse.ArgumentParser) -> None:
    """``croupier ctl``'s description, arguments and commands (its help line is the CLI's)."""
    c.description = (
        "croupier ctl calls a server's control API. The key is taken from --key, "
        f"--key-file or ${ENV_KEY} (operators: the server's operator key file)."
    )
    c.add_argument(
        "--address",
        default=None,
        metavar="HOST:PORT",
        help=f"the control port (default: ${ENV_ADDRESS} or {DEFAULT_ADDRESS})",
    )
    c.add_argument("--key", default=None, help=f"the key to present (default: ${ENV_KEY})")
    c.add_argument("--key-file", type=Path, default=None, metavar="FILE", help="read the key")
    c.add_argument(
        "--tls-ca", type=Path, default=None, metavar="FILE", help="TLS: the CA to trust (PEM)"
    )
    c.add_argument("--json", action="store_true", help="print JSON instead of tables")
    # --json is taken after the command too (`croupier ctl list --json`)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help="print JSON instead of tables",
    )
    cs = c.add_subparsers(dest="ctl_command", required=True, metavar="COMMAND")

    ls = cs.add_parser("list", parents=[common], help="list matches, newest first")
    ls.add_argument("--state", choices=sorted(_STATES), default=None)
    ls.add_argument("--limit", type=int, default=50)
    show = cs.add_parser("show", parents=[common], help="one match: its seats and results")
    show.add_argument("match")
    watch = cs.add_parser("watch", parents=[common], help="watch a match live (its public view)")
    watch.add_argument("match")
    watch.add_argument("--seat", type=_uint32, default=None, help="your own seat's view")
    watch.add_argument("--delay-decisions", type=_uint32, default=0, metavar="N")
    watch.add_argument("--delay-rounds", type=_uint32, default=0, metavar="N")
    cancel = cs.add_parser("cancel", parents=[common], help="cancel a pending or running match")
    cancel.add_argument("match")
    create = cs.add_parser(
        "create", parents=[common], help="create a match between registered or bundled bots"
    )
    create.add_argument("--game", required=True)
    create.add_argument(
        "--bot", action="append", required=True, help="per seat: a registered name or bundled:NAME"
    )
    create.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    create.add_argument(
        "--seed", type=int, default=0, help="a reproducible seed (default 0: a secret one)"
    )
    create.add_argument("--wait", action="store_true", help="wait for its end and show it")
    st = cs.add_parser(
        "standings", parents=[common], help="the ladder's (or a tournament's) standings"
    )
    st.add_argument("--tournament", default="")
    rp = cs.add_parser("replay", help="replays")
    rps = rp.add_subparsers(dest="replay_command", required=True, metavar="COMMAND")
    fetch = rps.add_parser(
        "fetch", parents=[common], help="download a finished match's replay, SHA-256 checked"
    )
    fetch.add_argument("match")
    fetch.add_argument("--out", type=Path, default=None, metavar="FILE")
    seat = cs.add_parser(
        "seat",
        parents=[common],
        help="one seat of an ended match as it saw it (your own bot's seats), or its --log",
    )
    seat.add_argument("match", help="the match id (ctl list)")
    seat.add_argument("seat", type=_uint32, help="the seat number, from 0")
    seat.add_argument(
        "--log", action="store_true", help="the seat's log: faults, result, a launched bot's stderr"
    )
    cs.add_parser("bots", parents=[common], help="the registered bots and who is connected")
    reg = cs.add_parser("register", parents=[common], help="register a bot; prints its key once")
    reg.add_argument("name")
    reg.add_argument("--owner", default="", help="who is responsible (shown to operators only)")
    reg.add_argument(
        "--game",
        action="append",
        default=[],
        dest="games",
        metavar="GAME",
        help="a game it plays (repeat; none: every game); it is seated only in these",
    )
    for command, what in (
        ("revoke", "revoke a bot's key for good: its session and seats end at once"),
        ("rotate", "give a bot a new key (printed once): the old one stops, its session ends"),
        ("disable", "disable a bot: not seated, its key opens no session (history stays)"),
        ("enable", "enable a disabled bot again"),
    ):
        cs.add_parser(command, parents=[common], help=what).add_argument("name")
    games = cs.add_parser("games", parents=[common], help="set the games a bot plays")
    games.add_argument("name")
    which = games.add_mutually_exclusive_group(required=True)
    which.add_argument(
        "--game", action="append", dest="games", metavar="GAME", help="a game it plays (repeat)"
    )
    which.add_argument("--all", action="store_true", help="every game")
    tour = cs.add_parser(
        "tournament", parents=[common], help="start a tournament from a TOML file on the server"
    )
    tour.add_argument("config", type=Path)


def _uint32(text: str) -> int:
    """An argparse type: a seat or a count the protocol carries as a uint32."""
    value = nonneg(text)
    if value > 0xFFFF_FFFF:
        raise argparse.ArgumentTypeError(f"{value} is more than {0xFFFF_FFFF}")
    return value


def _channel(args: argparse.Namespace) -> tuple[grpc.Channel, str]:
    address = args.address or os.environ.get(ENV_ADDRESS) or DEFAULT_ADDRESS
    port = address.rpartition(":")[2]
    if port.isdigit() and not 0 < int(port) <= 65535:  # (gRPC would dial it modulo 65536)
        given = "--address" if args.address else f"${ENV_ADDRESS}"
        raise ConfigError(f"{given} {address!r}: the port is not from 1 to 65535")
    if args.tls_ca is not None:
        try:
            ca = args.tls_ca.read_bytes()
        except OSError as exc:
            raise ConfigError(f"cannot read {args.tls_ca}: {exc.strerror or exc}") from None
        return grpc.secure_channel(address, grpc.ssl_channel_credentials(ca)), address
    return grpc.insecure_channel(address), address


def _key(args: argparse.Namespace) -> str | None:
    if args.key:
        return str(args.key)
    if args.key_file is not None:
        path: Path = args.key_file
        try:
            return path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    env = os.environ.get(ENV_KEY, "")
    return env or None


def _ms(value: int) -> str:
    if not value:
        return "-"
    stamp = dt.datetime.fromtimestamp(value / 1000, dt.UTC)
    return stamp.strftime("%Y-%m-%d %H:%M:%S")


def _score(score: Any) -> str:
    return str(Fraction(score.numerator, score.denominator or 1))


def _info_dict(m: control_pb2.MatchInfo) -> dict[str, Any]:
    return {
        "match_id": m.match_id,
        "game": m.game,
        "params": dict(m.params),
        "state": _STATE_NAMES.get(m.state, "unknown"),
        "tournament": m.tournament,
        "decisions": m.decisions,
        "created_unix_ms": m.created_unix_ms,
        "started_unix_ms": m.started_unix_ms,
        "ended_unix_ms": m.ended_unix_ms,
        "seats": [
            {
                "seat": s.seat,
                "bot": s.bot_name,
                **(
                    {
                        "score": _score(s.result.score),
                        "place": s.result.place,
                        "outcome": _OUTCOMES.get(s.result.outcome, "unknown"),
                        "timeouts": s.result.timeouts,
                        "rejected": s.result.rejected,
                    }
                    if s.HasField("result")
                    else {}
                ),
            }
            for s in m.seats
        ],
    }


def _show(m: control_pb2.MatchInfo) -> None:
    say = print
    say(printable(f"match {m.match_id}  {m.game}  {_STATE_NAMES.get(m.state, '?')}"))
    if m.tournament:
        say(printable(f"tournament {m.tournament}"))
    params = " ".join(f"{k}={v}" for k, v in sorted(m.params.items()))
    say(f"params {params}")
    say(
        f"created {_ms(m.created_unix_ms)}  started {_ms(m.started_unix_ms)}  "
        f"ended {_ms(m.ended_unix_ms)}  decisions {m.decisions}"
    )
    say(f"{'seat':<5} {'bot':<24} {'score':>8} {'place':>5}  outcome")
    for s in m.seats:
        if s.HasField("result"):
            r = s.result
            tail = f"{_score(r.score):>8} {r.place:>5}  {_OUTCOMES.get(r.outcome, '?')}"
        else:
            tail = f"{'-':>8} {'-':>5}  -"
        say(printable(f"{s.seat:<5} {s.bot_name:<24} {tail}"))


def run(args: argparse.Namespace) -> int:
    channel, address = _channel(args)
    key = _key(args)
    metadata = (("authorization", f"Bearer {key}"),) if key else ()
    stub = control_pb2_grpc.ControlServiceStub(channel)  # type: ignore[no-untyped-call]
    command: Callable[[Any, argparse.Namespace, Any], int] = _COMMANDS[args.ctl_command]
    try:
        return command(stub, args, metadata)
    except grpc.RpcError as exc:
        raise rpc_error(exc, address) from None
    finally:
        channel.close()


def _list(stub: Any, args: argparse.Namespace, md: Any) -> int:
    if not 1 <= args.limit <= 1000:
        raise ConfigError(f"--limit {args.limit}: must be from 1 to 1000")
    request = control_pb2.ListMatchesRequest(limit=args.limit)
    if args.state:
        request.state = _STATES[args.state]
    response = stub.ListMatches(request, metadata=md, timeout=CALL_TIMEOUT_S)
    if args.json:
        print(json.dumps([_info_dict(m) for m in response.matches], indent=2))
        return 0
    print(f"{'match':<34} {'game':<8} {'state':<10} {'decisions':>9}  bots")
    for m in response.matches:
        bots = ", ".join(s.bot_name for s in m.seats)
        state = _STATE_NAMES.get(m.state, "?")
        print(printable(f"{m.match_id:<34} {m.game:<8} {state:<10} {m.decisions:>9}  {bots}"))
    return 0


def _show_cmd(stub: Any, args: argparse.Namespace, md: Any) -> int:
    response = stub.GetMatch(
        control_pb2.GetMatchRequest(match_id=args.match), metadata=md, timeout=CALL_TIMEOUT_S
    )
    if args.json:
        print(json.dumps(_info_dict(response.match), indent=2))
    else:
        _show(response.match)
    return 0


def _cancel(stub: Any, args: argparse.Namespace, md: Any) -> int:
    response = stub.CancelMatch(
        control_pb2.CancelMatchRequest(match_id=args.match), metadata=md, timeout=CALL_TIMEOUT_S
    )
    if args.json:
        print(json.dumps(_info_dict(response.match), indent=2))
    else:
        print(printable(f"{response.match.match_id}: {_STATE_NAMES.get(response.match.state)}"))
    return 0


def _param(text: str) -> tuple[str, int]:
    name, sep, value = text.partition("=")
    try:
        if not sep:
            raise ValueError
        return name.strip(), int(value)
    except ValueError:
        raise ConfigError(f"--param {text!r}: expected NAME=INTEGER") from None


def _create(stub: Any, args: argparse.Namespace, md: Any) -> int:
    if not 0 <= args.seed < 1 << 64:
        raise ConfigError(f"--seed {args.seed}: must be from 0 to 2**64 - 1 (0: a secret one)")
    if args.seed and args.seed < 1 << 96:  # (the arbiter's searchable(), without its imports)
        from croupier.arbiter import searchable_warning

        print(f"croupier: warning: {searchable_warning(args.seed, '--seed')}", file=sys.stderr)
    request = control_pb2.CreateMatchRequest(
        game=args.game, bots=args.bot, params=dict(_param(p) for p in args.param), seed=args.seed
    )
    match = stub.CreateMatch(request, metadata=md, timeout=CALL_TIMEOUT_S).match
    if args.wait:
        import time

        while match.state in (control_pb2.MATCH_STATE_PENDING, control_pb2.MATCH_STATE_RUNNING):
            time.sleep(0.2)
            match = stub.GetMatch(
                control_pb2.GetMatchRequest(match_id=match.match_id),
                metadata=md,
                timeout=CALL_TIMEOUT_S,
            ).match
    if args.json:
        print(json.dumps(_info_dict(match), indent=2))
    elif args.wait:
        _show(match)
    else:
        print(match.match_id)
    return 0


def _standings(stub: Any, args: argparse.Namespace, md: Any) -> int:
    response = stub.GetStandings(
        control_pb2.GetStandingsRequest(tournament=args.tournament),
        metadata=md,
        timeout=CALL_TIMEOUT_S,
    )
    if args.json:
        rows = [
            {
                "rank": r.rank,
                "bot": r.bot_name,
                "mu": r.mu,
                "sigma": r.sigma,
                "matches": r.matches,
                "mean_score": r.mean_score,
                "mean_score_ci95": r.mean_score_ci95,
                "faults": r.faults,
            }
            for r in response.rows
        ]
        out = {"game": response.game, "rows": rows}
        if response.isolation_warning:
            out["isolation_warning"] = response.isolation_warning
        print(json.dumps(out, indent=2))
        return 0
    print(printable(f"standings: {response.game or '(no finished matches)'}"))
    if response.isolation_warning:
        print(printable(f"warning: {response.isolation_warning}"))
    print(
        f"{'rank':>4}  {'bot':<24} {'mu':>7} {'sigma':>6} {'matches':>7} {'score/round':>15} faults"
    )
    for r in response.rows:
        score = f"{r.mean_score:+.2f} ±{r.mean_score_ci95:.2f}"
        print(
            printable(
                f"{r.rank:>4}  {r.bot_name:<24} {r.mu:7.2f} {r.sigma:6.2f} {r.matches:>7} "
                f"{score:>15} {r.faults}"
            )
        )
    return 0


def _replay(stub: Any, args: argparse.Namespace, md: Any) -> int:
    out: Path = args.out or Path(f"{args.match}.jsonl")
    digest = hashlib.sha256()
    expected = ""
    chunks = []
    for i, piece in enumerate(
        stub.FetchReplay(
            control_pb2.FetchReplayRequest(match_id=args.match), metadata=md, timeout=600
        )
    ):
        if i == 0:
            expected = piece.sha256
        digest.update(piece.chunk)
        chunks.append(piece.chunk)
    got = digest.hexdigest()
    if not expected or got != expected:
        raise CtlError(
            f"the replay's SHA-256 is {got}, the server said {expected or 'nothing'}: not written",
            EXIT_CHECK_FAILED,
        )
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
    except OSError as exc:
        raise ConfigError(f"cannot write {out}: {exc.strerror or exc}") from None
    print(printable(f"{out}: sha256 {got} ok"))
    return 0


def _seat(stub: Any, args: argparse.Namespace, md: Any) -> int:
    if args.log:
        request = control_pb2.FetchSeatLogRequest(match_id=args.match, seat=args.seat)
        data = b"".join(
            p.chunk for p in stub.FetchSeatLog(request, metadata=md, timeout=CALL_TIMEOUT_S)
        )
        for line in data.decode("utf-8", "replace").splitlines():  # (a bot's bytes: escaped)
            print(printable(line))
        return 0
    view = control_pb2.FetchSeatViewRequest(match_id=args.match, seat=args.seat)
    lines = [line for p in stub.FetchSeatView(view, metadata=md, timeout=600) for line in p.lines]
    if getattr(args, "json", False):
        print(json.dumps({"match_id": args.match, "seat": args.seat, "lines": lines}))
    else:
        for line in lines:
            print(printable(line))
    return 0


def _key_state(b: control_pb2.BotInfo) -> str:
    return "revoked" if b.key_revoked else "disabled" if b.disabled else "active"


def _bot_dict(b: control_pb2.BotInfo) -> dict[str, Any]:
    return {
        "bot": b.bot_name,
        "owner": b.owner,  # (empty unless the key is an operator's)
        "games": list(b.games),  # (empty: every game)
        "key": _key_state(b),
        "connected": b.connected,
        "version": b.bot_version,
        "reported_name": b.reported_name,
    }


def _bots(stub: Any, args: argparse.Namespace, md: Any) -> int:
    response = stub.ListBots(control_pb2.ListBotsRequest(), metadata=md, timeout=CALL_TIMEOUT_S)
    if args.json:
        print(json.dumps([_bot_dict(b) for b in response.bots], indent=2))
        return 0
    owners = any(b.owner for b in response.bots)  # (an operator's key: the owners are sent)
    owner = f" {'owner':<20}" if owners else ""
    print(f"{'bot':<24}{owner} {'games':<16} {'key':<8} {'connected':<9}  says (name, version)")
    for b in response.bots:
        connected = "yes" if b.connected else "no"
        plays = ",".join(b.games) or "all"
        mine = f" {b.owner:<20}" if owners else ""
        says = f"{b.reported_name} {b.bot_version}".strip() or "-"
        print(
            printable(
                f"{b.bot_name:<24}{mine} {plays:<16} {_key_state(b):<8} {connected:<9}  {says}"
            )
        )
    return 0


def _register(stub: Any, args: argparse.Namespace, md: Any) -> int:
    response = stub.RegisterBot(
        control_pb2.RegisterBotRequest(bot_name=args.name, owner=args.owner, games=args.games),
        metadata=md,
        timeout=CALL_TIMEOUT_S,
    )
    _print_key(args, response.key)
    return 0


def _print_key(args: argparse.Namespace, key: str) -> None:
    if args.json:
        print(json.dumps({"bot": args.name, "key": key}))
    else:
        print(key)
        print(
            "croupier: the key is shown only once: give it to the bot (its session token)",
            file=sys.stderr,
        )


def _said(args: argparse.Namespace, bot: control_pb2.BotInfo, what: str) -> int:
    if args.json:
        print(json.dumps(_bot_dict(bot), indent=2))
    else:
        print(printable(f"{bot.bot_name}: {what}"))
    return 0


def _revoke(stub: Any, args: argparse.Namespace, md: Any) -> int:
    request = control_pb2.RevokeBotKeyRequest(bot_name=args.name)
    bot = stub.RevokeBotKey(request, metadata=md, timeout=CALL_TIMEOUT_S).bot
    return _said(args, bot, "key revoked (croupier ctl rotate gives it a new one)")


def _rotate(stub: Any, args: argparse.Namespace, md: Any) -> int:
    request = control_pb2.RotateBotKeyRequest(bot_name=args.name)
    response = stub.RotateBotKey(request, metadata=md, timeout=CALL_TIMEOUT_S)
    _print_key(args, response.key)
    return 0


def _disable(stub: Any, args: argparse.Namespace, md: Any) -> int:
    request = control_pb2.DisableBotRequest(bot_name=args.name)
    bot = stub.DisableBot(request, metadata=md, timeout=CALL_TIMEOUT_S).bot
    return _said(args, bot, "disabled")


def _enable(stub: Any, args: argparse.Namespace, md: Any) -> int:
    request = control_pb2.EnableBotRequest(bot_name=args.name)
    bot = stub.EnableBot(request, metadata=md, timeout=CALL_TIMEOUT_S).bot
    return _said(args, bot, "enabled")


def _games(stub: Any, args: argparse.Namespace, md: Any) -> int:
    request = control_pb2.SetBotGamesRequest(
        bot_name=args.name, games=[] if args.all else args.games
    )
    bot = stub.SetBotGames(request, metadata=md, timeout=CALL_TIMEOUT_S).bot
    return _said(args, bot, f"plays {', '.join(bot.games) or 'every game'}")


def _tournament(stub: Any, args: argparse.Namespace, md: Any) -> int:
    try:
        text = args.config.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read {args.config}: {exc.strerror or exc}") from None
    response = stub.CreateTournament(
        control_pb2.CreateTournamentRequest(config_toml=text), metadata=md, timeout=CALL_TIMEOUT_S
    )
    print(printable(f"tournament {response.tournament}: {response.matches} matches"))
    return 0


def _watch(stub: Any, args: argparse.Namespace, md: Any) -> int:
    try:
        renderer = importlib.import_module("croupier.cli._watch")
    except ImportError:
        raise CtlError("watching is not built into this croupier yet") from None
    request = control_pb2.WatchMatchRequest(
        match_id=args.match,
        delay_decisions=args.delay_decisions,
        delay_rounds=args.delay_rounds,
    )
    if args.seat is not None:
        request.seat = args.seat
    stream = stub.WatchMatch(request, metadata=md)
    status: int = renderer.render_watch(stream, out=sys.stdout)
    return status


_COMMANDS: dict[str, Callable[[Any, argparse.Namespace, Any], int]] = {
    "list": _list,
    "show": _show_cmd,
    "watch": _watch,
    "cancel": _cancel,
    "create": _create,
    "standings": _standings,
    "replay": _replay,
    "seat": _seat,
    "bots": _bots,
    "register": _register,
    "revoke": _revoke,
    "rotate": _rotate,
    "disable": _disable,
    "enable": _enable,
    "games": _games,
    "tournament": _tournament,
}
