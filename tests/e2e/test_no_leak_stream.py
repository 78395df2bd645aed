"""No leak, end to end (DESIGN.md): change what a seat cannot see, replay the match with the same
seed and bots, and the bytes that seat's bot received are the same, and so is its view of the
replay.

Two matches run for real (arbiter, gRPC, bot processes). The second gets, through
``MatchConfig.chance_script``, the first one's deals with the hands of two seats that seat 0 never
sees (folded, or no showdown) swapped. Every bot's choices depend only on its seed and its legal
actions, never on cards, so the play is the same; only what seat 0 may not see differs.

Seats 0 and 1 are played either on Play streams of their own (``recorder.py``) or, each by a
session bot process of its own, multiplexed on its Session stream (protocol 3, ``mux_bot.py``):
a seat's items there must be as byte-identical as its Play stream.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import Kit, config, flattened, read_stream

from croupier.games import CHANCE, get_game
from croupier.replay import OMNISCIENT, read_replay, render
from croupier.runner import MatchRun, run_match
from croupier.transport import ArbiterServer, BotPool, SandboxOptions
from croupier.v1 import bot_pb2 as pb

pytestmark = pytest.mark.e2e

GAME = get_game("as-nas")
WATCHER = 0  # the seat whose stream must not change
OTHER = 1  # a seat whose hand does change: its stream must differ (the check can fail)


Deal = tuple[tuple[int, ...], set[int], set[int]]


def _deals(replay: Path) -> list[Deal]:
    """Per deal: its chance outcome, the seats shown at its end, and the seats that looked."""
    parsed = read_replay(replay)
    state = GAME.initial_state(parsed.header["params"])
    out: list[Deal] = []
    for rec in parsed.records:
        if rec.type == "chance":
            outcome = tuple(rec.data["outcome"])
            state = GAME.apply_chance(state, outcome)
            if len(outcome) > 1:
                out.append((outcome, set(), set()))
        elif rec.type == "action":
            _, shown, looked = out[-1]
            if rec.data["label"] == "Look":
                looked.add(rec.data["seat"])
            before = len(state.past)
            state = GAME.apply(state, rec.data["action"])
            if len(state.past) > before:
                revealed = state.past[-1].result.revealed
                shown.update(s for s, hand in enumerate(revealed) if hand is not None)
    return out


def _outcome(dealer: int, hands: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The deck order that deals ``hands`` (one at a time, from the dealer's right)."""
    order = [(dealer - k) % 4 for k in range(1, 5)]
    return tuple(hands[order[i % 4]][i // 4] for i in range(20))


MUX = [sys.executable, str(Path(__file__).parent / "bots" / "mux_bot.py")]


def _multiplexed(
    kit: Kit, run: str, chance_script: tuple[tuple[int, ...], ...] = ()
) -> tuple[MatchRun, dict[str, Path]]:
    """The match with seats 0 and 1 played by two session bots, multiplexed; its run and the
    two seats' recorded streams (``{run}0``, ``{run}1``)."""
    record = kit.streams / run
    record.mkdir()
    record.chmod(0o777)

    async def play() -> MatchRun:
        server = ArbiterServer()
        await server.start()
        sandbox = SandboxOptions(writable=(kit.streams,))
        logs = kit.tmp / f"logs-{run}"
        logs.mkdir()
        pool = BotPool(server, logs, sandbox=sandbox)
        for name in ("w", "o"):
            pool.add(name, [*MUX, "--record", str(record), "--name", "recorder"])
        try:
            seats: list[Any] = [pool.assigner("w"), pool.assigner("o"), kit.random, kit.random]
            conf = dataclasses.replace(config(seed=21, deals=6), chance_script=chance_script)
            return await run_match(conf, seats, kit.tmp / run, server=server,
                                   match_id="as-nas-noleak", sandbox=sandbox)  # fmt: skip
        finally:
            await pool.close()
            await server.stop()

    played = asyncio.run(play())
    return played, {f"{run}{k}": record / f"as-nas-noleak.seat{k}.bin" for k in (0, 1)}


@pytest.mark.parametrize("carried", ["play-streams", "multiplexed"])
def test_changing_cards_a_seat_cannot_see_leaves_its_stream_byte_identical(
    tmp_path: Path, carried: str
) -> None:
    kit = Kit(tmp_path)
    if carried == "play-streams":
        streams = {name: kit.streams / f"{name}.bin" for name in ("a0", "a1", "b0", "b1")}
        bots_a = [kit.bot("recorder", streams["a0"]), kit.bot("recorder", streams["a1"]),
                  kit.random, kit.random]  # fmt: skip
        first = kit.run(bots_a, out="a", seed=21, deals=6, match_id="as-nas-noleak")
    else:
        first, streams = _multiplexed(kit, "a")

    records = read_replay(first.replay).records
    script = [tuple(r.data["outcome"]) for r in records if r.type == "chance"]
    dealer = script[0][0]
    changed = other_changed_and_seen = 0
    for index, (outcome, shown, looked) in enumerate(_deals(first.replay)):
        unseen = [s for s in range(4) if s != WATCHER and s not in shown]
        if len(unseen) >= 2:
            a, b = unseen[0], unseen[1]
            by_seat = _hands_in_deal_order(dealer, outcome)
            by_seat[a], by_seat[b] = by_seat[b], by_seat[a]
            script[1 + index] = _outcome(dealer, by_seat)
            if sorted(c // 4 for c in by_seat[a]) != sorted(c // 4 for c in by_seat[b]):
                changed += 1
                if OTHER in (a, b) and OTHER in looked:
                    other_changed_and_seen += 1
        dealer = (dealer - 1) % 4
    assert changed, "no deal had two hands seat 0 never sees: pick another seed"
    assert other_changed_and_seen, "seat 1 never saw a changed hand: pick another seed"

    if carried == "play-streams":
        bots_b = [kit.bot("recorder", streams["b0"]), kit.bot("recorder", streams["b1"]),
                  kit.random, kit.random]  # fmt: skip
        second = kit.run(
            bots_b, out="b", seed=21, deals=6, match_id="as-nas-noleak", chance_script=tuple(script)
        )
    else:
        second, more = _multiplexed(kit, "b", tuple(script))
        streams.update(more)
    assert [
        r.data["outcome"] for r in read_replay(second.replay).records if r.type == "chance"
    ] == [list(o) for o in script]
    assert flattened(read_stream(streams["a0"])) == flattened(read_stream(streams["b0"]))
    # what was compared holds every finished deal's record (history and result): the one place
    # a finished deal goes on the wire, as a decision request carries the current deal only
    records = [
        e.deal_ended.as_nas_past
        for raw in read_stream(streams["a0"])
        for e in pb.PlayResponse.FromString(raw).events
        if e.WhichOneof("kind") == "deal_ended"
    ]
    assert len(records) == 6
    assert all(r.history and r.HasField("result") for r in records)
    assert flattened(read_stream(streams["a1"])) != flattened(read_stream(streams["b1"]))
    # the seat's view of the replay (`croupier replay show --seat 0`) and the public view too
    one, two = read_replay(first.replay), read_replay(second.replay)
    assert list(render(one, WATCHER)) == list(render(two, WATCHER))
    assert list(render(one, None)) == list(render(two, None))
    assert list(render(one, OTHER)) != list(render(two, OTHER))
    assert list(render(one, OMNISCIENT)) != list(render(two, OMNISCIENT))


def _hands_in_deal_order(dealer: int, outcome: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Each seat's cards in the order the deal gave them (inverse of :func:`_outcome`)."""
    order = [(dealer - k) % 4 for k in range(1, 5)]
    hands: list[list[int]] = [[] for _ in range(4)]
    for i, card in enumerate(outcome):
        hands[order[i % 4]].append(card)
    return [tuple(h) for h in hands]


def test_the_script_helpers_invert_each_other() -> None:
    outcome = tuple(range(19, -1, -1))
    assert _outcome(2, _hands_in_deal_order(2, outcome)) == outcome
    state = GAME.apply_chance(GAME.apply_chance(GAME.initial_state({}), (2,)), outcome)
    assert GAME.current_player(state) != CHANCE
    hands = _hands_in_deal_order(2, outcome)
    assert [tuple(sorted(h)) for h in hands] == list(state.hands)
