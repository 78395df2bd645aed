"""Bots in another language: the Node.js SDK's example bots play real matches and pass the
compliance check (``croupier check-bot``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e

NODE_SDK = Path(__file__).resolve().parents[2] / "clients" / "node"


def _node() -> str:
    node = shutil.which("node")
    ready = node is not None and (NODE_SDK / "node_modules" / "@grpc" / "grpc-js").is_dir()
    if not ready:
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs node and `npm ci --prefix clients/node` (tests/run does it)")
        pytest.skip("node or the Node SDK's dependencies are missing (run bash tests/run)")
    assert node is not None
    return node


@pytest.mark.parametrize("example", ["random.js", "as-nas-looker.js"])
def test_node_example_bots_pass_check_bot(example: str) -> None:
    bot = f"{_node()} {NODE_SDK / 'examples' / example}"
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "check-bot", bot, "--deals", "3"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed, 0 failed" in done.stdout


def test_a_match_between_node_and_python_bots(tmp_path: Path) -> None:
    node = _node()
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", "4",
         "--deals", "4", "--out", str(tmp_path),
         "--bot", f"{node} {NODE_SDK / 'examples' / 'as-nas-looker.js'}",
         "--bot", "as-nas-heuristic",
         "--bot", f"{node} {NODE_SDK / 'examples' / 'random.js'}",
         "--bot", "random"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (replay,) = tmp_path.glob("*.jsonl")
    parsed = read_replay(replay)
    names = [s["bot_name"] for s in parsed.header["seats"]]
    assert names == ["node-looker", "as-nas-heuristic", "node-random", "random"]
    assert all(s["outcome"] == "normal" for s in parsed.records[-1].data["seats"])
    verify(parsed)


def test_node_sdk_reports_a_refusal_with_its_reason() -> None:
    node = _node()
    script = (
        "const { play } = require(process.argv[1]);"
        "play(() => 0, { address: '127.0.0.1:1', token: 'x' })"
        ".then(() => process.exit(0), (e) => { console.log('ERR', e.code); process.exit(3); });"
    )
    done = subprocess.run(
        [node, "-e", script, str(NODE_SDK)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 3
    assert "ERR UNAVAILABLE" in done.stdout
