"""Fixtures of the end-to-end suite: real arbiter, real gRPC over loopback, real bot processes.

``e2e`` (an :class:`e2e_kit.Kit`) builds bot command lines and runs matches in the test's
``tmp_path``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from e2e_kit import Kit


@pytest.fixture(autouse=True)
def _bots_may_enter(tmp_path: Path) -> None:
    """Bots written into ``tmp_path`` run sandboxed as a uid of their own when the tests run as
    root: that uid must be allowed into the directory (the match directory inside stays 0700)."""
    tmp_path.chmod(0o755)


@pytest.fixture
def e2e(tmp_path: Path) -> Kit:
    return Kit(tmp_path)
