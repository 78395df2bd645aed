"""Wire-encoding helpers every game's codec uses (``croupier/games/<game>/codec.py``): exact
scores, the per-game codec record, history encoders, the round-end record of a finished round,
and the runs of betting amounts sent as ranges."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

from croupier.games._legal import ActionRuns
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import score_pb2


def score(value: Fraction) -> score_pb2.Score:
    """An exact score on the wire."""
    return score_pb2.Score(numerator=value.numerator, denominator=value.denominator)


#: A run of betting actions in a legal set: ``(start, stop, lowest, step)``, the ids at positions
#: ``start:stop`` (at least two) being the amounts ``lowest, lowest + step, ...``.
AmountRun = tuple[int, int, int, int]


def no_runs(legal: ActionRuns) -> tuple[AmountRun, ...]:
    """The amount runs of a game without betting amounts: none."""
    return ()


@dataclass(frozen=True, slots=True)
class GameCodec:
    """How one game's observations, action details and round results go on the wire."""

    observation: Callable[[Any, pb.Observation], None]
    action_detail: Callable[[Any, int, pb.LegalAction], None]
    round_detail: Callable[[Any, pb.DealEnded], None]
    #: The runs of betting actions in a legal set, each sent as one entry with an amount range
    #: (:data:`AmountRun`), found by arithmetic on the set's runs; a game without amounts has
    #: none.
    amount_runs: Callable[[ActionRuns], tuple[AmountRun, ...]] = no_runs


def history_encoder(
    entry: type[Any], detail: Callable[[int], Any]
) -> Callable[[tuple[tuple[int, int], ...]], list[Any]]:
    """The history encoder of a game whose entries are ``entry(seat, action_id, action)``, the
    typed ``action`` being ``detail(action_id)``. A public action's detail depends on its id
    alone (never on a hand), so ``detail`` is a per-game cache of shared messages, and each
    (seat, action id) entry is made once too: the encoder returns shared messages, which the
    callers copy into their own (``extend``, ``add(history=...)``) and never modify."""

    @cache
    def one(seat: int, action: int) -> Any:
        return entry(seat=seat, action_id=action, action=detail(action))

    def history(actions: tuple[tuple[int, int], ...]) -> list[Any]:
        return [one(s, a) for s, a in actions]

    return history


class SerializedOnce:
    """Serialize an immutable value's message once, keyed by the value's identity, and hand out
    the bytes: parsing them is C speed, rebuilding the message in Python is not. Holding the
    value keeps its ``id`` from being reused while it is cached."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._entries: dict[int, tuple[object, bytes]] = {}

    def get(self, value: object, build: Callable[[], bytes]) -> bytes:
        hit = self._entries.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        data = build()
        if len(self._entries) >= self._size:
            self._entries.pop(next(iter(self._entries)))
        self._entries[id(value)] = (value, data)
        return data


def finished_round(
    past: tuple[Any, ...],
    history: Callable[[tuple[tuple[int, int], ...]], list[Any]],
    result: Callable[[Any, Any], None],
    out_result: Any,
    out_past: Any,
) -> None:
    """Fill a round-end event with the round that just finished, the last of ``past`` (the
    observation's finished deals or rounds): its result in ``out_result`` (``DealEnded.<game>``)
    and the whole record, public history and result, in ``out_past``
    (``DealEnded.<game>_past``). A decision request carries the current round only; this is the
    one time a finished round goes on the wire."""
    if not past:
        return
    finished = past[-1]
    result(finished.result, out_result)
    out_past.history.extend(history(finished.history))
    out_past.result.CopyFrom(out_result)


def deal_header(msg: Any, obs: Any) -> None:
    """The deal index and count and the dealer, as the deal games' observations carry them."""
    msg.deal_index = obs.deal_index
    msg.num_deals = obs.num_deals
    msg.dealer = obs.dealer
