"""The human seat's HTTP API without a browser: ``croupier match --bot human`` (a real arbiter,
real bundled bots), its page server asked directly. A key that is no seat's gets nothing; bad
bodies are refused with one status each; an action for a request that is not open is refused;
a seat that never answers times out as a bot does and the match still ends normally."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_human_seat import _match

pytestmark = pytest.mark.e2e


def _ask(port: int, method: str, path: str, body: bytes | None = None, **headers: str) -> Any:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers.items():
            conn.putheader(name.replace("_", "-"), value)
        if body is not None and "Content_Length" not in headers:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        reply = conn.getresponse()
        return reply.status, reply.getheaders(), reply.read()
    finally:
        conn.close()


def test_the_human_api_refuses_what_it_should_and_a_silent_seat_times_out(tmp_path: Path) -> None:
    out = tmp_path / "out"
    # seed 1: seat 0 acts first in the deal (with another seed the others may end it before
    # its turn, and no timeout is charged)
    args = ("--game", "as-nas", "--deals", "1", "--seed", "1", "--bot", "human")
    args += ("--move-ms", "1000", "--bank-ms", "0")  # nobody answers: every decision times out
    with _match(out, *args) as played:
        url = played.urls[0]
        port = int(url.split(":")[2].split("/")[0])
        secret = url.split("#", 1)[1]
        status, headers, page = _ask(port, "GET", "/play")
        assert status == 200
        assert b"play.js" in page
        assert "default-src 'self'" in dict(headers)["Content-Security-Policy"]
        assert _ask(port, "GET", "/api/play/nobody/events")[0] == 403
        assert (
            _ask(port, "POST", "/api/play/nobody/act", b'{"request_id":1,"action_id":0}')[0] == 403
        )
        assert _ask(port, "POST", "/", b"")[0] == 405
        assert _ask(port, "POST", "/api/bots", b"")[0] == 405
        assert _ask(port, "GET", "/api/bots")[0] == 404  # no spectator API beside a match
        assert _ask(port, "POST", "/api/play/join")[0] == 411  # no Content-Length
        assert _ask(port, "POST", "/api/play/join", b"x" * 5000)[0] == 413
        assert _ask(port, "POST", f"/api/play/{secret}/act", b"not json")[0] == 400
        assert _ask(port, "POST", f"/api/play/{secret}/act", b'{"request_id":"1"}')[0] == 400
        status, _, body = _ask(
            port, "POST", f"/api/play/{secret}/act", b'{"request_id":999,"action_id":0}'
        )
        assert status == 409, body
        # the seat's whole stream, from the first message, to the match end
        status, _, stream = _ask(port, "GET", f"/api/play/{secret}/events")
        assert status == 200
        messages = [
            json.loads(line[6:])
            for line in stream.decode().split("\n")
            if line.startswith("data: ") and line != "data: {}"
        ]
        assert stream.rstrip().endswith(b"event: close\ndata: {}")
        assert messages[0]["welcome"]["seat"] == 0
        assert "matchEnd" in messages[-1]
        assert played.proc.wait(30) == 0, "".join(played.stderr)
    result = json.loads(next(out.glob("*.jsonl")).read_text().splitlines()[-1])
    assert not result["cancelled"]
    assert result["seats"][0]["bot_name"] == "human"
    assert result["seats"][0]["timeouts"] > 0  # charged by the arbiter, as a bot is


def test_a_human_seat_needs_the_plaintext_arbiter(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--bot", "human"]
    argv += ["--tls-cert", str(tmp_path / "c.pem"), "--tls-key", str(tmp_path / "k.pem")]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "croupier: error: --bot human plays over a plaintext loopback arbiter: drop --tls-cert"
    ]


def test_a_busy_play_port_is_one_error_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        argv = [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--bot", "human"]
        argv += ["--play-listen", f"127.0.0.1:{port}", "--out", str(tmp_path)]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2, done.stderr
    errors = [line for line in done.stderr.splitlines() if "error" in line.lower()]
    assert errors == [done.stderr.splitlines()[-1]], done.stderr
    assert errors[0].startswith(f"croupier: error: --play-listen 127.0.0.1:{port}: "), errors
    assert not list(tmp_path.iterdir()), "no match was started"
