"""The arguments the commands share: the types that check a value as it is parsed, the clock's
flags, a game's parameters, and the subcommands whose arguments are added when one is chosen
(:class:`Commands`). Nothing heavy is imported here: ``croupier --version`` reads this module.

The argument types keep the names they had in ``croupier.cli`` (``_seed``, ``_ms``, ...):
argparse names a type in its usage error when a value fails in an unexpected way."""

from __future__ import annotations

import argparse
import functools
import gettext
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from croupier import _defaults as defaults
from croupier.errors import ConfigError

if TYPE_CHECKING:  # (annotations only: each command imports what it runs, when it runs)
    from croupier.arbiter import ClockRules
    from croupier.games import Game

    _SubParsers = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    _SubParsers = argparse._SubParsersAction

# argparse translates each of its own strings ("options", "show this help message and exit", ...)
# through gettext, which looks for a catalogue on disk at every call: about 40 lookups a command
# line, two thirds of the time spent building the parser (3.1 ms a `croupier replay verify`, 1.1
# with this). The strings and the locale do not change within a process, so each is translated
# once. (argparse reads the name `_` from its module globals at each call.)
setattr(argparse, "_", functools.lru_cache(maxsize=None)(gettext.gettext))  # noqa: B010 (typeshed)


def game_params(game: Game[Any], args: argparse.Namespace) -> dict[str, int]:
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


def add_clock_arguments(parser: argparse.ArgumentParser, *, bank_ms: int) -> None:
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


def clock_rules(args: argparse.Namespace) -> ClockRules:
    from croupier.arbiter import ClockKind, ClockRules

    return ClockRules(
        args.move_ms,
        args.bank_ms,
        kind=ClockKind(args.clock),
        margin_ms=args.margin_ms,
        seat_cap_ms=round(args.seat_time_cap_s * 1000),
        match_cap_ms=round(args.match_time_cap_s * 1000),
    )


class Commands(_SubParsers):
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


def subcommands(parser: argparse.ArgumentParser, **kwargs: Any) -> Commands:
    """``parser``'s subcommands, built as they are chosen (:class:`Commands`)."""
    return cast(Commands, parser.add_subparsers(action=Commands, **kwargs))
