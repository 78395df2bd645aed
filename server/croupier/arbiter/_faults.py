"""The fault policy: what the arbiter does for a seat, by the class of its fault.

Four classes (``docs/protocol.md``, "Faults"): ``timeout``; ``illegal`` (a rejected reply: an
illegal action, a stale request id, a message that is not a reply); ``disconnect`` (the stream
was lost, or the bot never connected); ``crash`` (a launched bot's process died). Each has one
of three policies: ``default`` (the game's default action is played for the decision, as
always before), ``forfeit-round`` (the seat gives up the current deal or round: the rules'
``forfeit_round`` or ``concede_action`` decide its moves to the round's end, and it is not asked
again in that round) or ``forfeit-match`` (the same for every round left, and the seat is placed
last). Pure values: no I/O.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass

from croupier.arbiter._types import Fault
from croupier.errors import ConfigError


class FaultClass(enum.Enum):
    """The classes a policy is set for."""

    TIMEOUT = "timeout"
    ILLEGAL = "illegal"
    DISCONNECT = "disconnect"
    CRASH = "crash"


class Policy(enum.Enum):
    """What a fault of a class costs the seat."""

    DEFAULT = "default"
    FORFEIT_ROUND = "forfeit-round"
    FORFEIT_MATCH = "forfeit-match"

    @property
    def forfeits(self) -> bool:
        return self is not Policy.DEFAULT


_CLASS_OF = {
    Fault.TIMEOUT: FaultClass.TIMEOUT,
    Fault.ILLEGAL_ACTION: FaultClass.ILLEGAL,
    Fault.STALE_REQUEST: FaultClass.ILLEGAL,
    Fault.UNEXPECTED_MESSAGE: FaultClass.ILLEGAL,
    Fault.DISCONNECT: FaultClass.DISCONNECT,
    Fault.NO_SHOW: FaultClass.DISCONNECT,
    Fault.CRASH: FaultClass.CRASH,
}


def fault_class(fault: Fault) -> FaultClass:
    """The policy class of a fault."""
    return _CLASS_OF[fault]


@dataclass(frozen=True, slots=True)
class FaultPolicy:
    """A policy per fault class; every class ``default`` unless set."""

    timeout: Policy = Policy.DEFAULT
    illegal: Policy = Policy.DEFAULT
    disconnect: Policy = Policy.DEFAULT
    crash: Policy = Policy.DEFAULT

    def of(self, fault: Fault) -> Policy:
        """The policy that applies to ``fault``."""
        policy: Policy = getattr(self, fault_class(fault).value)
        return policy

    def as_dict(self) -> dict[str, str]:
        """``{"timeout": "default", ...}``: as the replay header and the docs write it."""
        return {c.value: getattr(self, c.value).value for c in FaultClass}

    def __str__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.as_dict().items())

    @classmethod
    def from_mapping(cls, items: Mapping[str, object], where: str = "fault policy") -> FaultPolicy:
        """From ``{"timeout": "forfeit-round", ...}``; :class:`ConfigError` naming a bad key or
        value."""
        classes = ", ".join(c.value for c in FaultClass)
        policies = ", ".join(p.value for p in Policy)
        chosen: dict[str, Policy] = {}
        for key, value in items.items():
            if key not in {c.value for c in FaultClass}:
                raise ConfigError(f"{where}: unknown fault class {key!r} (known: {classes})")
            try:
                chosen[key] = Policy(value)
            except ValueError:
                raise ConfigError(
                    f"{where}: {key}={value!r} is not a policy (known: {policies})"
                ) from None
        return cls(**chosen)

    @classmethod
    def parse(cls, text: str) -> FaultPolicy:
        """From ``timeout=default,illegal=forfeit-round,...`` (the ``--fault-policy`` flag)."""
        items: dict[str, str] = {}
        for part in text.split(","):
            part = part.strip()
            if not part:
                continue
            key, sep, value = part.partition("=")
            if not sep:
                raise ConfigError(f"--fault-policy: {part!r} is not CLASS=POLICY")
            if key.strip() in items:
                raise ConfigError(f"--fault-policy: {key.strip()!r} is given twice")
            items[key.strip()] = value.strip()
        return cls.from_mapping(items, "--fault-policy")


def forfeit_places(places: tuple[int, ...], forfeited: tuple[bool, ...]) -> tuple[int, ...]:
    """The places once every seat that forfeited the match is put below every seat that did not;
    each group keeps the game's order (and its shared places)."""
    if not any(forfeited):
        return places
    kept = sum(1 for f in forfeited if not f)
    out = []
    for seat, place in enumerate(places):
        group = [p for p, f in zip(places, forfeited, strict=True) if f == forfeited[seat]]
        inner = 1 + sum(1 for p in group if p < place)
        out.append(inner + (kept if forfeited[seat] else 0))
    return tuple(out)
