"""``croupier tournament`` never launches a bot without a sandbox unless told ``--sandbox none``
(and then its standings say so), nor a bot whose own directory holds the store, the config or
the replay folder (docs/ladder.md, "Bots and their sandbox").

Both were seen to fail before: the tournament launched its bots with limits only where no
sandbox could run, and a bot living next to the store could read it.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from ladder_kit import E2E_BOTS, standings_json, tournament, write_config

pytestmark = pytest.mark.e2e

BODY = """
game = "as-nas"
seed = 4
[format]
duplicate = false
[params]
deals = 1
[clock]
move_ms = 5000
[bots]
{bots}
"""
FIELD = 'r1 = "random"\nr2 = "random"\nr3 = "random"\nr4 = "random"'
#: No bubblewrap and no util-linux unshare: no sandbox can run (as root a uid of its own is the
#: best left, without root only limits).
NO_SANDBOX = {**os.environ, "PATH": "/nonexistent", "CROUPIER_SANDBOX": "auto"}


def test_a_tournament_refuses_to_launch_bots_without_a_sandbox(tmp_path: Path) -> None:
    path = write_config(tmp_path, BODY.format(bots=FIELD))
    done = tournament(path, env=NO_SANDBOX, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("croupier: error: bots cannot be sandboxed here (bubblewrap (bwrap)")
    assert lines[0].endswith(
        "croupier tournament launches bots only in a sandbox (bubblewrap, or util-linux unshare "
        "as root); --sandbox none launches them without one"
    )
    assert not (tmp_path / "t.sqlite").exists()  # nothing started


def test_with_sandbox_none_it_runs_and_the_standings_say_so(tmp_path: Path) -> None:
    path = write_config(tmp_path, BODY.format(bots=FIELD))
    done = tournament(path, "--sandbox", "none", env=NO_SANDBOX, timeout=300)
    assert done.returncode == 0, done.stderr
    note = "warning: bots r1, r2, r3, r4 ran without isolation: no sandbox (--sandbox none)"
    assert note in done.stdout
    again = tournament("standings", tmp_path / "t.sqlite")
    assert note in again.stdout
    data = standings_json(tmp_path / "t.sqlite")
    assert data["bot_isolation"] == dict.fromkeys(("r1", "r2", "r3", "r4"), "none")


def test_the_config_key_says_none_too(tmp_path: Path) -> None:
    path = write_config(tmp_path, 'sandbox = "none"\n' + BODY.format(bots=FIELD))
    done = tournament(path, env=NO_SANDBOX, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "ran without isolation: no sandbox (--sandbox none)" in done.stdout


def test_a_sandboxed_run_after_an_unsandboxed_one_keeps_the_note(tmp_path: Path) -> None:
    """The store keeps the weakest isolation any run launched a bot in: a second run (in a
    sandbox: nothing is left to play) does not wipe the note."""
    path = write_config(tmp_path, BODY.format(bots=FIELD))
    first = tournament(path, "--sandbox", "none", env=NO_SANDBOX, timeout=300)
    assert first.returncode == 0, first.stderr
    second = tournament(path, timeout=300)
    assert second.returncode == 0, second.stderr
    assert "ran without isolation: no sandbox (--sandbox none)" in second.stdout
    data = standings_json(tmp_path / "t.sqlite")
    assert set(data["bot_isolation"].values()) == {"none"}


@pytest.mark.parametrize("what", ["store", "config", "out"])
def test_a_bot_whose_directory_holds_the_store_config_or_replays_is_refused(
    tmp_path: Path, what: str
) -> None:
    """The bot's script lies in the folder that holds the store (or the config, or the replay
    folder): it would see it in its sandbox. One line, exit status 2, nothing played."""
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    for name in ("attacker.py", "_common.py"):
        shutil.copy(E2E_BOTS / name, home / name)
    bot = f"{sys.executable} {home / 'attacker.py'}"
    places = {
        "store": f'store = "{home / "t.sqlite"}"\nout = "{tmp_path / "m"}"\n',
        "config": f'store = "{tmp_path / "s" / "t.sqlite"}"\nout = "{tmp_path / "m"}"\n',
        "out": f'store = "{tmp_path / "s" / "t.sqlite"}"\nout = "{home / "replays"}"\n',
    }
    folder = home if what == "config" else tmp_path / "cfg"
    path = write_config(folder, places[what] + BODY.format(bots=f'bad = "{bot}"\n{FIELD}'))
    done = tournament(path, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    held = {"store": home / "t.sqlite", "config": path, "out": home / "replays"}[what]
    assert lines[0] == (
        f"croupier: error: {path}: bots.bad: its directory {home} holds {held}, which no bot "
        "may see (move the bot, or the store, config and folders, elsewhere)"
    )


@pytest.mark.parametrize("what", ["store", "config"])
def test_a_store_or_config_in_a_directory_every_sandbox_binds_is_refused(
    tmp_path: Path, what: str
) -> None:
    """The store (or the config) inside the venv, which every sandbox binds read-only (as it
    does ``/usr`` and ``/opt``): a bot could read it there (without root it runs as the
    organiser's user, whatever the file's mode), and a file cannot be covered. One line, exit
    status 2, nothing played. Before, only the bots' own directories were checked."""
    bound = Path(sys.prefix) / f"croupier-test-{os.getpid()}-{tmp_path.name}"
    bound.mkdir()
    try:
        store = bound / "t.sqlite" if what == "store" else tmp_path / "s" / "t.sqlite"
        folder = bound if what == "config" else tmp_path / "cfg"
        places = f'store = "{store}"\nout = "{tmp_path / "m"}"\n'
        path = write_config(folder, places + BODY.format(bots=FIELD))
        done = tournament(path, timeout=120)
        assert done.returncode == 2, done.stdout + done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        held = store if what == "store" else path
        assert lines[0].startswith(f"croupier: error: {path}: {held} lies in "), lines[0]
        assert lines[0].endswith(
            ", which every sandbox shows its bots (read-only): keep stores, configs, keys and "
            "state folders out of it"
        )
        assert not store.exists()  # nothing started
    finally:
        shutil.rmtree(bound)


def test_a_bot_whose_folder_holds_a_named_pipe_is_refused_before_any_match(
    tmp_path: Path,
) -> None:
    """Every lane of the bot (each seating of a duplicate set) binds its folder: a named pipe
    there would carry one seating's hands to the next. One line, exit status 2, nothing
    played."""
    home = tmp_path / "home"
    home.mkdir(mode=0o755)
    shutil.copy(E2E_BOTS / "shown.py", home / "shown.py")
    os.mkfifo(home / "chan")
    bot = f"{sys.executable} {home / 'shown.py'} --pipe {home / 'chan'}"
    places = f'store = "{tmp_path / "s" / "t.sqlite"}"\nout = "{tmp_path / "m"}"\n'
    path = write_config(tmp_path / "cfg", places + BODY.format(bots=f'bad = "{bot}"\n{FIELD}'))
    done = tournament(path, timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.strip().splitlines() == [
        f"croupier: error: {path}: bots.bad: its directory {home} holds a named pipe (FIFO), "
        f"{home / 'chan'}, through which sandboxes that show the directory (the bot's other "
        "lanes, another seat of its match) could pass each other data: remove it, or keep the "
        "bot in a folder of its own"
    ]
    assert not (tmp_path / "m").exists() or not list((tmp_path / "m").glob("*.jsonl"))
