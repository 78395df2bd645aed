"""The registered bots: registration, keys (rotate, revoke), disabling, the games each plays,
and which are connected (``docs/server.md``, "Registered bots").

Each registered bot is a remote bot of the bot port's :class:`~croupier.transport.BotPool`
under its name; its key (held by :class:`~croupier.serve._auth.Keys` as a hash) opens its
session there. Every change is written to the store first, then taken in here.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import structlog

from croupier.errors import ConfigError
from croupier.games import GAMES, get_game
from croupier.serve._auth import Keys, key_hash, new_key
from croupier.serve._errors import NAME_CHARS, ExistsError, NotFoundError, StateError, with_reason
from croupier.serve._storage import Storage
from croupier.serve._store import RegisteredBot, now_ms
from croupier.transport import BotPool, BotSession
from croupier.v1 import bot_pb2

#: What a bot whose key was revoked, changed or that was disabled is told as its session ends
#: (and what its seats' ``disconnect`` faults say).
_REVOKED = "the bot's key was revoked by the server's operator"
_CHANGED = "the bot's key was changed by the server's operator: the old key admits nothing"
_DISABLED = "bot {name!r} is disabled on this server by its operator"


@dataclass(frozen=True, slots=True)
class BotStatus:
    """A registered bot, whether it is connected now, and what its session said of itself
    (its SessionHello's version and name: a self-description, never its identity)."""

    bot: RegisteredBot
    connected: bool
    version: str
    reported_name: str = ""


def check_games(games: Sequence[str]) -> tuple[str, ...]:
    """``games`` sorted, each once; :class:`ConfigError` (``GAME_UNKNOWN``) naming an unknown
    one."""
    unknown = []
    for game in games:
        try:
            get_game(game)
        except ConfigError:
            unknown.append(game)
    if unknown:
        known = ", ".join(GAMES)
        raise with_reason(
            ConfigError(f"games: unknown game {unknown[0]!r} (the games: {known})"),
            "GAME_UNKNOWN",
        )
    return tuple(sorted(set(games)))


class Bots:
    """The registered bots of one server: written to ``storage``, admitted by ``keys``,
    playing through ``pool``."""

    def __init__(self, storage: Storage, keys: Keys, pool: BotPool) -> None:
        self._storage = storage
        self._keys = keys
        self._pool = pool
        self._log = structlog.get_logger("croupier.serve")
        self._registered: dict[str, RegisteredBot] = {}
        #: Called after a bot's key, state or games changed (the ladder looks again).
        self.on_change: list[Callable[[], None]] = []
        for bot in storage.loop.registered_bots():
            self._add(bot)

    def _add(self, bot: RegisteredBot) -> None:
        if not bot.revoked_ms:  # (a revoked bot's stored hash is of a key nobody holds)
            self._keys.admit_bot(bot.key_sha256, bot.name)
        self._registered[bot.name] = bot
        # the pool's session token is internal and random: a bot presents its key, which
        # session_for_key turns into the session (the key itself is never held)
        self._pool.add_remote(bot.name, secrets.token_urlsafe(32))

    def session_for_key(self, key: str) -> BotSession | None:
        """The session ``key`` opens on the bot port (the bot port's ``session_lookup``):
        ``None`` for a key that is no bot's, a refusing one for a disabled bot."""
        name = self._keys.bot_of(key)
        if name is None:
            return None
        if self._registered[name].disabled:  # a session that refuses the bot, BOT_DISABLED
            refused = BotSession()
            refused.refuse(bot_pb2.ERROR_REASON_BOT_DISABLED, _DISABLED.format(name=name))
            return refused
        return self._pool.remote_session(name)

    def get(self, name: str) -> RegisteredBot:
        """The registered bot ``name``; :class:`NotFoundError` (``BOT_NOT_FOUND``) if none."""
        bot = self._registered.get(name)
        if bot is None:
            raise with_reason(NotFoundError(f"no registered bot named {name!r}"), "BOT_NOT_FOUND")
        return bot

    def seatable(self, name: str, game: str) -> bool:
        """Whether the registered bot ``name`` may be seated in ``game`` now: it plays that
        game, is not disabled and has a key (the ladder's filter; the match service says why
        not in one line)."""
        bot = self._registered.get(name)
        return bot is not None and not bot.disabled and not bot.revoked_ms and bot.plays(game)

    async def register(self, name: str, owner: str, games: Sequence[str] = ()) -> str:
        """Register a bot that plays ``games`` (empty: every game); return its key (shown
        once: only its hash is kept)."""
        if not name or len(name) > 64 or not set(name) <= NAME_CHARS:
            raise with_reason(
                ConfigError(f"bot name {name!r}: use 1 to 64 letters, digits, '-', '_' or '.'"),
                "BAD_NAME",
            )
        if name.startswith("bundled"):
            raise with_reason(
                ConfigError(f"bot name {name!r}: names starting 'bundled' are reserved"),
                "BAD_NAME",
            )
        if len(owner) > 200:
            raise with_reason(ConfigError("owner: at most 200 characters"), "BAD_NAME")
        checked = check_games(games)
        key = new_key("bot")
        if name in self._registered:
            raise with_reason(
                ExistsError(f"a bot named {name!r} is already registered"), "BOT_EXISTS"
            )
        store = self._storage.writes
        try:
            bot = await self._storage.write(store.register_bot, name, owner, key_hash(key), checked)
        except ConfigError as exc:  # (registered meanwhile)
            raise with_reason(ExistsError(str(exc)), "BOT_EXISTS") from None
        self._add(bot)
        self._log.info("bot_registered", bot=name, owner=owner, games=list(checked))
        return key

    def _changed(self, bot: RegisteredBot, old: RegisteredBot) -> None:
        """Take a bot's stored change in: its key as the store now holds it."""
        self._keys.forget_bot(old.key_sha256)
        if not bot.revoked_ms:
            self._keys.admit_bot(bot.key_sha256, bot.name)
        self._registered[bot.name] = bot
        for hook in self.on_change:
            hook()

    def _end_session(self, name: str, reason: int, message: str) -> None:
        """The bot's live session and the Play streams of its seats end now (see
        :meth:`BotPool.end_remote`)."""
        lost = self._pool.end_remote(name, reason, message)
        self._log.info("bot_session_ended", bot=name, seats_lost=lost, detail=message)

    async def revoke_key(self, name: str) -> RegisteredBot:
        """Revoke the bot's key for good: the store forgets its hash (a restart does not bring
        it back), its live session and seats end (TOKEN_UNKNOWN); it keeps its name, history
        and rating, and has no key until :meth:`rotate_key`. :class:`StateError`
        (``KEY_REVOKED``) if it was revoked already."""
        old = self.get(name)
        if old.revoked_ms:
            raise with_reason(
                StateError(
                    f"bot {name!r} has no key: it was revoked already (croupier ctl rotate "
                    "gives it a new one)"
                ),
                "KEY_REVOKED",
            )
        nobody = key_hash(new_key("revoked"))  # a key nobody holds, so the column stays unique
        store = self._storage.writes
        bot = await self._storage.write(store.revoke_bot_key, name, nobody, now_ms())
        self._changed(bot, old)
        self._end_session(name, bot_pb2.ERROR_REASON_TOKEN_UNKNOWN, _REVOKED)
        self._log.info("bot_key_revoked", bot=name)
        return bot

    async def rotate_key(self, name: str) -> tuple[str, RegisteredBot]:
        """Give the bot a new key (returned once; only its hash is stored): the old key stops
        working, and its live session and seats end (TOKEN_UNKNOWN)."""
        old = self.get(name)
        key = new_key("bot")
        bot = await self._storage.write(self._storage.writes.set_bot_key, name, key_hash(key))
        self._changed(bot, old)
        self._end_session(name, bot_pb2.ERROR_REASON_TOKEN_UNKNOWN, _CHANGED)
        self._log.info("bot_key_rotated", bot=name)
        return key, bot

    async def set_disabled(self, name: str, disabled: bool) -> RegisteredBot:
        """Disable the bot (it is not seated, its key opens no session: BOT_DISABLED; its live
        session and seats end) or enable it again. Its history and rating stay."""
        old = self.get(name)
        if old.disabled == disabled:
            return old
        bot = await self._storage.write(self._storage.writes.set_bot_disabled, name, disabled)
        self._changed(bot, old)
        if disabled:
            self._end_session(name, bot_pb2.ERROR_REASON_BOT_DISABLED, _DISABLED.format(name=name))
        self._log.info("bot_disabled" if disabled else "bot_enabled", bot=name)
        return bot

    async def set_games(self, name: str, games: Sequence[str]) -> RegisteredBot:
        """The games the bot plays from now on (empty: every game): it is seated only in those
        (matches already created play on)."""
        old = self.get(name)
        checked = check_games(games)
        bot = await self._storage.write(self._storage.writes.set_bot_games, name, checked)
        self._changed(bot, old)
        self._log.info("bot_games_set", bot=name, games=list(checked))
        return bot

    def statuses(self) -> list[BotStatus]:
        """The registered bots, by name, with whether each is connected now."""
        out = []
        for bot in sorted(self._registered.values(), key=lambda b: b.name):
            session = self._pool.remote_session(bot.name)
            live = session.connected.is_set() and not session.ended.is_set()
            said, version = self._pool.reported(bot.name)
            out.append(BotStatus(bot, live, version or bot.bot_version, said))
        return out

    def version(self, name: str) -> str:
        """The version the registered bot ``name`` said in its SessionHello, now or last
        (``""`` before it ever connected, or for a name not registered)."""
        bot = self._registered.get(name)
        if bot is None:
            return ""
        return self._pool.reported(name)[1] or bot.bot_version

    def connected(self) -> list[str]:
        """The names of the registered bots with a session open now (a scheduler's pool)."""
        return [s.bot.name for s in self.statuses() if s.connected]
