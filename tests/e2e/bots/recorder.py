"""Recorder: a well-behaved raw-stream bot that plays a seeded random legal action (seed from
``CROUPIER_SEED``, like the bundled random bot) and appends every PlayResponse it receives, exactly
as the bytes came off the wire, to the file given as its one argument: each message as a 4-byte
big-endian length followed by the message.
"""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator

from _common import play_raw, reply

from croupier_proto.v1 import bot_pb2 as pb


def main() -> None:
    rng = random.Random(int(os.environ["CROUPIER_SEED"]))
    with open(sys.argv[1], "wb") as out:

        def handle(raw: bytes, response: pb.PlayResponse) -> Iterator[bytes]:
            out.write(len(raw).to_bytes(4, "big") + raw)
            out.flush()
            if response.WhichOneof("kind") == "decision":
                d = response.decision
                yield reply(d.request_id, rng.choice([a.id for a in d.legal_actions]))

        play_raw("recorder", handle)


if __name__ == "__main__":
    main()
