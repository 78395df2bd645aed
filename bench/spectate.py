"""What live spectating costs the match being played (issue 13, item 5).

Plays the same seeded matches in-process (the arbiter and the replay writer, seats answered by a
seeded random policy, no gRPC) three ways in one run, each repeated and the median taken:

* ``baseline``: the replay writer alone;
* ``feed``: the writer hands every record to a :class:`croupier.serve.MatchFeed` (what
  ``croupier serve`` does for every match, watched or not);
* ``watched``: the feed and ``--watchers`` public WatchMatch streams consuming it as it grows
  (frames built and serialized), on the same event loop as the match.

It prints one JSON line: the decisions per second of each way and their ratio to the baseline,
and the frames the watchers received per second. Compare ratios between runs, not absolute
figures (bench/README.md).

    .venv/bin/python bench/spectate.py [--game scauver] [--matches 20] [--watchers 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from croupier.arbiter import DecisionRequest, Match, MatchConfig, MatchOver, Reply
from croupier.replay import ReplayWriter
from croupier.serve import MatchFeed, watch_match
from croupier.v1 import control_pb2 as cpb

PARAMS = {
    "scauver": {"players": 3, "round_cap": 20},
    "felduz": {"players": 3, "round_cap": 20},
    "as-nas": {"deals": 12},
    "fipsen": {"deals": 12},
}


async def _seat(link: Any, seed: int) -> int:
    rng = np.random.default_rng(seed)
    link.claim(f"random-{link.seat}", "1")
    answered = 0
    while True:
        message = await link.outbox.get()
        if message is None or isinstance(message, MatchOver):
            return answered
        if isinstance(message, DecisionRequest):
            legal = message.legal_actions
            link.inbox.put_nowait(Reply(message.request_id, int(legal[rng.integers(len(legal))])))
            answered += 1
            await asyncio.sleep(0)  # a bot's reply comes on a later turn of the loop


async def _watcher(feed: MatchFeed) -> int:
    frames = 0
    request = cpb.WatchMatchRequest(match_id=feed.match_id)
    async for message in watch_match(feed, request, may_see_seat=lambda s: False):
        message.SerializeToString()
        frames += message.HasField("frame")
    return frames


async def _one(game: str, seed: int, out: Path, mode: str, watchers: int) -> tuple[int, int]:
    feed = MatchFeed(f"m{seed}") if mode != "baseline" else None
    path = out / f"{mode}-{seed}.jsonl"
    match = Match(MatchConfig(game, PARAMS[game], seed=seed), f"m{seed}", ReplayWriter(path, feed))
    watching = (
        [asyncio.create_task(_watcher(feed)) for _ in range(watchers)]
        if feed is not None and mode == "watched"
        else []
    )
    seats = [asyncio.create_task(_seat(link, seed * 10 + link.seat)) for link in match.seats]
    await match.run()
    decisions = sum(await asyncio.gather(*seats))
    frames = sum(await asyncio.gather(*watching))
    return decisions, frames


def _run(game: str, matches: int, mode: str, watchers: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:

        async def main() -> tuple[int, int]:
            total = frames = 0
            for seed in range(1, matches + 1):
                d, f = await _one(game, seed, Path(tmp), mode, watchers)
                total, frames = total + d, frames + f
            return total, frames

        start = time.perf_counter()
        decisions, frames = asyncio.run(main())
        seconds = time.perf_counter() - start
    return {"decisions_per_s": decisions / seconds, "frames_per_s": frames / seconds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="scauver", choices=sorted(PARAMS))
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--watchers", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    runs: dict[str, list[dict[str, float]]] = {"baseline": [], "feed": [], "watched": []}
    for _ in range(args.repeats):  # interleaved, so a noisy moment hits every way alike
        for mode in runs:
            runs[mode].append(_run(args.game, args.matches, mode, args.watchers))
    median = {
        mode: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for mode, rs in runs.items()
    }
    base = median["baseline"]["decisions_per_s"]
    print(
        json.dumps(
            {
                "bench": "spectate",
                "game": args.game,
                "matches": args.matches,
                "watchers": args.watchers,
                "repeats": args.repeats,
                "decisions_per_s": {m: round(v["decisions_per_s"]) for m, v in median.items()},
                "ratio_to_baseline": {
                    m: round(v["decisions_per_s"] / base, 3) for m, v in median.items()
                },
                "watched_frames_per_s": round(median["watched"]["frames_per_s"]),
            }
        )
    )


if __name__ == "__main__":
    main()
