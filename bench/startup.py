"""Start-up (issue 20, "fast start-up"): the CPU and wall time of short ``croupier`` commands and
of a bundled bot's imports, whole processes, each against ``python -c pass`` in the same run.

    .venv/bin/python bench/startup.py                  # this checkout and --base (main)
    .venv/bin/python bench/startup.py --base none      # this checkout only
    .venv/bin/python bench/startup.py --runs 20 --no-bytecode

Commands (each a fresh process, exactly what the console script runs: ``from croupier.__main__
import run; run()``):

* ``version``: ``croupier --version``; ``help``: ``croupier --help``;
* ``ctl``: ``croupier ctl list`` against a closed port (the whole control client imported, one
  call made and refused: exit 5);
* ``verify``: ``croupier replay verify`` of one 12-deal As-Nas replay (recorded here first, in
  this process, through the arbiter with four random seats);
* ``bot``: ``import croupier_bots.random_bot`` (everything a bundled bot does before it dials
  and sends its Hello), against ``floor``: importing only what it needs for that (asyncio,
  grpc.aio, the core's stubs and service).
* ``pipe``: a launched session bot's whole life on its session pipe with no match (the bundled
  random bot started with ``CROUPIER_SESSION_FD``: its Hello read, a welcome sent, the pipe
  closed), against ``pipe_floor``: a script that imports only the stubs and does the same.
* ``hello``: the wall time from starting the bundled random bot (``python -m
  croupier_bots.random_bot``, ``CROUPIER_ADDRESS`` set) to its Hello arriving at a gRPC server
  of this process's (which then ends the stream; the bot exits), against ``hello_floor``: a
  script that imports only asyncio, grpc.aio and the stubs, dials and sends the same Hello; both
  beside the wall time of ``python -c pass`` (runs in turn: bot, floor, ``pass``). The server
  and its clock (``time.monotonic``, shared by every process) are this checkout's.

Each command runs ``--runs`` times, each run paired with a run of ``python -c pass`` (A B A B
...): CPU is user + system of the finished child (``os.wait4``), wall is from its start to its
exit. Printed per command: the median CPU and wall, and the median of the per-pair CPU ratios
to ``python -c pass``. By default the commands run with bytecode caches written (as an
installed package has them: one warm-up run writes them); ``--no-bytecode`` sets
``PYTHONDONTWRITEBYTECODE=1`` (every module compiled from source, every run). ``--base REV``
runs the same commands on a git worktree of REV (default ``main``), for the figures before.
One JSON line per command, and one for ``hello``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
CONSOLE = "from croupier.__main__ import run; run()"


def _replay(folder: Path) -> Path:
    """A 12-deal As-Nas replay with four random seats, recorded in this process."""
    import logging
    import random

    import structlog

    from croupier.arbiter import MatchConfig
    from croupier.replay import record_match

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    rng = random.Random(12)
    path = folder / "as-nas-12.jsonl"
    pick = lambda request: request.legal_actions[rng.randrange(len(request.legal_actions))]  # noqa: E731
    record_match(MatchConfig("as-nas", {"deals": 12}, seed=12), path, [pick] * 4, ["r"] * 4)
    return path


def _commands(replay: Path) -> dict[str, list[str]]:
    py = sys.executable
    return {
        "version": [py, "-c", CONSOLE, "--version"],
        "help": [py, "-c", CONSOLE, "--help"],
        "verify": [py, "-c", CONSOLE, "replay", "verify", str(replay)],
        # a control call: its whole client (gRPC, the stubs) loaded and one call tried; the port
        # is closed, so it ends at once with "cannot reach the server" (exit 5)
        "ctl": [py, "-c", CONSOLE, "ctl", "--address", "127.0.0.1:9", "--key", "k", "list"],
        "bot": [py, "-c", "import croupier_bots.random_bot"],
        "floor": [py, "-c", "import asyncio, grpc.aio, croupier_proto.v1.bot_pb2_grpc"],
        # a launched session bot's whole life on its pipe with no match: hello, welcome, end
        "pipe": [py, "-m", "croupier_bots.random_bot"],
        "pipe_floor": [py, "-c", _PIPE_FLOOR],
    }


#: What a session on the pipe needs and nothing more: the stubs, a hello, the welcome, the end.
_PIPE_FLOOR = r"""
import os, socket
from croupier_proto.v1 import bot_pb2
sock = socket.socket(fileno=int(os.environ["CROUPIER_SESSION_FD"]))
hello = bot_pb2.SessionRequest(hello=bot_pb2.SessionHello(token="t", protocol_version=3))
data = hello.SerializeToString()
sock.sendall(len(data).to_bytes(4, "big") + data)
while sock.recv(65536):
    pass
"""


def _pipe_once(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """One run of a session bot on a pipe of this process's: read its hello, welcome it, end
    the session (close the pipe); (CPU seconds, wall seconds, exit status)."""
    import socket

    from croupier_proto.v1 import bot_pb2

    ours, theirs = socket.socketpair()
    env = {**env, "CROUPIER_SESSION_FD": str(theirs.fileno()), "CROUPIER_SESSION_TOKEN": "t"}
    env.pop("CROUPIER_ADDRESS", None)
    started = time.perf_counter()
    child = subprocess.Popen(argv, env=env, pass_fds=(theirs.fileno(),),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    theirs.close()
    with ours, contextlib.suppress(OSError):  # (a bot that dies first: its status says so)
        ours.settimeout(60)
        size = int.from_bytes(ours.recv(4, socket.MSG_WAITALL), "big")
        ours.recv(size, socket.MSG_WAITALL)
        welcome = bot_pb2.SessionResponse(welcome=bot_pb2.SessionWelcome(session_id="s"))
        data = welcome.SerializeToString()
        ours.sendall(len(data).to_bytes(4, "big") + data)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, wall, child.returncode


def _once(argv: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """One run: (CPU seconds, wall seconds, exit status)."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, wall, child.returncode


def _measure(code: Path, replay: Path, runs: int, bytecode: bool) -> dict[str, dict[str, Any]]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            f"{code}/{p}" for p in ("server", "clients/python", "proto/python")
        ),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    base = [sys.executable, "-c", "pass"]
    out: dict[str, dict[str, Any]] = {}
    for name, argv in _commands(replay).items():
        once = _pipe_once if name.startswith("pipe") else _once
        once(argv, env)  # warm-up (writes the bytecode caches, fills the page cache)
        _once(base, env)
        cpu, wall, ratios, statuses = [], [], [], set()
        for _ in range(runs):
            a_cpu, a_wall, status = once(argv, env)
            b_cpu, _, _ = _once(base, env)
            cpu.append(a_cpu)
            wall.append(a_wall)
            statuses.add(status)
            if b_cpu > 0:
                ratios.append(a_cpu / b_cpu)
        out[name] = {
            "cpu_s": round(statistics.median(cpu), 4),
            "wall_s": round(statistics.median(wall), 4),
            "cpu_vs_python_pass": round(statistics.median(ratios), 2) if ratios else None,
            "exit": sorted(statuses),
        }
    return out


#: Dials ``argv[1]`` and sends a Hello as a bundled bot does, importing only what that needs.
_HELLO_FLOOR = r"""
import asyncio, sys
import grpc.aio
from croupier_proto.v1 import bot_pb2, bot_pb2_grpc

async def main():
    async with grpc.aio.insecure_channel(sys.argv[1]) as channel:
        call = bot_pb2_grpc.BotServiceStub(channel).Play()
        await call.write(bot_pb2.PlayRequest(hello=bot_pb2.Hello(
            token="t", bot_name="floor", bot_version="1", protocol_version=2)))
        try:
            await call.read()
        except grpc.aio.AioRpcError:
            pass

asyncio.run(main())
"""


def _hello(code: Path, runs: int) -> dict[str, Any]:
    """Wall seconds from a bot's start to its Hello at this process's server (median of
    ``runs``), the floor's, ``python -c pass``'s, and the per-run ratios' medians."""
    import asyncio
    import threading

    import grpc.aio

    from croupier.v1 import bot_pb2_grpc

    arrived: list[float] = []
    ready = threading.Event()
    port: list[int] = []
    stop: list[Any] = []

    class Servicer(bot_pb2_grpc.BotServiceServicer):  # type: ignore[misc]
        async def Play(self, requests: Any, context: Any) -> Any:
            async for _ in requests:
                arrived.append(time.monotonic())
                await context.abort(grpc.StatusCode.UNAVAILABLE, "bench: hello received")
            return
            yield  # an async generator, as the service's streams are

    async def serve() -> None:
        server = grpc.aio.server()
        bot_pb2_grpc.add_BotServiceServicer_to_server(Servicer(), server)
        port.append(server.add_insecure_port("127.0.0.1:0"))
        await server.start()
        done = asyncio.Event()
        stop.append((asyncio.get_running_loop(), done))
        ready.set()
        await done.wait()
        await server.stop(None)

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    ready.wait(30)
    address = f"127.0.0.1:{port[0]}"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(
            f"{code}/{p}" for p in ("server", "clients/python", "proto/python")
        ),
        "CROUPIER_ADDRESS": address,
        "CROUPIER_TOKEN": "t",
    }
    env.pop("CROUPIER_SESSION_TOKEN", None)
    py = sys.executable

    def until_hello(argv: list[str]) -> float:
        before = len(arrived)
        started = time.monotonic()
        child = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL)  # fmt: skip
        child.wait(60)
        deadline = time.monotonic() + 5
        while len(arrived) == before and time.monotonic() < deadline:
            time.sleep(0.001)
        if len(arrived) == before:
            raise SystemExit(f"bench/startup.py: no Hello from {argv}")
        return arrived[-1] - started

    bot = [py, "-m", "croupier_bots.random_bot"]
    floor = [py, "-c", _HELLO_FLOOR, address]
    until_hello(bot), until_hello(floor)  # warm-up
    got: dict[str, list[float]] = {"bot": [], "floor": [], "pass": []}
    try:
        for _ in range(runs):
            got["bot"].append(until_hello(bot))
            got["floor"].append(until_hello(floor))
            got["pass"].append(_once([py, "-c", "pass"], env)[1])
    finally:
        loop, done = stop[0]
        loop.call_soon_threadsafe(done.set)
        thread.join(10)
    med = {k: statistics.median(v) for k, v in got.items()}
    pairs = list(zip(got["bot"], got["floor"], got["pass"], strict=True))
    return {
        "bot_hello_wall_s": round(med["bot"], 4),
        "floor_hello_wall_s": round(med["floor"], 4),
        "python_pass_wall_s": round(med["pass"], 4),
        "bot_vs_floor": round(statistics.median(b / f for b, f, _ in pairs), 2),
        "bot_vs_python_pass": round(statistics.median(b / p for b, _, p in pairs), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main", help="the baseline's git revision ('none')")
    parser.add_argument("--runs", type=int, default=10, help="paired runs per command")
    parser.add_argument("--no-bytecode", action="store_true", help="PYTHONDONTWRITEBYTECODE=1")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="startup-"))
    base_dir = None
    try:
        replay = _replay(folder)
        codes = {"new": ROOT}
        if args.base != "none":
            base_dir = folder / "base"
            subprocess.run(["git", "worktree", "add", "--detach", str(base_dir), args.base],
                           cwd=ROOT, check=True, capture_output=True)  # fmt: skip
            codes["base"] = base_dir
        bytecode = not args.no_bytecode
        got = {c: _measure(code, replay, args.runs, bytecode) for c, code in codes.items()}
        load = os.getloadavg()[0]
        for name in _commands(replay):
            line = {"bench": "startup", "command": name, "bytecode": bytecode,
                    "load": round(load, 1), **{c: got[c][name] for c in codes}}  # fmt: skip
            print(json.dumps(line), flush=True)
        hello = {c: _hello(code, args.runs) for c, code in codes.items()}
        line = {"bench": "startup", "command": "hello", "bytecode": bytecode,
                "load": round(os.getloadavg()[0], 1), **hello}  # fmt: skip
        print(json.dumps(line), flush=True)
    finally:
        if base_dir is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_dir)], cwd=ROOT,
                           check=False, capture_output=True)  # fmt: skip
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
