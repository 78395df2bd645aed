"""Waiting for the seats before a match (``Match.wait_for_seats``): it ends when every seat has
joined or been abandoned, when the connect timeout passes (the seats not joined are gone), or
when the match is cancelled meanwhile, long before the timeout."""

from __future__ import annotations

import asyncio
from pathlib import Path

from croupier.arbiter import Match, MatchConfig
from croupier.replay import ReplayWriter


def _match(tmp_path: Path, connect_timeout_s: float) -> Match:
    config = MatchConfig("as-nas", {"deals": 1}, seed=7, connect_timeout_s=connect_timeout_s)
    return Match(config, "waiting", ReplayWriter(tmp_path / "m.jsonl"))


def _gone(match: Match) -> list[bool]:
    return [stats.disconnected for stats in match.stats]


def test_the_wait_ends_when_every_seat_has_joined_or_been_abandoned(tmp_path: Path) -> None:
    match = _match(tmp_path, 600)

    async def main() -> None:
        for link in match.seats[:3]:
            link.joined.set()
        match.seats[3].abandoned.set()
        await asyncio.wait_for(match.wait_for_seats(), 30)  # not the 600 s connect timeout

    asyncio.run(main())
    assert _gone(match) == [False, False, False, True]


def test_the_seats_not_joined_by_the_connect_timeout_are_gone(tmp_path: Path) -> None:
    match = _match(tmp_path, 0.2)

    async def main() -> None:
        match.seats[1].joined.set()
        await asyncio.wait_for(match.wait_for_seats(), 30)

    asyncio.run(main())
    assert _gone(match) == [True, False, True, True]


def test_a_match_cancelled_while_waiting_stops_waiting(tmp_path: Path) -> None:
    match = _match(tmp_path, 600)

    async def main() -> None:
        match.seats[0].joined.set()
        asyncio.get_running_loop().call_later(0.1, match.cancel)
        await asyncio.wait_for(match.wait_for_seats(), 30)  # not the 600 s connect timeout

    asyncio.run(main())
    assert _gone(match) == [False, True, True, True]
