"""Garbage: a raw-stream bot that plays passively but, on chosen decisions (1-based), sends a
message the arbiter must reject instead of (or before) its answer:

``--stale-on N``      an ActionReply echoing the wrong request id (``--stale old``: the previous
                      request's id; ``--stale future``: the next one's);
``--hello-on N``      a second Hello (UNEXPECTED_MESSAGE);
``--empty-on N``      an empty PlayRequest, no field of the oneof set (UNEXPECTED_MESSAGE);
``--bytes-on N``      bytes that are not a PlayRequest at all (a length-delimited field whose
                      length runs past the end), so the arbiter cannot decode them;
``--then-answer``     after the bad message, also send the correct answer to the same request -
                      one ActionReply per request, as the protocol asks, just too late to count.

Each bad message is logged as ``bad <kind> <decision> request_id=<pending>``. (Garbage *instead
of* the Hello is a handshake error, tested in-process in ``test_matches.py``.)
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from _common import hello, passive, play_raw, reply, say

from croupier_proto.v1 import bot_pb2 as pb

#: Field 1, wire type 2 (length-delimited), length 255 - and then nothing: a truncated message.
UNDECODABLE = b"\x0a\xff"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stale-on", type=int, default=0)
    parser.add_argument("--stale", choices=("old", "future"), default="old")
    parser.add_argument("--hello-on", type=int, default=0)
    parser.add_argument("--empty-on", type=int, default=0)
    parser.add_argument("--bytes-on", type=int, default=0)
    parser.add_argument("--then-answer", action="store_true")
    args = parser.parse_args()
    count = 0

    def handle(raw: bytes, response: pb.PlayResponse) -> Iterator[bytes]:
        nonlocal count
        if response.WhichOneof("kind") != "decision":
            return
        count += 1
        d = response.decision
        rid = d.request_id
        say(f"decision {count} request_id={rid} bank_ms={d.clocks.time_bank_ms}")
        answer = reply(rid, passive(a.id for a in d.legal_actions))
        if count == args.stale_on:
            wrong = rid - 1 if args.stale == "old" else rid + 1
            say(f"bad stale {count} request_id={rid} sent={wrong}")
            yield reply(wrong, passive(a.id for a in d.legal_actions))
        elif count == args.hello_on:
            say(f"bad hello {count} request_id={rid}")
            yield hello("garbage")
        elif count == args.empty_on:
            say(f"bad empty {count} request_id={rid}")
            yield pb.PlayRequest().SerializeToString()
        elif count == args.bytes_on:
            say(f"bad bytes {count} request_id={rid}")
            yield UNDECODABLE
        else:
            yield answer
            return
        if args.then_answer:
            yield answer

    play_raw("garbage", handle)


if __name__ == "__main__":
    main()
