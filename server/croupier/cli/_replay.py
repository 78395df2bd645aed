"""``croupier replay ACTION``: show, summary, verify, export, step and diff, each reading its
replays through the one validating reader (exit status 2 for a file that is not a readable
replay, 1 for one that reads but does not verify)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from croupier.cli._args import nonneg, subcommands
from croupier.cli._output import printable, say
from croupier.errors import ConfigError, CroupierError, ReplayError, ReplayMismatchError

if TYPE_CHECKING:  # (annotations only: each action imports what it runs, when it runs)
    from fractions import Fraction

    from croupier.replay import Replay


def add_arguments(r: argparse.ArgumentParser) -> None:
    r.description = (
        "Every ACTION reads replays through one validating reader: exit status 2 for a file "
        "that is not a readable replay, 1 for one that reads but does not verify."
    )
    rsub = subcommands(r, dest="replay_command", metavar="ACTION", required=True)
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
        action=_Numbered, help="only deal (round) N, from 1",
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


class _Numbered(argparse.Action):
    """``--deal N``/``--round N``: stores N, and the flag as typed (``deal_flag``) for the error
    that names it."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)
        namespace.deal_flag = option_string or "--deal"


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
        _check_round(replay, args.deal, getattr(args, "deal_flag", "--deal"))
    info = replay.game.info
    rounds = select_rounds(replay, args.where) if args.where else None
    for line in render(replay, seat, args.deal, rounds):
        say(line)
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


def _check_round(replay: Replay, number: int, flag: str = "--deal") -> None:
    """``--deal N`` (``flag``: as typed, or ``--round``) names a deal (a round, in the chip
    games) the replay holds: one that ended, or the one in progress where the file stops."""
    ended = sum(1 for rec in replay.records if rec.type == "round_end")
    last = replay.records[-1].type if replay.records else "round_end"
    played = ended + (not replay.complete and last != "round_end")
    noun = replay.game.info.round_noun
    if not 1 <= number <= played:
        held = f"{noun}s 1..{played}" if played else f"no {noun}"
        # the wire counts from 0 (deal_index, round): say how the two numberings meet
        wire = f" (numbered from 1: the wire's {noun} 0 is {noun} 1)" if number == 0 else ""
        raise ConfigError(f"{flag} {number}: the replay holds {held}{wire}")


def _cmd_replay_summary(args: argparse.Namespace) -> int:
    import json

    from croupier.replay import summarize, summary_data

    def one(replay: Replay) -> None:
        if args.json:
            print(json.dumps(summary_data(replay), ensure_ascii=False))
        else:
            for line in summarize(replay):
                say(line)

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
            say(f"FAIL {path}: {exc}")
            continue
        except ReplayError as exc:
            status = 2
            print(f"croupier: error: {path}: {exc}", file=sys.stderr)
            continue
        if args.require_bound and report.unbound:
            status = max(status, 1)
            say(f"FAIL {path}: {report.describe()} (--require-bound)")
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


def run(args: argparse.Namespace) -> int:
    """Run the chosen ACTION."""
    actions: dict[str, Callable[[argparse.Namespace], int]] = {
        "show": _cmd_replay_show,
        "summary": _cmd_replay_summary,
        "verify": _cmd_replay_verify,
        "export": _cmd_replay_export,
        "step": _cmd_replay_step,
        "diff": _cmd_replay_diff,
    }
    return actions[args.replay_command](args)
