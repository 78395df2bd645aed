"""Helpers of the server tests: ``croupier serve`` as a real process (:class:`ServeProcess`),
``croupier ctl`` as a user runs it (:func:`ctl`), registered bots as real SDK processes
(:func:`start_bot`), a control API stub with a key (:class:`Control`), what a call was answered
(:func:`code_of`, :func:`watch_code`), a store's match (:func:`server_match`), and the cards a
spectator must never see (:func:`card_ids`, :func:`public_steps`)."""

from __future__ import annotations

import contextlib
import io
import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from croupier.replay import Replay
from croupier.serve._store import PENDING, ServerMatch
from croupier.v1 import chips_pb2, control_pb2_grpc
from croupier.v1 import control_pb2 as cpb

CROUPIER = [sys.executable, "-m", "croupier"]
BOTS = Path(__file__).parent / "bots"
RANDOM_BOT = [sys.executable, "-m", "croupier_bots.random_bot"]

#: The Node SDK's folder (``clients/node``).
NODE_SDK = Path(__file__).resolve().parents[2] / "clients" / "node"


def node_program() -> str:
    """The ``node`` program, once the Node SDK's dependencies are installed; else the test is
    skipped (failed in CI, where ``tests/run`` installs them)."""
    import shutil

    import pytest

    node = shutil.which("node")
    if node is None or not (NODE_SDK / "node_modules" / "@grpc" / "grpc-js").is_dir():
        if os.environ.get("CI") == "true":
            pytest.fail("CI needs node and `npm ci --prefix clients/node` (tests/run does it)")
        pytest.skip("node or the Node SDK's dependencies are missing (run bash tests/run)")
    return node


SLOW_BOT = [sys.executable, str(BOTS / "slow_bot.py")]
#: Random legal actions after SLOW_BOT_DELAY_S seconds (the spectating tests).
RANDOM_SLOW_BOT = [sys.executable, str(BOTS / "random_slow_bot.py")]


#: The log of every ``croupier serve`` the tests started, once each (a restarted server appends
#: to its log): tests/serve/conftest.py shows what a failed test's servers logged meanwhile.
SERVE_LOGS: dict[Path, None] = {}


class ServeProcess:
    """``croupier serve`` on free loopback ports with its state in ``state_dir``."""

    def __init__(self, state_dir: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.state_dir = state_dir
        self.log = state_dir.parent / f"{state_dir.name}.serve.log"
        args = [
            *CROUPIER,
            "-v",
            "serve",
            "--state-dir",
            str(state_dir),
            "--bot-listen",
            "127.0.0.1:0",
            "--control-listen",
            "127.0.0.1:0",
            *extra,
        ]
        self._err = self.log.open("ab")
        SERVE_LOGS[self.log] = None
        self.proc = subprocess.Popen(
            args,
            stdout=subprocess.PIPE,
            stderr=self._err,
            text=True,
            env={**os.environ, "CROUPIER_SANDBOX": "none", **(env or {})},
        )
        lines: dict[str, str] = {}
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 30
        while len(lines) < 3 and time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            name, _, value = line.strip().partition(": ")
            lines[name] = value
        if len(lines) < 3:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"croupier serve did not start: {self.log.read_text()[-2000:]}")
        self.bot_address = lines["bots"]
        self.control_address = lines["control"]
        #: The web page's URL when started with --web-listen ("" otherwise).
        self.web_url = lines.get("web", "")

    @property
    def operator_key(self) -> str:
        return (self.state_dir / "operator.key").read_text().strip()

    @property
    def spectator_key(self) -> str:
        return (self.state_dir / "spectator.key").read_text().strip()

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self._err.close()

    def stop(self) -> int:
        """SIGTERM and wait; the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        self._err.close()
        return code

    def __enter__(self) -> ServeProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.stop()


def ctl(
    server: ServeProcess, *args: object, key: str | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``croupier ctl --address ... ARGS`` with ``key`` (default: the operator's)."""
    env = {**os.environ, "CROUPIER_KEY": server.operator_key if key is None else key}
    return subprocess.run(
        [*CROUPIER, "ctl", "--address", server.control_address, *(str(a) for a in args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def start_bot(
    address: str, key: str, argv: Sequence[str] = RANDOM_BOT, log: Path | None = None, **env: str
) -> subprocess.Popen[bytes]:
    """A registered bot's process: it dials ``address`` and opens its session with ``key``."""
    out = log.open("ab") if log else subprocess.DEVNULL
    return subprocess.Popen(
        list(argv),
        stdout=out,
        stderr=out,
        env={
            **os.environ,
            "CROUPIER_ADDRESS": address,
            "CROUPIER_SESSION_TOKEN": key,
            **env,
        },
    )


def stop_bots(bots: Sequence[subprocess.Popen[bytes]]) -> None:
    """Stop registered bots' processes (a server's stop does not: it asks them to come back)."""
    for bot in bots:
        if bot.poll() is None:
            bot.terminate()
    for bot in bots:
        try:
            bot.wait(20)
        except subprocess.TimeoutExpired:
            bot.kill()
            bot.wait(10)


class Control:
    """A ControlService stub that presents ``key`` on every call (``None``: no key)."""

    def __init__(self, address: str, key: str | None) -> None:
        self.channel = grpc.insecure_channel(address)
        self.stub = control_pb2_grpc.ControlServiceStub(self.channel)
        self.metadata = (("authorization", f"Bearer {key}"),) if key else ()

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.stub, name)

        def call(request: Any, **kw: Any) -> Any:
            return method(request, metadata=self.metadata, timeout=30, **kw)

        return call

    def close(self) -> None:
        self.channel.close()


def wait_for(predicate: Any, timeout: float = 30, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def wait_connected(control: Control, names: Sequence[str], timeout: float = 30) -> None:
    def ok() -> bool:
        bots = {b.bot_name: b.connected for b in control.ListBots(cpb.ListBotsRequest()).bots}
        return all(bots.get(n) for n in names)

    wait_for(ok, timeout, f"bots {list(names)} to connect")


def wait_state(control: Control, match_id: str, states: Sequence[int], timeout: float = 60) -> Any:
    found: list[Any] = []

    def ok() -> bool:
        m = control.GetMatch(cpb.GetMatchRequest(match_id=match_id)).match
        found[:] = [m]
        return m.state in states

    wait_for(ok, timeout, f"match {match_id} to reach {states}")
    return found[0]


def register(control: Control, *names: str) -> dict[str, str]:
    """Register ``names`` (an operator's ``control``); their keys by name."""
    return {n: control.RegisterBot(cpb.RegisterBotRequest(bot_name=n)).key for n in names}


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def ctl_here(server: ServeProcess, *args: object, key: str | None = None) -> Done:
    """``croupier ctl`` run in this process (``croupier.cli.main``: the same code, without the
    seconds a fresh interpreter takes to import it); ``key`` default: the operator's."""
    from croupier.cli import main

    out, err = io.StringIO(), io.StringIO()
    argv = ["ctl", "--address", server.control_address]
    argv += ["--key", server.operator_key if key is None else key]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([*argv, *(str(a) for a in args)])
        except SystemExit as exc:  # argparse
            code = int(exc.code or 0)
    return Done(code, out.getvalue(), err.getvalue())


def code_of(call: Any) -> grpc.StatusCode:
    """The status ``call()`` was answered with (of a stream: its first message)."""
    try:
        result = call()
        if hasattr(result, "__next__"):
            next(result)
    except grpc.RpcError as exc:
        return exc.code()  # type: ignore[no-any-return]
    return grpc.StatusCode.OK


def watch_code(control: Control, match_id: str, seat: int | None = None) -> grpc.StatusCode:
    """The status WatchMatch of ``match_id`` (its seat ``seat``'s view) is answered with."""
    request = cpb.WatchMatchRequest(match_id=match_id)
    if seat is not None:
        request.seat = seat
    return code_of(lambda: control.WatchMatch(request))


def server_match(i: int, created: int | None = None) -> ServerMatch:
    """A pending two-seat Fipsen match of the server store, ``m{i:03d}``, created at ``created``
    (default ``1000 + i``) ms."""
    return ServerMatch(
        match_id=f"m{i:03d}",
        game="fipsen",
        params={"players": 2},
        seed=i,
        state=PENDING,
        tournament="",
        bots=("a", "b"),
        created_ms=created if created is not None else 1000 + i,
    )


def card_ids(message: Any) -> set[int]:
    """Every Card40 id anywhere in a message."""
    found: set[int] = set()
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None:
            continue
        for item in value if descriptor.is_repeated else [value]:
            if isinstance(item, chips_pb2.Card40):
                found.add(item.id)
            elif hasattr(item, "ListFields"):
                found |= card_ids(item)
    return found


def hidden_cards(state: Any) -> set[int]:
    """The cards in a Scauver state's hands and stock: nobody but their holder sees them."""
    return {int(c) for hand in state.hands for c in hand} | {int(c) for c in state.stock}


def public_steps(replay: Replay) -> tuple[list[Any], set[int]]:
    """From a Scauver match's omniscient replay: the state at each public step (a frame's
    ``step`` n is index n - 1), and the cards never shown (those in the hands and the stock
    before the first round's last action)."""
    game = replay.game
    at_step = [
        replay.states[i]
        for i, r in enumerate(replay.records)
        if r.type == "chance"
        or (r.type == "action" and game.is_public(replay.before(i), r.data["action"]))
    ]
    end = next(i for i, r in enumerate(replay.records) if r.type == "round_end")
    return at_step, hidden_cards(replay.before(end - 1))
