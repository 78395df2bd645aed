"""Readable hand histories from replays: omniscient, public, or exactly what one seat saw; round
filters; summaries.

A seat's view is built from the re-simulated states (:class:`~croupier.replay.Replay`) by
narrating ``game.observe(state, seat)`` and the public actions only; chance outcomes (the deal)
are shown only in the omniscient view. :class:`Narration` narrates record by record, so the same
code serves a whole file (``show``), a file still being written (``show --follow``) and a walk
through a match (``step``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.errors import ConfigError
from croupier.games import Game, get_spec
from croupier.replay._records import Record, Replay

#: Render every seat's cards (the full file); pass a seat number for one seat's view.
OMNISCIENT = "omniscient"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a hand history: the index of the record that produced it, the round it
    belongs to (``None``: the header and the standings, shown with any round) and its text."""

    index: int
    round: int | None
    text: str


class Narration:
    """Narrates a replay's records one by one from one viewpoint: ``seat`` is
    :data:`OMNISCIENT`, ``None`` (the public view) or a seat number."""

    def __init__(self, game: Game[Any], header: dict[str, Any], initial: Any, seat: Any) -> None:
        self.game = game
        self.header = header
        self.narrator = get_spec(game.info.name).narrator
        self.omniscient = seat == OMNISCIENT
        self.viewer: int | None = None if self.omniscient else seat
        self.obs = game.observe(initial, self.viewer)
        self.announced = -1
        self.index = -1

    def title(self) -> list[str]:
        header, viewer = self.header, self.viewer
        who = (
            "omniscient view"
            if self.omniscient
            else "public view"
            if viewer is None
            else f"seat {viewer}'s view"
        )
        seed = f" · seed {header['seed']}" if self.omniscient else ""  # the seed: every deal
        lines = [f"{self.game.info.title} · match {header['match_id']}{seed} · {who}"]
        for s in header["seats"]:
            lines.append(f"   seat {s['seat']}: {_seat_label(s)}")
        return lines

    def feed(self, rec: Record, before: Any, after: Any) -> list[Line]:
        """The lines ``rec`` adds (``before``/``after``: the states around it)."""
        game, data, omniscient, viewer = self.game, rec.data, self.omniscient, self.viewer
        self.index += 1
        out: list[Line] = []

        def say(round_: int | None, text: str) -> None:
            out.append(Line(self.index, round_, text))

        if rec.type == "chance":
            if omniscient:
                say(game.round_index(after), f"   [chance] {data['label']}")
        elif rec.type == "action":
            if omniscient or data["seat"] == viewer or game.is_public(before, data["action"]):
                # the table does not learn that the arbiter played it (the default action would
                # tell it about the seat's cards); the seat itself was told, by its rejections
                told = omniscient or data["seat"] == viewer
                fault = ""
                if told and data["fault"]:
                    fault = f"   ({data['fault']}{_policy(data)}: played by the arbiter)"
                elif told and data.get("conceded"):
                    fault = "   (forfeited: played by the arbiter)"
                say(game.round_index(before), f"   seat {data['seat']}: {data['label']}{fault}")
        elif rec.type == "fault" and data["fault"] in ("no_show", "disconnect", "crash"):
            if omniscient or data["seat"] == viewer:
                detail = f"{data['fault'].replace('_', ' ')} ({data['detail']}){_policy(data)}"
                say(max(self.announced, 0), f"   seat {data['seat']}: {detail}")
        elif rec.type in ("dropped", "rejoined"):  # the table is not told: only the seat
            if omniscient or data["seat"] == viewer:
                what = (
                    f"connection dropped ({data['reason']})"
                    if rec.type == "dropped"
                    else f"back after {data['gap_us'] / 1e6:.1f} s away ({data['peer']})"
                )
                say(max(self.announced, 0), f"   seat {data['seat']}: {what}")
        elif rec.type == "forfeit":  # the round ends for everyone: the forfeit is public
            why = f" after a {data['fault']}{_policy(data)}" if data["fault"] else ""
            noun = game.info.round_noun
            say(game.round_index(before), f"   seat {data['seat']} forfeits the {noun}{why}")
        elif rec.type == "round_end":
            for text in self.narrator.round_end(game.observe(after, viewer)):
                say(data["round"], text)
            return out
        elif rec.type == "result":
            for text in _standings(data, self.header):
                say(None, text)
            return out
        new_obs = game.observe(after, viewer)
        if game.round_index(after) != self.announced and game.current_player(after) >= 0:
            self.announced = game.round_index(after)
            say(self.announced, self.narrator.round_header(new_obs))
        if not omniscient:  # seat or public view
            for text in self.narrator.private(self.obs, new_obs):
                say(game.round_index(after), text)
        self.obs = new_obs
        return out


def narrate(replay: Replay, seat: Any = OMNISCIENT) -> list[Line]:
    """Every line of the replay's hand history from ``seat``'s viewpoint (:class:`Narration`)."""
    narration = Narration(replay.game, replay.header, replay.initial, seat)
    lines = [Line(-1, None, text) for text in narration.title()]
    for i, rec in enumerate(replay.records):
        lines += narration.feed(rec, replay.before(i), replay.states[i])
    return lines


def render(
    replay: Replay,
    seat: int | str | None = OMNISCIENT,
    deal: int | None = None,
    rounds: Iterable[int] | None = None,
) -> Iterator[str]:
    """Lines of a hand history. ``seat``: :data:`OMNISCIENT`, ``None`` (public view) or a seat;
    ``deal``: only that deal (1-based); ``rounds``: only those (0-based); the header and the
    final standings always."""
    wanted = None if rounds is None else set(rounds)
    if deal is not None:
        wanted = {deal - 1} if wanted is None else wanted & {deal - 1}
    for line in narrate(replay, seat):
        if line.round is None or wanted is None or line.round in wanted:
            yield line.text
    if not replay.complete:
        yield "   (the replay ends here: the match did not finish)"


# -- round facts and --where filters -------------------------------------------------------------


def round_results(replay: Replay) -> list[dict[str, Any]]:
    """Each finished round's structured result (the ``round_end`` record's ``result``, built
    from the re-simulation, so a format v1 replay has them too), in order."""
    record = get_spec(replay.game.info.name).round_record
    game = replay.game
    return [
        json.loads(json.dumps(record(game.observe(replay.states[i], None))))
        for i, rec in enumerate(replay.records)
        if rec.type == "round_end"
    ]


def round_facts(replay: Replay) -> list[dict[str, set[str]]]:
    """Per finished round, what a ``--where`` filter can ask: each field of its result whose
    value is a scalar or a list of scalars (as lower-case text; ``true`` for a set flag), and
    ``fault``: the kinds of the faults recorded in the round."""
    facts: list[dict[str, set[str]]] = []
    faults: set[str] = set()
    results = iter(round_results(replay))
    for rec in replay.records:
        if (rec.type == "action" and rec.data["fault"]) or rec.type == "fault":
            faults.add(rec.data["fault"])
        elif rec.type == "round_end":
            fact = _flatten(next(results))
            fact["fault"] = faults
            fact["round"] = {str(rec.data["round"] + 1)}
            facts.append(fact)
            faults = set()
    return facts


def _flatten(result: dict[str, Any], prefix: str = "") -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for key, value in result.items():
        name = prefix + key
        if isinstance(value, dict):
            out.update(_flatten(value, name + "."))
        elif isinstance(value, list):
            if all(not isinstance(v, dict | list) for v in value):
                out[name] = {_text(v) for v in value if v is not None}
        elif value is None or value is False:
            out[name] = set()
        else:
            out[name] = {_text(value)}
    return out


def _text(value: Any) -> str:
    return "true" if value is True else str(value).lower()


def select_rounds(replay: Replay, where: list[str]) -> list[int]:
    """The rounds (0-based) matching every ``--where`` expression: ``KEY`` (the field is set:
    true, non-zero text, a non-empty list) or ``KEY=VALUE`` (equal, or a member of the list;
    case-insensitive). :class:`ConfigError` for a key the game's rounds do not have."""
    facts = round_facts(replay)
    known = sorted({k for f in facts for k in f}) if facts else []
    chosen = []
    for index, fact in enumerate(facts):
        ok = True
        for expr in where:
            key, sep, value = expr.partition("=")
            key = key.strip()
            if facts and key not in fact:
                raise ConfigError(f"--where {expr!r}: no field {key!r} (known: {', '.join(known)})")
            values = fact.get(key, set())
            hit = value.strip().lower() in values if sep else bool(values - {"0", ""})
            ok = ok and hit
        if ok:
            chosen.append(index)
    return chosen


# -- summaries ----------------------------------------------------------------------------------


def summary_data(replay: Replay) -> dict[str, Any]:
    """A replay's summary as JSON-able data (``replay summary --json``, docs/replay-format.md)."""
    header = replay.header
    seats = len(header["seats"])
    won = [0] * seats
    actions: list[Counter[str]] = [Counter() for _ in range(seats)]
    time_us = [0] * seats
    rounds = 0
    for rec in replay.records:
        if rec.type == "round_end":
            rounds += 1
            for s, delta in enumerate(rec.data["deltas"]):
                won[s] += Fraction(delta) > 0
        elif rec.type == "action":
            actions[rec.data["seat"]][rec.data["label"].split(":")[0]] += 1
            time_us[rec.data["seat"]] += rec.data["time_us"]
    result = replay.result
    rows = []
    for s in range(seats):
        row = result["seats"][s] if result else None
        rows.append(
            {
                "seat": s,
                "bot_name": header["seats"][s]["bot_name"],
                "bot_version": header["seats"][s]["bot_version"],
                **_registered(header["seats"][s]),
                "score": row["score"] if row else None,
                "place": row["place"] if row else None,
                "outcome": row["outcome"] if row else None,
                "rounds_won": won[s],
                "decisions": sum(actions[s].values()),
                "time_us": time_us[s],
                "actions": dict(sorted(actions[s].items())),
            }
        )
    return {
        "file": str(replay.path),
        "match_id": header["match_id"],
        "game": header["game"],
        "format_version": header["format_version"],
        "rules_version": header["rules_version"],
        "params": header["params"],
        "seed": str(header["seed"]),  # decimal text: 128 bits, exact in every JSON reader
        "status": replay.status,
        "rounds": rounds,
        "round_noun": replay.game.info.round_noun,
        "seats": rows,
    }


def summarize(replay: Replay) -> Iterator[str]:
    """A few lines per replay: the result, and per seat its deals won and its actions by kind."""
    data = summary_data(replay)
    unit = f"{data['round_noun']}s"  # the chip games play rounds
    yield f"{data['match_id']}: {data['game']}, {data['rounds']} {unit}, {data['status']}"
    for row in data["seats"]:
        name = _seat_label(row)
        outcome = (
            f"place {row['place']}, score {row['score']}, {row['outcome']}"
            if row["score"] is not None
            else "-"
        )
        kinds = ", ".join(f"{k} {n}" for k, n in row["actions"].items())
        yield f"   seat {row['seat']} {name}: {outcome}; won {row['rounds_won']} {unit}; {kinds}"


def _policy(data: dict[str, Any]) -> str:
    """``, forfeit-round`` for a fault whose policy was a forfeit (nothing for ``default``)."""
    policy = data.get("policy")
    return f", {policy}" if policy and policy != "default" else ""


def _registered(seat: dict[str, Any]) -> dict[str, str]:
    """``{"registered_name": ...}`` for a header seat that has one (``croupier serve``)."""
    name = seat.get("registered_name")
    return {"registered_name": name} if isinstance(name, str) and name else {}


def _seat_label(seat: dict[str, Any]) -> str:
    """Who a seat's bot is: where the host registered it (``croupier serve``), its registered
    name, with the name it said in its Hello after it when that differs (its self-description,
    not its identity); else the Hello name."""
    said = seat.get("bot_name") or ""
    name = _registered(seat).get("registered_name", "")
    if not name:
        return said or "(no bot)"
    return name if said in ("", name) else f"{name} (says {said!r})"


def _standings(data: dict[str, Any], header: dict[str, Any]) -> Iterator[str]:
    title = "Final standings (cancelled)" if data["cancelled"] else "Final standings"
    yield f"── {title} ──"
    seats = header["seats"]
    for row in sorted(data["seats"], key=lambda r: (r["place"], r["seat"])):
        seat = row["seat"]
        name = _registered(seats[seat]).get("registered_name") if seat < len(seats) else None
        yield (
            f"   {row['place']}. seat {seat} {name or row['bot_name'] or '(no bot)'}: "
            f"{row['score']}  [{row['outcome']}]"
            + (f"  ({row['forfeits']} forfeits)" if row.get("forfeits") else "")
        )
