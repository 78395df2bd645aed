"""Croupier's games as reinforcement-learning environments (``docs/research.md``).

* :class:`CroupierAECEnv`: a game as a PettingZoo AEC environment, every seat an agent;
* :class:`CroupierEnv`: a Gymnasium environment of one seat against in-process policies (the
  bundled bots by default: :func:`bundled`, :class:`Policy`, :class:`RandomPolicy`,
  :class:`BotPolicy`), registered as ``croupier/<game>-v<rules version>`` (``gymnasium.make``);
* :func:`tensors`: a game's tensors (``"position"``, the current position; ``"info"``, the
  information state with the round's public actions), the same bytes a bot of the Python SDK
  gets from ``Decision.tensor()``.

Every observation is built from ``observe(state, seat)`` of the seat it is for, and nothing else.
Needs the ``rl`` extra (``pip install "croupier[rl]"``: PettingZoo and Gymnasium). This package
sits on the rules (``croupier.games``) and imports nothing above them.
"""

from __future__ import annotations

try:
    import gymnasium
    import pettingzoo  # noqa: F401  (checked here for a clear message)
except ModuleNotFoundError as exc:  # pragma: no cover - the extra is installed in tests
    raise ModuleNotFoundError(
        f'croupier.env needs the rl extra ({exc.name} is missing): pip install "croupier[rl]"',
        name=exc.name,
    ) from None

from croupier.env._aec import CroupierAECEnv
from croupier.env._encoding import KINDS, Tensors, action_mask, tensors
from croupier.env._gym import CroupierEnv, Opponent
from croupier.env._match import Match, RoundEnd
from croupier.env._policies import BotPolicy, MatchStart, Policy, RandomPolicy, bundled
from croupier.games import GAMES, get_game


def _register() -> None:
    """Each game's one-seat environment in Gymnasium's registry: ``gymnasium.make(
    "croupier/fipsen-v1", opponents=..., ...)`` (the version is the rules' version)."""
    for game in GAMES:
        env_id = f"croupier/{game}-v{get_game(game).info.version}"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, "croupier.env._gym:CroupierEnv", kwargs={"game": game})


_register()

__all__ = [
    "KINDS",
    "BotPolicy",
    "CroupierAECEnv",
    "CroupierEnv",
    "Match",
    "MatchStart",
    "Opponent",
    "Policy",
    "RandomPolicy",
    "RoundEnd",
    "Tensors",
    "action_mask",
    "bundled",
    "tensors",
]
