"""Helpers of the game contract (:mod:`croupier.games._api`)."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from croupier.games._api import fast_replace


class _Point(NamedTuple):
    x: int
    y: int
    label: str


def test_fast_replace_matches_the_stock_replace() -> None:
    replace = fast_replace(_Point)
    p = _Point(1, 2, "a")
    assert replace(p, y=5) == p._replace(y=5) == _Point(1, 5, "a")
    assert type(replace(p, label="b")) is _Point
    assert replace(p) == p
    assert p == _Point(1, 2, "a")  # the original is untouched
    with pytest.raises(KeyError):
        replace(p, z=3)


def test_action_id_takes_ints_and_int_subclasses_only() -> None:
    import enum

    from croupier.errors import IllegalActionError
    from croupier.games._api import action_id

    class Move(enum.IntEnum):
        THREE = 3

    assert action_id(3) == 3
    assert type(action_id(Move.THREE)) is int
    for bad in (True, 3.0, "3", None):
        with pytest.raises(IllegalActionError):
            action_id(bad)


def test_put_replaces_one_seat() -> None:
    from croupier.games._api import put

    assert put((1, 2, 3), 1, 9) == (1, 9, 3)
    assert put(("a",), 0, "b") == ("b",)
