"""The structured round results (format v2 ``round_end.result``) say what the raw records say:
each game's fields checked against the actions and deltas of real matches, worked out here
independently of ``games/<game>/record.py``."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from replay_kit import play

from croupier.replay import read_replay


def _rounds(path: Path) -> list[tuple[list[dict], dict]]:
    """(the round's action records, its round_end record) per round."""
    out, actions = [], []
    for line in path.read_text().splitlines()[1:]:
        record = json.loads(line)
        if record["type"] == "action":
            actions.append(record)
        elif record["type"] == "round_end":
            out.append((actions, record))
            actions = []
    return out


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("results")


def test_as_nas_results(out: Path) -> None:
    for seed in range(6):
        path = play(out, "as-nas", seed, params={"deals": 6})
        for actions, end in _rounds(path):
            result, deltas = end["result"], [Fraction(d) for d in end["deltas"]]
            folded = {a["seat"] for a in actions if a["label"] == "Fold"}
            # whoever gained won (a winner may only get its own stake back)
            assert {s for s, d in enumerate(deltas) if d > 0} <= set(result["winners"])
            assert all(deltas[s] >= 0 for s in result["winners"])
            assert not folded & set(result["winners"])
            for seat, hand in enumerate(result["revealed"]):
                assert (hand is None) == (seat in folded or not result["showdown"])
                assert hand is None or len(hand) == 5
            # the pot is what the losers paid in plus what the winners had staked
            assert sum(d for d in deltas if d < 0) == -sum(d for d in deltas if d > 0)


def test_fipsen_results_name_the_declarer_after_a_hold(out: Path) -> None:
    holds = 0
    for seed in range(12):
        path = play(out, "fipsen", seed, params={"deals": 8})
        for actions, end in _rounds(path):
            result, deltas = end["result"], [Fraction(d) for d in end["deltas"]]
            bidding = [a for a in actions if a["label"].startswith(("Bid:", "Hold", "Kieker"))]
            if not bidding:
                assert result["outcome"] in ("throw_in", "siebener_fips")
                continue
            last = bidding[-1]
            if last["label"] == "Hold":  # the senior took the bid over: it declares
                holds += 1
                assert result["declarer"] == last["seat"]
                assert result["contract"] == next(
                    b["label"].removeprefix("Bid:")
                    for b in reversed(bidding)
                    if b["label"] != "Hold"
                )
            else:
                assert result["declarer"] == last["seat"]
                assert result["contract"] == last["label"].removeprefix("Bid:")
            declarer = result["declarer"]
            assert (deltas[declarer] > 0) == (result["outcome"] == "won")
            assert sum(result["tricks_won"]) == len(result["tricks"])
            assert result["tricks_won"][declarer] == result["declarer_tricks"]
            plays = [
                a["label"].removeprefix("Play:") for a in actions if a["label"].startswith("Play:")
            ]
            assert [c for t in result["tricks"] for c in t["cards"]] == plays[
                : 4 * len(result["tricks"])
            ]
    assert holds >= 3, "no Hold was played: the test proves nothing"


@pytest.mark.parametrize("game", ["felduz", "scauver"])
def test_chip_game_results(out: Path, game: str) -> None:
    criteria = set()
    for seed in range(10):
        path = play(out, game, seed, params={"round_cap": 12})
        replay = read_replay(path)
        seated = set(range(3))
        for (actions, end), result in zip(_rounds(path), replay.round_results, strict=True):
            assert end["result"] == result
            assert sum(result["shares"]) == result["pot"]
            assert result["winners"] == [s for s, p in enumerate(result["shares"]) if p > 0]
            assert {a["seat"] for a in actions} <= seated  # eliminated seats no longer act
            seated -= set(result["eliminated"])
            criteria.add(result["decided_by"])
            if not result["showdown"]:
                assert result["decided_by"] in (None, "lone_winner")
    assert len(criteria) >= 2, criteria  # a showdown, and a round without one
