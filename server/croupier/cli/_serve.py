"""``croupier serve``: parse the flags over the TOML file, run the competition server until
SIGINT or SIGTERM (``docs/server.md``)."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import signal
import sys
from pathlib import Path
from typing import Any

from croupier.cli._sandbox import add_sandbox_arguments, sandbox_options, warn
from croupier.errors import ConfigError


def add_arguments(s: argparse.ArgumentParser) -> None:
    """``croupier serve``'s description and arguments (its help line is the CLI's)."""
    s.description = (
        "croupier serve runs one long-lived server: bots dial its bot port (BotService, "
        "registered bots with their key), operators and tools call its control port "
        "(ControlService: `croupier ctl`, grpcurl). Everything lasting is in the state "
        "folder's SQLite store; a restart keeps it (see docs/server.md)."
    )
    s.add_argument("--config", type=Path, default=None, metavar="FILE", help="the TOML file")
    s.add_argument("--bot-listen", default=None, metavar="HOST:PORT", help="the bot port")
    s.add_argument("--control-listen", default=None, metavar="HOST:PORT", help="the control port")
    s.add_argument(
        "--web-listen", default=None, metavar="HOST:PORT", help="serve the spectators' web page"
    )
    s.add_argument(
        "--state-dir", type=Path, default=None, metavar="DIR", help="store, replays, logs, keys"
    )
    s.add_argument("--tls-cert", type=Path, default=None, metavar="FILE", help="PEM chain")
    s.add_argument("--tls-key", type=Path, default=None, metavar="FILE", help="PEM key")
    s.add_argument(
        "--tls-client-ca", type=Path, default=None, metavar="FILE", help="demand client certs"
    )
    s.add_argument(
        "--allow-insecure-remote",
        action="store_true",
        default=None,
        help="serve plaintext on a non-loopback address (refused otherwise)",
    )
    s.add_argument("--max-matches", type=int, default=None, metavar="N", help="at once")
    s.add_argument(
        "--reconnect-grace",
        type=float,
        default=None,
        metavar="S",
        help="seconds a registered bot whose connection drops may take to come back (0: off)",
    )
    s.add_argument(
        "--no-anonymous",
        action="store_true",
        help="refuse calls without a key (default: they are spectators)",
    )
    add_sandbox_arguments(s, strict=True)


def config_from(args: argparse.Namespace) -> Any:
    """The configuration (a :class:`croupier.serve.ServeConfig`): the file (if any), then the
    flags over it."""
    # imported here: `croupier ctl` and the other commands do not pay for the server's imports
    from croupier.serve import ServeConfig, TlsFiles, load_serve_config
    from croupier.serve import check_serve_config as check

    config = load_serve_config(args.config) if args.config else ServeConfig(source="flags")
    changes: dict[str, Any] = {}
    for flag, key in (
        ("bot_listen", "bot_listen"),
        ("control_listen", "control_listen"),
        ("web_listen", "web_listen"),
        ("state_dir", "state_dir"),
        ("allow_insecure_remote", "allow_insecure_remote"),
        ("max_matches", "max_matches"),
        ("reconnect_grace", "reconnect_grace_s"),
    ):
        value = getattr(args, flag)
        if value is not None:
            changes[key] = value
    if args.no_anonymous:
        changes["anonymous_spectators"] = False
    if args.sandbox is not None:
        changes["sandbox"] = args.sandbox
    changes["bot_limits"] = sandbox_options(args).limits
    if args.tls_cert or args.tls_key:
        if not (args.tls_cert and args.tls_key):
            raise ConfigError("--tls-cert and --tls-key go together")
        changes["tls"] = TlsFiles(args.tls_cert, args.tls_key, args.tls_client_ca)
    return check(dataclasses.replace(config, **changes))


def run(args: argparse.Namespace) -> int:
    from croupier.serve import ENV_OPERATOR_KEY, CompetitionServer, serve_config_warnings

    config = config_from(args)
    for line in serve_config_warnings(config):
        print(f"croupier: warning: {line}", file=sys.stderr)

    async def main() -> None:
        server = CompetitionServer(config)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGINT, stop.set)
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        await server.start()
        warn(server.sandbox)
        try:
            print(f"bots: {server.bot_address}", flush=True)
            print(f"control: {server.control_address}", flush=True)
            if server.web_url:
                print(f"web: {server.web_url}", flush=True)
            where = (
                ENV_OPERATOR_KEY if os.environ.get(ENV_OPERATOR_KEY) else config.operator_key_path
            )
            print(f"operator key: {where}", flush=True)
            await stop.wait()
        finally:
            await server.stop()

    asyncio.run(main())
    print("croupier: server stopped", file=sys.stderr)
    return 0
