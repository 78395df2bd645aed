"""Croupier's games as reinforcement-learning environments (``docs/research.md``).

* :class:`CroupierAECEnv`: a game as a PettingZoo AEC environment, every seat an agent;
* :class:`CroupierEnv`: a Gymnasium environment of one seat against in-process policies (the
  bundled bots by default: :func:`bundled`, :class:`Policy`, :class:`RandomPolicy`,
  :class:`BotPolicy`);
* :func:`tensors`: a game's tensors (``"position"``, the current position; ``"info"``, the
  information state with the round's public actions), the same bytes a bot of the Python SDK
  gets from ``Decision.tensor()``.

Every observation is built from ``observe(state, seat)`` of the seat it is for, and nothing else.
Needs the ``rl`` extra (``pip install "croupier[rl]"``: PettingZoo and Gymnasium). This package
sits on the rules (``croupier.games``) and imports nothing above them.
"""

from __future__ import annotations

try:
    import gymnasium  # noqa: F401  (checked here for a clear message)
    import pettingzoo  # noqa: F401
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
