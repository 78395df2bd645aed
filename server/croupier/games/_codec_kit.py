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
    #: Optional, for speed: the serialized ``Observation`` that :attr:`observation` fills, put
    #: together from bytes made once (``None``: the transport serializes the message). Byte for
    #: byte the message's serialization (``tests/transport/test_encode_bytes.py``).
    observation_bytes: Callable[[Any], bytes] | None = None
    #: Optional, likewise: the serialized ``LegalAction`` holding only what
    #: :attr:`action_detail` sets (its game's detail field). With it the transport writes a
    #: decision field by field (its observation from :attr:`observation_bytes` if given, else
    #: from the message): a game whose cost is in its legal actions (Scauver's 80 openings)
    #: needs only this one.
    detail_bytes: Callable[[Any, int], bytes] | None = None


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


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


#: Varints below 2**14 (lengths, ids, counts), made once.
VARINTS = tuple(_varint(n) for n in range(1 << 14))


def varint(n: int) -> bytes:
    """``n`` (at least 0) as a protobuf varint."""
    return VARINTS[n] if n < 16384 else _varint(n)


def uint_field(tag: bytes, value: int) -> bytes:
    """A proto3 unsigned integer field (``tag``: its key byte) as protobuf writes it: nothing
    for 0; ``ValueError`` for a negative value or one of 64 bits or more."""
    if not value:
        return b""
    if 0 < value < 16384:
        return tag + VARINTS[value]
    if not 0 < value < 1 << 64:
        raise ValueError(f"{value} is no unsigned protobuf integer")
    return tag + _varint(value)


def message_field(tag: bytes, data: bytes) -> bytes:
    """A length-delimited field (``tag``: its key byte) holding ``data``."""
    n = len(data)
    return tag + (VARINTS[n] if n < 16384 else _varint(n)) + data


def deal_header(msg: Any, obs: Any) -> None:
    """The deal index and count and the dealer, as the deal games' observations carry them."""
    msg.deal_index = obs.deal_index
    msg.num_deals = obs.num_deals
    msg.dealer = obs.dealer
