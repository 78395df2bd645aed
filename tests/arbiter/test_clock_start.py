"""When a decision's clock starts: at the transport's first write of the request
(``SeatLink.written``), not when the arbiter queued it; a request written again (resent to a bot
that came back) keeps the time of its first write; and a write noted after the reply was read
does not move the start past the reply. A real match in this process, seat 0 driven through its
link, playing the transport's part for its first decision; its wall time is read back from the
replay and compared with the times the script noted (not with its sleeps: on a loaded machine
the loop's stalls, this test's own sleeps' oversleeping among them, are taken off the charged
time, which then falls short of the sleeps by as much as they were)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from seats_kit import decisions

from croupier.arbiter import DecisionRequest, Match, MatchConfig, Reply, SeatLink
from croupier.replay import ReplayWriter, read_replay

#: Seat 0's first decision, the transport's part: note writes, then answer (the Reply to queue).
Script = Callable[[SeatLink, DecisionRequest], Awaitable[Reply]]


async def _seat(link: SeatLink, script: Script | None) -> None:
    async for message in decisions(link):
        if script is not None:
            reply, script = await script(link, message), None
        else:
            reply = Reply(message.request_id, message.legal_actions[0])
        link.inbox.put_nowait(reply)


def _first_wall_us(tmp_path: Path, script: Script) -> int:
    """Play one As-Nas deal with ``script`` for seat 0's first decision; its wall time (the
    replay's ``wall_us``), once checked that the charged time is that less the stalls."""
    path = tmp_path / "m.jsonl"
    match = Match(MatchConfig("as-nas", {"deals": 1}, seed=7), "clock-start", ReplayWriter(path))

    async def main() -> None:
        seats = [
            asyncio.create_task(_seat(link, script if link.seat == 0 else None))
            for link in match.seats
        ]
        await match.run()
        await asyncio.gather(*seats)

    asyncio.run(main())
    actions = [r for r in read_replay(path).records if r.type == "action" and r.data["seat"] == 0]
    first = actions[0].data
    assert first["time_us"] == first["wall_us"] - first["lag_us"], first
    return int(first["wall_us"])


def _us(seconds: float) -> int:
    return round(seconds * 1e6)


def test_the_clock_starts_at_the_request_s_write_not_when_it_was_queued(tmp_path: Path) -> None:
    noted: dict[str, float] = {}

    async def script(link: SeatLink, request: DecisionRequest) -> Reply:
        loop = asyncio.get_running_loop()
        await asyncio.sleep(0.5)  # queued behind a slow connection
        link.written(request.request_id, noted.setdefault("write", loop.time()))
        await asyncio.sleep(0.1)  # the bot thinks
        return Reply(
            request.request_id, request.legal_actions[0], noted.setdefault("read", loop.time())
        )

    wall = _first_wall_us(tmp_path, script)
    # from the write (0.1 s), not the queueing (0.5 s more)
    assert abs(wall - _us(noted["read"] - noted["write"])) <= 1, (wall, noted)


def test_a_request_written_again_keeps_the_time_of_its_first_write(tmp_path: Path) -> None:
    noted: dict[str, float] = {}

    async def script(link: SeatLink, request: DecisionRequest) -> Reply:
        loop = asyncio.get_running_loop()
        link.written(request.request_id, noted.setdefault("write", loop.time()))
        await asyncio.sleep(0.3)  # the bot dropped and came back: the request is resent
        link.written(request.request_id, loop.time())
        await asyncio.sleep(0.1)
        return Reply(
            request.request_id, request.legal_actions[0], noted.setdefault("read", loop.time())
        )

    wall = _first_wall_us(tmp_path, script)
    # 0.4 s since the first write, not 0.1 since the resend
    assert abs(wall - _us(noted["read"] - noted["write"])) <= 1, (wall, noted)


def test_a_write_noted_after_the_reply_was_read_does_not_move_the_start(tmp_path: Path) -> None:
    noted: dict[str, float] = {}

    async def script(link: SeatLink, request: DecisionRequest) -> Reply:
        loop = asyncio.get_running_loop()
        noted["got"] = loop.time()  # (it was queued before this)
        await asyncio.sleep(0.2)
        read_at = noted["read"] = loop.time()
        link.written(request.request_id, read_at + 1.0)  # the writer resumed after the read
        return Reply(request.request_id, request.legal_actions[0], read_at)

    wall = _first_wall_us(tmp_path, script)
    # from when it was queued (0.2 s and more); not 0
    assert wall >= _us(noted["read"] - noted["got"]) - 1, (wall, noted)
