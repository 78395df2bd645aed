"""``croupier serve``'s configuration: a TOML file (``docs/server.md``, "Configuration") and
the flags that override it. Every error is one :class:`ConfigError` line naming the key and file.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from croupier import _defaults as defaults
from croupier.arbiter import SEED_BITS, SEED_LIMIT
from croupier.errors import ConfigError
from croupier.games import get_game
from croupier.serve._scheduler import LadderConfig
from croupier.transport import Limits, split_address

#: Where the server keeps its store, replays, logs and generated keys unless told otherwise.
DEFAULT_STATE_DIR = Path("croupier-server")

_SERVE_KEYS = {
    "bot_listen",
    "control_listen",
    "web_listen",
    "state_dir",
    "allow_insecure_remote",
    "max_matches",
    "move_ms",
    "bank_ms",
    "connect_timeout_s",
    "reconnect_grace_s",
    "event_flush_ms",
    "bot_capacity",
    "bot_streams",
    "bot_pending_per_peer",
    "bot_probation_per_peer",
    "bot_failed_hellos_per_peer",
    "sandbox",
}
_TLS_KEYS = {"cert", "key", "client_ca"}
_ROLE_KEYS = {"operator_key_file", "spectator_key_file", "anonymous_spectators", "play_vs_bots"}
#: Who may start a match against bundled bots from the web page (``[roles] play_vs_bots``).
PLAY_VS_BOTS = ("off", "operators", "anyone")
_TOP_KEYS = {"serve", "tls", "roles", "ladder"}


@dataclass(frozen=True, slots=True)
class TlsFiles:
    """The server's certificate chain and key (PEM), and optionally a CA whose client
    certificates it demands (mutual TLS)."""

    cert: Path
    key: Path
    client_ca: Path | None = None


@dataclass(frozen=True, slots=True)
class ServeConfig:
    """Everything ``croupier serve`` runs with."""

    #: Where bots dial (BotService: Play and Session).
    bot_listen: str = "127.0.0.1:7070"
    #: Where operators, tools and spectators call the ControlService.
    control_listen: str = "127.0.0.1:7071"
    #: Where the spectators' web page is served, over HTTP, HTTPS with ``tls`` ("": no page).
    web_listen: str = ""
    #: The store (``croupier.sqlite``), ``replays/``, ``logs/`` and generated keys.
    state_dir: Path = DEFAULT_STATE_DIR
    #: Plaintext on a non-loopback address (refused unless this is set).
    allow_insecure_remote: bool = False
    #: Matches played at once; more wait (pending) for a free slot.
    max_matches: int = defaults.SERVER_MAX_MATCHES
    move_ms: int = defaults.MOVE_MS
    bank_ms: int = defaults.BANK_MS
    connect_timeout_s: float = defaults.CONNECT_TIMEOUT_S
    #: How long a registered bot whose connection drops may take to come back with its seat
    #: tokens and get the pending decision again (0: no window; docs/server.md).
    reconnect_grace_s: float = defaults.RECONNECT_GRACE_S
    #: How long a public event may wait for the next message to its seat before it goes out
    #: alone (0: always: fewer messages; docs/protocol.md, "Events").
    event_flush_ms: int = defaults.EVENT_FLUSH_MS
    #: Seats one bundled bot process plays at once (its session capacity).
    bot_capacity: int = 16
    #: Streams the bot port serves at once (0: enough for ``max_matches`` of four seats and
    #: their sessions, at least 1024).
    bot_streams: int = 0
    #: Per peer (an address; all of loopback is one) on the bot port: streams held open before
    #: their Hello, further ones on probation, refused Hellos per 10 s (see
    #: :class:`~croupier.transport.PeerLimits`; a valid token is never refused for them).
    bot_pending_per_peer: int = 8
    bot_probation_per_peer: int = 64
    bot_failed_hellos_per_peer: int = 32
    #: How launched bots (``bundled:`` bots, tournaments' bots) are isolated: auto, bwrap,
    #: unshare or none ("": ``CROUPIER_SANDBOX``, else auto). Anything but none refuses to
    #: start where no sandbox can run.
    sandbox: str = ""
    #: Limits of every launched bot (the ``--bot-*`` flags).
    bot_limits: Limits = field(default_factory=Limits)
    tls: TlsFiles | None = None
    #: The operator key's file (default ``state_dir/operator.key``, generated at first start;
    #: ``CROUPIER_OPERATOR_KEY`` in the environment takes precedence).
    operator_key_file: Path | None = None
    #: The spectator key's file (default ``state_dir/spectator.key``, generated at first start).
    spectator_key_file: Path | None = None
    #: Calls with no key at all are spectators (else UNAUTHENTICATED).
    anonymous_spectators: bool = True
    #: Who may start a match of a human seat against bundled bots on the web page: off,
    #: operators (with the operator key) or anyone (docs/server.md, "Human seats").
    play_vs_bots: str = "operators"
    #: The ``[ladder]`` table, as read: the continuous ladder's settings (its scheduler reads it).
    ladder: Mapping[str, Any] = field(default_factory=dict)
    #: Where the configuration came from (for error messages).
    source: str = "defaults"

    @property
    def max_bot_streams(self) -> int:
        return self.bot_streams or max(1024, 5 * self.max_matches + 64)

    @property
    def store_path(self) -> Path:
        return self.state_dir / "croupier.sqlite"

    @property
    def replay_dir(self) -> Path:
        return self.state_dir / "replays"

    @property
    def log_dir(self) -> Path:
        return self.state_dir / "logs"

    @property
    def operator_key_path(self) -> Path:
        return self.operator_key_file or self.state_dir / "operator.key"

    @property
    def spectator_key_path(self) -> Path:
        return self.spectator_key_file or self.state_dir / "spectator.key"

    @property
    def ladder_game(self) -> str:
        """The continuous ladder's game (its standings are the server's default ones)."""
        game = self.ladder.get("game", "")
        return game if isinstance(game, str) else ""


def _fail(source: str, key: str, message: str) -> ConfigError:
    return ConfigError(f"{source}: {key}: {message}")


def _table(source: str, data: Mapping[str, Any], key: str, known: set[str]) -> dict[str, Any]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise _fail(source, key, f"must be a table, got {value!r}")
    for name in value:
        if name not in known:
            raise _fail(source, f"{key}.{name}", f"unknown key (known: {', '.join(sorted(known))})")
    return value


def _get(source: str, table: Mapping[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = table[key.rsplit(".", 1)[-1]]
    if isinstance(value, bool) and kind is not bool:
        raise _fail(source, key, f"must be {_kind(kind)}, got {value!r}")
    if not isinstance(value, kind):
        raise _fail(source, key, f"must be {_kind(kind)}, got {value!r}")
    return value


def _kind(kind: type | tuple[type, ...]) -> str:
    names = {
        bool: "true or false",
        int: "an integer",
        str: "a string",
        float: "a number",
        dict: "a table",
    }
    if isinstance(kind, tuple):
        return "a number"
    return names.get(kind, kind.__name__)


def parse_serve_config(data: Mapping[str, Any], source: str, *, base: Path) -> ServeConfig:
    """Validate raw TOML ``data`` (relative paths are taken from ``base``, the file's folder)."""
    for name in data:
        if name not in _TOP_KEYS:
            known = ", ".join(sorted(_TOP_KEYS))
            raise _fail(source, name, f"unknown table (known: {known})")
    serve = _table(source, data, "serve", _SERVE_KEYS)
    tls = _table(source, data, "tls", _TLS_KEYS)
    roles = _table(source, data, "roles", _ROLE_KEYS)
    ladder = data.get("ladder", {})
    if not isinstance(ladder, dict):
        raise _fail(source, "ladder", f"must be a table, got {ladder!r}")
    parse_ladder_config(ladder, source)  # a mistake in [ladder] is found before the start
    changes: dict[str, Any] = {"source": source, "ladder": ladder}
    for key in ("bot_listen", "control_listen", "web_listen"):
        if key in serve:
            changes[key] = _get(source, serve, f"serve.{key}", str)
    if "state_dir" in serve:
        changes["state_dir"] = base / _get(source, serve, "serve.state_dir", str)
    if "allow_insecure_remote" in serve:
        changes["allow_insecure_remote"] = _get(source, serve, "serve.allow_insecure_remote", bool)
    for key in (
        "max_matches",
        "move_ms",
        "bank_ms",
        "event_flush_ms",
        "bot_capacity",
        "bot_streams",
        "bot_pending_per_peer",
        "bot_probation_per_peer",
        "bot_failed_hellos_per_peer",
    ):
        if key in serve:
            changes[key] = _get(source, serve, f"serve.{key}", int)
    if "connect_timeout_s" in serve:
        changes["connect_timeout_s"] = float(
            _get(source, serve, "serve.connect_timeout_s", (int, float))
        )
    if "reconnect_grace_s" in serve:
        changes["reconnect_grace_s"] = float(
            _get(source, serve, "serve.reconnect_grace_s", (int, float))
        )
    if "sandbox" in serve:
        changes["sandbox"] = _get(source, serve, "serve.sandbox", str)
    if tls:
        for key in ("cert", "key"):
            if key not in tls:
                raise _fail(source, f"tls.{key}", "missing (TLS needs both cert and key)")
        ca = tls.get("client_ca")
        changes["tls"] = TlsFiles(
            base / _get(source, tls, "tls.cert", str),
            base / _get(source, tls, "tls.key", str),
            None if ca is None else base / _get(source, tls, "tls.client_ca", str),
        )
    for key in ("operator_key_file", "spectator_key_file"):
        if key in roles:
            changes[key] = base / _get(source, roles, f"roles.{key}", str)
    if "anonymous_spectators" in roles:
        changes["anonymous_spectators"] = _get(source, roles, "roles.anonymous_spectators", bool)
    if "play_vs_bots" in roles:
        changes["play_vs_bots"] = _get(source, roles, "roles.play_vs_bots", str)
        if changes["play_vs_bots"] not in PLAY_VS_BOTS:
            raise _fail(
                source,
                "roles.play_vs_bots",
                f"must be off, operators or anyone, got {changes['play_vs_bots']!r}",
            )
    return check(dataclasses.replace(ServeConfig(), **changes))


def load_serve_config(path: Path) -> ServeConfig:
    """Read and validate the TOML file at ``path``."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return parse_serve_config(data, str(path), base=path.parent)


def check(config: ServeConfig) -> ServeConfig:
    """Check values that flags can set as well as the file; return ``config``."""
    source = config.source
    for key in ("bot_listen", "control_listen"):
        try:
            split_address(getattr(config, key))
        except ConfigError as exc:
            raise _fail(source, f"serve.{key}", str(exc)) from None
    if config.bot_listen == config.control_listen and not config.bot_listen.endswith(":0"):
        raise _fail(source, "serve.control_listen", "must differ from serve.bot_listen")
    if config.web_listen:
        if config.web_listen.startswith("unix:"):
            raise _fail(source, "serve.web_listen", "must be HOST:PORT (the page is HTTP)")
        try:
            split_address(config.web_listen)
        except ConfigError as exc:
            raise _fail(source, "serve.web_listen", str(exc)) from None
        taken = {config.bot_listen, config.control_listen}
        if config.web_listen in taken and not config.web_listen.endswith(":0"):
            raise _fail(source, "serve.web_listen", "must differ from the bot and control ports")
        if not config.anonymous_spectators:
            raise _fail(
                source,
                "serve.web_listen",
                "the web page asks its visitors for no key: it would show a spectator's view "
                "to anyone who reaches it, and roles.anonymous_spectators is false "
                "(--no-anonymous); leave the page off, or let anonymous spectators in",
            )
    for key, low, high in (
        ("max_matches", 1, 100_000),
        ("move_ms", 1, 86_400_000),
        ("bank_ms", 0, 86_400_000),
        ("event_flush_ms", 0, 60_000),
        ("bot_capacity", 1, 4096),
        ("bot_streams", 0, 1_000_000),
        ("bot_pending_per_peer", 1, 1_000_000),
        ("bot_probation_per_peer", 0, 1_000_000),
        ("bot_failed_hellos_per_peer", 1, 1_000_000),
    ):
        value = getattr(config, key)
        if not low <= value <= high:
            raise _fail(source, f"serve.{key}", f"must be from {low} to {high}, got {value}")
    if not 0 < config.connect_timeout_s <= 3600:
        raise _fail(source, "serve.connect_timeout_s", "must be more than 0 and at most 3600")
    if not 0 <= config.reconnect_grace_s <= 3600:
        raise _fail(source, "serve.reconnect_grace_s", "must be from 0 to 3600 seconds")
    if config.sandbox not in ("", "auto", "bwrap", "unshare", "none"):
        raise _fail(
            source, "serve.sandbox", f"must be auto, bwrap, unshare or none, got {config.sandbox!r}"
        )
    return config


def warnings(config: ServeConfig) -> list[str]:
    """What in a valid ``config`` has no effect, one line each (``croupier serve`` prints them
    as warnings): ``[roles] play_vs_bots`` opened to anyone without a web page to play on."""
    out = []
    if config.play_vs_bots == "anyone" and not config.web_listen:
        out.append(
            'roles.play_vs_bots = "anyone" has no effect: the server has no web page '
            "(set serve.web_listen or pass --web-listen)"
        )
    return out


#: The keys of the ``[ladder]`` table, with their kinds.
_LADDER_KEYS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "params": dict,
    "name": str,
    "seats": int,
    "concurrency": int,
    "duplicate": bool,
    "allow_remote_duplicate": bool,
    "seatings": str,
    "exploration": (int, float),
    "closeness": (int, float),
    "seed": int,
    "enabled": bool,
}


def parse_ladder_config(table: Mapping[str, Any], source: str) -> LadderConfig | None:
    """The ladder of a ``[ladder]`` table (``None`` when there is none, or ``enabled =
    false``); :class:`ConfigError` in one line naming the key and ``source`` for a mistake."""

    def fail(key: str, message: str) -> ConfigError:
        return ConfigError(f"{source}: ladder.{key}: {message}")

    if not table or table.get("enabled", True) is False:
        return None
    for key, value in table.items():
        if key not in _LADDER_KEYS:
            raise fail(key, f"unknown key (known: {', '.join(sorted(_LADDER_KEYS))})")
        kind = _LADDER_KEYS[key]
        if (isinstance(value, bool) and kind is not bool) or not isinstance(value, kind):
            raise fail(key, f"must be {_kind(kind)}, got {value!r}")
    if "game" not in table:
        raise fail("game", "missing (the game the ladder plays)")
    params = dict(table.get("params", {}))
    for key, value in params.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise fail(f"params.{key}", f"must be an integer, got {value!r}")
    config = LadderConfig(
        game=table["game"],
        params=params,
        name=table.get("name", "ladder"),
        seats=table.get("seats", 0),
        concurrency=table.get("concurrency", 4),
        duplicate=table.get("duplicate", False),
        allow_remote_duplicate=table.get("allow_remote_duplicate", False),
        seatings=table.get("seatings", "rotations"),
        exploration=float(table.get("exploration", 0.1)),
        closeness=float(table.get("closeness", 25 / 6)),
        seed=table.get("seed"),
    )
    if config.seed is not None and not 0 <= config.seed < SEED_LIMIT:
        raise fail("seed", f"must be from 0 to 2**{SEED_BITS} - 1, got {config.seed}")
    config.check_duplicate(source)
    if config.seatings not in ("rotations", "permutations"):
        raise fail("seatings", f"must be rotations or permutations, got {config.seatings!r}")
    if not 1 <= config.concurrency <= 100_000:
        raise fail("concurrency", f"must be from 1 to 100000, got {config.concurrency}")
    if not 0 <= config.exploration <= 1:
        raise fail("exploration", f"must be from 0 to 1, got {config.exploration}")
    if config.closeness <= 0:
        raise fail("closeness", f"must be more than 0, got {config.closeness}")
    if not config.name or not config.name.replace("-", "").replace("_", "").isalnum():
        raise fail("name", f"use letters, digits, '-' and '_', got {config.name!r}")
    try:
        get_game(config.game)
    except ConfigError as exc:
        raise fail("game", str(exc)) from None
    try:
        config.full_params()
    except ConfigError as exc:
        raise fail("params", str(exc).removeprefix("ladder: ")) from None
    return config
