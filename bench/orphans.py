"""Matches with misbehaving bots, then a count of the processes they left behind (issue 9).

    .venv/bin/python bench/orphans.py                # 200 matches (several minutes)
    .venv/bin/python bench/orphans.py --matches 40

Each match seats, in turn, bots that escape into a session of their own (``setsid`` and a double
fork, holding the log pipe), quit mid-match, send garbage, allocate beyond their memory limit,
never connect, or steal tokens, next to random bots; every bot's command line carries a marker.
After the last match it counts the live processes whose command line holds a marker (0 is the
goal), verifies every replay, and prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BOTS = HERE.parent / "tests" / "e2e" / "bots"


def _marked(marker: str) -> list[int]:
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            if marker.encode() not in (proc / "cmdline").read_bytes():
                continue
            if (proc / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
        except OSError:
            continue
        found.append(int(proc.name))
    return found


def _lineup(n: int, marker: str) -> list[list[str]]:
    py = [sys.executable, "-X", f"tag={marker}"]  # the marker, on every bot's command line
    attacker = [*py, str(BOTS / "attacker.py")]
    bad = [
        [*attacker, "--escape", marker],
        [*py, str(BOTS / "quitter.py"), "--after", "1"],
        [*py, str(BOTS / "garbage.py"), "--bytes-on", "1"],
        [*attacker, "--hog-mib", "8192"],
        [*py, str(BOTS / "never_connects.py"), "--sleep-s", "30"],
        [*attacker, "--steal-tokens"],
    ]
    honest = [*py, "-m", "croupier_bots.random_bot"]
    seats = [honest] * 4
    seats[n % 4] = bad[n % len(bad)]
    seats[(n + 2) % 4] = bad[(n + 3) % len(bad)]
    return seats


async def main(args: argparse.Namespace) -> dict[str, object]:
    from croupier.arbiter import ClockRules, MatchConfig
    from croupier.errors import CroupierError
    from croupier.replay import read_replay, verify
    from croupier.runner import run_match
    from croupier.transport import ArbiterServer

    marker = f"croupier-orphan-bench-{os.getpid()}"
    server = ArbiterServer()
    await server.start()
    verified = failed = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            for n in range(args.matches):
                config = MatchConfig(
                    "as-nas", {"deals": 1}, seed=n, clock=ClockRules(500, 500), connect_timeout_s=3
                )
                out = Path(tmp) / f"m{n}"
                run = await run_match(config, _lineup(n, marker), out, server=server)
                try:
                    verify(read_replay(run.replay))
                    verified += 1
                except CroupierError:
                    failed += 1
        finally:
            await server.stop()
        await asyncio.sleep(2)  # what is still dying
        orphans = _marked(marker)
    return {
        "bench": "orphans",
        "matches": args.matches,
        "orphans": len(orphans),
        "replays_verified": verified,
        "replays_failed": failed,
        "seconds": round(time.monotonic() - started, 1),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
