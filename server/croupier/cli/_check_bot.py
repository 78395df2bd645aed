"""``croupier check-bot``: the compliance check of one bot (any language), a short match with the
random bot in the other seats."""

from __future__ import annotations

import argparse
from pathlib import Path

from croupier import _defaults as defaults
from croupier.cli._args import _seed, add_clock_arguments, clock_rules, game_params, nonneg
from croupier.cli._output import say


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


def add_arguments(c: argparse.ArgumentParser) -> None:
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
    add_clock_arguments(c, bank_ms=defaults.CHECK_BOT_BANK_MS)
    add_sandbox_arguments(c)
    c.add_argument("--seed", type=_seed, default=1, help="match seed (default 1)")
    c.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="keep the replay and the bot's log here (default: a temporary folder)",
    )


def run(args: argparse.Namespace) -> int:
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
                params=game_params(game, args),
                seed=args.seed,
                clock=clock_rules(args),
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
        say(
            f"check-bot: {report.bot_name} in seat {report.seat} of {report.game}, "
            f"{report.decisions} decisions, {report.rounds} "
            f"{get_game(report.game).info.round_noun}s"
        )
        for check in report.checks:
            why = f": {check.detail}" if check.status is Status.FAILED else ""
            say(f"  {check.status.value:<4} {check.name}{why}")
        for hint in report.hints:
            say(f"  hint: {hint}")
        if report.failed and report.log_tail:
            say("  last lines of the bot's log:")
            for line in report.log_tail:
                say(f"    {line}")
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
