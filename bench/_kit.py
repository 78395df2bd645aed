"""What the bench scripts share: a process's CPU seconds from ``/proc`` (:func:`cpu_s`), and
the command line of ``bench/run.py``, ``bench/sessions.py`` and ``bench/ceiling.py``
(:func:`run_benches`: ``BENCH`` names, ``--repeats``, ``--compare REV``; one JSON line per
benchmark), and a checkout of another revision to measure in the same run (:func:`checkout`).
A sibling module: a script run as ``python bench/X.py`` imports it by name."""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

import structlog

HERE = Path(__file__).resolve().parent


@contextmanager
def checkout(rev: str) -> Iterator[dict[str, str]]:
    """An environment whose Python imports REV's packages (``croupier``, ``croupier_bot``,
    ``croupier_bots``, ``croupier_proto``) from a temporary git worktree of REV, first on
    ``PYTHONPATH``; the bench scripts themselves stay this checkout's."""
    with tempfile.TemporaryDirectory(prefix="croupier-rev-") as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(tree), rev],
                       check=True, capture_output=True)  # fmt: skip
        try:
            path = Path(tmp) / "path"
            path.mkdir()
            (path / "croupier").symlink_to(tree / "server" / "croupier")
            (path / "croupier_bot").symlink_to(tree / "clients" / "python" / "croupier_bot")
            (path / "croupier_bots").symlink_to(tree / "bots")
            stubs = tree / "proto" / "python" / "croupier_proto"
            if stubs.is_dir():  # the wire contract's own package (since issue 11)
                (path / "croupier_proto").symlink_to(stubs)
            yield {**os.environ, "PYTHONPATH": str(path)}
        finally:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(tree)],
                           capture_output=True)  # fmt: skip


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system, all threads) process ``pid`` has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_tree(root: int) -> dict[int, float]:
    """The live processes under ``root`` (not ``root`` itself), each with the CPU seconds it has
    used so far (Linux; a process that ends while being read is skipped)."""
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            pid = int(stat.parent.name)
            parent[pid] = int(fields[1])
            used[pid] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, ValueError, IndexError):
            continue
    under, grew = {root}, True
    while grew:
        grew = False
        for pid, ppid in parent.items():
            if ppid in under and pid not in under:
                under.add(pid)
                grew = True
    return {pid: used[pid] for pid in under - {root}}


def descendants_cpu_s() -> float:
    """CPU seconds the live descendants of this process (its bots, say) have used so far."""
    return sum(process_tree(os.getpid()).values())


def run_benches(doc: str, benches: Mapping[str, Callable[[int], dict[str, float]]]) -> None:
    """Parse ``[BENCH ...] [--repeats N] [--compare REV]`` (default: every one of ``benches``,
    3 repeats), then run each and print ``{"NAME": {figure: value}}``, values to 3 decimals.

    With ``--compare REV`` every repeat runs here and then with REV's packages (a subprocess of
    this script, :func:`checkout`), alternately, and each figure is printed for both (REV's as
    ``REV:figure``) with ``this_to_REV:figure``, their ratio (medians of the repeats). Both sides
    then launch their bots with ``CROUPIER_SANDBOX=none``: REV's packages are not where this
    checkout's sandbox finds them, and the two sides must launch them alike."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("which", nargs="*", metavar="BENCH", help=f"any of {', '.join(benches)}")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--compare", metavar="REV", help="also measure REV (a git revision)")
    args = parser.parse_args()
    unknown = [name for name in args.which if name not in benches]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)} (known: {', '.join(benches)})")
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    if not args.compare:
        for name in args.which or benches:
            result = benches[name](args.repeats)
            print(json.dumps({name: {k: round(v, 3) for k, v in result.items()}}), flush=True)
        return
    script = str(Path(sys.argv[0]).resolve())
    os.environ["CROUPIER_SANDBOX"] = "none"
    with checkout(args.compare) as env:
        for name in args.which or benches:
            here: list[dict[str, float]] = []
            there: list[dict[str, float]] = []
            for _ in range(args.repeats):
                here.append(benches[name](1))
                done = subprocess.run(
                    [sys.executable, script, name, "--repeats", "1"],
                    env=env, capture_output=True, text=True,
                )  # fmt: skip
                if done.returncode != 0:
                    sys.stderr.write(done.stderr)
                    raise SystemExit(f"{name} failed with {args.compare}'s packages")
                there.append(json.loads(done.stdout.strip().splitlines()[-1])[name])
            out: dict[str, float] = {}
            for key in here[0]:
                mine = statistics.median(r[key] for r in here)
                out[key] = mine
                measured = [r[key] for r in there if key in r]
                if not measured:  # (a figure REV does not have)
                    continue
                theirs = statistics.median(measured)
                out[f"{args.compare}:{key}"] = theirs
                if theirs:
                    out[f"this_to_{args.compare}:{key}"] = mine / theirs
            print(json.dumps({name: {k: round(v, 3) for k, v in out.items()}}), flush=True)
