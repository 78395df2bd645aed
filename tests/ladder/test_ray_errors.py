"""Every Ray failure is one line with exit status 3: an address nobody answers (within a
bounded time, not Ray's minutes of retries), a local instance that does not start in Ray's
time limit, a cluster of another version. The first runs the real command against a closed
port; the other two cannot be caused here for real (a machine loaded past Ray's 30 s, a second
Ray version), so Ray's own exceptions, as Ray raises them, are handed to the executor."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

import pytest
from ladder_kit import tournament, write_config

from croupier.errors import ExecutorError
from croupier.ladder._ray import connect_ray

pytest.importorskip("ray")

BODY = """
game = "as-nas"
[params]
deals = 1
[bots]
a = "random"
b = "random"
c = "random"
d = "random"
"""


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port  # nothing listens on it once closed


@pytest.mark.e2e
def test_an_unreachable_address_is_one_line_and_status_3_within_seconds(tmp_path: Path) -> None:
    path = write_config(tmp_path, BODY)
    port = _closed_port()
    start = time.monotonic()
    done = tournament(path, "--executor", "ray", "--address", f"127.0.0.1:{port}")
    took = time.monotonic() - start
    assert done.returncode == 3, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == [
        f"croupier: error: ray: cannot reach the Ray cluster at 127.0.0.1:{port} within 5 s "
        "(Connection refused); is its head running (ray start --head), and is the port open?"
    ], done.stderr
    assert took < 60  # (Ray's own client retries for minutes)


class _Ray:
    """Stands in for the ``ray`` module: ``init`` raises what Ray raises."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def init(self, **_: Any) -> None:
        raise self.exc


START_TIMEOUT = Exception(
    "The current node timed out during startup. This could happen because some of the Ray "
    "processes failed to startup.\n  File ...\n    raise Exception(...)"
)
MISMATCH = RuntimeError(
    "Version mismatch: The cluster was started with:\n    Ray: 2.59.0\n    Python: 3.11.2\n"
    "This process on node 127.0.0.1 was started with:\n    Ray: 2.60.0\n    Python: 3.11.2\n"
)


@pytest.mark.parametrize(
    ("exc", "address", "needle"),
    [
        (START_TIMEOUT, "", "ray: a local Ray instance did not start in time: The current node "),
        (MISMATCH, "", "ray: a local Ray instance runs another version: Version mismatch: "),
        (ValueError("bad\nthings"), "", "ray: cannot start or join a local Ray instance: bad"),
    ],
)
def test_ray_start_failures_are_one_line(exc: BaseException, address: str, needle: str) -> None:
    with pytest.raises(ExecutorError) as raised:
        connect_ray(_Ray(exc), address)
    message = str(raised.value)
    assert "\n" not in message
    assert message.startswith(needle), message
    assert raised.value.status == 3
