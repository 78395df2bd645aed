"""A seat's fault tells the other seats nothing about its cards.

The default action the arbiter plays for a faulty seat is known to everyone (the rules docs say
which: in Fipsen the lowest legal card, in Felduz the lowest closed card to reveal, in Scauver
the lowest hand card to place). If the other seats were told that the arbiter played a card,
they would learn that the seat holds no lower legal card. So the other seats must not be able to
tell a default action from the same action chosen by the bot.

Two real matches (the arbiter, seats driven in-process through their links): in the first, seat
1 answers one of its card decisions with an illegal id and the arbiter plays the default; in the
second, seat 1 chooses that same card itself. Everything else is the same, so seat 0 must receive
exactly the same messages, and every other seat's view of the replay, and the public view, must
be the same, up to the match's result (which counts each seat's faults once nothing is left to
play). Seat 1 itself is told (its rejection, and ``by_arbiter`` on its own action).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from seats_kit import Policy, play

from croupier.arbiter import ActionEvent, ClockRules, DecisionRequest, MatchConfig, MatchOver
from croupier.games import get_game
from croupier.replay import OMNISCIENT, read_replay, render

FAULTY = 1
#: Per game: its parameters, and the label prefix of the card decisions whose default depends on
#: the seat's hidden cards.
GAMES = {
    "fipsen": ({"deals": 4}, "Play:"),
    "felduz": ({"players": 3, "round_cap": 4}, "Reveal:"),
    "scauver": ({"players": 3, "round_cap": 2}, "Place:"),
}
_RUNS = itertools.count()

#: What seat 1 does at its ``k``-th decision: ``None`` (as everywhere else: its own policy),
#: ``"illegal"``, or an action id to play.
Override = tuple[int, str | int] | None


def _policy(seat: int, override: Override, illegal: int) -> Policy:
    """A seeded random policy over the legal ids, deviating at one decision if ``override``."""
    rng = random.Random(1000 + seat)
    decisions = itertools.count()

    def choose(request: DecisionRequest) -> int:
        action = rng.choice(request.legal_actions)
        if override is not None and override[0] == next(decisions):
            return illegal if override[1] == "illegal" else int(override[1])
        return action

    return choose


def _play(tmp_path: Path, game: str, override: Override) -> tuple[list[list[Any]], Path]:
    path = tmp_path / f"{game}{next(_RUNS)}.jsonl"
    params, _ = GAMES[game]
    config = MatchConfig(game, params, seed=7, clock=ClockRules(move_time_ms=5000, time_bank_ms=0))
    illegal = get_game(game).info.num_distinct_actions
    seats = get_game(game).info.make_params(params)["players"]
    policies = [_policy(s, override if s == FAULTY else None, illegal) for s in range(seats)]
    return play(config, f"{game}-fault", path, policies), path


def _seat_actions(path: Path) -> list[dict[str, Any]]:
    records = read_replay(path).records
    return [r.data for r in records if r.type == "action" and r.data["seat"] == FAULTY]


def _before_standings(lines: Iterable[str]) -> list[str]:
    return list(itertools.takewhile(lambda line: not line.startswith("── Final standings"), lines))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_table_cannot_tell_a_default_card_from_a_chosen_one(tmp_path: Path, game: str) -> None:
    _, prefix = GAMES[game]
    _, clean = _play(tmp_path, game, None)
    # seat 1's first card decision with more than one choice (its decisions are asked in order,
    # and no seat is ever skipped while connected: the k-th action record is the k-th request)
    k = next(
        i
        for i, data in enumerate(_seat_actions(clean))
        if data["label"].startswith(prefix) and data["fault"] is None
    )
    faulty_seen, faulty = _play(tmp_path, game, (k, "illegal"))
    default = _seat_actions(faulty)[k]
    assert default["fault"] == "illegal_action"
    assert default["label"].startswith(prefix)
    chosen_seen, chosen = _play(tmp_path, game, (k, default["action"]))
    assert _seat_actions(chosen)[k]["fault"] is None

    # up to the end of the match, whose result counts every seat's faults
    assert isinstance(faulty_seen[0][-1], MatchOver)
    assert faulty_seen[0][:-1] == chosen_seen[0][:-1]
    one, two = read_replay(faulty), read_replay(chosen)
    for viewer in (*range(2, len(faulty_seen)), 0, None):
        assert _before_standings(render(one, viewer)) == _before_standings(render(two, viewer))
    # seat 1 is told, and so is the omniscient view
    own = [m for m in faulty_seen[FAULTY] if isinstance(m, ActionEvent) and m.by_arbiter]
    assert [(m.seat, m.action) for m in own] == [(FAULTY, default["action"])]
    assert list(render(one, FAULTY)) != list(render(two, FAULTY))
    assert list(render(one, OMNISCIENT)) != list(render(two, OMNISCIENT))
