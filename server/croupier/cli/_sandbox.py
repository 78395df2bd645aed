"""The sandbox flags of every command that launches bots (``match``, ``check-bot``,
``tournament``, ``serve``): the mode, the limits, the one warning line, the refusal of
``tournament`` and ``serve`` to launch bots without a sandbox, and the standings' note."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Mapping

from croupier.cli._args import nonneg
from croupier.transport import (
    Isolation,
    Limits,
    SandboxMode,
    SandboxOptions,
    default_sandbox_mode,
    sandbox_warning,
)


def _cores(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text}: must be 0 or more")
    return value


def add_sandbox_arguments(parser: argparse.ArgumentParser, *, strict: bool = False) -> None:
    """``--sandbox`` and the ``--bot-*`` limits. ``strict``: the command refuses to launch bots
    without a sandbox (``tournament``, ``serve``), which the help says."""
    limits = Limits()
    short = (
        "refused where no sandbox can run"
        if strict
        else "else a uid of its own as root, else limits only, with a warning"
    )
    parser.add_argument(
        "--sandbox",
        choices=[m.value for m in SandboxMode],
        default=None,
        help=(
            "how launched bots are isolated: auto (default, or $CROUPIER_SANDBOX: bubblewrap, "
            f"else util-linux unshare as root; {short}), bwrap or unshare (that one or an "
            "error), none (no isolation, for debugging your own bots)"
        ),
    )
    for flag, attr, unit, what in (
        ("--bot-memory-mb", "memory_mb", "MiB", "address space per bot process"),
        ("--bot-processes", "processes", "", "processes and threads per bot"),
        ("--bot-cpu-s", "cpu_s", "s", "CPU seconds per bot process"),
        ("--bot-file-mb", "file_mb", "MiB", "largest file a bot may write"),
        ("--bot-open-files", "open_files", "", "open files per bot process"),
    ):
        default = getattr(limits, attr)
        parser.add_argument(
            flag,
            type=nonneg,
            default=default,
            metavar="N",
            dest=f"limit_{attr}",
            help=f"{what} (default {default}{' ' + unit if unit else ''}; 0: no limit)",
        )
    parser.add_argument(
        "--bot-tree-memory-mb",
        type=nonneg,
        default=None,
        metavar="N",
        dest="limit_tree_memory_mb",
        help="memory of a bot's whole process tree, in its cgroup (default: --bot-memory-mb; "
        "0: no limit)",
    )
    parser.add_argument(
        "--bot-cpus",
        type=_cores,
        default=limits.cpus,
        metavar="X",
        dest="limit_cpus",
        help=f"CPU quota of a bot's process tree, in cores per seat it plays at once, in its "
        f"cgroup (default {limits.cpus:g}; 0: no quota)",
    )


def sandbox_options(args: argparse.Namespace, mode: SandboxMode | None = None) -> SandboxOptions:
    """The options the flags say (``mode``: the mode when ``--sandbox`` is not given; default
    ``$CROUPIER_SANDBOX`` or ``auto``)."""
    tree = args.limit_tree_memory_mb
    limits = Limits(
        memory_mb=args.limit_memory_mb,
        processes=args.limit_processes,
        cpu_s=args.limit_cpu_s,
        file_mb=args.limit_file_mb,
        open_files=args.limit_open_files,
        tree_memory_mb=-1 if tree is None else tree,
        cpus=args.limit_cpus,
    )
    if args.sandbox is not None:
        mode = SandboxMode(args.sandbox)
    return SandboxOptions(mode=mode or default_sandbox_mode(), limits=limits)


def warn(options: SandboxOptions) -> None:
    """Print the one warning line of what the bots will not get here, if any."""
    if line := sandbox_warning(options):
        print(f"croupier: warning: {line}", file=sys.stderr, flush=True)


def isolation_note(isolation: Mapping[int, Isolation]) -> str | None:
    """The standings' warning line when some launched bot was not sandboxed."""
    weak = sorted(seat for seat, how in isolation.items() if not how.isolated)
    if not weak:
        return None
    how = min((isolation[s] for s in weak), key=lambda i: i.rank)
    seats = ", ".join(str(s) for s in weak)
    return f"warning: seats {seats} were not isolated: {how.summary}"


def bots_note(isolation: Mapping[str, str]) -> str | None:
    """The standings' warning line when some bots of a tournament (by name: the weakest
    :class:`Isolation` value a run launched it in) were not sandboxed."""
    weak: dict[Isolation, list[str]] = {}
    for name, value in sorted(isolation.items()):
        try:
            how = Isolation(value)
        except ValueError:
            continue  # "" (remote, or never launched)
        if not how.isolated:
            weak.setdefault(how, []).append(name)
    if not weak:
        return None
    worst = min(weak, key=lambda i: i.rank)
    names = ", ".join(sorted(n for group in weak.values() for n in group))
    return f"warning: bots {names} ran without isolation: {worst.summary}"
