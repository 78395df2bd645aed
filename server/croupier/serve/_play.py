""" "Play vs bots" on the server's web page (docs/server.md, "Human seats"): a match of one human
seat against the game's bundled bots, started from the page by an operator (with the operator
key) or, where ``[roles] play_vs_bots = "anyone"``, by anyone.

The match is one of the server's own (listed, watched and replayed like any), its seat 0 played
from the browser: its entry is :data:`HUMAN_SEAT`, which no registered name can be (names have
no ``:``), and the control API cannot name it (only :class:`MatchOrder.human_seats` admits it).
The page server dials the arbiter's private unix socket with the seat token (plaintext, exempt
from the per-peer limits of the bot port, whatever TLS the bot port speaks); the token never
leaves the server. Matches with a human seat are left out of the server's standings.
"""

from __future__ import annotations

import asyncio
from typing import Any

from croupier.games import GAMES, get_game, get_spec
from croupier.serve._auth import AuthError, Keys, Role
from croupier.serve._human import HumanDesk, HumanError, parse_object
from croupier.serve._matches import BUNDLED_PREFIX, HUMAN_SEAT, Matches, MatchOrder

#: How long the page waits for the match to hand out its seats (it may wait for a free slot).
SEAT_WAIT_S = 30.0
#: Matches against people the page starts at most at once (each holds a match slot and a
#: seat's messages; ``play_vs_bots = "anyone"`` must not let one visitor fill the server).
MAX_PLAYING = 8


class VsBots:
    """Starts "play vs bots" matches for the page under ``policy`` (off, operators, anyone)."""

    def __init__(
        self, policy: str, keys: Keys, matches: Matches, address: str, desk: HumanDesk
    ) -> None:
        self.policy, self._keys, self._matches = policy, keys, matches
        self._address, self._desk = address, desk

    def describe(self) -> dict[str, Any]:
        """``GET /api/play/config``: who may start a match, and in which games."""
        return {"vs_bots": self.policy, "games": list(GAMES)}

    async def start(self, body: bytes) -> dict[str, Any]:
        """``POST /api/play/vs-bots`` with ``{"game": "as-nas", "key": "<operator key>"}``."""
        data = parse_object(body)
        if self.policy == "off":
            raise HumanError(404, "this server does not start matches against bots from the page")
        if self.policy == "operators":
            key = data.get("key")
            caller = None
            if isinstance(key, str) and 0 < len(key) <= 200:
                try:
                    caller = self._keys.authenticate((("authorization", f"Bearer {key}"),))
                except AuthError:  # an unknown key: refused below, as no key
                    caller = None
            if caller is None or caller.role is not Role.OPERATOR:
                raise HumanError(403, "only an operator may start a match here (give the key)")
        if self._desk.playing() >= MAX_PLAYING:
            raise HumanError(503, f"{MAX_PLAYING} people are playing here already; try later")
        game = data.get("game")
        if not isinstance(game, str) or game not in GAMES:
            raise HumanError(400, f"game: one of {', '.join(GAMES)}")
        seats = int(get_game(game).info.make_params({})["players"])
        lineup = get_spec(game).bots.lineup
        bots = (HUMAN_SEAT, *(BUNDLED_PREFIX + lineup[i % len(lineup)] for i in range(1, seats)))
        loop = asyncio.get_running_loop()
        token: asyncio.Future[str] = loop.create_future()

        def ready(match: Any) -> None:
            if not token.done():
                token.set_result(match.tokens[0])

        record = await self._matches.submit(
            MatchOrder(game, bots, human_seats=(0,), on_ready=ready)
        )
        try:
            async with asyncio.timeout(SEAT_WAIT_S):
                seat_token = await token
        except TimeoutError:
            raise HumanError(503, "the match has not started yet (the server is busy)") from None
        seat = self._desk.open(self._address, seat_token)
        return {"secret": seat.secret, "match_id": record.match_id}
