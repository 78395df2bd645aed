"""The Python SDK without the server: a venv into which pip installs only the SDK
(``clients/python``, distribution ``croupier-bot``) and the stubs package it depends on
(``proto/python``, ``croupier-proto``), built as wheels from the repository, plays a real match
against an arbiter. grpcio and protobuf are lent from this venv (symlinks, with their
``dist-info`` so pip sees the SDK's dependencies met): nothing is fetched."""

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
from croupier_bot import run, proto
server = importlib.util.find_spec("croupier")  # the server's package, under any name it has
print("server reachable:", server or "none", file=sys.stderr, flush=True)
assert proto.AS_NAS_MOVE_RAISE and proto.PlayRequest  # game and core names in one namespace
import croupier_bot.stdio  # its line mapping comes from the stubs wheel (croupier_proto.v1.stdio)
import random
from croupier_bot import resample  # its sampler too (croupier_proto.v1.deal)
sampled = []

def act(d):
    if not sampled:
        deal = resample(d, random.Random(7))
        sampled.append(deal)
        print("resampled:", len(deal.deck), "cards", file=sys.stderr, flush=True)
    try:
        d.tensor()  # needs numpy, which this venv lacks: one clear line, no crash
    except ModuleNotFoundError as exc:
        print("tensor:", exc, file=sys.stderr, flush=True)
    return d.legal_ids[-1]

run(act, name="sdk-alone", version="1")
"""


def _pip(*args: object) -> str:
    return subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *map(str, args)],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip


def _sdk_only_venv(where: Path, wheels: Path) -> Path:
    """A venv (no pip of its own) with the SDK and the stubs installed by pip; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    purelib = Path(
        subprocess.run(
            [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            check=True, capture_output=True, text=True,
        ).stdout.strip()
    )  # fmt: skip
    lent = [Path(grpc.__file__).parent, Path(protobuf.__file__).parent.parent]
    site = Path(grpc.__file__).parent.parent
    for dist in ("grpcio", "protobuf", "typing_extensions"):
        lent += site.glob(f"{dist}-*.dist-info")
    for package in lent:
        (purelib / package.name).symlink_to(package, target_is_directory=True)
    (purelib / "typing_extensions.py").symlink_to(typing_extensions.__file__)
    # built from copies: setuptools leaves build/ behind in the tree it builds in, and a stale
    # build/lib there could slip old files into a later wheel
    sources = [where.parent / "src" / name for name in ("proto", "sdk")]
    for source, tree in zip(
        sources, (ROOT / "proto" / "python", ROOT / "clients" / "python"), strict=True
    ):
        shutil.copytree(
            tree, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__")
        )
    _pip("wheel", "-q", "--no-deps", "--no-build-isolation", "--wheel-dir", wheels, *sources)
    _pip("--python", python, "install", "-q", "--no-index", "--find-links", wheels, "croupier-bot")
    return python


def test_the_sdk_plays_a_match_from_a_venv_without_the_server(e2e: Kit, tmp_path: Path) -> None:
    python = _sdk_only_venv(tmp_path / "venv", tmp_path / "wheels")
    installed = {
        line.split("==")[0].lower() for line in _pip("--python", python, "freeze").splitlines()
    }
    assert {"croupier-bot", "croupier-proto"} <= installed
    assert "croupier" not in installed
    missing = subprocess.run([python, "-c", "import croupier"], capture_output=True)
    assert missing.returncode == 1  # the server is not there to lean on
    bot = tmp_path / "bot.py"
    bot.write_text(BOT)
    run = e2e.run([[str(python), str(bot)], *[e2e.random] * 3])
    mine = run.result.seats[0]
    assert (mine.bot_name, mine.outcome, mine.rejected) == ("sdk-alone", Outcome.NORMAL, 0)
    log = run.logs[0].read_text()
    assert "server reachable: none" in log
    assert "resampled: 20 cards" in log  # As-Nas's deck (5 ranks x 4), from the stubs wheel
    assert 'tensor: tensors need numpy: pip install "croupier-bot[tensors]"' in log
    verify(read_replay(run.replay))
