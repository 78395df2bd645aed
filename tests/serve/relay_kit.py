"""A TCP relay between a bot and the arbiter's bot port, to break the bot's network on cue
(the reconnect tests: ``tests/serve/test_serve_reconnect.py``, the ladder scenario).

:class:`Relay` copies bytes both ways on threads of its own. :meth:`Relay.cut` resets every
connection through it; while :attr:`Relay.refusing`, new connections are reset at once (the bot's
network is down). :meth:`Relay.cut_at_reply` arms a cut at a chosen point of the protocol: the
relay reads the plaintext HTTP/2 it carries (frames, then the gRPC messages of each stream's DATA
frames) and, once the bot's reply to a decision request arrives, drops that reply and resets
everything: the arbiter still has the decision pending, and the bot has seen it. It reads both
a seat's own Play stream and a multiplexed Session stream (protocol 3: the seat's decision in a
``SeatMessage``, its reply in a ``SeatReply``).
:meth:`Relay.cut_at_seat` cuts when the arbiter hands the bot's session a seat, before the bot
sees it. No sleeps: the cut happens at that point whatever the load.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field

from google.protobuf.message import DecodeError

from croupier.v1 import bot_pb2 as bpb

#: What an HTTP/2 client sends before its first frame (RFC 9113, 3.4).
PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_DATA = 0
_PADDED = 0x8


class Messages:
    """The gRPC messages in one direction of a plaintext HTTP/2 connection: :meth:`feed` takes
    the bytes as they come and returns the messages they complete, as (stream id, message)."""

    def __init__(self, *, client: bool) -> None:
        self._skip = len(PREFACE) if client else 0
        self._buffer = bytearray()
        self._streams: dict[int, bytearray] = {}

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        if self._skip:
            taken = min(self._skip, len(data))
            self._skip -= taken
            data = data[taken:]
        buffer = self._buffer
        buffer += data
        out: list[tuple[int, bytes]] = []
        while len(buffer) >= 9:
            length = int.from_bytes(buffer[:3], "big")
            if len(buffer) < 9 + length:
                break
            kind, flags = buffer[3], buffer[4]
            stream = int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF
            payload = bytes(buffer[9 : 9 + length])
            del buffer[: 9 + length]
            if kind != _DATA:
                continue
            if flags & _PADDED and payload:
                payload = payload[1 : len(payload) - payload[0]]
            pending = self._streams.setdefault(stream, bytearray())
            pending += payload
            # a gRPC message: 1 byte compressed flag, 4 bytes length, the message
            while len(pending) >= 5:
                size = int.from_bytes(pending[1:5], "big")
                if len(pending) < 5 + size:
                    break
                if not pending[0]:  # (compressed messages are not read)
                    out.append((stream, bytes(pending[5 : 5 + size])))
                del pending[: 5 + size]
        return out


@dataclass(frozen=True)
class Cut:
    """Where an armed cut happened: the seat's match and seat, and the request id of the
    decision whose reply was dropped (still pending at the arbiter; 0 for :meth:`cut_at_seat`)."""

    match_id: str
    seat: int
    request_id: int


@dataclass
class _Connection:
    """One relayed connection: its Play streams (stream id -> the Welcome's match and seat),
    its Session streams, and the seats multiplexed on them ((stream id, seat_ref) -> match and
    seat)."""

    seats: dict[int, tuple[str, int]] = field(default_factory=dict)
    sessions: set[int] = field(default_factory=set)
    refs: dict[tuple[int, int], tuple[str, int]] = field(default_factory=dict)


def _play_response(message: bytes) -> bpb.PlayResponse | None:
    with contextlib.suppress(DecodeError):
        return bpb.PlayResponse.FromString(message)
    return None


class Relay:
    """A threaded TCP relay to ``target`` (``host:port``); see the module's docstring."""

    def __init__(self, target: str) -> None:
        host, _, port = target.rpartition(":")
        self.target = (host, int(port))
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.address = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.refusing = False
        self.accepted = 0
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        #: Set once the armed cut has happened; :attr:`cut_at` then says where.
        self.was_cut = threading.Event()
        self.cut_at: Cut | None = None
        self._armed: str | None = None  # "reply" or "seat"
        #: (connection, stream id, the cut, the seat_ref on a multiplexed stream or 0)
        self._target: tuple[_Connection, int, Cut, int] | None = None
        threading.Thread(target=self._accept, daemon=True).start()

    def cut_at_reply(self) -> None:
        """Arm the cut: the next decision request relayed to the bot is the one; when the bot's
        reply to it arrives, the relay drops it and resets every connection."""
        with self.lock:
            self._armed, self._target = "reply", None

    def cut_at_seat(self) -> None:
        """Arm the cut: the next seat the arbiter hands the bot's session is not relayed; every
        connection is reset instead (the arbiter wrote the seat, the bot never got it)."""
        with self.lock:
            self._armed, self._target = "seat", None

    @staticmethod
    def _reset(sock: socket.socket) -> None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        with contextlib.suppress(OSError):  # wakes the pipe thread blocked in recv (a close
            sock.shutdown(socket.SHUT_RDWR)  # alone would wait for it, and send nothing)
        with contextlib.suppress(OSError):
            sock.close()

    def _accept(self) -> None:
        while True:
            try:
                down, _ = self.listener.accept()
            except OSError:
                return
            if self.refusing:
                self._reset(down)
                continue
            try:
                up = socket.create_connection(self.target)
            except OSError:  # the arbiter is down: so is the bot's connection
                self._reset(down)
                continue
            with self.lock:
                self.accepted += 1
                self.sockets += [down, up]
            connection = _Connection()
            for pipe, args in ((self._to_bot, (up, down)), (self._to_arbiter, (down, up))):
                threading.Thread(target=pipe, args=(*args, connection), daemon=True).start()

    def _to_bot(self, src: socket.socket, dst: socket.socket, connection: _Connection) -> None:
        self._pipe(src, dst, Messages(client=False), lambda m: self._watch(m, connection))

    def _to_arbiter(self, src: socket.socket, dst: socket.socket, connection: _Connection) -> None:
        self._pipe(src, dst, Messages(client=True), lambda m: self._is_target_reply(m, connection))

    def _pipe(
        self,
        src: socket.socket,
        dst: socket.socket,
        messages: Messages,
        cut_at: Callable[[list[tuple[int, bytes]]], bool],
    ) -> None:
        """Copy ``src`` to ``dst`` until either ends, or until ``cut_at`` says the messages just
        read (not forwarded) are where to cut everything."""
        try:
            with contextlib.suppress(OSError):
                while data := src.recv(65536):
                    # (every byte is read: the frames are found from the connection's start)
                    if cut_at(messages.feed(data)):
                        self.cut()
                        self.was_cut.set()
                        return
                    dst.sendall(data)
        finally:  # whatever ends this pipe (a parse error too) ends the connection both ways,
            self._reset(dst)  # never a half-open link that silently stops relaying
            self._reset(src)

    def _watch(self, messages: list[tuple[int, bytes]], connection: _Connection) -> bool:
        """Note the Play streams' Welcomes and the armed decision; whether to cut now (a seat
        handed to the session while armed for it)."""
        for stream, message in messages:
            if stream in connection.sessions:
                if self._armed == "seat" and self._seat_handed(message):
                    return True
                self._multiplexed(message, connection, stream)
                continue
            response = _play_response(message)
            if response is None:
                continue
            kind = response.WhichOneof("kind")
            # (a stream's first message is its Welcome: a Play stream's names a game, and a
            # Session stream's parses as a PlayResponse too, but without one)
            if kind == "welcome" and stream not in connection.seats:
                if response.welcome.game:
                    connection.seats[stream] = (response.welcome.match_id, response.welcome.seat)
                else:
                    connection.sessions.add(stream)
            elif kind == "decision" and stream in connection.seats:
                decision = response.decision
                with self.lock:
                    if self._armed == "reply" and self._target is None and decision.legal_actions:
                        cut = Cut(*connection.seats[stream], decision.request_id)
                        self._target = (connection, stream, cut, 0)

    def _multiplexed(self, message: bytes, connection: _Connection, stream: int) -> None:
        """Note the seats a multiplexed Session stream opens, and the armed decision."""
        with contextlib.suppress(DecodeError):
            response = bpb.SessionResponse.FromString(message)
            for item in response.seat_messages:
                key = (stream, item.seat_ref)
                if item.HasField("assignment"):
                    connection.refs[key] = (item.assignment.match_id, item.assignment.seat)
                if not item.message.HasField("decision") or key not in connection.refs:
                    continue
                decision = item.message.decision
                with self.lock:
                    if self._armed == "reply" and self._target is None and decision.legal_actions:
                        cut = Cut(*connection.refs[key], decision.request_id)
                        self._target = (connection, stream, cut, item.seat_ref)

    def _seat_handed(self, message: bytes) -> bool:
        with contextlib.suppress(DecodeError):
            response = bpb.SessionResponse.FromString(message)
            handed = [i.assignment for i in response.seat_messages if i.HasField("assignment")]
            if response.WhichOneof("kind") == "seat":
                handed.append(response.seat)
            if handed:
                with self.lock:
                    if self._armed != "seat":
                        return False
                    self._armed = None
                    self.cut_at = Cut(handed[0].match_id, handed[0].seat, 0)
                return True
        return False

    def _is_target_reply(self, messages: list[tuple[int, bytes]], connection: _Connection) -> bool:
        with self.lock:
            target = self._target
        if target is None or target[0] is not connection:
            return False
        for stream, message in messages:
            if stream != target[1]:
                continue
            if target[3]:  # a seat multiplexed on a Session stream
                with contextlib.suppress(DecodeError):
                    replies = bpb.SessionRequest.FromString(message).replies
                    if any(
                        r.seat_ref == target[3] and r.action.request_id == target[2].request_id
                        for r in replies
                    ):
                        with self.lock:
                            self._armed, self._target, self.cut_at = None, None, target[2]
                        return True
                continue
            with contextlib.suppress(DecodeError):
                request = bpb.PlayRequest.FromString(message)
                if request.WhichOneof("kind") == "action" and (
                    request.action.request_id == target[2].request_id
                ):
                    with self.lock:
                        self._armed, self._target, self.cut_at = None, None, target[2]
                    return True
        return False

    def cut(self) -> None:
        """Reset every connection through the relay now."""
        with self.lock:
            sockets, self.sockets = self.sockets, []
        for sock in sockets:
            self._reset(sock)

    def close(self) -> None:
        self.listener.close()
        self.cut()
