"""The information-state tensors' history block: As-Nas and Fipsen keep every public action of
a deal (the encoders' docstrings bound a deal at 17 and 52 public actions, under their 24 and
56 entries), even under play that makes deals as long as it can; the block reads back as the
round's history (actor and action, in order); a chip round longer than its 64 entries keeps the
last 64 and says so."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from croupier.games import CHANCE, TERMINAL, get_game, get_spec
from croupier.games._history_encoder import SEATS
from croupier.games.felduz import encoder as felduz_encoder
from croupier.games.felduz import rules as felduz

#: The longest deal the encoders' docstrings allow.
BOUND = {"as-nas": 17, "fipsen": 52}


def _long_play(name: str, legal: tuple[int, ...], rng: np.random.Generator) -> int:
    """Mostly the move that keeps a deal going longest: As-Nas looks, then raises or calls;
    Fipsen bids the lowest bid it may (or holds), rarely passing."""
    if rng.random() < 0.1:
        return legal[rng.integers(len(legal))]
    if name == "as-nas":
        return next(a for a in (0, 4, 2, 3, 1) if a in legal)
    going_on = [a for a in legal if a != 0]
    return min(going_on) if going_on else legal[0]


def _decode(name: str, vector: np.ndarray, seat: int) -> list[tuple[int, int]]:
    """The (seat, action id) pairs the history block of ``vector`` holds."""
    spec = get_spec(name)
    block = vector[spec.encoder.size :]
    width = SEATS + spec.game.info.num_distinct_actions
    out = []
    for k in range((len(block) - 1) // width):
        entry = block[k * width : (k + 1) * width]
        if not entry.any():
            break
        (rel,) = np.flatnonzero(entry[:SEATS])
        (action,) = np.flatnonzero(entry[SEATS:])
        out.append(((seat + int(rel)) % 4, int(action)))
    return out


@pytest.mark.parametrize("name", ["as-nas", "fipsen"])
def test_no_deal_is_longer_than_its_block(name: str) -> None:
    game, encode_info = get_game(name), get_spec(name).encoder.encode_info
    longest = 0
    for seed in range(120):
        rng = np.random.default_rng(seed)
        state: Any = game.initial_state(game.info.make_params({"deals": 2}))
        while (player := game.current_player(state)) != TERMINAL:
            if player == CHANCE:
                state = game.apply_chance(state, game.sample_chance(state, rng))
                continue
            observation = game.observe(state, player)
            vector = encode_info(observation)
            assert vector[-1] == 0.0  # nothing dropped
            assert _decode(name, vector, player) == list(observation.history)
            longest = max(longest, len(observation.history))
            state = game.apply(state, _long_play(name, game.legal_actions(state), rng))
    assert longest <= BOUND[name]
    assert longest >= BOUND[name] // 2  # (the play did make long deals)


def test_a_chip_round_keeps_its_last_actions_and_says_it_dropped_some() -> None:
    block = felduz_encoder.HISTORY
    out = np.zeros(block.size, dtype=np.float32)
    moves = (felduz.DRAW, felduz.STAND)
    history = tuple((k % 3, moves[k % 2]) for k in range(block.slots + 5))
    block.write(history, 1, 3, out, 0)
    assert out[-1] == 1.0  # dropped
    first = out[: block.width]  # the oldest kept: the 6th action (seat 2, STAND)
    assert np.flatnonzero(first[:SEATS]).tolist() == [(2 - 1) % 3]
    assert np.flatnonzero(first[SEATS:]).tolist() == [6]  # kind: Stand
    last = out[(block.slots - 1) * block.width : block.slots * block.width]
    seat, action = history[-1]
    assert np.flatnonzero(last[:SEATS]).tolist() == [(seat - 1) % 3]
    assert np.flatnonzero(last[SEATS:]).tolist() == [5 if action == felduz.DRAW else 6]
