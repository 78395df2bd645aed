"""Never connects: a bot process that sleeps ``--sleep-s`` seconds without ever dialing the
arbiter, then exits 0 (a no-show). ``--sleep-s 0`` exits at once, like a bot that crashes on
start-up. Any further argument is ignored (a marker the tests find on its command line)."""

from __future__ import annotations

import argparse
import time

if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--sleep-s", type=float, default=60.0)
    args, _ = parser.parse_known_args()
    print(f"not dialing; sleeping {args.sleep_s} s", flush=True)
    time.sleep(args.sleep_s)
