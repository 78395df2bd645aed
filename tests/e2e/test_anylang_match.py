"""Four languages at one table: the C++ kit's bot, the bash + jq stdio example, the Node SDK's
random bot and the Python SDK's random bot play a whole Scauver match; everyone ends normally
and the replay verifies (``bench/anylang.py`` measures each kind's latency in such matches)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from e2e_kit import play_match

from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
CPP = ROOT / "build" / "cpp" / "croupier-random-bot"
NODE_SDK = ROOT / "clients" / "node"


def test_cpp_stdio_node_and_python_bots_finish_a_match_that_verifies(tmp_path: Path) -> None:
    node = shutil.which("node")
    ready = CPP.is_file() and shutil.which("jq") and node and (NODE_SDK / "node_modules").is_dir()
    if not ready:
        if os.environ.get("CI") == "true":
            pytest.fail("CI builds the C++ kit and installs jq and the Node SDK (tests/run)")
        pytest.skip("needs build/cpp (tests/run), jq, node and clients/node/node_modules")
    played = play_match(
        tmp_path, "--game", "scauver", "--players", "4", "--seed", "5", "--deals", "6",
        "--bot", str(CPP),
        "--bot", f"stdio:bash {ROOT / 'clients' / 'stdio' / 'random_bot.sh'}",
        "--bot", f"{node} {NODE_SDK / 'examples' / 'random.js'}",
        "--bot", "random",
    )  # fmt: skip
    replay = read_replay(played.replay)
    names = [s["bot_name"] for s in replay.header["seats"]]
    assert names == ["cpp-random", "random-bash", "node-random", "random"]  # bash: its hello
    assert [row["ended"] for row in played.rows] == ["normal"] * 4
    decided = {r.data["seat"] for r in replay.records if r.type == "action"}
    assert decided == {0, 1, 2, 3}  # each kind of bot made decisions
    verify(replay)
