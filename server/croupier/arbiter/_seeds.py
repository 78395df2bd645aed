"""Match seeds: where every chance outcome of a match comes from, and how they are kept secret.

A match seed is an integer below ``2**128`` (:data:`SEED_BITS`): every deal not taken from a chance
script is drawn from it, so whoever knows it knows every hand. Hence:

- A seed nobody chose is drawn from the operating system (:func:`random_seed`): 128 bits.
- Many matches (a tournament, the server's ladder) derive their seeds from one **secret key**
  with HMAC-SHA256 of the match's place in the schedule (:func:`keyed_seed`): the match id,
  the slot and every other public fact give nothing without the key. The key is either 32
  random bytes drawn at the first start and kept private (0600) by whoever runs the matches
  (:func:`new_secret`), or, for a reproducible run, made from an explicit seed
  (:func:`explicit_key`): then that seed is the secret, and one small enough to be searched from
  a bot's own hand (:func:`searchable`) is warned about.
- A bot's own seed (``CROUPIER_SEED``, ``SeatAssignment.seed``) is SHA-256 of the match seed and
  the seat (:func:`bot_seed`): reproducible with the match, and telling nothing of the deals nor
  of another seat's seed.

Commit-reveal (:mod:`._commit`) then fixes the seed before the first decision and reveals it when
it can help no one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from croupier.errors import ConfigError

#: Bits of a match seed: every seed is below ``2**SEED_BITS``.
SEED_BITS = 128
SEED_LIMIT = 1 << SEED_BITS
#: An explicit seed below this could be found by a bot that searches the seeds whose deals give
#: its own hand (any number a person picks by hand is far below it): a warning, not an error.
SEARCHABLE_BELOW = 1 << 96
#: Bytes of a secret key drawn from the operating system.
SECRET_BYTES = 32


def random_seed() -> int:
    """An unguessable match seed: 128 bits from the operating system."""
    return secrets.randbits(SEED_BITS)


def new_secret() -> bytes:
    """A fresh secret key for :func:`keyed_seed` (32 bytes from the operating system)."""
    return secrets.token_bytes(SECRET_BYTES)


def explicit_key(seed: int) -> bytes:
    """The key an explicit seed stands for (a reproducible run): SHA-256 of it, versioned."""
    return hashlib.sha256(f"croupier-seed-key-v1:{seed}".encode()).digest()


def keyed_seed(key: bytes, *parts: object) -> int:
    """The 128-bit seed of ``parts`` (a match's place in a schedule) under ``key``:
    HMAC-SHA256 of the parts joined by ``/``, first 16 bytes, big-endian."""
    text = "/".join(str(p) for p in parts)
    digest = hmac.new(key, text.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[: SEED_BITS // 8], "big")


def bot_seed(match_seed: int, seat: int) -> int:
    """The seed handed to the bot in ``seat`` for its own randomness (``CROUPIER_SEED``): 32 bits
    of SHA-256 of the match seed and the seat, so the same match seeds the same bot behaviour and
    the value tells nothing of the match seed, the deals or another seat's bot seed."""
    digest = hashlib.sha256(f"croupier/bot-seed/{match_seed}/{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def check_seed(seed: int, what: str = "seed") -> int:
    """``seed`` if it is a match seed (an integer from 0 to ``2**128 - 1``), else
    :class:`ConfigError` naming ``what``."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < SEED_LIMIT:
        raise ConfigError(f"{what} {seed!r}: must be an integer from 0 to 2**{SEED_BITS} - 1")
    return seed


def searchable(seed: int) -> bool:
    """Whether an explicit seed is small enough for a bot to search (see
    :data:`SEARCHABLE_BELOW`)."""
    return seed < SEARCHABLE_BELOW


def searchable_warning(seed: int, where: str) -> str:
    """The one warning line for an explicit seed a bot could search (``where``: how it was
    given, e.g. ``--seed``)."""
    return (
        f"{where} {seed} is small enough for a bot to search from its own hand and then know "
        "every deal: fine for a reproducible test, not for a competition (leave it out, or "
        f"use {SEED_BITS} random bits)"
    )
