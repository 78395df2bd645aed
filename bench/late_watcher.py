"""What a late watcher of a long match is sent before it is live (issue 24, part 1).

Plays one seeded 1,000-deal As-Nas match in-process (the arbiter and the replay writer, seats
answered by a seeded random policy, no gRPC), then hands its records to a fresh
:class:`croupier.serve.MatchFeed` up to a point (a watcher joining there: after ``--at``
decisions, each; the feed is closed there, so each stream ends once it has sent everything
played so far) and takes the public WatchMatch stream two ways, in one run:

* ``from_start``: the stream as it was before snapshots (and as ``ctl watch`` still gets it):
  every frame from the first step;
* ``snapshot``: ``WatchMatchRequest.snapshot``: the snapshot frame (what the web page asks
  for).

Bytes are counted as the web page's event stream sends them (proto3 JSON, one ``data:`` line
a message). It prints one JSON line: the bytes and seconds until live each way, and their
ratio, at each point; the snapshot's bytes should stay flat as the match grows.

    .venv/bin/python bench/late_watcher.py [--at 1000,3000,6000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
from google.protobuf import json_format

from croupier.arbiter import DecisionRequest, Match, MatchConfig, MatchOver, Reply
from croupier.replay import ReplayWriter
from croupier.serve import MatchFeed, watch_match
from croupier.v1 import control_pb2 as cpb


async def _seat(link: Any, seed: int) -> None:
    rng = np.random.default_rng(seed)
    link.claim(f"random-{link.seat}", "1")
    while True:
        message = await link.outbox.get()
        if message is None or isinstance(message, MatchOver):
            return
        if isinstance(message, DecisionRequest):
            legal = message.legal_actions
            link.inbox.put_nowait(Reply(message.request_id, int(legal[rng.integers(len(legal))])))
            await asyncio.sleep(0)


def _play(path: Path) -> list[dict[str, Any]]:
    """The match's records as its writer handed them to its listener."""
    records: list[dict[str, Any]] = []

    async def main() -> None:
        config = MatchConfig("as-nas", {"deals": 1000}, seed=24)
        match = Match(config, "m", ReplayWriter(path, records.append))
        seats = [asyncio.create_task(_seat(link, 240 + link.seat)) for link in match.seats]
        await match.run()
        await asyncio.gather(*seats)

    asyncio.run(main())
    return records


def _sse_bytes(message: cpb.WatchMatchResponse) -> int:
    data = json_format.MessageToDict(message, preserving_proto_field_name=True)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return len(f"data: {text}\n\n".encode())


async def _until_live(feed: MatchFeed, snapshot: bool) -> tuple[int, float, int]:
    """Bytes and seconds until the watcher has everything played so far (the feed is closed
    there: the stream ends once it is sent), and the step it is live at."""
    request = cpb.WatchMatchRequest(match_id="m", snapshot=snapshot)
    total, step, start = 0, 0, time.perf_counter()
    async for message in watch_match(feed, request, may_see_seat=lambda s: False):
        total += _sse_bytes(message)
        if message.HasField("frame"):
            step = message.frame.step
    return total, time.perf_counter() - start, step


def _at(records: list[dict[str, Any]], decisions: int, snapshot: bool) -> tuple[int, float, int]:
    """A watcher joining once ``decisions`` have been played (a fresh feed: nothing cached)."""
    feed = MatchFeed("m")
    played = 0
    for record in records:
        feed(record)
        played += record.get("type") == "action"
        if played >= decisions and record.get("type") != "action":
            break
    feed.close()
    return asyncio.run(_until_live(feed, snapshot))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--at", default="1000,3000,6000", help="decisions played at joining")
    args = parser.parse_args()
    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(40))
    with tempfile.TemporaryDirectory() as tmp:
        records = _play(Path(tmp) / "m.jsonl")
    total = sum(r.get("type") == "action" for r in records)
    points = []
    for decisions in (int(x) for x in args.at.split(",")):
        if decisions > total:
            continue
        old_bytes, old_s, old_step = _at(records, decisions, snapshot=False)
        new_bytes, new_s, new_step = _at(records, decisions, snapshot=True)
        assert new_step == old_step, (new_step, old_step)
        points.append(
            {
                "decisions": decisions,
                "step": new_step,
                "bytes": {"from_start": old_bytes, "snapshot": new_bytes},
                "bytes_ratio": round(old_bytes / new_bytes, 1),
                "seconds": {"from_start": round(old_s, 3), "snapshot": round(new_s, 3)},
            }
        )
    print(json.dumps({"bench": "late_watcher", "match_decisions": total, "points": points}))


if __name__ == "__main__":
    main()
