"""Bots in C++: the kit in clients/cpp (built by tests/run into build/cpp against Debian's gRPC
and protobuf packages, so stubs that stop compiling fail the run) plays real matches; its random
bot reads every game's typed observation and passes ``croupier check-bot`` in all four games."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from croupier.transport import ArbiterServer

pytestmark = pytest.mark.e2e

BOT = Path(__file__).resolve().parents[2] / "build" / "cpp" / "croupier-random-bot"
GAMES = {"as-nas": "As-Nas pot", "fipsen": "Fipsen hand", "felduz": "Felduz pot",
         "scauver": "Scauver cards in the stock"}  # fmt: skip


def _bot() -> Path:
    if not BOT.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{BOT} is missing: tests/run builds the C++ kit in CI")
        pytest.skip(f"{BOT} is not built (bash tests/run builds it, as root installing packages)")
    return BOT


def test_the_cpp_random_bot_passes_check_bot(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "check-bot", str(_bot()), "--game", "all",
         "--deals", "1", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("6 passed, 0 failed") == len(GAMES)
    assert done.stdout.count("check-bot: cpp-random in seat 0") == len(GAMES)
    for game, field in GAMES.items():
        (log,) = (tmp_path / game).glob("*.seat0.log")
        assert field in log.read_text()  # it read its game's own observation field


def test_the_kit_reports_a_refusal_with_its_reason_in_one_line() -> None:
    async def refused() -> tuple[int, str]:
        server = ArbiterServer()
        address = await server.start()
        try:
            env = {**os.environ, "CROUPIER_ADDRESS": address, "CROUPIER_TOKEN": "not-a-token"}
            proc = await asyncio.create_subprocess_exec(
                str(_bot()), env=env, stderr=asyncio.subprocess.PIPE
            )
            _, err = await asyncio.wait_for(proc.communicate(), 60)
            return proc.returncode or 0, err.decode()
        finally:
            await server.stop()

    code, err = asyncio.run(refused())
    assert code == 2
    assert err.strip().splitlines() == [
        "cpp-random: UNAUTHENTICATED: the token admits no seat [TOKEN_UNKNOWN]"
    ]


@pytest.mark.parametrize("mode", ["bwrap", "none"])
def test_the_kit_dials_the_unix_socket_a_launched_bot_is_given(mode: str, tmp_path: Path) -> None:
    """A launched bot's ``CROUPIER_ADDRESS`` is the arbiter's unix socket: in its sandbox
    (``unix:/run/croupier/arbiter.sock``, its only way out) and without one (the socket's own
    path); the kit's gRPC channel takes ``unix:`` targets as they are."""
    from croupier.arbiter import MatchConfig, Outcome
    from croupier.replay import read_replay, verify
    from croupier.runner import run_match
    from croupier.transport import Isolation, SandboxMode, SandboxOptions, bwrap_problem

    if mode == "bwrap" and (problem := bwrap_problem()):
        pytest.skip(f"bubblewrap cannot run here: {problem}")
    bot = _bot()
    sandbox = SandboxOptions(mode=SandboxMode(mode))
    config = MatchConfig("scauver", {"players": 2, "round_cap": 3}, seed=4)
    random_bot = [sys.executable, "-m", "croupier_bots.random_bot"]
    run = asyncio.run(
        run_match(config, [[str(bot)], random_bot], tmp_path / "out", sandbox=sandbox)
    )
    assert run.isolation[0] is (Isolation.BWRAP if mode == "bwrap" else Isolation.NONE)
    assert run.result.seats[0].outcome is Outcome.NORMAL
    replay = read_replay(run.replay)
    assert replay.header["seats"][0]["bot_name"] == "cpp-random"
    assert replay.header["seats"][0]["peer"].startswith("unix:")
    verify(replay)


@pytest.mark.parametrize("pipe", [True, False], ids=["pipe", "grpc"])
def test_the_kit_serves_a_multiplexed_session_with_a_copy_of_the_bot_per_seat(
    tmp_path: Path, pipe: bool
) -> None:
    """Launched in session mode, the C++ random bot stays up: one process plays its seat of
    every match, two at a time, all on its session's one stream (protocol 3), each seat with its
    own copy of the bot (its log line per match names that match's seat); on its session pipe
    when the pool gives it one (with the Python bot: two sessions there), else on gRPC."""
    from croupier.arbiter import MatchConfig, Outcome
    from croupier.replay import read_replay, verify
    from croupier.runner import run_match
    from croupier.transport import BotPool

    bot = _bot()
    random_bot = [sys.executable, "-m", "croupier_bots.random_bot"]

    async def tournament() -> tuple[list[Any], BotPool]:
        server = ArbiterServer()
        await server.start()
        logs = tmp_path / "logs"
        logs.mkdir()
        pool = BotPool(server, logs, capacity=2, pipe=pipe)
        pool.add("cpp", [str(bot)])
        pool.add("py", random_bot)
        runs: list[Any] = []
        try:
            for first in range(0, 4, 2):
                runs += await asyncio.gather(
                    *(
                        run_match(
                            MatchConfig("scauver", {"players": 2, "round_cap": 3}, seed=i),
                            [pool.assigner("cpp"), pool.assigner("py")],
                            tmp_path / "out",
                            server=server,
                            match_id=f"cpp{i}",
                        )
                        for i in (first, first + 1)
                    )
                )
        finally:
            await pool.close()
            await server.stop()
        assert server.bots.pipes == (2 if pipe else 0)
        return runs, pool

    runs, pool = asyncio.run(tournament())
    for run in runs:
        assert [s.outcome for s in run.result.seats] == [Outcome.NORMAL] * 2
        assert run.result.seats[0].bot_name == "cpp-random"
        verify(read_replay(run.replay))
    stats = pool.stats("cpp")
    assert (stats.mode, stats.protocol, stats.processes, stats.crashes) == ("session", 3, 1, 0)
    assert stats.peak_load == 2
    assert [(e.code, e.signalled) for e in pool.exits if e.seat == -1] == [(0, False)] * 2
    log = (tmp_path / "logs" / "cpp.0.log").read_text()
    assert log.count("cpp-random: scauver, seat 0,") == 4
    assert "session over; matches=4" in log
