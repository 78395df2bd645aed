"""CPU per decision as instruction counts (valgrind's callgrind), not wall time: the machine is
shared, timings are noise, instruction counts are not. Not a test; nothing here asserts.

    .venv/bin/python bench/cpu.py                      # all, this checkout
    .venv/bin/python bench/cpu.py --compare main       # and the same for REV, in the same run
    .venv/bin/python bench/cpu.py arbiter bare         # some: arbiter | bare | inproc | bot

Each measured process runs under ``valgrind --tool=callgrind``; its counters are zeroed after a
warm-up (server started, bots connected, first matches played) and dumped after the measured
part (``callgrind_control``), so start-up is left out. The other processes run natively.

* arbiter: the arbiter process (server, matches, replay writer, gRPC threads), C matches at once
  (C = 8 and 64), every seat played by the light session bot of ``bench/_light_bot.py``: machine
  instructions per decision.
* bare: a bare ``grpc.aio`` bidirectional echo server, C ping-pong streams at once on one channel
  from a native client, 300-byte payload: instructions per round trip. The floor of gRPC itself.
* inproc: the arbiter's own work without gRPC: the same matches (C at once) in one process, each
  seat a task that takes its messages from the seat's outbox as the transport does, encodes and
  serializes them, and answers a random legal id through a serialized ``PlayRequest``.
* bot: the Python SDK's random bot (``croupier_bots.random_bot``) in a session, playing one seat
  of every match (four at once) against three light bots: instructions per decision it answered.

``--compare REV`` checks REV out in a temporary git worktree and runs every measurement there
too (its ``croupier``, ``croupier_bot``, ``croupier_bots`` and ``croupier_proto`` first on
``PYTHONPATH``),
alternating with this checkout's, and prints each figure with the ratio this/REV. Both sides then
launch their bots unsandboxed (``CROUPIER_SANDBOX=none``): REV's packages are not where this
checkout's sandbox finds them (a sandboxed bot of REV's side could not import them).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from _kit import checkout, cpu_s

HERE = Path(__file__).resolve().parent
LIGHT_BOT = HERE / "_light_bot.py"

_HOST = r"""
import asyncio, logging, sys
from pathlib import Path
import structlog
from croupier.arbiter import ClockRules, MatchConfig
from croupier.replay import read_replay
from croupier.runner import run_match
from croupier.transport import ArbiterServer, BotPool
from croupier.transport._sandbox import Limits, SandboxMode, SandboxOptions

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
                    logger_factory=structlog.PrintLoggerFactory(sys.stderr))
concurrency, matches, deals, out, light = (
    int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4]), sys.argv[5])
# "arbiter": this process is measured, every seat a light bot; "sdk" | "light": the bot named
# "sdk" is (the SDK's random bot or a light one, run under the valgrind command that follows)
measured, valgrind = sys.argv[6], sys.argv[7:]
clock = ClockRules(60000, 600000)

async def main():
    server = ArbiterServer()
    await server.start()
    (out / "logs").mkdir(parents=True)
    names, extra = ["l0", "l1", "l2", "l3"], {}
    if measured == "arbiter":
        pool = BotPool(server, out / "logs", capacity=concurrency)
    else:
        # the measured bot runs unsandboxed and unlimited: valgrind needs a large address space
        # and callgrind_control reaches it through /tmp
        sandbox = SandboxOptions(mode=SandboxMode.NONE, limits=Limits(memory_mb=0, cpu_s=0))
        pool = BotPool(server, out / "logs", capacity=concurrency, sandbox=sandbox,
                       session_timeout_s=600)  # a bot under valgrind starts slowly
        names[0], extra = "sdk", {"connect_timeout_s": 600}
        if measured == "sdk":
            pool.add("sdk", [*valgrind, sys.executable, "-m", "croupier_bots.random_bot"])
        else:  # the light bot, named apart from the three others
            pool.add("sdk", [*valgrind, sys.executable, light, "measured"])
    for name in names:
        if name != "sdk":
            pool.add(name, [sys.executable, light])
    replays = []
    try:
        async def one(i, d):
            turn = 0 if measured == "arbiter" else i % 4  # the measured bot in every seat
            seats = [pool.assigner(n) for n in names[turn:] + names[:turn]]
            config = MatchConfig("as-nas", {"deals": d}, seed=i, clock=clock, **extra)
            run = await run_match(config, seats, out, server=server, match_id=f"m{i}")
            replays.append(run.replay)

        await asyncio.gather(*(one(10_000 + c, 1) for c in range(concurrency)))  # warm-up
        replays.clear()
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        queue = list(range(matches))

        async def worker():
            while queue:
                await one(queue.pop(), deals)

        await asyncio.gather(*(worker() for _ in range(concurrency)))
    finally:
        decisions = 0
        for path in replays:
            replay = read_replay(path)
            acts = [r for r in replay.records if r.type == "action"]
            if measured != "arbiter":  # the measured bot's decisions only
                named = "random" if measured == "sdk" else "measured"
                sdk = {s["seat"] for s in replay.header["seats"] if s["bot_name"] == named}
                acts = [r for r in acts if r.data["seat"] in sdk]
            decisions += len(acts)
        print("done", decisions, flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        await pool.close()
        await server.stop()

asyncio.run(main())
"""

_INPROC = r"""
import asyncio, logging, sys
from pathlib import Path
import numpy as np
import structlog
from croupier.arbiter import ClockRules, DecisionRequest, Match, MatchConfig, MatchOver, Reply
from croupier.games import get_spec
from croupier.replay import ReplayWriter
from croupier.transport._codec import decode, encode
from croupier.v1 import bot_pb2 as pb

structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING),
                    logger_factory=structlog.PrintLoggerFactory(sys.stderr))
concurrency, matches, deals = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
out = Path(sys.argv[4])
clock = ClockRules(60000, 600000)
codec = get_spec("as-nas").codec
decisions = 0

async def seat(link, rng):
    # what the transport does with the seat's messages, without gRPC
    global decisions
    loop = asyncio.get_running_loop()
    link.claim("inproc", "1")
    while True:
        batch = await link.outbox.get_batch(0.05)
        message = batch[-1]
        if message is None:
            return
        alone = message.__class__.__name__ in ("ActionEvent", "RoundStarted", "RoundEnded")
        events, last = (batch, None) if alone else (batch[:-1], message)
        encode(last, codec, events).SerializeToString()
        if isinstance(message, DecisionRequest):
            written = getattr(link, "written", None)
            if written is not None:
                written(message.request_id, loop.time())
            else:  # before link.written: the inbox carried it
                from croupier.arbiter import Written
                link.inbox.put_nowait(Written(message.request_id, loop.time()))
            legal = message.legal_actions
            action = int(legal[rng.integers(len(legal))])
            wire = pb.PlayRequest(action=pb.ActionReply(
                request_id=message.request_id, action_id=action)).SerializeToString()
            reply = decode(pb.PlayRequest.FromString(wire))
            link.inbox.put_nowait(Reply(reply.request_id, reply.action, loop.time()))
            decisions += 1
        if isinstance(message, MatchOver):
            return

async def one(i, d):
    config = MatchConfig("as-nas", {"deals": d}, seed=i, clock=clock)
    match = Match(config, f"m{i}", ReplayWriter(out / f"m{i}.jsonl"))
    rng = np.random.default_rng(i)
    seats = [asyncio.create_task(seat(link, rng)) for link in match.seats]
    await match.run()
    await asyncio.gather(*seats)

async def run(count, d, first):
    queue = list(range(first, first + count))
    async def worker():
        while queue:
            await one(queue.pop(), d)
    await asyncio.gather(*(worker() for _ in range(concurrency)))

asyncio.run(run(concurrency, 1, 100_000))  # warm-up (its own match ids, whatever the deals)
decisions = 0
print("ready", flush=True)
sys.stdin.readline()
asyncio.run(run(matches, deals, 1000 * deals))
print("done", decisions, flush=True)
sys.stdin.readline()
"""

#: The bare gRPC echo server, the baseline (a file both benches run).
_ECHO_SERVER = str(Path(__file__).with_name("_echo_server.py"))

#: Its client, C ping-pong streams at once on one channel (run natively).
_ECHO_CLIENT = str(Path(__file__).with_name("_echo_client.py"))


#: ``--native``: no valgrind; CPU seconds (``/proc``) and wall time instead of instructions.
NATIVE = False


def _valgrind(out: Path) -> list[str]:
    if NATIVE:
        return []
    return [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out}/cg.%p",
        f"--log-file={out}/vg.%p",
        "--dump-instr=no",
    ]


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _control(command: str, pid: int) -> None:
    subprocess.run(["callgrind_control", command, str(pid)], check=True, capture_output=True)


def _totals(folder: Path, pid: int) -> int:
    """The instruction count of ``pid``'s first dump (the measured part)."""
    text = (folder / f"cg.{pid}.1").read_text()
    match = re.search(r"^(?:totals|summary): (\d+)", text, re.MULTILINE)
    if match is None:
        raise SystemExit(f"no totals in callgrind's dump {folder}/cg.{pid}.1")
    return int(match.group(1))


def _expect(proc: subprocess.Popen[str], word: str) -> list[str]:
    assert proc.stdout is not None
    line = proc.stdout.readline().split()
    if not line or line[0] != word:
        proc.kill()
        raise SystemExit(f"expected {word!r} from {proc.args!r}, got {line!r}")
    return line[1:]


def _go(proc: subprocess.Popen[str]) -> None:
    assert proc.stdin is not None
    try:
        proc.stdin.write("\n")
        proc.stdin.flush()
    except BrokenPipeError:  # it had nothing more to wait for
        pass


def _measure(
    driver: subprocess.Popen[str], which: Callable[[], int], folder: Path
) -> tuple[float, float]:
    """Zero ``pid``'s counters once ``driver`` is warm, let it run, dump: instructions (with
    ``--native``: CPU microseconds) per unit of work (``driver`` says ``done N``), and units per
    second of wall time. ``which`` names the measured process once the driver is warm."""
    _expect(driver, "ready")
    pid = which()
    if NATIVE:
        cpu = cpu_s(pid)
    else:
        _control("-z", pid)
    start = time.perf_counter()
    _go(driver)
    units = max(1, int(_expect(driver, "done")[0]))
    wall = time.perf_counter() - start
    if NATIVE:
        used = (cpu_s(pid) - cpu) * 1e6
    else:
        _control("-d", pid)
        used = _totals(folder, pid)
    _go(driver)
    return used / units, units / wall


def _popen(argv: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=env)  # fmt: skip


def arbiter(env: dict[str, str], concurrency: int, matches: int, deals: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        argv = [*_valgrind(folder), sys.executable, "-c", _HOST, str(concurrency), str(matches),
                str(deals), str(folder / "out"), str(LIGHT_BOT), "arbiter"]  # fmt: skip
        proc = _popen(argv, env)
        try:
            return _measure(proc, lambda: proc.pid, folder)
        finally:
            proc.wait()


def inproc(env: dict[str, str], concurrency: int, matches: int, deals: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "out").mkdir()
        argv = [*_valgrind(folder), sys.executable, "-c", _INPROC, str(concurrency),
                str(matches), str(deals), str(folder / "out")]  # fmt: skip
        proc = _popen(argv, env)
        try:
            return _measure(proc, lambda: proc.pid, folder)
        finally:
            proc.wait()


def bare(env: dict[str, str], streams: int, total: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        server = _popen([*_valgrind(folder), sys.executable, _ECHO_SERVER], env)
        try:
            assert server.stdout is not None
            port = server.stdout.readline().strip()
            each = max(1, total // streams)
            client = _popen([sys.executable, _ECHO_CLIENT, port, str(streams), str(each)], env)
            try:
                return _measure(client, lambda: server.pid, folder)
            finally:
                client.wait()
        finally:
            server.kill()
            server.wait()


def bot(
    env: dict[str, str], concurrency: int, matches: int, deals: int, measured: str = "sdk"
) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        argv = [sys.executable, "-c", _HOST, str(concurrency), str(matches), str(deals),
                str(folder / "out"), str(LIGHT_BOT), measured, *_valgrind(folder)]  # fmt: skip
        host = _popen(argv, env)

        def sdk_bot() -> int:  # the one process under valgrind, or the SDK bot's
            if not NATIVE:
                (log,) = folder.glob("vg.*")
                return int(log.name.split(".")[1])
            # the launcher's supervisor (a child of the host) carries the bot's argv in its
            # command line too: the bot is its child (a checkout from before it: the host's)
            mark = b"croupier_bots.random_bot" if measured == "sdk" else b"measured"
            found: dict[int, int] = {}  # pid: its parent
            for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
                with contextlib.suppress(OSError, ValueError):
                    pid = int(cmdline.parent.name)
                    if mark in cmdline.read_bytes():
                        found[pid] = _parent(pid)
            for pid, parent in found.items():
                if parent in found and found[parent] == host.pid:
                    return pid
            for pid, parent in found.items():
                if parent == host.pid:
                    return pid
            raise SystemExit("the SDK bot's process was not found")

        try:
            return _measure(host, sdk_bot, folder)
        finally:
            host.wait()


def _runs(args: argparse.Namespace) -> list[tuple[str, object]]:
    """(figure name, how to measure it) in order."""
    runs: list[tuple[str, object]] = []
    for c in args.concurrency:
        matches = max(c, args.matches)
        deals = args.deals if c <= 8 else max(1, args.deals // 4)  # 64 at once: shorter matches
        if "arbiter" in args.which:
            runs.append((f"arbiter_instr_per_decision_c{c}", (arbiter, c, matches, deals)))
        if "bare" in args.which:
            runs.append((f"bare_grpc_server_instr_per_round_trip_c{c}", (bare, c, 4000)))
        if "inproc" in args.which:
            runs.append((f"inproc_arbiter_instr_per_decision_c{c}", (inproc, c, matches, deals)))
    if "bot" in args.which:
        runs.append(("sdk_random_bot_instr_per_decision", (bot, 4, 8, args.deals)))
        runs.append(("light_bot_instr_per_decision", (bot, 4, 8, args.deals, "light")))
    return runs


WHICH = ("arbiter", "bare", "inproc", "bot")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="*", metavar="BENCH", help=" | ".join(WHICH))
    parser.add_argument("--compare", metavar="REV", help="also measure REV (a git revision)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[8, 64])
    parser.add_argument("--matches", type=int, default=16, help="measured matches (at least C)")
    parser.add_argument("--deals", type=int, default=12, help="deals per match (C <= 8)")
    parser.add_argument(
        "--native",
        action="store_true",
        help="no valgrind: CPU microseconds per unit (/proc) and units per second of wall time",
    )
    args = parser.parse_args()
    args.which = args.which or list(WHICH)
    unknown = [w for w in args.which if w not in WHICH]
    if unknown:
        parser.error(f"unknown benchmark {', '.join(unknown)} (known: {', '.join(WHICH)})")
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("bench/cpu.py needs valgrind (apt-get install valgrind)")
    global NATIVE
    NATIVE = args.native
    unit = "cpu_us" if NATIVE else "instr"
    if args.compare:  # REV's packages are not where this checkout's sandbox finds them
        os.environ["CROUPIER_SANDBOX"] = "none"  # (both sides alike: bench/_kit.py)
    here = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    with checkout(args.compare) if args.compare else _nothing() as old:
        for name, (fn, *params) in _runs(args):  # type: ignore[misc]
            result: dict[str, object] = {"figure": name.replace("instr", unit)}
            value, rate = fn(here, *params)
            result["this"] = round(value, 1)
            if NATIVE:
                result["this_per_s"] = round(rate, 1)
            if old is not None:
                old_value, old_rate = fn(old, *params)
                result[args.compare] = round(old_value, 1)
                result["ratio_this_to_rev"] = round(value / old_value, 3)
                if NATIVE:
                    result[f"{args.compare}_per_s"] = round(old_rate, 1)
            print(json.dumps(result), flush=True)


@contextmanager
def _nothing() -> Iterator[None]:
    yield None


if __name__ == "__main__":
    main()
