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
