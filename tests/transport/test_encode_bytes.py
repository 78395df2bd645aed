"""``encode_bytes``: the wire bytes of an arbiter message with the events before it, put together
without parsing each event's cached bytes again (Play streams and multiplexed sessions write
these); byte for byte what ``encode(...).SerializeToString()`` gives, for every kind of message,
in every game."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from croupier.arbiter import (
    DecisionRequest,
    Fault,
    Match,
    MatchConfig,
    MatchOver,
    Rejection,
    Reply,
    SeatLink,
)
from croupier.games import get_spec
from croupier.replay import ReplayWriter
from croupier.transport._codec import EVENT_TYPES, encode, encode_bytes, varint

GAMES = {"as-nas": {"deals": 3}, "fipsen": {"deals": 2}, "felduz": {"players": 3},
         "scauver": {"players": 4, "round_cap": 4}}  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_the_bytes_are_those_of_the_serialized_message(game: str, tmp_path: Path) -> None:
    codec = get_spec(game).codec
    match = Match(MatchConfig(game, GAMES[game], seed=7), "bytes", ReplayWriter(tmp_path / "r"))
    compared = {"decision": 0, "events-only": 0, "other": 0}

    async def seat(link: SeatLink) -> None:
        rng = random.Random(link.seat)
        link.claim("bytes", "1")
        events: list[object] = []
        while (message := await link.outbox.get()) is not None:
            if isinstance(message, EVENT_TYPES) and rng.random() < 0.7:
                events.append(message)  # (batched with what comes next)
                continue
            batch = [*events, message] if isinstance(message, EVENT_TYPES) else events
            head = None if isinstance(message, EVENT_TYPES) else message
            wire = encode(head, codec, batch).SerializeToString()
            assert encode_bytes(head, codec, batch) == wire
            rejected = Rejection(9, Fault.ILLEGAL_ACTION, "no", True)
            assert encode_bytes(rejected, codec, batch) == (
                encode(rejected, codec, batch).SerializeToString()
            )
            kind = "decision" if isinstance(head, DecisionRequest) else "other"
            compared["events-only" if head is None else kind] += 1
            events = []
            if isinstance(message, DecisionRequest):
                link.inbox.put_nowait(Reply(message.request_id, rng.choice(message.legal_actions)))
            if isinstance(message, MatchOver):
                return

    async def main() -> None:
        seats = [asyncio.create_task(seat(link)) for link in match.seats]
        await match.run()
        await asyncio.gather(*seats)

    asyncio.run(main())
    assert min(compared.values()) > 0, compared


def test_varints() -> None:
    from google.protobuf.internal.encoder import _VarintBytes  # the library's own encoder

    for n in (0, 1, 127, 128, 300, 16383, 16384, 2**21, 2**35 + 3):
        assert varint(n) == _VarintBytes(n)
