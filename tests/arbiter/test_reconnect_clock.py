"""A seat that drops and comes back within its grace window gains no thinking time (issue 13
item 4): its pending decision's clock runs from that request's first write through the gap,
however the transport's note of that write came out of the race with the drop.

A real match (As-Nas, 4 seats, its replay) in this process, each seat driven through its
:class:`SeatLink` as the transport does (``seats_kit``'s way). Seat 0 takes its first decision
request off the outbox and then drops before answering; the tests play the two ways the
transport's note of the write can go when the connection breaks just after the bytes left
(found by the ladder scenario, ``tests/e2e/test_ladder_scenario.py``, about one run in ten):
the write is never noted (it raised, or had not returned), or it is noted late, after the
drop. The bot comes back after ``AWAY_S``, is resent the request, and answers it at once: the
replay's action must still count the gap.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from croupier.arbiter import DecisionRequest, Match, MatchConfig, MatchOver, Reply, SeatLink
from croupier.replay import ReplayWriter, read_replay, verify

AWAY_S = 0.3


async def _passive(link: SeatLink) -> None:
    """Answer every decision at once with its first legal action."""
    while (message := await link.outbox.get()) is not None:
        if isinstance(message, DecisionRequest):
            link.written(message.request_id, asyncio.get_running_loop().time())
            link.inbox.put_nowait(Reply(message.request_id, message.legal_actions[0]))
        if isinstance(message, MatchOver):
            return


async def _drops_once(link: SeatLink, noted: str) -> None:
    """Seat 0: its first decision is taken off the outbox (the bytes left), the connection
    breaks before the reply; the bot is back after AWAY_S and answers the resent request."""
    loop = asyncio.get_running_loop()
    connection = link.claim("flaky", "1")
    while not isinstance(request := await link.outbox.get(), DecisionRequest):
        assert request is not None
    link.lost("the stream broke: AioRpcError", connection)
    await asyncio.sleep(AWAY_S)
    if noted == "late":  # the old stream's write returns now, after the drop was seen
        link.written(request.request_id, loop.time())
    connection = link.claim("flaky", "1")
    resent = link.resync()
    assert resent is not None
    assert resent.request_id == request.request_id
    link.written(resent.request_id, loop.time())  # the new stream's write
    link.inbox.put_nowait(Reply(resent.request_id, resent.legal_actions[0]))
    await _passive(link)


@pytest.mark.parametrize("noted", ["never", "late"])
def test_the_clock_runs_through_the_gap(tmp_path: Path, noted: str) -> None:
    path = tmp_path / "m.jsonl"
    config = MatchConfig(game="as-nas", params={"deals": 1}, seed=7, reconnect_grace_s=5.0)
    match = Match(config, "m", ReplayWriter(path))

    async def main() -> None:
        for link in match.seats[1:]:
            link.claim(f"bot-{link.seat}", "1")
        seats = [asyncio.create_task(_drops_once(match.seats[0], noted))]
        seats += [asyncio.create_task(_passive(link)) for link in match.seats[1:]]
        await match.run()
        await asyncio.gather(*seats)

    asyncio.run(main())
    replay = read_replay(path)
    verify(replay)
    records = [r.data | {"type": r.type} for r in replay.records]
    mine = [r for r in records if r.get("seat") == 0]
    kinds = [r["type"] for r in mine]
    drop = kinds.index("dropped")
    _, rejoined, answer = mine[drop : drop + 3]
    assert (rejoined["type"], answer["type"]) == ("rejoined", "action")
    assert answer["fault"] is None
    assert rejoined["gap_us"] >= AWAY_S * 1e6
    assert answer["wall_us"] >= rejoined["gap_us"], "the bot gained the gap"
