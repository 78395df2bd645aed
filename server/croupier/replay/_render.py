"""Readable hand histories from replays: omniscient, public, or exactly what one seat saw.

A seat's view is built by re-simulating the replay and narrating ``game.observe(state, seat)``
and the public actions only; chance outcomes (the deal) are shown only in the omniscient view.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.games import _chips as chips
from croupier.games import as_nas, felduz, fipsen
from croupier.games import scauver as sc
from croupier.replay._reader import Replay

#: Render every seat's cards (the full file); pass a seat number for one seat's view.
OMNISCIENT = "omniscient"


@dataclass(frozen=True, slots=True)
class Narrator:
    """Game-specific lines: a round's header, a seat's new private information, a round's end."""

    round_header: Callable[[Any], str]
    #: What changed for a seat's (or the public) view from one observation to the next.
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


def _fipsen_header(obs: fipsen.FipsenObservation) -> str:
    vorhand = (obs.dealer + 1) % 4
    return (
        f"── Deal {obs.deal_index + 1}/{obs.num_deals} · dealer seat {obs.dealer} · "
        f"Vorhand seat {vorhand} ──"
    )


def _fipsen_private(before: fipsen.FipsenObservation, after: fipsen.FipsenObservation) -> list[str]:
    seat, lines = after.seat, []
    if after.hand and (not before.hand or before.deal_index != after.deal_index):
        lines.append(f"   seat {seat} holds {fipsen.cards_text(after.hand)}")
    if after.skat and not before.skat:
        lines.append(f"   seat {seat} takes {fipsen.cards_text(after.skat)}")
    if after.phase is fipsen.Phase.SIEBENER_FIPS and before.phase is not after.phase:
        lines.append(f"   seat {seat} may call Siebener Fips")
    return lines


def _fipsen_tricks(history: tuple[tuple[int, int], ...], dealer: int, trump: int) -> list[str]:
    plays = [(s, a - fipsen.Action.PLAY_BASE) for s, a in history if a >= fipsen.Action.PLAY_BASE]
    plays = [(s, c) for s, c in plays if c < fipsen.DECK_SIZE]
    lines, leader = [], (dealer + 1) % 4
    for k in range(0, len(plays) - 3, 4):
        trick = tuple(c for _, c in plays[k : k + 4])
        winner = fipsen.trick_winner(trick, leader, trump)
        shown = " · ".join(f"seat {s} {fipsen.card_name(c)}" for s, c in plays[k : k + 4])
        lines.append(f"   trick {k // 4 + 1}: {shown} → seat {winner}")
        leader = winner
    return lines


def _fipsen_end(obs: fipsen.FipsenObservation) -> list[str]:
    if not obs.past_deals:
        return []
    history, result = obs.past_deals[-1].history, obs.past_deals[-1].result
    outcome = result.outcome
    if outcome is fipsen.DealOutcome.THROW_IN:
        return ["   all four passed: thrown in (it counts; the same dealer deals again)"]
    if outcome is fipsen.DealOutcome.SIEBENER_FIPS:
        return [
            f"   seat {result.declarer} calls Siebener Fips with "
            f"{fipsen.cards_text(result.revealed)}: +{result.value}"
        ]
    if result.contract is None or result.trump is None or result.declarer is None:
        return []  # not a played deal
    contract = fipsen.action_text(result.contract).removeprefix("Bid:")
    applied = [n for n, on in (("Hand", result.hand), ("Ruten", result.ruten),
                               ("Durch", result.durch)) if on]  # fmt: skip
    lines = [
        f"   contract: seat {result.declarer} plays {contract}, trump "
        f"{fipsen.SUIT_NAMES[result.trump]}" + (f" ({', '.join(applied)})" if applied else "")
    ]
    lines += _fipsen_tricks(history, result.dealer, result.trump)
    verdict = "won" if outcome is fipsen.DealOutcome.WON else "lost"
    delta = result.deltas[result.declarer]
    lines.append(
        f"   seat {result.declarer} took {result.declarer_tricks} tricks: {verdict}, "
        f"{_signed(delta)}"
    )
    return lines


def _scauver_header(obs: sc.ScauverObservation) -> str:
    table = obs.table
    return (
        f"── Round {table.round + 1}/{obs.round_cap} · dealer seat {table.dealer} · "
        f"amphora {table.amphora} · cap {table.cap} ──"
    )


def _flanks(field: sc.Field) -> str:
    left, right = field
    return (
        f"L {chips.cards_label(left)} ({sum(chips.VALUES[c] for c in left)})  "
        f"R {chips.cards_label(right)} ({sum(chips.VALUES[c] for c in right)})"
    )


def _scauver_private(before: sc.ScauverObservation, after: sc.ScauverObservation) -> list[str]:
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
            lines.append(f"   seat {after.seat} is dealt {chips.cards_label(after.hand)}")
        elif drawn:
            lines.append(f"   seat {after.seat} draws {chips.cards_label(drawn)}")
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


def _scauver_end(obs: sc.ScauverObservation) -> list[str]:
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
                f"{shown}  D {showing.difference}, link {chips.cards_label(link.left)} = "
                f"{chips.cards_label(link.right)} v {link.value} "
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


def _felduz_header(obs: felduz.FelduzObservation) -> str:
    table = obs.table
    stacks = " ".join(str(c) for c in chips.chips(table))
    return (
        f"── Round {obs.round + 1}/{obs.round_cap} · dealer seat {table.dealer} · "
        f"A {table.amphora} · cap {table.cap} · chips {stacks} ──"
    )


def _felduz_private(before: felduz.FelduzObservation, after: felduz.FelduzObservation) -> list[str]:
    """What the viewer newly sees that no action line shows: its hand, its draws, the open
    fields once all have split, and (as counts) the other seats' reserves."""
    lines = []
    seat = after.seat
    if after.phase is felduz.Phase.OPENING and before.phase is not felduz.Phase.OPENING:
        if seat is not None and after.closed:  # an eliminated seat is dealt nothing
            lines.append(f"   seat {seat} is dealt {chips.cards_label(after.closed)}")
    elif before.phase is felduz.Phase.OPENING and after.phase is not felduz.Phase.OPENING:
        fields = "  ".join(
            f"seat {s} {chips.cards_label(f)}" for s, f in enumerate(after.open_fields) if f
        )
        lines.append(f"   open fields: {fields}")
    elif (
        seat is not None and after.round == before.round and len(after.closed) > len(before.closed)
    ):
        (card,) = set(after.closed) - set(before.closed)
        lines.append(f"   seat {seat} draws {chips.card_label(card)}")
    if after.round == before.round:
        for s, (was, now) in enumerate(
            zip(before.reserve_counts, after.reserve_counts, strict=True)
        ):
            if now > was and s != seat:
                lines.append(f"   seat {s} sets {now} card{'s' * (now > 1)} aside (reserve)")
    return lines


def _seats(seats: tuple[int, ...]) -> str:
    return ("seat " if len(seats) == 1 else "seats ") + ", ".join(str(s) for s in seats)


def _felduz_event(event: felduz.ShowdownEvent, result: felduz.RoundResult) -> str:
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


def _felduz_end(obs: felduz.FelduzObservation) -> list[str]:
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
                    f"   showdown: seat {seat} field {chips.cards_label(field)} = "
                    f"{felduz.field_sum(field)}, reserve {chips.cards_label(reserve)} = "
                    f"{felduz.field_sum(reserve)}"
                )
        lines += [f"   {_felduz_event(e, result)}" for e in result.events]
    else:
        lines.append(f"   seat {settlement.winners[0]} is the last one in; no field is shown")
    shares = "  ".join(f"seat {s} +{p}" for s, p in enumerate(settlement.shares) if p)
    lines.append(f"   pot {settlement.pot} → {shares}")
    if settlement.eliminated:
        lines.append(f"   eliminated: {_seats(settlement.eliminated)}")
    return lines


NARRATORS: dict[str, Narrator] = {
    "as-nas": Narrator(_as_nas_header, _as_nas_private, _as_nas_end),
    "felduz": Narrator(_felduz_header, _felduz_private, _felduz_end),
    "fipsen": Narrator(_fipsen_header, _fipsen_private, _fipsen_end),
    "scauver": Narrator(_scauver_header, _scauver_private, _scauver_end),
}


def render(
    replay: Replay, seat: int | str | None = OMNISCIENT, deal: int | None = None
) -> Iterator[str]:
    """Lines of a hand history. ``seat``: :data:`OMNISCIENT`, ``None`` (public view) or a seat;
    ``deal``: only that deal (1-based), with the header and the final standings."""
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
