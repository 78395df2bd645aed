"""``CreateMatches`` on a real ``croupier serve`` process (docs/server.md, "Matches"): a batch
creates exactly its matches, with the ids its name gives, all or none; a bad match or batch
name is refused in one line and creates nothing; after a SIGKILL and a restart the batch is
still there and sending it again creates nothing twice."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import grpc
import pytest
from serve_kit import Control, ServeProcess, register, wait_for

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

BOTS = ("alice", "bob", "carol", "dan")


def _all_ids(control: Control) -> list[str]:
    return sorted(
        m.match_id for m in control.ListMatches(cpb.ListMatchesRequest(limit=1000)).matches
    )


def _request(
    deals: list[int], batch: str, bots: tuple[str, ...] = BOTS
) -> cpb.CreateMatchesRequest:
    return cpb.CreateMatchesRequest(
        batch=batch,
        matches=[
            cpb.CreateMatchRequest(game="as-nas", bots=bots, params={"deals": d}, seed=100 + i)
            for i, d in enumerate(deals)
        ],
    )


def _refusal(call: object) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as info:
        call()  # type: ignore[operator]
    return info.value.code(), info.value.details()


def test_a_batch_is_created_whole_once_and_survives_a_restart(tmp_path: Path) -> None:
    state = tmp_path / "state"
    # the bots are registered and never connect: the matches wait for their seats (10 s),
    # which is as long as this test needs them pending or running
    first = ServeProcess(state)
    op = Control(first.control_address, first.operator_key)
    register(op, *BOTS)

    made = op.CreateMatches(_request([1, 2, 3, 4, 5], "round7")).matches
    ids = [f"round7-{i:04d}" for i in range(5)]
    assert [m.match_id for m in made] == ids
    assert [m.params["deals"] for m in made] == [1, 2, 3, 4, 5]  # each as it was asked
    assert all(tuple(s.bot_name for s in m.seats) == BOTS for m in made)
    assert _all_ids(op) == ids

    # one bad match refuses the call, naming it, and nothing of the batch is created
    bad = _request([1, 1, 1], "round8")
    bad.matches[2].bots[3] = "mallory"
    code, detail = _refusal(lambda: op.CreateMatches(bad))
    assert code == grpc.StatusCode.NOT_FOUND
    assert detail == "matches[2]: no registered bot named 'mallory'"
    code, detail = _refusal(lambda: op.CreateMatches(_request([1], "no/slash")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert "\n" not in detail
    assert detail.startswith("batch 'no/slash': use 1 to 48 letters")
    code, _ = _refusal(lambda: op.CreateMatches(cpb.CreateMatchesRequest(batch="empty")))
    assert code == grpc.StatusCode.INVALID_ARGUMENT
    assert _all_ids(op) == ids

    # the same batch again (a client retrying a call whose answer it lost): nothing new
    code, detail = _refusal(lambda: op.CreateMatches(_request([1, 2, 3, 4, 5], "round7")))
    assert code == grpc.StatusCode.ALREADY_EXISTS
    assert detail == "match round7-0000 exists already: the batch is not created again"
    # a batch that overlaps it by one id is refused whole too
    code, _ = _refusal(lambda: op.CreateMatches(_request([1] * 7, "round7")))
    assert code == grpc.StatusCode.ALREADY_EXISTS
    assert _all_ids(op) == ids
    op.close()
    first.kill()

    second = ServeProcess(state)
    try:
        op = Control(second.control_address, second.operator_key)
        kept = {m.match_id: m for m in op.ListMatches(cpb.ListMatchesRequest(limit=1000)).matches}
        assert sorted(kept) == ids
        assert {m.state for m in kept.values()} == {cpb.MATCH_STATE_ABORTED}
        assert [kept[i].params["deals"] for i in ids] == [1, 2, 3, 4, 5]
        code, _ = _refusal(lambda: op.CreateMatches(_request([1, 2, 3, 4, 5], "round7")))
        assert code == grpc.StatusCode.ALREADY_EXISTS
        # a new batch and unnamed ones still go in
        fresh = op.CreateMatches(_request([1, 1], "round8")).matches
        assert [m.match_id for m in fresh] == ["round8-0000", "round8-0001"]
        unnamed = op.CreateMatches(_request([1, 1], "")).matches
        assert len({m.match_id for m in unnamed}) == 2
        assert len(_all_ids(op)) == 5 + 2 + 2
        op.close()
    finally:  # (a stop would wait for the seats of bots that never come)
        second.kill()


def test_a_call_cancelled_while_its_write_waits_still_starts_what_is_stored(
    tmp_path: Path,
) -> None:
    """CreateMatch and CreateMatches are cancelled by their callers while the server's write
    waits (another connection holds the store's write lock). Once the lock is let go, the
    write lands: each match it stored is started (running), never left pending, and the
    batch sent again is refused as existing, not created twice."""
    state = tmp_path / "state"
    server = ServeProcess(state)
    try:
        op = Control(server.control_address, server.operator_key)
        register(op, *BOTS)
        lock = sqlite3.connect(state / "croupier.sqlite", isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")  # the server's writer now waits for it
        one = op.stub.CreateMatch.future(
            cpb.CreateMatchRequest(game="as-nas", bots=BOTS, params={"deals": 1}),
            metadata=op.metadata,
        )
        many = op.stub.CreateMatches.future(_request([1, 1, 1], "gone"), metadata=op.metadata)
        time.sleep(0.5)  # both handlers are awaiting the write
        assert one.cancel()
        assert many.cancel()
        time.sleep(0.5)  # the server has seen both cancellations
        lock.execute("ROLLBACK")
        lock.close()

        def settled() -> bool:
            listed = op.ListMatches(cpb.ListMatchesRequest(limit=100)).matches
            return len(listed) == 4 and all(m.state != cpb.MATCH_STATE_PENDING for m in listed)

        wait_for(settled, 10, "the stored matches to start")
        listed = op.ListMatches(cpb.ListMatchesRequest(limit=100)).matches
        assert {m.state for m in listed} == {cpb.MATCH_STATE_RUNNING}
        assert sorted(m.match_id for m in listed if m.match_id.startswith("gone-")) == [
            "gone-0000",
            "gone-0001",
            "gone-0002",
        ]
        code, _ = _refusal(lambda: op.CreateMatches(_request([1, 1, 1], "gone")))
        assert code == grpc.StatusCode.ALREADY_EXISTS
        op.close()
    finally:  # (a stop would wait for the seats of bots that never come)
        server.kill()
