"""Fair clocks: a bot is charged the time it took, never the arbiter's; the CPU clock charges CPU
time; the margin, the seat cap and the match cap (``croupier.arbiter._match``)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e_kit import BOTS_DIR, CROUPIER, Kit, Played, play_match, replay_path

from croupier.arbiter import ClockKind, ClockRules, Outcome
from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e

SLEEPER = f"{sys.executable} {BOTS_DIR / 'sleeper.py'}"


def test_an_arbiter_paused_mid_decision_charges_no_timeout(tmp_path: Path) -> None:
    """The arbiter process is stopped (SIGSTOP) for 1 s, four times, while bots that answer in
    about 80 ms have a 300 ms clock and no bank: the replies wait in the socket, and the time
    the arbiter lost is not theirs."""
    out = tmp_path / "out"
    bot = f"{SLEEPER} --delay-ms 80"
    arbiter = subprocess.Popen(
        [*CROUPIER, "match", "--game", "as-nas", "--deals", "12", "--seed", "4", "--out", str(out),
         "--move-ms", "300", "--bank-ms", "0", "--margin-ms", "0", *["--bot", bot] * 4],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while not any('"chance"' in p.read_text() for p in out.glob("*.jsonl")):
            assert time.monotonic() < deadline
            assert arbiter.poll() is None
            time.sleep(0.05)
        for _ in range(4):
            time.sleep(0.3)  # a decision is pending
            arbiter.send_signal(signal.SIGSTOP)
            time.sleep(1.0)
            arbiter.send_signal(signal.SIGCONT)
        stdout, stderr = arbiter.communicate(timeout=120)
    finally:
        arbiter.kill()
    assert arbiter.returncode == 0, stderr
    played = Played(out, subprocess.CompletedProcess([], 0, stdout, stderr), replay_path(stdout))
    assert [r["timeouts"] for r in played.rows] == ["0"] * 4
    actions = Kit.records(played.replay, "action")
    lagged = [a for a in actions if a["lag_us"] > 500_000]
    assert len(lagged) >= 2  # the pauses did fall inside decisions (else this proves nothing)
    for a in lagged:
        assert a["fault"] is None
        assert a["time_us"] < 300_000 < a["wall_us"]  # charged: the bot's share only
    verify(read_replay(played.replay))


def test_the_cpu_clock_charges_cpu_time_not_waiting(e2e: Kit) -> None:
    """Under ``cpu``, a bot that sleeps 400 ms per decision is within a 150 ms clock, and one
    that computes for 400 ms is not; the replay says which clock it was and records both."""
    clock = ClockRules(150, 0, kind=ClockKind.CPU, margin_ms=0)
    sleeper = e2e.bot("sleeper", "--delay-ms", 400)
    burner = e2e.bot("sleeper", "--burn-ms", 400)
    run = e2e.run([sleeper, burner, e2e.random, e2e.random], deals=1, clock=clock)
    header = read_replay(run.replay).header
    assert header["clock"]["kind"] == "cpu"
    sleeps = Kit.records(run.replay, "action", seat=0)
    burns = Kit.records(run.replay, "action", seat=1)
    assert sleeps
    assert burns
    # the bot slept 400 ms; the arbiter counts from when it saw the write finish and takes its
    # own stalls off, so under load it records somewhat less; far past the 150 ms clock anyway
    assert all(a["fault"] is None and a["wall_us"] >= 300_000 for a in sleeps)
    assert all(a["cpu_us"] < 150_000 for a in sleeps)
    assert all(a["fault"] == "timeout" for a in burns)
    assert run.result.seats[0].outcome is Outcome.NORMAL
    assert run.result.seats[1].timeouts == len(burns)


def test_the_seat_cap_ends_a_stallers_thinking_time(e2e: Kit) -> None:
    """A staller that uses 280 ms of a 1 s clock on every decision runs out of its 0.3 s cap
    on its second: from then on its decisions are timeouts without waiting. Its second decision
    has only the cap's last ~20 ms for a budget; the wide margin lets it reply all the same.
    (The arbiter's own stalls inside a decision are not charged: on a loaded machine they took
    over 40 ms off a decision, so two decisions of 170 ms had once fallen short of the cap,
    leaving a few ms of it to time out in.)"""
    clock = ClockRules(1000, 0, margin_ms=1000, seat_cap_ms=300)
    staller = e2e.bot("sleeper", "--delay-ms", 280)
    run = e2e.run([staller, e2e.random, e2e.random, e2e.random], deals=6, clock=clock)
    mine = Kit.records(run.replay, "action", seat=0)
    charged = [a for a in mine if a["fault"] is None]
    capped = [a for a in mine if a["fault"] == "timeout"]
    assert charged
    assert capped
    assert sum(a["time_us"] for a in charged) >= 300_000 > sum(a["time_us"] for a in charged[:-1])
    assert all("time cap" in a["detail"] and a["time_us"] == 0 for a in capped)
    assert run.result.seats[0].timeouts == len(capped)


def test_the_match_cap_cancels_the_match_with_its_own_exit_status(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = subprocess.run(
        [*CROUPIER, "match", "--game", "as-nas", "--deals", "50", "--seed", "4", "--out", str(out),
         "--match-time-cap-s", "1.5", *["--bot", f"{SLEEPER} --delay-ms 50"] * 4],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 3, done.stderr
    assert "(cancelled)" in done.stdout
    assert "croupier: match cancelled: the match time cap of 1500 ms was reached" in done.stderr
    replay = read_replay(replay_path(done.stdout))
    assert replay.records[-1].data["cancel_reason"].startswith("the match time cap")
    verify(replay)


@pytest.mark.parametrize(
    ("flag", "value"),
    [("--connect-timeout", "-1"), ("--connect-timeout", "nan"), ("--connect-timeout", "inf"),
     ("--move-ms", "5000000000"), ("--bank-ms", "-5"), ("--margin-ms", "x"),
     ("--seat-time-cap-s", "nan"), ("--bot-memory-mb", "-1")],
)  # fmt: skip
def test_bad_numbers_are_one_error_line(tmp_path: Path, flag: str, value: str) -> None:
    done = subprocess.run(
        [*CROUPIER, "match", "--game", "as-nas", "--out", str(tmp_path), flag, value],
        capture_output=True, text=True, timeout=60, env={**os.environ},
    )  # fmt: skip
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.splitlines()[-1].startswith(f"croupier match: error: argument {flag}")
    assert not list(tmp_path.glob("*.jsonl"))


def test_play_match_helper_still_works(tmp_path: Path) -> None:
    played = play_match(tmp_path, "--game", "as-nas", "--deals", 1, "--seed", 1)
    header = read_replay(played.replay).header
    assert header["clock"] == {
        "move_time_ms": 2000, "time_bank_ms": 30000, "kind": "wall", "margin_ms": 50,
        "seat_cap_ms": 0, "match_cap_ms": 0, "cpu_wall_guard_ms": 10000,
    }  # fmt: skip
