"""``croupier serve`` launches bots (``bundled:`` bots, its tournaments' bots) only in a sandbox:
where none can run it refuses to start, in one line with exit status 2, unless told
``--sandbox none``; then its standings say so (docs/server.md, "Launched bots").

Seen to fail before: the server started and launched its bots with limits only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from serve_kit import CROUPIER, ServeProcess, ctl

pytestmark = pytest.mark.e2e

#: No bubblewrap and no util-linux unshare on PATH: no sandbox can run.
NO_SANDBOX = {"PATH": "/nonexistent", "CROUPIER_SANDBOX": "auto"}


def test_the_server_refuses_to_start_where_no_sandbox_can_run(tmp_path: Path) -> None:
    state = tmp_path / "state"
    try:
        done = subprocess.run(
            [*CROUPIER, "serve", "--state-dir", str(state), "--bot-listen", "127.0.0.1:0",
             "--control-listen", "127.0.0.1:0"],
            capture_output=True, text=True, timeout=30, env={**os.environ, **NO_SANDBOX},
        )  # fmt: skip
    except subprocess.TimeoutExpired as exc:
        raise AssertionError(f"the server started: {exc.stdout!r}") from None
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("croupier: error: bots cannot be sandboxed here (bubblewrap (bwrap)")
    assert lines[0].endswith(
        "croupier serve launches bots only in a sandbox (bubblewrap, or util-linux unshare as "
        "root); --sandbox none launches them without one"
    )
    assert done.stdout == ""


def test_with_sandbox_none_it_serves_and_its_standings_say_so(tmp_path: Path) -> None:
    with ServeProcess(tmp_path / "state", "--sandbox", "none", env=NO_SANDBOX) as server:
        done = ctl(server, "standings")
        assert done.returncode == 0, done.stderr
        note = (
            "warning: this server launches its bots without a sandbox: no sandbox (--sandbox none)"
        )
        assert note in done.stdout.splitlines()
        data = ctl(server, "standings", "--json")
        assert (
            '"isolation_warning": "this server launches its bots without a sandbox' in data.stdout
        )


def test_a_sandboxed_servers_standings_have_no_warning(tmp_path: Path) -> None:
    from croupier.transport import bwrap_problem, unshare_problem

    if bwrap_problem() and unshare_problem():
        pytest.skip("no sandbox can run here")
    with ServeProcess(tmp_path / "state", env={"CROUPIER_SANDBOX": "auto"}) as server:
        done = ctl(server, "standings")
        assert done.returncode == 0, done.stderr
        assert "warning" not in done.stdout


def test_a_tournament_whose_bot_lives_in_the_state_folder_is_refused(tmp_path: Path) -> None:
    """A tournament given to the server names a bot inside the server's state folder (its store,
    keys, replays): INVALID_ARGUMENT, one line, nothing started."""
    state = tmp_path / "state"
    with ServeProcess(state, env={"CROUPIER_SANDBOX": "auto"}) as server:
        home = state / "tournaments-bot"
        home.mkdir()
        bot = home / "bot.py"
        bot.write_text("print('hi')\n")
        config = tmp_path / "t.toml"
        config.write_text(
            'name = "t1"\ngame = "as-nas"\n[params]\ndeals = 1\n[bots]\n'
            f'bad = "{sys.executable} {bot}"\nr1 = "random"\nr2 = "random"\nr3 = "random"\n'
        )
        done = ctl(server, "tournament", config)
        assert done.returncode != 0, done.stdout
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert f"bots.bad: its directory {home} lies in {state}, which no bot may see" in lines[0]


@pytest.mark.parametrize("what", ["config", "operator-key"])
def test_a_server_config_or_key_in_a_directory_every_sandbox_binds_is_refused(
    tmp_path: Path, what: str
) -> None:
    """The server's config file, or its operator key's file, inside the venv (bound read-only
    into every sandbox, as ``/usr`` and ``/opt`` are): its bots could read it. One line, exit
    status 2. Before, only a bot's own directory was checked, and for the state folder and
    config only."""
    from croupier.transport import bwrap_problem, unshare_problem

    if bwrap_problem() and unshare_problem():
        pytest.skip("no sandbox can run here")
    bound = Path(sys.prefix) / f"croupier-test-{os.getpid()}-{tmp_path.name}"
    bound.mkdir()
    try:
        key = bound / "operator.key"
        config = (bound if what == "config" else tmp_path) / "croupier.toml"
        roles = f'[roles]\noperator_key_file = "{key}"\n' if what == "operator-key" else ""
        config.write_text("[serve]\n" + roles)
        done = subprocess.run(
            [*CROUPIER, "serve", "--config", str(config), "--state-dir", str(tmp_path / "s"),
             "--bot-listen", "127.0.0.1:0", "--control-listen", "127.0.0.1:0"],
            capture_output=True, text=True, timeout=60,
            env={**os.environ, "CROUPIER_SANDBOX": "auto"},
        )  # fmt: skip
    finally:
        shutil.rmtree(bound)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    held = config if what == "config" else key
    assert lines[0].startswith(f"croupier: error: {held} lies in "), lines[0]
    assert lines[0].endswith("which every sandbox shows its bots (read-only): keep stores, "
                             "configs, keys and state folders out of it")  # fmt: skip
