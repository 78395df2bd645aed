"""Golden playthroughs (after OpenSpiel's ``generate_playthrough``): the text of a game's
playthrough, listing every state's current player, each seat's observation, the labelled legal
actions and the action or chance outcome applied. Each game's spec names its configuration;
``tests/golden/test_golden.py`` re-generates and diffs the files, and
``python tests/golden/regenerate.py`` rewrites them (file I/O stays out of ``games/``).

Actions are chosen by a ``numpy`` generator seeded in the file's header, so a file is a pure
function of (game, params, seed, rules).
"""

from __future__ import annotations

import dataclasses
import enum
import json
from fractions import Fraction
from typing import Any

import numpy as np

from croupier.games import CHANCE, TERMINAL, get_game
from croupier.games._drive import play, random_moves, scripted


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def observation_text(obs: Any) -> str:
    """A canonical one-line text of an observation (JSON with sorted keys)."""
    return json.dumps(_plain(obs), sort_keys=True, separators=(",", ":"))


def generate(
    name: str, params: dict[str, int], seed: int, moves: list[tuple[int, ...]] | None = None
) -> str:
    """The playthrough text of one game/config. With ``moves`` (the chance outcomes and actions
    of an existing file, in order), those are replayed instead of drawing from the generator."""
    game = get_game(name)
    full = game.info.make_params(params)
    state = game.initial_state(full)
    n = game.num_players(state)
    choose = (
        scripted(moves) if moves is not None else random_moves(game, np.random.default_rng(seed))
    )
    lines = [
        f"game: {name}",
        f"rules_version: {game.info.version}",
        f"params: {json.dumps(full, sort_keys=True)}",
        f"seed: {seed}",
    ]

    def describe(step: int, state: Any, player: int) -> None:
        who = {CHANCE: "chance", TERMINAL: "terminal"}.get(player, str(player))
        lines.extend(["", f"# step {step}", f"current_player: {who}"])
        lines.append(f"public: {observation_text(game.observe(state, None))}")
        for seat in range(n):
            lines.append(f"observation[{seat}]: {observation_text(game.observe(state, seat))}")
        lines.append(f"returns: {' '.join(str(r) for r in game.returns(state))}")

    step = 0
    for ply in play(game, state, choose):
        describe(step, ply.before, ply.player)
        if ply.player == CHANCE:
            outcome = ply.outcome
            lines.append(f"chance: {list(outcome)} {game.chance_label(ply.before, outcome)}")
        else:
            legal = game.legal_actions(ply.before)
            labels = ", ".join(f"{a} {game.action_label(ply.before, a)}" for a in legal)
            lines.append(f"legal: {labels}")
            lines.append(f"action: {ply.action} {game.action_label(ply.before, ply.action)}")
        state = ply.after
        step += 1
    describe(step, state, TERMINAL)
    return "\n".join(lines) + "\n"


def resimulate(text: str) -> str:
    """Re-run a playthrough file from its own recorded outcomes and actions (not its seed)."""
    header: dict[str, str] = {}
    moves: list[tuple[int, ...]] = []
    for line in text.splitlines():
        key, _, value = line.partition(": ")
        if key in ("game", "params", "seed") and key not in header:
            header[key] = value
        elif key == "chance":
            moves.append(tuple(json.loads(value[: value.index("]") + 1])))
        elif key == "action":
            moves.append((int(value.split()[0]),))
    return generate(header["game"], json.loads(header["params"]), int(header["seed"]), moves)
