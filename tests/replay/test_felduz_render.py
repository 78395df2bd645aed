"""Felduz hand histories (``croupier replay show``): every view is readable, the showdown events
are narrated, and a seat's or the public view names no card its observation never showed."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from croupier.games import CHANCE, cards40, chips, get_game, get_spec
from croupier.games.felduz.rules import Criterion, PastRound, Phase, RoundResult, ShowdownEvent
from croupier.replay import read_replay, render

G = get_game("felduz")
CARD = re.compile(r"(?:[A2-7JQK])[♣♦♥♠]")


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("felduz")
    subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", "felduz", "--players", "3",
         "--deals", "5", "--param", "stack=20", "--seed", "12", "--out", str(out)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    (replay,) = out.glob("*.jsonl")
    return replay


def sections(lines: list[str]) -> dict[int, list[str]]:
    """The lines of each round (0-based) of a hand history."""
    out: dict[int, list[str]] = {}
    current = None
    for line in lines:
        header = re.match(r"── Round (\d+)/", line)
        if header:
            current = int(header[1]) - 1
            out[current] = []
        elif line.startswith("── Final standings"):
            current = None
        elif current is not None:
            out[current].append(line)
    return out


def seen_cards(replay_file: Path, seat: int | None) -> dict[int, set[str]]:
    """Per round, the labels of every card ``seat``'s observations showed at some point."""
    replay = read_replay(replay_file)
    state = G.initial_state(G.info.make_params(replay.header["params"]))
    seen: dict[int, set[str]] = {}

    def look() -> None:
        obs = G.observe(state, seat)
        cards = {c for f in obs.open_fields for c in f} | set(obs.closed) | set(obs.reserve)
        result = obs.last_round
        if result is not None:
            shown = [*result.fields, *result.reserves]
            seen.setdefault(result.round, set()).update(
                cards40.card_label(c) for part in shown if part for c in part
            )
        if G.current_player(state) != CHANCE:
            seen.setdefault(G.round_index(state), set()).update(map(cards40.card_label, cards))

    for rec in replay.records:
        if rec.type == "chance":
            state = G.apply_chance(state, tuple(rec.data["outcome"]))
        elif rec.type == "action":
            state = G.apply(state, rec.data["action"])
        look()
    return seen


def test_the_omniscient_view_narrates_deals_showdowns_and_standings(replay_file: Path) -> None:
    lines = list(render(read_replay(replay_file)))
    text = "\n".join(lines)
    assert lines[0].startswith("Felduz · match ")
    assert "omniscient view" in lines[0]
    assert "[chance] Round 1, dealer seat " in text
    assert re.search(r"── Round 1/5 · dealer seat \d · A 1 · cap 20 · chips 20 20 20 ──", text)
    assert "Open:[" in text
    assert "showdown: seat " in text or "is the last one in" in text
    assert re.search(r"   pot \d+ → seat \d \+\d+", text)
    assert "── Final standings ──" in text


@pytest.mark.parametrize("seat", [0, 1, 2, None])
def test_a_seat_or_public_view_names_only_cards_its_observations_showed(
    replay_file: Path, seat: int | None
) -> None:
    lines = list(render(read_replay(replay_file), seat))
    assert ("public view" if seat is None else f"seat {seat}'s view") in lines[0]
    assert not any("[chance]" in line for line in lines)
    allowed = seen_cards(replay_file, seat)
    by_round = sections(lines)
    assert by_round
    for index, round_lines in by_round.items():
        for line in round_lines:
            for label in CARD.findall(line):
                assert label in allowed.get(index, set()), f"round {index + 1}: {line}"
            assert "is dealt []" not in line  # an eliminated seat is dealt nothing
            if seat is None:
                assert "is dealt" not in line
                assert "Open:[" not in line
                assert "Reserve:[" not in line
            else:
                for other in {0, 1, 2} - {seat}:
                    assert not line.startswith(f"   seat {other}: Open:")
                    assert not line.startswith(f"   seat {other}: Reserve:")
                    assert not line.startswith(f"   seat {other} draws")


def _round_end(result: RoundResult) -> list[str]:
    obs = G.observe(G.initial_state({"players": 3}), None)
    obs = dataclasses.replace(obs, past_rounds=(PastRound((), result),))
    return get_spec("felduz").narrator.round_end(obs)


def test_every_showdown_event_is_narrated() -> None:
    fields = ((0, 1, 2, 3, 4, 5, 6, 7, 8, 9), (10, 11, 12, 13, 14, 15, 16, 17, 18, 19), None)
    events = tuple(
        ShowdownEvent(c, seats)
        for c, seats in (
            (Criterion.QUALIFIED, (0, 1)),
            (Criterion.POINTS, (0, 1)),
            (Criterion.RESERVE, (0, 1)),
            (Criterion.LENGTH, (0, 1)),
            (Criterion.RANK, (0, 1)),
            (Criterion.SPLIT, (0, 1)),
        )
    )
    settlement = chips.Settlement((0, 1), 7, (4, 3, 0), (2,), True)
    lines = _round_end(RoundResult(3, 1, settlement, fields, ((), (), None), events))
    assert lines == [
        "   showdown: seat 0 field [A♣ 2♣ 3♣ 4♣ 5♣ 6♣ 7♣ J♣ Q♣ K♣] = 55, reserve [] = 0",
        "   showdown: seat 1 field [A♦ 2♦ 3♦ 4♦ 5♦ 6♦ 7♦ J♦ Q♦ K♦] = 55, reserve [] = 0",
        "   by points: seats 0, 1 reach 40 or more",
        "   by points: the lowest field sum → seats 0, 1",
        "   by points, tie: the lowest reserve sum → seats 0, 1",
        "   by length: the fewest field cards → seats 0, 1",
        "   by rank: the lowest cards → seats 0, 1",
        "   still tied: the pot is split between seats 0, 1",
        "   pot 7 → seat 0 +4  seat 1 +3",
        "   eliminated: seat 2",
    ]


def test_nobody_qualifying_and_a_lone_winner_are_narrated() -> None:
    fields = ((0, 1), (10, 11), None)
    events = (ShowdownEvent(Criterion.QUALIFIED, (0, 1)), ShowdownEvent(Criterion.RANK, (0,)))
    settlement = chips.Settlement((0,), 4, (4, 0, 0), (), True)
    lines = _round_end(RoundResult(0, 0, settlement, fields, ((), (), None), events))
    assert "   by points: nobody reaches 40; every field stays in" in lines
    assert "   by rank: the lowest cards → seat 0" in lines
    lone = chips.Settlement((2,), 3, (0, 0, 3), (), False)
    lines = _round_end(RoundResult(0, 0, lone, (None,) * 3, (None,) * 3, ()))
    assert lines == ["   seat 2 is the last one in; no field is shown", "   pot 3 → seat 2 +3"]


def test_an_eliminated_seat_is_not_narrated_an_empty_hand() -> None:
    private = get_spec("felduz").narrator.private
    before = G.observe(G.initial_state({"players": 3}), 0)
    out = dataclasses.replace(before, phase=Phase.OPENING, closed=())
    assert private(before, out) == []
    dealt = dataclasses.replace(out, closed=(0, 1, 2, 3, 4))
    assert private(before, dealt) == ["   seat 0 is dealt [A♣ 2♣ 3♣ 4♣ 5♣]"]
