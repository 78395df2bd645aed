"""No-leak resampling (``<game>.resample``, ``croupier_proto.v1.deal``, ``croupier_bot.resample``).

* Consistency (hypothesis, every game): a sample of any state reached by play, seen from any
  seat, gives that seat exactly the observation it was drawn from.
* No leak: two true states the seat cannot tell apart give the same samples for the same random
  bits (the sample is built from the observation alone).
* The distribution: every consistent deal is equally likely. Checked with a chi-square test
  against exact counts: As-Nas (the hypergeometric law of the others' ranks), Fipsen (late in a
  deal, every consistent placement of the unseen cards enumerated and checked by replaying the
  deal through the rules), Felduz (a reserve of one card proves the closed card's value) and
  Scauver (the others' hands).
* The SDK draws from the same sampler (one module, in the stubs distribution), and draws the same
  deals from the decisions a bot is sent as the in-process resample from the seat's observation.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import walk
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.arbiter import ClockRules, Clocks, Welcome, decision_request
from croupier.games import CHANCE, GAMES, TERMINAL, get_spec
from croupier.games._drive import Ply, play, random_moves
from croupier.games._resample import sample_wire, wire
from croupier.transport._codec import encode
from croupier.v1 import bot_pb2 as pb
from croupier_bot import Bot, Decision, Inconsistent, Seat
from croupier_bot import resample as sdk_resample
from croupier_proto.v1 import deal as deal_module

ROOT = Path(__file__).parents[2]
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Small matches that still reach every phase.
PARAMS = {
    "as-nas": {"deals": 2},
    "fipsen": {"deals": 2},
    "felduz": {"players": 3, "stack": 12, "round_cap": 3},
    "scauver": {"players": 3, "stack": 12, "round_cap": 3},
}


def _params(name: str) -> dict[str, int]:
    """A small match of ``name``: the one above, or its golden playthrough's."""
    return PARAMS.get(name) or dict(get_spec(name).playthrough.params)


def _states(name: str, seed: int, picks: list[int]) -> list[Any]:
    spec = get_spec(name)
    params = spec.game.info.make_params(_params(name))
    return walk.drive(spec.game, params, seed, picks)


def chi_square_p(observed: Sequence[int], expected: Sequence[float]) -> float:
    """The p-value of Pearson's chi-square statistic (Wilson-Hilferty approximation)."""
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    k = len(observed) - 1
    z = ((stat / k) ** (1 / 3) - (1 - 2 / (9 * k))) / math.sqrt(2 / (9 * k))
    return 0.5 * math.erfc(z / math.sqrt(2))


# -- consistency -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 60), max_size=150))
def test_a_sample_shows_the_seat_exactly_what_it_saw(
    name: str, seed: int, picks: list[int]
) -> None:
    spec = get_spec(name)
    game = spec.game
    params = game.info.make_params(_params(name))
    state = _states(name, seed, picks)[-1]
    for seat in range(game.num_players(state)):
        obs = game.observe(state, seat)
        sample = spec.resample(obs, np.random.default_rng(seed + seat), params)
        assert game.observe(sample, seat) == obs
        if game.current_player(state) == seat:
            assert game.current_player(sample) == seat
            assert game.legal_actions(sample) == game.legal_actions(state)


@pytest.mark.parametrize("name", GAMES)
def test_a_seat_to_act_gets_a_state_where_it_acts(name: str) -> None:
    """At a decision every hidden move before it has been made (a declined Siebener Fips
    offer, the splits before the seat's own): the sample asks the seat, with its legal moves."""
    spec = get_spec(name)
    game = spec.game
    params = game.info.make_params(_params(name))
    for seed in range(4):
        start = game.initial_state(params)
        for ply in play(game, start, random_moves(game, np.random.default_rng(seed))):
            if ply.player == CHANCE:
                continue
            obs = game.observe(ply.before, ply.player)
            sample = spec.resample(obs, np.random.default_rng(seed), params)
            assert game.current_player(sample) == ply.player
            assert game.legal_actions(sample) == game.legal_actions(ply.before)


# -- no leak ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_the_samples_do_not_depend_on_the_cards_the_seat_cannot_see(name: str) -> None:
    """Another true state the seat cannot tell apart (a sample itself: other cards where the
    seat sees none) gives the very same samples for the same random bits."""
    spec = get_spec(name)
    game = spec.game
    params = game.info.make_params(_params(name))
    differed = 0
    for seed in range(3):
        start = game.initial_state(params)
        for ply in play(game, start, random_moves(game, np.random.default_rng(seed))):
            if ply.player == CHANCE:
                continue
            truth = ply.before
            obs = game.observe(truth, ply.player)
            other = spec.resample(obs, np.random.default_rng(10_000 + seed), params)
            assert game.observe(other, ply.player) == obs
            differed += other != truth
            for k in range(2):
                one = spec.resample(obs, np.random.default_rng(k), params)
                two = spec.resample(
                    game.observe(other, ply.player), np.random.default_rng(k), params
                )
                assert one == two
    assert differed > 0


# -- the distribution ------------------------------------------------------------------------------


def test_as_nas_others_hold_the_ranks_the_hypergeometric_law_gives() -> None:
    """A seat that looked: the number of As in the next seat's hand follows the hypergeometric
    law of the 15 cards it cannot see."""
    spec = get_spec("as-nas")
    game = spec.game
    state = game.apply_chance(game.initial_state({"deals": 1}), (0,))
    state = game.apply_chance(state, tuple(range(20)))  # seat 3 (first to act) has Couli x4, Sarbaz
    state = game.apply(state, 0)  # it looks
    seat = game.current_player(state)
    obs = game.observe(state, seat)
    aces_left = 4 - sum(1 for r in obs.hand if r == 4)
    other = (seat + 1) % 4
    n = 3000
    counts = Counter(
        sum(1 for c in spec.resample(obs, np.random.default_rng(i)).hands[other] if c // 4 == 4)
        for i in range(n)
    )
    expected = [
        n * math.comb(aces_left, k) * math.comb(15 - aces_left, 5 - k) / math.comb(15, 5)
        for k in range(aces_left + 1)
    ]
    observed = [counts.get(k, 0) for k in range(aces_left + 1)]
    assert sum(observed) == n
    assert chi_square_p(observed, expected) > 0.001, (observed, expected)


def _fipsen_late_state(seed: int) -> tuple[Any, int, list[Any]]:
    """Four tricks into a Fipsen deal of 3 tricks that the declarer (V, who took the Skat) has
    not decided yet (2 won, 2 lost): the state, the declarer, and the plies of the deal. Its
    discards, trump and cards are drawn from ``seed``; the defenders' voids then narrow where
    the six unseen cards (their last cards, the stock) can be."""
    game = get_spec("fipsen").game
    rng = np.random.default_rng(seed)
    plies: list[Any] = []
    state = game.initial_state({"deals": 1})

    def step(player: int, move: int | tuple[int, ...]) -> None:
        nonlocal state
        if isinstance(move, tuple):
            after = game.apply_chance(state, move)
            plies.append(Ply(state, player, -1, move, after))
        else:
            after = game.apply(state, move)
            plies.append(Ply(state, player, move, (), after))
        state = after

    def random_move() -> None:
        step(state.to_act, int(rng.choice(game.legal_actions(state))))

    step(CHANCE, (0,))
    step(CHANCE, tuple(int(c) for c in rng.permutation(25)))
    assert state.phase.name == "BIDDING"
    step(state.to_act, 10)  # V bids 3, the others pass
    while state.phase.name == "BIDDING":
        step(state.to_act, 0)
    step(state.to_act, 33)  # takes the Skat
    while state.phase.name == "DISCARD":
        random_move()
    step(state.to_act, 60 + int(rng.integers(3)))  # a trump of ♣ ♠ ♥
    while len(state.tricks) < 4:
        random_move()
    assert state.phase.name == "PLAY"
    assert (state.won, state.lost) == (2, 2)
    plies.append(Ply(state, state.to_act, game.legal_actions(state)[0], (), state))
    return state, state.declarer, plies


def _fipsen_worlds(plies: list[Any], seat: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every consistent world of the deal so far, seen from ``seat``, as the other seats' hands
    and the stock: the unseen cards placed every possible way, kept when the deal replayed
    through the rules with them is legal and shows ``seat`` the same."""
    game = get_spec("fipsen").game
    truth = plies[-1].before
    obs = game.observe(truth, seat)
    deal = next(p for p in plies if p.player == CHANCE and len(p.outcome) == 25).outcome
    moves = [(p.player, p.action) for p in plies[:-1] if p.player >= 0 and p.action != 32]
    start = next(p.before for p in plies if p.player == CHANCE and len(p.outcome) == 25)
    slots = [s for s in range(4) if s != seat]
    sizes = [len(truth.hands[s]) for s in slots] + [3]
    true_cards = [truth.hands[s] for s in slots] + [truth.stock]
    unseen = sorted(c for cards in true_cards for c in cards)
    worlds = []
    for order in itertools.permutations(unseen):
        parts, k = [], 0
        for size in sizes:
            parts.append(tuple(sorted(order[k : k + size])))
            k += size
        if any(list(p) != sorted(p) for p in parts) or list(order) != [c for p in parts for c in p]:
            continue  # one order per placement
        mapping = {}
        for old, new in zip(true_cards, parts, strict=True):
            mapping.update(zip(sorted(old), new, strict=True))
        state = game.apply_chance(start, tuple(mapping.get(c, c) for c in deal))
        try:
            for _player, action in moves:
                while state.phase.name == "SIEBENER_FIPS" and action != 31:
                    state = game.apply(state, 32)
                state = game.apply(state, action)
        except Exception:  # an illegal move: not a consistent world
            continue
        if game.observe(state, seat) == obs:
            worlds.append(tuple(parts))
    return worlds


def test_fipsen_samples_every_consistent_deal_equally_often() -> None:
    """Late in a deal: the samples' placements of the unseen cards (the others' hands, the
    stock) against every consistent placement, enumerated by brute force and checked by the
    rules (voids included). A sampler that fills one place after another uniformly is off by
    a factor of two here."""
    spec = get_spec("fipsen")
    truth, seat, plies = _fipsen_late_state(327)
    worlds = _fipsen_worlds(plies, seat)
    assert len(worlds) == 12  # of the 120 placements, the voids leave 12
    obs = spec.game.observe(truth, seat)
    index = {w: i for i, w in enumerate(worlds)}
    n = 300 * len(worlds)
    counts = [0] * len(worlds)
    slots = [s for s in range(4) if s != seat]
    for i in range(n):
        sample = spec.resample(obs, np.random.default_rng(i))
        key = (*(sample.hands[s] for s in slots), sample.stock)
        assert key in index, f"a sample outside the consistent worlds: {key}"
        counts[index[key]] += 1
    assert chi_square_p(counts, [n / len(worlds)] * len(worlds)) > 0.001, counts


def _felduz_reserve_state(params: dict[str, int]) -> tuple[Any, int, int, int]:
    """A Felduz decision state where the other seat stood with a one-card reserve that its
    open field alone (short of 40 by more than 3) does not explain: (state, seat, other,
    the least value its closed card can have)."""
    game = get_spec("felduz").game
    for seed in range(3000):
        start = game.initial_state(params)
        for ply in play(game, start, random_moves(game, np.random.default_rng(seed))):
            s = ply.before
            if ply.player < 0 or s.phase.name == "OPENING":
                continue
            other = 1 - ply.player
            opened = sum(c % 10 + 1 for c in s.open[other])
            if len(s.reserve[other]) == 1 and len(s.closed[other]) == 1 and 40 - opened > 3:
                return s, ply.player, other, 40 - opened
    raise AssertionError("no such state")


def test_felduz_a_one_card_reserve_proves_the_closed_card() -> None:
    """A seat that stood keeping one card in reserve had a field of 40 or more without it: its
    closed card is drawn uniformly among the unseen cards that make it so, never below."""
    spec = get_spec("felduz")
    game = spec.game
    params = game.info.make_params({"players": 2, "stack": 50})
    state, seat, other, need = _felduz_reserve_state(params)
    obs = game.observe(state, seat)
    seen = set(obs.closed) | set(obs.reserve) | {c for f in obs.open_fields for c in f}
    allowed = sorted(c for c in range(40) if c not in seen and c % 10 + 1 >= need)
    n = 60 * len(allowed)
    counts = Counter(
        spec.resample(obs, np.random.default_rng(i), params).closed[other] for i in range(n)
    )
    assert set(counts) <= {(c,) for c in allowed}
    observed = [counts.get((c,), 0) for c in allowed]
    assert chi_square_p(observed, [n / len(allowed)] * len(allowed)) > 0.001, observed


def test_scauver_the_others_hands_are_uniform_among_the_unseen_cards() -> None:
    spec = get_spec("scauver")
    game = spec.game
    params = game.info.make_params({"players": 2})
    rng = np.random.default_rng(3)
    start = game.initial_state(params)
    for ply in play(game, start, random_moves(game, rng)):
        s, seat = ply.before, ply.player
        if seat >= 0 and s.phase.name != "OPENING" and len(s.hands[1 - seat]) == 2:
            break
    other = 1 - seat
    obs = game.observe(s, seat)
    seen = set(obs.hand) | {c for f in obs.fields for side in f for c in side}
    unseen = [c for c in range(40) if c not in seen]
    cells = list(itertools.combinations(unseen, len(s.hands[other])))
    n = 8 * len(cells)
    counts = Counter(
        spec.resample(obs, np.random.default_rng(i), params).hands[other] for i in range(n)
    )
    observed = [counts.get(c, 0) for c in cells]
    assert sum(observed) == n
    assert chi_square_p(observed, [n / len(cells)] * len(cells)) > 0.001


# -- the SDK ---------------------------------------------------------------------------------------


def test_the_sdk_and_the_games_draw_from_one_sampler() -> None:
    from croupier.games import _resample as games_side
    from croupier_bot import _resample as sdk_side

    assert games_side.sample is deal_module.sample, "croupier.games must use croupier_proto's"
    assert sdk_side.sample is deal_module.sample, "croupier_bot must use croupier_proto's"
    copies = [*(ROOT / "server").rglob("_deal.py"), *(ROOT / "clients/python").rglob("_deal.py")]
    assert not copies, f"a copy of the sampler is back: {copies}"


def test_the_samplers_are_found_by_their_games_field_names() -> None:
    wire_games = {f.name for f in pb.Observation.DESCRIPTOR.oneofs_by_name["game"].fields}
    games = {spec.wire_name for spec in map(get_spec, GAMES)}
    # a sampler is optional per-game code (CONTRIBUTING.md); each of today's games has one
    assert games <= deal_module.GAMES <= wire_games, "croupier_proto/v1/deal/<game>.py"
    with pytest.raises(ValueError, match="no resampling for observation None"):
        deal_module.sample(pb.Observation(), 0, random.Random(0))


class _Recorder(Bot):
    """Resamples every decision it is sent with a fresh generator seeded by its request id."""

    def __init__(self) -> None:
        self.deals: list[Any] = []

    def act(self, decision: Decision) -> int:
        self.deals.append(sdk_resample(decision, random.Random(decision.request_id)))
        return decision.legal_ids[0]


@pytest.mark.parametrize("name", GAMES)
def test_the_sdk_draws_the_in_process_deals_from_the_decisions_it_is_sent(name: str) -> None:
    """Every decision of seeded matches, sent to an SDK bot as the arbiter sends it (bytes, bounded
    to the current round): the SDK's deal equals the one the in-process resample draws from the
    seat's observation with the same random bits, and the in-process state holds its hands."""
    spec = get_spec(name)
    game = spec.game
    params = game.info.make_params(_params(name))
    hands_of: dict[str, Callable[[Any], Any]] = {
        "as-nas": lambda s: s.hands,
        "fipsen": lambda s: s.hands,
        "felduz": lambda s: s.closed,
        "scauver": lambda s: s.hands,
    }
    for seed in range(3):
        state = game.initial_state(params)
        recorders = [_Recorder() for _ in range(game.num_players(state))]
        seats = [Seat(r) for r in recorders]
        n = len(seats)
        for s, sdk in enumerate(seats):
            info = game.info
            welcome = Welcome("local", s, n, name, info.version, dict(params), ClockRules(0, 0))
            sdk(encode(welcome, spec.codec))
        request = 0
        rng = np.random.default_rng(seed)
        while (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            request += 1
            message = decision_request(game, state, player, request, Clocks(2000, 30000, 0))
            sent = pb.PlayResponse.FromString(encode(message, spec.codec).SerializeToString())
            action = seats[player](sent)
            assert action is not None
            sdk_deal = recorders[player].deals[-1]
            obs = game.observe(state, player)
            local = sample_wire(wire(spec.codec, obs), player, random.Random(request))
            assert sdk_deal == local
            full = spec.resample(obs, random.Random(request), params)
            assert tuple(hands_of[name](full)) == local.hands
            state = game.apply(state, int(rng.choice(game.legal_actions(state))))


def test_an_observation_no_deal_fits_is_refused() -> None:
    """A forged observation (a hand of six cards) admits no deal: ``Inconsistent``, not a
    sample."""
    spec = get_spec("fipsen")
    game = spec.game
    state = game.apply_chance(game.initial_state({"deals": 1}), (0,))
    state = game.apply_chance(state, tuple(range(25)))
    seat = game.current_player(state)
    message = wire(spec.codec, game.observe(state, seat))
    message.fipsen.hand.add(id=24, suit=4, rank=1)
    with pytest.raises(Inconsistent):
        sdk_resample(message, random.Random(1), seat=seat)
    with pytest.raises(deal_module.Inconsistent):
        sample_wire(message, seat, random.Random(1))
