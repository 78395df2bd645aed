"""The Python SDK's ``play_async``: four bots in the arbiter's own process and event loop, over
real gRPC, joining a match whose seats are all remote (``run_match`` with ``None`` bots)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from croupier.arbiter import Match, MatchConfig, Outcome
from croupier.replay import read_replay, verify
from croupier.runner import MatchRun, run_match
from croupier_bot import play_async
from croupier_bots.random_bot import RandomBot


def test_bots_in_process_play_a_whole_match_over_grpc(tmp_path: Path) -> None:
    async def main() -> tuple[MatchRun, list[Any]]:
        ready: asyncio.Future[tuple[str, Match]] = asyncio.get_running_loop().create_future()
        config = MatchConfig("as-nas", {"deals": 3}, seed=12)
        hosting = asyncio.create_task(
            run_match(config, [None] * 4, tmp_path, on_ready=lambda a, m: ready.set_result((a, m)))
        )
        address, match = await ready
        ends = await asyncio.gather(
            *(
                play_async(RandomBot(seat), address=address, token=token)
                for seat, token in enumerate(match.tokens)
            )
        )
        return await hosting, list(ends)

    run, ends = asyncio.run(main())
    assert [r.outcome for r in run.result.seats] == [Outcome.NORMAL] * 4  # type: ignore[attr-defined]
    assert all(not end.cancelled for end in ends)  # type: ignore[attr-defined]
    assert [r.score.numerator for r in ends[0].results] == [  # type: ignore[attr-defined]
        s.score.numerator
        for s in run.result.seats  # type: ignore[attr-defined]
    ]
    assert run.logs == {}  # type: ignore[attr-defined]  (nothing was launched)
    verify(read_replay(run.replay))  # type: ignore[attr-defined]
