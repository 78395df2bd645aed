"""Fipsen hand histories: a deal's header, a seat's new private information, a deal's end."""

from __future__ import annotations

from croupier.games._narrate import Narrator, signed
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
NARRATOR = Narrator(_header, _private, _end)
