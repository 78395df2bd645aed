"""As-Nas hand histories: a deal's header, a seat's new private information, a deal's end."""

from __future__ import annotations

from typing import Any

from croupier.games._narrate import Narrator, enum_name, signed, slash
from croupier.games.as_nas import rules as as_nas


def _ranks(ranks: tuple[int, ...]) -> str:
    return " ".join(as_nas.RANK_NAMES[r] for r in ranks)


def _header(obs: as_nas.AsNasObservation) -> str:
    return f"── Deal {obs.deal_index + 1}/{obs.num_deals} · dealer seat {obs.dealer} ──"


def _private(before: as_nas.AsNasObservation, after: as_nas.AsNasObservation) -> list[str]:
    if after.hand and not before.hand:
        category = as_nas.hand_category(after.hand).name.replace("_", " ").lower()
        return [f"   seat {after.seat} sees its hand: {_ranks(after.hand)} ({category})"]
    return []


def _end(obs: as_nas.AsNasObservation) -> list[str]:
    result = obs.last_deal
    if result is None:
        return []
    lines = []
    shown = [(s, r) for s, r in enumerate(result.revealed) if r is not None]
    if shown:
        for seat, ranks in shown:
            category = as_nas.hand_category(ranks).name.replace("_", " ").lower()
            lines.append(f"   showdown: seat {seat} shows {_ranks(ranks)} ({category})")
    else:
        lines.append(f"   seat {result.winners[0]} is the last one in; no hand is shown")
    winners = ", ".join(f"seat {w}" for w in result.winners)
    deltas = "  ".join(f"seat {s} {signed(d)}" for s, d in enumerate(result.deltas))
    lines.append(f"   pot {result.pot} → {winners}   settlement {deltas}")
    return lines


#: The As-Nas narrator registered in the game's spec.
def _board(o: Any) -> str:
    """The wire view (``croupier.v1.AsNasObservation``) as one line."""
    stakes = slash(f"{s.stake}{'f' if s.folded else ''}" for s in o.seats)
    ranks = slash(enum_name(o, "hand", r) for r in o.hand)
    hand = f" · hand {ranks}" if o.hand else ""
    return f"pot {o.pot} · high {o.high_bet} · stakes {stakes}{hand}"


NARRATOR = Narrator(_header, _private, _end, _board)
