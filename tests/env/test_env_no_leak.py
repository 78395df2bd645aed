"""No leak through the environments (DESIGN.md, "Nothing leaked"): an agent's observation (its
tensor, of either kind, and its action mask) is built from ``observe(state, seat)`` alone, so
changing what that seat may not see leaves it byte-identical, in the AEC environment and in the
one-seat environment; and the check is sharp: changing a card the seat holds does change it.

The re-deals are the rules' own property tests' (``tests/games``): every card a seat may not
see (other hands, the stock, a Skat it did not take, others' unrevealed choices) re-dealt
consistently with everything it has seen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
import scauver_kit
import test_as_nas_properties as as_nas_props
import test_felduz_properties as felduz_props
import test_fipsen_properties as fipsen_props
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.env import CroupierAECEnv, CroupierEnv
from croupier.games import GAMES, TERMINAL, get_spec

PARAMS = {
    "as-nas": {"deals": 3},
    "fipsen": {"deals": 3},
    "felduz": {"players": 3, "stack": 20, "round_cap": 4},
    "scauver": {"players": 3, "stack": 20, "round_cap": 4},
}
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _as_nas(state: Any, viewer: int, rng: np.random.Generator) -> Any:
    keep = as_nas_props.visible_seats(state, viewer)
    order = [int(c) for c in rng.permutation(20)]
    return state._replace(hands=as_nas_props.redeal(state, keep, order))


def _fipsen(state: Any, viewer: int, rng: np.random.Generator) -> Any:
    return fipsen_props.relabel(state, viewer, [int(c) for c in rng.permutation(25)])


#: Per game: the state with what ``viewer`` may not see re-dealt.
REDEAL: dict[str, Callable[[Any, int, np.random.Generator], Any]] = {
    "as-nas": _as_nas,
    "fipsen": _fipsen,
    "felduz": felduz_props.redeal,
    "scauver": scauver_kit.redeal,
}


def _params(name: str) -> dict[str, int]:
    """A short match of ``name``: the one above, or its golden playthrough's."""
    return PARAMS.get(name) or dict(get_spec(name).playthrough.params)


def _redeal(name: str) -> Callable[[Any, int, np.random.Generator], Any]:
    """``name``'s redeal above; for any other game, a state drawn by its ``resample`` from what
    the viewer sees (the spec's no-leak sampling: everything else drawn anew)."""
    if name in REDEAL:
        return REDEAL[name]
    spec = get_spec(name)
    params = spec.game.info.make_params(_params(name))
    return lambda state, viewer, rng: spec.resample(spec.game.observe(state, viewer), rng, params)


def _walk(env: CroupierAECEnv, seed: int, decisions: int, *, look: bool = False) -> None:
    """``env`` after ``reset(seed)`` and up to ``decisions`` random legal actions (``look``:
    As-Nas's LOOK, id 0, whenever it is legal, so that hands are out)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(decisions):
        if env.match.over:
            return
        legal = env.match.legal
        env.step(0 if look and 0 in legal else legal[rng.integers(len(legal))])


def _seen(env: CroupierAECEnv, agent: str) -> bytes:
    observation = env.observe(agent)
    return observation["observation"].tobytes() + observation["action_mask"].tobytes()


def _swap_state(env: CroupierAECEnv | CroupierEnv, state: Any) -> None:
    match = env.match
    match.state = state
    match.legal = match.game.legal_actions(state) if match.player != TERMINAL else ()


@pytest.mark.parametrize("kind", ["position", "info"])
@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), decisions=st.integers(0, 150), redeal=st.integers(0, 999))
def test_an_agent_sees_the_same_whatever_it_may_not_see(
    name: str, kind: str, seed: int, decisions: int, redeal: int
) -> None:
    env = CroupierAECEnv(name, params=_params(name), tensor=kind)
    _walk(env, seed, decisions)
    state = env.match.state
    for seat, agent in enumerate(env.possible_agents):
        mine = _seen(env, agent)
        _swap_state(env, _redeal(name)(state, seat, np.random.default_rng(redeal)))
        assert _seen(env, agent) == mine, f"{agent} sees a change it may not see"
        _swap_state(env, state)


@pytest.mark.parametrize("name", GAMES)
def test_the_check_is_sharp_a_redeal_changes_what_the_others_see(name: str) -> None:
    """Against a planted leak: a re-deal for one seat does change some other seat's view, so an
    observation built from more than its seat's view would be caught above."""
    changed = 0
    for seed in range(40):
        env = CroupierAECEnv(name, params=_params(name), tensor="info")
        _walk(env, seed, 2 + seed % 10, look=name == "as-nas")
        if env.match.over:
            continue
        state = env.match.state
        others = env.possible_agents[1:]
        before = [_seen(env, a) for a in others]
        _swap_state(env, _redeal(name)(state, 0, np.random.default_rng(seed)))
        changed += [_seen(env, a) for a in others] != before
    assert changed >= 10


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), decisions=st.integers(0, 80), redeal=st.integers(0, 999))
def test_the_one_seat_environment_shows_the_learner_its_own_view_only(
    name: str, seed: int, decisions: int, redeal: int
) -> None:
    env = CroupierEnv(name, seat=1, opponents="random", params=_params(name), tensor="info")
    observation, _ = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if env.match.over:
            break
        observation, *_ = env.step(env.match.legal[rng.integers(len(env.match.legal))])
    state = env.match.state
    mask = env.action_masks().tobytes()
    _swap_state(env, _redeal(name)(state, 1, np.random.default_rng(redeal)))
    again = env.tensors.encode(env.match.game.observe(env.match.state, 1))
    assert again.tobytes() == observation.tobytes()
    assert env.action_masks().tobytes() == mask


def test_get_spec_is_the_one_source_of_the_encoders() -> None:
    """(The environments read the encoders through the spec, which the rules tests check.)"""
    assert CroupierAECEnv("fipsen").tensors.encode is get_spec("fipsen").encoder.encode
