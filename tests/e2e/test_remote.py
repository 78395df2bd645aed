"""``croupier match --bot remote``: a seat whose bot is not launched by the arbiter but dials in
from elsewhere with the token the arbiter prints (how competitors' machines join a match)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e


def test_a_remote_bot_joins_with_the_printed_token(tmp_path: Path) -> None:
    arbiter = subprocess.Popen(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", "5",
         "--deals", "2", "--out", str(tmp_path), "--bot", "remote", "--bot", "random",
         "--connect-timeout", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert arbiter.stderr is not None
        address = token = None
        for line in arbiter.stderr:
            if found := re.search(r"listening on (\S+);", line):
                address = found.group(1)
            if found := re.search(r"seat 0: CROUPIER_TOKEN=(\S+)", line):
                token = found.group(1)
                break
        assert address
        assert token
        env = dict(os.environ, CROUPIER_ADDRESS=address, CROUPIER_TOKEN=token)
        bot = subprocess.run(
            [sys.executable, "-m", "croupier_bots.random_bot"],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert bot.returncode == 0, bot.stderr
        out, _ = arbiter.communicate(timeout=60)
    finally:
        arbiter.kill()
    assert arbiter.returncode == 0
    (replay,) = tmp_path.glob("*.jsonl")
    parsed = read_replay(replay)
    seat = dict(parsed.header["seats"][0])
    assert seat.pop("peer").startswith("ipv4:127.0.0.1:")  # where the remote bot came from
    assert seat == {"seat": 0, "bot_name": "random", "bot_version": "1", "connected": True}
    verify(parsed)
    assert "normal" in out
    assert not (tmp_path / f"{parsed.header['match_id']}.seat0.log").exists()  # not launched here


def test_a_remote_seat_nobody_joins_is_played_by_default(tmp_path: Path) -> None:
    """After the connect timeout the match goes on; the empty seat ends disconnected."""
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", "5",
         "--deals", "1", "--out", str(tmp_path), "--bot", "remote", "--connect-timeout", "1"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0
    row = next(line for line in done.stdout.splitlines() if "(remote)" in line)
    assert row.split()[1] == "0"  # seat 0
    assert "disconnected" in row
