"""Legal action ids as runs: the run-based view of a legal list beside ``legal_actions``.

A chip game's betting step allows every multiple of A up to the cap: with ``stack = 1000``, a
thousand ids that are one arithmetic run. :class:`ActionRuns` keeps such a set as the runs it is
made of (``range`` objects), so that "is this id legal?" is arithmetic (:meth:`__contains__`),
the ``k``-th id is arithmetic (:meth:`__getitem__`), and the wire sends a run as one entry with
its amount range (``GameCodec.amount_runs``) without listing its ids. It is a
``Sequence[int]``: ascending, indexable, iterable, so everything that wants the list can still
have it (:attr:`ActionRuns.ids`).

A game declares runs for the phases that have them (``Step(runs=...)`` in
:mod:`croupier.games._rules`); every other phase gets the generic fallback, its legal list
wrapped as it is (:meth:`ActionRuns.of_ids`), which costs nothing more than the list.

:class:`Labels` is the matching lazy view of the labels: the label of an id is made when it is
read, so a decision request carries a thousand legal ids without making a thousand labels.
"""

from __future__ import annotations

import itertools
import numbers
import operator
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence
from typing import Any, SupportsIndex, cast, overload


def _as_id(value: object) -> int | None:
    """``value`` as the int it equals, where it equals one (so that ``in`` agrees with ``in``
    over a tuple of ints: ``True``, ``1.0`` and ``numpy.int64(1)`` are all 1), else ``None``."""
    if hasattr(type(value), "__index__"):  # int, bool, IntEnum, numpy integers
        return operator.index(cast(SupportsIndex, value))
    if isinstance(value, numbers.Real):  # float, Fraction, Decimal, numpy floats
        number = float(cast(float, value))
        if number.is_integer() and number == value:
            return int(number)
    return None


class ActionRuns(Sequence[int]):
    """A set of legal action ids, ascending, kept as runs (``range`` objects with a positive
    step, each non-empty, each after the one before). Build one with :meth:`of_ranges` (a game's
    runs) or :meth:`of_ids` (a plain legal list: the generic fallback). Two sets are equal when
    their ids are; a set also equals the tuple of its ids."""

    __slots__ = ("_ids", "_runs", "_starts")

    _ids: tuple[int, ...] | None
    _runs: tuple[range, ...] | None
    #: For run-backed sets: the index of each run's first id.
    _starts: tuple[int, ...]

    def __init__(self) -> None:
        raise TypeError("use ActionRuns.of_ranges(...) or ActionRuns.of_ids(...)")

    @classmethod
    def of_ids(cls, ids: Sequence[int]) -> ActionRuns:
        """The set of ``ids`` (ascending, distinct), kept as the list it is; an
        :class:`ActionRuns` is returned unchanged."""
        if isinstance(ids, ActionRuns):
            return ids
        self = object.__new__(cls)
        self._ids = ids if type(ids) is tuple else tuple(ids)
        self._runs = None
        self._starts = ()
        return self

    @classmethod
    def of_ranges(cls, *ranges: range) -> ActionRuns:
        """The ids of ``ranges`` (empty ones are dropped), which must ascend: each non-empty
        range's first id above the last id of the one before, every step positive."""
        runs = tuple(r for r in ranges if r)
        starts = []
        count = 0
        last: int | None = None
        for r in runs:
            if r.step <= 0 or (last is not None and r[0] <= last):
                raise ValueError(f"runs must ascend: {ranges!r}")
            starts.append(count)
            count += len(r)
            last = r[-1]
        self = object.__new__(cls)
        self._ids = None
        self._runs = runs
        self._starts = tuple(starts)
        return self

    # -- the run view ---------------------------------------------------------------------------

    @property
    def runs(self) -> tuple[range, ...]:
        """The set as ranges: those it was made of, or (made from ids) its consecutive ids
        grouped (``2, 3, 4, 9`` -> ``range(2, 5), range(9, 10)``)."""
        if self._runs is not None:
            return self._runs
        runs: list[range] = []
        ids = self._ids or ()
        i, n = 0, len(ids)
        while i < n:
            j = i + 1
            while j < n and ids[j] == ids[j - 1] + 1:
                j += 1
            runs.append(range(ids[i], ids[j - 1] + 1))
            i = j
        return tuple(runs)

    @property
    def ids(self) -> tuple[int, ...]:
        """Every id, ascending (what ``legal_actions`` returns)."""
        if self._ids is not None:
            return self._ids
        runs = self._runs or ()
        if len(runs) == 1:
            return tuple(runs[0])
        return tuple(itertools.chain.from_iterable(runs))

    def count_below(self, action: int) -> int:
        """How many ids are below ``action`` (``bisect_left`` over the ids, by arithmetic)."""
        if self._runs is None:
            return bisect_left(self._ids or (), action)
        below = 0
        for r in self._runs:
            if action <= r[0]:
                return below
            if action > r[-1]:
                below += len(r)
                continue
            return below + (action - r[0] + r.step - 1) // r.step
        return below

    def progression(self, start: int, stop: int) -> int | None:
        """The step, when the ids at positions ``start:stop`` (two or more) are evenly
        spaced; else ``None``. Arithmetic over the runs: no id is listed."""
        if stop - start < 2:
            return None
        if self._runs is None:
            ids = self._ids or ()
            step = ids[start + 1] - ids[start]
            if ids[start:stop] != tuple(range(ids[start], ids[stop - 1] + 1, step)):
                return None
            return step
        pieces = []
        for r, first in zip(self._runs, self._starts, strict=True):
            piece = r[max(0, start - first) : max(0, stop - first)]
            if piece:
                pieces.append(piece)
        step = pieces[0].step if len(pieces[0]) > 1 else pieces[1][0] - pieces[0][0]
        last = None
        for piece in pieces:
            if len(piece) > 1 and piece.step != step:
                return None
            if last is not None and piece[0] - last != step:
                return None
            last = piece[-1]
        return step

    # -- Sequence[int] --------------------------------------------------------------------------

    def __len__(self) -> int:
        if self._runs is None:
            return len(self._ids or ())
        runs = self._runs
        return self._starts[-1] + len(runs[-1]) if runs else 0

    def __contains__(self, action: object) -> bool:
        if self._runs is None:
            return action in (self._ids or ())
        value = action if type(action) is int else _as_id(action)
        if value is None:
            return False
        return any(value in r for r in self._runs)

    @overload
    def __getitem__(self, index: int) -> int: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[int, ...]: ...
    def __getitem__(self, index: int | slice) -> int | tuple[int, ...]:
        if self._runs is None:
            return (self._ids or ())[index]
        if isinstance(index, slice):
            return self.ids[index]
        n = len(self)
        i = operator.index(index)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("legal action index out of range")
        k = bisect_right(self._starts, i) - 1
        return self._runs[k][i - self._starts[k]]

    def __iter__(self) -> Iterator[int]:
        if self._runs is None:
            return iter(self._ids or ())
        return itertools.chain.from_iterable(self._runs)

    def __reversed__(self) -> Iterator[int]:
        return reversed(self.ids)

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        """The position of ``value`` (arithmetic over the runs); ValueError if absent."""
        if value in self:
            i = self.count_below(_as_id(value) or 0)
            if start <= i and (stop is None or i < stop):
                return i
        raise ValueError(f"{value!r} is not a legal action id here")

    def count(self, value: Any) -> int:
        return 1 if value in self else 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionRuns):
            if self._runs is not None and self._runs == other._runs:
                return True
            return len(self) == len(other) and self.ids == other.ids
        if isinstance(other, tuple):
            return len(self) == len(other) and self.ids == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.ids)

    def __repr__(self) -> str:
        if self._runs is None:
            return f"ActionRuns.of_ids({self._ids!r})"
        return f"ActionRuns.of_ranges({', '.join(map(repr, self._runs))})"

    def __bool__(self) -> bool:
        return len(self) > 0


#: The empty set (no seat acts).
NO_ACTIONS = ActionRuns.of_ids(())


class Labels(Sequence[str]):
    """The labels of a set of legal ids, each made when it is read: ``labels[i]`` is
    ``label(legal[i])``. Two are equal when their labels are."""

    __slots__ = ("_label", "_legal")

    def __init__(self, legal: ActionRuns, label: Callable[[int], str]) -> None:
        self._legal = legal
        self._label = label

    def __len__(self) -> int:
        return len(self._legal)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, slice):
            return tuple(self._label(a) for a in self._legal[index])
        return self._label(self._legal[index])

    def __iter__(self) -> Iterator[str]:
        return (self._label(a) for a in self._legal)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Labels | tuple | list):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Labels({self._legal!r})"
