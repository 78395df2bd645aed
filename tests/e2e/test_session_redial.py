"""The Python SDK's session dialled again (``serve_async(reconnect_s=)``), in one process over
real gRPC: a bot pool's remote bot reaches the arbiter through a TCP relay
(``relay_kit.Relay``) that resets its connection. Within the window the SDK opens a new session
(the summary counts both); with the network kept down it gives up once the window has passed;
with ``reconnect_s=0`` it ends at the drop, as before."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from relay_kit import Relay

from croupier.transport import ArbiterServer, BotPool
from croupier_bot import BotError, SessionSummary, serve_async
from croupier_bots.random_bot import RandomBot

pytestmark = pytest.mark.e2e


async def _scenario(
    tmp: str, reconnect_s: float, *, network_back: bool
) -> tuple[SessionSummary | BotError, float]:
    """Connect, reset the connection, then (``network_back``) let the bot dial again; the
    summary (after the pool ends the session) or the error, and how long the drop lasted."""
    server = ArbiterServer()
    await server.start()
    pool = BotPool(server, Path(tmp), capacity=1)
    token = pool.add_remote("far")
    relay = Relay(server.address)
    bot = asyncio.create_task(
        serve_async(RandomBot(1), address=relay.address, token=token, reconnect_s=reconnect_s)
    )
    try:
        await asyncio.wait_for(pool.remote_session("far").connected.wait(), 10)
        first = pool.remote_session("far")
        # (attached: the SessionWelcome is on its way; a session cut before the bot has read it
        # was never opened, and a first dial that fails ends, as it always did)
        await asyncio.sleep(0.5)
        relay.refusing = not network_back
        cut = time.monotonic()
        relay.cut()
        if network_back:
            # the pool opens a new session for the key once it sees the old one gone
            async def back() -> None:
                while not (
                    pool.remote_session("far") is not first
                    and pool.remote_session("far").connected.is_set()
                ):
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(back(), 10)
            await pool.close()
        try:
            outcome: SessionSummary | BotError = await asyncio.wait_for(bot, 20)
        except BotError as exc:
            outcome = exc
        return outcome, time.monotonic() - cut
    finally:
        bot.cancel()
        relay.close()
        await pool.close()
        await server.stop()


def test_a_broken_session_is_dialled_again_and_the_summary_counts_both(tmp_path: Path) -> None:
    outcome, _ = asyncio.run(_scenario(str(tmp_path), 10, network_back=True))
    assert isinstance(outcome, SessionSummary), outcome
    assert outcome.sessions == 2


def test_the_sdk_gives_up_once_the_window_has_passed(tmp_path: Path) -> None:
    outcome, took = asyncio.run(_scenario(str(tmp_path), 1.0, network_back=False))
    assert isinstance(outcome, BotError), outcome
    assert outcome.reason == ""  # the connection, not a refusal
    assert 1.0 <= took < 5, took


def test_reconnect_0_ends_the_session_at_the_drop(tmp_path: Path) -> None:
    outcome, took = asyncio.run(_scenario(str(tmp_path), 0, network_back=False))
    assert isinstance(outcome, BotError), outcome
    assert took < 1, took


def test_the_bridge_says_a_bad_reconnect_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from croupier_bot.stdio import main

    argv = ["--connect", "127.0.0.1:1", "--key", "k"]
    assert main([*argv, "--reconnect", "-1", "--", "true"]) == 2
    monkeypatch.setenv("CROUPIER_SESSION_RECONNECT_S", "soon")
    assert main([*argv, "--", "true"]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "croupier_bot.stdio: error: --reconnect must be 0 or more seconds, got -1",
        "croupier_bot.stdio: error: CROUPIER_SESSION_RECONNECT_S must be a number of seconds, "
        "got 'soon'",
    ]
