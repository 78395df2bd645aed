"""Bots without gRPC: programs behind the stdio bridge (``--bot stdio:CMD``) play real matches.
The shipped examples (bash + jq, plain Python, and the C starter, ``starters/c``) pass
``croupier check-bot`` in every game, and
the bridge keeps the arbiter's clocks and faults: silence is a timeout, a line that is not an
action is a rejected reply, a closed stdout is a disconnect, and stderr goes to the seat log."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_kit import BOTS_DIR, Kit

from croupier.arbiter import ClockRules, Outcome
from croupier.replay import read_replay, verify
from croupier.transport import parse_bot_command

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
STDIO = ROOT / "clients" / "stdio"
#: Where tests/run builds the C starter (cc, standard library only).
C_BOT = ROOT / "build" / "stdio" / "starter-c"
#: The name each example's hello gives.
NAMES = {"bash": "random-bash", "c": "starter-c", "python": "random-py"}
GAMES = ["as-nas", "fipsen", "felduz", "scauver"]
PROGRAM = f"{sys.executable} {BOTS_DIR / 'stdio_program.py'}"


def _example(kind: str) -> str:
    if kind == "bash":
        if shutil.which("jq") is None:
            if os.environ.get("CI") == "true":
                pytest.fail("CI needs jq for the bash example (apt-get install jq)")
            pytest.skip("jq is not installed")
        return f"bash {STDIO / 'random_bot.sh'}"
    if kind == "c":
        if not C_BOT.is_file():
            if os.environ.get("CI") == "true":
                pytest.fail(f"{C_BOT} is missing: tests/run builds it with cc")
            pytest.skip(f"{C_BOT} is not built (bash tests/run builds it)")
        return str(C_BOT)
    return f"{sys.executable} {STDIO / 'random_bot.py'}"


@pytest.mark.parametrize("kind", ["bash", "c", "python"])
def test_the_stdio_examples_pass_check_bot(kind: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "check-bot", f"stdio:{_example(kind)}",
         "--game", "all", "--deals", "1"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.count("6 passed, 0 failed") == len(GAMES)
    assert NAMES[kind] in done.stdout  # its hello's name


def _stdio(*args: str) -> list[str]:
    return parse_bot_command(f"stdio:{PROGRAM} {' '.join(args)}")


def test_json_replies_play_a_normal_match_and_the_program_sees_every_message(
    e2e: Kit,
) -> None:
    run = e2e.run([_stdio("--json", "--say", "hello-from-stderr"), *[e2e.random] * 3])
    mine = run.result.seats[0]
    assert (mine.outcome, mine.rejected, mine.timeouts) == (Outcome.NORMAL, 0, 0)
    assert mine.bot_name == "stdio_program.py"
    log = run.logs[0].read_text()
    assert "hello-from-stderr" in log  # the program's stderr is in the seat log
    assert "token: hidden" in log  # the bridge holds the seat token; the program speaks stdio
    got = [line.split()[1] for line in log.splitlines() if line.startswith("got ")]
    assert got[0] == "welcome"
    assert got[-1] == "matchEnd"
    assert got.count("decision") == sum(
        1 for r in read_replay(run.replay).records if r.type == "action" and r.data["seat"] == 0
    )
    verify(read_replay(run.replay))


def test_a_hello_names_the_program_in_welcome_and_the_replay(e2e: Kit) -> None:
    run = e2e.run([_stdio("--hello", "Sturgeon:2.1"), *[e2e.random] * 3])
    mine = run.result.seats[0]
    assert (mine.bot_name, mine.outcome, mine.rejected) == ("Sturgeon", Outcome.NORMAL, 0)
    replay = read_replay(run.replay)
    seat = replay.header["seats"][0]
    assert (seat["bot_name"], seat["bot_version"]) == ("Sturgeon", "2.1")
    verify(replay)


def test_a_late_hello_is_no_reply_and_leaves_the_default_name(e2e: Kit) -> None:
    run = e2e.run([_stdio("--hello", "Late:1", "--hello-after", "1.5"), *[e2e.random] * 3])
    mine = run.result.seats[0]
    assert (mine.bot_name, mine.outcome, mine.rejected) == ("stdio_program.py", Outcome.NORMAL, 0)
    assert "the hello came after" in run.logs[0].read_text()


def test_a_line_that_is_not_an_action_is_a_rejected_reply(e2e: Kit) -> None:
    run = e2e.run([_stdio("--garbage-on", "1"), *[e2e.random] * 3])
    mine = run.result.seats[0]
    assert (mine.outcome, mine.rejected, mine.timeouts) == (Outcome.ILLEGAL_ACTIONS, 1, 0)
    assert "got rejected" in run.logs[0].read_text()  # the program was told
    verify(read_replay(run.replay))


def test_a_silent_program_times_out_on_the_arbiters_clock(e2e: Kit) -> None:
    run = e2e.run(
        [_stdio("--silent-from", "2"), *[e2e.random] * 3],
        clock=ClockRules(move_time_ms=300, time_bank_ms=0),
    )
    mine = run.result.seats[0]
    assert mine.outcome is Outcome.TIMEOUTS
    assert mine.timeouts >= 1
    assert mine.rejected == 0
    exit_ = next(e for e in run.exits if e.seat == 0)
    assert exit_.code == 0  # it still exits cleanly once its stdin closes after MatchEnd


def test_a_closed_stdout_is_a_disconnect(e2e: Kit) -> None:
    run = e2e.run([_stdio("--quit-on", "2"), *[e2e.random] * 3])
    mine = run.result.seats[0]
    assert mine.outcome is Outcome.DISCONNECTED
    assert "closed its stdout" in run.logs[0].read_text()
    verify(read_replay(run.replay))


def test_a_bundled_grpc_bot_behind_the_bridge_is_refused() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "check-bot", "stdio:random"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().startswith("croupier: error:")
    assert "gRPC bot" in done.stderr


@pytest.mark.parametrize("kind", ["bash", "c", "python"])
def test_the_stdio_examples_replay_the_same_with_the_same_seed(kind: str, e2e: Kit) -> None:
    bots = [parse_bot_command(f"stdio:{_example(kind)}"), *[e2e.random] * 3]
    actions = []
    for out in ("first", "second"):
        run = e2e.run(bots, out=out, seed=9, deals=4)
        actions.append([(r["seat"], r["action"]) for r in e2e.records(run.replay, "action")])
    assert actions[0] == actions[1]
    assert len({a for s, a in actions[0] if s == 0}) > 1  # it does choose at random
