"""``croupier.env`` against the standard checks: PettingZoo's ``api_test`` and ``seed_test`` for
the AEC environment of every game and tensor kind, Gymnasium's ``check_env`` for the one-seat
environment; and what the docs promise of both: seeds deal as ``play_local`` does, rewards add
up to the scores, observations hold the encoders' tensors and the legal actions' mask."""

from __future__ import annotations

import subprocess
import sys
import warnings
from typing import Any, ClassVar

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from croupier.env import BotPolicy, CroupierAECEnv, CroupierEnv, Policy, RandomPolicy, tensors
from croupier.errors import ConfigError, IllegalActionError
from croupier.games import CHANCE, GAMES, get_spec
from croupier.games._drive import play
from croupier_bot import Bot, Decision, Seat

#: Short matches (the golden playthroughs' parameters).
PARAMS = {name: dict(get_spec(name).playthrough.params) for name in GAMES}
#: What api_test warns of any environment whose observations are dicts unless its name is on
#: PettingZoo's own list (its classic card environments are): nothing about this one.
NAMED_ONLY = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be",
)


@pytest.mark.parametrize("kind", ["position", "info"])
@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_passes(name: str, kind: str) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(CroupierAECEnv(name, tensor=kind), num_cycles=1000)
    other = {str(w.message) for w in caught if not str(w.message).startswith(NAMED_ONLY)}
    assert not other


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test_passes(name: str) -> None:
    seed_test(lambda: CroupierAECEnv(name, params=PARAMS[name]), num_cycles=300)


class _AnyIdIsLegal(gymnasium.ActionWrapper[np.ndarray, np.int64, np.int64]):
    """check_env steps with unmasked samples of the action space: map one to a legal id (the
    environment itself raises for an illegal one, as a masked environment should)."""

    def action(self, action: np.int64) -> np.int64:
        legal = self.env.unwrapped.match.legal  # type: ignore[attr-defined]
        return np.int64(legal[int(action) % len(legal)])


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_passes(name: str) -> None:
    env = _AnyIdIsLegal(CroupierEnv(name, opponents="random", params=PARAMS[name]))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    wrapped = "is different from the unwrapped version"  # (the wrapper above)
    assert not [str(w.message) for w in caught if wrapped not in str(w.message)]


def _random_match(env: CroupierAECEnv, seed: int) -> tuple[list[int], dict[str, float]]:
    """Play ``env`` from ``reset(seed)`` with random legal actions; the actions and each
    agent's summed rewards, checking every observation on the way."""
    rng = np.random.default_rng(seed + 1)
    env.reset(seed=seed)
    actions: list[int] = []
    summed = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        summed[agent] += reward
        assert observation is not None
        seat = env.possible_agents.index(agent)
        expected = env.tensors.encode(env.match.game.observe(env.match.state, seat))
        assert observation["observation"].tobytes() == expected.tobytes()
        mask = observation["action_mask"]
        if terminated or truncated:
            assert not mask.any()
            env.step(None)
            continue
        legal = env.match.legal
        assert np.flatnonzero(mask).tolist() == list(legal)
        action = int(legal[rng.integers(len(legal))])
        actions.append(action)
        env.step(action)
    return actions, summed


@pytest.mark.parametrize("kind", ["position", "info"])
@pytest.mark.parametrize("name", GAMES)
def test_a_seeded_match_deals_as_play_local_and_rewards_add_up_to_the_scores(
    name: str, kind: str
) -> None:
    env = CroupierAECEnv(name, params=PARAMS[name], tensor=kind)
    actions, summed = _random_match(env, seed=7)
    game = get_spec(name).game
    start = game.initial_state(game.info.make_params(PARAMS[name]))
    rng = np.random.default_rng(7)  # play_local's chance: default_rng(seed), in order
    todo = iter(actions)

    def choose(state: Any, player: int) -> tuple[int, ...] | int:
        if player == CHANCE:
            outcome: tuple[int, ...] = game.sample_chance(state, rng)
            return outcome
        return next(todo)

    final = start
    for ply in play(game, start, choose):
        final = ply.after
    assert final == env.match.state
    gained = tuple(t - s for t, s in zip(game.returns(final), game.returns(start), strict=True))
    assert [summed[a] for a in env.possible_agents] == [float(g) for g in gained]
    again, _ = _random_match(CroupierAECEnv(name, params=PARAMS[name], tensor=kind), seed=7)
    assert again == actions  # same seed, same choices: the same match


def test_an_illegal_action_raises_and_changes_nothing() -> None:
    env = CroupierAECEnv("fipsen")
    env.reset(seed=3)
    before = env.match.state
    illegal = next(a for a in range(91) if a not in env.match.legal)
    with pytest.raises(IllegalActionError):
        env.step(illegal)
    assert env.match.state is before


def test_bad_settings_are_one_line_config_errors() -> None:
    with pytest.raises(ConfigError, match="unknown tensor kind 'pixels'"):
        CroupierAECEnv("fipsen", tensor="pixels")
    with pytest.raises(ConfigError, match="unknown game"):
        CroupierAECEnv("poker")
    with pytest.raises(ConfigError, match="has no parameter"):
        CroupierEnv("as-nas", params={"decks": 3})
    with pytest.raises(ConfigError, match="unknown bot 'grandmaster'"):
        CroupierEnv("as-nas", opponents="grandmaster")
    with pytest.raises(ConfigError, match="2 opponents for the 3 other seats"):
        CroupierEnv("as-nas", opponents=["random", "random"])


class _Spy(Policy):
    """Records what a policy is shown."""

    def __init__(self) -> None:
        self.seen: list[tuple[Any, tuple[int, ...]]] = []
        self.rounds = 0

    def act(self, observation: Any, legal_actions: tuple[int, ...]) -> int:
        self.seen.append((observation, legal_actions))
        return legal_actions[0]

    def round_ended(self, ended: Any) -> None:
        self.rounds += 1


@pytest.mark.parametrize("name", GAMES)
def test_the_one_seat_environment_plays_the_bundled_heuristic_to_the_end(name: str) -> None:
    env = CroupierEnv(name, seat=1, params=PARAMS[name])  # the game's heuristic at the others
    total = 0.0
    observation, info = env.reset(seed=11)
    rng = np.random.default_rng(0)
    steps = 0
    while True:
        assert observation.shape == (env.tensors.size,)
        legal = np.flatnonzero(info["action_mask"])
        assert legal.tolist() == list(env.match.legal)
        observation, reward, terminated, truncated, info = env.step(rng.choice(legal))
        total += reward
        steps += 1
        if terminated:
            break
    assert not truncated
    game = env.match.game
    start = game.returns(game.initial_state(game.info.make_params(PARAMS[name])))
    assert total == float(game.returns(env.match.state)[1] - start[1])
    assert not env.action_masks().any()


def test_a_policy_sees_its_own_seats_observations_only() -> None:
    spies = [_Spy(), _Spy(), _Spy()]
    env = CroupierEnv("fipsen", seat=0, opponents=spies, params={"deals": 2})
    env.reset(seed=5)
    while not env.match.over:
        env.step(env.match.legal[-1])
    for seat, spy in enumerate(spies, 1):
        assert spy.seen
        assert all(obs.seat == seat for obs, _ in spy.seen)
        assert spy.rounds == 2


def test_opponents_are_seeded_by_the_reset_seed() -> None:
    def run(seed: int) -> list[int]:
        env = CroupierEnv("scauver", opponents=RandomPolicy(), params=PARAMS["scauver"])
        env.reset(seed=seed)
        moves = []
        while not env.match.over:
            moves.append(len(env.match.state.history))
            env.step(env.match.legal[0])
        return moves

    assert run(3) == run(3)


def test_tensors_report_their_sizes() -> None:
    for name in GAMES:
        encoder = get_spec(name).encoder
        assert tensors(name).size == encoder.size
        assert tensors(name, "info").size == encoder.info_size > encoder.size


def test_the_environments_import_nothing_above_the_rules() -> None:
    """``croupier.env`` sits on ``croupier.games``: importing it and playing a match loads no
    arbiter, transport, replay, ladder, server, CLI or SDK module (the SDK only once a bundled
    bot is seated)."""
    code = (
        "import sys\n"
        "from croupier.env import CroupierAECEnv, CroupierEnv\n"
        "env = CroupierEnv('fipsen', opponents='random', params={'deals': 1})\n"
        "env.reset(seed=1)\n"
        "while not env.match.over:\n"
        "    env.step(env.match.legal[0])\n"
        "above = ('croupier.arbiter', 'croupier.transport', 'croupier.replay', 'croupier.ladder',\n"
        "         'croupier.serve', 'croupier.cli', 'croupier_bot', 'croupier_bots')\n"
        "inside = tuple(a + '.' for a in above)\n"
        "print(sorted(m for m in sys.modules if m in above or m.startswith(inside)))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_make_builds_the_one_seat_environment(name: str) -> None:
    env_id = f"croupier/{name}-v{get_spec(name).game.info.version}"
    env = gymnasium.make(env_id, opponents="random", params=PARAMS[name], tensor="info")
    observation, info = env.reset(seed=2)
    assert observation.shape == (tensors(name, "info").size,)
    assert info["action_mask"].any()
    env.close()


class _SeatChecker(Bot):
    """An SDK bot that notes every decision whose observation is not its own seat's to act."""

    wrong: ClassVar[list[tuple[int, int]]] = []

    def act(self, decision: Decision) -> int:
        to_act = decision.observation.fipsen.to_act
        if to_act != decision.match.seat:
            _SeatChecker.wrong.append((decision.match.seat, to_act))
        return decision.legal_ids[0]


def test_one_policy_for_every_other_seat_plays_each_seat_apart() -> None:
    """One opponent object given for all the other seats is copied per seat: each seat's bot
    is asked with its own seat's observation, never another's."""
    _SeatChecker.wrong.clear()
    opponent = BotPolicy(lambda seed: Seat(_SeatChecker(), seed))
    env = CroupierEnv("fipsen", opponents=opponent, params={"deals": 2})
    env.reset(seed=4)
    while not env.match.over:
        env.step(env.match.legal[0])
    assert _SeatChecker.wrong == []
    spy = _Spy()
    env = CroupierEnv("fipsen", opponents=[spy, spy, "random"], params={"deals": 1})
    env.reset(seed=4)
    while not env.match.over:
        env.step(env.match.legal[0])
    assert {obs.seat for obs, _ in spy.seen} == {1}  # the copy played seat 2
