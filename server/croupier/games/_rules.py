"""The rules skeleton every game builds on: one dialect for the four games.

A game subclasses :class:`Rules` and supplies its phases as a table ``Phase -> Step(legal,
apply)`` (after OpenSpiel's ``hearts.cc``), plus a few hooks: who acts in a decision phase, what
the first-dealer draw and a shuffled deal do to the state, and the label of a deal. The skeleton
writes, once for every game:

* the action-id check and the legality check (``apply`` raises
  :class:`~croupier.errors.IllegalActionError` with the same words in every game),
* the run-based view of the legal actions (``legal_runs``, ``is_legal``): a phase that declares
  its runs (``Step.runs``: a chip game's betting step, a thousand amounts in two or three runs)
  is checked by arithmetic; every other phase wraps its legal list (the generic fallback),
* the chance lifecycle: the first dealer (outcome ``(seat,)``) and the deals (the shuffled deck),
  drawn by one ``sample_chance`` and checked by one ``apply_chance``,
* ``current_player`` (a seat in a decision phase, :data:`CHANCE` in a chance phase, else
  :data:`TERMINAL`), the standard errors, and the record of a finished round
  (:class:`PastRound`: its public history and its result).

States are immutable NamedTuples built by keyword; every game calls the seat to act
``to_act``, the current deal or round ``round_index`` and the undealt cards ``stock``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Protocol, TypeVar

from croupier.errors import IllegalActionError
from croupier.games._api import (
    CHANCE,
    TERMINAL,
    GameInfo,
    action_id,
    first_dealer,
    places,
    shuffled_deck,
)
from croupier.games._legal import NO_ACTIONS, ActionRuns

if TYPE_CHECKING:  # (annotations only)
    import numpy as np


class HasPhase(Protocol):
    """What the skeleton reads of every game's state."""

    @property
    def phase(self) -> enum.Enum: ...


S = TypeVar("S", bound=HasPhase)
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Step(Generic[S]):
    """The rules of one decision phase: ``legal(state)`` lists the legal ids (ascending, never
    empty), ``apply(state, action)`` plays one. With ``checks`` the skeleton does not check the
    id against ``legal``: ``apply`` checks it (the chips module checks a bet by arithmetic, which
    is cheaper than listing every amount).

    A phase whose legal ids come in runs (every allowed bet) declares ``runs(state)`` instead of
    ``legal``: the ids as :class:`~croupier.games._legal.ActionRuns`, from which the skeleton
    makes the list when it is asked for one (``legal_actions``). A step has one of the two."""

    legal: Callable[[S], tuple[int, ...]] | None
    apply: Callable[[S, int], S]
    checks: bool = False
    runs: Callable[[S], ActionRuns] | None = None

    def __post_init__(self) -> None:
        if (self.legal is None) == (self.runs is None):
            raise TypeError("a Step has legal(state) or runs(state), one of the two")


@dataclass(frozen=True, slots=True)
class PastRound(Generic[R]):
    """A finished deal or round as everyone saw it: its public actions ``(seat, action)`` and
    its result."""

    history: tuple[tuple[int, int], ...]
    result: R


def no_decision(state: HasPhase) -> IllegalActionError:
    """The error for an action where no seat acts."""
    return IllegalActionError(f"no seat acts in phase {state.phase.name}")


def not_legal(action: object, seat: int) -> IllegalActionError:
    """The error for an action the seat to act may not play."""
    return IllegalActionError(f"action {action!r} is not legal for seat {seat}")


def no_chance(state: HasPhase) -> IllegalActionError:
    """The error for a chance outcome where no chance event happens."""
    return IllegalActionError(f"no chance event in phase {state.phase.name}")


class Rules(Generic[S]):
    """The contract of :mod:`croupier.games._api`, written once over a game's phase table.

    A subclass sets :attr:`info`, :attr:`deck_size`, :attr:`draw_dealer` and :attr:`deal` (its
    two chance phases) and :attr:`steps`, and implements the hooks below.
    """

    info: GameInfo
    #: Cards in a deal's outcome (the shuffled deck).
    deck_size: ClassVar[int]
    #: The chance phase that draws the first dealer, and the one that deals.
    draw_dealer: ClassVar[enum.Enum]
    deal: ClassVar[enum.Enum]
    #: The decision phases: ``Phase -> Step``.
    steps: Mapping[Any, Step[S]]

    # -- hooks ----------------------------------------------------------------------------------

    def num_players(self, state: S) -> int:
        raise NotImplementedError

    def to_act(self, state: S) -> int:
        """The seat to act, in a decision phase."""
        raise NotImplementedError

    def seat_dealer(self, state: S, dealer: int) -> S:
        """The state once the first dealer is drawn."""
        raise NotImplementedError

    def deal_cards(self, state: S, deck: tuple[int, ...]) -> S:
        """The state once ``deck`` (a checked permutation of the cards) is dealt."""
        raise NotImplementedError

    def deal_label(self, state: S, dealt: S) -> str:
        """The omniscient label of the deal that turned ``state`` into ``dealt``."""
        raise NotImplementedError

    def totals(self, state: S) -> tuple[Fraction, ...]:
        """Each seat's running score."""
        raise NotImplementedError

    # -- the contract ---------------------------------------------------------------------------

    def current_player(self, state: S) -> int:
        phase = state.phase
        if phase in self.steps:
            return self.to_act(state)
        if phase is self.draw_dealer or phase is self.deal:
            return CHANCE
        return TERMINAL

    def legal_actions(self, state: S) -> tuple[int, ...]:
        step = self.steps.get(state.phase)
        if step is None:
            return ()
        if step.legal is not None:
            return step.legal(state)
        assert step.runs is not None  # Step.__post_init__
        return step.runs(state).ids

    def legal_runs(self, state: S) -> ActionRuns:
        """The legal ids as runs: the phase's own (``Step.runs``), or its list wrapped."""
        step = self.steps.get(state.phase)
        if step is None:
            return NO_ACTIONS
        if step.runs is not None:
            return step.runs(state)
        assert step.legal is not None  # Step.__post_init__
        return ActionRuns.of_ids(step.legal(state))

    def is_legal(self, state: S, action: int) -> bool:
        """Whether ``action in legal_actions(state)``, by arithmetic over the runs."""
        return action in self.legal_runs(state)

    def apply(self, state: S, action: int) -> S:
        action = action_id(action)
        step = self.steps.get(state.phase)
        if step is None:
            raise no_decision(state)
        if not step.checks:
            legal = step.legal(state) if step.legal is not None else self.legal_runs(state)
            if action not in legal:
                raise not_legal(action, self.to_act(state))
        return step.apply(state, action)

    def sample_chance(self, state: S, rng: np.random.Generator) -> tuple[int, ...]:
        if state.phase is self.draw_dealer:
            return (int(rng.integers(self.num_players(state))),)
        if state.phase is self.deal:
            return tuple(int(c) for c in rng.permutation(self.deck_size))
        raise no_chance(state)

    def apply_chance(self, state: S, outcome: tuple[int, ...]) -> S:
        if state.phase is self.draw_dealer:
            return self.seat_dealer(state, first_dealer(outcome, self.num_players(state)))
        if state.phase is self.deal:
            return self.deal_cards(state, shuffled_deck(outcome, self.deck_size))
        raise no_chance(state)

    def chance_label(self, state: S, outcome: tuple[int, ...]) -> str:
        dealt = self.apply_chance(state, outcome)  # checks the outcome
        if state.phase is self.draw_dealer:
            return f"First dealer: seat {outcome[0]}"
        return self.deal_label(state, dealt)

    def returns(self, state: S) -> tuple[Fraction, ...]:
        return self.totals(state)

    def ranking(self, state: S) -> tuple[int, ...]:
        return places(self.totals(state))

    def default_action(self, state: S) -> int:
        legal = self.legal_runs(state)
        if not legal:
            raise no_decision(state)
        return self.default_choice(state, legal)

    def default_choice(self, state: S, legal: Sequence[int]) -> int:
        """What the arbiter plays for a seat that timed out or faulted (``legal``, the legal
        ids as runs, is never empty): the lowest legal id unless the game says otherwise."""
        return legal[0]

    def concede_action(self, state: S) -> int:
        """What the arbiter plays for a seat that forfeited the round: the default action
        unless the game has a move that gives the round up (a fold)."""
        return self.default_action(state)

    def forfeit_round(self, state: S) -> S | None:
        """The state once the seat to act has forfeited the round, where the rules end it at
        once (none by default: the seat plays :meth:`concede_action` to the round's end)."""
        return None

    def is_public(self, state: S, action: int) -> bool:
        return True
