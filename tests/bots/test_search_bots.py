"""The ``<game>-search`` reference bots in-process (``croupier.transport.play_local``): the same
seed gives the same moves, and the work of a decision follows its clock."""

from __future__ import annotations

from typing import Any

import pytest

from croupier.transport import play_local
from croupier_bot import Bot, Seat
from croupier_bots._search import MAX_BUDGET, MIN_BUDGET, budget_for
from croupier_bots.as_nas_search import AsNasSearch
from croupier_bots.felduz_search import FelduzSearch
from croupier_bots.fipsen_search import FipsenSearch
from croupier_bots.random_bot import RandomBot
from croupier_bots.scauver_search import ScauverSearch

#: Per game: the search bot, small match parameters, seats.
GAMES: dict[str, tuple[type[Bot], dict[str, int], int]] = {
    "as-nas": (AsNasSearch, {"deals": 2}, 4),
    "fipsen": (FipsenSearch, {"deals": 1}, 4),
    "felduz": (FelduzSearch, {"players": 3, "stack": 6, "round_cap": 3}, 3),
    "scauver": (ScauverSearch, {"players": 3, "stack": 4, "round_cap": 3}, 3),
}


def _moves(game: str, seed: int, match_seed: int) -> list[Any]:
    """Every public move of a small match: the search bot (seeded ``seed``) in seat 0."""
    cls, params, n = GAMES[game]
    seats = [Seat(cls(seed), seed=seed)] + [Seat(RandomBot(s), seed=s) for s in range(1, n)]  # type: ignore[call-arg]
    scores = play_local(game, params, match_seed, seats)
    rounds = seats[1].history.rounds
    return [scores, *(str(past) for past in rounds)]  # each round's public record


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_same_seed_gives_the_same_moves(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CROUPIER_SEARCH_BUDGET", "400")
    for match_seed in (1, 2):
        assert _moves(game, 7, match_seed) == _moves(game, 7, match_seed)


def test_the_budget_follows_the_decision_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CROUPIER_SEARCH_BUDGET", raising=False)
    assert budget_for(400) < budget_for(2000) <= MAX_BUDGET
    assert budget_for(1) == MIN_BUDGET
    assert budget_for(10**7) == MAX_BUDGET
    assert budget_for(2000, ScauverSearch.moves_per_ms) < budget_for(2000)
    monkeypatch.setenv("CROUPIER_SEARCH_BUDGET", "123")
    assert budget_for(2000) == 123
