"""The Python SDK against a real arbiter server: refusals surface as BotError with the stable
reason from the ``croupier-reason`` trailing metadata."""

from __future__ import annotations

import asyncio

import pytest

from croupier.arbiter import Match, MatchConfig
from croupier.transport import ArbiterServer
from croupier_bot import Bot, BotError, play


class _Null:
    """A recorder that drops everything (the match is never run here)."""

    def __getattr__(self, name: str) -> object:
        return lambda *args, **kwargs: None


def _refusal(token: str | None, *, claim_first: bool = False, version: str = "") -> BotError:
    async def main() -> BotError:
        server = ArbiterServer()
        address = await server.start()
        match = Match(MatchConfig("as-nas"), "m1", _Null())  # type: ignore[arg-type]
        server.bots.add_match(match)
        if claim_first:
            match.seats[0].claim("first", "1")
        loop = asyncio.get_running_loop()
        try:
            with pytest.raises(BotError) as caught:
                await loop.run_in_executor(
                    None, lambda: play(Bot(), address=address, token=token or match.tokens[0])
                )
            return caught.value
        finally:
            await server.stop(0)

    return asyncio.run(main())


def test_unknown_token() -> None:
    error = _refusal("not-a-token")
    assert (error.code, error.reason) == ("UNAUTHENTICATED", "TOKEN_UNKNOWN")


def test_a_token_admits_one_connection() -> None:
    error = _refusal(None, claim_first=True)
    assert (error.code, error.reason) == ("ALREADY_EXISTS", "SEAT_TAKEN")


def test_no_address_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CROUPIER_ADDRESS", raising=False)
    with pytest.raises(BotError, match="CROUPIER_ADDRESS"):
        play(Bot())


def test_unreachable_arbiter_is_a_clear_error() -> None:
    with pytest.raises(BotError, match="cannot reach the arbiter"):
        play(Bot(), address="127.0.0.1:1", token="x", connect_timeout_s=0.5)
