"""Bots in any language, at one table: per-decision latency of each kind of bot.

    .venv/bin/python bench/anylang.py                # As-Nas and Scauver, 30 deals/rounds each
    .venv/bin/python bench/anylang.py --deals 60 --games as-nas

Each game plays two real matches with ``croupier match`` (the CLI, gRPC over loopback, one bot
process per seat, seeds fixed) and verifies each replay:

* **mixed**: the C++ kit's random bot, the bash + jq example behind the stdio bridge, the Node
  SDK's random bot and the Python SDK's random bot (the bundled ``random``);
* **stdio**: the plain-Python example and the C starter behind the bridge, the Python SDK bot
  and the C++ bot again, so the bridge's cost shows against the same program kinds over gRPC.

The latency of a decision is what the arbiter measured and recorded in the replay (``time_us``:
from sending the request to taking the reply off the stream). Each seat's median and 90th
percentile are reported as a ratio to the Python SDK seat of the same match, the baseline.

Needs what ``tests/run`` builds: ``build/cpp/croupier-random-bot`` (the C++ kit), node with
``clients/node/node_modules``, jq, and a C compiler (the C starter, ``starters/c``, is built
into build/stdio).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CPP = ROOT / "build" / "cpp" / "croupier-random-bot"
C_BOT = ROOT / "build" / "stdio" / "starter-c"
PY = sys.executable


def _prerequisites() -> str:
    """Build the C starter if needed; an empty string, or what is missing."""
    missing = []
    if not CPP.is_file():
        missing.append(f"{CPP} (bash tests/run builds it)")
    if shutil.which("node") is None or not (ROOT / "clients/node/node_modules").is_dir():
        missing.append("node and `npm ci --prefix clients/node`")
    if shutil.which("jq") is None:
        missing.append("jq")
    if not C_BOT.is_file():
        if shutil.which("cc") is None:
            missing.append("a C compiler (cc)")
        else:
            C_BOT.parent.mkdir(parents=True, exist_ok=True)
            subprocess.run(
                ["cc", "-O2", "-std=c11", "-D_POSIX_C_SOURCE=200809L", "-o", str(C_BOT),
                 str(ROOT / "starters/c/bot.c")],
                check=True,
            )  # fmt: skip
    return "; ".join(missing)


LINEUPS = {
    "mixed": [
        ("C++ kit", str(CPP)),
        ("stdio bash+jq", f"stdio:bash {ROOT / 'clients/stdio/random_bot.sh'}"),
        ("Node SDK", f"node {ROOT / 'clients/node/examples/random.js'}"),
        ("Python SDK", "random"),
    ],
    "stdio": [
        ("stdio Python", f"stdio:{PY} {ROOT / 'clients/stdio/random_bot.py'}"),
        ("stdio C", f"stdio:{C_BOT}"),
        ("Python SDK", "random"),
        ("C++ kit", str(CPP)),
    ],
}
BASELINE = "Python SDK"


def _percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])


def _match(game: str, lineup: str, deals: int, seed: int, out: Path) -> dict[str, object]:
    bots = LINEUPS[lineup]
    args = [PY, "-m", "croupier", "match", "--game", game, "--seed", str(seed), "--deals",
            str(deals), "--out", str(out), "--players", "4"]  # fmt: skip
    for _, command in bots:
        args += ["--bot", command]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"anylang: croupier match failed: {done.stderr.strip()}")
    replay = next(line.split(": ", 1)[1] for line in done.stdout.splitlines() if "replay: " in line)
    verified = subprocess.run(
        [PY, "-m", "croupier", "replay", "verify", replay], capture_output=True, text=True
    )
    records = [json.loads(line) for line in Path(replay).read_text().splitlines()]
    result = next(r for r in records if r.get("type") == "result")
    seats = []
    for seat, (kind, _) in enumerate(bots):
        times = [
            r["time_us"]
            for r in records
            if r.get("type") == "action" and r["seat"] == seat and r["fault"] is None
        ]
        seats.append(
            {
                "seat": seat,
                "kind": kind,
                "decisions": len(times),
                "median_us": statistics.median(times) if times else 0.0,
                "p90_us": _percentile(times, 0.9) if times else 0.0,
                "outcome": result["seats"][seat]["outcome"],
            }
        )
    base = next(s for s in seats if s["kind"] == BASELINE)
    for s in seats:
        s["median_ratio"] = round(float(s["median_us"]) / max(float(base["median_us"]), 1.0), 2)
        s["p90_ratio"] = round(float(s["p90_us"]) / max(float(base["p90_us"]), 1.0), 2)
    return {
        "bench": "anylang",
        "game": game,
        "lineup": lineup,
        "deals": deals,
        "seed": seed,
        "verified": verified.returncode == 0,
        "seats": seats,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["as-nas", "scauver"])
    parser.add_argument("--deals", type=int, default=30, help="deals (chip games: round cap)")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    missing = _prerequisites()
    if missing:
        print(f"anylang: missing {missing}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games:
            for lineup in LINEUPS:
                row = _match(game, lineup, args.deals, args.seed, Path(tmp))
                print(json.dumps(row))
                print(f"# {game} {lineup}: replay verifies: {row['verified']}", file=sys.stderr)
                for s in row["seats"]:  # type: ignore[attr-defined]
                    print(
                        f"#   {s['kind']:<14} {s['decisions']:>4} decisions  median "
                        f"{s['median_us'] / 1000:6.2f} ms ({s['median_ratio']:.2f} x)  p90 "
                        f"{s['p90_us'] / 1000:6.2f} ms ({s['p90_ratio']:.2f} x)  {s['outcome']}",
                        file=sys.stderr,
                    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
