"""The server's public faces besides the bot port: the control port (``ControlService`` with
health and reflection, plus a private unix socket in the state folder for the web page's
backend) and the spectators' web page, with the TLS both share with the bot port.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer

from croupier.errors import ConfigError
from croupier.serve._config import ServeConfig
from croupier.serve._control import ControlServicer
from croupier.serve._human import HumanDesk
from croupier.serve._offloop import ControlThread, OffLoopServicer
from croupier.serve._pages import Pages
from croupier.serve._web import ControlSpectator, WebServer
from croupier.transport import (
    UNREQUESTED_WAIT_S,
    TlsConfig,
    enable_reflection,
    is_loopback,
    server_credentials,
    server_ssl_context,
    split_address,
)
from croupier.v1 import control_pb2, control_pb2_grpc

#: Streams the control port serves at once.
MAX_CONTROL_STREAMS = 4096
#: Largest control request (a tournament's TOML text is the biggest).
MAX_CONTROL_MESSAGE_BYTES = 1 << 20


def tls_config(config: ServeConfig) -> TlsConfig | None:
    """The TLS files of both ports (``None``: plaintext)."""
    tls = config.tls
    return None if tls is None else TlsConfig(tls.cert, tls.key, tls.client_ca)


def credentials(config: ServeConfig) -> grpc.ServerCredentials | None:
    """The control port's TLS credentials (``None``: plaintext), loaded by the transport's one
    TLS helper: one error line for a file that cannot be read or does not fit."""
    tls = tls_config(config)
    return None if tls is None else server_credentials(tls)


def refuse_plaintext(config: ServeConfig) -> None:
    """A plaintext port on an address others can reach is refused unless allowed."""
    if config.allow_insecure_remote:
        return
    if config.tls is not None:  # every port speaks it (launched bots use the unix socket)
        return
    plain = [("bot_listen", config.bot_listen), ("control_listen", config.control_listen)]
    if config.web_listen:  # the page is plain HTTP without [tls]
        plain.append(("web_listen", config.web_listen))
    for key, address in plain:
        if not is_loopback(address):
            raise ConfigError(
                f"serve.{key} = {address!r} is not a loopback address and is served in "
                "plaintext: configure [tls] (or --tls-cert/--tls-key), bind 127.0.0.1, or pass "
                "--allow-insecure-remote"
            )


class ControlPort:
    """The control port serving ``servicer`` and ``health`` (see the module docstring)."""

    def __init__(self, config: ServeConfig, health: HealthServicer) -> None:
        self._config = config
        self._health = health
        self._server: grpc.aio.Server | None = None
        #: The thread the port is served from (``serve/_offloop.py``), once started.
        self._thread: ControlThread | None = None
        #: The address it listens on (its port resolved), once started.
        self.address = ""
        #: The private socket the web page's backend calls (``None``: no web page).
        self.web_socket: Path | None = None

    async def start(self, servicer: ControlServicer, creds: grpc.ServerCredentials | None) -> None:
        """Bind and serve, from a thread of its own (``serve/_offloop.py``: the reads are
        answered there, the other calls on this, the play loop);  :class:`ConfigError` (one
        line) if the address cannot be had."""
        thread = self._thread = ControlThread()
        thread.start()
        served = OffLoopServicer(servicer, asyncio.get_running_loop())
        await thread.run(self._start_here(served, creds))

    async def _start_here(
        self, servicer: OffLoopServicer, creds: grpc.ServerCredentials | None
    ) -> None:
        config = self._config
        server = grpc.aio.server(
            maximum_concurrent_rpcs=MAX_CONTROL_STREAMS,
            options=[
                ("grpc.max_receive_message_length", MAX_CONTROL_MESSAGE_BYTES),
                ("grpc.so_reuseport", 0),
                # as on the bot port: a call waiting for the busy loop is not cancelled at 30 s
                ("grpc.server_max_unrequested_time_in_server", UNREQUESTED_WAIT_S),
            ],
        )
        control_pb2_grpc.add_ControlServiceServicer_to_server(servicer, server)  # type: ignore[no-untyped-call]
        health_pb2_grpc.add_HealthServicer_to_server(self._health, server)
        control_name = control_pb2.DESCRIPTOR.services_by_name["ControlService"].full_name
        enable_reflection(
            server, (control_name, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name)
        )
        try:
            if creds is None:
                port = server.add_insecure_port(config.control_listen)
            else:
                port = server.add_secure_port(config.control_listen, creds)
        except RuntimeError:
            port = 0
        if not port:
            raise ConfigError(
                f"cannot listen on {config.control_listen}: the address is taken or not this "
                "machine's"
            )
        # the web page's backend calls this service as a spectator, over a private socket in
        # the state folder (0700): whatever TLS the public port has
        if config.web_listen:
            web_socket = config.state_dir / "control.sock"
            web_socket.unlink(missing_ok=True)
            if not server.add_insecure_port(f"unix:{web_socket}"):
                raise ConfigError(f"cannot listen on unix:{web_socket}")
            self.web_socket = web_socket
        self._server = server
        await server.start()
        host = config.control_listen.rpartition(":")[0]
        self.address = f"{host}:{port}"
        serving = health_pb2.HealthCheckResponse.SERVING
        await self._health.set("", serving)
        await self._health.set(control_name, serving)

    async def enter_graceful_shutdown(self) -> None:
        """Health says NOT_SERVING from now on (the health servicer lives on the port's thread)."""
        if self._thread is not None:
            await self._thread.run(self._health.enter_graceful_shutdown())

    async def stop(self, grace: float) -> None:
        thread = self._thread
        if thread is None:
            return
        try:
            if self._server is not None:
                await thread.run(self._server.stop(grace))
        finally:
            thread.stop()
            self._thread = None


class WebPage:
    """The spectators' page (``croupier.serve._web``), a spectator client of this server over
    the control port's private ``socket`` with ``spectator_key``; over HTTPS with the server's
    TLS (the same certificate, key and client CA). ``pages``: the bot pages and the other
    reads of the store it serves (``serve/_pages.py``)."""

    def __init__(
        self,
        config: ServeConfig,
        socket: Path,
        spectator_key: str,
        pages: Pages | None = None,
        human: HumanDesk | None = None,
    ) -> None:
        self._config = config
        self._channel = grpc.aio.insecure_channel(f"unix:{socket}")
        host, port = split_address(config.web_listen)
        self._host = host.strip("[]")
        tls = tls_config(config)
        self._web = WebServer(
            ControlSpectator(self._channel, spectator_key),
            self._host,
            int(port),
            tls=None if tls is None else server_ssl_context(tls),
            pages=pages,
            human=human,
        )
        self._human = human
        #: The page's URL (``http://HOST:PORT/``, ``https://`` with TLS), once started.
        self.url = ""

    async def start(self) -> None:
        """Serve the page; :class:`ConfigError` (one line) if the address cannot be had."""
        try:
            await self._web.start()
        except OSError as exc:
            raise ConfigError(
                f"cannot listen on {self._config.web_listen}: {exc.strerror or exc}"
            ) from None
        shown = f"[{self._host}]" if ":" in self._host else self._host
        self.url = f"{self._web.scheme}://{shown}:{self._web.port}/"

    async def stop(self) -> None:
        await self._web.stop()
        if self._human is not None:
            await self._human.close()
        await self._channel.close()
