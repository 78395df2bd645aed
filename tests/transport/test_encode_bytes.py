"""``encode_bytes``: the wire bytes of an arbiter message with the events before it, put together
without parsing each event's cached bytes again (Play streams and multiplexed sessions write
these); byte for byte what ``encode(...).SerializeToString()`` gives, for every kind of message,
in every game."""

from __future__ import annotations

import asyncio
import dataclasses
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
from croupier.games import get_spec, varint
from croupier.replay import ReplayWriter
from croupier.transport._codec import (
    EVENT_TYPES,
    _event_bytes,
    encode,
    encode_bytes,
    encode_event,
)
from croupier.v1 import bot_pb2 as pb

GAMES = {"as-nas": {"deals": 3}, "fipsen": {"deals": 2}, "felduz": {"players": 3},
         "scauver": {"players": 4, "round_cap": 4}}  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
def test_the_bytes_are_those_of_the_serialized_message(game: str, tmp_path: Path) -> None:
    codec = get_spec(game).codec
    match = Match(MatchConfig(game, GAMES[game], seed=7), "bytes", ReplayWriter(tmp_path / "r"))
    compared = {"decision": 0, "events-only": 0, "other": 0, "event": 0}

    async def seat(link: SeatLink) -> None:
        rng = random.Random(link.seat)
        link.claim("bytes", "1")
        events: list[object] = []
        while (message := await link.outbox.get()) is not None:
            if isinstance(message, EVENT_TYPES):  # its bytes, put together, are the message's
                built = pb.Event()
                encode_event(message, codec, built)
                assert _event_bytes(message, codec) == built.SerializeToString()
                compared["event"] += 1
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
        async with asyncio.TaskGroup() as group:  # (a seat's failed check ends the match too)
            for link in match.seats:
                group.create_task(seat(link))
            group.create_task(match.run())

    asyncio.run(main())
    assert min(compared.values()) > 0, compared


def test_varints() -> None:
    from google.protobuf.internal.encoder import _VarintBytes  # the library's own encoder

    for n in (0, 1, 127, 128, 300, 16383, 16384, 2**21, 2**35 + 3):
        assert varint(n) == _VarintBytes(n)


def _decisions(game: str, params: dict[str, int], seeds: range) -> list[DecisionRequest]:
    """Every decision request of random matches (``play_local``: the arbiter's own builder)."""
    from croupier.transport import _local
    from croupier_bot import Seat
    from croupier_bots.random_bot import RandomBot

    seen: list[DecisionRequest] = []
    encode_one = _local.encode

    def keep(message: object, codec: object, events: object = ()) -> object:
        if isinstance(message, DecisionRequest):
            seen.append(message)
        return encode_one(message, codec, events)  # type: ignore[arg-type]

    spec = get_spec(game)
    players = params.get("players", 4)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_local, "encode", keep)
        for seed in seeds:
            bots = [Seat(RandomBot(seed * 10 + s)) for s in range(players)]
            _local.play_local(spec.game.info.name, params, seed, bots)
    return seen


@pytest.mark.parametrize(
    ("game", "params", "matches", "least", "own_observation"),
    [("as-nas", {}, 40, 2000, True), ("scauver", {"players": 4, "round_cap": 6}, 12, 500, False)],
)
def test_a_game_makes_the_bytes_of_its_messages(
    game: str, params: dict[str, int], matches: int, least: int, own_observation: bool
) -> None:
    """A codec's own observation and detail bytes (the arbiter's fast path: As-Nas's both,
    Scauver's details) are those of the messages it fills, for every decision of whole matches
    (As-Nas 12 deals; Scauver with its openings of 80 legal choices each)."""
    codec = get_spec(game).codec
    assert (codec.observation_bytes is not None) is own_observation
    assert codec.detail_bytes is not None
    decisions = _decisions(game, params, range(matches))
    assert len(decisions) > least
    for message in decisions:
        observation = pb.Observation()
        codec.observation(message.observation, observation)
        if codec.observation_bytes is not None:
            seen = codec.observation_bytes(message.observation)
            assert seen == observation.SerializeToString()
        for action in message.legal_actions:
            legal = pb.LegalAction()
            codec.action_detail(message.observation, action, legal)
            assert codec.detail_bytes(message.observation, action) == legal.SerializeToString()


def test_the_decision_bytes_keep_amount_ranges() -> None:
    """A codec with its own bytes and betting runs (Felduz's messages, serialized, given as
    the codec's bytes): each decision's bytes are the message's, its runs as amount ranges."""
    felduz = get_spec("felduz").codec

    def observation_bytes(seen: object) -> bytes:
        out = pb.Observation()
        felduz.observation(seen, out)
        return out.SerializeToString()

    def detail_bytes(seen: object, action: int) -> bytes:
        out = pb.LegalAction()
        felduz.action_detail(seen, action, out)
        return out.SerializeToString()

    codec = dataclasses.replace(
        felduz, observation_bytes=observation_bytes, detail_bytes=detail_bytes
    )
    ranges = 0
    for message in _decisions("felduz", {"players": 3, "stack": 1000, "round_cap": 4}, range(6)):
        wire = encode(message, felduz).SerializeToString()
        assert encode_bytes(message, codec) == wire
        ranges += sum(
            a.HasField("amounts") for a in pb.PlayResponse.FromString(wire).decision.legal_actions
        )
    assert ranges > 0


def test_an_integer_no_field_holds_is_refused() -> None:
    """A negative or 64-bit value raises, as protobuf does, instead of wrong bytes."""
    from croupier.games import uint_field

    assert uint_field(b"\x08", 0) == b""
    assert uint_field(b"\x08", 2**63) == pb.DecisionRequest(request_id=2**63).SerializeToString()
    for bad in (-1, -16384, 2**64):
        with pytest.raises(ValueError, match="no unsigned"):
            uint_field(b"\x08", bad)
