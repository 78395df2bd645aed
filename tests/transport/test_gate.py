"""A gate counts the HTTP/2 streams its bot opens from the bytes it forwards, however they are
cut into reads: a new stream is a ``HEADERS`` frame with a stream id above the last; a frame's
payload (whatever it holds), trailing ``HEADERS`` on an open stream, ``DATA`` and the client
preface are not."""

from __future__ import annotations

import random
import struct

import pytest

from croupier.transport._gate import _PREFACE, _Streams


def _frame(kind: int, stream: int, payload: bytes = b"") -> bytes:
    head = struct.pack(">I", len(payload))[1:] + bytes([kind, 0x4]) + struct.pack(">I", stream)
    return head + payload


def _connection() -> tuple[bytes, int]:
    # a payload that looks like frame heads, to catch a counter that does not skip payloads
    decoy = _frame(1, 999) * 3
    parts = [_PREFACE, _frame(4, 0), _frame(1, 1, b"h"), _frame(0, 1, decoy), _frame(1, 3, decoy)]
    parts += [_frame(1, 1, b"trailers"), _frame(8, 0, b"\0\0\0\1"), _frame(1, 5), _frame(9, 5)]
    parts += [_frame(1, 7, b"x" * 70000), _frame(3, 7, b"\0\0\0\0")]
    return b"".join(parts), 4  # streams 1, 3, 5, 7


@pytest.mark.parametrize("seed", range(20))
def test_new_streams_are_counted_across_any_cut_of_the_bytes(seed: int) -> None:
    data, expected = _connection()
    rng = random.Random(seed)
    counter, at, counted = _Streams(), 0, 0
    while at < len(data):
        step = rng.choice([1, 2, 5, 9, 17, 100, 65536])
        counted += counter.opened(data[at : at + step])
        at += step
    assert counted == expected


def test_in_one_read() -> None:
    data, expected = _connection()
    assert _Streams().opened(data) == expected
