"""Readable hand histories from replays: omniscient, public, or exactly what one seat saw.

A seat's view is built by re-simulating the replay and narrating ``game.observe(state, seat)``
and the public actions only; chance outcomes (the deal) are shown only in the omniscient view.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.games import as_nas
from croupier.replay._reader import Replay

#: Render every seat's cards (the full file); pass a seat number for one seat's view.
OMNISCIENT = "omniscient"


@dataclass(frozen=True, slots=True)
class Narrator:
    """Game-specific lines: a round's header, a seat's new private information, a round's end."""

    round_header: Callable[[Any], str]
    private: Callable[[Any, Any], list[str]]
    round_end: Callable[[Any], list[str]]


def _signed(value: Fraction) -> str:
    return f"+{value}" if value > 0 else str(value)


def _ranks(ranks: tuple[int, ...]) -> str:
    return " ".join(as_nas.RANK_NAMES[r] for r in ranks)


def _as_nas_header(obs: as_nas.AsNasObservation) -> str:
    return f"── Deal {obs.deal_index + 1}/{obs.num_deals} · dealer seat {obs.dealer} ──"


def _as_nas_private(before: as_nas.AsNasObservation, after: as_nas.AsNasObservation) -> list[str]:
    if after.hand and not before.hand:
        category = as_nas.hand_category(after.hand).name.replace("_", " ").lower()
        return [f"   seat {after.seat} sees its hand: {_ranks(after.hand)} ({category})"]
    return []


def _as_nas_end(obs: as_nas.AsNasObservation) -> list[str]:
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
    deltas = "  ".join(f"seat {s} {_signed(d)}" for s, d in enumerate(result.deltas))
    lines.append(f"   pot {result.pot} → {winners}   settlement {deltas}")
    return lines


NARRATORS: dict[str, Narrator] = {
    "as-nas": Narrator(_as_nas_header, _as_nas_private, _as_nas_end),
}


def render(replay: Replay, seat: int | str | None = OMNISCIENT) -> Iterator[str]:
    """Lines of a hand history. ``seat``: :data:`OMNISCIENT`, ``None`` (public view) or a seat."""
    game, header = replay.game, replay.header
    narrator = NARRATORS[game.info.name]
    viewer: int | None = None if seat == OMNISCIENT else seat  # type: ignore[assignment]
    omniscient = seat == OMNISCIENT
    names = {s.get("seat"): s.get("bot_name") or "(no bot)" for s in header["seats"]}
    who = (
        "omniscient view"
        if omniscient
        else "public view"
        if viewer is None
        else f"seat {viewer}'s view"
    )
    seed = f" · seed {header['seed']}" if omniscient else ""  # the seed determines every deal
    yield f"{game.info.title} · match {header['match_id']}{seed} · {who}"
    for s, name in sorted(names.items()):
        yield f"   seat {s}: {name}"
    state = game.initial_state(game.info.make_params(header["params"]))
    obs = game.observe(state, viewer)
    announced = -1
    for rec in replay.records:
        data = rec.data
        if rec.type == "chance":
            state = game.apply_chance(state, tuple(data["outcome"]))
            if omniscient:
                yield f"   [chance] {data['label']}"
        elif rec.type == "action":
            public = game.is_public(state, data["action"])
            state = game.apply(state, data["action"])
            if omniscient or public or data["seat"] == viewer:
                fault = f"   ({data['fault']}: played by the arbiter)" if data["fault"] else ""
                yield f"   seat {data['seat']}: {data['label']}{fault}"
        elif rec.type == "fault" and data["fault"] in ("no_show", "disconnect"):
            yield f"   seat {data['seat']}: {data['fault'].replace('_', ' ')} ({data['detail']})"
        elif rec.type == "round_end":
            end_obs = game.observe(state, viewer)
            yield from narrator.round_end(end_obs)
            continue
        elif rec.type == "result":
            yield from _standings(data)
            continue
        new_obs = game.observe(state, viewer)
        if game.round_index(state) != announced and game.current_player(state) >= 0:
            announced = game.round_index(state)
            yield narrator.round_header(new_obs)
        if viewer is not None:
            yield from narrator.private(obs, new_obs)
        obs = new_obs
    if not replay.complete:
        yield "   (the replay ends here: the match did not finish)"


def _standings(data: dict[str, Any]) -> Iterator[str]:
    title = "Final standings (cancelled)" if data["cancelled"] else "Final standings"
    yield f"── {title} ──"
    for row in sorted(data["seats"], key=lambda r: (r["place"], r["seat"])):
        yield (
            f"   {row['place']}. seat {row['seat']} {row['bot_name'] or '(no bot)'}: "
            f"{row['score']}  [{row['outcome']}]"
        )
