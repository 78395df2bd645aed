"""Cancellation and bot logs: Ctrl-C ends a match cleanly with a verified, cancelled replay;
a chatty bot's log is capped and never blocks it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from e2e_kit import live_processes
from structlog.testing import capture_logs

from croupier.arbiter import ClockRules, MatchConfig, Outcome
from croupier.replay import read_replay, verify
from croupier.runner import run_match
from croupier.transport._launcher import LOG_CAP_BYTES

pytestmark = pytest.mark.e2e


def test_sigint_cancels_the_match_and_keeps_a_verified_replay(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", "2",
         "--deals", "1000", "--out", str(tmp_path)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            found = list(tmp_path.glob("*.jsonl"))
            if found and found[0].read_text().count('"type":"round_end"') >= 3:
                break
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 3, err  # cancelled: its own exit status
    assert "(cancelled)" in out
    assert "Traceback" not in err
    (replay,) = tmp_path.glob("*.jsonl")
    parsed = read_replay(replay)
    assert parsed.complete
    assert parsed.records[-1].data["cancelled"] is True
    report = verify(parsed)
    assert 3 <= report.rounds < 1000


def test_a_chatty_bot_has_its_log_capped_and_plays_normally(tmp_path: Path) -> None:
    chatty = tmp_path / "chatty.py"
    chatty.write_text(
        "import sys\n"
        "sys.stdout.write('x' * (3 << 20))\n"  # 3 MiB before it even connects
        "sys.stdout.flush()\n"
        "from croupier_bots.random_bot import RandomBot\n"
        "from croupier_bot import run\n"
        "run(RandomBot(1))\n"
    )
    bots = [[sys.executable, str(chatty)]] + [
        [sys.executable, "-m", "croupier_bots.random_bot"]
    ] * 3
    config = MatchConfig("as-nas", {"deals": 2}, seed=3)
    run = asyncio.run(run_match(config, bots, tmp_path / "out"))
    assert run.result.seats[0].outcome is Outcome.NORMAL
    log = run.logs[0].read_bytes()
    assert LOG_CAP_BYTES <= len(log) < LOG_CAP_BYTES + 200
    assert log.endswith(f"[croupier: log truncated at {LOG_CAP_BYTES} bytes]\n".encode())


def test_a_bot_that_leaves_a_child_behind_neither_hangs_the_match_nor_outlives_it(
    tmp_path: Path,
) -> None:
    marker = f"croupier-test-child-{time.time_ns()}"
    parent = tmp_path / "parent.py"
    parent.write_text(
        "import subprocess, sys\n"
        "from croupier_bot import run\n"
        "from croupier_bots.random_bot import RandomBot\n"
        "# the child inherits stdout: it holds the log pipe open\n"
        f"subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)', {marker!r}])\n"
        "run(RandomBot(1))\n"
    )
    bots = [[sys.executable, str(parent)]] + [
        [sys.executable, "-m", "croupier_bots.random_bot"]
    ] * 3
    started = time.monotonic()
    config = MatchConfig("as-nas", {"deals": 1}, seed=3)
    run = asyncio.run(run_match(config, bots, tmp_path / "out"))
    assert time.monotonic() - started < 30  # not the child's 120 s
    assert run.result.seats[0].outcome is Outcome.NORMAL
    (exit_,) = [e for e in run.exits if e.seat == 0]
    assert (exit_.code, exit_.signalled) == (0, False)  # it exited by itself: the child is no bar
    assert live_processes(marker, wait_s=5) == []


FLOODER = """
import asyncio, os, sys, grpc
from croupier.v1 import PROTOCOL_VERSION, bot_pb2 as pb

GARBAGE = sys.argv[1] == "garbage"  # else: well-formed replies nobody asked for

async def main():
    async with grpc.aio.insecure_channel(os.environ["CROUPIER_ADDRESS"]) as channel:
        call = channel.stream_stream("/croupier.v1.BotService/Play")()  # raw bytes both ways
        hello = pb.Hello(token=os.environ["CROUPIER_TOKEN"], bot_name="flooder",
                         protocol_version=PROTOCOL_VERSION)
        await call.write(pb.PlayRequest(hello=hello).SerializeToString())
        try:
            while (raw := await call.read()) is not grpc.aio.EOF:
                message = pb.PlayResponse.FromString(raw)
                if message.WhichOneof("kind") == "decision":
                    for n in range(5000):
                        reply = pb.PlayRequest(action=pb.ActionReply(request_id=10**6 + n))
                        await call.write(bytes([10, 255]) if GARBAGE else reply.SerializeToString())
        except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
            print("the arbiter ended the stream", flush=True)

asyncio.run(main())
"""


#: A random bot that takes 20 ms per decision, so a match lasts seconds, not a fraction of one.
PACER = """
import random, time
from croupier_bot import run
rng = random.Random(7)
def act(decision):
    time.sleep(0.02)
    return rng.choice(decision.legal_ids)
run(act, name="pacer")
"""


@pytest.mark.parametrize("flood", ["replies", "garbage"])
def test_a_flooding_bot_is_disconnected_and_the_match_goes_on(tmp_path: Path, flood: str) -> None:
    """The flood is 17 messages not yet read. The other seats take their time, so the flood
    lands before the match ends even when the flooder gets little CPU (with fast bots a
    starved flooder saw its messages read one per decision and the seat never flooded)."""
    flooder = tmp_path / "flooder.py"
    flooder.write_text(FLOODER)
    pacer = tmp_path / "pacer.py"
    pacer.write_text(PACER)
    bots = [[sys.executable, str(pacer)]] * 3 + [[sys.executable, str(flooder), flood]]
    with capture_logs() as logs:
        config = MatchConfig("as-nas", {"deals": 12}, seed=4)
        run = asyncio.run(run_match(config, bots, tmp_path / "out"))
    assert run.result.seats[3].outcome is Outcome.DISCONNECTED
    assert [s.outcome for s in run.result.seats[:3]] == [Outcome.NORMAL] * 3
    replay = read_replay(run.replay)
    verify(replay)
    details = [r.data.get("detail", "") for r in replay.records if r.data.get("seat") == 3]
    assert any("flooding" in d for d in details)
    ended = [e for e in logs if e["event"] == "stream_ended_with_error"]
    assert [(e["reason"], e["code"]) for e in ended] == [("FLOODING", "RESOURCE_EXHAUSTED")]
    assert "the arbiter ended the stream" in run.logs[3].read_text()


def test_cancelling_does_not_wait_for_a_slow_bot(tmp_path: Path) -> None:
    """A bot thinking for a minute does not hold up Ctrl-C: the pending decision is abandoned,
    not played, and the replay still verifies."""
    slow = tmp_path / "slow.py"
    slow.write_text(
        "import time\n"
        "from croupier_bot import run\n"
        "def act(decision):\n"
        "    time.sleep(60)\n"
        "    return decision.legal_ids[0]\n"
        "run(act, name='slow')\n"
    )

    async def main() -> tuple[float, object]:
        cancel = asyncio.Event()
        bots = [[sys.executable, str(slow)]] * 4
        config = MatchConfig("as-nas", {"deals": 2}, seed=1)
        task = asyncio.create_task(run_match(config, bots, tmp_path / "out", cancel=cancel))
        while not list(tmp_path.glob("out/*.jsonl")) or "chance" not in _text(tmp_path / "out"):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)  # a decision is pending now
        started = time.monotonic()
        cancel.set()
        run = await task
        return time.monotonic() - started, run

    seconds, run = asyncio.run(main())
    assert seconds < 15  # the bots' stop grace, not the minute they would think
    assert run.result.cancelled  # type: ignore[attr-defined]
    replay = read_replay(run.replay)  # type: ignore[attr-defined]
    assert not any(r.type == "action" for r in replay.records)
    verify(replay)


def _text(folder: Path) -> str:
    return "".join(p.read_text() for p in folder.glob("*.jsonl"))


def test_cancelling_while_seats_are_still_joining_does_not_wait_for_them(tmp_path: Path) -> None:
    async def main() -> tuple[float, bool]:
        cancel = asyncio.Event()
        config = MatchConfig("as-nas", {"deals": 1}, seed=1, connect_timeout_s=60)
        task = asyncio.create_task(run_match(config, [None] * 4, tmp_path, cancel=cancel))
        await asyncio.sleep(0.3)  # nobody will join: the match waits for its seats
        started = time.monotonic()
        cancel.set()
        run = await task
        return time.monotonic() - started, run.result.cancelled

    seconds, cancelled = asyncio.run(main())
    assert seconds < 5  # not the 60 s connect timeout
    assert cancelled


def test_a_bot_whose_reply_comes_after_the_match_still_exits_cleanly(tmp_path: Path) -> None:
    """The last decision times out; the bot's reply then finds the match over. The SDK still
    reads its MatchEnd and the bot exits with status 0."""
    late = tmp_path / "late.py"
    late.write_text(
        "import time\n"
        "from croupier_bot import run\n"
        "def act(decision):\n"
        "    time.sleep(0.4)\n"
        "    return decision.legal_ids[0]\n"
        "run(act, name='late')\n"
    )
    bots = [[sys.executable, str(late)]] * 4
    config = MatchConfig("as-nas", {"deals": 1}, seed=1, clock=ClockRules(100, 0))
    run = asyncio.run(run_match(config, bots, tmp_path / "out"))
    assert sum(r.outcome is Outcome.TIMEOUTS for r in run.result.seats) >= 3  # (the dealer may
    # never act: three timeouts give three default folds)
    assert [(e.code, e.signalled) for e in sorted(run.exits, key=lambda e: e.seat)] == [
        (0, False)
    ] * 4


_LAUNCHER = """
import asyncio, sys
from pathlib import Path
from croupier.transport._launcher import launch_bot

async def main() -> None:
    bot = await launch_bot(
        ["sleep", "600"], link=None, address="127.0.0.1:1", seed=0, match_id="",
        log_path=Path(sys.argv[1]),
    )
    print(bot.process.pid, flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, exited but not yet reaped, does not count)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_launched_bot_dies_with_the_process_that_launched_it(tmp_path: Path) -> None:
    """A SIGKILLed arbiter cannot stop its bots; the kernel does (PR_SET_PDEATHSIG), even for a
    bot that never dials and would otherwise wait forever (here ``sleep 600``)."""
    parent = subprocess.Popen(
        [sys.executable, "-c", _LAUNCHER, str(tmp_path / "bot.log")],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    bot = 0
    try:
        assert parent.stdout is not None
        bot = int(parent.stdout.readline())
        assert _alive(bot)
        parent.kill()
        parent.wait(timeout=10)
        deadline = time.monotonic() + 2.0
        while _alive(bot) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert not _alive(bot), "the bot outlived the SIGKILLed process that launched it"
    finally:
        parent.kill()
        if bot > 0:
            with contextlib.suppress(ProcessLookupError):
                os.kill(bot, signal.SIGKILL)
