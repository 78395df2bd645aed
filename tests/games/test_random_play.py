"""Random play through every registered game (OpenSpiel ``basic_tests``, PettingZoo ``api_test``).

The generic part uses only the game contract (:mod:`croupier.games._api`) and runs on every name in
``croupier.games.GAMES``; the As-Nas part plays 200 full matches (2,400 deals) and checks the
game's own invariants after every step. All randomness comes from explicitly seeded numpy
generators, so a failure reproduces.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from croupier.errors import ConfigError, IllegalActionError
from croupier.games import CHANCE, GAMES, TERMINAL, get_game
from croupier.games.as_nas.rules import Action, hand_key

#: Generous bound on the number of steps of one match; a game that needs more is stuck.
MAX_STEPS = 100_000
SEED = 20_240_611


@dataclass
class Step:
    """One transition: ``kind`` is CHANCE (``value`` an outcome) or the acting seat."""

    before: Any
    kind: int
    value: Any
    after: Any


@dataclass
class Match:
    steps: list[Step] = field(default_factory=list)

    @property
    def moves(self) -> list[tuple[int, Any]]:
        return [(step.kind, step.value) for step in self.steps]


def random_steps(
    game: Any,
    rng: np.random.Generator,
    params: dict[str, int] | None = None,
    fold_weight: float = 1,
) -> Iterator[Step]:
    """Play one match at random, yielding every transition; fail if it does not terminate.

    ``fold_weight`` scales the chance of action id 1 (FOLD in As-Nas) relative to the others.
    """
    state = game.initial_state(params or {})
    for _ in range(MAX_STEPS):
        player = game.current_player(state)
        if player == TERMINAL:
            return
        if player == CHANCE:
            value: Any = game.sample_chance(state, rng)
            after = game.apply_chance(state, value)
        else:
            legal = game.legal_actions(state)
            weights = np.array([fold_weight if a == 1 else 1.0 for a in legal])
            value = int(legal[rng.choice(len(legal), p=weights / weights.sum())])
            after = game.apply(state, value)
        yield Step(state, player, value, after)
        state = after
    pytest.fail(f"{game.info.name}: no terminal state after {MAX_STEPS} steps")


def replay(game: Any, params: dict[str, int] | None, moves: list[tuple[int, Any]]) -> list[Any]:
    """Re-simulate recorded chance outcomes and actions without any generator."""
    state = game.initial_state(params or {})
    states = [state]
    for kind, value in moves:
        assert game.current_player(state) == kind
        state = game.apply_chance(state, value) if kind == CHANCE else game.apply(state, value)
        states.append(state)
    return states


def probe_ids(num_actions: int, legal: tuple[int, ...]) -> list[int]:
    """Ids to try against ``apply``: all of a small id space (and one past each end); for a large
    one (the chip games have thousands), its ends, each legal id's neighbours and every 97th id."""
    if num_actions <= 256:
        return list(range(-1, num_actions + 1))
    near = {n for a in legal for n in (a - 1, a + 1)}
    return sorted({-1, 0, num_actions - 1, num_actions, *near, *range(0, num_actions, 97)})


# -- the registry ----------------------------------------------------------------------------------


def test_registry_lists_games_by_name() -> None:
    assert GAMES, "no game is registered"
    assert "as-nas" in GAMES
    assert list(GAMES) == sorted(GAMES)
    for name in GAMES:
        assert get_game(name).info.name == name
    with pytest.raises(ConfigError):
        get_game("no-such-game")


# -- generic checks on every registered game -------------------------------------------------------

GENERIC_MATCHES = 20


@pytest.mark.parametrize("name", GAMES)
def test_random_play_respects_the_contract(name: str) -> None:
    game = get_game(name)
    info = game.info
    for match in range(GENERIC_MATCHES):
        rng = np.random.default_rng([SEED, match])
        recorded = Match()
        rounds = []
        last = None
        played = False
        for step in random_steps(game, rng):
            recorded.steps.append(step)
            state = step.before
            n = game.num_players(state)
            assert info.min_players <= n <= info.max_players
            rounds.append(game.round_index(state))
            if rounds[-1] > 0 or step.kind != CHANCE:
                assert 0 <= game.dealer(state) < n  # drawn by the time anything is dealt
            if step.kind == CHANCE:
                assert game.legal_actions(state) == ()
                for bad in ((), (-1,), (10**6,) * len(step.value), (*step.value, 0)):
                    with pytest.raises(IllegalActionError):
                        game.apply_chance(state, bad)  # a malformed scripted outcome
                if played:
                    # a round ends at the action that settles it, never at the next deal
                    assert game.round_index(step.after) == game.round_index(state)
            else:
                played = True
                legal = game.legal_actions(state)
                assert legal, "no legal action before the end"
                assert list(legal) == sorted(set(legal)), "legal actions not strictly ascending"
                assert all(isinstance(a, int) for a in legal)
                assert all(0 <= a < info.num_distinct_actions for a in legal)
                assert 0 <= step.kind < n
                assert game.default_action(state) in legal
                for a in legal:
                    label = game.action_label(state, a)
                    assert isinstance(label, str)
                    assert label
                for a in probe_ids(info.num_distinct_actions, legal):
                    if a not in legal:
                        with pytest.raises(IllegalActionError):
                            game.apply(state, a)
            for seat in (*range(n), None):
                game.observe(state, seat)
            assert len(game.returns(state)) == n
            last = step.after
        assert last is not None
        assert game.current_player(last) == TERMINAL
        assert game.legal_actions(last) == ()
        assert rounds == sorted(rounds), "round index went backwards"
        assert all(isinstance(r, Fraction | int) for r in game.returns(last))
        # Determinism: the recorded outcomes and actions re-simulate to identical states.
        states = replay(game, None, recorded.moves)
        assert states == [recorded.steps[0].before] + [s.after for s in recorded.steps]
        # Same seed, same policy: the same match.
        again = [
            (s.kind, s.value) for s in random_steps(game, np.random.default_rng([SEED, match]))
        ]
        assert again == recorded.moves


# -- As-Nas invariants over 2,400 random deals -----------------------------------------------------

AS_NAS_MATCHES = 200
LOOK, FOLD, CALL, HOLD, RAISE = map(int, Action)  # ids, ascending


def true_ranks(state: Any, seat: int) -> tuple[int, ...]:
    """The ranks a seat holds, high to low, read from the omniscient state."""
    return tuple(sorted((card // 4 for card in state.hands[seat]), reverse=True))


@pytest.mark.slow
def test_as_nas_random_matches_keep_every_invariant() -> None:
    game = get_game("as-nas")
    seen: Counter[str] = Counter()
    for match in range(AS_NAS_MATCHES):
        rng = np.random.default_rng([SEED, 1, match])
        fold_weight = (0.05, 0.3, 1.0)[match % 3]
        recorded = Match()
        results = []
        deal_actions: list[tuple[int, int]] = []
        for step in random_steps(game, rng, fold_weight=fold_weight):
            recorded.steps.append(step)
            before, after = step.before, step.after
            if not recorded.steps[:-1]:
                check_state(game, before)  # the initial state; every other one was an ``after``
            check_state(game, after)
            if step.kind == CHANCE:
                deal_actions = []
                continue
            deal_actions.append((step.kind, step.value))
            seat = step.kind
            pub_before = game.observe(before, None)
            assert not pub_before.folded[seat], "a folded seat got a turn"
            if step.value == RAISE:
                seen["raise"] += 1
                if pub_before.high == 3:
                    seen["H=4"] += 1
            result = game.observe(after, None).last_deal
            if (
                result is not None
                and result.deal_index == game.round_index(before)
                and (game.current_player(after) in (CHANCE, TERMINAL))
            ):
                results.append(result)
                check_deal_end(game, before, step.value, after, result, deal_actions, seen)
            else:
                assert game.observe(after, None).history == tuple(deal_actions)
        final = recorded.steps[-1].after
        assert game.current_player(final) == TERMINAL
        assert [r.deal_index for r in results] == list(range(12))
        dealers = [r.dealer for r in results]
        assert dealers == [(dealers[0] - k) % 4 for k in range(12)]
        assert sum(game.returns(final)) == 0
        assert game.returns(final) == tuple(sum(r.deltas[s] for r in results) for s in range(4))
        # Determinism: re-simulated without the generator, every state is identical.
        states = replay(game, None, recorded.moves)
        assert states == [recorded.steps[0].before] + [s.after for s in recorded.steps]
        seen["deals"] += len(results)
    # The random play reached the interesting situations (otherwise the checks prove little).
    assert seen["deals"] >= 2_000
    assert seen["showdown"] >= 200
    assert seen["lone survivor"] >= 100
    assert seen["split 2"] >= 5
    assert seen["H=4"] >= 50
    assert seen["folded at showdown"] >= 100
    assert seen["looked"] >= 1_000


def check_state(game: Any, state: Any) -> None:
    """Invariants of any As-Nas state, on the public view and every seat's view."""
    pub = game.observe(state, None)
    player = game.current_player(state)
    assert pub.pot == sum(pub.stakes)
    assert all(0 <= stake <= pub.high <= 4 for stake in pub.stakes)
    assert sum(game.returns(state)) == 0
    assert pub.totals == game.returns(state)
    assert pub.hand == ()
    if player >= 0:
        assert pub.to_act == player
        assert pub.stakes[pub.dealer] >= 1
        assert pub.high >= 1
        # Every card is in exactly one hand, five each.
        assert sorted(c for hand in state.hands for c in hand) == list(range(20))
        assert all(len(hand) == 5 for hand in state.hands)
        legal = game.legal_actions(state)
        assert (LOOK in legal) == (not pub.looked[player])
        assert (RAISE in legal) == (pub.high < 4)
        assert (HOLD in legal) == (pub.stakes[player] == pub.high)
        assert (CALL in legal) == (pub.stakes[player] < pub.high)
        assert FOLD in legal
    else:
        assert pub.to_act is None
    for seat in range(4):
        obs = game.observe(state, seat)
        assert obs.seat == seat
        if player >= 0 or player == TERMINAL:
            if obs.looked[seat]:
                assert obs.hand == true_ranks(state, seat)
            else:
                assert obs.hand == ()
        else:
            assert obs.hand == ()
        # Apart from the seat's own hand, every seat sees exactly the public view.
        assert obs.looked == pub.looked
        assert obs.folded == pub.folded
        assert obs.stakes == pub.stakes
        assert obs.history == pub.history
        assert obs.last_deal == pub.last_deal
        assert obs.totals == pub.totals


def check_deal_end(
    game: Any,
    before: Any,
    action: int,
    after: Any,
    result: Any,
    actions: list[tuple[int, int]],
    seen: Counter[str],
) -> None:
    """A deal just ended with ``action``: check the settlement against the last betting state."""
    pub = game.observe(before, None)
    seat = pub.to_act
    folded = list(pub.folded)
    stakes = list(pub.stakes)
    if action == FOLD:
        folded[seat] = True
    elif action == CALL:
        stakes[seat] = pub.high
    elif action == RAISE:
        stakes[seat] = pub.high + 1
    live = [s for s in range(4) if not folded[s]]
    assert result.pot == sum(stakes)
    assert sum(result.deltas) == 0
    assert all(Fraction(d).denominator in (1, 2, 3) for d in result.deltas)
    assert set(result.winners) <= set(live)
    for s in range(4):
        if folded[s]:
            assert result.revealed[s] is None, "a folded hand was revealed"
    payout = Fraction(result.pot, len(result.winners))
    for s in range(4):
        assert result.deltas[s] == (payout if s in result.winners else 0) - stakes[s]
    totals_before, totals_after = game.returns(before), game.returns(after)
    assert tuple(a - b for a, b in zip(totals_after, totals_before, strict=True)) == result.deltas
    if len(live) == 1:
        seen["lone survivor"] += 1
        assert result.revealed == (None,) * 4
        assert result.winners == (live[0],)
    else:
        seen["showdown"] += 1
        if len(live) < 4:
            seen["folded at showdown"] += 1
        # The last action closed the betting: every live stake equals H.
        high = max(stakes)
        assert all(stakes[s] == high for s in live)
        assert all(any(a != LOOK and p == s for p, a in actions) for s in live)
        for s in live:
            assert result.revealed[s] == true_ranks(before, s)
        best = max(hand_key(result.revealed[s]) for s in live)
        assert result.winners == tuple(s for s in live if hand_key(result.revealed[s]) == best)
        if len(result.winners) > 1:
            seen[f"split {len(result.winners)}"] += 1
    seen["looked"] += sum(game.observe(before, None).looked)
