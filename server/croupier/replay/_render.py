"""Readable hand histories from replays: omniscient, public, or exactly what one seat saw.

A seat's view is built by re-simulating the replay and narrating ``game.observe(state, seat)``
and the public actions only; chance outcomes (the deal) are shown only in the omniscient view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from croupier.games import get_spec
from croupier.replay._reader import Replay

#: Render every seat's cards (the full file); pass a seat number for one seat's view.
OMNISCIENT = "omniscient"


def render(
    replay: Replay, seat: int | str | None = OMNISCIENT, deal: int | None = None
) -> Iterator[str]:
    """Lines of a hand history. ``seat``: :data:`OMNISCIENT`, ``None`` (public view) or a seat;
    ``deal``: only that deal (1-based), with the header and the final standings."""
    game, header = replay.game, replay.header
    narrator = get_spec(game.info.name).narrator
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

    def shown(round_index: int) -> bool:
        return deal is None or round_index == deal - 1

    state = game.initial_state(game.info.make_params(header["params"]))
    obs = game.observe(state, viewer)
    announced = -1
    for rec in replay.records:
        data = rec.data
        if rec.type == "chance":
            state = game.apply_chance(state, tuple(data["outcome"]))
            if omniscient and shown(game.round_index(state)):
                yield f"   [chance] {data['label']}"
        elif rec.type == "action":
            public = game.is_public(state, data["action"])
            current = game.round_index(state)
            state = game.apply(state, data["action"])
            if (omniscient or public or data["seat"] == viewer) and shown(current):
                # the table does not learn that the arbiter played it (the default action would
                # tell it about the seat's cards); the seat itself was told, by its rejections
                told = omniscient or data["seat"] == viewer
                fault = (
                    f"   ({data['fault']}: played by the arbiter)" if told and data["fault"] else ""
                )
                yield f"   seat {data['seat']}: {data['label']}{fault}"
        elif rec.type == "fault" and data["fault"] in ("no_show", "disconnect"):
            if (omniscient or data["seat"] == viewer) and shown(max(announced, 0)):
                detail = f"{data['fault'].replace('_', ' ')} ({data['detail']})"
                yield f"   seat {data['seat']}: {detail}"
        elif rec.type == "round_end":
            if shown(data["round"]):
                yield from narrator.round_end(game.observe(state, viewer))
            continue
        elif rec.type == "result":
            yield from _standings(data)
            continue
        new_obs = game.observe(state, viewer)
        if game.round_index(state) != announced and game.current_player(state) >= 0:
            announced = game.round_index(state)
            if shown(announced):
                yield narrator.round_header(new_obs)
        if not omniscient and shown(game.round_index(state)):  # seat or public view
            yield from narrator.private(obs, new_obs)
        obs = new_obs
    if not replay.complete:
        yield "   (the replay ends here: the match did not finish)"


def summarize(replay: Replay) -> Iterator[str]:
    """A few lines per replay: the result, and per seat its deals won and its actions by kind."""
    header = replay.header
    seats = len(header["seats"])
    won = [0] * seats
    actions: list[Counter[str]] = [Counter() for _ in range(seats)]
    rounds = 0
    for rec in replay.records:
        if rec.type == "round_end":
            rounds += 1
            for s, delta in enumerate(rec.data["deltas"]):
                won[s] += Fraction(delta) > 0
        elif rec.type == "action":
            actions[rec.data["seat"]][rec.data["label"].split(":")[0]] += 1
    result = replay.records[-1].data if replay.complete else None
    state = (
        "cancelled" if result and result["cancelled"] else "finished" if result else "unfinished"
    )
    unit = f"{replay.game.info.round_noun}s"  # the chip games play rounds
    yield f"{header['match_id']}: {header['game']}, {rounds} {unit}, {state}"
    for s in range(seats):
        row = result["seats"][s] if result else None
        name = header["seats"][s]["bot_name"] or "(no bot)"
        outcome = f"place {row['place']}, score {row['score']}, {row['outcome']}" if row else "-"
        kinds = ", ".join(f"{k} {n}" for k, n in sorted(actions[s].items()))
        yield f"   seat {s} {name}: {outcome}; won {won[s]} {unit}; {kinds}"


def _standings(data: dict[str, Any]) -> Iterator[str]:
    title = "Final standings (cancelled)" if data["cancelled"] else "Final standings"
    yield f"── {title} ──"
    for row in sorted(data["seats"], key=lambda r: (r["place"], r["seat"])):
        yield (
            f"   {row['place']}. seat {row['seat']} {row['bot_name'] or '(no bot)'}: "
            f"{row['score']}  [{row['outcome']}]"
        )
