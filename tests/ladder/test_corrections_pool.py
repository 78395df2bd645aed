"""The control variates of finished matches are computed in a pool of processes of their own
(``CorrectionsPool``): the same figures as in the tournament's process, and where the pool
breaks (a worker killed), the same figures from a thread."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.ladder._play import CorrectionsPool, match_corrections

pytestmark = pytest.mark.e2e


def test_the_pool_computes_what_the_process_does_and_survives_a_killed_worker(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--deals", "1",
         "--seed", "8", "--out", str(tmp_path), *["--bot", "random"] * 4],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (path,) = tmp_path.glob("*.jsonl")
    here = match_corrections(path, 8, 4, frozenset({2}))
    assert any(here[1])  # the random seat's action terms are there to compare

    async def run() -> tuple[object, object, list[int]]:
        pool = CorrectionsPool()
        try:
            first = await pool.compute(path, 8, 4, frozenset({2}))
            assert pool._pool is not None
            workers = list(pool._pool._processes)  # (the executor's own map of its workers)
            for pid in workers:
                os.kill(pid, signal.SIGKILL)
            second = await pool.compute(path, 8, 4, frozenset({2}))
            return first, second, workers
        finally:
            await pool.close()

    first, second, workers = asyncio.run(run())
    assert workers
    assert os.getpid() not in workers
    assert first == here
    assert second == here
