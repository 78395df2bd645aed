"""Flooder: a launched bot that never plays. For ``--seconds`` it holds as many connections to
the arbiter (``CROUPIER_ADDRESS``, a unix socket) as it can (up to ``--connections``), and on
the first of them opens ``--streams`` gRPC ``Play`` streams that never say ``Hello`` (raw
HTTP/2 ``HEADERS`` frames: the standard library only, so it is up within milliseconds, long
before a gRPC bot has imported gRPC); a connection the arbiter closes is opened again. With
``--burst N`` it also opens N more streams on every connection it holds, every 10 ms (a churn:
the arbiter refuses them, and opens again). Then it exits. It reads and drops what the arbiter
sends. Prints a line of counts at the end."""

from __future__ import annotations

import argparse
import os
import socket
import struct
import time

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def _frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    head = struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(">I", stream)
    return head + payload


def _literal(name: str, value: str) -> bytes:
    return b"\x00" + bytes([len(name)]) + name.encode() + bytes([len(value)]) + value.encode()


HEADERS = b"".join(
    _literal(k, v)
    for k, v in [
        (":method", "POST"),
        (":scheme", "http"),
        (":path", "/croupier.v1.BotService/Play"),
        (":authority", "localhost"),
        ("content-type", "application/grpc"),
        ("te", "trailers"),
    ]
)


def _streams(first: int, count: int) -> bytes:
    return b"".join(_frame(1, 0x4, first + 2 * i, HEADERS) for i in range(count))


def _connect(path: str, streams: int) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(0.05)  # (a queue that is full: a connect that waits)
    try:
        sock.connect(path)
        # the preface, empty SETTINGS, the streams
        sock.sendall(PREFACE + _frame(4, 0, 0) + _streams(1, streams))
        sock.setblocking(False)
    except OSError:
        sock.close()
        return None
    return sock


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--connections", type=int, default=200)
    parser.add_argument("--streams", type=int, default=1100)
    parser.add_argument("--burst", type=int, default=0)
    args = parser.parse_args()
    path = os.environ["CROUPIER_ADDRESS"].removeprefix("unix:")
    deadline = time.monotonic() + args.seconds
    held: list[socket.socket] = []
    next_id: dict[socket.socket, int] = {}
    made = closed = sent = 0
    while time.monotonic() < deadline:
        while len(held) < args.connections:
            sock = _connect(path, args.streams if made == 0 else 0)
            if sock is None:
                break
            held.append(sock)
            next_id[sock] = 1 + 2 * (args.streams if made == 0 else 0)
            made += 1
        for sock in list(held):
            try:
                if args.burst:
                    sock.sendall(_streams(next_id[sock], args.burst))
                    next_id[sock] += 2 * args.burst
                    sent += args.burst
                while sock.recv(65536):
                    pass
                held.remove(sock)  # (the arbiter closed it)
                sock.close()
                closed += 1
            except BlockingIOError:
                pass
            except OSError:
                held.remove(sock)
                sock.close()
                closed += 1
        time.sleep(0.01)
    print(
        f"flooder: connections made={made} closed={closed} held={len(held)} burst streams={sent}",
        flush=True,
    )


if __name__ == "__main__":
    main()
