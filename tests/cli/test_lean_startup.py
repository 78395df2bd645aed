"""Start-up imports what the command runs (issue 20, "fast start-up"), checked by what a real
``croupier`` process has imported when it exits, not by timing it.

``croupier --version`` and ``--help`` import no game, no gRPC, no protobuf, no numpy, no
structlog, no asyncio: the subcommands' arguments are added when one is chosen. ``croupier
replay verify`` of an As-Nas replay imports the As-Nas rules and what verifying needs (numpy for
the seed's draws) and nothing of gRPC, protobuf (the wire codec), structlog, asyncio or the
other games. A bundled bot imports its SDK and the wire stubs, never the server. The package
facades (``croupier.arbiter``, ``croupier.replay``) import a module when one of its names is
first read, and name the same things for the type checker as at run time.
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import croupier

#: What a command that needs none of them must not import.
HEAVY = ("grpc", "google.protobuf", "numpy", "structlog", "asyncio", "croupier.v1.")
GAME_PACKAGES = ("croupier.games.as_nas", "croupier.games.felduz", "croupier.games.fipsen",
                 "croupier.games.scauver")  # fmt: skip

_PROBE = r"""
import atexit, json, sys
out, *argv = sys.argv[1:]
atexit.register(lambda: open(out, "w").write(json.dumps(sorted(sys.modules))))
sys.argv = ["croupier", *argv]
from croupier.__main__ import run
run()
"""


def imported_by(tmp_path: Path, *argv: str) -> tuple[int, set[str]]:
    """Run ``croupier ARGV`` in a fresh process: its exit status and every module it had
    imported when it exited."""
    out = tmp_path / "modules.json"
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, str(out), *argv],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.exists(), done.stderr
    return done.returncode, set(json.loads(out.read_text()))


def heavy(modules: set[str], also: tuple[str, ...] = ()) -> list[str]:
    names = (*HEAVY, *also)
    return sorted(m for m in modules if any(m == n.rstrip(".") or m.startswith(n) for n in names))


@pytest.mark.parametrize(
    "argv", [("--version",), ("--help",), ("-v", "--version"), ("replay", "--help"), ("bogus",)]
)
def test_version_and_help_import_no_game_and_no_grpc(tmp_path: Path, argv: tuple[str]) -> None:
    status, modules = imported_by(tmp_path, *argv)
    assert status in (0, 2)
    assert heavy(modules, GAME_PACKAGES) == []
    assert "croupier.arbiter._match" not in modules
    assert "croupier.transport._server" not in modules


@pytest.fixture(scope="module")
def as_nas_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real 2-deal As-Nas replay, recorded in this process by the arbiter."""
    from croupier.arbiter import MatchConfig
    from croupier.replay import record_match

    path = tmp_path_factory.mktemp("lean") / "m.jsonl"
    first = lambda request: request.legal_actions[0]  # noqa: E731
    record_match(MatchConfig("as-nas", {"deals": 2}, seed=9), path, [first] * 4, ["first"] * 4)
    return path


def test_verify_imports_the_replays_rules_and_no_wire(tmp_path: Path, as_nas_replay: Path) -> None:
    status, modules = imported_by(tmp_path, "replay", "verify", str(as_nas_replay))
    assert status == 0
    assert heavy(modules, ("croupier.transport", "croupier.games.felduz",
                           "croupier.games.fipsen", "croupier.games.scauver")) == [
        m for m in heavy(modules) if m == "numpy" or m.startswith("numpy.")
    ]  # fmt: skip
    assert "croupier.games.as_nas.rules" in modules
    assert "croupier.games.as_nas.codec" not in modules  # the wire codec: protobuf
    assert "croupier.arbiter._match" not in modules  # the match loop: asyncio, structlog


def test_a_bundled_bot_imports_its_sdk_and_not_the_server(tmp_path: Path) -> None:
    out = tmp_path / "modules.json"
    probe = (
        "import json, sys, croupier_bots.random_bot;"
        f"open({str(out)!r}, 'w').write(json.dumps(sorted(sys.modules)))"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=120)
    modules = set(json.loads(out.read_text()))
    assert "croupier_bot" in modules
    assert sorted(m for m in modules if m == "croupier" or m.startswith("croupier.")) == []
    assert sorted(m for m in modules if m == "numpy" or m.startswith("numpy.")) == []
    # what only dialling gRPC needs: a bot launched with a session pipe never does
    assert sorted(m for m in modules if m.split(".")[0] in ("grpc", "asyncio")) == []


FACADES = ("croupier.arbiter", "croupier.replay", "croupier_bot")


@pytest.mark.parametrize("name", FACADES)
def test_a_facade_names_for_the_type_checker_what_it_serves(name: str) -> None:
    """The ``if TYPE_CHECKING:`` imports of the package name exactly the facade's names, each
    from the module the facade imports it from, and every name of ``__all__`` resolves."""
    package = importlib.import_module(name)
    source = Path(package.__file__ or "").read_text()
    typed: dict[str, tuple[str, str]] = {}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom)
                assert stmt.module
                for alias in stmt.names:
                    typed[alias.asname or alias.name] = (stmt.module, alias.name)
    eager = {n for n in package.__all__ if n in vars(package)} - set(typed)
    assert set(typed) | eager == set(package.__all__)
    for public, (module, original) in typed.items():
        assert getattr(package, public) is getattr(importlib.import_module(module), original)
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="no attribute 'nothing_here'"):
        package.nothing_here  # noqa: B018


def test_the_arbiter_facade_imports_a_module_when_a_name_is_read(tmp_path: Path) -> None:
    out = tmp_path / "modules.json"
    probe = (
        "import json, sys; from croupier.arbiter import Fault, check_seed;"
        f"open({str(out)!r}, 'w').write(json.dumps(sorted(sys.modules)))"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=120)
    modules = set(json.loads(out.read_text()))
    assert {"croupier.arbiter._types", "croupier.arbiter._seeds"} <= modules
    assert heavy(modules, ("croupier.arbiter._match", *GAME_PACKAGES)) == []


def test_the_games_are_listed_without_being_imported(tmp_path: Path) -> None:
    out = tmp_path / "modules.json"
    probe = (
        "import json, sys; from croupier.games import GAMES, get_game;"
        "names = list(GAMES); get_game('felduz');"
        f"open({str(out)!r}, 'w').write(json.dumps([names, sorted(sys.modules)]))"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=120)
    names, modules = json.loads(out.read_text())
    assert names == ["as-nas", "felduz", "fipsen", "scauver"]
    games = {m for m in modules if m.startswith(GAME_PACKAGES)}
    assert games == {"croupier.games.felduz", "croupier.games.felduz.rules"}


def test_croupier_itself_imports_only_the_protocol_constant() -> None:
    assert croupier.PROTOCOL_VERSION >= 2
