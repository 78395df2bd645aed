"""Match seeds (``croupier.arbiter._seeds``): 128 bits, keyed, and nothing public gives one."""

from __future__ import annotations

import hashlib
import hmac

import pytest

from croupier.arbiter import (
    SEED_LIMIT,
    bot_seed,
    check_seed,
    explicit_key,
    keyed_seed,
    new_secret,
    random_seed,
    searchable,
)
from croupier.errors import ConfigError


def test_random_seeds_have_128_bits() -> None:
    seeds = [random_seed() for _ in range(200)]
    assert all(0 <= s < SEED_LIMIT for s in seeds)
    assert len(set(seeds)) == 200
    assert max(seeds).bit_length() > 120  # (a 53-bit draw would never get here)


def test_keyed_seeds_are_hmac_sha256_of_the_parts_and_depend_on_the_key() -> None:
    key = bytes(range(32))
    expected = hmac.new(key, b"deals/0/3", hashlib.sha256).digest()[:16]
    assert keyed_seed(key, "deals", 0, 3) == int.from_bytes(expected, "big")
    assert keyed_seed(key, "deals", 0, 3) != keyed_seed(key, "deals", 0, 4)
    assert keyed_seed(key, "deals", 0, 3) != keyed_seed(new_secret(), "deals", 0, 3)
    assert len({new_secret() for _ in range(20)}) == 20


def test_an_explicit_seed_is_a_key_of_its_own() -> None:
    assert explicit_key(7) == explicit_key(7) != explicit_key(8)
    assert keyed_seed(explicit_key(0), "deals", 0, 0) != keyed_seed(b"", "deals", 0, 0)


def test_a_bot_seed_is_32_bits_per_seat_of_the_match_seed() -> None:
    seed = random_seed()
    seats = [bot_seed(seed, s) for s in range(4)]
    assert len(set(seats)) == 4
    assert all(0 <= s < 1 << 32 for s in seats)
    assert bot_seed(seed, 0) == bot_seed(seed, 0) != bot_seed(seed + 1, 0)


@pytest.mark.parametrize("bad", [-1, SEED_LIMIT, 1.5, "3", True])
def test_a_seed_out_of_range_is_one_error(bad: object) -> None:
    with pytest.raises(ConfigError, match="must be an integer from 0 to 2\\*\\*128 - 1"):
        check_seed(bad)  # type: ignore[arg-type]


def test_small_seeds_are_searchable_random_ones_are_not() -> None:
    assert searchable(0)
    assert searchable(20261201)
    assert searchable((1 << 96) - 1)
    assert not searchable(1 << 96)
    assert sum(searchable(random_seed()) for _ in range(1000)) == 0
