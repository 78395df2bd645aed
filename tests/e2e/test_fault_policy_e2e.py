"""The fault policy end to end: ``croupier match --fault-policy`` with real misbehaving bot
processes, one per fault class that a launched bot can commit (the disconnect class of a
remote bot is in ``test_reconnect.py``), then ``replay verify`` and ``replay show`` on the
replay it wrote."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import BOTS_DIR, croupier, replay_path

pytestmark = pytest.mark.e2e


def _bot(name: str, *args: object) -> str:
    return shlex.join([sys.executable, str(BOTS_DIR / f"{name}.py"), *map(str, args)])


def _rows(stdout: str) -> dict[int, dict[str, str]]:
    """The standings table by seat."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["place", "seat"])
    columns = lines[start].split()
    rows = {}
    for line in lines[start + 1 :]:
        cells = line.split()
        if len(cells) != len(columns):
            break
        row = dict(zip(columns, cells, strict=True))
        rows[int(row["seat"])] = row
    return rows


def test_each_fault_class_gets_its_policy(tmp_path: Path) -> None:
    """Seat 0 crashes (exit 3 with a decision pending) under ``crash=forfeit-match``; seat 1
    times out once under ``timeout=forfeit-round`` (it sleeps 1.4 s past its 2 s and wakes
    600 ms before its next decision could time out too: the stalls of a loaded machine, which
    the arbiter does not charge, move a deadline later in proportion to the wait, up to 40 %
    of it seen here); seat 2 answers an illegal id once under ``illegal=forfeit-round``; seat
    3 plays cleanly."""
    done = croupier(
        "match", "--game", "as-nas", "--seed", "2", "--deals", "4", "--out", tmp_path / "out",
        "--move-ms", "2000", "--bank-ms", "0",
        "--fault-policy", "crash=forfeit-match,timeout=forfeit-round,illegal=forfeit-round",
        "--bot", _bot("quitter", "--after", "2", "--how", "os-exit"),
        "--bot", _bot("sleeper", "--on", "2", "--sleep-ms", "3400"),
        "--bot", _bot("illegal", "--on", "2"),
        "--bot", "random",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = _rows(done.stdout)
    assert rows[0]["ended"] == "forfeited"
    assert rows[0]["place"] == "4"
    assert rows[0]["forfeits"] == "1"
    assert (rows[1]["ended"], rows[1]["timeouts"], rows[1]["forfeits"]) == ("timeouts", "1", "1")
    assert (rows[2]["ended"], rows[2]["rejected"], rows[2]["forfeits"]) == (
        "illegal_actions", "1", "1"
    )  # fmt: skip
    assert (rows[3]["ended"], rows[3]["forfeits"]) == ("normal", "0")

    replay = replay_path(done.stdout)
    records: list[dict[str, Any]] = [json.loads(line) for line in replay.read_text().splitlines()]
    assert records[0]["fault_policy"] == {
        "timeout": "forfeit-round", "illegal": "forfeit-round", "disconnect": "default",
        "crash": "forfeit-match",
    }  # fmt: skip

    def seat_records(seat: int) -> list[dict[str, Any]]:
        return [r for r in records if r.get("seat") == seat and r["type"] != "header"]

    # seat 0: the crash, then only conceded folds to the end of the match
    mine = seat_records(0)
    crash = next(i for i, r in enumerate(mine) if r.get("fault") == "crash")
    assert mine[crash]["policy"] == "forfeit-match"
    assert mine[crash]["label"] == "Fold"
    assert all(r.get("conceded") and r["label"] == "Fold" for r in mine[crash + 1 :])
    # seats 1 and 2: one fault each, a fold, and asked again in a later deal
    for seat, fault in ((1, "timeout"), (2, "illegal_action")):
        mine = [r for r in seat_records(seat) if r["type"] == "action"]
        (index,) = [i for i, r in enumerate(mine) if r["fault"]]
        assert mine[index]["fault"] == fault
        assert mine[index]["policy"] == "forfeit-round"
        assert mine[index]["label"] == "Fold"
        later = mine[index + 1 :]
        assert later, "the seat needs decisions after its forfeited deal"
        assert any(r["fault"] is None and not r.get("conceded") for r in later)

    verified = croupier("replay", "verify", replay)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    shown = croupier("replay", "show", replay)
    assert "(crash, forfeit-match: played by the arbiter)" in shown.stdout
    assert "(forfeited: played by the arbiter)" in shown.stdout
    assert "[forfeited]" in shown.stdout


def test_a_bad_fault_policy_is_one_error_line(tmp_path: Path) -> None:
    """(Every bad key and value is checked in ``tests/arbiter/test_fault_policy.py``.)"""
    needle = "--fault-policy: unknown fault class 'timout' (known: timeout, illegal"
    done = croupier(
        "match", "--game", "as-nas", "--out", tmp_path, "--fault-policy", "timout=default"
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"croupier: error: {needle}")
    assert not list(tmp_path.glob("*.jsonl"))
