"""No-leak resampling: a deal and hidden moves consistent with one seat's wire observation.

One module, two readers: each game's in-process ``resample`` (through
``croupier.games._resample``) and the Python SDK's ``croupier_bot.resample`` draw their deals
here, so a bot gets exactly the deals the arbiter's side draws for the same observation and
random bits. It lives in the stubs distribution (``croupier-proto``), which both the arbiter and
the SDK depend on, because it is a reader of the contract like :mod:`croupier_proto.v1.stdio`:
written by hand (``proto/generate.py`` rewrites only the ``*_pb2*`` modules beside it), it
imports nothing but the standard library and reads only the seat's ``croupier.v1.Observation``
(any object with the message's fields), so a sample **cannot** hold anything the seat was not
shown.

:func:`sample` draws a :class:`Deal`: the round's chance outcome (the shuffled deck, as the
arbiter records it) and each seat's non-public moves of the round so far (Fipsen's discards and
declined Siebener Fips offers, Felduz's opening split and reserve, Scauver's opening), uniformly
among all those consistent with what the seat has seen:

* its own cards, every card shown (tricks, open fields, flanks), counts of hidden cards;
* what the public moves prove: a seat that did not follow suit holds none of that suit (Fipsen),
  a Kieker bid or hold proves a dealt hand without K, Q or J, a reserve of one card proves the
  field left sums to 40 or more (Felduz), a card revealed or placed was held at that moment
  (Felduz, Scauver: it was dealt or drawn before), every draw came from the stock in turn.

Every consistent (deal, hidden moves) is equally likely: the moves are weighted as if each
hidden choice were uniform among the legal ones, never by how a bot would have played (what a
bot's bids say about its hand is for a search to weigh). Applying the deck to the round's start
and replaying the public history, with each seat's hidden moves where the rules ask for them,
gives a full state whose observation for the seat is the one given (``<game>.resample``).

One module of this package per game, named by its field of the ``Observation.game`` oneof
(``felduz.py``: ``sample(msg, seat, rng)`` of a ``FelduzObservation``), found on disk: a new
game's sampler is its module here, no table to extend; ``_kit`` holds what they share. They
live here, not in each game's package of the server (``croupier.games.<game>``): the SDK needs
them and must not depend on the server, and a sampler reads only its game's wire message.

Randomness: ``rng`` is anything with ``getrandbits(k)`` (``random.Random``); the same generator
state and the same observation give the same deal, whatever the cards the seat cannot see.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from typing import Any

from croupier_proto.v1.deal._kit import Bits, Deal, Inconsistent, Shown, shuffled

#: The games with a sampler: this package's public modules, by ``Observation.game`` field name.
GAMES = frozenset(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))
_SAMPLERS: dict[str, Callable[..., Deal]] = {}


def sample(observation: Any, seat: int, rng: Bits, shown_down: Shown | None = None) -> Deal:
    """A :class:`Deal` of the round in progress drawn uniformly among those consistent with
    ``observation`` (a ``croupier.v1.Observation``: exactly what seat ``seat`` was sent).
    ``shown_down`` (Felduz, after the match's last round: what its showdown showed). Raises
    :class:`Inconsistent` if the observation admits none."""
    game = observation.WhichOneof("game")
    if game not in GAMES:
        raise ValueError(f"no resampling for observation {game!r}")
    sampler = _SAMPLERS.get(game)
    if sampler is None:
        sampler = _SAMPLERS[game] = importlib.import_module(f"{__name__}.{game}").sample
    msg = getattr(observation, game)
    if shown_down:
        return sampler(msg, seat, rng, shown_down)
    return sampler(msg, seat, rng)


__all__ = [
    "GAMES",
    "Bits",
    "Deal",
    "Inconsistent",
    "Shown",
    "sample",
    "shuffled",
]
