"""The in-process half of no-leak resampling, shared by the games' ``resample`` modules.

A game's ``resample(observation, rng, params=None)`` returns a full state consistent with what
one seat has seen, built from that seat's observation alone:

1. the observation is put on the wire by the game's own codec (exactly the message the seat's
   bot is sent: nothing else is read from here on);
2. :func:`croupier_proto.v1.deal.sample` draws the round's deck and the seats' hidden moves
   from that message (uniformly among all consistent with it; the Python SDK's
   ``croupier_bot.resample`` draws from the same module);
3. :func:`replay` deals the deck at the round's start (public: dealer, scores, chips) and plays
   the round's public history through the rules, each seat's hidden moves where the rules ask
   for them. The rules check every move, so a sample that did not fit would raise.

``resample_wire`` does steps 2 and 3 from a wire message (what a bot holds).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

import numpy as np

from croupier.errors import IllegalActionError
from croupier.games import chips
from croupier.games._api import CHANCE, Game
from croupier.games._codec_kit import GameCodec
from croupier.v1 import bot_pb2 as pb

# (the stubs distribution's hand-written sampler, which the SDK shares: imported by its own name,
# as ``croupier.v1`` is an alias package whose modules are attributes, not import paths)
from croupier_proto.v1.deal import Bits, Deal, Inconsistent, Shown, sample, shuffled

S = TypeVar("S")
S_co = TypeVar("S_co", covariant=True)

#: A random generator the resamplers take: numpy's, or anything with ``getrandbits``.
Rng = np.random.Generator | Bits
#: ``visit(state, seat, action)``: told each public move of a replayed round, before it.
Visit = Callable[[Any, int, int], None]


class GeneratorBits:
    """``getrandbits`` drawn from a numpy ``Generator``."""

    __slots__ = ("gen",)

    def __init__(self, gen: np.random.Generator) -> None:
        self.gen = gen

    def getrandbits(self, k: int, /) -> int:
        out = 0
        while k > 0:
            step = min(k, 32)
            out = (out << step) | int(self.gen.integers(0, 1 << step))
            k -= step
        return out


def bits(rng: Rng) -> Bits:
    """``rng`` as a source of random bits."""
    if isinstance(rng, np.random.Generator):
        return GeneratorBits(rng)
    return rng


def wire(codec: GameCodec, observation: Any) -> pb.Observation:
    """The ``croupier.v1.Observation`` the seat's bot is sent for ``observation``."""
    out = pb.Observation()
    codec.observation(observation, out)
    return out


def replay(
    game: Game[S],
    start: S,
    deal: Deal,
    history: Sequence[tuple[int, int]],
    hidden_phase: Callable[[S], bool],
    *,
    ended: bool = False,
    visit: Visit | None = None,
) -> S:
    """Deal ``deal.deck`` at ``start`` (the round's deal, a chance node), then play the public
    ``history``; wherever ``hidden_phase`` says the rules ask for a non-public move, the seat's
    next move of ``deal.hidden`` is played. :class:`Inconsistent` if the sample does not fit.
    ``ended``: the history ended the match, so a hidden move the rules never asked for (a
    Felduz reserve when the last bet left one seat) is dropped. ``visit(state, seat, action)``
    is called before each public move (a search weighs its worlds by them)."""
    queues = [list(moves) for moves in deal.hidden]
    try:
        state = game.apply_chance(start, deal.deck)

        def drain(state: S) -> S:
            while hidden_phase(state):
                player = game.current_player(state)
                if player < 0 or not queues[player]:
                    break
                state = game.apply(state, queues[player].pop(0))
            return state

        for seat, action in history:
            state = drain(state)
            if game.current_player(state) != seat:
                raise Inconsistent(f"seat {seat} moves where the rules ask another")
            if visit is not None:
                visit(state, seat, action)
            state = game.apply(state, action)
        state = drain(state)
    except IllegalActionError as exc:
        raise Inconsistent(f"the sample does not fit the history: {exc}") from exc
    if any(queues) and not ended:
        raise Inconsistent("hidden moves left over")
    return state


def sample_wire(
    observation: pb.Observation, seat: int, rng: Rng, shown_down: Shown | None = None
) -> Deal:
    """:func:`croupier_proto.v1.deal.sample` with a numpy generator or ``getrandbits``."""
    return sample(observation, seat, bits(rng), shown_down)


class WireResample(Protocol[S_co]):
    """A game's ``resample_wire``: :func:`wire_resampler`."""

    def __call__(
        self,
        observation: Any,
        seat: int,
        rng: Rng,
        params: Mapping[str, int] | None = None,
        visit: Visit | None = None,
    ) -> S_co: ...


def _action_id(entry: Any) -> int:
    return int(entry.action_id)


def wire_resampler(
    game: Game[S],
    field: str,
    start: Callable[[Any, Mapping[str, int] | None], S],
    hidden_phase: Callable[[S], bool],
    action: Callable[[Any], int] = _action_id,
) -> WireResample[S]:
    """A game's ``resample_wire(observation, seat, rng, params=None, visit=None)``: steps 2
    and 3 from the wire message a bot holds (a ``croupier.v1.Observation`` at a decision, the
    game's message in its oneof ``field``). ``start(msg, params)``: the round's start, before
    its deal, read from that message (finished rounds are not in it, so the state's ``past`` is
    empty); ``action(entry)``: the action id of one entry of the message's public ``history``.
    ``visit`` is told each public move of the round replayed (:func:`replay`)."""

    def resample_wire(
        observation: Any,
        seat: int,
        rng: Rng,
        params: Mapping[str, int] | None = None,
        visit: Visit | None = None,
    ) -> S:
        """A state consistent with the wire ``observation`` of ``seat`` (a decision's), drawn
        uniformly among those the seat cannot tell apart."""
        msg = getattr(observation, field)
        deal = sample_wire(observation, seat, rng)
        history = tuple((int(h.seat), action(h)) for h in msg.history)
        return replay(game, start(msg, params), deal, history, hidden_phase, visit=visit)

    return resample_wire


def check_seat(observation: Any) -> int:
    """The seat of a seat's observation (a spectator's cannot be resampled)."""
    seat = observation.seat
    if seat is None:
        raise ValueError("resample needs a seat's observation, not the public view")
    return int(seat)


__all__ = [
    "CHANCE",
    "Deal",
    "GeneratorBits",
    "Inconsistent",
    "Rng",
    "Shown",
    "Visit",
    "WireResample",
    "bits",
    "check_seat",
    "chip_config",
    "chip_round_start",
    "chip_start_from_table",
    "chip_start_from_wire",
    "replay",
    "sample_wire",
    "shuffled",
    "wire",
    "wire_resampler",
]


# -- the chip games --------------------------------------------------------------------------------


def chip_config(params: Mapping[str, int] | None, players: int, round_cap: int) -> chips.Config:
    """A chip game's :class:`~croupier.games.chips.Config`: the seats and the round cap from the
    observation, the amphora's schedule from the match ``params`` (the observation shows only
    this round's amphora; absent, the defaults). It decides the rounds after this one only."""
    given = params or {}
    p = {spec.name: given.get(spec.name, spec.default) for spec in chips.PARAMS}
    return chips.Config(players, p["amphora"], p["double_every"], round_cap)


def chip_round_start(
    *,
    start_stacks: Sequence[int],
    out_round: Sequence[int],
    out_stacks: Sequence[int],
    round_index: int,
    dealer: int,
    amphora: int,
) -> chips.Table:
    """The table at the start of round ``round_index`` (after the amphora), from each seat's
    chips then and who was eliminated before it: what ``chips.open_round`` made."""
    n = len(start_stacks)
    before = chips.Table(
        tuple(start_stacks), (0,) * n, (False,) * n, tuple(out_round), tuple(start_stacks),
        tuple(out_stacks), round_index - 1, dealer, amphora, 0, None,
    )  # fmt: skip
    return chips.start_round(before, dealer, amphora)


def chip_start_from_table(table: chips.Table) -> chips.Table:
    """:func:`chip_round_start` of the round ``table`` is in (also once it is settled)."""
    now = table.round
    return chip_round_start(
        start_stacks=table.start_stacks,
        out_round=tuple(-1 if r >= now else r for r in table.out_round),
        out_stacks=tuple(
            0 if r >= now else o for r, o in zip(table.out_round, table.out_stacks, strict=True)
        ),
        round_index=now,
        dealer=table.dealer,
        amphora=table.amphora,
    )


def chip_start_from_wire(table: Any) -> chips.Table:
    """:func:`chip_round_start` from a decision's ``croupier.v1.ChipTable`` (nothing is won in a
    round before it ends, so a seat's chips at its start are its stack plus its commitment; the
    wire does not carry an eliminated seat's chips at its elimination, which only the final
    ranking reads: 0 here)."""
    stacks = [int(s) + int(c) for s, c in zip(table.stacks, table.committed, strict=True)]
    return chip_round_start(
        start_stacks=stacks,
        out_round=[int(r) for r in table.eliminated_after_round],
        out_stacks=[0] * len(stacks),
        round_index=int(table.round),
        dealer=int(table.dealer),
        amphora=int(table.amphora),
    )
