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
from croupier.v1 import bot_pb2 as pb

GARBAGE = sys.argv[1] == "garbage"  # else: well-formed replies nobody asked for

async def main():
    async with grpc.aio.insecure_channel(os.environ["CROUPIER_ADDRESS"]) as channel:
        call = channel.stream_stream("/croupier.v1.BotService/Play")()  # raw bytes both ways
        hello = pb.Hello(token=os.environ["CROUPIER_TOKEN"], bot_name="flooder", protocol_version=1)
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


#: The arbiter stand-in: launches one bot (a never-dialling one: nothing would stop it but
#: the arbiter's death) with the sandbox mode of argv[2], prints its pid, then waits forever.
_LAUNCHER = """
import asyncio, sys
from pathlib import Path
from croupier.transport import SandboxMode, SandboxOptions, launch_bot

async def main() -> None:
    bot = await launch_bot(
        [sys.executable, sys.argv[3]], link=None, address="127.0.0.1:1", seed=0, match_id="",
        log_path=Path(sys.argv[1]), sandbox=SandboxOptions(mode=SandboxMode(sys.argv[2])),
    )
    print(bot.process.pid, flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""

#: A bot that leaves a whole tree behind before it says "ready": a child that calls setsid()
#: and forks again (the grandchild, reparented, sleeps), and itself exec'ing ``sleep 600``.
#: With ``plain`` as argv[1] (no PID namespace to catch it) the child stays in the group.
_TREE_BOT = """
import os, sys, time
child = os.fork()
if child == 0:
    if sys.argv[1:] != ["plain"]:
        os.setsid()
    if os.fork() == 0:
        time.sleep(600)
    os._exit(0)
os.waitpid(child, 0)  # the grandchild exists now
print("ready", flush=True)
os.execvp("sleep", ["sleep", "600"])
"""

#: Makes itself a child subreaper, then runs the launcher: every process the launcher leaves
#: behind (the sandbox's init, a setsid escaper) is re-parented to this one, so the test sees
#: the launcher's whole tree, orphans included. Reaps what exits; prints the launcher's pid.
_HARNESS = """
import ctypes, os, subprocess, sys, time
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
launcher = subprocess.Popen([sys.executable, "-c", *sys.argv[1:]], stdout=subprocess.PIPE)
print(launcher.pid, launcher.stdout.readline().decode().strip(), flush=True)
while True:
    try:
        os.wait()
    except ChildProcessError:
        time.sleep(0.02)
"""


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, exited but not yet reaped, does not count)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _tree(root: int) -> dict[int, str]:
    """Every live descendant of ``root`` (host pids), with its command line. Zombies are
    walked through, not listed: the child of a process that just died may not have been
    re-parented yet when its line of /proc is read."""
    parents: dict[int, int] = {}
    zombies: set[int] = set()
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                fields = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(proc.name)] = int(fields[1])
            if fields[0] in ("Z", "X"):
                zombies.add(int(proc.name))
    found: dict[int, str] = {}
    seen = {root}
    todo = [root]
    while todo:
        parent = todo.pop()
        for pid, ppid in parents.items():
            if ppid == parent and pid not in seen:
                seen.add(pid)
                todo.append(pid)
                if pid in zombies:
                    continue
                try:
                    found[pid] = (
                        Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
                    )
                except OSError:
                    continue
    return found


def _kill_the_launcher(
    tmp_path: Path, mode: str, *, wait_ready: bool, delay_s: float = 0.0, plain: bool = False
) -> tuple[dict[int, str], dict[int, str]]:
    """Run the harness; SIGKILL the launcher once its bot's tree is up (``wait_ready``) or
    ``delay_s`` after the launch returned; return the launcher's tree just before the kill and
    what is left of it 2 s after."""
    bot = tmp_path / "tree_bot.py"
    bot.write_text(_TREE_BOT.replace("sys.argv[1:]", "['plain']" if plain else "[]"))
    log = tmp_path / "bot.log"
    harness = subprocess.Popen(
        [sys.executable, "-c", _HARNESS, _LAUNCHER, str(log), mode, str(bot)],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    try:
        assert harness.stdout is not None
        launcher, _ = map(int, harness.stdout.readline().split())
        if wait_ready:
            deadline = time.monotonic() + 30
            while "ready" not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.02)
            assert "ready" in log.read_text(), log.read_text()
        else:
            time.sleep(delay_s)
        before = _tree(harness.pid)
        os.kill(launcher, signal.SIGKILL)
        deadline = time.monotonic() + 2.0
        while (left := _tree(harness.pid)) and time.monotonic() < deadline:
            time.sleep(0.02)
        return before, left
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(harness.pid, signal.SIGKILL)  # the harness (what is left: by hand below)
        for pid in _tree(harness.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        harness.wait(timeout=10)


def _needs_bwrap() -> None:
    from croupier.transport import bwrap_problem

    if problem := bwrap_problem():
        pytest.skip(f"bubblewrap cannot run here: {problem}")


def test_a_sandboxed_bot_tree_dies_with_the_arbiter_that_launched_it(tmp_path: Path) -> None:
    """A SIGKILLed arbiter cannot stop its bots; the bots' supervisors see the lifeline close
    and kill everything in the sandbox: the bot (``sleep 600``, which never dials) and a
    ``setsid`` + double-fork escaper, within 2 s (issue 9, item 7)."""
    _needs_bwrap()
    before, left = _kill_the_launcher(tmp_path, "bwrap", wait_ready=True)
    commands = list(before.values())
    assert any(c.startswith("sleep 600") for c in commands), before
    assert sum("tree_bot.py" in c and "bwrap" not in c and "_confine" not in c
               for c in commands) == 1, before  # the escaper  # fmt: skip
    assert left == {}, f"outlived the SIGKILLed arbiter: {left}"


def test_a_bot_without_a_sandbox_dies_with_its_process_group(tmp_path: Path) -> None:
    """Without bubblewrap the bot and the children in its process group die with the arbiter
    (a setsid child can escape: see the trust model)."""
    before, left = _kill_the_launcher(tmp_path, "none", wait_ready=True, plain=True)
    assert sum(c.startswith("sleep 600") for c in before.values()) == 1, before
    assert left == {}, f"outlived the SIGKILLed arbiter: {left}"


@pytest.mark.parametrize("delay_s", [0.0, 0.05])
def test_a_bot_still_starting_dies_with_the_arbiter(tmp_path: Path, delay_s: float) -> None:
    """The arbiter killed while its bot's sandbox is still being set up (the moments in which
    ``PR_SET_PDEATHSIG`` was not yet armed, in the launch and inside bubblewrap): nothing of
    the bot outlives it by more than 2 s, whenever the kill lands."""
    mode = "bwrap" if not _bwrap_problem() else "none"
    _, left = _kill_the_launcher(tmp_path, mode, wait_ready=False, delay_s=delay_s)
    assert left == {}, f"outlived the SIGKILLed arbiter: {left}"


def _bwrap_problem() -> str:
    from croupier.transport import bwrap_problem

    return bwrap_problem()


def test_the_supervisor_alone_kills_the_whole_sandbox_when_the_lifeline_closes(
    tmp_path: Path,
) -> None:
    """What covers the moments before bubblewrap's init has armed its parent-death signal: a
    sandbox run *without* ``--die-with-parent`` (so nothing else would ever stop its setsid
    escaper) still dies entirely once its lifeline closes, by its supervisor's hand."""
    _needs_bwrap()
    from croupier.transport import SandboxOptions
    from croupier.transport._sandbox import bwrap_argv, bwrap_path, next_seat_uid

    bot = tmp_path / "tree_bot.py"
    bot.write_text(_TREE_BOT.replace("sys.argv[1:]", "[]"))
    bwrap = bwrap_path()
    assert bwrap is not None
    as_root = os.geteuid() == 0
    read, write = os.pipe()
    argv = bwrap_argv(
        bwrap, [sys.executable, str(bot)], SandboxOptions(),
        next_seat_uid() if as_root else -1, as_root=as_root, lifeline=read,
    )  # fmt: skip
    argv.remove("--die-with-parent")
    log = (tmp_path / "bot.log").open("wb")
    proc = subprocess.Popen(argv, stdout=log, stderr=log, pass_fds=(read,), start_new_session=True)
    os.close(read)
    try:
        deadline = time.monotonic() + 30
        while "ready" not in (tmp_path / "bot.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.02)
        tree = _tree(proc.pid)
        assert any(c.startswith("sleep 600") for c in tree.values()), tree
        os.close(write)  # the arbiter is gone, as far as the sandbox can tell
        write = -1
        deadline = time.monotonic() + 2.0
        while (left := [p for p in tree if _alive(p)]) and time.monotonic() < deadline:
            time.sleep(0.02)
        assert left == [], {p: tree[p] for p in left}
        assert proc.wait(timeout=5) == 137  # the supervisor's status, passed on by bwrap
    finally:
        if write >= 0:
            os.close(write)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        for pid in _tree(proc.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        proc.wait(timeout=5)
        log.close()
