"""Environment steps per CPU-second (``croupier.env``, issue 22), beside the classic card
environments of PettingZoo, RLCard and OpenSpiel measured in the same run. Not a test.

    .venv/bin/python bench/env.py                 # all (about two minutes)
    .venv/bin/python bench/env.py steps           # one: steps | gym | parts
    .venv/bin/python bench/env.py --repeats 5

* steps: every game's PettingZoo AEC environment (``CroupierAECEnv``, default parameters, both
  tensor kinds) played by uniformly random masked agents, the same loop for every environment:
  ``last()``, the legal ids from the observation's ``action_mask``, one drawn at random,
  ``step()``. Steps (decisions) per CPU-second of this process (``time.process_time``). The
  baselines, in the same run and loop: PettingZoo's Leduc Hold'em and Limit Texas Hold'em as
  PettingZoo makes them (``env()``, with its wrappers) and Leduc's ``raw_env()``; RLCard's
  Leduc Hold'em in its own loop (its state holds the encoded observation and the legal
  actions); OpenSpiel's ``leduc_poker`` (a C++ engine) asked for its information-state tensor
  and legal-action mask at every decision. Ratios are to PettingZoo's Leduc ``env()``.
* gym: the one-seat Gymnasium environment (``CroupierEnv``), the learner's steps per CPU-second
  against the random policy and against the bundled heuristics (in-process SDK bots, handed the
  real wire messages: their own thinking is in the figure).
* parts: where a step's time goes (measure first): seeded random play with the rules alone
  (``legal_actions`` and ``apply``, chance included), then also ``observe``, then also the
  position tensor, then also the mask; the differences are each part's cost, and the shares of a
  step that the tensor and mask take (with and without the observation).

Needs the ``rl`` extra; the baselines need ``pip install rlcard pygame-ce open_spiel``
(``pettingzoo[classic]``), and are reported as missing otherwise.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from _kit import run_benches

from croupier.env import CroupierAECEnv, CroupierEnv
from croupier.games import CHANCE, GAMES, TERMINAL, get_spec

#: Decisions per measured run.
STEPS = 20_000


def aec_steps(env: Any, steps: int = STEPS, seed: int = 0) -> float:
    """Steps per CPU-second of random masked agents in the AEC environment ``env``."""
    rng = np.random.default_rng(seed)
    done = 0
    env.reset(seed=seed)
    started = time.process_time()
    while done < steps:
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                action = None
            else:
                legal = np.flatnonzero(observation["action_mask"].view(np.bool_))
                action = int(legal[rng.integers(len(legal))])
                done += 1
            env.step(action)
            if done >= steps:
                break
        else:
            env.reset()
    return done / (time.process_time() - started)


def rlcard_steps(steps: int = STEPS, seed: int = 0) -> float:
    """Steps per CPU-second of RLCard's Leduc Hold'em, random legal actions."""
    import rlcard

    env = rlcard.make("leduc-holdem", config={"seed": seed})
    rng = np.random.default_rng(seed)
    done = 0
    started = time.process_time()
    while done < steps:
        state, _ = env.reset()
        while not env.is_over() and done < steps:
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.integers(len(legal))])
            done += 1
    return done / (time.process_time() - started)


def openspiel_steps(steps: int = STEPS, seed: int = 0) -> float:
    """Steps per CPU-second of OpenSpiel's ``leduc_poker`` with its information-state tensor and
    legal-action mask asked at every decision."""
    import pyspiel

    game = pyspiel.load_game("leduc_poker")
    rng = np.random.default_rng(seed)
    done = 0
    started = time.process_time()
    while done < steps:
        state = game.new_initial_state()
        while not state.is_terminal() and done < steps:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                continue
            np.asarray(state.information_state_tensor(), dtype=np.float32)
            legal = np.flatnonzero(np.asarray(state.legal_actions_mask(), dtype=np.bool_))
            state.apply_action(int(legal[rng.integers(len(legal))]))
            done += 1
    return done / (time.process_time() - started)


def _median(repeats: int, run: Callable[..., float], *args: Any) -> float:
    return statistics.median(run(*args) for _ in range(repeats))


def _ours(name: str, kind: str) -> float:
    return aec_steps(CroupierAECEnv(name, tensor=kind))


def _one_seat(name: str, opponents: str, steps: int) -> float:
    return gym_steps(CroupierEnv(name, opponents=opponents), steps)


def _baselines(repeats: int) -> dict[str, float]:
    out: dict[str, float] = {}
    try:
        from pettingzoo.classic import leduc_holdem_v4, texas_holdem_v4
    except ImportError as exc:
        print(f"(PettingZoo's classic environments are missing: {exc})")
    else:
        out["pettingzoo_leduc_env"] = _median(repeats, lambda: aec_steps(leduc_holdem_v4.env()))
        out["pettingzoo_leduc_raw_env"] = _median(
            repeats, lambda: aec_steps(leduc_holdem_v4.raw_env())
        )
        out["pettingzoo_texas_env"] = _median(repeats, lambda: aec_steps(texas_holdem_v4.env()))
    try:
        import rlcard  # noqa: F401
    except ImportError as exc:
        print(f"(RLCard is missing: {exc})")
    else:
        out["rlcard_leduc"] = _median(repeats, rlcard_steps)
    try:
        import pyspiel  # noqa: F401
    except ImportError as exc:
        print(f"(OpenSpiel is missing: {exc})")
    else:
        out["openspiel_leduc"] = _median(repeats, openspiel_steps)
    return out


def steps(repeats: int) -> dict[str, float]:
    out = _baselines(repeats)
    for name in GAMES:
        for kind in ("position", "info"):
            key = f"{name}_{kind}"
            out[key] = _median(repeats, _ours, name, kind)
    base = out.get("pettingzoo_leduc_env")
    if base:
        for name in GAMES:
            for kind in ("position", "info"):
                out[f"{name}_{kind}_vs_pettingzoo_leduc"] = out[f"{name}_{kind}"] / base
        for other in ("pettingzoo_leduc_raw_env", "pettingzoo_texas_env", "rlcard_leduc",
                      "openspiel_leduc"):  # fmt: skip
            if other in out:
                out[f"{other}_vs_pettingzoo_leduc"] = out[other] / base
    return out


def gym_steps(env: CroupierEnv, steps: int, seed: int = 0) -> float:
    """The learner's steps per CPU-second in ``env``, random legal actions."""
    rng = np.random.default_rng(seed)
    done = 0
    _, info = env.reset(seed=seed)
    started = time.process_time()
    while done < steps:
        legal = np.flatnonzero(info["action_mask"].view(np.bool_))
        _, _, terminated, _, info = env.step(int(legal[rng.integers(len(legal))]))
        done += 1
        if terminated:
            _, info = env.reset()
    return done / (time.process_time() - started)


def gym(repeats: int) -> dict[str, float]:
    out: dict[str, float] = {}
    for name in GAMES:
        heuristic = get_spec(name).bots.lineup[0]
        out[f"{name}_vs_random"] = _median(repeats, _one_seat, name, "random", STEPS // 4)
        out[f"{name}_vs_{heuristic}"] = _median(repeats, _one_seat, name, heuristic, STEPS // 20)
    return out


def parts(repeats: int) -> dict[str, float]:
    """Per game: µs per decision of random play with the rules alone, then with ``observe``,
    then with the position tensor, then with the mask (the same seeded matches each time, so
    the differences are what each part costs); and the shares of a step (all four) that the
    tensor and mask take, with and without the observation."""
    out: dict[str, float] = {}
    for name in GAMES:
        levels = [
            statistics.median(_play(name, seed, level) for seed in range(repeats))
            for level in range(4)
        ]
        step = levels[3]
        for part, before, after in zip(PARTS, [0.0, *levels[:-1]], levels, strict=True):
            out[f"{name}_{part}_us"] = after - before
        out[f"{name}_step_us"] = step
        out[f"{name}_tensor_and_mask_share"] = (step - levels[1]) / step
        out[f"{name}_observe_tensor_and_mask_share"] = (step - levels[0]) / step
    return out


#: What each level of :func:`_play` adds.
PARTS = ("rules", "observe", "encode", "mask")


def _play(name: str, seed: int, level: int, decisions: int = 10_000) -> float:
    """µs per decision of seeded random play doing the first ``level + 1`` of :data:`PARTS`."""
    spec = get_spec(name)
    game, encode = spec.game, spec.encoder.encode
    num_actions = game.info.num_distinct_actions
    rng = np.random.default_rng(seed)
    done = 0
    started = time.process_time()
    while done < decisions:
        state = game.initial_state(game.info.make_params({}))
        while (player := game.current_player(state)) != TERMINAL and done < decisions:
            if player == CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            legal = game.legal_actions(state)
            if level >= 1:
                observation = game.observe(state, player)
                if level >= 2:
                    encode(observation)
                    if level >= 3:
                        mask = np.zeros(num_actions, dtype=np.int8)
                        mask[list(legal)] = 1
            state = game.apply(state, legal[rng.integers(len(legal))])
            done += 1
    return (time.process_time() - started) / done * 1e6


if __name__ == "__main__":
    run_benches(__doc__, {"steps": steps, "gym": gym, "parts": parts})
