"""Helpers of the ladder's end-to-end tests: write a tournament file, run ``croupier tournament``
as a user does, read the standings back."""

from __future__ import annotations

import json
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
