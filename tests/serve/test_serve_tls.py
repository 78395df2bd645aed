"""TLS on the control port (``[tls]`` / ``--tls-cert --tls-key``): ctl with the CA gets in, a
plaintext client does not; with TLS the control port may listen on every address."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from serve_kit import ServeProcess, ctl_here

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("openssl") is None, reason="needs the openssl command"),
]


def _certificate(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-subj", "/CN=croupier-test", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return cert, key


def test_the_control_port_speaks_tls_only(tmp_path: Path) -> None:
    cert, key = _certificate(tmp_path)
    tls = ("--tls-cert", str(cert), "--tls-key", str(key))
    with ServeProcess(tmp_path / "state", *tls, "--control-listen", "0.0.0.0:0") as server:
        port = server.control_address.rpartition(":")[2]
        server.control_address = f"127.0.0.1:{port}"
        ok = ctl_here(server, "--tls-ca", cert, "bots")
        assert ok.returncode == 0, ok.stderr
        assert ok.stdout.split() == ["bot", "owner", "connected", "version"]
        plain = ctl_here(server, "bots")
        assert plain.returncode == 5
        assert plain.stderr.startswith("croupier: error: cannot reach the server at")
        assert plain.stderr.count("\n") == 1
