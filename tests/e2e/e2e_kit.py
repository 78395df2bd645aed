"""Helpers of the end-to-end suite: bot command lines, match configs, a synchronous match runner.

The misbehaving bots live in ``tests/e2e/bots/`` (one docstring each). Tests are synchronous and
drive asyncio with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.arbiter import ClockRules, MatchConfig
from croupier.replay import read_replay
from croupier.runner import MatchRun, run_match
from croupier.transport import ArbiterServer

BOTS_DIR = Path(__file__).parent / "bots"
RANDOM = [sys.executable, "-m", "croupier_bots.random_bot"]
HEURISTIC = [sys.executable, "-m", "croupier_bots.as_nas_heuristic"]
#: Roomy clocks for matches where nobody is meant to time out (a loaded CI box stays well inside).
ROOMY = ClockRules(move_time_ms=5000, time_bank_ms=10000)


def config(
    *,
    seed: int = 1,
    deals: int = 2,
    clock: ClockRules = ROOMY,
    connect_timeout_s: float = 20.0,
) -> MatchConfig:
    return MatchConfig(
        game="as-nas",
        params={"deals": deals},
        seed=seed,
        clock=clock,
        connect_timeout_s=connect_timeout_s,
    )


@dataclass
class Kit:
    """Bot argv builders and a synchronous match runner writing under ``tmp``."""

    tmp: Path
    random = RANDOM
    heuristic = HEURISTIC

    def bot(self, name: str, *args: object) -> list[str]:
        """The argv of the test bot ``tests/e2e/bots/<name>.py`` with ``args``."""
        return [sys.executable, str(BOTS_DIR / f"{name}.py"), *(str(a) for a in args)]

    def run(
        self,
        bots: Sequence[list[str]],
        *,
        out: str = "out",
        server: ArbiterServer | None = None,
        match_id: str | None = None,
        **conf: Any,
    ) -> MatchRun:
        """Play one match to its end (own server unless ``server``) and return its run."""
        return asyncio.run(
            run_match(config(**conf), list(bots), self.tmp / out, server=server, match_id=match_id)
        )

    @staticmethod
    def records(path: Path, kind: str | None = None, seat: int | None = None) -> list[Any]:
        """The replay's records (header excluded) as dicts, optionally of one type and/or seat."""
        return [
            r.data
            for r in read_replay(path).records
            if (kind is None or r.type == kind) and (seat is None or r.data.get("seat") == seat)
        ]
