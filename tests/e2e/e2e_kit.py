"""Helpers of the end-to-end suite: bot command lines, match configs, a synchronous match runner,
and the ``croupier`` command run as a subprocess (:func:`croupier`, :func:`play_match`, and
:func:`join_remote_seat` for a seat whose bot dials in from outside).

The misbehaving bots live in ``tests/e2e/bots/`` (one docstring each). Tests are synchronous and
drive asyncio with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import re
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from croupier.arbiter import ClockRules, MatchConfig
from croupier.replay import read_replay
from croupier.runner import MatchRun, run_match
from croupier.transport import ArbiterServer, SandboxOptions
from croupier.v1 import bot_pb2 as pb

BOTS_DIR = Path(__file__).parent / "bots"
RANDOM = [sys.executable, "-m", "croupier_bots.random_bot"]
HEURISTIC = [sys.executable, "-m", "croupier_bots.as_nas_heuristic"]
#: Roomy clocks for matches where nobody is meant to time out (a loaded CI box stays well inside).
ROOMY = ClockRules(move_time_ms=5000, time_bank_ms=10000)
#: The ``croupier`` command, run with the test's interpreter.
CROUPIER = [sys.executable, "-m", "croupier"]
#: The columns of the standings table ``croupier match`` prints.
COLUMNS = ["place", "seat", "bot", "score", "ended", "timeouts", "rejected"]


def croupier(*args: object, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run ``croupier ARGS...`` as a user does; its stdout and stderr are captured as text."""
    return subprocess.run(
        [*CROUPIER, *(str(a) for a in args)], capture_output=True, text=True, timeout=timeout
    )


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, exited but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def live_processes(marker: str, *, wait_s: float = 0.0) -> list[int]:
    """Host pids of the live (not zombie) processes whose command line contains ``marker``,
    after waiting up to ``wait_s`` for them to go."""
    deadline = time.monotonic() + wait_s
    while True:
        found = []
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                cmdline = (proc / "cmdline").read_bytes()
                state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if marker.encode() in cmdline and state != "Z" and int(proc.name) != os.getpid():
                found.append(int(proc.name))
        if not found or time.monotonic() >= deadline:
            return found
        time.sleep(0.05)


def replay_path(stdout: str) -> Path:
    """The replay file named on the ``replay: PATH`` line of ``croupier match``'s output."""
    found = re.search(r"^replay: (.+)$", stdout, re.M)
    assert found, stdout
    return Path(found[1])


@dataclass
class Played:
    """A finished ``croupier match``: its ``--out`` directory, the process and the replay file."""

    out: Path
    done: subprocess.CompletedProcess[str]
    replay: Path

    @property
    def rows(self) -> list[dict[str, str]]:
        """The standings table's rows (best first), each a dict keyed by :data:`COLUMNS`."""
        lines = self.done.stdout.splitlines()
        header = next(i for i, line in enumerate(lines) if line.split() == COLUMNS)
        rows = []
        for line in lines[header + 1 :]:
            cells = line.split()
            if len(cells) != len(COLUMNS):
                break
            rows.append(dict(zip(COLUMNS, cells, strict=True)))
        return rows


def play_match(out: Path, *args: object, timeout: float = 120) -> Played:
    """``croupier match ARGS... --out OUT``, which must exit with status 0."""
    done = croupier("match", *args, "--out", out, timeout=timeout)
    assert done.returncode == 0, done.stderr
    return Played(out, done, replay_path(done.stdout))


def join_remote_seat(
    out: Path,
    *args: object,
    tls: bool = False,
    env: dict[str, str] | None = None,
    bot: list[str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """``croupier match --out OUT ARGS...`` (seat 0 ``--bot remote``) joined from outside as a
    competitor does: the address the arbiter listens on (said with ``(TLS)`` when ``tls``) and
    seat 0's token are read from what it prints, then ``bot`` (default: the SDK's random bot)
    dials in with them (and ``env``) and must exit with status 0. The arbiter's run, its output
    captured."""
    arbiter = subprocess.Popen(
        [*CROUPIER, "match", *(str(a) for a in args), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    listening = re.compile(r"listening on (\S+) \(TLS\);" if tls else r"listening on (\S+);")
    try:
        assert arbiter.stderr is not None
        address = token = None
        for line in arbiter.stderr:
            if found := listening.search(line):
                address = found.group(1)
            if found := re.search(r"seat 0: CROUPIER_TOKEN=(\S+)", line):
                token = found.group(1)
                break
        assert address
        assert token
        bot_env = dict(os.environ, **(env or {}), CROUPIER_ADDRESS=address, CROUPIER_TOKEN=token)
        joined = subprocess.run(
            bot or RANDOM, env=bot_env, capture_output=True, text=True, timeout=60
        )
        assert joined.returncode == 0, joined.stderr
        stdout, stderr = arbiter.communicate(timeout=60)
    finally:
        arbiter.kill()
    return subprocess.CompletedProcess(arbiter.args, arbiter.returncode, stdout, stderr)


def config(
    *,
    game: str = "as-nas",
    seed: int = 1,
    deals: int = 2,
    clock: ClockRules = ROOMY,
    connect_timeout_s: float = 20.0,
) -> MatchConfig:
    return MatchConfig(
        game=game,
        params={"deals": deals},
        seed=seed,
        clock=clock,
        connect_timeout_s=connect_timeout_s,
    )


@dataclass
class Kit:
    """Bot argv builders and a synchronous match runner writing under ``tmp``."""

    tmp: Path
    random = RANDOM
    heuristic = HEURISTIC

    @property
    def streams(self) -> Path:
        """A directory every sandboxed bot of :meth:`run` may write (the recorders' streams)."""
        path = self.tmp / "streams"
        path.mkdir(exist_ok=True)
        path.chmod(0o777)  # a sandboxed bot runs as a uid of its own
        return path

    def bot(self, name: str, *args: object) -> list[str]:
        """The argv of the test bot ``tests/e2e/bots/<name>.py`` with ``args``."""
        return [sys.executable, str(BOTS_DIR / f"{name}.py"), *(str(a) for a in args)]

    def run(
        self,
        bots: Sequence[list[str]],
        *,
        out: str = "out",
        server: ArbiterServer | None = None,
        match_id: str | None = None,
        chance_script: tuple[tuple[int, ...], ...] = (),
        withhold_reveal: bool = False,
        **conf: Any,
    ) -> MatchRun:
        """Play one match to its end (own server unless ``server``) and return its run."""
        match_config = dataclasses.replace(
            config(**conf), chance_script=chance_script, withhold_reveal=withhold_reveal
        )
        sandbox = SandboxOptions(writable=(self.streams,))
        return asyncio.run(
            run_match(
                match_config,
                list(bots),
                self.tmp / out,
                server=server,
                match_id=match_id,
                sandbox=sandbox,
            )
        )

    @staticmethod
    def records(path: Path, kind: str | None = None, seat: int | None = None) -> list[Any]:
        """The replay's records (header excluded) as dicts, optionally of one type and/or seat."""
        return [
            r.data
            for r in read_replay(path).records
            if (kind is None or r.type == kind) and (seat is None or r.data.get("seat") == seat)
        ]


def read_stream(path: Path) -> list[bytes]:
    """The raw PlayResponses a recorder bot wrote (4-byte length prefix each)."""
    data, out, i = path.read_bytes(), [], 0
    while i < len(data):
        n = int.from_bytes(data[i : i + 4], "big")
        out.append(data[i + 4 : i + 4 + n])
        i += 4 + n
    return out


def flattened(stream: list[bytes]) -> list[bytes]:
    """What a seat was told, item by item: each public event, then the message's own part.

    What may differ between runs is normalised: how events are batched into messages (by
    timing, within the protocol's flush interval), the measured ``clocks.last_latency_us``
    (wall clock), and the deals' commitment and its reveal (a fresh salt every match; the
    script's digest).
    """
    items = []
    for raw in stream:
        message = pb.PlayResponse.FromString(raw)
        items += [event.SerializeToString(deterministic=True) for event in message.events]
        if message.WhichOneof("kind") is None:
            continue
        message.ClearField("events")
        if message.WhichOneof("kind") == "decision":
            message.decision.clocks.last_latency_us = 0
        if message.WhichOneof("kind") == "welcome":  # a fresh salt every match
            message.welcome.deal_commitment = ""
            message.welcome.match_commitment = ""
        if message.WhichOneof("kind") == "match_end":  # its reveal (seed, salt, digests)
            for name in ("seed", "seed_decimal", "salt", "chance_script_sha256", "terms_sha256"):
                message.match_end.ClearField(name)
        items.append(message.SerializeToString(deterministic=True))
    return items
