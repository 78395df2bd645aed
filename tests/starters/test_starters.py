"""The starters (``starters/<language>``): each is copied out of the repository, built with the
commands of its README and nothing else, and passes ``croupier check-bot`` in all four games (one
``--game all`` run each). The README's last ``sh`` block is the recipe: its first command builds
or installs, its second is the check (its third, a match, is not run here). ``$CROUPIER`` is
a copy of this checkout's parts the READMEs use. The C++ starter's kit is installed from
tests/run's build of clients/cpp (``cmake --install build/cpp``) instead of being compiled
again; the Go starter is skipped where Debian's Go packages are missing (tests/run installs them
as root)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
STARTERS = ROOT / "starters"
KIT_BUILD = ROOT / "build" / "cpp"
#: What each starter needs on this machine (CI has all of it: tests/run installs it as root).
NEEDS = {
    "python": [],
    "node": ["npm", "node"],
    "c": ["cc"],
    "bash": ["jq"],
    "cpp": ["cmake", "c++", "pkg-config"],
    "go": ["go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc"],
}


def recipe(readme: Path) -> list[str]:
    """The commands of the README's last ``sh`` block, one per line (comments dropped, ``\\``
    continuations joined)."""
    blocks = re.findall(r"```sh\n(.*?)```", readme.read_text(), re.S)
    assert blocks, f"{readme}: no sh block"
    text = blocks[-1].replace("\\\n", " ")
    return [line.split("  #")[0].strip() for line in text.splitlines() if line.strip()]


def _need(kind: str) -> None:
    missing = [tool for tool in NEEDS[kind] if shutil.which(tool) is None]
    if kind == "cpp" and not (KIT_BUILD / "CMakeCache.txt").is_file():
        missing.append(f"{KIT_BUILD} (bash tests/run builds it)")
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs {', '.join(missing)} for the {kind} starter")
        pytest.skip(f"missing for the {kind} starter: {', '.join(missing)}")


def _checkout(to: Path) -> Path:
    """What the READMEs use of a checkout (``$CROUPIER``), copied: the builds they run (pip's in
    ``clients/python/build``, npm pack's ``prepack``) then write nothing into this one."""
    junk = shutil.ignore_patterns("build", "*.egg-info", "node_modules", "__pycache__")
    for part in ("proto", "clients/python", "clients/node"):
        shutil.copytree(ROOT / part, to / part, ignore=junk)
    return to


def _sh(command: str, cwd: Path, env: dict[str, str], timeout: float) -> str:
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", command],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert done.returncode == 0, f"$ {command}\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.parametrize("kind", list(NEEDS))
def test_a_copied_out_starter_builds_and_passes_check_bot_in_every_game(
    kind: str, tmp_path: Path
) -> None:
    _need(kind)
    here = tmp_path / kind
    shutil.copytree(STARTERS / kind, here)
    build, check, match = recipe(here / "README.md")
    assert check.startswith("croupier check-bot "), check
    assert "--game all" in check, check
    assert match.startswith("croupier match "), match
    bin_dir = str(Path(sys.executable).parent)  # where this croupier is
    env = {**os.environ, "CROUPIER": str(_checkout(tmp_path / "croupier"))}
    env["PATH"] = f"{bin_dir}:{os.environ['PATH']}"
    if kind == "cpp":  # the kit, installed where the README installs it, from tests/run's build
        env["HOME"] = str(tmp_path / "home")
        _sh(f'cmake --install {KIT_BUILD} --prefix "$HOME/.local/croupier"', here, env, 120)
    _sh(build, here, env, 300)
    out = _sh(check, here, env, 180)
    assert out.count("6 passed, 0 failed") == 4, out
    assert "4 games: 24 passed, 0 failed" in out
    assert f"check-bot: starter-{kind} in seat 0" in out  # its own name (a stdio bot: its hello)
