"""Commit-reveal for the deals: before play every bot is told a commitment, a SHA-256 of the
match seed, a secret salt and the digest of any chance script; at the end the seed and the salt
are revealed. Anyone can then recompute the commitment, and re-draw every deal from the seed
(``croupier replay verify`` does both), so the deals were fixed before the first decision.

The commitment of seed ``S``, salt ``T`` (32 hex digits) and script digest ``D`` (64 hex
digits) is the lower-case hex SHA-256 of the UTF-8 text ``croupier-commit-v1:S:T:D``. ``D`` is
the SHA-256 of the script's canonical JSON: a list of outcomes, each a list of integers, without
spaces (``[[3,1],[7]]``; an empty script gives ``[]``).
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence

#: The commitment scheme's version, part of the hashed text.
SCHEME = "croupier-commit-v1"


def new_salt() -> str:
    """A fresh secret salt: 128 random bits as 32 hex digits."""
    return secrets.token_hex(16)


def script_digest(script: Sequence[Sequence[int]]) -> str:
    """SHA-256 (hex) of the chance script's canonical JSON."""
    text = json.dumps([list(map(int, outcome)) for outcome in script], separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def commitment(seed: int, salt: str, digest: str) -> str:
    """The commitment to ``seed``, ``salt`` and the script ``digest`` (hex SHA-256)."""
    return hashlib.sha256(f"{SCHEME}:{seed}:{salt}:{digest}".encode()).hexdigest()
