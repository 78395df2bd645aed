"""The TLS flags of the commands that host an arbiter (``match``, ``tournament``)."""

from __future__ import annotations

import argparse
from pathlib import Path

from croupier.errors import ConfigError
from croupier.transport import TlsConfig


def add_tls_arguments(parser: argparse.ArgumentParser) -> None:
    """``--tls-cert``, ``--tls-key``, ``--tls-client-ca``: TLS on the network listener."""
    parser.add_argument(
        "--tls-cert",
        type=Path,
        default=None,
        metavar="FILE",
        help="PEM certificate chain: the network listener (--listen) speaks TLS only; "
        "launched bots keep the local unix socket",
    )
    parser.add_argument(
        "--tls-key", type=Path, default=None, metavar="FILE", help="PEM private key of --tls-cert"
    )
    parser.add_argument(
        "--tls-client-ca",
        type=Path,
        default=None,
        metavar="FILE",
        help="PEM CA: remote bots must present a certificate it signed (mutual TLS)",
    )


def tls_config(args: argparse.Namespace) -> TlsConfig | None:
    """The TLS files the flags give (checked when the server starts), or ``None``."""
    if args.tls_cert is None and args.tls_key is None:
        if args.tls_client_ca is not None:
            raise ConfigError("--tls-client-ca needs --tls-cert and --tls-key")
        return None
    if args.tls_cert is None or args.tls_key is None:
        raise ConfigError("--tls-cert and --tls-key go together")
    return TlsConfig(args.tls_cert, args.tls_key, args.tls_client_ca)
