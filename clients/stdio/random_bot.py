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

# the optional hello (first line): the name and version the match shows for this bot
print(json.dumps({"hello": {"botName": "random-py", "botVersion": "1.0"}}), flush=True)
rng = random.Random(int(os.environ.get("CROUPIER_SEED", "0")))
for line in sys.stdin:
    message = json.loads(line)
    if "decision" in message:
        ids = []
        for action in message["decision"]["legalActions"]:
            run = action.get("amounts")  # a run of bets or raises: one entry, many ids
            if run:
                top = action["id"] + run["highest"] - run["lowest"]
                ids.extend(range(action["id"], top + 1, max(run["step"], 1)))
            else:
                ids.append(action["id"])
        print(rng.choice(ids), flush=True)
    elif "matchEnd" in message:
        seat = int(os.environ.get("CROUPIER_SEAT", "0"))
        result = next(r for r in message["matchEnd"]["results"] if r["seat"] == seat)
        print(f"match over: place {result['place']}, {result['outcome']}", file=sys.stderr)
