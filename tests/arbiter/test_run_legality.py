"""No cheating through the runs: the arbiter and ``replay verify`` check a chip game's bets by
arithmetic over runs (issue 20), and that check must refuse every id the legal list lacks.

A real match in this process (the arbiter, its replay writer), Felduz at ``stack = 1000`` with
``amphora = 3``, so the allowed bets are every multiple of 3 up to the cap: one run of about 330
ids. At its first chance to open a bet, seat 0 answers an id next to that run (off its step,
past its end, a raise with no bet open, an answer with no bet, negative, far out): the arbiter
rejects it as an illegal action and plays the default (``NO_BET``), and the replay verifies.
Then a forged replay: a legal action record changed to a bet off the step, label and all, must
not verify.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from seats_kit import play

from croupier.arbiter import DecisionRequest, MatchConfig, Rejection
from croupier.errors import ReplayMismatchError
from croupier.games import chips, get_game
from croupier.games.felduz.rules import NO_BET, STAND
from croupier.replay import read_replay, verify

GAME = get_game("felduz")
PARAMS = {"players": 2, "stack": 1000, "amphora": 3, "double_every": 0, "round_cap": 3}


def _bets(request: DecisionRequest) -> range:
    """The run of opening bets in ``request`` (empty when it offers none)."""
    runs = [r for r in request.legal_actions.runs if chips.BET <= r[0] < chips.RAISE]
    return runs[0] if runs else range(0)


#: Ids next to the run of bets ``r``: what a cheat would try.
ATTEMPTS = {
    "off the step": lambda r: r[0] + 1,
    "between two amounts": lambda r: r[1] - 1,
    "past the cap": lambda r: r[-1] + r.step,
    "one past the cap": lambda r: r[-1] + 1,
    "a raise with no bet open": lambda r: chips.RAISE + r.step,
    "an answer with no bet open": lambda r: chips.IN,
    "zero chips": lambda r: chips.BET,
    "negative": lambda r: -1,
    "far out": lambda r: 10**9,
}


class Cheat:
    """Seat 0: passive, except one illegal id at its first chance to open a bet."""

    def __init__(self, attempt: str) -> None:
        self.attempt = attempt
        self.tried: int | None = None

    def __call__(self, request: DecisionRequest) -> int:
        bets = _bets(request)
        if self.tried is None and len(bets) > 2:
            self.tried = ATTEMPTS[self.attempt](bets)
            assert self.tried not in request.legal_actions.ids  # the list agrees: illegal
            return self.tried
        return passive(request)


def passive(request: DecisionRequest) -> int:
    legal = request.legal_actions
    for calm in (chips.IN, NO_BET, STAND):
        if calm in legal:
            return calm
    return legal[0]


@pytest.mark.parametrize("attempt", sorted(ATTEMPTS))
def test_an_id_next_to_a_run_is_rejected_as_illegal(attempt: str, tmp_path: Path) -> None:
    cheat = Cheat(attempt)
    path = tmp_path / "m.jsonl"
    seen = play(MatchConfig("felduz", PARAMS, seed=3), "runs", path, [cheat, passive])
    assert cheat.tried is not None
    rejected = [m for m in seen[0] if isinstance(m, Rejection)]
    assert len(rejected) == 1, rejected
    assert rejected[0].fault.value == "illegal_action"
    assert rejected[0].default_played
    records = [json.loads(line) for line in path.read_text().splitlines()]
    faulted = [r for r in records if r["type"] == "action" and r["fault"]]
    assert [(r["seat"], r["fault"], r["action"]) for r in faulted] == [
        (0, "illegal_action", NO_BET)
    ]
    assert f"action {cheat.tried} is not among the legal" in faulted[0]["detail"]


def test_a_strided_bet_on_the_run_is_accepted(tmp_path: Path) -> None:
    """The check can pass: every amount of the run is legal, the last one too."""
    chosen: list[int] = []

    def bettor(request: DecisionRequest) -> int:
        bets = _bets(request)
        if not chosen and len(bets) > 2:
            chosen.append(bets[-1])  # all in, up to the cap
            return bets[-1]
        return passive(request)

    path = tmp_path / "m.jsonl"
    seen = play(MatchConfig("felduz", PARAMS, seed=3), "runs", path, [bettor, passive])
    assert chosen
    assert not any(isinstance(m, Rejection) for side in seen for m in side)


def _forge_off_step(path: Path, out: Path) -> int:
    """``path`` with its first opening bet moved one chip off the step (label fixed up)."""
    records = [json.loads(line) for line in path.read_text().splitlines()]
    index = next(
        i
        for i, r in enumerate(records)
        if r["type"] == "action" and chips.BET < r["action"] < chips.RAISE
    )
    forged = records[index]["action"] + 1
    records[index]["action"] = forged
    records[index]["label"] = GAME.action_label(None, forged)
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    return index


def test_a_replay_with_a_bet_off_the_step_does_not_verify(tmp_path: Path) -> None:
    def bettor(request: DecisionRequest) -> int:
        bets = _bets(request)
        return bets[len(bets) // 2] if len(bets) > 2 else passive(request)

    path = tmp_path / "m.jsonl"
    play(MatchConfig("felduz", PARAMS, seed=3), "runs", path, [bettor, passive])
    forged = tmp_path / "forged.jsonl"
    index = _forge_off_step(path, forged)
    with pytest.raises(ReplayMismatchError, match="is not legal here") as caught:
        verify(read_replay(forged))
    assert caught.value.line == index + 1


def test_a_match_at_stack_1000_lists_no_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ranges stay ranges through the arbiter, the codec, the replay writer and verify: a whole
    random match at ``stack = 1000`` never asks the rules for the list of legal ids, and makes
    a bet's or a raise's label only for a run's lowest amount (the one entry the wire carries
    for the run) and for the amounts played."""
    rules = type(GAME)

    def no_list(self: object, state: object) -> tuple[int, ...]:
        raise AssertionError("the legal ids were listed")

    labelled: set[int] = set()
    label = rules.action_label

    def counting(self: object, state: object, action: int) -> str:
        labelled.add(action)
        return label(self, state, action)  # type: ignore[arg-type]

    monkeypatch.setattr(rules, "legal_actions", no_list)
    monkeypatch.setattr(rules, "action_label", counting)
    rng = random.Random(5)
    lowest: set[int] = set()

    def gambler(request: DecisionRequest) -> int:
        legal = request.legal_actions
        lowest.update(r[0] for r in legal.runs if len(r) > 1)
        return legal[rng.randrange(len(legal))]

    path = tmp_path / "m.jsonl"
    params = {**PARAMS, "amphora": 1, "round_cap": 20}
    play(MatchConfig("felduz", params, seed=11), "runs", path, [gambler, gambler])
    records = [json.loads(line) for line in path.read_text().splitlines()]
    played = {r["action"] for r in records if r["type"] == "action"}
    amounts = {a for a in labelled if chips.BET <= a < chips.CHIP_ACTIONS}
    assert len(lowest) >= 1
    assert amounts <= lowest | played, sorted(amounts - lowest - played)[:10]
