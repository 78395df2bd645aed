"""Fipsen hand histories: a deal's header, a seat's new private information, a deal's end."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from croupier.games._narrate import Narrator, enum_name, signed, slash, wire_score
from croupier.games.fipsen import rules as fipsen


def _header(obs: fipsen.FipsenObservation) -> str:
    vorhand = (obs.dealer + 1) % 4
    return (
        f"── Deal {obs.deal_index + 1}/{obs.num_deals} · dealer seat {obs.dealer} · "
        f"Vorhand seat {vorhand} ──"
    )


def _private(before: fipsen.FipsenObservation, after: fipsen.FipsenObservation) -> list[str]:
    seat, lines = after.seat, []
    if after.hand and (not before.hand or before.deal_index != after.deal_index):
        lines.append(f"   seat {seat} holds {fipsen.cards_text(after.hand)}")
    if after.skat and not before.skat:
        lines.append(f"   seat {seat} takes {fipsen.cards_text(after.skat)}")
    if after.phase is fipsen.Phase.SIEBENER_FIPS and before.phase is not after.phase:
        lines.append(f"   seat {seat} may call Siebener Fips")
    return lines


def _tricks(result: fipsen.DealResult) -> list[str]:
    lines = []
    for k, trick in enumerate(result.tricks, 1):
        shown = " · ".join(  # in play order, clockwise from the leader
            f"seat {(trick.leader + i) % fipsen.NUM_SEATS} {fipsen.card_name(c)}"
            for i, c in enumerate(trick.cards)
        )
        lines.append(f"   trick {k}: {shown} → seat {trick.winner}")
    return lines


def _end(obs: fipsen.FipsenObservation) -> list[str]:
    if not obs.past_deals:
        return []
    result = obs.past_deals[-1].result
    outcome = result.outcome
    if outcome is fipsen.DealOutcome.THROW_IN:
        return ["   all four passed: thrown in (it counts; the same dealer deals again)"]
    if outcome is fipsen.DealOutcome.SIEBENER_FIPS:
        return [
            f"   seat {result.declarer} calls Siebener Fips with "
            f"{fipsen.cards_text(result.revealed)}: +{result.value}"
        ]
    bid = None if result.contract is None else fipsen.move(result.contract).bid
    if bid is None or result.trump is None or result.declarer is None:
        return []  # not a played deal
    applied = [n for n, on in (("Hand", result.hand), ("Ruten", result.ruten),
                               ("Durch", result.durch)) if on]  # fmt: skip
    lines = [
        f"   contract: seat {result.declarer} plays {bid.label}, trump "
        f"{fipsen.SUIT_NAMES[result.trump]}" + (f" ({', '.join(applied)})" if applied else "")
    ]
    lines += _tricks(result)
    verdict = "won" if outcome is fipsen.DealOutcome.WON else "lost"
    delta = result.deltas[result.declarer]
    lines.append(
        f"   seat {result.declarer} took {result.declarer_tricks} tricks: {verdict}, "
        f"{signed(delta)}"
    )
    return lines


#: The Fipsen narrator registered in the game's spec.
_WIRE_RANK = {1: "7", 2: "8", 3: "9", 4: "10", 5: "J", 6: "Q", 7: "K", 8: "A"}
_WIRE_SUIT = {1: "♣", 2: "♠", 3: "♥", 4: "♦"}


def _wire_cards(cards: Iterable[Any]) -> str:
    """``croupier.v1.FipsenCard`` values as ``7♣ A♦``, or ``-`` for none."""
    text = (_WIRE_RANK.get(c.rank, "?") + _WIRE_SUIT.get(c.suit, "?") for c in cards)
    return " ".join(text) or "-"


def _board(o: Any) -> str:
    """The wire view (``croupier.v1.FipsenObservation``) as one line."""
    phase = enum_name(o, "phase", o.phase).lower()
    trick = f" · trick {_wire_cards(o.trick_cards)}" if o.trick_cards else ""
    hand = f" · hand {_wire_cards(o.hand)}" if o.hand else ""
    return (
        f"{phase} · tricks {o.declarer_tricks}:{o.defender_tricks} · "
        f"totals {slash(wire_score(t) for t in o.totals)}{trick}{hand}"
    )


NARRATOR = Narrator(_header, _private, _end, _board)
