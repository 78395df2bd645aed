"""Fixtures for the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import structlog


@pytest.fixture(autouse=True)
def _structlog_defaults() -> Iterator[None]:
    """Tests that run ``croupier.cli.main`` in-process configure structlog as the command does
    (warnings only, loggers cached); put the defaults back so later tests' ``capture_logs``
    sees every event."""
    yield
    structlog.reset_defaults()
