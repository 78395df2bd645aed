"""The bundled Felduz and Scauver heuristics reading a betting step's runs as ranges (issue 20):
the CPU of whole in-process matches (``play_local``: the arbiter, the codec, the SDK and three
heuristic seats) with this checkout's bots against the same matches with ``--base``'s bots (by
default ``main``'s: they read every amount as its own ``LegalAction``), in one process, the two
in turn first, ``--repeats`` times; the same seeds, so the same decisions. One JSON line per game
and stack: the median of the repeats' CPU ratios, this checkout's ÷ the base's.

    .venv/bin/python bench/bot_runs.py
    .venv/bin/python bench/bot_runs.py --base main --repeats 9
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: The bot classes, by game; Scauver's takes a seed.
BOTS = {"felduz": ("felduz_heuristic", "FelduzHeuristic"),
        "scauver": ("scauver_heuristic", "ScauverHeuristic")}  # fmt: skip
#: Matches per measurement (Felduz's are short).
MATCHES = {"felduz": 40, "scauver": 6}


def _load(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    import logging

    import structlog

    from croupier.transport import play_local
    from croupier_bot import Seat

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="main", help="the git revision of the bots before")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bot-runs-"))
    kinds: dict[str, dict[str, Any]] = {"new": {}, "base": {}}
    for game, (module, cls) in BOTS.items():
        old = folder / f"{module}.py"
        old.write_bytes(subprocess.run(["git", "show", f"{args.base}:bots/{module}.py"], cwd=ROOT,
                                       check=True, capture_output=True).stdout)  # fmt: skip
        kinds["base"][game] = getattr(_load(old, f"base_{module}"), cls)
        kinds["new"][game] = getattr(_load(ROOT / "bots" / f"{module}.py", f"new_{module}"), cls)

    def cpu(which: str, game: str, stack: int) -> float:
        started = time.process_time()
        for seed in range(MATCHES[game]):
            make = kinds[which][game]
            bots = [make(seed) if game == "scauver" else make() for _ in range(3)]
            params = {"players": 3, "stack": stack, "round_cap": 6}
            play_local(game, params, seed, [Seat(b) for b in bots])
        return time.process_time() - started

    for game in BOTS:
        for stack in (10, 1000):
            cpu("new", game, stack), cpu("base", game, stack)  # warm-up
            ratios = []
            for k in range(args.repeats):
                order = ("new", "base") if k % 2 == 0 else ("base", "new")
                got = {which: cpu(which, game, stack) for which in order}
                ratios.append(got["new"] / got["base"])
            line = {"bench": "bot_runs", "game": game, "stack": stack, "base": args.base,
                    "cpu_new_to_base": round(statistics.median(ratios), 3),
                    "ratios": [round(r, 2) for r in ratios]}  # fmt: skip
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    sys.exit(main())
