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

from croupier.errors import IllegalActionError
from croupier.games import CHANCE, TERMINAL, get_game


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
    rng = np.random.default_rng(seed)
    script = iter(moves) if moves is not None else None
    state = game.initial_state(full)
    n = game.num_players(state)
    lines = [
        f"game: {name}",
        f"rules_version: {game.info.version}",
        f"params: {json.dumps(full, sort_keys=True)}",
        f"seed: {seed}",
    ]
    step = 0
    while True:
        player = game.current_player(state)
        lines.append("")
        lines.append(f"# step {step}")
        who = {CHANCE: "chance", TERMINAL: "terminal"}.get(player, str(player))
        lines.append(f"current_player: {who}")
        lines.append(f"public: {observation_text(game.observe(state, None))}")
        for seat in range(n):
            lines.append(f"observation[{seat}]: {observation_text(game.observe(state, seat))}")
        lines.append(f"returns: {' '.join(str(r) for r in game.returns(state))}")
        if player == TERMINAL:
            break
        if player == CHANCE:
            outcome = next(script) if script else game.sample_chance(state, rng)
            lines.append(f"chance: {list(outcome)} {game.chance_label(state, outcome)}")
            state = game.apply_chance(state, outcome)
        else:
            legal = game.legal_actions(state)
            labels = ", ".join(f"{a} {game.action_label(state, a)}" for a in legal)
            lines.append(f"legal: {labels}")
            action = next(script)[0] if script else int(legal[rng.integers(len(legal))])
            if action not in legal:
                raise IllegalActionError(f"step {step}: action {action} is not legal")
            lines.append(f"action: {action} {game.action_label(state, action)}")
            state = game.apply(state, action)
        step += 1
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
