"""The Python SDK without the server: a venv holding only ``croupier_bot``, the generated
``croupier.v1`` package (no ``croupier/__init__.py``, none of the server's code) and the
third-party packages they import (grpcio, protobuf) plays a real match against an arbiter."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
import typing_extensions
from e2e_kit import Kit
from google import protobuf

from croupier.arbiter import Outcome
from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
BOT = """\
import importlib.util, sys
from croupier_bot import run
server = [m for m in ("croupier.arbiter", "croupier.transport", "croupier.games")
          if importlib.util.find_spec(m) is not None]
print("server modules reachable:", server or "none", file=sys.stderr, flush=True)
run(lambda d: d.legal_ids[-1], name="sdk-alone", version="1")
"""


def _sdk_only_venv(where: Path) -> Path:
    """A venv (no pip) with the SDK, the stubs and their third-party imports; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    )  # fmt: skip
    for package in (Path(grpc.__file__).parent, Path(protobuf.__file__).parent.parent):
        (purelib / package.name).symlink_to(package, target_is_directory=True)
    (purelib / "typing_extensions.py").symlink_to(typing_extensions.__file__)
    shutil.copytree(ROOT / "clients" / "python" / "croupier_bot", purelib / "croupier_bot")
    stubs = purelib / "croupier" / "v1"
    shutil.copytree(ROOT / "server" / "croupier" / "v1", stubs)
    assert not (purelib / "croupier" / "__init__.py").exists()
    return python


def test_the_sdk_plays_a_match_from_a_venv_without_the_server(e2e: Kit, tmp_path: Path) -> None:
    python = _sdk_only_venv(tmp_path / "venv")
    missing = subprocess.run([python, "-c", "import croupier.arbiter"], capture_output=True)
    assert missing.returncode == 1  # the server is not there to lean on
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    run = e2e.run([[str(python), str(bot)], *[e2e.random] * 3])
    mine = run.result.seats[0]
    assert (mine.bot_name, mine.outcome, mine.rejected) == ("sdk-alone", Outcome.NORMAL, 0)
    assert "server modules reachable: none" in run.logs[0].read_text()
    verify(read_replay(run.replay))
