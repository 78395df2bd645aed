"""Helpers of the ladder's end-to-end tests: write a tournament file, run ``croupier tournament``
as a user does, read the standings and the stored seats back, list a run's bot processes."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

CROUPIER = [sys.executable, "-m", "croupier"]
E2E_BOTS = Path(__file__).resolve().parents[1] / "e2e" / "bots"


def write_config(folder: Path, body: str, name: str = "t.toml") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(body)
    return path


def one_deal_config(
    folder: Path, bots: dict[str, str], *, connect_timeout_s: float, duplicate: bool = True
) -> Path:
    """A tournament file of one-deal As-Nas matches (seed 4) between ``bots`` (name: command),
    whose bots have ``connect_timeout_s`` to dial in: the tests of bots slow to connect."""
    lines = [f'{name} = "{command}"' for name, command in bots.items()]
    fmt = "" if duplicate else "[format]\nduplicate = false\n"
    body = (
        'game = "as-nas"\nseed = 4\n[params]\ndeals = 1\n'
        f"[clock]\nconnect_timeout_s = {connect_timeout_s}\n{fmt}[bots]\n" + "\n".join(lines)
    )
    return write_config(folder, body + "\n")


def tournament(
    *args: object, timeout: float = 300, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CROUPIER, "tournament", *(str(a) for a in args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


def standings_json(store: Path) -> dict[str, Any]:
    done = tournament("standings", store, "--json")
    assert done.returncode == 0, done.stderr
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def python_bot(name: str, *args: object) -> str:
    """A command line for the test bot ``tests/e2e/bots/<name>.py``."""
    parts = [sys.executable, str(E2E_BOTS / f"{name}.py"), *(str(a) for a in args)]
    return " ".join(parts)


def stored_seats(store: Path, *, faults: bool = False) -> list[tuple[object, ...]]:
    """Every seat the tournament store ``store`` holds, in schedule order: match id, seat, bot,
    score, place, outcome, and with ``faults`` its timeouts and rejected replies."""
    extra = ", s.timeouts, s.rejected" if faults else ""
    conn = sqlite3.connect(store)
    try:
        return conn.execute(
            f"SELECT m.id, s.seat, s.bot, s.score, s.place, s.outcome{extra} FROM matches m "
            "JOIN seats s ON s.match_id = m.id ORDER BY m.slot, s.seat"
        ).fetchall()
    finally:
        conn.close()


#: What the command line of a tournament's own helper process holds (its workers, the helpers
#: that compute the control variates: ``croupier.ladder._frames.start_helper``).
HELPER = b"from croupier.ladder._"


def children(pid: int, *, helpers: bool = True) -> list[int]:
    """The live processes ``pid`` started (a tournament's bots, and its helper processes unless
    ``helpers`` is false), from /proc: a zombie, exited but not yet reaped, does not count."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if not helpers and HELPER in (stat.parent / "cmdline").read_bytes():
                continue
        except OSError:
            continue
        if int(fields[1]) == pid and fields[0] != "Z":
            out.append(int(stat.parent.name))
    return out
