"""What the bench scripts share: a process's CPU seconds from ``/proc`` (:func:`cpu_s`), and
the command line of ``bench/run.py`` and ``bench/sessions.py`` (:func:`run_benches`: ``BENCH``
names and ``--repeats``, one JSON line per benchmark). A sibling module: a script run as
``python bench/X.py`` imports it by name."""

from __future__ import annotations

import argparse
import json
import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path

import structlog


def cpu_s(pid: int) -> float:
    """CPU seconds (user + system, all threads) process ``pid`` has used so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run_benches(doc: str, benches: Mapping[str, Callable[[int], dict[str, float]]]) -> None:
    """Parse ``[BENCH ...] [--repeats N]`` (default: every one of ``benches``, 3 repeats), then
    run each and print ``{"NAME": {figure: value}}``, values to 3 decimals."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("which", nargs="*", metavar="BENCH", help=f"any of {', '.join(benches)}")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    unknown = [name for name in args.which if name not in benches]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)} (known: {', '.join(benches)})")
    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    for name in args.which or benches:
        result = benches[name](args.repeats)
        print(json.dumps({name: {k: round(v, 3) for k, v in result.items()}}), flush=True)
