"""The players a single-agent environment seats beside the learner: in-process policies.

A :class:`Policy` plays one seat of one match at a time, from what that seat may see: the
environment calls :meth:`Policy.start` when a match begins, :meth:`Policy.act` with the seat's
observation (``observe(state, seat)``, nothing else) and its legal action ids at each of its
decisions, :meth:`Policy.round_ended` at each round's end (public), :meth:`Policy.end` at the
match's end. Two are built in:

* :class:`RandomPolicy`: a uniformly random legal action, drawn from the match's seed;
* :class:`BotPolicy`: a bot of the Python SDK (any ``croupier_bot.Bot``, the bundled heuristics
  among them), handed the very wire messages it would receive in a match (Welcome, decisions,
  round ends); :func:`bundled` makes one of a bundled bot by its name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from croupier.env import _wire
from croupier.env._match import RoundEnd
from croupier.errors import ConfigError
from croupier.games import GAMES, GameSpec, get_spec

#: A seat in-process: a wire message in, the action id out (``None`` for a message that asks
#: nothing), like ``croupier_bot.Seat(bot)``.
WireSeat = Callable[[Any], int | None]


@dataclass(frozen=True, slots=True)
class MatchStart:
    """The match a policy plays: the game, its parameters, the policy's seat, the number of
    seats, and a seed for the policy's own randomness (derived from the match's)."""

    game: str
    params: Mapping[str, int]
    seat: int
    seats: int
    seed: int


class Policy:
    """An in-process player of one seat (see the module docstring); override :meth:`act`, and
    the other hooks where needed."""

    def start(self, match: MatchStart) -> None:
        """A match begins."""

    def act(self, observation: Any, legal_actions: tuple[int, ...]) -> int:
        """One of ``legal_actions`` (ascending ids) for the seat's ``observation``."""
        raise NotImplementedError

    def round_ended(self, ended: RoundEnd) -> None:
        """A round has ended (what every seat is told)."""

    def end(self) -> None:
        """The match is over."""


class RandomPolicy(Policy):
    """A uniformly random legal action, from a generator seeded by the match."""

    def __init__(self) -> None:
        self._rng = np.random.default_rng(0)

    def start(self, match: MatchStart) -> None:
        self._rng = np.random.default_rng(match.seed)

    def act(self, observation: Any, legal_actions: tuple[int, ...]) -> int:
        return legal_actions[int(self._rng.integers(len(legal_actions)))]


class BotPolicy(Policy):
    """A bot of the Python SDK: ``make_seat(seed)`` returns a fresh in-process seat for one
    match, e.g. ``lambda seed: croupier_bot.Seat(MyBot(), seed)`` (the seed is the one a bot
    reads in ``MatchInfo.seed``). The bot is handed exactly the messages of a real match."""

    def __init__(self, make_seat: Callable[[int], WireSeat]) -> None:
        self._make_seat = make_seat
        self._seat: WireSeat | None = None
        self._spec: GameSpec | None = None
        self._number = 0
        self._requests = 0
        self._pending: list[RoundEnd] = []

    def start(self, match: MatchStart) -> None:
        self._spec = get_spec(match.game)
        self._seat = self._make_seat(match.seed)
        self._number = match.seat
        self._requests = 0
        self._pending = []
        self._seat(_wire.welcome(self._spec, match.params, match.seat, match.seats))

    def decide(self, state: Any, legal_actions: tuple[int, ...]) -> int:
        """The bot's action in ``state`` (the environment hands the state to this one policy:
        the wire message is built from ``observe(state, seat)`` by the game's codec, as the
        arbiter builds it)."""
        if self._seat is None or self._spec is None:
            raise RuntimeError("the policy has not been started")
        self._requests += 1
        events, self._pending = self._pending, []
        message = _wire.decision(
            self._spec, state, self._number, self._requests, legal_actions, events
        )
        action = self._seat(message)
        if action is None:
            raise RuntimeError("the bot answered a decision with nothing")
        return int(action)

    def act(self, observation: Any, legal_actions: tuple[int, ...]) -> int:
        raise RuntimeError("a BotPolicy decides from its wire message: use decide()")

    def round_ended(self, ended: RoundEnd) -> None:
        self._pending.append(ended)

    def end(self) -> None:
        if self._seat is not None and self._spec is not None and self._pending:
            self._seat(_wire.events(self._spec, self._pending))
        self._pending = []


def bundled(name: str) -> Policy:
    """The policy of a bundled bot by its name (``croupier match --bot NAME``: ``random``,
    ``fipsen-heuristic``, ...). ``random`` is :class:`RandomPolicy`; any other is the bundled
    program's bot class, in-process through the SDK (:class:`BotPolicy`)."""
    if name == "random":
        return RandomPolicy()
    modules = {n: m for game in GAMES for n, m in get_spec(game).bots.bundled.items()}
    module = modules.get(name)
    if module is None:
        known = ", ".join(sorted({"random", *modules}))
        raise ConfigError(f"unknown bot {name!r} (known: {known})")
    # the bundled bots' package (bots/, shipped with this one) makes its own seats: the
    # environment does not import the SDK
    package = importlib.import_module("croupier_bots")
    make: Callable[[str, int, str], WireSeat] = package.local_seat
    return BotPolicy(lambda seed: make(module, seed, name))
