"""The control variates computed in a helper process (``croupier.ladder._offload``): a real
tournament stores, for every match, exactly what computing them in the arbiter's process gives;
a helper SIGKILLed with matches in hand loses none (they are computed again in a thread, and the
next match starts a new helper); a closed executor, and an arbiter SIGKILLed, leave no helper."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest
from ladder_kit import CROUPIER, write_config

from croupier.ladder._control import match_corrections
from croupier.ladder._offload import OFFLOAD_AFTER, ControlVariates

pytestmark = [pytest.mark.e2e]

MATCHES = 12
ALL = frozenset(range(4))  # (every seat is the bundled random bot: its action terms count)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, list[tuple[Path, int]]]:
    """A tournament of 12 matches between four bundled random bots, its stderr (``-v``), and
    each match's replay and seed."""
    folder = tmp_path_factory.mktemp("offload")
    bots = "\n".join(f'r{i} = "random"' for i in range(4))
    body = f'game = "as-nas"\nseed = 5\nrounds = {MATCHES // 4}\n[params]\ndeals = 2\n'
    config = write_config(folder, f"{body}[bots]\n{bots}\n")
    done = subprocess.run(
        [*CROUPIER, "-v", "tournament", str(config), "--sandbox", "none"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    store = folder / "t.sqlite"
    conn = sqlite3.connect(store)
    try:
        rows = conn.execute("SELECT replay_path, seed FROM matches ORDER BY slot").fetchall()
    finally:
        conn.close()
    return store, done.stderr, [(folder / path, int(seed)) for path, seed in rows]


def test_the_store_holds_what_the_arbiters_process_computes(
    played: tuple[Path, str, list[tuple[Path, int]]],
) -> None:
    store, stderr, matches = played
    assert len(matches) == MATCHES > OFFLOAD_AFTER
    assert "control_helper_started" in stderr  # (the matches after the eighth: in the helper)
    conn = sqlite3.connect(store)
    try:
        stored = conn.execute(
            "SELECT m.replay_path, s.seat, s.cv, s.cv_action FROM seats s "
            "JOIN matches m ON m.id = s.match_id ORDER BY m.slot, s.seat"
        ).fetchall()
    finally:
        conn.close()
    expected = []
    for replay, seed in matches:
        chance, action = match_corrections(replay, seed, 4, ALL)
        path = str(replay.relative_to(store.parent))  # (stored relative to the config's folder)
        expected += [(path, s, chance[s], action[s]) for s in range(4)]
    assert stored == expected
    assert any(cv for *_, cv, _ in stored)  # (not all zero: the terms were computed)


def test_a_killed_helper_loses_nothing(
    played: tuple[Path, str, list[tuple[Path, int]]],
) -> None:
    _, _, matches = played
    expected = [match_corrections(replay, seed, 4, ALL) for replay, seed in matches]

    async def scenario() -> tuple[list[Any], list[Any], int, list[int]]:
        control = ControlVariates(offload_after=0, helpers=1)
        try:
            first = await control(*matches[0], 4, ALL)
            (killed,) = control.helper_pids
            assert killed != os.getpid()
            # all at once: the helper computes them one by one, and dies with them in hand
            batch = asyncio.gather(*(control(r, s, 4, ALL) for r, s in matches))
            await asyncio.sleep(0.05)
            os.kill(killed, signal.SIGKILL)
            results = await batch
            again = await control(*matches[1], 4, ALL)  # (a new helper)
            return [first, again], results, killed, control.helper_pids
        finally:
            await control.close()

    (first, again), results, killed, restarted = asyncio.run(scenario())
    assert first == expected[0]
    assert again == expected[1]
    assert results == expected
    assert len(restarted) == 1
    assert killed not in restarted


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_no_helper_outlives_its_executor(
    played: tuple[Path, str, list[tuple[Path, int]]], tmp_path: Path
) -> None:
    _, _, matches = played
    replay, seed = matches[0]

    async def closed() -> list[int]:
        control = ControlVariates(offload_after=0, helpers=2)
        await asyncio.gather(*(control(r, s, 4, ALL) for r, s in matches[:4]))  # (two helpers)
        pids = control.helper_pids
        await control.close()
        return pids

    pids = asyncio.run(closed())
    assert len(pids) == 2
    assert not any(_alive(pid) for pid in pids)
    # an arbiter SIGKILLed: its helper reads the end of its input and exits
    script = tmp_path / "arbiter.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import asyncio, pathlib, time
            from croupier.ladder._offload import ControlVariates

            async def main():
                control = ControlVariates(offload_after=0)
                await control(pathlib.Path({str(replay)!r}), {seed}, 4, frozenset())
                print("helper", *control.helper_pids, flush=True)
                time.sleep(120)

            asyncio.run(main())
            """
        )
    )
    arbiter = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert arbiter.stdout is not None
        line = next(line for line in arbiter.stdout if line.startswith("helper "))
        helper = int(line.split()[1])
        assert _alive(helper)
    finally:
        arbiter.kill()
        arbiter.wait()
    deadline = time.monotonic() + 20
    while _alive(helper) and time.monotonic() < deadline:
        time.sleep(0.05)
    outlived = _alive(helper)
    if outlived:  # (not left running after the test)
        os.kill(helper, signal.SIGKILL)
    assert not outlived
