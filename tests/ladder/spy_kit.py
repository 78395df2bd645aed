"""Reading what the spy bot (``tests/e2e/bots/spy.py``) printed: every ``SPY`` line of a set of
log files, and the findings the duplicate-set tests assert on (:class:`SpyReport`)."""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

#: The spy's command line.
SPY = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'e2e' / 'bots' / 'spy.py'}"

_LINE = re.compile(r"^SPY (\S+) (.*)$")


def seating_of(match_id: str) -> int:
    """The seating number a match id ends with (``-s03`` -> 3)."""
    found = re.search(r"-s(\d+)$", match_id)
    assert found, match_id
    return int(found[1])


@dataclass
class SpyReport:
    """Every finding of the spies whose logs were read."""

    seatings: list[dict[str, str]] = field(default_factory=list)
    leaks: list[dict[str, str]] = field(default_factory=list)
    early: list[dict[str, str]] = field(default_factory=list)
    reveals: list[dict[str, str]] = field(default_factory=list)
    hands: dict[tuple[str, str, str], str] = field(default_factory=dict)

    @classmethod
    def read(cls, paths: Iterable[Path]) -> SpyReport:
        report = cls()
        for path in paths:
            for line in path.read_text(errors="replace").splitlines():
                found = _LINE.match(line.strip())
                if not found:
                    continue
                kind, rest = found[1], found[2]
                fields = dict(part.split("=", 1) for part in rest.split() if "=" in part)
                if kind == "seating":
                    report.seatings.append(fields)
                elif kind == "leak":
                    report.leaks.append(fields)
                elif kind == "early-seed":
                    report.early.append(fields)
                elif kind == "reveal":
                    report.reveals.append(fields)
                elif kind == "hand":
                    report.hands[(fields["match"], fields["deal"], fields["seat"])] = fields[
                        "ranks"
                    ]
        return report

    def true_leaks(self) -> list[dict[str, str]]:
        """The leaks whose hand is the one that seat really held (its own spy said so)."""
        return [
            leak
            for leak in self.leaks
            if self.hands.get((leak["match"], leak["deal"], leak["seat"])) == leak["ranks"]
        ]

    def processes_with_two_seatings(self) -> dict[tuple[str, str], list[str]]:
        """(process, set) -> its matches, for every process that played more than one seating
        of one set."""
        played: dict[tuple[str, str], list[str]] = defaultdict(list)
        for s in self.seatings:
            played[(s["pid"], s["set"])].append(s["match"])
        return {key: sorted(ms) for key, ms in played.items() if len(ms) > 1}

    def live_overlaps(self) -> list[dict[str, str]]:
        """Seatings taken while the same process held another seating of the set."""
        return [s for s in self.seatings if s["live"] != "0"]

    def revealed(self) -> list[dict[str, str]]:
        """MatchEnds that told a seed and salt."""
        return [r for r in self.reveals if r["salt"]]

    def summary(self) -> str:
        return (
            f"{len(self.seatings)} seatings, {len(self.leaks)} hands of other seats known from "
            f"sibling seatings ({len(self.true_leaks())} right), {len(self.early)} seeds known "
            f"before the seating, {len(self.revealed())} reveals at MatchEnd, "
            f"{len(self.processes_with_two_seatings())} (process, set) pairs with two seatings, "
            f"{len(self.live_overlaps())} seatings taken while holding another of the set"
        )
