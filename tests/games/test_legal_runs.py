"""The run-based view of legality agrees with the list, in every game (issue 20, "ranges stay
ranges").

``legal_runs(state)`` is the set ``legal_actions(state)`` lists, kept as runs, and
``is_legal(state, a)`` is ``a in legal_actions(state)``: for random states of every game
(chip games up to ``stack = 1000``, amphorae that make uneven amounts), every legal id, the ids
next to every run's ends, ids off a run's step, random ids over the whole id space and values
that are not plain ints. A run-based check that let one id too many through would let a bot
play a move the rules forbid; one that refused a legal id would fault an honest bot.

And the wire: a decision request built from the runs (labels made only for the entries sent)
encodes to the same bytes as one built from the list and every label.
"""

from __future__ import annotations

import bisect
import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.arbiter import Clocks, DecisionRequest, decision_request
from croupier.games import CHANCE, GAMES, TERMINAL, ActionRuns, get_spec
from croupier.games._drive import play, random_moves
from croupier.transport._codec import encode

CHIP_GAMES = ("felduz", "scauver")


def _params(game: str, data: st.DataObject) -> dict[str, int]:
    if game not in CHIP_GAMES:
        return {}
    return {
        "players": data.draw(st.integers(2, 4), label="players"),
        "stack": data.draw(st.sampled_from([1, 3, 10, 100, 999, 1000]), label="stack"),
        "amphora": data.draw(st.sampled_from([1, 2, 3, 7]), label="amphora"),
        "round_cap": 6,
    }


def _states(game: Any, params: dict[str, int], seed: int, limit: int) -> list[Any]:
    """The decision states of a random match (at most ``limit`` plies)."""
    start = game.initial_state(params)
    plies = play(game, start, random_moves(game, np.random.default_rng(seed)), limit=limit)
    states = [start, *(ply.after for ply in plies)]
    return [s for s in states if game.current_player(s) not in (CHANCE, TERMINAL)]


def _probes(legal: tuple[int, ...], runs: ActionRuns, space: int, rng: Any) -> list[object]:
    """Ids worth asking about: every legal id, the neighbours of every run's ends and first
    steps, ids halfway along each step, random ids, and values that are not plain ints."""
    near = {
        x + d
        for r in runs.runs
        for x in (r[0], r[-1], r[0] + r.step, r[-1] - r.step)
        for d in (-2, -1, 0, 1, 2)
    }
    halfway = {r[0] + r.step // 2 for r in runs.runs if r.step > 1}
    rand = set(rng.integers(-3, space + 3, size=40).tolist())
    ints = sorted({*legal, *near, *halfway, *rand, -1, 0, space - 1, space, 10**12})
    odd: list[object] = [True, False, 1.0, 2.5, float(legal[0]), np.int64(legal[-1]), None, "1"]
    return [*ints, *odd]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_is_legal_is_membership_of_the_legal_list(name: str, data: st.DataObject) -> None:
    game = get_spec(name).game
    params = game.info.make_params(_params(name, data))
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    rng = np.random.default_rng(seed)
    space = game.info.num_distinct_actions
    for state in _states(game, params, seed, limit=300):
        legal = game.legal_actions(state)
        runs = game.legal_runs(state)
        assert runs.ids == legal
        assert tuple(runs) == legal
        assert len(runs) == len(legal)
        assert list(runs.runs)
        assert all(r.step > 0 for r in runs.runs)
        assert tuple(itertools.chain.from_iterable(runs.runs)) == legal
        for i in (0, len(legal) // 2, len(legal) - 1, -1, -len(legal)):
            assert runs[i] == legal[i]
        for probe in _probes(legal, runs, space, rng):
            expected = probe in legal
            assert game.is_legal(state, probe) == expected, (name, probe, runs)
            assert (probe in runs) == expected, (name, probe, runs)
            if type(probe) is int:
                assert runs.count_below(probe) == bisect.bisect_left(legal, probe)
                if expected:
                    assert runs.index(probe) == legal.index(probe)


def test_a_chip_bet_step_at_stack_1000_is_two_or_three_runs() -> None:
    """What makes the check arithmetic: a thousand amounts, a handful of runs."""
    for name in CHIP_GAMES:
        game = get_spec(name).game
        params = game.info.make_params({"stack": 1000})
        big = [s for s in _states(game, params, 7, limit=400) if len(game.legal_actions(s)) > 900]
        assert big, name
        for state in big:
            assert len(game.legal_runs(state).runs) <= 3


@st.composite
def run_sets(draw: st.DrawFn) -> tuple[ActionRuns, tuple[int, ...]]:
    """An ascending set of runs (some single ids, some long strided runs) and its ids."""
    ranges = []
    at = draw(st.integers(-5, 50))
    for _ in range(draw(st.integers(0, 5))):
        at += draw(st.integers(1, 30))
        step = draw(st.integers(1, 9))
        count = draw(st.integers(1, 60))
        ranges.append(range(at, at + step * count, step))
        at = ranges[-1][-1]
    ids = tuple(itertools.chain.from_iterable(ranges))
    return ActionRuns.of_ranges(*ranges), ids


@settings(max_examples=300, deadline=None)
@given(run_sets(), st.data())
def test_action_runs_answer_as_the_list_would(case: Any, data: st.DataObject) -> None:
    runs, ids = case
    listed = ActionRuns.of_ids(ids)  # the generic fallback: the same set, kept as its list
    for view in (runs, listed):
        assert view == ids
        assert view == runs
        assert len(view) == len(ids)
        assert bool(view) == bool(ids)
        assert tuple(view) == ids
        assert tuple(reversed(view)) == ids[::-1]
        assert hash(view) == hash(ids)
        lo = ids[0] - 3 if ids else -3
        hi = ids[-1] + 3 if ids else 3
        for x in range(lo, hi + 1):
            assert (x in view) == (x in ids)
            assert view.count_below(x) == bisect.bisect_left(ids, x)
        for i in range(-len(ids), len(ids)):
            assert view[i] == ids[i]
        start = data.draw(st.integers(0, len(ids)), label="start")
        stop = data.draw(st.integers(start, len(ids)), label="stop")
        window = ids[start:stop]
        even = len(window) >= 2 and all(
            b - a == window[1] - window[0] for a, b in itertools.pairwise(window)
        )
        expected = window[1] - window[0] if even else None
        assert view.progression(start, stop) == expected
        with pytest.raises(IndexError):
            view[len(ids)]


def test_runs_must_ascend() -> None:
    with pytest.raises(ValueError, match="ascend"):
        ActionRuns.of_ranges(range(5, 10), range(9, 12))
    with pytest.raises(ValueError, match="ascend"):
        ActionRuns.of_ranges(range(10, 5, -1))
    assert ActionRuns.of_ranges(range(0), range(3, 4)).ids == (3,)


@pytest.mark.parametrize("name", GAMES)
def test_a_request_from_runs_encodes_as_one_from_the_list(name: str) -> None:
    """No wire byte changes: the codec reads a run's ids and labels by position (the ones it
    sends), and gives the bytes it gave for the whole list and every label."""
    spec = get_spec(name)
    game, codec = spec.game, spec.codec
    sizes = [{}] if name not in CHIP_GAMES else [{"stack": 10}, {"stack": 1000, "amphora": 3}]
    checked = 0
    for params in sizes:
        full = game.info.make_params(params)
        for seed in range(3):
            for state in _states(game, full, seed, limit=200):
                seat = game.current_player(state)
                request = decision_request(game, state, seat, 5, Clocks(1, 2, 3))
                legal = game.legal_actions(state)
                listed = DecisionRequest(
                    5,
                    game.observe(state, seat),
                    ActionRuns.of_ids(legal),
                    tuple(game.action_label(state, a) for a in legal),
                    Clocks(1, 2, 3),
                )
                assert request.labels == listed.labels
                mine = encode(request, codec).SerializeToString(deterministic=True)
                theirs = encode(listed, codec).SerializeToString(deterministic=True)
                assert mine == theirs
                checked += 1
    assert checked > 20
