"""Control variates from what the engine knows after a match: the luck of the chance outcomes.

A seat's score mixes skill with the luck of the cards. After the match every chance outcome is
known (the first dealer, every deal), and so is its distribution (a uniform draw, a uniform
shuffle of the deck, whatever the history). For each chance event k, with the state ``h_k``
before it and ``o_k`` the outcome that happened, the correction of seat s is (AIVAT's chance
term, Burch et al. 2018, with a fixed reference policy in place of a learned value)::

    c_k(s) = v_s(h_k · o_k) − mean_j v_s(h_k · o'_kj)

where ``v_s(state)`` is seat s's expected change of score from ``state`` to the end of its round
(deal) when every seat plays the **reference policy**: uniformly random legal actions, with
the rest of the round's chance drawn fresh; it is estimated by :data:`ROLLOUTS` random playouts,
and the mean on the right by :data:`SAMPLES` outcomes ``o'_kj`` drawn from the game's own chance
distribution at ``h_k``, one playout each. The adjusted score is ``score − β · Σ_k c_k(s)``,
with β fitted over the tournament's matches (:func:`fit_beta`: the share of the correction
that the real scores follow; 1 is AIVAT's own choice, 0 when the reference policy tells
nothing of how these bots score).

**Unbiased.** Given ``h_k``, the outcome that happened and each ``o'_kj`` are draws from the
same distribution, and the playouts' randomness is independent of the match: each term has
expectation zero whatever the bots do and however noisy ``v`` is, so the adjusted score has the
same expectation as the score (``tests/ladder/test_control.py`` shows it by simulation). What
it removes is the part of the score that a random player would also have got from those cards:
the better ``v`` tracks the real outcome, the narrower the interval.

The playouts draw from a generator seeded by the match seed under a spawn key of its own, so
the corrections of a match are the same every time they are computed (and independent of the
deals, which the seed draws under other keys).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from croupier.games import CHANCE, TERMINAL
from croupier.replay import Replay

#: Random playouts from the state after the outcome that happened.
ROLLOUTS = 8
#: Outcomes drawn afresh at the same state for the baseline, one playout each.
SAMPLES = 16
#: The spawn key of the playouts' generator under the match seed (the deals use others).
SPAWN_KEY = (0x43, 0x56)


def _round_end(game: Any, state: Any) -> int:
    """The round whose end a playout from ``state`` stops at: the state's own (the round to
    be dealt, before the first deal)."""
    return max(int(game.round_index(state)), 0)


def _playout(game: Any, state: Any, stop: int, rng: np.random.Generator) -> np.ndarray:
    """Each seat's change of score from ``state`` to the end of round ``stop`` (or of the
    match), every seat playing uniformly random legal actions."""
    start = game.totals(state)
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            if game.round_index(state) > stop:
                break
            state = game.apply_chance(state, game.sample_chance(state, rng))
            continue
        if game.round_index(state) > stop:
            break
        legal = game.legal_actions(state)
        state = game.apply(state, legal[int(rng.integers(len(legal)))])
    end = game.totals(state)
    return np.array([float(b - a) for a, b in zip(start, end, strict=True)])


def value(game: Any, state: Any, stop: int, rng: np.random.Generator, playouts: int) -> np.ndarray:
    """The reference policy's expected change of score per seat from ``state`` to the end of
    round ``stop``, estimated from ``playouts`` playouts."""
    total = _playout(game, state, stop, rng)
    for _ in range(playouts - 1):
        total = total + _playout(game, state, stop, rng)
    return total / playouts


def chance_corrections(
    game: Any,
    steps: Sequence[tuple[Any, tuple[int, ...], Any]],
    seed: int,
    *,
    rollouts: int = ROLLOUTS,
    samples: int = SAMPLES,
) -> np.ndarray:
    """Σ_k c_k(s) per seat over the chance events ``steps`` of one match, each ``(state
    before, outcome, state after)``, with playouts drawn from ``seed``'s own stream."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=SPAWN_KEY))
    total: np.ndarray | None = None
    for before, _outcome, after in steps:
        stop = _round_end(game, after)
        actual = value(game, after, stop, rng, rollouts)
        base = value(game, game.apply_chance(before, game.sample_chance(before, rng)), stop, rng, 1)
        for _ in range(samples - 1):
            other = game.apply_chance(before, game.sample_chance(before, rng))
            base = base + value(game, other, stop, rng, 1)
        term = actual - base / samples
        total = term if total is None else total + term
    if total is None:
        return np.zeros(0)
    return total


def replay_corrections(
    replay: Replay, seed: int, *, rollouts: int = ROLLOUTS, samples: int = SAMPLES
) -> tuple[float, ...]:
    """Each seat's correction Σ_k c_k(s) for the match of ``replay`` (``seed``: the match's
    seed, which seeds the playouts); all zero for a match without chance events."""
    seats = len(replay.header["seats"])
    steps = [
        (replay.before(i), tuple(rec.data["outcome"]), replay.states[i])
        for i, rec in enumerate(replay.records)
        if rec.type == "chance"
    ]
    total = chance_corrections(replay.game, steps, seed, rollouts=rollouts, samples=samples)
    if not len(total):
        return (0.0,) * seats
    return tuple(round(float(x), 9) for x in total)


def fit_beta(scores: Sequence[float], corrections: Sequence[float]) -> float:
    """The coefficient that makes ``score − β · correction`` vary least over the samples
    (least squares: cov / var), clipped to [0, 1]; 0 with fewer than 8 samples or no spread.
    Each correction has expectation zero, so any fixed β leaves the mean alone; a β fitted on
    the same samples adds a bias of order 1/n, far inside the interval (the simulation in
    ``tests/ladder/test_control.py`` checks it)."""
    if len(scores) < 8:
        return 0.0
    x = np.asarray(scores, dtype=float)
    c = np.asarray(corrections, dtype=float)
    var = float(np.var(c))
    if var <= 0:
        return 0.0
    beta = float(np.mean((x - x.mean()) * (c - c.mean()))) / var
    return min(max(beta, 0.0), 1.0)
