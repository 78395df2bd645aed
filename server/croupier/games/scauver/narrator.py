"""Scauver hand histories: a round's header, a seat's new private information, a round's end."""

from __future__ import annotations

from typing import Any

from croupier.games import cards40
from croupier.games._narrate import Narrator, slash, wire_labels
from croupier.games.scauver import rules as sc


def _header(obs: sc.ScauverObservation) -> str:
    table = obs.table
    return (
        f"── Round {table.round + 1}/{obs.round_cap} · dealer seat {table.dealer} · "
        f"amphora {table.amphora} · cap {table.cap} ──"
    )


def _flanks(field: sc.Field) -> str:
    left, right = field
    return (
        f"L {cards40.cards_label(left)} ({sum(cards40.VALUES[c] for c in left)})  "
        f"R {cards40.cards_label(right)} ({sum(cards40.VALUES[c] for c in right)})"
    )


def _private(before: sc.ScauverObservation, after: sc.ScauverObservation) -> list[str]:
    """New cards in the seat's hand, and the openings once every seat has chosen."""
    lines = []
    new_round = after.table.round != before.table.round
    if before.phase is sc.Phase.OPENING and after.phase is not sc.Phase.OPENING and not new_round:
        for seat, field in enumerate(after.fields):
            if after.opened[seat]:
                lines.append(f"   seat {seat} opens: {_flanks(field)}")
    if after.seat is not None:
        had = () if new_round else before.hand
        drawn = [c for c in after.hand if c not in had]
        if len(drawn) == sc.HAND_SIZE:
            lines.append(f"   seat {after.seat} is dealt {cards40.cards_label(after.hand)}")
        elif drawn:
            lines.append(f"   seat {after.seat} draws {cards40.cards_label(drawn)}")
    return lines


_DECIDED = {
    sc.Criterion.LINKED: "the only link",
    sc.Criterion.SCORE: "the lowest score",
    sc.Criterion.SIZE: "equal scores, the larger link",
    sc.Criterion.SHAPE: "equal scores and links, the stronger shape",
    sc.Criterion.HEIGHT: "equal scores, links and shapes, the higher cards",
    sc.Criterion.DIFFERENCE: "nobody linked, the lowest D",
    sc.Criterion.TIE: "a tie",
}


def _end(obs: sc.ScauverObservation) -> list[str]:
    result = obs.last_round
    if result is None:
        return []
    lines = []
    for showing in result.showings:
        link = showing.link
        shown = f"   showdown: seat {showing.seat}: {_flanks((showing.left, showing.right))}"
        if link is None:
            lines.append(f"{shown}  D {showing.difference}, no link")
        else:
            lines.append(
                f"{shown}  D {showing.difference}, link {cards40.cards_label(link.left)} = "
                f"{cards40.cards_label(link.right)} v {link.value} "
                f"({link.shape[0]}–{link.shape[1]}), score {showing.score}"
            )
    settlement = result.settlement
    winners = ", ".join(f"seat {w}" for w in result.winners)
    if result.decided_by is sc.Criterion.LONE_WINNER:
        lines.append(f"   seat {result.winners[0]} is the last one in; no showdown")
    else:
        lines.append(f"   decided by {_DECIDED[result.decided_by]}")
    gone = "".join(f"; seat {s} is eliminated" for s in settlement.eliminated)
    lines.append(f"   pot {settlement.pot} → {winners}{gone}")
    return lines


#: The Scauver narrator registered in the game's spec.
def _board(o: Any) -> str:
    """The wire view (``croupier.v1.ScauverObservation``) as one line."""
    fields = " ".join(
        f"{i}[{wire_labels(s.field.left)} | {wire_labels(s.field.right)}]"
        for i, s in enumerate(o.seats)
    )
    hand = f" · hand {wire_labels(o.hand)}" if o.hand else ""
    return (
        f"pot {o.table.pot} · stacks {slash(o.table.stacks)} · "
        f"stock {o.stock_size} · {fields}{hand}"
    )


NARRATOR = Narrator(_header, _private, _end, _board)
