"""Sleeper: plays passively, but before answering its ``--on``-th decision (1-based) sleeps
``--sleep-ms`` milliseconds, then answers anyway (a late reply). ``--delay-ms`` delays every
decision a little (a slow but punctual bot); ``--burn-ms`` spends that much CPU time on every
decision (a busy loop), for the CPU clock.

With ``--sleep-ms`` above move time + bank the decision times out: the arbiter plays the default
action, empties the bank, and answers the late reply with ActionRejected(TOO_LATE). Below that,
the overrun is taken from the bank. Every decision's clocks are logged, so the tests can read the
bank the bot was shown.
"""

from __future__ import annotations

import argparse
import time

from _common import CountingBot, say

from croupier_bot import Decision, main


class Sleeper(CountingBot):
    name = "sleeper"

    def __init__(self, on: int, sleep_ms: int, delay_ms: int, burn_ms: int = 0) -> None:
        super().__init__()
        self.on, self.sleep_ms, self.delay_ms = on, sleep_ms, delay_ms
        self.burn_ms = burn_ms

    def choose(self, decision: Decision) -> int:
        if self.count == self.on:
            say(f"sleeping {self.sleep_ms} ms on decision {self.count}")
            time.sleep(self.sleep_ms / 1000)
        elif self.delay_ms:
            time.sleep(self.delay_ms / 1000)
        if self.burn_ms:
            until = time.process_time() + self.burn_ms / 1000
            while time.process_time() < until:
                pass
        return super().choose(decision)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--on", type=int, default=3)
    parser.add_argument("--sleep-ms", type=int, default=0)
    parser.add_argument("--delay-ms", type=int, default=0)
    parser.add_argument("--burn-ms", type=int, default=0)
    args = parser.parse_args()
    main(Sleeper(args.on, args.sleep_ms, args.delay_ms, args.burn_ms))
