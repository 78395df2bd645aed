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
import contextlib
import importlib
import sys
from collections.abc import Callable, Sequence

from croupier import __version__
from croupier.cli._args import subcommands
from croupier.cli._output import EXIT_CANCELLED, EXIT_USER_ERROR, printable
from croupier.errors import CroupierError

__all__ = ["EXIT_CANCELLED", "build_parser", "main"]

#: Each command's module (``croupier.cli._match``, ...): its ``add_arguments(parser)`` adds the
#: command's arguments when the command is chosen, its ``run(args)`` runs it; neither is imported
#: before (so ``croupier --version`` and ``--help`` import no command).
_MODULES = {
    "match": "_match",
    "replay": "_replay",
    "check-bot": "_check_bot",
    "games": "_games",
    "tournament": "_tournament",
    "serve": "_serve",
    "ctl": "_ctl",
}


def _module_arguments(command: str) -> Callable[[argparse.ArgumentParser], None]:
    """``command``'s ``add_arguments``, its module imported when the command is chosen."""

    def build(parser: argparse.ArgumentParser) -> None:
        add: Callable[[argparse.ArgumentParser], None] = importlib.import_module(
            f"croupier.cli.{_MODULES[command]}"
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
    sub = subcommands(parser, dest="command", metavar="COMMAND", required=True)
    sub.add_command(
        "match",
        _module_arguments("match"),
        help="run one match between bot processes and write its replay",
    )
    sub.add_command(
        "replay",
        _module_arguments("replay"),
        help="inspect, verify, export, step through or compare replay files",
    )
    sub.add_command(
        "check-bot",
        _module_arguments("check-bot"),
        help="check that a bot (any language) plays the protocol correctly",
    )
    sub.add_command("games", _module_arguments("games"), help="list the games and their parameters")
    sub.add_command(
        "tournament",
        _module_arguments("tournament"),
        help="run (or resume) a tournament from a TOML file; or print a store's standings",
    )
    sub.add_command(
        "serve",
        _module_arguments("serve"),
        help="run the competition server: bot port, control API, registered bots, store",
    )
    sub.add_command(
        "ctl",
        _module_arguments("ctl"),
        help="control a running `croupier serve`: matches, bots, standings, replays",
    )
    return parser


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
        from croupier._logging import configure_logging

        configure_logging(args.verbose)
        _open_files_up_to_the_hard_limit()
    run: Callable[[argparse.Namespace], int] = importlib.import_module(
        f"croupier.cli.{_MODULES[args.command]}"
    ).run
    try:
        return run(args)
    except CroupierError as exc:
        print(f"croupier: error: {printable(str(exc))}", file=sys.stderr)
        status = getattr(exc, "status", None)  # _ReplayFailed, ctl's errors: their own status
        return status if isinstance(status, int) else EXIT_USER_ERROR
    except BrokenPipeError:  # `croupier replay show … | head`
        return 0


def _open_files_up_to_the_hard_limit() -> None:
    """Let this process open as many descriptors as its hard limit allows (as Go's runtime
    does): an arbiter holds one per bot connection, pipe, log and replay, and a soft limit of
    1,024 (the usual default) ran out under a bot that opened connections by the thousand (its
    own descriptors are bounded by its sandbox; the arbiter's were not). A sandboxed bot gets
    the sandbox's limit, not this one."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != soft:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


if __name__ == "__main__":
    sys.exit(main())
