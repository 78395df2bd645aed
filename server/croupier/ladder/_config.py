"""A tournament's configuration: read from TOML (``tomllib``), overridden by flags, validated.

Every error names the key and the file, in one line (:class:`ConfigError`). What defines the
tournament (game, params, clocks, format, rounds, an explicit seed, bots) is hashed; what only
says how to run it (store, replay folder, concurrency, executor, restart, event_flush_ms,
action_terms) is not, so it may change between runs.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from croupier import _defaults as defaults
from croupier.arbiter import SEED_BITS, SEED_LIMIT, FaultPolicy
from croupier.errors import ConfigError
from croupier.games import GAMES, get_game
from croupier.transport import SandboxMode, SandboxOptions, TlsConfig

#: The bot value that leaves a seat to a bot dialling in from elsewhere with its seat token.
REMOTE = "remote"

FORMATS = ("round-robin", "gauntlet", "swiss")
SEATINGS = ("rotations", "permutations")
EXECUTORS = ("local", "ray")
#: ``restart``: keep each bot's process up across matches (``session``, restarted after a
#: crash), or give every match fresh processes (``per-match``).
RESTARTS = ("session", "per-match")

_TOP_KEYS = {
    "name",
    "game",
    "seed",
    "rounds",
    "store",
    "out",
    "concurrency",
    "workers",
    "event_flush_ms",
    "action_terms",
    "executor",
    "address",
    "listen",
    "restart",
    "params",
    "clock",
    "format",
    "bots",
    "sprt",
    "faults",
    "tls",
    "sandbox",
}


@dataclass(frozen=True, slots=True)
class BotSpec:
    """One entrant: its display name and what plays for it (a command line, a bundled bot's
    name, or :data:`REMOTE`)."""

    name: str
    command: str

    @property
    def remote(self) -> bool:
        return self.command == REMOTE


@dataclass(frozen=True, slots=True)
class FormatSpec:
    """Who meets whom and how they are seated (see ``docs/ladder.md``)."""

    kind: str = "round-robin"
    seats: int = 0  # 0: the game's ``players`` parameter
    seatings: str = "rotations"
    duplicate: bool = True
    max_tables: int = 0  # 0: every table each round; otherwise a balanced sample of that many
    candidates: tuple[str, ...] = ()  # gauntlet
    #: Duplicate sets with ``remote`` bots, which can remember one seating of a set when they
    #: play the next (refused unless set). A permission, not part of the config hash.
    allow_remote_duplicate: bool = False
    #: Whether ``seatings`` was set in the file (else the default, :func:`default_seatings`,
    #: gives way to what a store begun with another default holds).
    seatings_given: bool = True


def default_seatings(seats: int) -> str:
    """``permutations`` at 3 seats (6 seatings instead of 3: every bot after every other one),
    else ``rotations`` (at 2 seats they are the same; at 4, 24 permutations against 4)."""
    return "permutations" if seats == 3 else "rotations"


def same_program(bots: tuple[BotSpec, ...]) -> list[list[str]]:
    """Groups of two or more bots with the same command (none when every bot has one; the
    bundled ``random`` bot is left out: it has no skill for seat order to favour)."""
    groups: dict[str, list[str]] = {}
    for b in bots:
        if not b.remote and b.command != "random":
            groups.setdefault(b.command, []).append(b.name)
    found = [names for names in groups.values() if len(names) > 1]
    if len(found) == 1 and len(found[0]) == len(bots):
        return []  # all the same program: seat order favours none of them
    return found


@dataclass(frozen=True, slots=True)
class SprtSpec:
    """Sequential test of ``candidate`` against ``baseline`` on paired score differences per
    round: H0 mean difference ``d0`` against H1 ``d1``, error rates ``alpha`` and ``beta``."""

    candidate: str
    baseline: str
    d0: float = 0.0
    d1: float = 0.5
    alpha: float = 0.05
    beta: float = 0.05
    stop: bool = True  # stop scheduling matches once the test decides


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """A validated tournament."""

    name: str
    game: str
    params: dict[str, int]
    bots: tuple[BotSpec, ...]
    fmt: FormatSpec = field(default_factory=FormatSpec)
    rounds: int = 1
    #: ``None``: the seeds derive from a secret the store draws at the first start (the
    #: default, for competitions); an integer makes the run reproducible and is that secret.
    seed: int | None = None
    move_ms: int = defaults.MOVE_MS
    bank_ms: int = defaults.BANK_MS
    connect_timeout_s: float = defaults.CONNECT_TIMEOUT_S
    #: The ``[faults]`` table: the fault policy of every match.
    fault_policy: FaultPolicy = field(default_factory=FaultPolicy)
    #: ``clock.reconnect_grace_s``: how long a remote bot may be away and come back (0: off).
    reconnect_grace_s: float = defaults.TOURNAMENT_RECONNECT_GRACE_S
    sprt: SprtSpec | None = None
    # how to run it (not hashed)
    store: Path = Path("tournament.sqlite")
    out: Path = Path("matches")
    concurrency: int = 0  # 0: os.cpu_count()
    #: Worker processes of the local executor, each its own arbiter (``_workers.py``).
    workers: int = 1
    #: How long an event may wait for its seat's next message (0: always; MatchConfig's).
    event_flush_ms: int = defaults.EVENT_FLUSH_MS
    #: Compute the control variate's action terms for seats of the bundled random bot
    #: (``_control.action_corrections``: narrower intervals, CPU after each match).
    action_terms: bool = True
    executor: str = "local"
    address: str = ""  # Ray cluster address ("" starts or joins a local one)
    listen: str = "127.0.0.1:0"
    restart: str = "session"  # one of RESTARTS
    tls: TlsConfig | None = None  # TLS files of the listener (remote bots): ``[tls]`` or flags
    #: How the bots are launched: ``sandbox`` (the mode) and the ``--sandbox``/``--bot-*`` flags.
    sandbox: SandboxOptions = field(default_factory=SandboxOptions)
    source: str = "<config>"

    @property
    def seats(self) -> int:
        return self.params["players"]

    def bot(self, name: str) -> BotSpec:
        return next(b for b in self.bots if b.name == name)

    def defining(self) -> dict[str, Any]:
        """What the store's config hash covers, as plain JSON values."""
        fmt = self.fmt
        out: dict[str, Any] = {
            "name": self.name,
            "game": self.game,
            "params": dict(sorted(self.params.items())),
            "rounds": self.rounds,
            "clock": {
                "move_ms": self.move_ms,
                "bank_ms": self.bank_ms,
                "connect_timeout_s": self.connect_timeout_s,
            },
            "format": {
                "kind": fmt.kind,
                "seatings": fmt.seatings,
                "duplicate": fmt.duplicate,
                "max_tables": fmt.max_tables,
                "candidates": list(fmt.candidates),
            },
            "bots": {b.name: b.command for b in self.bots},
        }
        if self.seed is not None:  # (absent when the store's secret is the key)
            out["seed"] = self.seed
        if self.fault_policy != FaultPolicy():  # (absent when default: older stores still match)
            out["faults"] = self.fault_policy.as_dict()
        if self.reconnect_grace_s:
            out["clock"]["reconnect_grace_s"] = self.reconnect_grace_s
        if self.sprt is not None:
            s = self.sprt
            out["sprt"] = {
                "candidate": s.candidate,
                "baseline": s.baseline,
                "d0": s.d0,
                "d1": s.d1,
                "alpha": s.alpha,
                "beta": s.beta,
                "stop": s.stop,
            }
        return out

    def config_hash(self) -> str:
        text = json.dumps(self.defining(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def first_difference(old: Any, new: Any, path: str = "") -> str | None:
    """The dotted key at which two :meth:`TournamentConfig.defining` values first differ,
    with both values, or ``None`` if they are equal."""
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            where = f"{path}.{key}" if path else key
            if key not in old:
                return f"{where} was added (= {json.dumps(new[key])})"
            if key not in new:
                return f"{where} was removed (was {json.dumps(old[key])})"
            found = first_difference(old[key], new[key], where)
            if found:
                return found
        return None
    if old != new:
        return f"{path} changed from {json.dumps(old)} to {json.dumps(new)}"
    return None


class _Reader:
    """Typed access to a TOML table; every error names the dotted key and the file."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, message: str) -> ConfigError:
        return ConfigError(f"{self.source}: {key}: {message}")

    def table(self, data: Mapping[str, Any], key: str) -> dict[str, Any]:
        value = data.get(key.rsplit(".", 1)[-1], {})
        if not isinstance(value, dict):
            raise self.fail(key, f"must be a table, got {value!r}")
        return value

    def integer(self, data: Mapping[str, Any], key: str, default: int, low: int = 0) -> int:
        value = data.get(key.rsplit(".", 1)[-1], default)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be an integer, got {value!r}")
        if value < low:
            raise self.fail(key, f"must be at least {low}, got {value}")
        return value

    def number(self, data: Mapping[str, Any], key: str, default: float) -> float:
        value = data.get(key.rsplit(".", 1)[-1], default)
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.fail(key, f"must be a number, got {value!r}")
        return float(value)

    def text(self, data: Mapping[str, Any], key: str, default: str) -> str:
        value = data.get(key.rsplit(".", 1)[-1], default)
        if not isinstance(value, str):
            raise self.fail(key, f"must be a string, got {value!r}")
        return value

    def choice(
        self, data: Mapping[str, Any], key: str, default: str, choices: tuple[str, ...]
    ) -> str:
        value = self.text(data, key, default)
        if value not in choices:
            raise self.fail(key, f"must be one of {', '.join(choices)}, got {value!r}")
        return value

    def boolean(self, data: Mapping[str, Any], key: str, default: bool) -> bool:
        value = data.get(key.rsplit(".", 1)[-1], default)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, got {value!r}")
        return value

    def unknown(self, data: Mapping[str, Any], prefix: str, known: set[str]) -> None:
        for key in data:
            if key not in known:
                where = f"{prefix}.{key}" if prefix else key
                raise self.fail(where, f"unknown key (known: {', '.join(sorted(known))})")


def parse_override(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` from ``--set``: a dotted key and a TOML value (a bare word is a string)."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"--set {text!r}: expected KEY=VALUE")
    try:
        parsed = tomllib.loads(f"v = {value}")["v"]
    except tomllib.TOMLDecodeError:
        parsed = value
    return key.strip(), parsed


def apply_override(data: dict[str, Any], key: str, value: Any) -> None:
    """Set dotted ``key`` in the raw TOML data (tables are created as needed)."""
    *parents, last = key.split(".")
    node = data
    for part in parents:
        child = node.setdefault(part, {})
        if not isinstance(child, dict):
            raise ConfigError(f"--set {key}: {part} is not a table")
        node = child
    node[last] = value


def load_config(path: Path, overrides: Mapping[str, Any] | None = None) -> TournamentConfig:
    """Read ``path`` (TOML), apply dotted ``overrides`` (from flags) and validate."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: not UTF-8 text") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    for key, value in (overrides or {}).items():
        apply_override(data, key, value)
    return parse_config(data, str(path), base=path.parent, stem=path.stem)


def parse_config(
    data: Mapping[str, Any], source: str, *, base: Path = Path("."), stem: str = "tournament"
) -> TournamentConfig:
    """Validate raw TOML ``data`` (relative paths are taken from ``base``)."""
    r = _Reader(source)
    r.unknown(data, "", _TOP_KEYS)
    game_name = r.text(data, "game", "")
    if not game_name:
        raise r.fail("game", f"missing (one of {', '.join(GAMES)})")
    try:
        game = get_game(game_name)
    except ConfigError as exc:
        raise r.fail("game", str(exc)) from None
    raw_params = r.table(data, "params")
    try:
        params = game.info.make_params(raw_params)
    except ConfigError as exc:
        raise r.fail("params", str(exc)) from None

    fmt_data = r.table(data, "format")
    r.unknown(
        fmt_data,
        "format",
        {
            "kind",
            "seats",
            "seatings",
            "duplicate",
            "max_tables",
            "candidates",
            "allow_remote_duplicate",
        },
    )
    seats = r.integer(fmt_data, "format.seats", 0)
    if seats:
        try:
            params = game.info.make_params({**raw_params, "players": seats})
        except ConfigError as exc:
            raise r.fail("format.seats", str(exc)) from None
    candidates = fmt_data.get("candidates", [])
    if not isinstance(candidates, list) or not all(isinstance(c, str) for c in candidates):
        raise r.fail("format.candidates", "must be a list of bot names")
    fmt = FormatSpec(
        kind=r.choice(fmt_data, "format.kind", "round-robin", FORMATS),
        seats=params["players"],
        seatings=r.choice(
            fmt_data, "format.seatings", default_seatings(params["players"]), SEATINGS
        ),
        seatings_given="seatings" in fmt_data,
        duplicate=r.boolean(fmt_data, "format.duplicate", True),
        max_tables=r.integer(fmt_data, "format.max_tables", 0),
        candidates=tuple(candidates),
        allow_remote_duplicate=r.boolean(fmt_data, "format.allow_remote_duplicate", False),
    )

    bots = _bots(r, data.get("bots"))
    names = [b.name for b in bots]
    n = params["players"]
    if fmt.kind == "gauntlet":
        if not fmt.candidates:
            raise r.fail("format.candidates", "a gauntlet needs at least one candidate")
        for c in fmt.candidates:
            if c not in names:
                raise r.fail("format.candidates", f"{c!r} is not one of the bots")
        field_size = len(names) - len(set(fmt.candidates))
        if field_size < n - 1:
            raise r.fail("bots", f"a gauntlet at {n} seats needs {n - 1} bots in the field")
    elif len(bots) < n:
        raise r.fail("bots", f"{len(bots)} bots for tables of {n} seats")

    clock = r.table(data, "clock")
    r.unknown(clock, "clock", {"move_ms", "bank_ms", "connect_timeout_s", "reconnect_grace_s"})
    sprt = _sprt(r, data, names)
    fault_policy = FaultPolicy.from_mapping(r.table(data, "faults"), f"{source}: [faults]")
    connect_s = r.number(clock, "clock.connect_timeout_s", defaults.CONNECT_TIMEOUT_S)
    if not 0 < connect_s <= 3600:  # (nan and inf are neither: a bot's session is waited for)
        raise r.fail(
            "clock.connect_timeout_s", f"must be more than 0 and at most 3600, got {connect_s!r}"
        )
    grace = r.number(clock, "clock.reconnect_grace_s", defaults.TOURNAMENT_RECONNECT_GRACE_S)
    if not 0 <= grace <= 86400:  # (nan is neither)
        raise r.fail("clock.reconnect_grace_s", f"must be 0 to 86400 seconds, got {grace!r}")
    flush_ms = r.integer(data, "event_flush_ms", defaults.EVENT_FLUSH_MS)
    if flush_ms > 60000:
        raise r.fail("event_flush_ms", f"must be 0 to 60000 milliseconds, got {flush_ms}")

    def place(key: str, default: str, table: Mapping[str, Any] = data) -> Path:
        value = Path(r.text(table, key, default))
        return value if value.is_absolute() else base / value

    tls = None
    if tls_data := r.table(data, "tls"):
        r.unknown(tls_data, "tls", {"cert", "key", "client_ca"})
        for key in ("cert", "key"):
            if key not in tls_data:
                raise r.fail(f"tls.{key}", "missing (TLS needs both cert and key)")
        tls = TlsConfig(
            place("tls.cert", "", tls_data),
            place("tls.key", "", tls_data),
            place("tls.client_ca", "", tls_data) if "client_ca" in tls_data else None,
        )

    modes = tuple(m.value for m in SandboxMode)
    mode = r.choice(data, "sandbox", "", modes) if "sandbox" in data else ""
    sandbox = SandboxOptions(mode=SandboxMode(mode)) if mode else SandboxOptions()

    return TournamentConfig(
        name=r.text(data, "name", stem) or stem,
        game=game.info.name,
        params=params,
        bots=bots,
        fmt=fmt,
        rounds=r.integer(data, "rounds", 1, low=1),
        seed=_seed(r, data),
        move_ms=r.integer(clock, "clock.move_ms", defaults.MOVE_MS),
        bank_ms=r.integer(clock, "clock.bank_ms", defaults.BANK_MS),
        connect_timeout_s=connect_s,
        fault_policy=fault_policy,
        reconnect_grace_s=grace,
        sprt=sprt,
        store=place("store", f"{stem}.sqlite"),
        out=place("out", f"{stem}-matches"),
        concurrency=r.integer(data, "concurrency", 0),
        workers=r.integer(data, "workers", 1, low=1),
        event_flush_ms=flush_ms,
        action_terms=r.boolean(data, "action_terms", True),
        executor=r.choice(data, "executor", "local", EXECUTORS),
        address=r.text(data, "address", ""),
        listen=r.text(data, "listen", "127.0.0.1:0"),
        restart=r.choice(data, "restart", "session", RESTARTS),
        tls=tls,
        sandbox=sandbox,
        source=source,
    )


def _bots(r: _Reader, raw: Any) -> tuple[BotSpec, ...]:
    if raw is None:
        raise r.fail("bots", "missing: a table of display name = command")
    if not isinstance(raw, dict):
        raise r.fail("bots", "must be a table of display name = command")
    out: list[BotSpec] = []
    seen: dict[str, str] = {}
    for name, value in raw.items():
        key = f"bots.{name}"
        if isinstance(value, dict):
            r.unknown(value, key, {"command"})
            command = r.text(value, f"{key}.command", "")
        elif isinstance(value, str):
            command = value
        else:
            raise r.fail(key, f"must be a command string or {{ command = ... }}, got {value!r}")
        if not name.strip():
            raise r.fail(key, "a display name may not be empty")
        if not command.strip():
            raise r.fail(key, "empty command")
        folded = name.strip().casefold()
        if folded in seen:  # TOML refuses exact repeats; this catches "Alice" and "alice "
            raise r.fail(key, f"duplicate display name (same as {seen[folded]!r})")
        seen[folded] = name
        out.append(BotSpec(name, command.strip()))
    return tuple(out)


def _sprt(r: _Reader, data: Mapping[str, Any], names: list[str]) -> SprtSpec | None:
    if "sprt" not in data:
        return None
    s = r.table(data, "sprt")
    r.unknown(s, "sprt", {"candidate", "baseline", "d0", "d1", "alpha", "beta", "stop"})
    spec = SprtSpec(
        candidate=r.text(s, "sprt.candidate", ""),
        baseline=r.text(s, "sprt.baseline", ""),
        d0=r.number(s, "sprt.d0", 0.0),
        d1=r.number(s, "sprt.d1", 0.5),
        alpha=r.number(s, "sprt.alpha", 0.05),
        beta=r.number(s, "sprt.beta", 0.05),
        stop=r.boolean(s, "sprt.stop", True),
    )
    for key in ("candidate", "baseline"):
        if getattr(spec, key) not in names:
            raise r.fail(f"sprt.{key}", f"{getattr(spec, key)!r} is not one of the bots")
    if spec.candidate == spec.baseline:
        raise r.fail("sprt.baseline", "must differ from the candidate")
    if spec.d1 == spec.d0:
        raise r.fail("sprt.d1", "must differ from d0")
    for key in ("alpha", "beta"):
        if not 0 < getattr(spec, key) < 0.5:
            raise r.fail(f"sprt.{key}", "must be between 0 and 0.5")
    return spec


def _seed(r: _Reader, data: Mapping[str, Any]) -> int | None:
    """The ``seed`` key: absent (``None``: the store's secret) or a match seed."""
    if "seed" not in data:
        return None
    seed = r.integer(data, "seed", 0)
    if seed >= SEED_LIMIT:
        raise r.fail("seed", f"must be below 2**{SEED_BITS}, got {seed}")
    return seed


def with_runtime(config: TournamentConfig, **changes: Any) -> TournamentConfig:
    """A copy with runtime settings changed (store, out, concurrency, workers, executor,
    address, restart, tls, sandbox)."""
    return replace(config, **changes)
