"""A random Croupier bot in plain Python (no SDK, no grpc), for the stdio bridge.

    croupier check-bot "stdio:python3 random_bot.py"

Each stdin line is one arbiter message (a ``PlayResponse`` in protobuf's canonical JSON); the bot
answers each decision with one line: a legal action id. It also says, on stderr (the seat log),
how the match ended.
"""

import json
import os
import random
import sys

rng = random.Random(int(os.environ.get("CROUPIER_SEED", "0")))
for line in sys.stdin:
    message = json.loads(line)
    if "decision" in message:
        ids = [action["id"] for action in message["decision"]["legalActions"]]
        print(rng.choice(ids), flush=True)
    elif "matchEnd" in message:
        seat = int(os.environ.get("CROUPIER_SEAT", "0"))
        result = next(r for r in message["matchEnd"]["results"] if r["seat"] == seat)
        print(f"match over: place {result['place']}, {result['outcome']}", file=sys.stderr)
