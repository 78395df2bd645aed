"""TLS on the control port and the web page (``[tls]`` / ``--tls-cert --tls-key``): ctl and
an HTTPS client with the CA get in, a plaintext client does not; with TLS both may listen on
every address; with a client CA the page demands a client certificate too."""

from __future__ import annotations

import contextlib
import http.client
import json
import socket
import ssl
from pathlib import Path

import pytest
from serve_kit import ServeProcess, ctl_here

pytestmark = pytest.mark.e2e  # the certificates: the suite's pki fixture (needs openssl)


def test_the_control_port_speaks_tls_only(tmp_path: Path, pki: dict[str, Path]) -> None:
    tls = ("--tls-cert", str(pki["server_pem"]), "--tls-key", str(pki["server_key"]))
    with ServeProcess(tmp_path / "state", *tls, "--control-listen", "0.0.0.0:0") as server:
        port = server.control_address.rpartition(":")[2]
        server.control_address = f"127.0.0.1:{port}"
        ok = ctl_here(server, "--tls-ca", pki["ca_pem"], "bots")
        assert ok.returncode == 0, ok.stderr
        assert ok.stdout.split() == [
            "bot",
            "games",
            "key",
            "connected",
            "says",
            "(name,",
            "version)",
        ]
        plain = ctl_here(server, "bots")
        assert plain.returncode == 5
        assert plain.stderr.startswith("croupier: error: cannot reach the server at")
        assert plain.stderr.count("\n") == 1


def _https_get(port: int, path: str, context: ssl.SSLContext) -> tuple[int, bytes]:
    connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=20, context=context)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def _plain_get(port: int) -> bytes:
    """A plaintext HTTP request to the port, and whatever comes back before it closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        received = b""
        with contextlib.suppress(ConnectionError):
            while chunk := sock.recv(65536):
                received += chunk
        return received


def test_with_tls_the_web_page_is_https_only_and_may_listen_on_every_address(
    tmp_path: Path, pki: dict[str, Path]
) -> None:
    tls = ("--tls-cert", str(pki["server_pem"]), "--tls-key", str(pki["server_key"]))
    with ServeProcess(tmp_path / "state", *tls, "--web-listen", "0.0.0.0:0") as server:
        assert server.web_url.startswith("https://")
        port = int(server.web_url.rstrip("/").rpartition(":")[2])
        trusted = ssl.create_default_context(cafile=str(pki["ca_pem"]))
        status, body = _https_get(port, "/", trusted)
        assert status == 200
        assert b'<script src="/static/app.js"' in body
        status, body = _https_get(port, "/api/bots", trusted)
        assert status == 200
        assert json.loads(body) == {}  # no bots registered: an empty ListBots
        with pytest.raises(ssl.SSLCertVerificationError):  # it is the configured certificate
            _https_get(port, "/", ssl.create_default_context())
        plain = _plain_get(port)
        assert b"HTTP/1.1 200" not in plain
        assert b"<script" not in plain


def test_with_a_client_ca_the_web_page_demands_a_client_certificate(
    tmp_path: Path, pki: dict[str, Path]
) -> None:
    ca = str(pki["ca_pem"])  # the CA of the server's certificate and of the client's
    tls = ("--tls-cert", str(pki["server_pem"]), "--tls-key", str(pki["server_key"]))
    tls += ("--tls-client-ca", ca)
    with ServeProcess(tmp_path / "state", *tls, "--web-listen", "127.0.0.1:0") as server:
        port = int(server.web_url.rstrip("/").rpartition(":")[2])
        anonymous = ssl.create_default_context(cafile=ca)
        with pytest.raises((ssl.SSLError, ConnectionError)):
            _https_get(port, "/", anonymous)
        holder = ssl.create_default_context(cafile=ca)
        holder.load_cert_chain(pki["client_pem"], pki["client_key"])
        status, body = _https_get(port, "/", holder)
        assert status == 200
        assert b'<script src="/static/app.js"' in body
