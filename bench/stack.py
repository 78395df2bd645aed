"""Chip games at ``stack = 1000`` against ``stack = 10`` (issue 20, "ranges stay ranges"): the
arbiter's CPU per decision, where a betting step allows every amount up to the cap (about a
thousand legal ids at 1,000, about ten at 10). Measured in the same run, as a ratio.

    .venv/bin/python bench/stack.py                    # both modes, this checkout and --base
    .venv/bin/python bench/stack.py inproc             # or: grpc
    .venv/bin/python bench/stack.py --base none        # this checkout only
    .venv/bin/python bench/stack.py --pairs 15 --rounds 30

Every match is real and played through the arbiter (``croupier.arbiter.Match``: clocks, the
legality check, the replay writer), Felduz and Scauver, two seats, ``double_every`` 0, one
match of ``--rounds`` rounds per measurement. The bots are passive (they
answer In, Proceed, NoBet or Stand whenever they may): nobody bets, so no one is eliminated, and
the match at stack 10 plays the very same decisions as the one at 1,000 (the script checks the
count) while every betting step offers every amount.

* ``inproc``: the arbiter in this process, each seat a task that takes its messages from the
  seat's link as the transport does, encodes and serializes each one (``croupier.v1``), and
  answers. CPU: this process's, over the match (the seats' choice is a few ``in`` checks).
* ``grpc``: ``croupier.runner.run_match``: the arbiter and its gRPC server in this process, one
  Python SDK bot process per seat over loopback. CPU: this process's only (the bots are other
  processes), over the match: the arbiter with its gRPC work.

One process per game, mode and checkout plays a warm-up match at each stack, then ``--pairs``
pairs of the same match at stack 10 and at 1,000, in turn first (so that the machine's load,
which moves CPU figures by a fifth on a shared machine, weighs on both alike): printed are the
medians of CPU microseconds per decision at each stack and of the pairs' ratios. ``--base REV``
(default ``main``) runs the same in a temporary git worktree of REV, for the ratio before the
change. One JSON line per game and mode.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("felduz", "scauver")
STACKS = (10, 1000)

#: The passive choices, by game: In, NoBet, Stand (Felduz); In, Proceed, NoBet (Scauver).
_PASSIVE = r"""
from croupier.games import chips
from croupier.games.felduz import rules as felduz
from croupier.games.scauver import rules as scauver

PASSIVE = {
    "felduz": (chips.IN, felduz.NO_BET, felduz.STAND),
    "scauver": (chips.IN, scauver.PROCEED, scauver.NO_BET),
}
"""

#: The SDK bot of the grpc mode (argv[1]: the code under test).
BOT = (
    r"""
import sys
code = sys.argv[1]
sys.path[:0] = [code + "/server", code + "/clients/python"]
"""
    + _PASSIVE
    + r"""
from croupier_bot import run

def act(decision):
    ids = decision.legal_ids
    calm = [a for a in PASSIVE[decision.match.game] if a in ids]
    return calm[0] if calm else ids[0]

run(act, name="passive")
"""
)


def _inproc(game: str, params: dict[str, int], seed: int, out: Path) -> tuple[int, int]:
    """One match in this process; (decisions, decisions with 100 or more legal ids)."""
    import asyncio

    from croupier.arbiter import DecisionRequest, Match, MatchConfig, MatchOver, Reply
    from croupier.games import get_spec
    from croupier.replay import ReplayWriter
    from croupier.transport._codec import encode

    namespace: dict[str, Any] = {}
    exec(_PASSIVE, namespace)
    passive = namespace["PASSIVE"][game]
    codec = get_spec(game).codec
    match = Match(MatchConfig(game, params, seed), f"stack-{seed}", ReplayWriter(out))
    counts = [0, 0]

    async def seat(link: Any) -> None:
        link.claim(f"passive-{link.seat}", "1")
        while (message := await link.outbox.get()) is not None:
            encode(message, codec).SerializeToString()  # what the transport writes
            if isinstance(message, DecisionRequest):
                legal = message.legal_actions
                counts[0] += 1
                counts[1] += len(legal) >= 100
                calm = [a for a in passive if a in legal]
                link.inbox.put_nowait(Reply(message.request_id, calm[0] if calm else legal[0]))
            if isinstance(message, MatchOver):
                return

    async def main() -> None:
        seats = [asyncio.create_task(seat(link)) for link in match.seats]
        await match.run()
        await asyncio.gather(*seats)

    asyncio.run(main())
    return counts[0], counts[1]


def _grpc(code: Path, game: str, params: dict[str, int], seed: int, out: Path) -> tuple[int, int]:
    """One match over gRPC with passive SDK bot processes; (decisions, big ones)."""
    import asyncio

    from croupier.arbiter import ClockRules, MatchConfig
    from croupier.games import get_game
    from croupier.runner import run_match
    from croupier.transport import SandboxMode, SandboxOptions

    bot = out / "passive_bot.py"
    bot.write_text(BOT)
    config = MatchConfig(
        game,
        params,
        seed=seed,
        clock=ClockRules(move_time_ms=30_000, time_bank_ms=60_000),
        connect_timeout_s=60,
    )
    argv = [sys.executable, str(bot), str(code)]
    run = asyncio.run(
        run_match(config, [argv, argv], out, sandbox=SandboxOptions(mode=SandboxMode.NONE))
    )
    assert all(s.outcome.value == "normal" for s in run.result.seats), run.result
    rules = get_game(game)
    records = [json.loads(line) for line in run.replay.read_text().splitlines()]
    state = rules.initial_state(records[0]["params"])
    decisions = big = 0
    for rec in records[1:]:
        if rec["type"] == "chance":
            state = rules.apply_chance(state, tuple(rec["outcome"]))
        elif rec["type"] == "action":
            decisions += 1
            big += len(rules.legal_actions(state)) >= 100
            state = rules.apply(state, rec["action"])
    return decisions, big


def measure(args: argparse.Namespace) -> None:
    """The pairs of one game and mode on the code importable here (the child of :func:`main`):
    after a warm-up match at each stack, ``--pairs`` times a match at stack 10 and one at 1,000
    (in turn first), the CPU time of each."""
    import logging
    import time

    import structlog

    structlog.configure(wrapper_class=structlog.make_filtering_bound_logger(logging.WARNING))
    out = Path(tempfile.mkdtemp(prefix="stack-"))
    try:
        played = iter(range(1_000_000))

        def one(stack: int, seed: int) -> tuple[int, int, float]:
            params = {"players": 2, "stack": stack, "double_every": 0, "round_cap": args.rounds}
            replay = out / f"m{next(played)}.jsonl"
            started = time.process_time()
            if args.mode == "inproc":
                decisions, big = _inproc(args.game, params, seed, replay)
            else:
                decisions, big = _grpc(Path(args.code), args.game, params, seed, out)
            return decisions, big, time.process_time() - started

        for stack in STACKS:  # warm-up: imports, caches, the first match's set-up
            one(stack, 99)
        pairs = []
        for k in range(args.pairs):
            order = STACKS if k % 2 == 0 else STACKS[::-1]
            got = {stack: one(stack, 1) for stack in order}
            pairs.append({str(stack): got[stack] for stack in STACKS})
        print(json.dumps(pairs))
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _run(code: Path, mode: str, game: str, rounds: int, pairs: int) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": f"{code}/server{os.pathsep}{code}/clients/python"}
    done = subprocess.run(
        [sys.executable, __file__, "measure", "--code", str(code), "--mode", mode,
         "--game", game, "--rounds", str(rounds), "--pairs", str(pairs)],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"bench/stack.py: {mode} {game} on {code} failed:\n{done.stderr}")
    result: list[dict[str, Any]] = json.loads(done.stdout.splitlines()[-1])
    return result


def _figures(pairs: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the pairs: CPU µs per decision at each stack, and of the pairs' ratios."""
    per = {stack: [p[str(stack)][2] / p[str(stack)][0] * 1e6 for p in pairs] for stack in STACKS}
    decisions = {p[str(stack)][0] for p in pairs for stack in STACKS}
    return {
        "decisions": sorted(decisions),
        "same_decisions": len(decisions) == 1,
        "big_at_1000": pairs[0]["1000"][1],
        "cpu_us_per_decision_10": round(statistics.median(per[10]), 1),
        "cpu_us_per_decision_1000": round(statistics.median(per[1000]), 1),
        "ratio_1000_to_10": round(
            statistics.median(b / a for a, b in zip(per[10], per[1000], strict=True)), 3
        ),
        "pair_ratios": [round(b / a, 2) for a, b in zip(per[10], per[1000], strict=True)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modes", nargs="*", default=["inproc", "grpc"], metavar="MODE")
    parser.add_argument("--base", default="main", help="the baseline's git revision ('none')")
    parser.add_argument("--pairs", type=int, default=9, help="pairs of matches (default 9)")
    parser.add_argument("--rounds", type=int, default=20, help="rounds per match (default 20)")
    args = parser.parse_args()
    codes = {"new": ROOT}
    base_dir = None
    if args.base != "none":
        base_dir = Path(tempfile.mkdtemp(prefix="stack-base-"))
        subprocess.run(["git", "worktree", "add", "--detach", str(base_dir), args.base],
                       cwd=ROOT, check=True, capture_output=True)  # fmt: skip
        codes["base"] = base_dir
    try:
        for mode in args.modes:
            for game in GAMES:
                line: dict[str, Any] = {"bench": mode, "game": game, "rounds": args.rounds,
                                        "load": round(os.getloadavg()[0], 1)}  # fmt: skip
                for c, code in codes.items():
                    line[c] = _figures(_run(code, mode, game, args.rounds, args.pairs))
                print(json.dumps(line), flush=True)
    finally:
        if base_dir is not None:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_dir)], cwd=ROOT,
                           check=False, capture_output=True)  # fmt: skip


if __name__ == "__main__":
    if sys.argv[1:2] == ["measure"]:
        p = argparse.ArgumentParser()
        p.add_argument("measure")
        p.add_argument("--code", default="")
        p.add_argument("--mode", default="inproc")
        p.add_argument("--game", default="felduz")
        p.add_argument("--rounds", type=int, default=20)
        p.add_argument("--pairs", type=int, default=9)
        measure(p.parse_args())
    else:
        main()
