"""What a server that seats people keeps and allows: at most ``MAX_PLAYING`` matches against
people at once from the page ("anyone" must not let one visitor fill the server), and the
messages of the last ``KEEP_ENDED`` ended seats only (a long-running server must not keep every
match a person ever played)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from croupier.serve._human import KEEP_ENDED, HumanDesk, HumanError, HumanSeat
from croupier.serve._play import MAX_PLAYING, VsBots


def _seat(desk: HumanDesk, *, ended: bool) -> HumanSeat:
    seat = HumanSeat("unix:/nowhere", "token")
    seat.ended = ended
    desk._seats[seat.secret] = seat
    return seat


def test_a_page_cannot_start_more_matches_against_people_than_the_limit() -> None:
    async def main() -> None:
        desk = HumanDesk()
        matches: Any = None  # never reached: the limit is checked first
        vs = VsBots("anyone", keys=None, matches=matches, address="unix:/nowhere", desk=desk)  # type: ignore[arg-type]
        for _ in range(MAX_PLAYING):
            _seat(desk, ended=False)
        _seat(desk, ended=True)  # an ended seat is not playing
        assert desk.playing() == MAX_PLAYING
        with pytest.raises(HumanError) as refused:
            await vs.start(b'{"game": "as-nas"}')
        assert refused.value.status == 503

    asyncio.run(main())


def test_the_desk_forgets_the_oldest_ended_seats_beyond_the_limit() -> None:
    desk = HumanDesk()
    ended = [_seat(desk, ended=True) for _ in range(KEEP_ENDED + 5)]
    playing = _seat(desk, ended=False)
    desk._forget_ended()
    kept = desk.seats()
    assert playing in kept, "a seat still playing is never forgotten"
    assert [s for s in kept if s.ended] == ended[5:]
    with pytest.raises(HumanError):
        desk.seat(ended[0].secret)
