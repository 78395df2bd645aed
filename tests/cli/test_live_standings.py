"""The progress display's standings never take more than their share of a run: each recompute
(from the whole store, on the arbiter's event loop) waits 1 / STANDINGS_SHARE times its own
duration before the next, so a big store is not recomputed every second."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from croupier.cli import _tournament
from croupier.errors import ConfigError


def test_a_slow_recompute_waits_in_proportion(tmp_path: Path, monkeypatch: Any) -> None:
    calls: list[float] = []

    def slow(store: Path) -> Any:  # (a store whose standings take 20 ms to compute)
        calls.append(time.monotonic())
        time.sleep(0.02)
        raise ConfigError(f"{store}: no standings yet")

    monkeypatch.setattr(_tournament, "store_standings", slow)
    standings = _tournament._Standings(tmp_path / "t.sqlite", every=0.0)
    assert standings.due(time.monotonic())
    assert standings.compute() is None  # (no standings: nothing shown, no error)
    after = time.monotonic()
    # 20 ms of work: the next no sooner than 20 ms / STANDINGS_SHARE = 0.4 s after it ended
    assert pytest.approx(0.05) == _tournament.STANDINGS_SHARE
    assert not standings.due(after + 0.35)
    assert standings.due(after + 30)


def test_a_fast_recompute_waits_its_interval(tmp_path: Path) -> None:
    standings = _tournament._Standings(tmp_path / "none.sqlite", every=1.0)
    assert standings.compute() is None  # (no store yet)
    after = time.monotonic()
    assert not standings.due(after + 0.9)
    assert standings.due(after + 1.1)
