"""One driver for every loop that plays a game outside a live match: playthroughs, in-process
play, benchmarks and the test kits (the arbiter's match, with its clocks and faults, is the one
loop that does not use it).

``play(game, state, choose)`` yields one :class:`Ply` per chance event or decision until the end
(or ``limit`` plies). ``choose(state, player)`` returns the move: a chance outcome (a tuple)
when ``player`` is :data:`CHANCE`, else an action id. :func:`random_moves` draws both from one
numpy generator the way the arbiter and the golden playthroughs do; :func:`scripted` replays
recorded moves.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from croupier.errors import IllegalActionError
from croupier.games._api import CHANCE, TERMINAL

if TYPE_CHECKING:  # (annotations only)
    import numpy as np

S = TypeVar("S")
#: A chance outcome, or an action id.
Move = tuple[int, ...] | int
#: ``choose(state, player) -> move``.
Chooser = Callable[[Any, int], Move]


@dataclass(frozen=True, slots=True)
class Ply(Generic[S]):
    """One step of a game: at a chance node (``player`` is :data:`CHANCE`) ``outcome`` happened
    in ``before``; at a decision seat ``player`` played ``action``."""

    before: S
    player: int
    #: The action id (``-1`` at a chance node).
    action: int
    #: The chance outcome (``()`` at a decision).
    outcome: tuple[int, ...]
    after: S


def advance(game: Any, state: S, player: int, move: Move) -> S:
    """The state after ``player`` makes ``move`` (an outcome at a chance node, else an id)."""
    if player == CHANCE:
        if not isinstance(move, tuple):
            raise IllegalActionError(f"a chance outcome is a tuple of ints, not {move!r}")
        result: S = game.apply_chance(state, move)
    else:
        result = game.apply(state, move)  # checks the id
    return result


def play(game: Any, state: S, choose: Chooser, *, limit: int | None = None) -> Iterator[Ply[S]]:
    """Play from ``state`` until the end (or ``limit`` plies), yielding every ply."""
    plies = 0
    while (player := game.current_player(state)) != TERMINAL:
        if limit is not None and plies >= limit:
            return
        move = choose(state, player)
        after = advance(game, state, player, move)
        if isinstance(move, tuple):
            yield Ply(state, player, -1, move, after)
        else:
            yield Ply(state, player, move, (), after)
        state = after
        plies += 1


def final(game: Any, state: S, choose: Chooser) -> S:
    """The state at the end of the match ``play`` would play."""
    for ply in play(game, state, choose):
        state = ply.after
    return state


def random_moves(game: Any, rng: np.random.Generator) -> Chooser:
    """Chance outcomes from ``game.sample_chance`` and uniformly random legal actions, both
    drawn from ``rng`` (the golden playthroughs' and the benchmarks' random play)."""

    def choose(state: Any, player: int) -> Move:
        if player == CHANCE:
            outcome: tuple[int, ...] = game.sample_chance(state, rng)
            return outcome
        legal = game.legal_runs(state)  # the same pick as over the list, none listed
        return int(legal[rng.integers(len(legal))])

    return choose


def with_chance(game: Any, rng: np.random.Generator, act: Chooser) -> Chooser:
    """Chance outcomes drawn from ``rng``; decisions by ``act(state, seat)``."""

    def choose(state: Any, player: int) -> Move:
        if player == CHANCE:
            outcome: tuple[int, ...] = game.sample_chance(state, rng)
            return outcome
        return act(state, player)

    return choose


def scripted(moves: Iterable[Move]) -> Chooser:
    """The recorded ``moves`` in order (outcomes as tuples, actions as ids or 1-tuples)."""
    todo = iter(moves)

    def choose(state: Any, player: int) -> Move:
        move = next(todo)
        if player != CHANCE and isinstance(move, tuple):
            if len(move) != 1:
                raise IllegalActionError(f"a chance outcome {move!r} where seat {player} acts")
            return move[0]
        return move

    return choose
