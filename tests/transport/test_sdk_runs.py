"""Ranges stay ranges in the Python SDK (issue 20): a bot reads the legal ids of a decision as the
ranges the wire carries (``Decision.legal_runs``), checks an id by arithmetic
(``Decision.is_legal``) and reads the k-th id (``LegalActions.id_at``) without the SDK building
one ``LegalAction`` per amount or listing 1,000 ids; ``legal_actions`` and ``legal_ids`` are
unchanged.

The requests are the arbiter's own (``decision_request`` encoded by the game's codec,
serialized and parsed back), of random matches of every game, the chip games at stack 1,000.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from wire_kit import decisions

import croupier_bot._view as view
from croupier.arbiter import Clocks, decision_request
from croupier.games import get_spec
from croupier.transport import play_local
from croupier.transport._codec import encode
from croupier_bot import Bot, Decision, LegalActions, Seat
from croupier_bot import proto as pb

PARAMS: dict[str, dict[str, int]] = {
    "as-nas": {"deals": 3},
    "fipsen": {"deals": 3},
    "felduz": {"players": 3, "stack": 1000, "round_cap": 4, "double_every": 0},
    "scauver": {"players": 3, "stack": 1000, "round_cap": 4, "double_every": 0},
    # bets are multiples of the amphora: runs whose ids step by 3
    "felduz-amphora": {"players": 2, "stack": 1000, "amphora": 3, "round_cap": 4,
                       "double_every": 0},
    "scauver-amphora": {"players": 2, "stack": 1000, "amphora": 3, "round_cap": 4,
                        "double_every": 0},
}  # fmt: skip


@pytest.fixture
def no_entry_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Building one action of a range (``LegalActions[k]`` of a run) fails the test."""

    def refuse(entry: Any, k: int) -> Any:
        raise AssertionError("the SDK built an entry of a range")

    monkeypatch.setattr(view, "_expanded", refuse)


def _probes(ids: list[int], runs: tuple[range, ...], rng: random.Random) -> list[Any]:
    """Ids next to every run's ends and steps, every id's neighbours, random ids, non-ints."""
    near = {i + d for i in ids for d in (-1, 1)}
    for run in runs:
        near |= {run.start - run.step, run.start - 1, run.stop - 1, run.stop, run.stop + 1,
                 run.stop - 1 + run.step, run.start + run.step // 2}  # fmt: skip
    near |= {rng.randrange(-5, max(ids) + 50) for _ in range(200)}
    return [*sorted(near), True, False, 1.0, float(ids[0]), str(ids[0]), None, np.int64(ids[0])]


@pytest.mark.parametrize("game", sorted(PARAMS))
def test_the_runs_are_the_legal_ids_and_listing_them_builds_no_entry(
    game: str, no_entry_built: None
) -> None:
    spec = get_spec(game.removesuffix("-amphora"))
    rules, codec = spec.game, spec.codec
    params = rules.info.make_params(PARAMS[game])
    rng = random.Random(game)
    checked = ranged = stepped = 0
    walks = (decisions(rules, params, seed) for seed in (11, 12, 13))
    for state, _ in (ply for walk in walks for ply in walk):
        request = decision_request(rules, state, rules.current_player(state), 1, Clocks(0, 0, 0))
        wire = pb.PlayResponse.FromString(encode(request, codec).SerializeToString()).decision
        actions = LegalActions(wire.legal_actions)
        decision = Decision(1, wire.observation, actions, wire.clocks, None)  # type: ignore[arg-type]
        legal = list(request.legal_actions)
        runs = decision.legal_runs
        assert all(isinstance(r, range) and len(r) > 0 for r in runs)
        assert [i for r in runs for i in r] == legal == actions.ids == decision.legal_ids
        assert len(runs) == len(wire.legal_actions) == len(actions.entries)
        assert sum(map(len, runs)) == len(actions) == len(legal)
        ranged += len(runs) < len(legal)
        stepped += any(r.step > 1 for r in runs)
        members = set(legal)
        for probe in _probes(legal, runs, rng):
            expected = type(probe) in (int, np.int64) and int(probe) in members
            assert decision.is_legal(probe) is expected, (probe, runs)
        for k in {0, len(legal) // 3, len(legal) - 1, rng.randrange(len(legal))}:
            assert actions.id_at(k) == legal[k]
            assert actions.id_at(k - len(legal)) == legal[k]
        for k in (len(legal), -len(legal) - 1):
            with pytest.raises(IndexError):
                actions.id_at(k)
        checked += 1
    assert checked > 20
    if game.startswith(("felduz", "scauver")):
        assert ranged > 3  # runs of up to a thousand bets went out as ranges
    if game.endswith("-amphora"):
        assert stepped > 3


def test_the_runs_of_an_amount_range_with_a_step() -> None:
    entry = pb.LegalAction(id=2 + 4, label="Bet:4", amounts=pb.AmountRange(lowest=4, highest=16,
                                                                            step=4))  # fmt: skip
    entry.felduz.chip.amount = 4
    fold = pb.LegalAction(id=4004, label="NoBet")
    actions = LegalActions([pb.LegalAction(id=1, label="Out"), entry, fold])
    assert actions.runs == (range(1, 2), range(6, 19, 4), range(4004, 4005))
    assert actions.entries[1] is entry
    assert [i for i in range(-2, 4010) if actions.has_id(i)] == [1, 6, 10, 14, 18, 4004]
    assert [actions.id_at(k) for k in range(len(actions))] == actions.ids
    assert [a.id for a in actions] == actions.ids  # the list API as before


def test_the_id_of_an_amount_is_arithmetic_on_its_run(no_entry_built: None) -> None:
    """``id_for_amount``: the id of the bet of ``a`` chips is ``entry.id + a - lowest`` when
    the run offers ``a`` (on its step), ``None`` otherwise or for another kind; the same from a
    Decision on a plain list (one action per amount), and no entry of the run is built."""
    entry = pb.LegalAction(id=2 + 4, label="Bet:4", amounts=pb.AmountRange(lowest=4, highest=16,
                                                                            step=4))  # fmt: skip
    actions = LegalActions([pb.LegalAction(id=1, label="Out"), entry])
    decision = Decision(1, None, actions, None, None)  # type: ignore[arg-type]
    assert [decision.id_for_amount(a) for a in (4, 8, 16)] == [6, 10, 18]
    assert decision.id_for_amount(6) is None  # not on the step
    assert decision.id_for_amount(20) is None  # above the run
    assert decision.id_for_amount(8, "Bet") == 10
    assert decision.id_for_amount(8, "Raise") is None
    plain = [pb.LegalAction(id=i, label=f"Bet:{a}") for i, a in ((6, 4), (10, 8))]
    listed = Decision(1, None, plain, None, None)  # type: ignore[arg-type]
    assert (listed.id_for_amount(8), listed.id_for_amount(6)) == (10, None)


def test_a_decision_of_a_plain_list_reads_runs_too() -> None:
    legal = [pb.LegalAction(id=i, label=str(i)) for i in (7, 2, 3)]
    decision = Decision(1, None, legal, None, None)  # type: ignore[arg-type]
    assert decision.legal_runs == (range(2, 3), range(3, 4), range(7, 8))
    assert [i for i in range(10) if decision.is_legal(i)] == [2, 3, 7]
    assert not decision.is_legal(True)


class _RunsBot(Bot):
    """Plays from the runs alone: now and then a small bet or raise from the last run of them
    (its 20th amount), else the first id; checks its pick with ``is_legal``."""

    def __init__(self) -> None:
        self.widest = 0
        self.decisions = 0

    def act(self, decision: Decision) -> int:
        runs = decision.legal_runs
        self.widest = max(self.widest, *map(len, runs))
        self.decisions += 1
        wide = [r for r in runs if len(r) > 1]
        pick = wide[-1][19] if wide and self.decisions % 7 == 0 else runs[0][0]
        assert decision.is_legal(pick)
        return pick


def test_a_bot_plays_a_match_at_stack_1000_from_the_runs_alone(no_entry_built: None) -> None:
    bots = [_RunsBot() for _ in range(2)]
    params = {"players": 2, "stack": 1000, "round_cap": 10, "double_every": 0}
    play_local("felduz", params, 5, [Seat(b) for b in bots])
    assert sum(b.decisions for b in bots) > 20
    assert max(b.widest for b in bots) > 500  # a run of hundreds of bets, read as one range
