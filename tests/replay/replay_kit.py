"""Real replays made fast for the replay tests: matches played in this process by the arbiter
(``croupier.replay.record_match``: real clocks, fault policy and replay writer, no processes),
and the ``croupier`` command run in this process (:func:`cli`)."""

from __future__ import annotations

import contextlib
import io
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.arbiter import DecisionRequest, MatchConfig
from croupier.cli import main
from croupier.replay import Policy, record_match

#: Seats per game in the kit's matches (the chip games at three seats).
SEATS = {"as-nas": 4, "fipsen": 4, "felduz": 3, "scauver": 3}


def random_policy(seed: int) -> Policy:
    """Uniform over the legal actions."""
    rng = random.Random(seed)
    return lambda request: rng.choice(request.legal_actions)


def folder(seed: int, kind: str = "Fold", p: float = 0.6) -> Policy:
    """Plays ``kind`` (a label's first word) with probability ``p`` when it may, else random."""
    rng = random.Random(seed)

    def policy(request: DecisionRequest) -> int:
        kinds = [label.split(":")[0] for label in request.labels]
        if kind in kinds and rng.random() < p:
            return request.legal_actions[kinds.index(kind)]
        return rng.choice(request.legal_actions)

    return policy


def play(
    out: Path,
    game: str,
    seed: int,
    *,
    params: dict[str, int] | None = None,
    policies: Sequence[Policy] | None = None,
    names: Sequence[str] | None = None,
    cancel_after: int | None = None,
    name: str | None = None,
) -> Path:
    """One real match of ``game`` recorded to ``out/<name>.jsonl``; random seats by default."""
    n = SEATS[game]
    full = {"players": n, **(params or {})}
    seats = policies or [random_policy(seed * 10 + s) for s in range(n)]
    path = out / f"{name or f'{game}-{seed}'}.jsonl"
    return record_match(
        MatchConfig(game, full, seed=seed),
        path,
        seats,
        names or [f"bot{s}" for s in range(n)],
        cancel_after=cancel_after,
    )


@dataclass(frozen=True)
class Ran:
    """What ``croupier ARGS`` did in this process: exit status, stdout, stderr."""

    status: int
    out: str
    err: str

    @property
    def errors(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.startswith("croupier: error: ")]


def cli(*args: object, stdin: str = "") -> Ran:
    """Run ``croupier ARGS`` in this process (``croupier.cli.main``), with ``stdin`` as input."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main([str(a) for a in args])
            except SystemExit as exc:  # argparse's usage errors
                status = int(exc.code or 0)
    finally:
        sys.stdin = saved
    return Ran(status, out.getvalue(), err.getvalue())
