"""``croupier check-bot``: the compliance command passes a good bot, names what a bad one does."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

CHECK = [sys.executable, "-m", "croupier", "check-bot"]


def _check(bot: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CHECK, bot, "--deals", "2", *extra], capture_output=True, text=True, timeout=120
    )


def test_a_good_bot_passes_every_check() -> None:
    done = _check(f"{sys.executable} -m croupier_bots.random_bot")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed, 0 failed" in done.stdout
    assert "FAIL" not in done.stdout


def test_a_good_bot_passes_in_a_chip_game_with_three_seats() -> None:
    done = _check("random", "--game", "felduz", "--players", "3", "--seat", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "in seat 2 of felduz" in done.stdout
    assert " rounds\n" in done.stdout.splitlines(keepends=True)[0]
    assert "6 passed, 0 failed" in done.stdout


def test_a_bot_that_answers_illegal_ids_fails_that_check(tmp_path: Path) -> None:
    bot = tmp_path / "bad.py"
    bot.write_text("from croupier_bot import run\nrun(lambda d: 99, name='always-99')\n")
    done = _check(f"{sys.executable} {bot}", "--move-ms", "500", "--bank-ms", "0")
    assert done.returncode == 1
    assert "FAIL answers only legal action ids" in done.stdout
    assert "ok   answers every decision in time" in done.stdout
    assert "ok   the replay verifies" in done.stdout


def test_a_program_that_never_connects_fails_first_and_skips_the_rest(tmp_path: Path) -> None:
    bot = tmp_path / "mute.py"
    bot.write_text("import sys\nprint('I am not a bot', file=sys.stderr)\nsys.exit(3)\n")
    done = _check(f"{sys.executable} {bot}")
    assert done.returncode == 1
    assert "FAIL connects and is admitted" in done.stdout
    assert "skip answers every decision in time" in done.stdout
    assert "I am not a bot" in done.stdout  # the log tail points at the cause
