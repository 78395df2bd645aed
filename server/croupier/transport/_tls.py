"""TLS for the arbiter's network listener: the certificate files, checked once, as gRPC
server credentials (or, for the competition server's web page, as an :mod:`ssl` context).

The one place Croupier reads TLS material (``croupier match``, ``tournament`` and the
competition server all come here). :func:`server_credentials` reads the PEM files and checks them
with the standard library's :mod:`ssl` (the certificate parses, the key is not encrypted and
belongs to it, the client CA parses) before gRPC sees them: gRPC itself would accept garbage and
fail every handshake later. Any problem is one :class:`~croupier.errors.ConfigError` line naming
the file. :func:`server_ssl_context` is the same checked material for a listener of Python's
own (``asyncio.start_server``).

Only the TCP listener is TLS; the arbiter's unix socket (launched bots, sandboxed or not) stays
plaintext: it is a local socket in a private directory, and the seat token still admits a bot.
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path

import grpc

from croupier.errors import ConfigError


@dataclass(frozen=True, slots=True)
class TlsConfig:
    """PEM files of a TLS listener: the certificate chain and its private key, and optionally
    the CA whose certificates clients must present (mutual TLS)."""

    cert: Path
    key: Path
    client_ca: Path | None = None


def _read(path: Path, what: str) -> bytes:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read the TLS {what} {path}: {exc.strerror or exc}") from None
    if b"-----BEGIN " not in data:
        raise ConfigError(f"the TLS {what} {path} is not a PEM file")
    return data


def _no_password() -> bytes:
    raise ConfigError("encrypted")  # never asked: encrypted keys are refused before


def server_credentials(tls: TlsConfig) -> grpc.ServerCredentials:
    """gRPC credentials serving ``tls``'s certificate (requiring and checking client
    certificates when it has a client CA); :class:`ConfigError` for any file that is missing,
    unreadable or invalid, or a key that does not belong to the certificate."""
    _, chain, key, client_ca = _load(tls)
    return grpc.ssl_server_credentials(
        [(key, chain)], root_certificates=client_ca, require_client_auth=client_ca is not None
    )


def server_ssl_context(tls: TlsConfig) -> ssl.SSLContext:
    """A server-side :class:`ssl.SSLContext` of ``tls`` (TLS 1.2 at least; with a client CA,
    a client certificate signed by it is required), checked as :func:`server_credentials`
    checks it: :class:`ConfigError` in one line."""
    context, _, _, client_ca = _load(tls)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if client_ca is not None:
        context.verify_mode = ssl.CERT_REQUIRED
    return context


def _load(tls: TlsConfig) -> tuple[ssl.SSLContext, bytes, bytes, bytes | None]:
    """The checked files: a server context holding the chain, key and client CA, the chain's
    and key's PEM bytes, and the client CA's (``None`` without one)."""
    chain = _read(tls.cert, "certificate")
    key = _read(tls.key, "key")
    if b"-----BEGIN CERTIFICATE-----" not in chain:
        raise ConfigError(f"the TLS certificate {tls.cert} holds no certificate")
    if b"PRIVATE KEY-----" not in key:
        raise ConfigError(f"the TLS key {tls.key} holds no private key")
    if b"ENCRYPTED" in key:
        raise ConfigError(f"the TLS key {tls.key} is encrypted: give an unencrypted key")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        context.load_cert_chain(tls.cert, tls.key, password=_no_password)
    except (ssl.SSLError, ConfigError) as exc:
        reason = getattr(exc, "reason", None) or str(exc)
        raise ConfigError(
            f"the TLS certificate {tls.cert} and key {tls.key} do not load together ({reason})"
        ) from None
    client_ca = None
    if tls.client_ca is not None:
        client_ca = _read(tls.client_ca, "client CA")
        try:
            context.load_verify_locations(cadata=client_ca.decode("ascii", "replace"))
        except (ssl.SSLError, ValueError) as exc:
            reason = getattr(exc, "reason", None) or str(exc)
            raise ConfigError(
                f"the TLS client CA {tls.client_ca} holds no valid certificate ({reason})"
            ) from None
    return context, chain, key, client_ca
