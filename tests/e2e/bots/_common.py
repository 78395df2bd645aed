"""Shared by the misbehaving test bots (not a bot itself).

* :func:`passive` - the fault bots' default policy: HOLD when matched, else CALL; never looks,
  folds or raises, so the seat stays in every deal and keeps getting decisions.
* :func:`play_raw` - a byte-level ``BotService.Play`` stream (identity serializers) for bots that
  must send what the SDK never would: wrong request ids, a second Hello, an empty envelope, or
  bytes that are not a protobuf message at all.
* :class:`CountingBot` - an SDK bot playing :func:`passive` that numbers its decisions from 1
  and logs each decision, rejection and the match end.
* :func:`say` - one line to stdout, which the launcher copies into the seat's log file; the tests
  read those lines.

The bots are run as ``python tests/e2e/bots/<name>.py ARGS``, so this directory is on sys.path.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable, Iterable, Iterator

import grpc

from croupier_bot import Bot, Decision, MatchInfo
from croupier_proto.v1 import bot_pb2 as pb

LOOK, FOLD, CALL, HOLD, RAISE = range(5)
PLAY_METHOD = "/croupier.v1.BotService/Play"
PROTOCOL_VERSION = 1


def say(*parts: object) -> None:
    print(*parts, flush=True)


def passive(legal_ids: Iterable[int]) -> int:
    legal = set(legal_ids)
    return HOLD if HOLD in legal else CALL


def hello(
    name: str, *, token: str | None = None, protocol_version: int = PROTOCOL_VERSION
) -> bytes:
    return pb.PlayRequest(
        hello=pb.Hello(
            token=os.environ["CROUPIER_TOKEN"] if token is None else token,
            bot_name=name,
            bot_version="test",
            protocol_version=protocol_version,
        )
    ).SerializeToString()


def reply(request_id: int, action_id: int) -> bytes:
    return pb.PlayRequest(
        action=pb.ActionReply(request_id=request_id, action_id=action_id)
    ).SerializeToString()


#: Given the raw bytes of one response and its parsed form, return the raw messages to send.
Handler = Callable[[bytes, pb.PlayResponse], Iterable[bytes]]


def play_raw(name: str, handler: Handler) -> pb.MatchEnd:
    """Say hello as ``name``, feed every response to ``handler``, return the MatchEnd."""
    outgoing: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
    outgoing.put(hello(name))

    def requests() -> Iterator[bytes]:
        while (message := outgoing.get()) is not None:
            yield message

    with grpc.insecure_channel(os.environ["CROUPIER_ADDRESS"]) as channel:
        grpc.channel_ready_future(channel).result(timeout=30)
        play = channel.stream_stream(
            PLAY_METHOD, request_serializer=None, response_deserializer=None
        )
        try:
            for raw in play(requests()):
                response = pb.PlayResponse.FromString(raw)
                if response.WhichOneof("kind") == "rejected":
                    r = response.rejected
                    say(
                        f"rejected request_id={r.request_id} "
                        f"reason={pb.RejectReason.Name(r.reason)} "
                        f"default_played={r.default_played}"
                    )
                for message in handler(raw, response):
                    outgoing.put(message)
                if response.WhichOneof("kind") == "match_end":
                    say("match_end received")
                    return response.match_end
        finally:
            outgoing.put(None)
    raise SystemExit(f"{name}: the stream ended before MatchEnd")


class CountingBot(Bot):
    """SDK bot: passive play; subclasses override :meth:`choose` (``self.count`` is 1-based)."""

    name = "counting"
    version = "test"

    def __init__(self) -> None:
        self.count = 0
        self.seat = -1

    def on_welcome(self, match: MatchInfo) -> None:
        self.seat = match.seat
        say(f"welcome seat={match.seat} move_ms={match.move_time_ms} bank_ms={match.time_bank_ms}")

    def act(self, decision: Decision) -> int:
        self.count += 1
        clocks = decision.clocks
        say(
            f"decision {self.count} request_id={decision.request_id} "
            f"move_ms={clocks.move_time_ms} bank_ms={clocks.time_bank_ms} "
            f"last_latency_us={clocks.last_latency_us}"
        )
        return self.choose(decision)

    def choose(self, decision: Decision) -> int:
        return passive(decision.legal_ids)

    def on_rejected(self, rejected: pb.ActionRejected) -> None:
        say(
            f"rejected request_id={rejected.request_id} "
            f"reason={pb.RejectReason.Name(rejected.reason)} "
            f"default_played={rejected.default_played}"
        )

    def on_match_end(self, end: pb.MatchEnd) -> None:
        say("match_end received")
