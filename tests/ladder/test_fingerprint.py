"""A bot's fingerprint (``bots.exe_sha256``): the files its command runs, so a tournament refuses
to resume with another program under the same name.

Contract under test: a bundled bot run as ``python -m croupier_bots.<name>`` is fingerprinted by
its module, its package's ``__init__`` and every module of that package it imports, transitively
(a search bot's ``_search.py`` counts, a module it does not import does not); a script bot by
its file; a changed program is refused in one line on resume, while a store that recorded the
earlier, module-only fingerprint of an unchanged bundled bot is accepted and upgraded.
"""

from __future__ import annotations

import importlib
import sqlite3
import sys
from pathlib import Path

import pytest
from ladder_kit import tournament, write_config

from croupier.ladder._play import _files_of, executable_hash, legacy_executable_hash


def test_a_bundled_search_bot_counts_the_shared_search_code() -> None:
    files = {p.name for p in _files_of([sys.executable, "-m", "croupier_bots.scauver_search"])}
    assert {"scauver_search.py", "_search.py", "_chips_search.py", "scauver_heuristic.py"} <= files
    assert "__init__.py" in files
    assert "fipsen_search.py" not in files  # imported by nobody on its path


def _package(root: Path, helper: str, unused: str) -> None:
    pkg = root / "fp_pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "bot.py").write_text("from ._helper import X\nimport fp_pkg.deep.leaf\nprint(X)\n")
    (pkg / "_helper.py").write_text(helper)
    (pkg / "deep").mkdir(exist_ok=True)
    (pkg / "deep" / "__init__.py").write_text("from .. import _helper\n")
    (pkg / "deep" / "leaf.py").write_text("Y = 2\n")
    (pkg / "unused.py").write_text(unused)
    importlib.invalidate_caches()


def test_the_fingerprint_follows_imports_within_the_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    argv = [sys.executable, "-m", "fp_pkg.bot"]
    _package(tmp_path, "X = 1\n", "Z = 1\n")
    names = sorted(p.relative_to(tmp_path).as_posix() for p in _files_of(argv))
    assert names == [
        "fp_pkg/__init__.py",
        "fp_pkg/_helper.py",
        "fp_pkg/bot.py",
        "fp_pkg/deep/__init__.py",
        "fp_pkg/deep/leaf.py",
    ]
    first = executable_hash(argv)
    module_only = legacy_executable_hash(argv)
    _package(tmp_path, "X = 1\n", "Z = 2\n")  # a module nothing imports
    assert executable_hash(argv) == first
    _package(tmp_path, "X = 3\n", "Z = 2\n")  # a helper the bot imports
    changed = executable_hash(argv)
    assert changed != first
    # the earlier fingerprint: the module alone, blind to its helper's change
    assert legacy_executable_hash(argv) == module_only != changed


ONE_MATCH = """
game = "as-nas"
seed = 4
rounds = 1
[params]
deals = 1
[clock]
move_ms = 5000
[bots]
a = "random"
b = "random"
c = "random"
d = "{script}"
"""


@pytest.mark.e2e
def test_a_changed_program_is_refused_and_an_old_store_s_fingerprint_upgraded(
    tmp_path: Path,
) -> None:
    bundled = Path(importlib.import_module("croupier_bots.random_bot").__file__ or "")
    (tmp_path / "bot").mkdir()
    script = tmp_path / "bot" / "mine.py"  # (beside the store, a bot could read the replays)
    script.write_text(bundled.read_text())
    path = write_config(tmp_path / "run", ONE_MATCH.format(script=f"{sys.executable} {script}"))
    done = tournament(path, "--concurrency", 1)
    assert done.returncode == 0, done.stderr
    store = tmp_path / "run" / "t.sqlite"

    # a store made before: the bundled bot's module alone (unchanged, so it is accepted)
    argv = [sys.executable, "-m", "croupier_bots.random_bot"]
    conn = sqlite3.connect(store)
    with conn:
        old = legacy_executable_hash(argv)
        conn.execute("UPDATE bots SET exe_sha256 = ? WHERE name = 'a'", (old,))
    conn.close()
    again = tournament(path, "--concurrency", 1)
    assert again.returncode == 0, again.stderr
    conn = sqlite3.connect(store)
    (recorded,) = conn.execute("SELECT exe_sha256 FROM bots WHERE name = 'a'").fetchone()
    conn.close()
    assert recorded == executable_hash(argv), _files_of(argv)

    script.write_text(bundled.read_text() + "\n# another program\n")
    refused = tournament(path, "--concurrency", 1)
    assert refused.returncode == 2
    lines = refused.stderr.strip().splitlines()
    assert len(lines) == 1, refused.stderr
    assert lines[0].startswith(f"croupier: error: {store}: bot 'd' is not the program")


def test_finding_the_files_runs_none_of_the_bot_s_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.syspath_prepend(str(tmp_path))
    marker = tmp_path / "ran"
    pkg = tmp_path / "fp_loud"
    pkg.mkdir()
    body = f"open({str(marker)!r}, 'w').close()\nraise RuntimeError('ran')\n"
    (pkg / "__init__.py").write_text(body)
    (pkg / "__main__.py").write_text("from .engine import Engine\n")
    (pkg / "engine.py").write_text(body + "class Engine: ...\n")
    (pkg / "bot.py").write_text("from .engine import Engine\n")
    importlib.invalidate_caches()
    names = {p.name for p in _files_of([sys.executable, "-m", "fp_loud.bot"])}
    assert names == {"__init__.py", "bot.py", "engine.py"}
    # a package run with -m: its __main__ and what that imports
    assert {p.name for p in _files_of([sys.executable, "-m", "fp_loud"])} == {
        "__init__.py",
        "__main__.py",
        "engine.py",
    }
    assert not marker.exists()  # nothing of it was imported (run) to find them


def test_a_module_that_cannot_be_found_falls_back_to_the_command_s_files() -> None:
    for module in ("nosuch.pkg.mod", ".relative", "croupier_bots.nosuch"):
        files = _files_of([sys.executable, "-m", module])
        assert files == [Path(sys.executable).resolve()], module
        assert executable_hash([sys.executable, "-m", module])
        assert legacy_executable_hash([sys.executable, "-m", module])
