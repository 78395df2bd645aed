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
with β fitted over the tournament's matches (:func:`fit_beta`, with the action terms'
:func:`fit_betas`: the share of the correction that the real scores follow; 1 is AIVAT's own
choice, 0 when the reference policy tells nothing of how these bots score).

**Unbiased.** Given ``h_k``, the outcome that happened and each ``o'_kj`` are draws from the
same distribution, and the playouts' randomness is independent of the match: each term has
expectation zero whatever the bots do and however noisy ``v`` is, so the adjusted score has the
same expectation as the score (``tests/ladder/test_control.py`` shows it by simulation). What
it removes is the part of the score that a random player would also have got from those cards:
the better ``v`` tracks the real outcome, the narrower the interval.

**Action terms** (AIVAT's action term, for seats whose policy is known). A seat played by
the bundled random bot picks uniformly among the legal actions, so each of its decisions is a
chance event too: with ``h`` the state before it and ``a`` the action it took, the term of
seat s is ``v_s(h · a) − mean_{a' legal} v_s(h · a')``, zero in expectation for the same
reason; it takes out the luck of the random bot's draws, which is most of the spread of a
field with random bots in it (:func:`action_corrections`). An action's value counts what it
changes at once (a trick it completes, chips it puts in) and playouts from there to the end
of the round, in which every seat not known to play at random plays the game's **reference
player** (:func:`reference_player`: the bundled search bot's rollout policy), which follows
real bots far better than random play does; any fixed player keeps the terms unbiased. Up
to :data:`ENUMERATE` legal actions each gets :data:`ACTION_ROLLOUTS` playouts, all with the
same random numbers (common random numbers: the actions' values differ by the action, not by
the playouts' luck), and the action taken reuses its own estimate, so the term is exactly
centred over the draw; beyond, one action is drawn from each of :data:`STRATA` runs of the
legal list (stratified sampling, unbiased for the mean over all of them). Only decisions the
seat's bot answered itself count (:func:`answered`: a timeout's default action, the default
played for a seat that is gone and a forfeited seat's concessions are no uniform draw). The
standings fit a β for each kind of term (:func:`fit_betas`).

**Chip games value an action by the match, not the round.** A chip game's score is the final
stack, and a match is mostly won by whoever ends up holding every chip: what a round's change
of chips says of that depends on who holds the rest. So there an action is worth, per seat,
the expected final stack of the state its playouts reach at the round's end under a model of
the freeze-out (:func:`match_worth`): each seat gets its strength-weighted share of the
chips, a seat not known to play at random weighing :data:`ODDS` times one that is (the odds
the game's reference player holds against a uniform player heads-up, measured once by
``bench/stats.py odds``); a playout that ends the match is worth its final stacks. Any fixed
worth keeps the terms unbiased; this one follows who busts whom (the 3-seat Scauver field of
``bench/stats.py widths``: 0.66 → 0.44 × the raw interval; a Felduz round robin 1.13 → 0.60).

The playouts draw from a generator seeded by the match seed under a spawn key of its own (one
for the chance terms, another for the action terms), so the corrections of a match are the
same every time they are computed (and independent of the deals, which the seed draws under
other keys).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import structlog

from croupier.errors import CroupierError
from croupier.games import CHANCE, TERMINAL
from croupier.replay import Replay, read_replay

#: ``policy(state, player, rng) -> action``: a move for ``player`` on the full state.
Policy = Callable[[Any, int, np.random.Generator], int]
#: ``worth(state) -> per-seat value``: what a playout's last state is worth to each seat.
Worth = Callable[[Any], np.ndarray]

#: Random playouts from the state after the outcome that happened.
ROLLOUTS = 8
#: Outcomes drawn afresh at the same state for the baseline, one playout each.
SAMPLES = 16
#: The spawn key of the playouts' generator under the match seed (the deals use others).
SPAWN_KEY = (0x43, 0x56)
#: The spawn key of the action terms' playouts.
ACTION_SPAWN_KEY = (0x43, 0x56, 0x41)
#: Playouts for each action an action term values (their noise is most of what is left:
#: measured on the Fipsen round robin, 8 give 0.54 x the raw interval, 16 give 0.35).
ACTION_ROLLOUTS = 16
#: Decisions with at most this many legal actions value each of them; larger ones draw.
ENUMERATE = 32
#: Runs of the legal list a larger decision draws one action from each.
STRATA = 8
#: Chip games: the weight of a chip held by a seat not known to play at random against one
#: held by a seat that is (:func:`match_worth`): the odds ``p / (1 − p)`` of the game's
#: reference player's share ``p`` of the chips at the end of heads-up matches against a
#: uniform player from equal stacks (``bench/stats.py odds``).
ODDS: Mapping[str, float] = {"felduz": 22.5, "scauver": 53.0}


def _round_end(game: Any, state: Any) -> int:
    """The round whose end a playout from ``state`` stops at: the state's own (the round to
    be dealt, before the first deal)."""
    return max(int(game.round_index(state)), 0)


def _playout(
    game: Any,
    state: Any,
    stop: int,
    rng: np.random.Generator,
    players: Sequence[Policy | None] = (),
) -> np.ndarray:
    """Each seat's change of score from ``state`` to the end of round ``stop`` (or of the
    match), every seat playing uniformly random legal actions, or the policy ``players``
    gives it (``None``: at random)."""
    start = game.totals(state)
    end = game.totals(_play_out(game, state, stop, rng, players))
    return np.array([float(b - a) for a, b in zip(start, end, strict=True)])


def _play_out(
    game: Any,
    state: Any,
    stop: int,
    rng: np.random.Generator,
    players: Sequence[Policy | None] = (),
) -> Any:
    """The state a playout from ``state`` reaches at the end of round ``stop`` (or of the
    match), played as :func:`_playout` says."""
    while (player := game.current_player(state)) != TERMINAL:
        if player == CHANCE:
            if game.round_index(state) > stop:
                break
            state = game.apply_chance(state, game.sample_chance(state, rng))
            continue
        if game.round_index(state) > stop:
            break
        policy = players[player] if players else None
        if policy is not None:
            state = game.apply(state, policy(state, player, rng))
            continue
        legal = game.legal_actions(state)
        state = game.apply(state, legal[int(rng.integers(len(legal)))])
    return state


def value(
    game: Any,
    state: Any,
    stop: int,
    rng: np.random.Generator,
    playouts: int,
    players: Sequence[Policy | None] = (),
) -> np.ndarray:
    """The reference policy's expected change of score per seat from ``state`` to the end of
    round ``stop``, estimated from ``playouts`` playouts (``players``: as in :func:`_playout`)."""
    total = _playout(game, state, stop, rng, players)
    for _ in range(playouts - 1):
        total = total + _playout(game, state, stop, rng, players)
    return total / playouts


def reference_player(game: str) -> Policy | None:
    """The game's reference player for the action terms: the rollout policy of its bundled
    search bot (``croupier_bots.<game>_search.rollout_policy``, a fast move on the full
    state, reading its own cards and the table), or ``None`` (play at random) where it cannot
    be imported."""
    try:
        module = importlib.import_module(f"croupier_bots.{game.replace('-', '_')}_search")
    except ImportError:
        return None
    policy = getattr(module, "rollout_policy", None)
    return policy if callable(policy) else None


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


def action_corrections(
    game: Any,
    steps: Sequence[tuple[Any, int, Any]],
    seed: int,
    seats: int,
    *,
    players: Sequence[Policy | None] = (),
    rollouts: int = ACTION_ROLLOUTS,
    worth: Worth | None = None,
) -> np.ndarray:
    """Σ of the action terms per seat over ``steps``, each ``(state before, action taken,
    state after)`` of a decision whose seat drew its action uniformly among the legal ones;
    ``rollouts`` playouts for each action valued, playing ``players`` (as in :func:`_playout`)
    and drawing from ``seed``'s own stream (:data:`ACTION_SPAWN_KEY`). An action is worth the
    change of score it leads to by the end of the round, or ``worth`` of the state a playout
    reaches there (:func:`match_worth`)."""
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=ACTION_SPAWN_KEY))
    total = np.zeros(seats)
    for before, taken, _after in steps:
        legal = list(game.legal_actions(before))
        if len(legal) < 2:
            continue
        common = int(rng.integers(1 << 62))  # the same playout draws for every action

        def value_of(action: int, before: Any = before, common: int = common) -> np.ndarray:
            return _action_value(game, before, action, common, rollouts, players, worth)

        if len(legal) <= ENUMERATE:
            values = [value_of(a) for a in legal]
            total += values[legal.index(taken)] - sum(values) / len(values)
            continue
        # stratified: one action drawn uniformly from each of STRATA runs of the legal list,
        # weighted by its run's share (an unbiased estimate of the mean over all actions)
        base = np.zeros(seats)
        for block in np.array_split(np.arange(len(legal)), STRATA):
            drawn = legal[int(block[int(rng.integers(len(block)))])]
            base = base + value_of(drawn) * (len(block) / len(legal))
        total += value_of(taken) - base
    return total


def _action_value(
    game: Any,
    before: Any,
    action: int,
    common: int,
    rollouts: int,
    players: Sequence[Policy | None],
    worth: Worth | None = None,
) -> np.ndarray:
    """An action's value per seat from ``before``: what it changes at once (a trick taken,
    chips put in) and ``rollouts`` playouts from there drawn from ``common``, to the end of
    ``before``'s round whichever action it is (one that ends the round is valued by what it
    settles, its playouts stopping at once); with ``worth``, the mean of ``worth`` over the
    states the playouts reach."""
    after = game.apply(before, action)
    if worth is not None:
        rng = np.random.default_rng(common)
        stop = _round_end(game, before)
        total = worth(_play_out(game, after, stop, rng, players))
        for _ in range(rollouts - 1):
            total = total + worth(_play_out(game, after, stop, rng, players))
        return np.asarray(total / rollouts)
    start, now = game.totals(before), game.totals(after)
    settled = np.array([float(y - x) for x, y in zip(start, now, strict=True)])
    stop = _round_end(game, before)
    playouts = value(game, after, stop, np.random.default_rng(common), rollouts, players)
    return np.asarray(settled + playouts)


def match_worth(game: Any, name: str, uniform: Sequence[bool]) -> Worth | None:
    """How a chip game's action terms value the state a playout reaches at the end of its
    round: each seat's expected final stack when the match is decided by **strength-weighted
    shares** of the chips, ``T · w_s c_s / Σ_j w_j c_j`` (``c``: the chips each seat holds,
    ``T`` all of them; the match's own final stacks once it is over), with weight 1 for a seat
    in ``uniform`` and :data:`ODDS` ``[name]`` for any other. With equal weights this is a
    fair freeze-out (a seat wins all the chips with the chance of its share of them), and the
    worth is the seat's chips: the round's value again. A seat that plays better than at
    random wins more than its share, which the weight says. ``None`` for trick
    games (their score is the sum of the rounds' points) and chip games :data:`ODDS` does not
    know; any fixed ``worth`` keeps the terms unbiased."""
    odds = ODDS.get(name)
    if odds is None or game.info.fixed_length:
        return None
    weights = np.array([1.0 if u else odds for u in uniform])

    def worth(state: Any) -> np.ndarray:
        chips = np.array([float(c) for c in game.totals(state)])
        if game.current_player(state) == TERMINAL:
            return chips
        held = weights * chips
        return np.asarray(chips.sum() * held / held.sum())

    return worth


def answered(record: Mapping[str, Any]) -> bool:
    """Whether an action record is the seat's bot's own answer: no fault, not a concession,
    and timed (``wall_us``): the arbiter's own moves for a seat that is gone (the default
    action) or has forfeited (the concede move) carry no timing, and are no draw of the bot."""
    return record.get("fault") is None and not record.get("conceded") and "wall_us" in record


def replay_action_corrections(
    replay: Replay, seed: int, uniform: Collection[int], *, rollouts: int = ACTION_ROLLOUTS
) -> tuple[float, ...]:
    """Each seat's Σ of action terms for the match of ``replay``, over the decisions of the
    seats in ``uniform`` (those played by a bot known to draw uniformly: the bundled random
    bot) that the bot answered itself (:func:`answered`); all zero when there are none."""
    seats = len(replay.header["seats"])
    steps = [
        (replay.before(i), int(rec.data["action"]), replay.states[i])
        for i, rec in enumerate(replay.records)
        if rec.type == "action" and rec.data["seat"] in uniform and answered(rec.data)
    ]
    if not steps:
        return (0.0,) * seats
    name = str(replay.header["game"])
    reference = reference_player(name)
    players = [None if s in uniform else reference for s in range(seats)]
    worth = match_worth(replay.game, name, [s in uniform for s in range(seats)])
    total = action_corrections(
        replay.game, steps, seed, seats, players=players, rollouts=rollouts, worth=worth
    )
    return tuple(round(float(x), 9) for x in total)


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


def match_corrections(
    replay: Path, seed: int, seats: int, uniform: Collection[int] = ()
) -> tuple[tuple[float | None, ...], tuple[float | None, ...]]:
    """The control variates of a finished match's seats (``_control``), from its replay: the
    chance terms, and the action terms of the seats in ``uniform``; ``None`` each when the
    replay cannot be read back (the match still counts, raw)."""
    try:
        played = read_replay(replay)
        chance: tuple[float | None, ...] = replay_corrections(played, seed)
    except (CroupierError, OSError, ValueError):
        return (None,) * seats, (None,) * seats
    try:  # (a failure here leaves the chance terms: the action terms then count as 0)
        action: tuple[float | None, ...] = replay_action_corrections(played, seed, uniform)
    except Exception:  # derived data: the match counts without them
        structlog.get_logger("croupier.ladder").warning("action_terms_failed", exc_info=True)
        action = (None,) * seats
    return chance, action


def fit_betas(
    scores: Sequence[float], chance: Sequence[float], action: Sequence[float]
) -> tuple[float, float]:
    """The coefficients ``(β, β_action)`` in [0, 1]² that make ``score − β · chance − β_action
    · action`` vary least over the samples (least squares in the box: the unconstrained
    solution if inside, else the best on its edges); ``(0, 0)`` with fewer than 8 samples.
    Each correction has expectation zero, so any fixed pair leaves the mean alone."""
    if len(scores) < 8:
        return 0.0, 0.0
    y = np.asarray(scores, dtype=float)
    x = np.column_stack([np.asarray(chance, dtype=float), np.asarray(action, dtype=float)])
    y = y - y.mean()
    x = x - x.mean(axis=0)

    def cost(b: np.ndarray) -> float:
        return float(np.sum((y - x @ b) ** 2))

    tries = []
    if np.linalg.matrix_rank(x) == 2:
        tries.append(np.linalg.solve(x.T @ x, x.T @ y))
    for k in (0, 1):  # one coefficient on an edge, the other fitted to what it leaves
        for edge in (0.0, 1.0):
            b = np.zeros(2)
            b[k] = edge
            b[1 - k] = fit_beta(list(y - x[:, k] * edge), list(x[:, 1 - k]))
            tries.append(b)
    inside = [b for b in tries if 0.0 <= b[0] <= 1.0 and 0.0 <= b[1] <= 1.0]
    best = min(inside, key=cost)
    return float(best[0]), float(best[1])


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
