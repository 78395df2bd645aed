"""Deal spy: a session bot that tries to compute the cards of its own matches from public facts,
as a cheater with the project's source would, and reports on stdout (its log) how often it got
its own hand right. It plays the first legal action.

What it knows: its match id (Welcome), the game and its parameters, and how a tournament or the
server's ladder derived seeds before they had secret keys: SHA-256 of the config's seed (0 when
none is given, the old default) and the match's place in the schedule, which the match id
spells out (``<tournament>-r001-t002-s03``; ``<ladder>-t000002-s01``). From each candidate seed
it deals the match's first deal with the project's own rules (drawn from the seed, or the
duplicate set's chance script made from it, ``croupier.ladder.deal_script``) and compares the
hand it predicts for its seat with the hand it is dealt (its first decision of the first deal).

Each match it plays ends with one line: ``spy <match id>: predicted yes|no``. Fipsen only (a
seat sees its own cards from its first decision on).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import numpy as np
from _common import say

from croupier.games import CHANCE, get_game, get_spec
from croupier.ladder import deal_script
from croupier.v1 import bot_pb2 as pb
from croupier_bot import Bot, Decision, MatchInfo, run

TOURNAMENT_ID = re.compile(r"-r(\d+)-t(\d+)-s(\d+)$")
LADDER_ID = re.compile(r"^(.+)-t(\d+)-s(\d+)$")


def public_seed(*parts: object) -> int:
    """How seeds were derived before secret keys: 53 bits of SHA-256 of the parts."""
    text = "/".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 11


def candidate_seeds(match_id: str) -> list[int]:
    if m := TOURNAMENT_ID.search(match_id):
        r, t, s = (int(g) - 1 for g in m.groups())
        return [public_seed(0, "deals", r, t), public_seed(0, "match", r, t, s)]
    if m := LADDER_ID.match(match_id):
        return [public_seed(0, m.group(1), "table", int(m.group(2)))]
    return []


def first_deal(game_name: str, params: dict[str, int], seed: int, scripted: bool) -> Any:
    """The state after the first deal's chance outcomes, as the seed (or the duplicate set's
    script made from it) deals them."""
    game = get_game(game_name)
    full = game.info.make_params(params)
    state = game.initial_state(full)
    if scripted:
        outcomes = iter(deal_script(game_name, tuple(sorted(full.items())), seed))
        while game.current_player(state) == CHANCE:
            state = game.apply_chance(state, next(outcomes))
        return state
    rng = np.random.default_rng(seed)
    while game.current_player(state) == CHANCE:
        state = game.apply_chance(state, game.sample_chance(state, rng))
    return state


class Spy(Bot):
    name = "dealspy"
    capacity = 8
    version = "1"

    def __init__(self) -> None:
        self.match: MatchInfo | None = None
        self.predicted: list[list[int]] = []
        self.checked = False
        self.hit = False

    def on_welcome(self, match: MatchInfo) -> None:
        self.match = match
        game = get_game(match.game)
        spec = get_spec(match.game)
        for seed in candidate_seeds(match.match_id):
            for scripted in (False, True):
                state = first_deal(match.game, match.params, seed, scripted)
                wire = pb.Observation()
                spec.codec.observation(game.observe(state, match.seat), wire)
                self.predicted.append(list(wire.fipsen.hand))

    def act(self, decision: Decision) -> int:
        observation = decision.observation.fipsen
        if not self.checked and observation.deal_index == 0:
            self.checked = True
            self.hit = list(observation.hand) in self.predicted
        return decision.legal_ids[0]

    def on_match_end(self, end: pb.MatchEnd) -> None:
        assert self.match is not None
        say(f"spy {self.match.match_id}: predicted {'yes' if self.hit else 'no'}")


if __name__ == "__main__":
    run(Spy())
