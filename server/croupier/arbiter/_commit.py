"""Commit-reveal for the match: before play every bot is told a commitment, a SHA-256 of the match
seed, a secret salt and the digest of the match's *terms* (everything that decides the match and
is fixed before the first bot is welcomed: the game, its rules version and params, the chance
script, the clocks, the fault policy, the reconnect window, the seats as the organiser set them);
at the end the seed and the salt are revealed. Anyone holding the replay can then recompute the
commitment from the header and re-draw every deal from the seed (``croupier replay verify`` does
both), so neither the deals nor the terms can have changed once the bots were told.

Scheme v2 (``croupier-commit-v2``, replay format 4): the commitment of seed ``S`` (decimal),
salt ``T`` (32 hex digits) and terms digest ``D`` (64 hex digits) is the lower-case hex SHA-256
of the UTF-8 text ``croupier-commit-v2:S:T:D``. ``D`` is the SHA-256 of the terms' canonical
JSON (:func:`canonical`: keys sorted, no whitespace, UTF-8; RFC 8785 for these values). The terms
are an object with exactly the keys :data:`TERMS`, each as the replay header writes it, except
``seats``: each header seat object without the fields set when its bot joined (:data:`JOINED`).

Scheme v1 (``croupier-commit-v1``): the text is ``croupier-commit-v1:S:T:C`` with ``C`` the chance
script's digest (:func:`script_digest`): the deals' commitment. Bots are told both at Welcome:
``Welcome.deal_commitment`` (v1, its meaning since protocol 2) and ``Welcome.match_commitment``
(v2); replay formats 2 and 3 have only the v1 one, format 4 both.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from croupier.arbiter._config import MatchConfig
    from croupier.games import GameInfo

#: The commitment scheme's version, part of the hashed text (the current one).
SCHEME = "croupier-commit-v2"
#: The scheme of replay formats 2 and 3: seed, salt and the chance script's digest only.
SCHEME_V1 = "croupier-commit-v1"

#: The keys of the terms: replay header fields, fixed before the first Welcome.
TERMS = (
    "match_id",
    "game",
    "rules_version",
    "params",
    "chance_script",
    "chance_script_sha256",
    "clock",
    "fault_policy",
    "reconnect_grace_ms",
    "event_flush_ms",
    "seats",
)
#: The fields of a header seat object set when (and if) its bot joined, after the commitment
#: was told: not part of the terms. Every other field of a seat object is.
JOINED = frozenset({"bot_name", "bot_version", "connected", "peer"})
#: Field names a seat's roster entry (``MatchConfig.seat_roster``) may not use.
RESERVED_SEAT_FIELDS = JOINED | {"seat"}


def new_salt() -> str:
    """A fresh secret salt: 128 random bits as 32 hex digits."""
    return secrets.token_hex(16)


def script_digest(script: Sequence[Sequence[int]]) -> str:
    """SHA-256 (hex) of the chance script's canonical JSON: a list of outcomes, each a list of
    integers, without spaces (``[[3,1],[7]]``; an empty script gives ``[]``)."""
    text = json.dumps([list(map(int, outcome)) for outcome in script], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def commitment(seed: int, salt: str, digest: str) -> str:
    """Scheme v1: the commitment to ``seed``, ``salt`` and the script ``digest``."""
    return hashlib.sha256(f"{SCHEME_V1}:{seed}:{salt}:{digest}".encode()).hexdigest()


def canonical(value: Any) -> str:
    """The canonical JSON text of ``value``: keys sorted, no whitespace, non-ASCII kept as UTF-8
    (only ``"``, ``\\`` and control characters escaped). For objects, arrays, strings, booleans,
    ``null`` and integers this is RFC 8785 (JCS) as long as the keys are ASCII."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def terms_digest(terms: Mapping[str, Any]) -> str:
    """SHA-256 (hex) of the terms' canonical JSON."""
    return hashlib.sha256(canonical(dict(terms)).encode()).hexdigest()


def commitment_v2(seed: int, salt: str, terms: Mapping[str, Any]) -> str:
    """Scheme v2: the commitment to ``seed``, ``salt`` and the match's ``terms``."""
    return hashlib.sha256(f"{SCHEME}:{seed}:{salt}:{terms_digest(terms)}".encode()).hexdigest()


def clock_terms(config: MatchConfig) -> dict[str, Any]:
    """The clock rules as the replay header records them."""
    clock = config.clock
    return {
        "move_time_ms": clock.move_time_ms,
        "time_bank_ms": clock.time_bank_ms,
        "kind": clock.kind.value,
        "margin_ms": clock.margin_ms,
        "seat_cap_ms": clock.seat_cap_ms,
        "match_cap_ms": clock.match_cap_ms,
        "cpu_wall_guard_ms": clock.cpu_wall_guard_ms,
    }


def match_terms(
    match_id: str, info: GameInfo, params: Mapping[str, int], config: MatchConfig
) -> dict[str, Any]:
    """The terms of a match (keys :data:`TERMS`), JSON values as the replay header has them."""
    seats = params["players"]
    roster = config.seat_roster or tuple({} for _ in range(seats))
    return {
        "match_id": match_id,
        "game": info.name,
        "rules_version": info.version,
        "params": dict(params),
        "chance_script": len(config.chance_script),
        "chance_script_sha256": script_digest(config.chance_script),
        "clock": clock_terms(config),
        "fault_policy": config.fault_policy.as_dict(),
        "reconnect_grace_ms": round(config.reconnect_grace_s * 1000),
        "event_flush_ms": config.event_flush_ms,
        "seats": [{"seat": seat, **roster[seat]} for seat in range(seats)],
    }


def header_terms(header: Mapping[str, Any]) -> dict[str, Any]:
    """The terms (keys :data:`TERMS`) a format 4 replay header records: its committed fields,
    each seat object without the fields set when its bot joined (:data:`JOINED`)."""
    terms = {key: header[key] for key in TERMS if key != "seats"}
    terms["seats"] = [
        {k: v for k, v in seat.items() if k not in JOINED} for seat in header["seats"]
    ]
    return terms


def check_roster(roster: Sequence[Mapping[str, Any]], seats: int) -> str | None:
    """Why ``roster`` is not a valid ``MatchConfig.seat_roster`` for ``seats`` seats, or None."""
    if roster and len(roster) != seats:
        return f"seat_roster has {len(roster)} entries for {seats} seats"
    for entry in roster:
        for key, value in entry.items():
            if not isinstance(key, str) or key in RESERVED_SEAT_FIELDS:
                return f"seat_roster: {key!r} is not a field a roster entry may set"
            if not isinstance(value, str | int | bool):
                return f"seat_roster: {key!r} must be a string, an integer or a boolean"
    return None
