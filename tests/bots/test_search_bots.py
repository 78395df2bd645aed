"""The ``<game>-search`` reference bots in-process (``croupier.transport.play_local``): the same
seed gives the same moves, and the work of a decision follows its clock."""

from __future__ import annotations

import random
from typing import Any

import pytest

from croupier.transport import play_local
from croupier_bot import Bot, Seat, proto
from croupier_bots._search import MAX_BUDGET, MIN_BUDGET, budget_for
from croupier_bots.as_nas_search import AsNasSearch
from croupier_bots.felduz_search import FelduzSearch
from croupier_bots.fipsen_search import FipsenSearch
from croupier_bots.random_bot import RandomBot
from croupier_bots.scauver_heuristic import ScauverHeuristic, field_key
from croupier_bots.scauver_search import (
    MAX_FUTURES,
    MIN_FUTURES,
    ScauverSearch,
    answer_chance,
    futures_for,
    sample_futures,
)

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


# -- the Scauver search's placements --------------------------------------------------------------


def _scauver_view(
    hand: list[int], fields: list[tuple[list[int], list[int]]], held: tuple[int, ...] = ()
) -> Any:
    """A Scauver observation for seat 0: its hand and every seat's flanks (card ids: the value
    is the rank plus one) and hand sizes, every seat live."""
    obs = proto.ScauverObservation(hand=[proto.Card40(id=c, value=c % 10 + 1) for c in hand])
    for k, (left, right) in enumerate(fields):
        seat = obs.seats.add()
        seat.hand_size = held[k] if k < len(held) else 0
        seat.field.left.extend(proto.Card40(id=c, value=c % 10 + 1) for c in left)
        seat.field.right.extend(proto.Card40(id=c, value=c % 10 + 1) for c in right)
        obs.table.live.append(True)
    return obs


def test_placement_futures_come_from_the_cards_the_seat_cannot_see() -> None:
    # Seat 0 sees all four kings (two in its hand, two on its flanks) and three of the four
    # aces; the second seat has opened (two cards), the third not yet (flanks shown empty).
    obs = _scauver_view([9, 19, 0], [([29, 10], [39]), ([20], [30]), ([], [])])
    futures = sample_futures(obs, 0, 200, random.Random(5))
    assert len(futures) == 200
    for draws, keys in futures:
        assert len(draws) == 8 - 3 - 3  # its own draws still to come
        assert 10 not in draws, draws  # only cards it cannot see
        assert draws.count(1) <= 1, draws
        assert len(keys) == 2  # every other live seat, completed
    # The other seats' completions come from the unseen cards too: no king in any of them.
    assert all(10 not in key[4] for _, keys in futures for key in keys)


def test_a_complete_field_is_its_own_future() -> None:
    obs = _scauver_view([1, 2], [([3], [4, 5]), ([0, 11, 22, 13], [4 + 10, 5 + 20, 6, 17])])
    other = field_key((1, 2, 3, 4), (5, 6, 7, 8))
    assert all(keys == [other] for _, keys in sample_futures(obs, 0, 20, random.Random(1)))


def test_placement_futures_follow_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CROUPIER_SEARCH_BUDGET", raising=False)
    rate = ScauverSearch.moves_per_ms
    assert futures_for(400, rate) < futures_for(2000, rate) <= MAX_FUTURES
    assert MIN_FUTURES <= futures_for(1, rate) < futures_for(400, rate)
    monkeypatch.setenv("CROUPIER_SEARCH_BUDGET", "2000")
    assert futures_for(1, rate) == 100


def test_an_answer_reads_the_bet_of_a_bettor_who_knows_it_wins() -> None:
    # Seat 0's field is complete (1 4 5 J | 2 3 6 7); seat 1 has placed five cards and holds
    # three, with nothing left to draw: it knows whether it wins, and the heuristic bets the cap
    # only when it does. Counted over the cards seat 0 cannot see, seat 0 wins more often than
    # not (and the heuristic would call); after that bet, it is far behind.
    obs = _scauver_view([], [([0, 3, 4, 8], [1, 2, 5, 16]), ([10, 21], [12, 13, 24])], (0, 3))
    obs.table.pot = 4
    bet = obs.table.bet
    bet.bettor, bet.level, bet.max_level, bet.to_act = 1, 96, 96, 0
    bet.contributions.extend([0, 96])
    assert ScauverHeuristic(1, 400).win_chance(obs, 0) > 0.5
    assert answer_chance(obs, 0, 1, 200, random.Random(3)) < 0.25
