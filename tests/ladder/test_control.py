"""The control variate is unbiased: over many simulated matches, each seat's correction has
mean zero (within its interval), and the adjusted mean agrees with the raw one; its playouts
are reproducible. Matches are played in process (the rules, no arbiter), seat 0 by a fixed
policy (the highest legal id) and the others at random, on duplicate deals too."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from croupier.games import CHANCE, TERMINAL, get_game
from croupier.ladder._control import chance_corrections, fit_beta
from croupier.ladder._schedule import deal_script
from croupier.ladder._stats import Interval, mean_interval


def _play(game: Any, params: dict[str, int], rng: np.random.Generator, script: Any = ()) -> Any:
    state = game.initial_state(params)
    steps = []
    script = list(script)
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            outcome = script.pop(0) if script else game.sample_chance(state, rng)
            after = game.apply_chance(state, outcome)
            steps.append((state, outcome, after))
            state = after
            continue
        legal = game.legal_actions(state)
        action = legal[-1] if player == 0 else legal[int(rng.integers(len(legal)))]
        state = game.apply(state, action)
    return [float(x) for x in game.totals(state)], steps


def simulate(name: str, params: dict[str, int], n: int, duplicate: bool) -> dict[str, Any]:
    game = get_game(name)
    full = game.info.make_params(params)
    rng = np.random.default_rng(11)
    raws, cvs = [], []
    for i in range(n):
        script: Any = ()
        if duplicate:  # the tournament's duplicate deals: drawn by a walk, then replayed
            script = deal_script(name, tuple(sorted(full.items())), 500 + i)
        totals, steps = _play(game, full, rng, script)
        raws.append(totals)
        cvs.append(chance_corrections(game, steps, 10_000 + i))
    return {"raw": np.array(raws), "cv": np.array(cvs)}


def _wide(xs: list[float]) -> Interval:
    """A 99.9 % interval (3.29 standard errors): the test makes many checks at once."""
    i = mean_interval(xs)
    half = i.half_width * 3.29 / 1.97
    return Interval(i.mean, i.mean - half, i.mean + half, i.n)


@pytest.mark.parametrize(
    ("name", "params", "duplicate"),
    [
        ("as-nas", {"deals": 3}, False),
        ("as-nas", {"deals": 3}, True),
        ("fipsen", {"deals": 2}, True),
        ("felduz", {"round_cap": 6}, False),
        ("scauver", {"players": 3, "round_cap": 6}, True),
    ],
)
def test_the_corrections_have_mean_zero_and_leave_the_mean_alone(
    name: str, params: dict[str, int], duplicate: bool
) -> None:
    got = simulate(name, params, 200, duplicate)
    raw, cv = got["raw"], got["cv"]
    for seat in range(raw.shape[1]):  # (20 checks in all: each at 3.3 standard errors)
        correction = _wide(list(cv[:, seat]))
        assert correction.low <= 0 <= correction.high, (seat, correction)
        beta = fit_beta(list(raw[:, seat]), list(cv[:, seat]))
        adjusted = _wide(list(raw[:, seat] - beta * cv[:, seat]))
        # the raw mean (an unbiased estimate) lies inside the adjusted interval
        assert adjusted.low <= float(raw[:, seat].mean()) <= adjusted.high, (seat, adjusted)


def test_the_corrections_are_the_same_every_time() -> None:
    game = get_game("as-nas")
    params = game.info.make_params({"deals": 2})
    _, steps = _play(game, params, np.random.default_rng(3))
    one = chance_corrections(game, steps, 77)
    assert np.array_equal(one, chance_corrections(game, steps, 77))
    assert not np.array_equal(one, chance_corrections(game, steps, 78))


def test_beta_is_the_least_squares_share_clipped_to_zero_and_one() -> None:
    rng = np.random.default_rng(0)
    c = rng.normal(size=400)
    x = 0.6 * c + rng.normal(size=400) * 0.1
    assert fit_beta(list(x), list(c)) == pytest.approx(0.6, abs=0.05)
    assert fit_beta(list(-x), list(c)) == 0.0
    assert fit_beta(list(x[:5]), list(c[:5])) == 0.0
