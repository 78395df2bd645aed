"""Fixtures for the whole suite: structlog's defaults put back after each test, and ``pki``,
the certificates of the TLS tests (the end-to-end and the server tests both use it)."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import structlog


@pytest.fixture(autouse=True)
def _structlog_defaults() -> Iterator[None]:
    """Tests that run ``croupier.cli.main`` in-process configure structlog as the command does
    (warnings only, loggers cached); put the defaults back so later tests' ``capture_logs``
    sees every event."""
    yield
    structlog.reset_defaults()


def _make_pki(folder: Path, openssl: str) -> dict[str, Path]:
    """A CA, a server certificate for 127.0.0.1/localhost and a client certificate, both signed
    by the CA, a second CA nobody uses, and the server key encrypted with a passphrase (P-256
    keys: quick to make), made with the openssl command."""

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], cwd=folder, check=True, capture_output=True, timeout=60)

    ec = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes")
    for ca in ("ca", "other-ca"):
        run("req", "-x509", *ec, "-days", "2", "-subj", f"/CN=croupier test {ca}",
            "-keyout", f"{ca}.key", "-out", f"{ca}.pem")  # fmt: skip
    (folder / "server.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\n")
    (folder / "client.ext").write_text("extendedKeyUsage=clientAuth\n")
    for name in ("server", "client"):
        run("req", "-new", *ec, "-subj", f"/CN=croupier test {name}",
            "-keyout", f"{name}.key", "-out", f"{name}.csr")  # fmt: skip
        run("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
            "-CAcreateserial", "-days", "2", "-extfile", f"{name}.ext",
            "-out", f"{name}.pem")  # fmt: skip
    run("pkey", "-in", "server.key", "-aes256", "-passout", "pass:x", "-out", "encrypted.key")
    return {p.stem + p.suffix.replace(".", "_"): p for p in folder.iterdir()}


@pytest.fixture(scope="session")
def pki(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The TLS tests' files by name (``ca_pem``, ``server_pem``, ``server_key``, ``client_pem``,
    ``client_key``, ``other-ca_pem``, ``encrypted_key``, ...), made once a session; the test is
    skipped where the openssl command is not installed."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("the openssl command is not installed")
    return _make_pki(tmp_path_factory.mktemp("pki"), openssl)
