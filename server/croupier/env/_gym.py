"""The Gymnasium environment of one seat: the learner plays a seat of a game against in-process
policies (the bundled bots by default) at the other seats.

The observation is the tensor of the learner's own observation (``observe(state, seat)``
alone); ``info["action_mask"]`` (and :meth:`CroupierEnv.action_masks`, as MaskablePPO of
sb3-contrib asks) gives its legal actions. The reward of a step is the learner's score change
from its last decision to its next (rounds end during the others' turns too); the episode is
one match.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from croupier.env._encoding import Tensors, action_mask, tensors
from croupier.env._match import Match, RoundEnd
from croupier.env._policies import BotPolicy, MatchStart, Policy, bundled
from croupier.errors import ConfigError
from croupier.games import get_spec

#: An opponent: a bundled bot's name (``random``, ``fipsen-heuristic``, ...) or a policy.
Opponent = str | Policy


class CroupierEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One ``seat`` of a game against ``opponents`` (module docstring): one per other seat in
    seat order, or one for all; by default the game's bundled heuristic at every other seat.
    A policy object given for several seats plays the first of them; the others get copies.
    ``params`` update the game's defaults; ``tensor``: ``"position"`` or ``"info"``.
    ``reset(seed=s)`` deals as ``play_local(game, params, s, ...)`` does, and seeds each
    opponent from ``s``; a reset without a seed draws one. An illegal action raises
    :class:`~croupier.errors.IllegalActionError`."""

    def __init__(
        self,
        game: str,
        *,
        seat: int = 0,
        opponents: Opponent | Sequence[Opponent] | None = None,
        params: Mapping[str, int] | None = None,
        tensor: str = "position",
    ) -> None:
        spec = get_spec(game)
        self._spec = spec
        self._game = spec.game
        self._params = spec.game.info.make_params(params)
        self._tensors: Tensors = tensors(game, tensor, self._params)
        seats = self._game.num_players(self._game.initial_state(self._params))
        if not 0 <= seat < seats:
            raise ConfigError(f"seat {seat} is not one of the {seats} seats of this match")
        self.seat = seat
        self.seats = seats
        if opponents is None:
            opponents = spec.bots.lineup[0]
        chosen = [opponents] * (seats - 1) if isinstance(opponents, str | Policy) else opponents
        if len(chosen) != seats - 1:
            raise ConfigError(f"{len(chosen)} opponents for the {seats - 1} other seats")
        others = [s for s in range(seats) if s != seat]
        self._policies: dict[int, Policy] = {}
        for s, opponent in zip(others, chosen, strict=True):
            policy = bundled(opponent) if isinstance(opponent, str) else opponent
            if any(policy is p for p in self._policies.values()):
                policy = copy.deepcopy(policy)  # one object per seat: a policy plays one seat
            self._policies[s] = policy
        t = self._tensors
        self.observation_space = spaces.Box(t.low, t.high, (t.size,), np.float32)
        self.action_space = spaces.Discrete(t.num_actions)
        self._seeds = np.random.default_rng()
        self._match: Match | None = None
        self._score = 0.0

    @property
    def tensors(self) -> Tensors:
        """The tensors' kind, size, bounds and encoder."""
        return self._tensors

    @property
    def match(self) -> Match:
        """The match in progress."""
        if self._match is None:
            raise RuntimeError("reset() the environment first")
        return self._match

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as an ``int8`` mask (zeros once the match is over)."""
        match = self.match
        legal = match.legal if match.player == self.seat else ()
        return action_mask(self._tensors.num_actions, legal)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        else:
            seed = int(self._seeds.integers(2**63))
        self._match = Match(self._game, self._params, seed)
        streams = np.random.SeedSequence(seed).spawn(self.seats)
        for s, policy in self._policies.items():
            own = int(streams[s].generate_state(1, np.uint64)[0] >> 1)
            policy.start(MatchStart(self._spec.name, self._params, s, self.seats, own))
        self._score = float(self._match.totals[self.seat])
        self._others()
        return self._observation(), {"action_mask": self.action_masks()}

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        match = self.match
        if match.over:
            raise RuntimeError("the match is over: reset() the environment")
        self._ended(match.play(int(action)))
        self._others()
        score = float(match.totals[self.seat])
        reward, self._score = score - self._score, score
        return self._observation(), reward, match.over, False, {"action_mask": self.action_masks()}

    def _others(self) -> None:
        """Play the other seats until the learner is to act or the match is over."""
        match, game = self.match, self._game
        while not match.over and match.player != self.seat:
            seat = match.player
            policy = self._policies[seat]
            if isinstance(policy, BotPolicy):
                action = policy.decide(match.state, match.legal)
            else:
                action = policy.act(game.observe(match.state, seat), match.legal)
            self._ended(match.play(action))
        if match.over:
            for policy in self._policies.values():
                policy.end()

    def _ended(self, ended: RoundEnd | None) -> None:
        if ended is not None:
            for policy in self._policies.values():
                policy.round_ended(ended)

    def _observation(self) -> np.ndarray:
        return self._tensors.encode(self._game.observe(self.match.state, self.seat))


__all__ = ["CroupierEnv", "Opponent"]
