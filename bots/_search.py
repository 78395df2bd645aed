"""Determinized search shared by the ``<game>-search`` reference bots.

At each decision with a real choice the bot

1. draws worlds: full states consistent with its own observation, from that observation alone
   (``croupier.games.<game>.resample.resample_wire``: the deck and the hidden moves sampled
   uniformly among all those the seat cannot rule out);
2. weighs each world by how likely the others' public moves of the round were in it under the
   game's rollout policy (a move the policy would not make counts ``NOISE``): so a raise makes
   strong hands likelier, as it should, without ruling anything out;
3. plays each candidate move in each world and rolls the round out to its end with the rollout
   policy (the same random numbers for every candidate of a world), scoring the seat's gain
   minus the others' mean gain;
4. plays the candidate with the best weighted mean.

The work per decision is counted in moves applied by the rules, never in wall time, so the same
seed (``CROUPIER_SEED``, a session's seat seed) and the same decisions give the same moves on any
machine and under any load. The budget follows the decision's own clock: ``move_time_ms`` (the
same for every decision of a match) times :data:`MOVES_PER_MS`, a rate well below what one core
manages (``bench/strength.py --rate`` measures it), times :data:`SHARE`; ``CROUPIER_SEARCH_BUDGET``
fixes it instead. Only if a decision still runs past :data:`GUARD` of its move time (a machine
far slower than that rate) does it stop early, trading sameness for never timing out.
"""

from __future__ import annotations

import importlib
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from croupier.games import CHANCE, TERMINAL, get_spec
from croupier_bot import Bot, Decision, MatchInfo

#: Moves a search applies per millisecond of one busy core, at least, by default (measured
#: with ``bench/strength.py --rate``: 35-50 in As-Nas, Fipsen and Felduz; Scauver, 21, plans
#: with half of this: ``SearchBot.moves_per_ms``).
MOVES_PER_MS = 20.0
#: The share of a decision's move time the budget plans to use.
SHARE = 0.25
#: Past this share of the move time a decision stops where it is (a safety net, not the plan).
GUARD = 0.8
#: Bounds on the work of one decision, in moves applied.
MIN_BUDGET, MAX_BUDGET = 300, 20000
#: How likely a public move the rollout policy would not make is taken to be.
NOISE = 0.15

#: ``policy(state, player, rng) -> action``: a fast move choice on a full state.
Policy = Callable[[Any, int, np.random.Generator], int]


def budget_for(move_time_ms: int, moves_per_ms: float = MOVES_PER_MS) -> int:
    """The work of one decision (moves applied) under a move time: ``CROUPIER_SEARCH_BUDGET``
    if set, else ``move_time_ms * moves_per_ms * SHARE`` within the bounds."""
    fixed = os.environ.get("CROUPIER_SEARCH_BUDGET")
    if fixed:
        return max(1, int(fixed))
    planned = int(move_time_ms * moves_per_ms * SHARE) if move_time_ms > 0 else MAX_BUDGET
    return max(MIN_BUDGET, min(MAX_BUDGET, planned))


@dataclass
class Work:
    """Moves applied so far in one decision, and when it must stop at the latest."""

    budget: int
    deadline: float
    done: int = 0

    def spent(self) -> bool:
        return self.done >= self.budget or time.monotonic() > self.deadline


class SearchBot(Bot):
    """Determinized search for one game; a subclass names the game and supplies the policy,
    the candidate moves and (optionally) a cheaper first guess."""

    #: The game's name (``croupier.games``).
    game = ""
    version = "1"
    #: Worlds per decision at most (the budget usually stops it first).
    max_worlds = 64
    #: The rate the budget plans with (:data:`MOVES_PER_MS`; a slower game's search lowers it).
    moves_per_ms = MOVES_PER_MS
    #: How much better (weighted mean, in the game's score) than the :meth:`anchor` move the
    #: search's best must be to be played instead (used only with an anchor).
    margin = 0.0

    def __init__(self, seed: int | None = None) -> None:
        self.rules = get_spec(self.game).game
        package = self.game.replace("-", "_")
        self._resample = importlib.import_module(f"croupier.games.{package}.resample").resample_wire
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self.params: dict[str, int] = {}
        self.seat = 0
        self.move_time_ms = 0

    def on_welcome(self, match: MatchInfo) -> None:
        seed = match.seed if match.seed is not None else self.seed
        self.rng = np.random.default_rng([seed or 0, match.seat])
        self.params = dict(match.params)
        self.seat = match.seat
        self.move_time_ms = match.move_time_ms

    # -- what a game supplies ------------------------------------------------------------------

    def policy(self, state: Any, player: int, rng: np.random.Generator) -> int:
        """The rollout policy: a fast, reasonable move for ``player`` in a full ``state``."""
        raise NotImplementedError

    def candidates(self, decision: Decision, legal: list[int]) -> list[int]:
        """The moves worth searching (default: every legal one)."""
        return legal

    def shortcut(self, decision: Decision, legal: list[int]) -> int | None:
        """A move to play without searching (default: none)."""
        return None

    def anchor(self, decision: Decision, legal: list[int]) -> int | None:
        """A move to play unless the search finds one better by :attr:`margin` (default: none;
        a game whose rollouts judge some moves worse than a heuristic does anchors on it)."""
        return None

    def kind(self, state: Any, action: int) -> int:
        """What a move says, for weighing worlds: moves of one kind count as the same (default:
        the id; a chip game lumps bet amounts together)."""
        return action

    # -- the search ----------------------------------------------------------------------------

    def act(self, decision: Decision) -> int:
        legal = list(decision.legal_ids)
        if len(legal) == 1:
            return legal[0]
        quick = self.shortcut(decision, legal)
        if quick is not None:
            return quick
        moves = self.candidates(decision, legal)
        anchor = self.anchor(decision, legal)
        if anchor is not None and anchor not in moves:
            moves = sorted([*moves, anchor])
        if len(moves) == 1:
            return moves[0]
        move_ms = int(decision.clocks.move_time_ms) if decision.clocks is not None else 0
        started = time.monotonic()
        limit = move_ms / 1000 * GUARD if move_ms > 0 else math.inf
        work = Work(budget_for(move_ms, self.moves_per_ms), started + limit)
        return self.search(decision.observation.wire, moves, work, anchor)

    def search(
        self, observation: Any, moves: Sequence[int], work: Work, anchor: int | None = None
    ) -> int:
        """The move of ``moves`` with the best weighted mean over sampled worlds (``anchor``
        unless that best beats it by :attr:`margin`)."""
        seat = self.seat
        totals = [0.0] * len(moves)
        weight_sum = 0.0
        worlds = 0
        likelihood = [1.0]
        judge = np.random.default_rng(0)

        def visit(state: Any, player: int, action: int) -> None:
            if player != seat:
                guess = self.policy(state, player, judge)
                if self.kind(state, guess) != self.kind(state, action):
                    likelihood[0] *= NOISE
                work.done += 1

        while worlds < self.max_worlds and not work.spent():
            likelihood[0] = 1.0
            world = self._resample(observation, seat, self.rng, self.params, visit)
            weight = likelihood[0]
            worlds += 1
            start = self.rules.returns(world)
            round_index = self.rules.round_index(world)
            seed = int(self.rng.integers(1 << 62))
            values = []
            for move in moves:
                rng = np.random.default_rng(seed)
                after = self.rules.apply(world, move)
                values.append(self.rollout(after, start, round_index, rng, work))
            for i, value in enumerate(values):
                totals[i] += weight * value
            weight_sum += weight
        if weight_sum <= 0.0:
            return moves[0] if anchor is None else anchor
        best = max(range(len(moves)), key=lambda i: (totals[i], -i))
        if anchor is not None:
            held = moves.index(anchor)
            if (totals[best] - totals[held]) / weight_sum < self.margin:
                return anchor
        return moves[best]

    def rollout(
        self,
        state: Any,
        before: Sequence[Any],
        round_index: int,
        rng: np.random.Generator,
        work: Work,
    ) -> float:
        """Play round ``round_index`` out with the policy; the seat's gain since ``before`` (the
        scores at the decision) minus the others' mean gain."""
        rules = self.rules
        steps = 0
        while True:
            player = rules.current_player(state)
            if player in (TERMINAL, CHANCE) or rules.round_index(state) != round_index:
                break
            state = rules.apply(state, self.policy(state, player, rng))
            steps += 1
        work.done += steps + 1
        after = rules.returns(state)
        gains = [float(a - b) for a, b in zip(after, before, strict=True)]
        mine = gains[self.seat]
        others = [g for s, g in enumerate(gains) if s != self.seat]
        return mine - (sum(others) / len(others) if others else 0.0)


__all__ = ["MOVES_PER_MS", "SearchBot", "Work", "budget_for"]
