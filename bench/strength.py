"""How strong the reference bots are: duplicate sets played in-process, paired 95 % intervals
and the tournament's SPRT, one line per candidate and baseline.

    python bench/strength.py                       # the whole table (about half an hour)
    python bench/strength.py --game fipsen --baseline heuristic --sets 40
    python bench/strength.py --fipsen-bidding 120  # the Fipsen heuristic's bidding figures
    python bench/strength.py --rate                # moves the search applies per CPU-ms

Each line plays duplicate sets the way ``croupier tournament`` does with ``duplicate = true``
and ``seatings = "rotations"``: a table of the candidate and ``players - 1`` copies of the
baseline, every rotation of it over the seats, all on the same deals (one match seed per set;
the cards stay with the seats, the bots move). Matches are played in this process through the
real codec (``croupier.transport.play_local``): every bot sees exactly the wire messages the
arbiter would send it, with no clocks (the search bots' work is counted in moves applied, so
their moves are the same as under the default clocks with ``--budget`` moves per decision).

A set's paired sample is the candidate's mean score per round (deal) minus the baselines' mean
score per round over the same deals (``croupier.ladder`` computes the standings' paired
differences the same way); the interval is the 95 % t-interval over sets, and the SPRT is the
tournament's (``[sprt]``: d0 = 0, d1 per game below, alpha = beta = 0.05), stopping the line as
soon as it decides (``--no-stop`` plays every set).

The Fipsen bidding figures play the Fipsen heuristic (two seats) against two random bidders and
against itself, next to its version 1 bidder measured in the same run: the share of deals in
which it bids, declares, makes its contract, and its score per deal.

``--rate`` measures what the search bots' budget assumes (``croupier_bots._search.MOVES_PER_MS``):
the moves a search applies per millisecond of CPU time, per game, over one match each (Scauver: a
three-seat match, since heads-up its bot plays no rollouts).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from croupier.ladder._stats import mean_interval, sprt
from croupier.transport import play_local
from croupier_bot import Bot, Seat

#: Bots by short name: (module in croupier_bots, class).
BOTS = {
    "as-nas-search": ("as_nas_search", "AsNasSearch"),
    "as-nas-heuristic": ("as_nas_heuristic", "AsNasHeuristic"),
    "fipsen-search": ("fipsen_search", "FipsenSearch"),
    "fipsen-heuristic": ("fipsen_heuristic", "FipsenHeuristic"),
    "felduz-search": ("felduz_search", "FelduzSearch"),
    "felduz-heuristic": ("felduz_heuristic", "FelduzHeuristic"),
    "scauver-search": ("scauver_search", "ScauverSearch"),
    "scauver-heuristic": ("scauver_heuristic", "ScauverHeuristic"),
    "random": ("random_bot", "RandomBot"),
}
GAMES = ("as-nas", "fipsen", "felduz", "scauver")
#: The SPRT's d1 (the gain per round it should detect) per game: As-Nas and Fipsen points per
#: deal (a quarter point); in the chip games, where a match is a few rounds that move whole
#: stacks (paired samples of tens of chips per round, either way), ten chips per round.
D1 = {"as-nas": 0.25, "fipsen": 0.25, "felduz": 10.0, "scauver": 10.0}


def make_bot(name: str, seed: int) -> Bot:
    module, cls = BOTS[name]
    factory: Callable[..., Bot] = getattr(importlib.import_module(f"croupier_bots.{module}"), cls)
    try:
        return factory(seed)
    except TypeError:  # the heuristics that take no seed
        return factory()


@dataclass
class Line:
    game: str
    candidate: str
    baseline: str
    samples: list[float]
    rounds: int
    seconds: float
    decision: str | None
    llr: float

    def as_dict(self) -> dict[str, Any]:
        iv = mean_interval(self.samples)
        return {
            "game": self.game,
            "candidate": self.candidate,
            "baseline": self.baseline,
            "sets": len(self.samples),
            "rounds": self.rounds,
            "paired_per_round": {"mean": iv.mean, "low": iv.low, "high": iv.high},
            "sprt": self.decision,
            "llr": self.llr,
            "seconds": round(self.seconds, 1),
        }


def play_set(
    game: str, params: dict[str, int], players: int, seed: int, candidate: str, baseline: str
) -> tuple[float, int]:
    """One duplicate set: the candidate in each seat in turn, the baseline elsewhere. Returns
    the paired sample (per round) and the rounds played."""
    mine: list[float] = []
    theirs: list[float] = []
    rounds_total = 0
    for seat in range(players):
        names = [candidate if s == seat else baseline for s in range(players)]
        seats = [Seat(make_bot(n, seed * 16 + s), seed=seed * 16 + s) for s, n in enumerate(names)]
        scores = play_local(game, params, seed, seats)
        rounds = max(len(seats[0].history.rounds), 1)
        rounds_total += rounds
        mine.append(float(scores[seat]) / rounds)
        theirs.extend(float(scores[s]) / rounds for s in range(players) if s != seat)
    return statistics.mean(mine) - statistics.mean(theirs), rounds_total


def run_line(
    game: str,
    candidate: str,
    baseline: str,
    sets: int,
    params: dict[str, int],
    *,
    stop: bool,
    first_seed: int,
    report: Callable[[str], None],
) -> Line:
    from croupier.games import get_spec

    full = get_spec(game).game.info.make_params(params)
    players = full["players"]
    samples: list[float] = []
    rounds = 0
    started = time.monotonic()
    decision, llr = None, 0.0
    for k in range(sets):
        sample, played = play_set(game, params, players, first_seed + k, candidate, baseline)
        samples.append(sample)
        rounds += played
        test = sprt(samples, 0.0, D1[game], 0.05, 0.05)
        decision, llr = test.decision, test.llr
        if (k + 1) % 5 == 0 or decision:
            iv = mean_interval(samples)
            report(
                f"  {game} {candidate} vs {baseline}: {k + 1} sets, {iv.mean:+.3f} "
                f"[{iv.low:+.3f}, {iv.high:+.3f}] per round, SPRT {decision or '-'} "
                f"(LLR {llr:+.2f}), {time.monotonic() - started:.0f}s"
            )
        if stop and decision:
            break
    return Line(game, candidate, baseline, samples, rounds, time.monotonic() - started,
                decision, llr)  # fmt: skip


# -- the Fipsen heuristic's bidding ------------------------------------------------------------


def fipsen_bidding(matches: int, report: Callable[[str], None]) -> list[dict[str, Any]]:
    """The Fipsen heuristic (seats 0 and 2, or 1 and 3) against random bidders and against
    itself, with its version 1 bidder beside it: shares of deals it bid in, declared, made."""
    from croupier_bots.fipsen_heuristic import FipsenHeuristic, best_trump
    from croupier_bots.random_bot import RandomBot

    class Version1(FipsenHeuristic):
        """The bidder before this change: n plain when n <= e (Hand when n + 1 <= e), always the
        cheapest, never Ruten."""

        def _bid(self, legal: dict[int, Any], hand: list[tuple[int, int]]) -> int:
            e = best_trump(hand)[1]
            for action_id in sorted(legal):
                action = legal[action_id]
                if action.move in (2, 3):  # HOLD, BID
                    b = action.bid
                    ok = not (b.kieker or b.ruten or b.durch or b.tricks > e)
                    if ok and (not b.hand or b.tricks + 1 <= e):
                        return action_id
            return next(i for i, a in legal.items() if a.move == 1)  # PASS

    rows = []
    for label, mine, other in (
        ("heuristic v2 vs random", FipsenHeuristic, RandomBot),
        ("heuristic v1 vs random", Version1, RandomBot),
        ("heuristic v2 vs itself", FipsenHeuristic, FipsenHeuristic),
        ("heuristic v1 vs itself", Version1, Version1),
        ("heuristic v2 vs v1", FipsenHeuristic, Version1),
    ):
        deals = bid = declared = made = 0
        per_deal: list[float] = []
        for m in range(matches):
            ours = [0, 2] if m % 2 == 0 else [1, 3]
            bots: list[Bot] = []
            for s in range(4):
                cls = mine if s in ours else other
                bots.append(cls(1000 * m + s) if cls is RandomBot else cls())
            seats = [Seat(b, seed=1000 * m + s) for s, b in enumerate(bots)]
            scores = play_local("fipsen", {}, 90_000 + m, seats)
            per_deal.append(sum(float(scores[s]) for s in ours) / (2 * 16))
            for past in seats[ours[0]].history.rounds:
                deals += 1
                bid += any(h.seat in ours and 1 <= h.action_id <= 30 for h in past.history)
                r = past.result
                if r.HasField("declarer") and r.declarer in ours and r.outcome in (3, 4):
                    declared += 1
                    made += r.outcome == 3
        iv = mean_interval(per_deal)
        row = {
            "match-up": label,
            "deals": deals,
            "bid": bid / deals,
            "declared": declared / deals,
            "made": made / declared if declared else None,
            "per_deal": {"mean": iv.mean, "low": iv.low, "high": iv.high},
        }
        rows.append(row)
        made_text = f"{row['made']:.0%}" if declared else "-"
        report(
            f"  {label}: {deals} deals, bid in {bid / deals:.1%}, declared {declared / deals:.1%},"
            f" made {made_text}, {iv.mean:+.3f} [{iv.low:+.3f}, {iv.high:+.3f}] per seat per deal"
        )
    return rows


def search_rate(report: Callable[[str], None]) -> dict[str, float]:
    """Moves applied per CPU millisecond by each game's search bot over one match (seat 0,
    against the heuristic; Scauver at three seats), with the default budget of a 2,000 ms move
    time."""
    from croupier_bots import _search

    rates: dict[str, float] = {}
    for game in GAMES:
        done = [0, 0.0]
        bot = make_bot(f"{game}-search", 1)
        inner = bot.search  # type: ignore[attr-defined]

        def timed(
            observation: Any,
            moves: Sequence[int],
            work: Any,
            anchor: int | None = None,
            *,
            inner: Any = inner,
            done: Any = done,
        ) -> int:
            started = time.process_time()
            out: int = inner(observation, moves, work, anchor)
            done[0] += work.done
            done[1] += time.process_time() - started
            return out

        bot.search = timed  # type: ignore[attr-defined]
        full = __import__("croupier.games", fromlist=["get_spec"]).get_spec(game)
        # Scauver's search rolls out only with three or more live players (heads-up it plays
        # sampled placements and answers), so its rate is measured at a three-seat table.
        params = {"players": 3} if game == "scauver" else {}
        players = full.game.info.make_params(params)["players"]
        seats = [Seat(bot, seed=1)] + [
            Seat(make_bot(f"{game}-heuristic", s), seed=s) for s in range(1, players)
        ]
        os.environ["CROUPIER_SEARCH_BUDGET"] = str(_search.budget_for(2000, bot.moves_per_ms))  # type: ignore[attr-defined]
        play_local(game, params, 5, seats)
        rates[game] = done[0] / max(done[1] * 1000, 1e-9)
        report(f"  {game}: {done[0]} moves in {done[1]:.2f} CPU-s, {rates[game]:.0f} moves/ms")
    return rates


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="default: all four")
    parser.add_argument(
        "--baseline", action="append", choices=("heuristic", "random"), help="default: both"
    )
    parser.add_argument("--sets", type=int, default=200, help="duplicate sets at most per line")
    parser.add_argument("--budget", type=int, default=2000, help="search moves per decision")
    parser.add_argument("--seed", type=int, default=1, help="the first set's match seed")
    parser.add_argument("--no-stop", action="store_true", help="play every set (no SPRT stop)")
    parser.add_argument(
        "--fipsen-bidding",
        type=int,
        default=0,
        metavar="MATCHES",
        help="only the Fipsen bidding figures, over MATCHES matches each",
    )
    parser.add_argument("--rate", action="store_true", help="only the search's moves per CPU-ms")
    parser.add_argument("--json", type=Path, help="write the lines here too")
    args = parser.parse_args(argv)

    def report(text: str) -> None:
        print(text, flush=True)

    if args.rate:
        rates = search_rate(report)
        if args.json:
            args.json.write_text(json.dumps(rates, indent=2) + "\n")
        return
    if args.fipsen_bidding:
        rows = fipsen_bidding(args.fipsen_bidding, report)
        if args.json:
            args.json.write_text(json.dumps(rows, indent=2) + "\n")
        return
    os.environ["CROUPIER_SEARCH_BUDGET"] = str(args.budget)
    lines = []
    for game in args.game or GAMES:
        for baseline in args.baseline or ("heuristic", "random"):
            base = f"{game}-heuristic" if baseline == "heuristic" else "random"
            line = run_line(game, f"{game}-search", base, args.sets, {}, stop=not args.no_stop,
                            first_seed=args.seed, report=report)  # fmt: skip
            lines.append(line)
    print()
    print(f"{'game':8} {'candidate':15} {'baseline':17} {'sets':>5} {'rounds':>7} "
          f"{'paired per round (95 %)':>28} {'SPRT':>5}")  # fmt: skip
    for line in lines:
        iv = mean_interval(line.samples)
        print(f"{line.game:8} {line.candidate:15} {line.baseline:17} {len(line.samples):5} "
              f"{line.rounds:7} {iv.mean:+9.3f} [{iv.low:+8.3f}, {iv.high:+8.3f}] "
              f"{line.decision or '-':>5}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps([x.as_dict() for x in lines], indent=2) + "\n")


if __name__ == "__main__":
    main()
