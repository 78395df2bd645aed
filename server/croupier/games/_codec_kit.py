"""Wire-encoding helpers every game's codec uses (``croupier/games/<game>/codec.py``): exact
scores, the per-game codec record, history encoders, and serializing each finished round once."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from typing import Any

from croupier.v1 import bot_pb2 as pb
from croupier.v1 import score_pb2


def score(value: Fraction) -> score_pb2.Score:
    """An exact score on the wire."""
    return score_pb2.Score(numerator=value.numerator, denominator=value.denominator)


@dataclass(frozen=True, slots=True)
class GameCodec:
    """How one game's observations, action details and round results go on the wire."""

    observation: Callable[[Any, pb.Observation], None]
    action_detail: Callable[[Any, int, pb.LegalAction], None]
    round_detail: Callable[[Any, pb.DealEnded], None]


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


def _finished_bytes(
    msg_type: type[Any],
    field: str,
    finished: Any,
    history: Callable[[tuple[tuple[int, int], ...]], list[Any]],
    result: Callable[[Any, Any], None],
) -> bytes:
    """An observation message holding one finished deal or round in ``field`` (its public
    ``history`` and ``result``), serialized. Serialized messages concatenate: the bytes of
    several such messages are the message holding all of them, in order."""
    msg = msg_type()
    entry = getattr(msg, field).add(history=history(finished.history))
    result(finished.result, entry.result)
    data: bytes = msg.SerializeToString()
    return data


#: Each finished deal or round is serialized once (a match's observations share the objects)...
_FINISHED = SerializedOnce(4096)


#: ...and the joined bytes of a whole ``past`` tuple once, as every later observation repeats it.
_PAST_DEALS = SerializedOnce(256)


def merge_past(
    msg: Any,
    field: str,
    past: tuple[Any, ...],
    history: Callable[[tuple[tuple[int, int], ...]], list[Any]],
    result: Callable[[Any, Any], None],
) -> None:
    """Merge the finished deals or rounds ``past`` into the observation message ``msg``. A new
    ``past`` (one deal longer) costs one new deal's encoding, not all of them again."""
    if not past:
        return
    msg_type = type(msg)

    def build() -> bytes:
        return b"".join(
            _FINISHED.get(f, partial(_finished_bytes, msg_type, field, f, history, result))
            for f in past
        )

    msg.MergeFromString(_PAST_DEALS.get(past, build))


def deal_header(msg: Any, obs: Any) -> None:
    """The deal index and count and the dealer, as the deal games' observations carry them."""
    msg.deal_index = obs.deal_index
    msg.num_deals = obs.num_deals
    msg.dealer = obs.dealer
