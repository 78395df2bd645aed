"""The PettingZoo AEC environment of a game: every seat an agent, turns as the rules give them.

Observations are ``{"observation": tensor, "action_mask": mask}`` (PettingZoo's classic card
environments' form): the tensor of the agent's own observation (``observe(state, seat)`` and
nothing else: no leak by construction), and its legal actions as an ``int8`` mask (all zeros
when it is not the agent's turn). Rewards are score changes as each round ends (chips in the
chip games), so an agent's rewards add up to its final score less its starting one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from croupier.env._encoding import Tensors, action_mask, tensors
from croupier.env._match import Match
from croupier.errors import ConfigError, IllegalActionError
from croupier.games import get_spec

Observation = dict[str, np.ndarray]


class CroupierAECEnv(AECEnv):  # type: ignore[misc]  # (pettingzoo ships no type hints)
    """A game as a PettingZoo AEC environment (module docstring). ``params`` update the game's
    defaults; ``tensor`` is ``"position"`` (default) or ``"info"`` (the position and the
    round's public actions). ``reset(seed=s)`` deals as ``play_local(game, params, s, ...)``
    does; a reset without a seed draws one from the last seeded reset's (or the OS's) entropy.
    An illegal action raises :class:`~croupier.errors.IllegalActionError`."""

    def __init__(
        self,
        game: str,
        *,
        params: Mapping[str, int] | None = None,
        tensor: str = "position",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ConfigError(f"unknown render mode {render_mode!r} (known: ansi)")
        self.render_mode = render_mode
        spec = get_spec(game)
        self._spec = spec
        self._game = spec.game
        self._params = spec.game.info.make_params(params)
        self._tensors: Tensors = tensors(game, tensor, self._params)
        seats = self._game.num_players(self._game.initial_state(self._params))
        name = game.replace("-", "_")
        self.metadata: dict[str, Any] = {
            "name": f"croupier_{name}_v{spec.game.info.version}",
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.possible_agents = [f"player_{s}" for s in range(seats)]
        self._seat_of = {agent: s for s, agent in enumerate(self.possible_agents)}
        t = self._tensors
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(t.low, t.high, (t.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (t.num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(t.num_actions) for agent in self.possible_agents
        }
        self._seeds = np.random.default_rng()
        self._match: Match | None = None
        self.agents: list[str] = []

    @property
    def tensors(self) -> Tensors:
        """The tensors' kind, size, bounds and encoder."""
        return self._tensors

    @property
    def match(self) -> Match:
        """The match in progress (its rules ``state``, ``legal`` actions, ``player`` to act)."""
        if self._match is None:
            raise RuntimeError("reset() the environment first")
        return self._match

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        else:
            seed = int(self._seeds.integers(2**63))
        match = self._match = Match(self._game, self._params, seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._rewarded = False
        self.agent_selection = self.possible_agents[match.player]

    def observe(self, agent: str) -> Observation:
        match = self.match
        seat = self._seat_of[agent]
        tensors = self._tensors
        tensor = tensors.encode(self._game.observe(match.state, seat))
        legal = match.legal if seat == match.player else ()
        return {"observation": tensor, "action_mask": action_mask(tensors.num_actions, legal)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalActionError(f"{agent} must act: None is not an action")
        match = self.match
        rewards = self.rewards
        if self._rewarded:
            for a in rewards:
                rewards[a] = 0.0
            self._rewarded = False
        ended = match.play(int(action))
        if ended is not None:
            for a, delta in zip(self.possible_agents, ended.deltas, strict=True):
                if a in rewards:
                    rewards[a] = float(delta)
            self._rewarded = True
        self._cumulative_rewards[agent] = 0.0
        if ended is not None:
            self._accumulate_rewards()
        if match.over:
            for a in self.agents:
                self.terminations[a] = True
            self._deads_step_first()
        else:
            self.agent_selection = self.possible_agents[match.player]

    def render(self) -> str | None:
        """``ansi``: the round's header as a spectator sees it (``observe(state, None)``) and
        the agent to act (no labels: a split's label would show a hand)."""
        if self.render_mode is None:
            return None
        match = self.match
        header = self._spec.narrator.round_header(self._game.observe(match.state, None))
        if match.over:
            return f"{header}\nthe match is over"
        agent = self.possible_agents[match.player]
        return f"{header}\n{agent} to act ({len(match.legal)} legal actions)"

    def close(self) -> None:
        """Nothing to release."""


__all__ = ["CroupierAECEnv", "Observation"]
