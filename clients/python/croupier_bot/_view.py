"""What bot code reads of a decision, as it read it before decision messages were bounded
(protocol 2): the observation with every finished round of the match, and every legal action.

On the wire a decision carries the current round only, and a run of bets or raises is one legal
action with an amount range. The SDK keeps each finished round from its round-end event
(``DealEnded.<game>_past``) and hands bot code

* the observation as an :class:`ObservationView`: every field of the wire message, and in the
  game's message ``past_deals`` (As-Nas, Fipsen) or ``past_rounds`` (Felduz, Scauver) again,
  a tuple of the finished rounds, oldest first;
* the legal actions as :class:`LegalActions`: a sequence of ``croupier.v1.LegalAction``, one per
  action, ascending by id, each range expanded (an entry is built when it is read, so a bot that
  picks one of 1,000 bets does not pay for the other 999); and, for a bot that wants them as
  they came, the ids as ranges (``runs``), a legality check by arithmetic (``has_id``) and the
  wire's own entries (``entries``), none of which lists an id.
"""

from __future__ import annotations

import operator
import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any, overload

from croupier_proto.v1 import bot_pb2 as pb


def _past_fields() -> dict[str, str]:
    """The observation field that held the finished rounds, per game (``Observation.game``),
    read from the ``DealEnded.past`` oneof: its entry ``<game>_past`` is a ``<Game>Past<Unit>``
    message (``AsNasPastDeal``, ``FelduzPastRound``), kept as ``past_<unit>s`` (``past_deals``,
    ``past_rounds``), so a new game's entry needs no line here."""
    fields = {}
    for entry in pb.DealEnded.DESCRIPTOR.oneofs_by_name["past"].fields:
        game = entry.name.removesuffix("_past")
        unit = entry.message_type.name.rpartition("Past")[2]
        fields[game] = "past_" + re.sub(r"(?<!^)(?=[A-Z])", "_", unit).lower() + "s"
    return fields


#: The observation field that held the finished rounds, per game (``Observation.game``).
PAST_FIELD = _past_fields()


class History:
    """One seat's finished rounds, oldest first, from the round-end events of its stream."""

    def __init__(self) -> None:
        self.rounds: tuple[Any, ...] = ()

    def add(self, ended: Any) -> None:
        """Keep the finished round a ``croupier.v1.DealEnded`` carries (a copy: the event's
        message, and the response around it, are not kept alive)."""
        kind = ended.WhichOneof("past")
        if kind is None:
            return
        record = getattr(ended, kind)
        kept = type(record)()
        kept.CopyFrom(record)
        self.rounds = (*self.rounds, kept)  # a new tuple per round: each view keeps its own


class ObservationView:
    """A ``croupier.v1.Observation`` with the match's finished rounds: any field or method of
    the wire message, and the game's message as a :class:`GameObservationView`. ``wire`` is the
    message as it came (``SerializeToString`` and ``json_format`` see that one, without the
    finished rounds)."""

    __slots__ = ("_past", "wire")

    def __init__(self, wire: Any, past: tuple[Any, ...]) -> None:
        self.wire = wire
        self._past = past

    def __getattr__(self, name: str) -> Any:
        value = getattr(self.wire, name)
        field = PAST_FIELD.get(name)
        if field is not None and self.wire.WhichOneof("game") == name:
            return GameObservationView(value, field, self._past)
        return value

    def __repr__(self) -> str:
        return f"ObservationView({self.wire!r}, {len(self._past)} finished rounds)"


class GameObservationView:
    """A game's observation message (``croupier.v1.FelduzObservation``, ...) with ``past_deals``
    or ``past_rounds``: the finished rounds, oldest first, each with its ``history`` and
    ``result`` as before protocol 2."""

    __slots__ = ("_field", "_past", "wire")

    def __init__(self, wire: Any, field: str, past: tuple[Any, ...]) -> None:
        self.wire = wire
        self._field = field
        self._past = past

    def __getattr__(self, name: str) -> Any:
        if name == self._field:
            return self._past
        return getattr(self.wire, name)

    def __repr__(self) -> str:
        return f"GameObservationView({self.wire!r}, {len(self._past)} finished rounds)"


class LegalActions(Sequence[Any]):
    """The legal actions of one decision, one ``croupier.v1.LegalAction`` per action, ascending by
    id: the wire's entries with every amount range expanded (the entry of amount ``a`` has id
    ``entry.id + a - lowest``, label ``<kind>:<a>`` and typed fields with ``chip.amount = a``).
    ``ids`` lists the action ids without building any entry; ``runs``, ``has_id``, ``id_at`` and
    ``entries`` read the ids as the ranges they came as, listing none."""

    def __init__(self, entries: Sequence[Any]) -> None:
        self._entries = tuple(entries)
        self._starts: list[int] = []  # index of each entry's first action in the expanded list
        total = 0
        for entry in self._entries:
            self._starts.append(total)
            total += _count(entry)
        self._len = total
        self._built: dict[int, Any] = {}
        self._runs: tuple[range, ...] | None = None

    @property
    def ids(self) -> list[int]:
        """Every legal action id, ascending."""
        return [i for run in self.runs for i in run]

    @property
    def entries(self) -> tuple[Any, ...]:
        """The entries as the wire sent them (``croupier.v1.LegalAction``), ascending by id: a run
        of bets or raises is one entry with ``amounts`` set, its id, label and typed fields those
        of the lowest amount."""
        return self._entries

    @property
    def runs(self) -> tuple[range, ...]:
        """The legal ids as ranges, ascending, one per entry of the wire (an action without an
        amount range is a range of one id): ``sum(map(len, runs)) == len(self)``. Builds no entry
        and lists no id: a run of 1,000 bets is one ``range``."""
        runs = self._runs
        if runs is None:
            runs = self._runs = tuple(_ids(entry) for entry in self._entries)
        return runs

    def has_id(self, action_id: int) -> bool:
        """Whether ``action_id`` is a legal id, by arithmetic on the runs (lists no id). False
        for anything that is not an integer (a ``bool`` included)."""
        return runs_hold(self.runs, action_id)

    def id_for_amount(self, amount: int, kind: str = "") -> int | None:
        """The id of the bet or raise of ``amount`` chips (of ``kind``, ``"Bet"`` or
        ``"Raise"``, the label's prefix, when given), by arithmetic on the run that offers it
        (``entry.id + amount - lowest``), or the entry labelled ``"<kind>:<amount>"`` (a step
        that allows one amount sends that bet or raise without a range); ``None`` when nothing
        offers that amount. Builds no entry."""
        lone = {f"{k}:{amount}" for k in ((kind,) if kind else ("Bet", "Raise"))}
        for entry in self._entries:
            if not entry.HasField("amounts"):
                if entry.label in lone:
                    return int(entry.id)
                continue
            span = entry.amounts
            if not span.lowest <= amount <= span.highest:
                continue
            if (amount - span.lowest) % max(span.step, 1):
                continue
            if kind and not entry.label.startswith(f"{kind}:"):
                continue
            return int(entry.id + amount - span.lowest)
        return None

    def id_at(self, index: int) -> int:
        """The id of ``self[index]`` without building that entry."""
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal action index out of range")
        k = bisect_right(self._starts, index) - 1
        return self.runs[k][index - self._starts[k]]

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Any: ...
    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...
    def __getitem__(self, index: int | slice) -> Any:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("legal action index out of range")
        built = self._built.get(index)
        if built is None:
            k = bisect_right(self._starts, index) - 1
            built = _expanded(self._entries[k], index - self._starts[k])
            self._built[index] = built
        return built

    def __iter__(self) -> Iterator[Any]:
        for i in range(self._len):
            yield self[i]

    def __repr__(self) -> str:
        return f"LegalActions({self._len} actions)"


def _ids(entry: Any) -> range:
    """The ids an entry stands for: its own, or one per amount of its range."""
    if not entry.HasField("amounts"):
        return range(entry.id, entry.id + 1)
    r = entry.amounts
    return range(entry.id, entry.id - r.lowest + r.highest + 1, max(r.step, 1))


def runs_hold(runs: Sequence[range], action_id: Any) -> bool:
    """Whether ascending, disjoint ``runs`` hold ``action_id`` (an integer; not a ``bool``)."""
    if isinstance(action_id, bool):
        return False
    try:
        action_id = operator.index(action_id)
    except TypeError:
        return False
    k = bisect_right(runs, action_id, key=_first) - 1
    return k >= 0 and action_id in runs[k]


def _first(run: range) -> int:
    return run.start


def _count(entry: Any) -> int:
    if not entry.HasField("amounts"):
        return 1
    r = entry.amounts
    return max(0, int(r.highest - r.lowest) // max(int(r.step), 1) + 1)


def _expanded(entry: Any, k: int) -> Any:
    """The ``k``-th action an entry stands for (the entry itself when it has no range)."""
    if not entry.HasField("amounts"):
        return entry
    r = entry.amounts
    amount = r.lowest + k * max(r.step, 1)
    kind = entry.WhichOneof("detail")
    action = pb.LegalAction(
        id=entry.id + amount - r.lowest, label=f"{entry.label.rpartition(':')[0]}:{amount}"
    )
    if kind is not None:
        detail = getattr(action, kind)
        detail.CopyFrom(getattr(entry, kind))
        detail.chip.amount = amount
    return action
