"""Record a real match between in-process policies: the arbiter (clocks, fault policy, events)
and the replay writer, with each seat answered by a function instead of a bot process. For
tools, tests and benchmarks that need many real replays fast (no gRPC, no processes)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from pathlib import Path

from croupier.arbiter import DecisionRequest, Match, MatchConfig, MatchOver, Reply, SeatLink
from croupier.replay._writer import ReplayWriter

#: A seat's policy: the action id to answer a decision with.
Policy = Callable[[DecisionRequest], int]


async def _drive(link: SeatLink, name: str, policy: Policy) -> None:
    link.claim(name, "1")
    while True:
        message = await link.outbox.get()
        if message is None or isinstance(message, MatchOver):
            return
        if isinstance(message, DecisionRequest):
            link.inbox.put_nowait(Reply(message.request_id, policy(message)))


def record_match(
    config: MatchConfig,
    path: Path,
    policies: Sequence[Policy | None],
    names: Sequence[str],
    match_id: str | None = None,
    cancel_after: int | None = None,
) -> Path:
    """Play the match, seat ``s`` answered by ``policies[s]`` under the bot name ``names[s]``,
    and write its replay to ``path`` (which must not exist); a seat whose policy is ``None``
    never joins (a no-show, once ``config.connect_timeout_s`` has passed); ``cancel_after``:
    cancel the match (as Ctrl-C does) once that many decisions have been answered."""
    match = Match(config, match_id or path.stem, ReplayWriter(path))
    answered = 0

    def counted(policy: Policy) -> Policy:
        def answer(request: DecisionRequest) -> int:
            nonlocal answered
            answered += 1
            if answered == cancel_after:
                match.cancel()
            return policy(request)

        return answer

    async def main() -> None:
        try:
            async with asyncio.TaskGroup() as seats:
                for link in match.seats:
                    if (policy := policies[link.seat]) is not None:
                        seats.create_task(_drive(link, names[link.seat], counted(policy)))
                await match.run()
        except BaseExceptionGroup as failed:  # a policy's error (or the match's), as itself
            raise failed.exceptions[0] from None

    asyncio.run(main())
    return path
