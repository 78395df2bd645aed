"""A bot that tries what its sandbox would show it through its own folder and the paths in its
command line (the two ways a review found in: a named pipe shipped in the bot's folder, and an
argument naming the machine's ``/proc``). Reports on stdout (its log), then plays at random:

* ``--pipe PATH``: two seats of one match (this program in both) swap their hands through the
  named pipe at PATH: at each decision it reads what is in the pipe, reports
  ``pipe: seat S holds [...]`` for another seat's line, and writes its own seat and hand.
* ``--procs DIR --arbiter PID``: counts the processes that DIR (a ``/proc``) lists and reads
  the command line of the arbiter's process (PID, as the machine numbers it). Reports
  ``procs: N; arbiter seen: yes|no``.

Self-contained (no ``_common``): the tests copy it into a folder of its own.
"""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from croupier_bot import Decision, MatchInfo, run
from croupier_bots.random_bot import RandomBot


def say(line: str) -> None:
    print(line, flush=True)


def count_processes(folder: str, arbiter: int) -> None:
    pids = [entry for entry in os.listdir(folder) if entry.isdigit()]
    try:
        seen = b"python" in Path(folder, str(arbiter), "cmdline").read_bytes()
    except OSError:
        seen = False
    say(f"procs: {len(pids)}; arbiter seen: {'yes' if seen else 'no'}")


class PipeBot(RandomBot):
    """Plays at random; swaps hands with the other seats of its match through a named pipe."""

    name = "shown"

    def __init__(self, seed: int, pipe: str) -> None:
        super().__init__(seed)
        self.pipe = os.open(pipe, os.O_RDWR | os.O_NONBLOCK)
        self.seat = -1

    def on_welcome(self, match: MatchInfo) -> None:
        super().on_welcome(match)
        self.seat = match.seat

    def act(self, decision: Decision) -> int:
        try:
            data = os.read(self.pipe, 65536)
        except BlockingIOError:
            data = b""
        for line in data.splitlines():
            seat, hand = json.loads(line)
            if seat != self.seat:
                say(f"pipe: seat {seat} holds {hand}")
        hand = list(decision.observation.as_nas.hand)
        os.write(self.pipe, json.dumps([self.seat, hand]).encode() + b"\n")
        return super().act(decision)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pipe", default="")
    parser.add_argument("--procs", default="")
    parser.add_argument("--arbiter", type=int, default=0)
    args = parser.parse_args()
    if args.procs:
        count_processes(args.procs, args.arbiter)
    seed = int(os.environ.get("CROUPIER_SEED", "0"))
    run(PipeBot(seed, args.pipe) if args.pipe else RandomBot(seed))


if __name__ == "__main__":
    main()
