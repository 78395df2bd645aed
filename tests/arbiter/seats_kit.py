"""Play a real match (the arbiter, a replay file) in this process, each seat driven through its
:class:`SeatLink` by a policy: for tests that compare what seats receive between two matches;
:func:`decisions` for a seat driver of a test's own.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

from croupier.arbiter import (
    Clocks,
    DecisionRequest,
    Match,
    MatchConfig,
    MatchOver,
    Reply,
    SeatLink,
    Welcome,
)
from croupier.replay import ReplayWriter, read_replay, verify

#: A seat's policy: the action id to answer a decision with.
Policy = Callable[[DecisionRequest], int]


async def decisions(link: SeatLink, name: str = "") -> AsyncIterator[DecisionRequest]:
    """Claim ``link``'s seat (as ``name``, default ``scripted-SEAT``), then every decision request
    the match sends it, until the match is over; the rest of what it is sent is passed over."""
    link.claim(name or f"scripted-{link.seat}", "1")
    while True:
        message = await link.outbox.get()
        if message is None or isinstance(message, MatchOver):
            return
        if isinstance(message, DecisionRequest):
            yield message


async def _drive(link: SeatLink, policy: Policy, seen: list[Any]) -> None:
    link.claim(f"scripted-{link.seat}", "1")
    while True:
        message = await link.outbox.get()
        if message is None:
            return
        if isinstance(message, DecisionRequest):
            link.inbox.put_nowait(Reply(message.request_id, policy(message)))
            message = dataclasses.replace(message, clocks=Clocks(0, 0, 0))  # measured times
        if isinstance(message, Welcome):  # a fresh salt every match
            message = dataclasses.replace(message, commitment="", match_commitment="")
        if isinstance(message, MatchOver):  # the reveal: seed, salt, the digests
            result = dataclasses.replace(
                message.result, seed=0, salt="", script_digest="", terms_digest=""
            )
            message = MatchOver(result)
        seen.append(message)
        if isinstance(message, MatchOver):
            return


def play(
    config: MatchConfig, match_id: str, path: Path, policies: Sequence[Policy]
) -> list[list[Any]]:
    """Play the match, writing its replay to ``path`` (which must verify); return every message
    each seat received, in order (decision clocks zeroed: they hold measured times; the deals'
    commitment and its reveal blanked: a fresh salt every match)."""
    match = Match(config, match_id, ReplayWriter(path))
    seen: list[list[Any]] = [[] for _ in match.seats]

    async def main() -> None:
        seats = [
            asyncio.create_task(_drive(link, policies[link.seat], seen[link.seat]))
            for link in match.seats
        ]
        await match.run()
        await asyncio.gather(*seats)

    asyncio.run(main())
    verify(read_replay(path))
    return seen


def scripted(moves: Sequence[str | int]) -> Policy:
    """A policy playing ``moves`` in order: a label, or (an int) a position in the legal list."""
    todo = iter(moves)

    def policy(request: DecisionRequest) -> int:
        move = next(todo)
        if isinstance(move, int):
            return request.legal_actions[move]
        return request.legal_actions[request.labels.index(move)]

    return policy
