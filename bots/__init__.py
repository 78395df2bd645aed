"""Croupier's bundled reference bots: run one as ``python -m croupier_bots.<name>``.

The random bot and the heuristics are standalone programs using only the ``croupier_bot`` SDK
(``python bots/<name>.py`` runs them too). The search bots (``<game>_search``) also play
sampled deals out with the rules engine in-process (``croupier.games``, shipped with them):
see ``docs/research.md``.

:func:`local_seat` seats one in-process instead (what ``croupier.env`` plays its learners
against): the bot behind a ``croupier_bot.Seat``, handed the wire messages of a match."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any


def local_seat(module: str, seed: int, name: str | None = None) -> Callable[[Any], int | None]:
    """A fresh ``croupier_bot.Seat`` of the bot that the program ``module`` (for example
    ``croupier_bots.fipsen_heuristic``) runs, for one match: the ``Bot`` class the module
    defines (the one whose ``name`` is ``name`` if it defines several), built with ``seed``
    when it takes one; its ``MatchInfo.seed`` is ``seed`` too, which a bot that draws random
    numbers seeds them with."""
    from croupier_bot import Bot, Seat

    program = importlib.import_module(module)
    defined = [
        c
        for c in vars(program).values()
        if inspect.isclass(c) and issubclass(c, Bot) and c.__module__ == program.__name__
    ]
    if len(defined) > 1 and name is not None:
        defined = [c for c in defined if c.name == name]
    if len(defined) != 1:
        raise LookupError(f"{module} does not define exactly one bot class (named {name!r})")
    cls = defined[0]
    takes_seed = "seed" in inspect.signature(cls).parameters
    bot = cls(seed=seed) if takes_seed else cls()  # type: ignore[call-arg]
    return Seat(bot, seed)
