"""Felduz hand histories: a round's header, a seat's new private information, a round's end."""

from __future__ import annotations

from typing import Any

from croupier.games import cards40, chips
from croupier.games._narrate import Narrator, slash, wire_labels
from croupier.games.felduz import rules as felduz


def _header(obs: felduz.FelduzObservation) -> str:
    table = obs.table
    stacks = " ".join(str(c) for c in chips.chips(table))
    return (
        f"── Round {obs.round + 1}/{obs.round_cap} · dealer seat {table.dealer} · "
        f"A {table.amphora} · cap {table.cap} · chips {stacks} ──"
    )


def _private(before: felduz.FelduzObservation, after: felduz.FelduzObservation) -> list[str]:
    """What the viewer newly sees that no action line shows: its hand, its draws, the open
    fields once all have split, and (as counts) the other seats' reserves."""
    lines = []
    seat = after.seat
    if after.phase is felduz.Phase.OPENING and before.phase is not felduz.Phase.OPENING:
        if seat is not None and after.closed:  # an eliminated seat is dealt nothing
            lines.append(f"   seat {seat} is dealt {cards40.cards_label(after.closed)}")
    elif before.phase is felduz.Phase.OPENING and after.phase is not felduz.Phase.OPENING:
        fields = "  ".join(
            f"seat {s} {cards40.cards_label(f)}" for s, f in enumerate(after.open_fields) if f
        )
        lines.append(f"   open fields: {fields}")
    elif (
        seat is not None and after.round == before.round and len(after.closed) > len(before.closed)
    ):
        (card,) = set(after.closed) - set(before.closed)
        lines.append(f"   seat {seat} draws {cards40.card_label(card)}")
    if after.round == before.round:
        for s, (was, now) in enumerate(
            zip(before.reserve_counts, after.reserve_counts, strict=True)
        ):
            if now > was and s != seat:
                lines.append(f"   seat {s} sets {now} card{'s' * (now > 1)} aside (reserve)")
    return lines


def _seats(seats: tuple[int, ...]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def _event(event: felduz.ShowdownEvent, result: felduz.RoundResult) -> str:
    criterion, left = event.criterion, event.seats
    if criterion is felduz.Criterion.QUALIFIED:
        sums = {s: felduz.field_sum(f) for s, f in enumerate(result.fields) if f is not None}
        if not any(v >= felduz.QUALIFY for v in sums.values()):
            return "by points: nobody reaches 40; every field stays in"
        return f"by points: {_seats(left)} {'reaches' if len(left) == 1 else 'reach'} 40 or more"
    if criterion is felduz.Criterion.POINTS:
        return f"by points: the lowest field sum → {_seats(left)}"
    if criterion is felduz.Criterion.RESERVE:
        return f"by points, tie: the lowest reserve sum → {_seats(left)}"
    if criterion is felduz.Criterion.LENGTH:
        return f"by length: the fewest field cards → {_seats(left)}"
    if criterion is felduz.Criterion.RANK:
        return f"by rank: the lowest cards → {_seats(left)}"
    return f"still tied: the pot is split between {_seats(left)}"


def _end(obs: felduz.FelduzObservation) -> list[str]:
    result = obs.last_round
    if result is None:
        return []
    lines = []
    settlement = result.settlement
    if settlement.showdown:
        for seat, field in enumerate(result.fields):
            reserve = result.reserves[seat]
            if field is not None and reserve is not None:
                lines.append(
                    f"   showdown: seat {seat} field {cards40.cards_label(field)} = "
                    f"{felduz.field_sum(field)}, reserve {cards40.cards_label(reserve)} = "
                    f"{felduz.field_sum(reserve)}"
                )
        lines += [f"   {_event(e, result)}" for e in result.events]
    else:
        lines.append(f"   seat {settlement.winners[0]} is the last one in; no field is shown")
    shares = "  ".join(f"seat {s} +{p}" for s, p in enumerate(settlement.shares) if p)
    lines.append(f"   pot {settlement.pot} → {shares}")
    if settlement.eliminated:
        lines.append(f"   eliminated: {_seats(settlement.eliminated)}")
    return lines


#: The Felduz narrator registered in the game's spec.
def _board(o: Any) -> str:
    """The wire view (``croupier.v1.FelduzObservation``) as one line."""
    fields = " ".join(
        f"{i}[{wire_labels(s.open)} +{s.closed_count}]" for i, s in enumerate(o.seats)
    )
    own = f" · closed {wire_labels(o.closed)}" if o.closed else ""
    return f"pot {o.table.pot} · stacks {slash(o.table.stacks)} · stock {o.stock} · {fields}{own}"


NARRATOR = Narrator(_header, _private, _end, _board)
