"""A behaviour fingerprint: SHA-256 over every wire message each seat receives (decision requests,
events, round ends, match end) and over every replay record (wall-clock fields dropped) of three
seeded matches per game, each seat choosing uniformly at random with its own seeded generator.

For refactors that must change nothing: run it on the old and the new checkout and diff the
output (``python bench/fingerprint.py > before.txt``, then after). Not a benchmark.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from croupier.arbiter import Clocks, DecisionRequest, Match, MatchConfig, MatchOver, Reply, SeatLink
from croupier.replay import ReplayWriter
from croupier.transport._codec import encode

try:
    from croupier.games import get_spec

    def _codec(game: str) -> Any:
        return get_spec(game).codec
except ImportError:  # a checkout from before the GameSpec registry (to compare against)
    from croupier.transport._codec import CODECS  # type: ignore[attr-defined]

    def _codec(game: str) -> Any:
        return CODECS[game]


CONFIGS: dict[str, list[dict[str, int]]] = {
    "as-nas": [{}, {"deals": 5}, {"deals": 20}],
    "fipsen": [{"deals": 6}, {"deals": 12}, {}],
    "felduz": [{"players": 2}, {"players": 3, "stack": 10}, {"players": 4, "round_cap": 8}],
    "scauver": [{"players": 2}, {"players": 3, "stack": 10}, {"players": 4, "round_cap": 8}],
}
#: Replay fields that differ between two runs of one seed: wall-clock readings and the
#: commit-reveal salt and commitments (docs/replay-format.md; format 4's header carries the
#: deals' commitment as ``deal_commitment`` beside the match's ``commitment``).
WALL_CLOCK = {
    "time_us", "started_at", "ended_at", "wall_us", "lag_us", "cpu_us", "salt", "commitment",
    "deal_commitment",
}  # fmt: skip
#: What replay format 2 added (the header's version, each round_end's ``result``): left out so
#: that checkouts on both sides of format 2 compare. The round results are derived from the
#: rules, and every test that verifies a replay checks them against the re-simulation.
FORMAT_2 = {"format_version", "result"}
#: What replay format 4 added (the script's digest in the header, the unplayed rest of the
#: script in the result; the seed as decimal text, read back as a number below).
FORMAT_4 = {"chance_script_sha256", "chance_script_rest"}
#: The protocol the arbiter speaks (the header's ``protocol_version``: 2, then 3 from the
#: multiplexed Session stream on), left out so that checkouts on both sides of it compare.
PROTOCOL = {"protocol_version"}


def _strip(value: Any) -> Any:
    if isinstance(value, dict):
        if value.get("type") == "header":
            value = {**value, "seed": int(value["seed"])}
        return {
            k: _strip(v)
            for k, v in value.items()
            if k not in WALL_CLOCK | FORMAT_2 | FORMAT_4 | PROTOCOL
        }
    if isinstance(value, list):
        return [_strip(v) for v in value]
    return value


async def _seat(link: SeatLink, rng: np.random.Generator, digest: Any, codec: Any) -> None:
    link.claim(f"fingerprint-{link.seat}", "1")
    while (message := await link.outbox.get()) is not None:
        if isinstance(message, DecisionRequest):
            legal = message.legal_actions
            link.inbox.put_nowait(Reply(message.request_id, int(legal[rng.integers(len(legal))])))
            message = dataclasses.replace(message, clocks=Clocks(0, 0, 0))  # measured times
        wire = encode(message, codec)
        # commit-reveal draws a fresh salt every match: the commitment and the salt differ
        # between two runs of the same seed by design
        if wire.HasField("welcome"):
            wire.welcome.ClearField("deal_commitment")
        if wire.HasField("match_end"):
            wire.match_end.ClearField("salt")
        digest.update(wire.SerializeToString(deterministic=True))
        if isinstance(message, MatchOver):
            return


def fingerprint(game: str, params: dict[str, int], seed: int, tmp: Path) -> str:
    """``wire <one digest per seat> replay <digest>`` of one seeded match."""
    path = tmp / f"{game}-{seed}.jsonl"
    match = Match(MatchConfig(game, params, seed), f"fingerprint-{game}-{seed}", ReplayWriter(path))
    codec = _codec(game)
    digests = [hashlib.sha256() for _ in match.seats]

    async def play() -> None:
        seats = [
            asyncio.create_task(
                _seat(link, np.random.default_rng(seed * 10 + link.seat), digests[link.seat], codec)
            )
            for link in match.seats
        ]
        await match.run()
        await asyncio.gather(*seats)

    asyncio.run(play())
    replay = hashlib.sha256()
    for line in path.read_text(encoding="utf-8").splitlines():
        replay.update(json.dumps(_strip(json.loads(line)), sort_keys=True).encode())
    wire = ",".join(d.hexdigest()[:16] for d in digests)
    return f"wire {wire} replay {replay.hexdigest()[:16]}"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for game, configs in CONFIGS.items():
            for i, params in enumerate(configs):
                seed = 1000 + i
                line = fingerprint(game, params, seed, Path(tmp))
                print(game, json.dumps(params, sort_keys=True), seed, line, flush=True)


if __name__ == "__main__":
    main()
