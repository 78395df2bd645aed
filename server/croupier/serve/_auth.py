"""Authentication: the keys this server admits and the role each gives (``docs/server.md``).

Roles (:class:`Role`) come from the key a call presents (``authorization: Bearer KEY``): the
operator key (from ``CROUPIER_OPERATOR_KEY``, or the key file, generated mode 0600 at the first
start and never logged), a registered bot's key (given once at its registration, stored only as
its SHA-256; the same key opens ``BotService.Session`` on the bot port), the spectator key, or
no key at all (a spectator, where the configuration allows anonymous spectators).

:class:`Keys` holds the hashes only. The bot registry (``serve/_bots.py``) tells it which hash
names which bot as bots are registered, rotated and revoked.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import os
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from croupier.errors import ConfigError, CroupierError
from croupier.serve._config import ServeConfig

#: The environment variable that holds the operator key (instead of the key file).
ENV_OPERATOR_KEY = "CROUPIER_OPERATOR_KEY"


class Role(enum.Enum):
    """What a caller may do (``control.proto``, top comment)."""

    OPERATOR = "operator"
    BOT = "bot"
    SPECTATOR = "spectator"


@dataclass(frozen=True, slots=True)
class Caller:
    """Who made a call: the role, and for a registered bot its name."""

    role: Role
    bot_name: str = ""


class AuthError(CroupierError):
    """A key that admits no role (UNAUTHENTICATED)."""


def key_hash(key: str) -> str:
    """What the server keeps of a key: its SHA-256 (keys are 256-bit random tokens, so a
    plain hash is enough; nothing else is ever stored or logged)."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key(prefix: str) -> str:
    """A fresh key: ``<prefix>_`` and 256 random bits, URL-safe."""
    return f"{prefix}_{secrets.token_urlsafe(32)}"


def load_or_make_key(path: Path, prefix: str) -> str:
    """The key in ``path``; made (mode 0600, created exclusively) when the file is absent."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        text = ""
    except OSError as exc:
        raise ConfigError(f"cannot read the key file {path}: {exc.strerror or exc}") from None
    else:
        if not text:
            raise ConfigError(f"the key file {path} is empty")
        if path.stat().st_mode & 0o077:
            raise ConfigError(f"the key file {path} is readable by others: chmod 600 it")
        return text
    key = new_key(prefix)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(key + "\n")
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        raise ConfigError(f"cannot write the key file {path}: {exc.strerror or exc}") from None
    return key


def bearer(metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    """The key of ``authorization: Bearer KEY`` in call metadata, or ``None`` when absent."""
    for name, value in metadata or ():
        if name.lower() != "authorization":
            continue
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        scheme, _, key = text.strip().partition(" ")
        if scheme.lower() != "bearer" or not key.strip():
            raise AuthError("the authorization metadata must be 'Bearer <key>'")
        return key.strip()
    return None


class Keys:
    """The keys this server admits, as hashes: the operator's, the spectators', and each
    registered bot's (by :meth:`admit_bot`)."""

    def __init__(self, operator_hash: str, spectator_key: str, anonymous_spectators: bool) -> None:
        self._operator_hash = operator_hash
        self._spectator_hash = key_hash(spectator_key)
        #: The spectator key itself: the web page's backend calls the control API with it.
        self.spectator_key = spectator_key
        self._anonymous = anonymous_spectators
        self._bots: dict[str, str] = {}  # key hash -> registered bot name

    @classmethod
    def load(cls, config: ServeConfig) -> Keys:
        """The operator key (``CROUPIER_OPERATOR_KEY``, else its key file) and the spectator
        key (its key file), each file made at the first start; :class:`ConfigError` (one
        line) for a file that cannot be read or written, is empty or readable by others."""
        operator = os.environ.get(ENV_OPERATOR_KEY, "").strip()
        if not operator:
            operator = load_or_make_key(config.operator_key_path, "op")
        spectator = load_or_make_key(config.spectator_key_path, "sp")
        return cls(key_hash(operator), spectator, config.anonymous_spectators)

    def __len__(self) -> int:
        """How many registered bots' keys are admitted."""
        return len(self._bots)

    def admit_bot(self, digest: str, name: str) -> None:
        """The key whose SHA-256 is ``digest`` is the registered bot ``name``'s."""
        self._bots[digest] = name

    def forget_bot(self, digest: str) -> None:
        """The key whose SHA-256 is ``digest`` admits nothing from now on."""
        self._bots.pop(digest, None)

    def bot_of(self, key: str) -> str | None:
        """The registered bot whose key ``key`` is (``None``: none)."""
        return self._bots.get(key_hash(key))

    def authenticate(self, metadata: Sequence[tuple[str, str | bytes]] | None) -> Caller:
        """The caller a call's metadata names; :class:`AuthError` for a key that admits nothing
        (or no key, where anonymous spectators are not allowed)."""
        key = bearer(metadata)
        if key is None:
            if self._anonymous:
                return Caller(Role.SPECTATOR)
            raise AuthError("this server admits no anonymous callers: pass a key")
        digest = key_hash(key)
        if hmac.compare_digest(digest, self._operator_hash):
            return Caller(Role.OPERATOR)
        if hmac.compare_digest(digest, self._spectator_hash):
            return Caller(Role.SPECTATOR)
        name = self._bots.get(digest)
        if name is not None:
            return Caller(Role.BOT, name)
        raise AuthError("the key admits no role on this server")
