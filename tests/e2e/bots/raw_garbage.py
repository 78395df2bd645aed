"""Raw garbage: a raw-stream bot (identity serializers) that says a valid Hello, plays passively,
and on its ``--on``-th decision sends bytes that are not a PlayRequest at all (a length-delimited
field whose length runs past the end), so the arbiter cannot decode them. With ``--then-answer``
it also sends the correct answer afterwards. (Garbage *instead of* the Hello is a handshake error,
tested in-process in ``test_matches.py``.)
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from _common import passive, play_raw, reply, say

from croupier.v1 import bot_pb2 as pb

#: Field 1, wire type 2 (length-delimited), length 255 - and then nothing: a truncated message.
GARBAGE = b"\x0a\xff"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--on", type=int, default=2)
    parser.add_argument("--then-answer", action="store_true")
    args = parser.parse_args()
    count = 0

    def handle(raw: bytes, response: pb.PlayResponse) -> Iterator[bytes]:
        nonlocal count
        if response.WhichOneof("kind") != "decision":
            return
        count += 1
        d = response.decision
        say(f"decision {count} request_id={d.request_id} bank_ms={d.clocks.time_bank_ms}")
        answer = reply(d.request_id, passive(a.id for a in d.legal_actions))
        if count != args.on:
            yield answer
            return
        say(f"bad bytes {count} request_id={d.request_id}")
        yield GARBAGE
        if args.then_answer:
            yield answer

    play_raw("raw-garbage", handle)


if __name__ == "__main__":
    main()
