"""The Felduz and Scauver heuristics read a betting step's runs as ranges (issue 20, "ranges stay
ranges"): at stack 1,000 they no longer build one ``LegalAction`` per amount, and they choose
exactly what they chose from the expanded list. Each seat is a twin: the bot as it plays, from
the SDK's ``LegalActions`` (entries and runs), and a copy of it with the same seed handed the
same decision with every action expanded into a plain list (what it read before); the two
must agree at every decision of seeded matches."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.transport import play_local
from croupier_bot import Bot, Decision, MatchInfo, Seat
from croupier_bots.felduz_heuristic import FelduzHeuristic
from croupier_bots.scauver_heuristic import ScauverHeuristic


class Twin(Bot):
    def __init__(self, make: Any) -> None:
        self.bot, self.twin = make(), make()
        self.decisions = self.ranged = 0

    def on_welcome(self, match: MatchInfo) -> None:
        self.bot.on_welcome(match)
        self.twin.on_welcome(match)

    def on_event(self, event: Any) -> None:
        self.bot.on_event(event)
        self.twin.on_event(event)

    def act(self, decision: Decision) -> int:
        runs = decision.legal_runs
        every = list(decision.legal_actions)  # one LegalAction per amount
        expanded = Decision(decision.request_id, decision.observation, every, decision.clocks,
                            decision.match)  # fmt: skip
        chosen = self.bot.act(decision)
        assert chosen == self.twin.act(expanded), decision.legal_runs
        assert decision.is_legal(chosen)
        self.decisions += 1
        self.ranged += any(len(r) > 1 for r in runs)
        return int(chosen)


@pytest.mark.parametrize(
    ("game", "make"),
    [
        ("felduz", lambda seed: FelduzHeuristic),
        ("scauver", lambda seed: lambda: ScauverHeuristic(seed)),
    ],
    ids=["felduz", "scauver"],
)
@pytest.mark.parametrize(("players", "amphora"), [(2, 1), (3, 5)])
def test_a_heuristic_chooses_from_the_runs_what_it_chose_from_the_list(
    game: str, make: Any, players: int, amphora: int
) -> None:
    decisions = ranged = 0
    for seed in range(3 if game == "scauver" else 20):  # (Felduz matches are short)
        twins = [Twin(make(seed * 10 + s)) for s in range(players)]
        params = {"players": players, "stack": 1000, "amphora": amphora, "round_cap": 8}
        play_local(game, params, 40 + seed, [Seat(t) for t in twins])
        decisions += sum(t.decisions for t in twins)
        ranged += sum(t.ranged for t in twins)
    assert decisions > 40
    assert ranged > 5  # betting steps with runs of amounts were decided
