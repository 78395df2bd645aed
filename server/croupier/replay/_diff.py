"""Two replays of the same deals side by side (``croupier replay diff``): where the actions
first diverge in each round, and the per-round score difference with a total."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from croupier.errors import ConfigError
from croupier.replay._records import Replay


@dataclass(frozen=True, slots=True)
class Move:
    """One action of a round: its step, seat, action id and label."""

    step: int
    seat: int
    action: int
    label: str


@dataclass(frozen=True, slots=True)
class RoundDiff:
    """One round of both replays. ``first``: the position of the first differing action
    (``None``: the same actions); ``a``/``b``: the actions there (``None`` past an end);
    ``same_deal``: the chance outcomes of the round agree; ``delta``: A's minus B's score change
    per seat (``None`` where a replay lacks the round)."""

    round: int
    same_deal: bool
    first: int | None
    a: Move | None
    b: Move | None
    delta: tuple[Fraction, ...] | None
    only: str | None  # "A" or "B" when one replay lacks the round


@dataclass(frozen=True, slots=True)
class _Round:
    moves: list[Move]
    deals: list[tuple[int, ...]]
    deltas: tuple[Fraction, ...] | None


def _rounds(replay: Replay) -> list[_Round]:
    game = replay.game
    rounds: dict[int, _Round] = {}
    for i, rec in enumerate(replay.records):
        data = rec.data
        if rec.type == "round_end":
            r = rounds.setdefault(data["round"], _Round([], [], None))
            rounds[data["round"]] = _Round(
                r.moves, r.deals, tuple(Fraction(d) for d in data["deltas"])
            )
            continue
        if rec.type not in ("chance", "action"):
            continue
        index = game.round_index(replay.states[i] if rec.type == "chance" else replay.before(i))
        if index < 0:
            continue  # the first dealer's draw
        r = rounds.setdefault(index, _Round([], [], None))
        if rec.type == "chance":
            r.deals.append(tuple(data["outcome"]))
        else:
            r.moves.append(Move(data["step"], data["seat"], data["action"], data["label"]))
    return [rounds[k] for k in sorted(rounds)]


def seat_names(replay: Replay) -> list[str]:
    """Who sat in each seat, as the organiser named them (a tournament's ``display_name``),
    else as the bots named themselves."""
    out = []
    for seat in replay.header["seats"]:
        name = seat.get("display_name")
        out.append(name if isinstance(name, str) and name else str(seat.get("bot_name", "")))
    return out


def by_bot(a: Replay, b: Replay, rounds: list[RoundDiff]) -> dict[str, Fraction] | None:
    """Per bot, its score change in A minus its score change in B over the rounds both have,
    wherever it sat: the comparison that means something for two seatings of a duplicate set
    (the cards stay with the seats, the bots move). ``None`` unless both replays seat the same
    bots, each once (by name)."""
    na, nb = seat_names(a), seat_names(b)
    if sorted(na) != sorted(nb) or len(set(na)) != len(na):
        return None
    ra, rb = _rounds(a), _rounds(b)
    out = dict.fromkeys(na, Fraction(0))
    for r in rounds:
        x = ra[r.round] if r.round < len(ra) else None
        y = rb[r.round] if r.round < len(rb) else None
        if x is None or y is None or x.deltas is None or y.deltas is None:
            continue
        for name in na:
            out[name] += x.deltas[na.index(name)] - y.deltas[nb.index(name)]
    return out


def diff(a: Replay, b: Replay) -> list[RoundDiff]:
    """Compare two replays of one game with the same parameters, round by round."""
    if a.header["game"] != b.header["game"] or a.header["params"] != b.header["params"]:
        raise ConfigError(
            f"not comparable: {a.header['game']} {a.header['params']} and "
            f"{b.header['game']} {b.header['params']} (diff needs one game, the same parameters)"
        )
    ra, rb = _rounds(a), _rounds(b)
    out = []
    for index in range(max(len(ra), len(rb))):
        x = ra[index] if index < len(ra) else None
        y = rb[index] if index < len(rb) else None
        if x is None or y is None:
            out.append(RoundDiff(index, False, None, None, None, None, "A" if y is None else "B"))
            continue
        key = [(m.seat, m.action) for m in x.moves], [(m.seat, m.action) for m in y.moves]
        first = next(
            (k for k, (p, q) in enumerate(zip(*key, strict=False)) if p != q),
            None if len(key[0]) == len(key[1]) else min(len(key[0]), len(key[1])),
        )
        delta = (
            None
            if x.deltas is None or y.deltas is None
            else tuple(p - q for p, q in zip(x.deltas, y.deltas, strict=True))
        )
        out.append(
            RoundDiff(
                index,
                x.deals == y.deals,
                first,
                x.moves[first] if first is not None and first < len(x.moves) else None,
                y.moves[first] if first is not None and first < len(y.moves) else None,
                delta,
                None,
            )
        )
    return out
