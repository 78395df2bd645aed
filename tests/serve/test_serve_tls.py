"""TLS on the control port (``[tls]`` / ``--tls-cert --tls-key``): ctl with the CA gets in, a
plaintext client does not; with TLS the control port may listen on every address."""

from __future__ import annotations

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
        assert ok.stdout.split() == ["bot", "owner", "connected", "version"]
        plain = ctl_here(server, "bots")
        assert plain.returncode == 5
        assert plain.stderr.startswith("croupier: error: cannot reach the server at")
        assert plain.stderr.count("\n") == 1
