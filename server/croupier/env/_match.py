"""One match in progress for the environments: the rules state, chance drawn from the match's
generator as the arbiter's in-process play draws it (``play_local`` with the same seed deals
the same cards), and what each round's end hands out."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from croupier.games import CHANCE, TERMINAL, Game


@dataclass(frozen=True, slots=True)
class RoundEnd:
    """A round that has just ended, as every seat is told of it: its index, each seat's score
    change and total, the public observation after it (``observe(state, None)``), and the
    number of public events so far (chance events and public actions)."""

    round_index: int
    deltas: tuple[Fraction, ...]
    totals: tuple[Fraction, ...]
    public: Any
    step: int


class Match:
    """A match of ``game`` with ``params`` (complete) whose chance events are drawn from
    ``numpy.random.default_rng(seed)``. ``state`` is never at a chance node between calls."""

    __slots__ = ("_shown", "game", "legal", "player", "rng", "state", "totals")

    def __init__(self, game: Game[Any], params: Mapping[str, int], seed: int) -> None:
        self.game = game
        self.rng = np.random.default_rng(seed)
        self.state = game.initial_state(params)
        self.totals: tuple[Fraction, ...] = game.returns(self.state)
        self._shown = 0
        self.player = CHANCE
        self.legal: tuple[int, ...] = ()
        self._chance()

    @property
    def over(self) -> bool:
        """Whether the match has ended."""
        return self.player == TERMINAL

    def _chance(self) -> None:
        game, state = self.game, self.state
        while (player := game.current_player(state)) == CHANCE:
            state = game.apply_chance(state, game.sample_chance(state, self.rng))
            self._shown += 1
        self.state, self.player = state, player
        self.legal = game.legal_actions(state) if player != TERMINAL else ()

    def play(self, action: int) -> RoundEnd | None:
        """The seat to act plays ``action`` (:class:`~croupier.errors.IllegalActionError` if it
        may not); the round that this ends, if it ends one."""
        game, before = self.game, self.state
        after = game.apply(before, action)
        if game.is_public(before, action):
            self._shown += 1
        ended = None
        if game.current_player(after) == TERMINAL or game.round_index(after) != game.round_index(
            before
        ):
            totals = game.returns(after)
            deltas = tuple(t - s for t, s in zip(totals, self.totals, strict=True))
            self.totals = totals
            ended = RoundEnd(
                game.round_index(before), deltas, totals, game.observe(after, None), self._shown
            )
        self.state = after
        self._chance()
        return ended
