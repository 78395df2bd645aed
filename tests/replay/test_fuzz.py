"""Mutant replays × every replay command: no traceback, and the documented exit status.

Real replays of the four games are mutated (bytes flipped, inserted, cut; lines deleted,
duplicated, swapped; JSON fields set to hostile values or removed; numbers nudged), and every
replay command runs on each mutant in this process (``croupier.cli.main``), a few also as real
subprocesses. The status each command must give is the one docs/replay-format.md documents for
what the one reader says of the mutant (2: not a readable replay, 1: reads but does not verify,
0: fine; verify adds 1 for an unfinished replay), and for some mutations it is known beforehand
(an untouched file is 0 everywhere; bytes that are not UTF-8 inside a line are 2; a deleted step
is never 0).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from replay_kit import Ran, cli, play

from croupier.errors import ReplayFormatError, ReplayMismatchError
from croupier.replay import read_replay

MUTANTS = 520
HOSTILE: list[Any] = [
    -3, -1, 0, 1, 2, 3, 4, 99, 10**23, 4.5, -0.0, True, False, None, "", "x", "3/0", "-7/2",
    [], [1], [[0]], {}, {"a": 1}, "é", 2**63, "\u0000",
]  # fmt: skip


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("sources")
    return [
        play(out, "as-nas", 1, params={"deals": 3}),
        play(out, "fipsen", 2, params={"deals": 2}),
        play(out, "felduz", 3, params={"round_cap": 4}),
        play(out, "scauver", 4, params={"round_cap": 4}),
        play(out, "as-nas", 6, params={"deals": 4}, cancel_after=9, name="cancelled"),
    ]


def _walk(value: Any, rng: random.Random) -> tuple[Any, Any] | None:
    """A random (container, key) inside a JSON value, or None for a scalar."""
    spots: list[tuple[Any, Any]] = []

    def visit(v: Any) -> None:
        if isinstance(v, dict):
            for k in v:
                spots.append((v, k))
                visit(v[k])
        elif isinstance(v, list):
            for i in range(len(v)):
                spots.append((v, i))
                visit(v[i])

    visit(value)
    return rng.choice(spots) if spots else None


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """A mutant of a replay's bytes and the kind of mutation."""
    lines = data.splitlines(keepends=True)
    kind = rng.choice(
        ["identity", "flip", "cut", "delete", "duplicate", "swap", "insert", "garbage",
         "set", "remove", "nudge", "set", "set", "nudge"]
    )  # fmt: skip
    if kind == "identity":
        return kind, data
    if kind == "flip":
        i = rng.randrange(len(data))
        return kind, data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
    if kind == "cut":
        return kind, data[: rng.randrange(len(data))]
    if kind == "insert":  # bytes that are not UTF-8, inside a line (never its newline)
        line = rng.randrange(len(lines))
        at = rng.randrange(len(lines[line]))  # before the newline at the latest
        lines[line] = (
            lines[line][:at] + rng.choice([b"\xff", b"\xc3", b"\x80\x80"]) + lines[line][at:]
        )
        return kind, b"".join(lines)
    i = rng.randrange(1, len(lines)) if len(lines) > 1 else 0
    if kind == "delete":
        record = json.loads(lines[i])
        kind = (
            "delete-step" if record["type"] in ("chance", "action") and i < len(lines) - 1 else kind
        )
        return kind, b"".join(lines[:i] + lines[i + 1 :])
    if kind == "duplicate":
        return kind, b"".join(lines[: i + 1] + lines[i:])
    if kind == "swap":
        j = max(i - 1, 0)
        lines[i], lines[j] = lines[j], lines[i]
        return kind, b"".join(lines)
    if kind == "garbage":
        lines[i] = rng.choice([b"{not json\n", b"null\n", b"[]\n", b'{"type":"dance"}\n', b"\n"])
        return kind, b"".join(lines)
    i = rng.randrange(len(lines))  # the JSON mutations may hit the header too
    record = json.loads(lines[i])
    spot = _walk(record, rng)
    if spot is None:
        return "identity", data
    container, key = spot
    if kind == "set":
        container[key] = rng.choice(HOSTILE)
    elif kind == "remove":
        if isinstance(container, dict):
            del container[key]
        else:
            container.pop(key)
    else:  # nudge a number
        value = container[key]
        if isinstance(value, int) and not isinstance(value, bool):
            container[key] = value + rng.choice([-1, 1, 7])
        else:
            container[key] = rng.choice(HOSTILE)
    lines[i] = (json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n").encode()
    return kind, b"".join(lines)


def _reader_says(path: Path) -> tuple[int, bool]:
    """(2, 1 or 0: what the one reader says of the file; whether it is complete)."""
    try:
        replay = read_replay(path, tolerate_truncated_tail=True)
    except ReplayFormatError:
        return 2, False
    except ReplayMismatchError:
        return 1, False
    return 0, replay.complete and not replay.truncated


def _commands(path: Path, original: Path, out: Path) -> list[tuple[str, tuple[object, ...]]]:
    return [
        ("show", ("replay", "show", path)),
        ("show-seat", ("replay", "show", path, "--seat", 0)),
        ("show-where", ("replay", "show", path, "--public", "--where", "fault")),
        ("follow", ("replay", "show", path, "--public", "--follow", "--idle", 0)),
        ("show-where-round", ("replay", "show", path, "--where", "round=1")),
        ("summary", ("replay", "summary", path)),
        ("summary-json", ("replay", "summary", "--json", path)),
        ("verify", ("replay", "verify", path)),
        ("export", ("replay", "export", path, "--to", out, "--format", "csv")),
        ("step", ("replay", "step", path, "--seat", 1)),
        ("diff", ("replay", "diff", path, original)),
    ]


def _expected(command: str, says: int, complete: bool, comparable: bool) -> int:
    if command == "verify" and says == 0 and not complete:
        return 1  # unfinished
    if command == "diff" and says == 0 and not comparable:
        return 2  # another game or other parameters: not comparable
    return says


def _check(ran: Ran, expected: int, where: str) -> None:
    assert "Traceback" not in ran.err, where
    assert ran.status == expected, (where, ran.status, ran.out[-300:], ran.err)
    stray = [line for line in ran.err.splitlines() if not line.startswith("croupier: error: ")]
    assert not stray, (where, stray)
    if expected == 2 or (expected == 1 and "verify" not in where):
        assert len(ran.errors) == 1, (where, ran.err)


@pytest.mark.slow
def test_mutant_replays_under_every_command(sources: list[Path], tmp_path: Path) -> None:
    rng = random.Random(20261201)
    runs = 0
    kinds: dict[str, int] = {}
    statuses = {0: 0, 1: 0, 2: 0}
    for n in range(MUTANTS):
        original = sources[n % len(sources)]
        kind, data = mutate(original.read_bytes(), rng)
        kinds[kind] = kinds.get(kind, 0) + 1
        path = tmp_path / f"m{n}.jsonl"
        path.write_bytes(data)
        says, complete = _reader_says(path)
        statuses[says] += 1
        if kind == "identity":
            assert says == 0, n
        if kind == "insert":
            assert says == 2, n
        if kind == "delete-step":
            assert says != 0, n
        comparable = False
        if says == 0:
            a, b = read_replay(path, tolerate_truncated_tail=True).header, _header(original)
            comparable = a["game"] == b["game"] and a["params"] == b["params"]
        outputs = {}
        for command, args in _commands(path, original, tmp_path / f"x{n}"):
            ran = cli(*args, stdin="n\nn\np\nr 2\nd 1\nq\n")
            _check(ran, _expected(command, says, complete, comparable), f"{kind} m{n} {command}")
            outputs[command] = ran.out
            runs += 1
        if says == 0:  # following the file to its end tells what showing it tells
            assert outputs["follow"] == cli("replay", "show", path, "--public").out, n
    print(f"\nfuzz: {MUTANTS} mutants, {runs} command runs, 0 tracebacks; {kinds}; {statuses}")
    assert runs >= 500 * 11
    # the mutants exercise every outcome
    assert min(statuses.values()) >= 20, statuses


def _header(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text().splitlines()[0])


@pytest.mark.e2e
def test_mutants_as_real_subprocesses(sources: list[Path], tmp_path: Path) -> None:
    """The real console entry point gives the same statuses, without a traceback."""
    rng = random.Random(7)
    for n in range(6):
        original = sources[n % 4]
        _, data = mutate(original.read_bytes(), rng)
        path = tmp_path / f"s{n}.jsonl"
        path.write_bytes(data)
        for args in (("replay", "summary", path), ("replay", "verify", path)):
            done = subprocess.run(
                [sys.executable, "-m", "croupier", *map(str, args)],
                capture_output=True, text=True, timeout=60,
            )  # fmt: skip
            assert "Traceback" not in done.stderr
            assert done.returncode == cli(*args).status
