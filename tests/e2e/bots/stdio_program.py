"""A program for the stdio bridge (``stdio:python3 stdio_program.py ...``), no SDK: it reads
the arbiter's JSON lines and answers each decision with its lowest legal id, except:

``--json``            answer with ``{"request_id": ..., "action_id": ...}`` instead of a bare id;
``--garbage-on N``    on decision N (1-based) write a line that is not an action;
``--silent-from N``   from decision N on, read but never answer;
``--quit-on N``       on decision N, exit without answering (stdout closes: a disconnect);
``--say TEXT``        write TEXT on stderr first (it belongs in the seat log);
``--hello NAME:VER``  write the stdio hello first (``{"hello": {"botName": ..., ...}}``);
``--hello-after S``   ... after sleeping S seconds.

Every line read is logged on stderr as ``got <kind>`` (``events`` for an events-only message),
and first whether the seat token reached the program's environment (``token: hidden``, or not).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--garbage-on", type=int, default=0)
    parser.add_argument("--silent-from", type=int, default=0)
    parser.add_argument("--quit-on", type=int, default=0)
    parser.add_argument("--say", default="")
    parser.add_argument("--hello", default="")
    parser.add_argument("--hello-after", type=float, default=0.0)
    args = parser.parse_args()
    if args.hello:
        time.sleep(args.hello_after)
        name, _, version = args.hello.partition(":")
        print(json.dumps({"hello": {"botName": name, "botVersion": version}}), flush=True)
    print("token: " + ("seen" if "CROUPIER_TOKEN" in os.environ else "hidden"), file=sys.stderr)
    if args.say:
        print(args.say, file=sys.stderr, flush=True)
    n = 0
    for line in sys.stdin:
        message = json.loads(line)
        kinds = [k for k in ("welcome", "decision", "rejected", "matchEnd") if k in message]
        print(f"got {kinds[0] if kinds else 'events'}", file=sys.stderr, flush=True)
        if "decision" not in message:
            continue
        n += 1
        decision = message["decision"]
        if n == args.quit_on:
            return
        if args.silent_from and n >= args.silent_from:
            continue
        if n == args.garbage_on:
            print("fold, please", flush=True)
            continue
        lowest = decision["legalActions"][0]["id"]
        if args.json:
            answer = {"request_id": decision["requestId"], "action_id": lowest}
            print(json.dumps(answer), flush=True)
        else:
            print(lowest, flush=True)


if __name__ == "__main__":
    main()
