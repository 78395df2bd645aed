"""A hostile bot: tries what a cheater would, reports what it got on stdout (its log), then plays
random legal actions so the match goes on. Each attack is opt-in:

* ``--steal-tokens``: for two seconds, reads every ``/proc/<pid>/environ`` it can for a
  ``CROUPIER_TOKEN`` of its own match (same ``CROUPIER_MATCH_ID``) that is not its own;
  SIGSTOPs each process holding one, and dials in with
  each stolen token. Reports ``stolen tokens: N``, ``seats taken: [...]``; and whether the
  variable ``CROUPIER_TEST_SECRET`` of the arbiter's environment reached it (``secret: ...``).
* ``--read-replays``: looks for open ``.jsonl`` files through ``/proc/<ppid>/fd`` and every
  ``/proc/*/fd``, and for replays in the directories above its own; reads any it finds.
  Reports ``replays found: N``, ``replays read: M`` and ``seed seen: yes|no``.
* ``--escape MARKER``: starts a grandchild in a session of its own (``setsid``) that holds the
  bot's stdout and sleeps for ten minutes with ``MARKER`` on its command line.
* ``--hog-mib N``: allocates N MiB in one piece (untouched pages: cheap unless limited). Reports
  ``hog: allocated`` or ``hog: MemoryError``.
* ``--probe-port P``: tries a TCP connection to 127.0.0.1:P. Reports ``tcp: connected|refused``.
* ``--evil-name``: says Hello with :data:`EVIL_NAME`, which would retitle the terminal, colour
  it and forge a standings row if printed raw.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import sys
import threading
import time
from pathlib import Path

from _common import say

from croupier_bot import MatchInfo, play, run
from croupier_bots.random_bot import RandomBot

EVIL_NAME = "\x1b]0;owned\x07\x1b[31mevil\r\n1      3     forged  99  normal  0  0\u202e"


def steal_tokens() -> None:
    mine = os.environ.get("CROUPIER_TOKEN", "")
    match_id = f"CROUPIER_MATCH_ID={os.environ.get('CROUPIER_MATCH_ID', '')}".encode()
    stolen: dict[str, int] = {}
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline and len(stolen) < 3:
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit() or int(proc.name) == os.getpid():
                continue
            try:
                environ = (proc / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            # only this match's seats: other matches on the machine are none of this test's
            if match_id not in environ:
                continue
            for entry in environ:
                if entry.startswith(b"CROUPIER_TOKEN="):
                    token = entry.split(b"=", 1)[1].decode()
                    if token and token != mine:
                        stolen[token] = int(proc.name)
        time.sleep(0.05)
    say(f"stolen tokens: {len(stolen)}")
    say(f"secret: {os.environ.get('CROUPIER_TEST_SECRET', '(not set)')}")
    for pid in set(stolen.values()):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGSTOP)
    taken: list[int] = []

    class Thief(RandomBot):
        name = "thief"

        def on_welcome(self, match: MatchInfo) -> None:
            taken.append(match.seat)

    def take(token: str) -> None:
        # refused or cut off: the attack failed, which is what the tests want
        with contextlib.suppress(Exception):
            play(Thief(0), token=token, connect_timeout_s=2)

    for token in stolen:
        threading.Thread(target=take, args=(token,), daemon=True).start()
    time.sleep(1.0)
    say(f"seats taken: {sorted(taken)}")


def read_replays() -> None:
    found: set[str] = set()
    for fd_dir in [Path(f"/proc/{os.getppid()}/fd"), *Path("/proc").glob("*/fd")]:
        try:
            for fd in fd_dir.iterdir():
                target = os.readlink(fd)
                if target.endswith(".jsonl"):
                    found.add(str(fd))
        except OSError:
            continue
    here = Path(__file__).resolve().parent
    for up in [here, *here.parents][:6]:
        try:
            found.update(str(p) for p in up.glob("**/*.jsonl") if p.is_file())
        except OSError:
            continue
    read = 0
    seed = False
    for name in sorted(found):
        try:
            with open(name, encoding="utf-8", errors="replace") as f:
                text = f.read(4096)
        except OSError:
            continue
        read += 1
        seed = seed or '"seed"' in text
    say(f"replays found: {len(found)}")
    say(f"replays read: {read}")
    say(f"seed seen: {'yes' if seed else 'no'}")


def escape(marker: str) -> None:
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            code = "import time; time.sleep(600)"
            os.execv(sys.executable, [sys.executable, "-c", code, marker])
        os._exit(0)
    say("escaper started")


def hog(mib: int) -> None:
    try:
        block = bytearray(mib << 20)
        say("hog: allocated")
        del block
    except MemoryError:
        say("hog: MemoryError")


def probe(port: int) -> None:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            say("tcp: connected")
    except OSError:
        say("tcp: refused")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steal-tokens", action="store_true")
    parser.add_argument("--read-replays", action="store_true")
    parser.add_argument("--escape", default="")
    parser.add_argument("--hog-mib", type=int, default=0)
    parser.add_argument("--probe-port", type=int, default=0)
    parser.add_argument("--evil-name", action="store_true")
    args = parser.parse_args()
    if args.steal_tokens:
        steal_tokens()
    if args.read_replays:
        read_replays()
    if args.escape:
        escape(args.escape)
    if args.hog_mib:
        hog(args.hog_mib)
    if args.probe_port:
        probe(args.probe_port)
    bot = RandomBot(int(os.environ.get("CROUPIER_SEED", "0")))
    bot.name = EVIL_NAME if args.evil_name else "attacker"
    run(bot)


if __name__ == "__main__":
    main()
