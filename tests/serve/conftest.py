"""On a failed test, the lines its ``croupier serve`` processes logged while it ran (the server
runs in a process of its own: without them a failure in CI says what, never why)."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from serve_kit import SERVE_LOGS

_SIZES = pytest.StashKey[dict[Path, int]]()
#: At most this much of each log's end is shown.
TAIL = 6000


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    item.stash[_SIZES] = {log: _size(log) for log in SERVE_LOGS}
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    if report.failed:  # (a failed teardown too: a server that would not stop)
        before = item.stash.get(_SIZES, {})
        for log in list(SERVE_LOGS):
            start = before.get(log, 0)
            if _size(log) <= start:
                continue
            with log.open("rb") as f:
                f.seek(start)
                text = f.read().decode(errors="replace")[-TAIL:]
            report.sections.append((f"croupier serve log {log.name}", text))
    return report
