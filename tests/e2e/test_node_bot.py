"""Bots in another language: the Node.js SDK's example bots play real matches and pass the
compliance check (``croupier check-bot``)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from serve_kit import node_program

from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e

NODE_SDK = Path(__file__).resolve().parents[2] / "clients" / "node"


def _check_bot(bot: str, *args: str, cwd: Path | None = None) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "check-bot", bot, "--deals", "1", *args],
        capture_output=True, text=True, timeout=120, cwd=cwd,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed, 0 failed" in done.stdout


@pytest.mark.parametrize("game", ["as-nas", "fipsen", "felduz", "scauver"])
def test_the_node_random_bot_passes_check_bot(game: str) -> None:
    _check_bot(f"{node_program()} {NODE_SDK / 'examples' / 'random.js'}", "--game", game)


def test_the_node_as_nas_looker_passes_check_bot() -> None:
    _check_bot(f"{node_program()} {NODE_SDK / 'examples' / 'as-nas-looker.js'}")


def test_the_packed_sdk_installs_and_plays_in_a_project_outside_the_repo(tmp_path: Path) -> None:
    node = node_program()
    npm = shutil.which("npm")
    assert npm is not None
    quiet = ["--silent", "--no-audit", "--no-fund"]
    subprocess.run(
        [npm, "pack", *quiet, "--pack-destination", str(tmp_path)],
        cwd=NODE_SDK, check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    assert not (NODE_SDK / "proto").exists()  # the packed copy of the .proto is removed again
    (tarball,) = tmp_path.glob("croupier-bot-*.tgz")
    project = tmp_path / "my-bot"
    project.mkdir()
    (project / "package.json").write_text('{"name": "my-bot", "version": "1.0.0"}\n')
    subprocess.run(
        [npm, "install", *quiet, "--prefer-offline", str(tarball)],
        cwd=project, check=True, capture_output=True, timeout=300,
    )  # fmt: skip
    (project / "bot.js").write_text(
        'const { run } = require("croupier-bot");\n'
        "run((d) => d.legalActions[d.legalActions.length - 1].id, { name: 'packed' });\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CROUPIER_PROTO_DIR"}
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "check-bot", f"{node} bot.js", "--deals", "1",
         "--game", "felduz"],
        capture_output=True, text=True, timeout=120, cwd=project, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "check-bot: packed in seat 0" in done.stdout
    assert "6 passed, 0 failed" in done.stdout


def test_a_missing_proto_is_one_clear_error_naming_croupier_proto_dir(tmp_path: Path) -> None:
    done = subprocess.run(
        [node_program(), str(NODE_SDK / "examples" / "random.js")],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "CROUPIER_ADDRESS": "127.0.0.1:1", "CROUPIER_PROTO_DIR": str(tmp_path)},
    )  # fmt: skip
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith("node-random: cannot find croupier/v1/bot.proto in CROUPIER_PROTO_DIR=")
    assert "set CROUPIER_PROTO_DIR" in line


def test_a_match_between_node_and_python_bots(tmp_path: Path) -> None:
    node = node_program()
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
    node = node_program()
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
