"""``croupier check-bot`` explains a failing bot: each kind of failure a bot author meets first
(silent, malformed lines, died at import, a file the sandbox does not show) gets a hint line
naming the cause, and a check that cannot be judged is ``skip``, not ``ok``. Real matches, real
bot processes, the real sandbox where this machine has one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from croupier.compliance import Seen, explain
from croupier.transport import Isolation, bwrap_problem

pytestmark = pytest.mark.e2e

CHECK = [sys.executable, "-m", "croupier", "check-bot"]
FAST = ("--deals", "1", "--move-ms", "150", "--bank-ms", "0")


def _check(bot: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*CHECK, bot, *FAST, *extra], capture_output=True, text=True, timeout=120)


def _hints(out: str) -> list[str]:
    return [line.strip()[len("hint: ") :] for line in out.splitlines() if "hint: " in line]


def _program(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def test_a_silent_stdio_program_is_told_what_to_write(tmp_path: Path) -> None:
    """It reads every line and writes none: the timeouts fail, legality is not judged (it was
    'ok' with nothing answered), and the hint names the stdio protocol."""
    bot = _program(tmp_path, "silent.py", "import sys\nfor line in sys.stdin:\n    pass\n")
    done = _check(f"stdio:{sys.executable} {bot}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL answers every decision in time" in done.stdout
    assert "skip answers only legal action ids" in done.stdout
    (hint,) = _hints(done.stdout)
    assert hint.startswith("it answered none of the ")
    assert "writes one line per decision to stdout" in hint


def test_a_stdio_program_writing_prose_is_shown_its_line(tmp_path: Path) -> None:
    text = (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if '\"decision\"' in line:\n"
        "        print('I play the ace', flush=True)\n"
    )
    bot = _program(tmp_path, "prose.py", text)
    done = _check(f"stdio:{sys.executable} {bot}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL answers only legal action ids" in done.stdout
    (hint,) = _hints(done.stdout)
    assert hint.startswith("its first rejected reply: ")
    assert "its line 1 was 'I play the ace'" in hint


def test_a_bot_that_dies_at_import_is_told_so(tmp_path: Path) -> None:
    bot = _program(tmp_path, "broken.py", "import croupier_no_such_module\n")
    done = _check(f"{sys.executable} {bot}")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "FAIL connects and is admitted (Hello -> Welcome): it exited with status 1" in (
        done.stdout
    )
    assert "CROUPIER_TOKEN" not in done.stdout.split("hint:")[0]  # not blamed on the address
    hints = _hints(done.stdout)
    assert any(h.startswith("it could not load a module or library") for h in hints), hints


@pytest.mark.skipif(bool(bwrap_problem()), reason="bubblewrap cannot run here")
def test_a_file_outside_the_sandbox_is_explained_with_what_the_bot_sees(tmp_path: Path) -> None:
    """The bot reads a file beside its folder, not in it: fine unsandboxed, missing inside the
    sandbox. The hint says what the sandbox shows and which variables the bot gets."""
    data = _program(tmp_path, "settings.json", "{}\n")
    text = (
        "import runpy, sys\n"
        f"open({str(data)!r}).read()\n"
        "runpy.run_module('croupier_bots.random_bot', run_name='__main__')\n"
    )
    bot = _program(tmp_path / "bot", "reads.py", text)
    done = _check(f"{sys.executable} {bot}", "--sandbox", "bwrap")
    assert done.returncode == 1, done.stdout + done.stderr
    (hint,) = _hints(done.stdout)
    assert hint.startswith("it could not open a file it needs: in the bwrap sandbox")
    assert "its own program's directory" in hint
    assert "CROUPIER_TOKEN" in hint
    assert "--sandbox none" in hint
    # and it was the sandbox: the same bot passes without one
    free = _check(f"{sys.executable} {bot}", "--sandbox", "none")
    assert free.returncode == 0, free.stdout + free.stderr
    assert not _hints(free.stdout)


def test_a_passing_bot_gets_no_hint() -> None:
    done = _check("random")
    assert done.returncode == 0, done.stdout + done.stderr
    assert not _hints(done.stdout)


def _seen(**changes: object) -> Seen:
    base: dict[str, object] = {
        "stdio": False,
        "connected": True,
        "exit_code": 0,
        "decisions": 10,
        "replied": 10,
        "first_rejection": "",
        "log": "",
        "isolation": Isolation.BWRAP,
    }
    base.update(changes)
    return Seen(**base)  # type: ignore[arg-type]


def test_explain_names_each_cause_once() -> None:
    assert explain(_seen()) == ()
    (never,) = explain(_seen(connected=False, exit_code=None, log="starting\n"))
    assert "never sent Hello" in never
    assert len(explain(_seen(connected=False, exit_code=3, log=""))) == 1  # wrote nothing
    grpc_silent = explain(_seen(replied=0))
    assert len(grpc_silent) == 1
    assert "ActionReply" in grpc_silent[0]
    # a missing file outside a sandbox is the bot's own business: no sandbox hint
    assert explain(_seen(log="FileNotFoundError: x", isolation=Isolation.NONE)) == ()
    (limits,) = explain(_seen(log="ModuleNotFoundError: x", isolation=Isolation.LIMITS))
    assert "scrubbed environment" in limits
