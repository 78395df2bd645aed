"""The contract every game module fulfils (after OpenSpiel's ``spiel.h``), written down once.

A game is a pure state machine over immutable states:

* ``initial_state(params)`` starts a match. Chance is explicit: at a chance node
  ``current_player`` is :data:`CHANCE`, the arbiter draws an outcome with
  ``sample_chance(state, rng)`` and applies it with ``apply_chance``. An outcome is a tuple of
  ints (for a deal: the shuffled deck, card ids in deal order), recorded in the replay, so a replay
  re-simulates without any random generator.
* At a decision node ``current_player`` is a seat ``0..n-1``; ``legal_actions`` lists stable integer
  ids, strictly ascending, never empty; ``apply(state, action)`` returns the next state or raises
  :class:`~croupier.errors.IllegalActionError` (the old state is untouched: states are immutable).
  ``legal_runs`` is the same set as runs (:class:`~croupier.games._legal.ActionRuns`, a
  ``Sequence[int]``), and ``is_legal(state, action)`` is ``action in legal_actions(state)``:
  both arithmetic where a game declares runs (a chip game's thousand bet amounts), so a caller
  that needs only the check or a few ids never lists them all.
* At the end ``current_player`` is :data:`TERMINAL` and ``returns`` gives each seat's final score.
* ``observe(state, seat)`` builds what ``seat`` may see, and nothing else; ``observe(state, None)``
  is the public view (what a spectator sees).
* ``round_index`` counts deals (rounds) from 0 and ``dealer`` names the current dealer (``-1``
  before the first is drawn); ``returns`` gives running scores at any state. A round ends at the
  *action* that settles it: ``round_index`` must change in that ``apply`` (or the state become
  terminal), never later at the next deal's chance node; the arbiter records the round's end
  and its score deltas right there.
* ``default_action`` is what the arbiter plays for a seat that timed out, faulted or left.
* ``concede_action`` is what it plays for a seat that has *forfeited* the round (the fault
  policy ``forfeit-round`` or ``forfeit-match``): the move that gives the round up soonest (a
  fold where the game has one), else the default action. ``forfeit_round`` is the rules' own
  way to end the round at once as lost for the seat to act, where a game defines one (a Fipsen
  declarer's contract counts as lost); ``None`` means "play ``concede_action``". Both are pure,
  so ``replay verify`` re-simulates a forfeit.
* ``ranking`` gives 1-based places at any state (shared places on ties). Points games return
  ``places(returns(state))``; chip games rank eliminated seats by when they dropped out, which
  the chip counts alone cannot tell.

Rules modules import nothing from grpc, logging, clocks, files or a global random generator.
Deviation from ``DESIGN.md``: ``initial_state`` takes no generator. Even the first dealer is a
chance node, so every random draw of a match is a recorded outcome: a replay never needs the RNG.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from croupier.errors import ConfigError, IllegalActionError
from croupier.games._legal import ActionRuns

if TYPE_CHECKING:  # (annotations only)
    import numpy as np

#: ``current_player`` at a chance node.
CHANCE = -1
#: ``current_player`` once the match is over.
TERMINAL = -2


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One integer match parameter with its default and inclusive range."""

    name: str
    default: int
    low: int
    high: int
    doc: str


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a game declares up front (OpenSpiel ``_GAME_TYPE`` / ``_GAME_INFO``)."""

    name: str
    title: str
    version: int
    min_players: int
    max_players: int
    num_distinct_actions: int
    params: tuple[ParamSpec, ...]
    rules_doc: str

    @property
    def fixed_length(self) -> bool:
        """Whether a match plays a fixed number of ``deals`` (the trick and poker games) rather
        than rounds until one player is left or ``round_cap`` (the chip games)."""
        return any(p.name == "deals" for p in self.params)

    @property
    def length_param(self) -> str:
        """The parameter that sets a match's length: ``deals``, or ``round_cap``."""
        return "deals" if self.fixed_length else "round_cap"

    @property
    def round_noun(self) -> str:
        """What one deal/round is called in messages: ``deal`` or ``round``."""
        return "deal" if self.fixed_length else "round"

    def make_params(self, overrides: Mapping[str, int] | None = None) -> dict[str, int]:
        """Defaults updated by ``overrides``; raise :class:`ConfigError` naming a bad one."""
        specs = {p.name: p for p in self.params}
        out = {p.name: p.default for p in self.params}
        for key, value in (overrides or {}).items():
            spec = specs.get(key)
            if spec is None:
                known = ", ".join(sorted(specs))
                raise ConfigError(f"{self.name} has no parameter {key!r} (known: {known})")
            if isinstance(value, bool) or not isinstance(value, int):
                raise ConfigError(
                    f"{self.name} parameter {key!r} must be an integer, got {value!r}"
                )
            if not spec.low <= value <= spec.high:
                raise ConfigError(
                    f"{self.name} parameter {key!r}={value} is out of range "
                    f"[{spec.low}, {spec.high}]"
                )
            out[key] = value
        return out


S = TypeVar("S")


class Game(Protocol[S]):
    """The uniform contract; see the module docstring. ``S`` is the game's immutable state type."""

    info: GameInfo

    def initial_state(self, params: Mapping[str, int]) -> S: ...
    def num_players(self, state: S) -> int: ...
    def current_player(self, state: S) -> int: ...
    def legal_actions(self, state: S) -> tuple[int, ...]: ...
    def legal_runs(self, state: S) -> ActionRuns: ...
    def is_legal(self, state: S, action: int) -> bool: ...
    def apply(self, state: S, action: int) -> S: ...
    def sample_chance(self, state: S, rng: np.random.Generator) -> tuple[int, ...]: ...
    def apply_chance(self, state: S, outcome: tuple[int, ...]) -> S: ...
    def chance_label(self, state: S, outcome: tuple[int, ...]) -> str: ...
    def observe(self, state: S, seat: int | None) -> Any: ...
    def returns(self, state: S) -> tuple[Fraction, ...]: ...
    def action_label(self, state: S, action: int) -> str: ...
    def default_action(self, state: S) -> int: ...
    def concede_action(self, state: S) -> int: ...
    def forfeit_round(self, state: S) -> S | None: ...
    def round_index(self, state: S) -> int: ...
    def dealer(self, state: S) -> int: ...
    def is_public(self, state: S, action: int) -> bool: ...
    def ranking(self, state: S) -> tuple[int, ...]: ...


N = TypeVar("N", bound=tuple[Any, ...])
T = TypeVar("T")


def action_id(action: object) -> int:
    """``action`` as a plain int id: bools and floats are not ids (``IllegalActionError``);
    int subclasses (an ``IntEnum`` member) are normalised to int."""
    if type(action) is int:
        return action
    if isinstance(action, bool) or not isinstance(action, int):
        raise IllegalActionError(f"an action id is an int, not {action!r}")
    return int(action)


def first_dealer(outcome: Sequence[int], players: int) -> int:
    """The seat a first-dealer chance outcome ``(seat,)`` names; IllegalActionError otherwise."""
    if len(outcome) != 1 or outcome[0] not in range(players):
        raise IllegalActionError(f"first-dealer outcome must be (seat,), got {tuple(outcome)!r}")
    return int(outcome[0])


def shuffled_deck(outcome: Sequence[int], size: int) -> tuple[int, ...]:
    """A deal outcome as card ids, checked to be a permutation of the ``size`` cards."""
    deck = tuple(int(c) for c in outcome)
    if len(deck) != size or set(deck) != set(range(size)):
        raise IllegalActionError(f"a deal outcome must be a permutation of the {size} card ids")
    return deck


def put(values: tuple[T, ...], seat: int, value: T) -> tuple[T, ...]:
    """``values`` with the entry of ``seat`` replaced by ``value``."""
    return (*values[:seat], value, *values[seat + 1 :])


def fast_replace(cls: type[N]) -> Callable[..., N]:
    """A ``_replace`` for the NamedTuple ``cls`` that is 2-3 times faster than the stock one
    (which builds a dict and maps over every field): for the rules' hot paths. Field names are
    checked at run time (a wrong one raises ``KeyError``)."""
    index = {name: i for i, name in enumerate(cls._fields)}  # type: ignore[attr-defined]
    new = tuple.__new__

    def replace(value: N, **changes: object) -> N:
        values = list(value)
        for name, changed in changes.items():
            values[index[name]] = changed
        return new(cls, values)

    return replace


def places(scores: tuple[Fraction, ...]) -> tuple[int, ...]:
    """1-based places, highest score first; equal scores share the better place (1, 1, 3)."""
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)
