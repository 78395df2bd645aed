"""``croupier check-bot``: the compliance command passes a good bot, names what a bad one does."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.arbiter import ClockRules, MatchConfig
from croupier.compliance import Status, check_bot
from croupier.errors import ConfigError

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


def test_several_games_in_one_run_each_report_and_a_total(tmp_path: Path) -> None:
    """``--game all`` (or a comma list) plays one match per game at once: a report per game,
    in the order asked, each game's files under ``--out/GAME``, then the total; a bot that fails
    in one game fails the run."""
    done = _check("random", "--game", "scauver,fipsen", "--out", str(tmp_path / "out"))
    assert done.returncode == 0, done.stdout + done.stderr
    heads = [line for line in done.stdout.splitlines() if line.startswith("check-bot:")]
    assert [h.split(" of ")[1].split(",")[0] for h in heads] == ["scauver", "fipsen"]
    assert done.stdout.count("6 passed, 0 failed") == 2
    assert done.stdout.rstrip().endswith("2 games: 12 passed, 0 failed")
    assert {p.name for p in (tmp_path / "out").iterdir()} == {"scauver", "fipsen"}
    bad = tmp_path / "bad.py"
    bad.write_text("from croupier_bot import run\nrun(lambda d: 99, name='always-99')\n")
    done = _check(f"{sys.executable} {bad}", "--game", "all", "--move-ms", "500", "--bank-ms", "0")
    assert done.returncode == 1
    assert done.stdout.count("FAIL answers only legal action ids") == 4
    assert "4 games: 20 passed, 4 failed" in done.stdout
    wrong = _check("random", "--game", "fipsen,chess")
    assert wrong.returncode == 2
    assert "'chess' is not a game" in wrong.stderr


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


def test_the_compliance_module_returns_a_structured_report(tmp_path: Path) -> None:
    """check_bot itself, without the CLI: each check is a value the caller can read."""
    bot = tmp_path / "bad.py"
    bot.write_text("from croupier_bot import run\nrun(lambda d: 99, name='always-99')\n")
    config = MatchConfig("as-nas", {"deals": 1}, seed=3, clock=ClockRules(500, 0))
    report = asyncio.run(check_bot(f"{sys.executable} {bot}", config, seat=1))
    status = {c.name: c.status for c in report.checks}
    assert (report.bot_name, report.seat) == ("always-99", 1)
    assert report.decisions > 0
    assert status["connects and is admitted (Hello -> Welcome)"] is Status.PASSED
    assert status["answers only legal action ids for the pending request_id"] is Status.FAILED
    assert status["the replay verifies"] is Status.PASSED
    assert report.failed == 1
    assert report.replay is None
    bad = next(c for c in report.checks if c.status is Status.FAILED)
    assert bad.detail.endswith("replies rejected")


def test_the_compliance_module_refuses_a_seat_the_game_lacks() -> None:
    with pytest.raises(ConfigError, match=r"has seats 0\.\.3"):
        asyncio.run(check_bot("random", MatchConfig("as-nas", {"deals": 1}), seat=4))
