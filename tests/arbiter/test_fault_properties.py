"""Property: whatever the bots do wrong, and in whatever order, the match ends, its replay verifies,
each seat's result counts exactly the faults it committed, and the result ranks every seat.
Every game is checked (As-Nas with the most examples; the others with a few, on short matches).

The arbiter is the real one; the seats are driven in-process through their :class:`SeatLink`
(the transport's side of the link), each following a script drawn by hypothesis: per decision,
answer correctly, answer an illegal id, answer a wrong request id, send something that is not a
reply, answer twice, stay silent past the deadline, or leave.
"""

from __future__ import annotations

import asyncio
import enum
import itertools
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from seats_kit import decisions

from croupier.arbiter import (
    ClockRules,
    Match,
    MatchConfig,
    Outcome,
    Reply,
    SeatLink,
    Unexpected,
)
from croupier.replay import ReplayWriter, read_replay, verify


class Move(enum.Enum):
    GOOD = "good"
    ILLEGAL = "illegal"
    STALE = "stale"
    UNEXPECTED = "unexpected"
    TWICE = "twice"  # a good reply, then the same reply again
    SILENT = "silent"  # no reply: a timeout
    LEAVE = "leave"


_RUNS = itertools.count()
CLOCK = ClockRules(move_time_ms=50, time_bank_ms=0)
script = st.lists(st.sampled_from(Move), min_size=0, max_size=8)


async def _seat(link: SeatLink, moves: list[Move], seed: int, illegal: int) -> None:
    """Play ``link``'s seat following ``moves`` (then only good replies); ``illegal`` is an id
    the game never offers."""
    rng = random.Random(seed)
    todo = iter(moves)
    async for message in decisions(link):
        move = next(todo, Move.GOOD)
        good = Reply(message.request_id, rng.choice(message.legal_actions))
        if move is Move.GOOD:
            link.inbox.put_nowait(good)
        elif move is Move.ILLEGAL:
            link.inbox.put_nowait(Reply(message.request_id, illegal))
        elif move is Move.STALE:
            link.inbox.put_nowait(Reply(message.request_id + 1000, good.action))
        elif move is Move.UNEXPECTED:
            link.inbox.put_nowait(Unexpected("a second Hello"))
        elif move is Move.TWICE:
            link.inbox.put_nowait(good)
            link.inbox.put_nowait(good)
        elif move is Move.LEAVE:
            link.leave("the bot closed its stream")
            return
        # SILENT: nothing


def _bot_messages(move: Move, request: int) -> list[tuple[str, int]]:
    """What the scripted bot puts in its inbox for ``request`` (kind, request id)."""
    return {
        Move.GOOD: [("reply", request)],
        Move.ILLEGAL: [("illegal", request)],
        Move.STALE: [("reply", request + 1000)],
        Move.UNEXPECTED: [("unexpected", request)],
        Move.TWICE: [("reply", request), ("reply", request)],
        Move.SILENT: [],
        Move.LEAVE: [("leave", request)],
    }[move]


def _expected(moves: list[Move], decisions: int) -> set[tuple[Outcome, int, int]]:
    """The possible (outcome, timeouts, rejected) of a seat asked ``decisions`` times, by a model
    of the arbiter's reading of a seat's inbox (written from the protocol doc's fault table)."""
    inbox: list[tuple[str, int]] = []
    timed_out: set[int] = set()
    unanswered: set[int] = set()
    timeouts = rejected = 0
    gone = late_leave = False
    for request in range(1, decisions + 1):
        if gone:
            break
        move = moves[request - 1] if request <= len(moves) else Move.GOOD
        sent = False
        settled = False
        while not settled:
            if not inbox:
                if sent:  # nothing more will come: the deadline passes
                    timed_out.add(request)
                    timeouts += 1
                    break
                inbox += _bot_messages(move, request)
                sent = True
                continue
            kind, rid = inbox.pop(0)
            if kind == "leave":
                gone = True
                break
            if kind == "unexpected":
                unanswered.add(request)
                rejected += 1
                settled = True
            elif rid in timed_out:
                continue  # too late: turned away, not counted
            elif rid in unanswered:
                unanswered.discard(rid)  # already settled by default: turned away, not counted
            elif rid != request:
                unanswered.add(request)
                rejected += 1
                settled = True
            elif kind == "illegal":
                rejected += 1
                settled = True
            else:
                settled = True
        if not sent:  # settled by what was left over; the bot still answers this request
            inbox += _bot_messages(move, request)
        if ("leave", request) in inbox:
            if request < decisions:
                gone = True  # noticed at the next decision
            else:
                late_leave = True
    if gone:
        return {(Outcome.DISCONNECTED, timeouts, rejected)}
    if rejected:
        outcome = Outcome.ILLEGAL_ACTIONS
    elif timeouts:
        outcome = Outcome.TIMEOUTS
    else:
        outcome = Outcome.NORMAL
    # a bot that leaves in answer to its last request, after the arbiter has settled it from
    # what was left over, may or may not be seen leaving before the match ends (a real race)
    if late_leave:
        return {(outcome, timeouts, rejected), (Outcome.DISCONNECTED, timeouts, rejected)}
    return {(outcome, timeouts, rejected)}


#: Short matches of every game: (game, params).
MATCHES = {
    "as-nas": {"deals": 3},
    "fipsen": {"deals": 2},
    "felduz": {"stack": 6, "round_cap": 3},
    "scauver": {"stack": 6, "round_cap": 3},
}


def _check(tmp_path: Path, game: str, params: dict[str, int], scripts: list[list[Move]],
           seed: int) -> None:  # fmt: skip
    replay_path = tmp_path / f"m{next(_RUNS)}.jsonl"  # examples may repeat: one file each
    writer = ReplayWriter(replay_path)
    config = MatchConfig(game, params, seed=seed, clock=CLOCK, connect_timeout_s=5)
    match = Match(config, "prop", writer)
    illegal = match.game.info.num_distinct_actions  # one past the largest id

    async def main() -> None:
        seats = [
            asyncio.create_task(_seat(link, moves, seed + link.seat, illegal))
            for link, moves in zip(match.seats, scripts, strict=True)
        ]
        await match.run()
        await asyncio.gather(*seats)

    asyncio.run(main())
    replay = read_replay(replay_path)
    verify(replay)  # the places, too, follow from the play
    result = replay.records[-1].data["seats"]
    assert sorted(row["seat"] for row in result) == list(range(match.num_seats))
    places = [row["place"] for row in result]
    assert all(1 <= p <= match.num_seats for p in places)
    assert min(places) == 1
    for seat, moves in enumerate(scripts):
        decisions = sum(1 for r in replay.records if r.type == "action" and r.data["seat"] == seat)
        possible = _expected(moves, decisions)
        row = result[seat]
        got = (Outcome(row["outcome"]), row["timeouts"], row["rejected"])
        assert got in possible, f"seat {seat}: {[m.value for m in moves[:decisions]]}"


_SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}


@settings(max_examples=60, **_SETTINGS)  # type: ignore[arg-type]
@given(scripts=st.lists(script, min_size=4, max_size=4), seed=st.integers(0, 2**20))
def test_any_fault_sequence_gives_a_verified_replay_and_exact_counts(
    tmp_path: Path, scripts: list[list[Move]], seed: int
) -> None:
    _check(tmp_path, "as-nas", MATCHES["as-nas"], scripts, seed)


@pytest.mark.parametrize("game", ["fipsen", "felduz", "scauver"])
@settings(max_examples=15, **_SETTINGS)  # type: ignore[arg-type]
@given(
    scripts=st.lists(script, min_size=4, max_size=4),
    seed=st.integers(0, 2**20),
    players=st.integers(2, 4),
)
def test_any_fault_sequence_in_any_game_gives_a_verified_replay_and_exact_counts(
    tmp_path: Path, game: str, scripts: list[list[Move]], seed: int, players: int
) -> None:
    params = dict(MATCHES[game])
    if game != "fipsen":  # Fipsen is for four; the chip games for 2 to 4
        params["players"] = players
        scripts = scripts[:players]
    _check(tmp_path, game, params, scripts, seed)
