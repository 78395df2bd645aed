"""Adding a game touches only the files CONTRIBUTING.md names ("Adding a game"): tried here.

A copy of the tree gets a fifth game, Tryout (As-Nas under another name: its package, its
``.proto`` with its entries in ``bot.proto``'s four oneofs, its rules page and its line of
``pyproject.toml``, and nothing else written by hand; the generated stubs and golden
playthrough made by their scripts), and must then run it everywhere the other games run: the
conformance and golden tests, the wire contract, both SDKs' round history, the SDK's proto
namespace, the terminal board and the web page's renderer. A per-game table anywhere outside the
game's files (a list of games in the server or an SDK) fails it, and so does a CONTRIBUTING.md
whose list differs from the files written here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The model game and the new one: (package, name, message prefix, enum prefix, title).
OLD = ("as_nas", "as-nas", "AsNas", "AS_NAS", "As-Nas")
NEW = ("tryout", "tryout", "Tryout", "TRYOUT", "Tryout")
#: The new game's entries in ``bot.proto``: (message, oneof, entry type, entry name, number).
ONEOFS = (
    ("Observation", "game", "TryoutObservation", "tryout", 1000),
    ("LegalAction", "detail", "TryoutAction", "tryout", 1000),
    ("DealEnded", "game", "TryoutDealResult", "tryout", 1000),
    ("DealEnded", "past", "TryoutPastDeal", "tryout_past", 1001),
)
#: The tests, in the copy, that run every game (``-k tryout`` picks the new one's cases; not the
#: Python SDK's hidden-card sampler's, which is optional per-game code, CONTRIBUTING.md).
TESTS = (
    "tests/games/test_conformance.py",
    "tests/golden/test_golden.py",
    "tests/transport/test_contract.py",
    "tests/games/test_resample.py",
    "tests/games/test_random_play.py",
    "tests/games/test_legal_runs.py",
    "tests/env/test_sdk_tensors.py",
    "tests/env/test_env_api.py",
    "tests/env/test_env_no_leak.py",
    "tests/arbiter/test_chance_script.py",
    "tests/arbiter/test_fault_policy.py",
    "tests/arbiter/test_fault_no_leak.py",
    "tests/transport/test_encode_bytes.py",
)
#: Tryout's deals are As-Nas's: its resample hands the shared sampler (``croupier_proto.v1.deal``,
#: which knows the four games' deals) its wire view as As-Nas's message (the same fields and
#: numbers).
SAMPLE, ADAPTED = "sample_wire(wire(codec.CODEC, obs),", "_as_as_nas(wire(codec.CODEC, obs),"
SAMPLER = """

def _as_as_nas(observation: Any, seat: int, rng: Rng) -> Any:
    from croupier.v1 import as_nas_pb2, bot_pb2

    view = as_nas_pb2.AsNasObservation.FromString(observation.tryout.SerializeToString())
    return sample_wire(bot_pb2.Observation(as_nas=view), seat, rng)
"""
#: What the new game must show outside its own files (run in the copy).
CHECK = """
import json, subprocess, sys
import numpy as np
from croupier.games import CHANCE, get_spec
from croupier.games._drive import play, random_moves
from croupier.cli._watch import board
from croupier.serve._web import _game_boards
from croupier.v1 import bot_pb2, tryout_pb2
from croupier_bot import proto
from croupier_bot._view import PAST_FIELD

assert PAST_FIELD.get("tryout") == "past_deals", PAST_FIELD
assert proto.TryoutObservation is tryout_pb2.TryoutObservation, "croupier_bot.proto"
spec = get_spec("tryout")
game = spec.game
start = game.initial_state(game.info.make_params({}))
moves = play(game, start, random_moves(game, np.random.default_rng(1)))
first = next(ply for ply in moves if ply.player != CHANCE)
observation = game.observe(first.before, first.player)
view = bot_pb2.Observation()
spec.codec.observation(observation, view)
assert view.WhichOneof("game") == "tryout"
assert board(view) == spec.narrator.board(view.tryout) != "", repr(board(view))
assert b".tryout = " in _game_boards(), "the web page does not serve the game's renderer"
node = subprocess.run(
    ["node", "-e", "process.stdout.write(String(require('./clients/node').pastField('tryout')))"],
    capture_output=True, text=True, check=True,
)
assert node.stdout == "past_deals", "the Node SDK: " + node.stdout + node.stderr
print("tryout: every check passed")
"""


def _files() -> list[str]:
    """The tree as git sees it (tracked and new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    return [name for name in listed.split("\0") if name and (ROOT / name).is_file()]


def _rename(text: str) -> str:
    for old, new in zip(OLD, NEW, strict=True):
        text = text.replace(old, new)
    return text


def _add_entries(bot_proto: str) -> str:
    """``bot.proto`` with the new game's import and its entry in each oneof."""
    text = bot_proto.replace(
        'import "croupier/v1/as_nas.proto";\n',
        'import "croupier/v1/as_nas.proto";\nimport "croupier/v1/tryout.proto";\n',
    )
    for message, oneof, kind, name, number in ONEOFS:
        opening = re.compile(rf"^message {message} {{\n(?:.*\n)*?(\s*)oneof {oneof} {{\n", re.M)
        found = opening.search(text)
        assert found, f"no oneof {message}.{oneof} in bot.proto"
        indent = found.group(1).lstrip("\n") + "  "
        entry = f"{indent}// Tryout.\n{indent}{kind} {name} = {number};\n"
        text = text[: found.end()] + entry + text[found.end() :]
    return text


def add_game(root: Path) -> list[str]:
    """Write Tryout into the tree at ``root`` by hand, as CONTRIBUTING.md says; the files
    written or changed, relative to ``root`` (the generated ones are made by the scripts)."""
    written = []

    def write(relative: str, text: str) -> None:
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
        written.append(relative)

    model = root / "server/croupier/games/as_nas"
    for part in sorted(model.iterdir()):
        if part.suffix in (".py", ".js") and part.name != "__init__.py":
            text = _rename(part.read_text())
            if part.name == "resample.py":  # (a new game samples its own deals; this one
                text = text.replace(SAMPLE, ADAPTED) + SAMPLER  # borrows As-Nas's sampler)
            write(f"server/croupier/games/tryout/{part.name}", text)
    write(
        "server/croupier/games/tryout/__init__.py",
        '"""Tryout: As-Nas under another name, a throwaway game."""\n\n'
        "from croupier.games._spec import Bots, GameSpec, Playthrough\n\n"
        "SPEC = GameSpec(\n"
        "    package=__name__,\n"
        '    bots=Bots(lineup=("random",)),\n'
        '    playthrough=Playthrough(params={"deals": 3}, seed=20261202),\n'
        ")\n",
    )
    proto = root / "proto/croupier/v1"
    write("proto/croupier/v1/tryout.proto", _rename((proto / "as_nas.proto").read_text()))
    write("proto/croupier/v1/bot.proto", _add_entries((proto / "bot.proto").read_text()))
    write("docs/rules/tryout.md", _rename((root / "docs/rules/as-nas.md").read_text()))
    pyproject = (root / "pyproject.toml").read_text()
    line = '"croupier.games.as_nas",'
    assert line in pyproject
    write("pyproject.toml", pyproject.replace(line, f'{line} "croupier.games.tryout",'))
    return written


def documented() -> list[str]:
    """The files CONTRIBUTING.md's "Adding a game" table says a new game needs, for Tryout."""
    text = (ROOT / "CONTRIBUTING.md").read_text()
    section = text.split("## Adding a game", 1)[1].split("\n## ", 1)[0]
    table = section.split("| file |", 1)[1].split("\n\n", 1)[0]
    paths = re.findall(r"^\| `([^`]+)` \|", table, re.M)
    return sorted(p.replace("my_game", "tryout").replace("my-game", "tryout") for p in paths)


def _run(root: Path, *command: str) -> subprocess.CompletedProcess[str]:
    path = os.pathsep.join(str(root / p) for p in ("server", "clients/python", "proto/python"))
    env = {**os.environ, "PYTHONPATH": path, "CROUPIER_PROTO_DIR": str(root / "proto")}
    return subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_a_new_game_needs_only_the_files_contributing_names(tmp_path: Path) -> None:
    root = tmp_path / "tree"
    for name in _files():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, root / name)
    (root / "clients/node/node_modules").symlink_to(ROOT / "clients/node/node_modules")

    written = add_game(root)
    hand_written = sorted(
        f"server/croupier/games/tryout/{Path(w).name}" if "/games/tryout/" in w else w
        for w in written
        if not w.endswith(".js")  # a web renderer is optional (the page has a plain board)
    )
    assert hand_written == documented(), "CONTRIBUTING.md's list is not what a game needs"

    for script in ("proto/generate.py", "tests/golden/regenerate.py"):
        made = _run(root, sys.executable, script)
        assert made.returncode == 0, f"{script}: {made.stdout}{made.stderr}"
    ran = _run(
        root, sys.executable, "-m", "pytest", *TESTS, "-k", "tryout and not sdk_draws", "-q",
        "-p", "no:cacheprovider", "-o", "addopts=--strict-markers",
    )  # fmt: skip
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    passed = re.search(r"(\d+) passed", ran.stdout)
    assert passed, ran.stdout[-2000:]
    assert int(passed.group(1)) >= 25, ran.stdout[-2000:]  # (29 when this was written)
    checked = _run(root, sys.executable, "-c", CHECK)
    assert checked.returncode == 0, checked.stdout + checked.stderr[-3000:]
