"""``MatchConfig.event_flush_ms``: how long a public event waits for the next message to its seat
before it goes out alone, when the match does not expect to ask the seat soon. Real gRPC: four
raw ``grpc.aio`` clients in the arbiter's own loop, one of them slow, so that the others' events
wait longer than the flush time; one of them forfeits the match at its first decision (an
illegal reply under ``illegal = forfeit-match``), so that it is never asked again."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest

from croupier.arbiter import FaultPolicy, Match, MatchConfig, Outcome, Policy
from croupier.replay import read_replay, verify
from croupier.runner import run_match
from croupier.v1 import PROTOCOL_VERSION, bot_pb2_grpc
from croupier.v1 import bot_pb2 as pb

#: Seat 0 thinks this long before each reply: longer than the default flush of 50 ms.
SLOW_S = 0.12
#: This seat answers its first decision with an id that is never legal: it forfeits the match
#: and is not asked again (its seat concedes every decision).
QUITTER = 3


async def _seat(address: str, token: str, seat: int) -> list[pb.PlayResponse]:
    """Play the first legal action of every decision; return every message received."""
    seen: list[pb.PlayResponse] = []
    async with grpc.aio.insecure_channel(address) as channel:
        call = bot_pb2_grpc.BotServiceStub(channel).Play()
        hello = pb.Hello(token=token, bot_name=f"s{seat}", protocol_version=PROTOCOL_VERSION)
        await call.write(pb.PlayRequest(hello=hello))
        while (response := await call.read()) is not grpc.aio.EOF:
            seen.append(response)
            kind = response.WhichOneof("kind")
            if kind == "decision":
                if seat == 0:
                    await asyncio.sleep(SLOW_S)
                d = response.decision
                action = 99 if seat == QUITTER else d.legal_actions[0].id
                reply = pb.ActionReply(request_id=d.request_id, action_id=action)
                await call.write(pb.PlayRequest(action=reply))
            elif kind == "match_end":
                await call.done_writing()
    return seen


def _play(tmp_path: Path, flush_ms: int) -> list[list[pb.PlayResponse]]:
    async def main() -> list[list[pb.PlayResponse]]:
        ready: asyncio.Future[tuple[str, Match]] = asyncio.get_running_loop().create_future()
        policy = FaultPolicy(illegal=Policy.FORFEIT_MATCH)
        config = MatchConfig(
            "as-nas", {"deals": 3}, seed=5, event_flush_ms=flush_ms, fault_policy=policy
        )
        hosting = asyncio.create_task(
            run_match(config, [None] * 4, tmp_path, on_ready=lambda a, m: ready.set_result((a, m)))
        )
        address, match = await ready
        seen = await asyncio.gather(*(_seat(address, t, s) for s, t in enumerate(match.tokens)))
        run = await hosting
        outcomes = [s.outcome for s in run.result.seats]
        assert outcomes == [Outcome.NORMAL] * 3 + [Outcome.FORFEITED]
        replay = read_replay(run.replay)
        verify(replay)
        assert replay.header["event_flush_ms"] == flush_ms
        return list(seen)

    return asyncio.run(main())


def _events_only(messages: list[pb.PlayResponse]) -> int:
    return sum(1 for m in messages if m.WhichOneof("kind") is None)


def _events(messages: list[pb.PlayResponse]) -> list[bytes]:
    return [e.SerializeToString(deterministic=True) for m in messages for e in m.events]


def test_events_go_alone_only_to_a_seat_not_asked_soon(tmp_path: Path) -> None:
    """One write per decision: a seat the match will ask soon gets its events with its next
    decision however long a slow seat takes (no events-only message); only the seat that
    forfeited, never asked again, gets them on their own after the flush time; with the flush
    off, nobody does."""
    default = _play(tmp_path / "default", 50)
    off = _play(tmp_path / "off", 0)
    assert [_events_only(seen) for seen in default[:QUITTER]] == [0, 0, 0]
    assert _events_only(default[QUITTER]) > 0
    # ... and with the flush off never: every event rides with a Welcome, decision or MatchEnd
    assert [_events_only(seen) for seen in off] == [0, 0, 0, 0]
    for seat in range(4):
        # the same events in the same order either way (the same match: first legal actions)
        assert _events(off[seat]) == _events(default[seat])
        # and each seat still has every event before its next decision: the decisions agree
        decisions = [m.decision.request_id for m in off[seat] if m.HasField("decision")]
        assert decisions == [m.decision.request_id for m in default[seat] if m.HasField("decision")]


@pytest.mark.parametrize("value", ["-1", "60001", "ten"])
def test_a_bad_event_flush_is_one_line(value: str, capsys: pytest.CaptureFixture[str]) -> None:
    from croupier.cli import main

    with pytest.raises(SystemExit) as exit_info:
        main(["match", "--game", "as-nas", "--event-flush-ms", value])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("croupier match: error: argument --event-flush-ms: ")
    assert not any("Traceback" in line for line in err)
