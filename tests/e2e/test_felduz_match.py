"""End to end: Felduz matches of real bot processes over real gRPC, through the ``croupier``
command, whose replays verify and whose streams keep every seat's hidden cards from the others."""

from __future__ import annotations

import asyncio
import re
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from e2e_kit import Kit, croupier, play_match, read_stream
from google.protobuf.message import Message

from croupier.arbiter import ClockRules, MatchConfig, Outcome
from croupier.games import CHANCE, cards40, get_game
from croupier.games.felduz.rules import Phase
from croupier.replay import Replay, read_replay, verify
from croupier.runner import run_match
from croupier.transport import SandboxOptions
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import chips_pb2

pytestmark = pytest.mark.e2e

HEURISTIC = [sys.executable, "-m", "croupier_bots.felduz_heuristic"]


def test_a_three_seat_match_from_the_command_line_verifies(tmp_path: Path) -> None:
    args = ("--game", "felduz", "--players", 3, "--deals", 6, "--seed", 5)
    played = play_match(tmp_path, *args, timeout=180)
    done, replay = played.done, played.replay
    assert "Traceback" not in done.stderr
    bots = re.findall(r"^\d\s+(\d)\s+(\S+)\s+(\S+)\s+normal\s+0\s+0$", done.stdout, re.M)
    assert sorted((int(s), b) for s, b, _ in bots) == [
        (0, "felduz-heuristic"),
        (1, "random"),
        (2, "felduz-heuristic"),
    ]
    assert sum(Fraction(score) for _, _, score in bots) == 300  # chips are conserved
    checked = croupier("replay", "verify", replay)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith(f"ok   {replay}: ")
    report = verify(read_replay(replay))
    assert sum(report.scores) == 300
    rounds = [r.data for r in read_replay(replay).records if r.type == "round_end"]
    assert 1 <= len(rounds) <= 6
    assert all(sum(Fraction(d) for d in r["deltas"]) == 0 for r in rounds)
    shown = croupier("replay", "show", "--seat", 1, replay)
    assert shown.returncode == 0, shown.stderr
    assert "seat 1 is dealt" in shown.stdout
    assert "seat 0 is dealt" not in shown.stdout


def test_a_seat_is_sent_no_card_its_observation_does_not_show(e2e: Kit) -> None:
    """Seat 1 is the recorder bot, which keeps every message it receives. Every card in those
    messages must be one the rules let seat 1 see, and some other seat's hidden cards must have
    stayed hidden (or the check proves nothing)."""
    stream = e2e.streams / "seat1.bin"
    config = MatchConfig(
        game="felduz",
        params={"players": 3, "stack": 12, "round_cap": 4},
        seed=1,
        clock=ClockRules(move_time_ms=5000, time_bank_ms=10000),
        connect_timeout_s=20.0,
    )
    bots = [HEURISTIC, e2e.bot("recorder", stream), HEURISTIC]
    sandbox = SandboxOptions(writable=(e2e.streams,))
    run = asyncio.run(run_match(config, bots, e2e.tmp / "out", sandbox=sandbox))
    assert not run.result.cancelled
    assert all(r.outcome is Outcome.NORMAL for r in run.result.seats)
    replay = read_replay(run.replay)
    verify(replay)
    sent: set[int] = set()
    for raw in read_stream(stream):
        sent |= _card_ids(pb.PlayResponse.FromString(raw))
    seen, hidden = _views(replay, 1)
    assert sent
    assert sent <= seen, sorted(cards40.card_label(c) for c in sent - seen)
    assert hidden - seen, "no card was ever hidden from seat 1: the test proves nothing"


def _card_ids(message: Message) -> set[int]:
    """The ids of every ``Card40`` anywhere inside ``message``."""
    if isinstance(message, chips_pb2.Card40):
        return {message.id}
    out: set[int] = set()
    for field, value in message.ListFields():
        if field.message_type is None:
            continue
        for item in [value] if isinstance(value, Message) else value:
            if isinstance(item, Message):  # not the keys of a map field
                out |= _card_ids(item)
    return out


def _views(replay: Replay, seat: int) -> tuple[set[int], set[int]]:
    """From the rules (the omniscient states, not ``observe``): the cards ``seat`` may see at
    some point (its own, every open field once all have split, the fields and reserves shown at
    showdowns), and the cards that sat in another seat's closed field or reserve."""
    game = get_game("felduz")
    state = game.initial_state(game.info.make_params(replay.header["params"]))
    seen: set[int] = set()
    hidden: set[int] = set()
    for rec in replay.records:
        if rec.type == "chance":
            state = game.apply_chance(state, tuple(rec.data["outcome"]))
        elif rec.type == "action":
            state = game.apply(state, rec.data["action"])
        else:
            continue
        seen |= {*state.closed[seat], *state.reserve[seat]}
        if state.phase is not Phase.OPENING:
            seen |= {c for field in state.open for c in field}
        for past in state.past:
            parts = (*past.result.fields, *past.result.reserves)
            seen |= {c for part in parts if part for c in part}
        if game.current_player(state) != CHANCE:
            for other in range(game.num_players(state)):
                if other != seat:
                    hidden |= set(state.closed[other]) | set(state.reserve[other])
    return seen, hidden
