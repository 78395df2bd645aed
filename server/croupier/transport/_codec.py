"""The only place proto types meet rules types: arbiter messages <-> ``croupier.v1`` messages.

Everything a seat receives is encoded from the arbiter message addressed to it, whose game part
was built by ``game.observe(state, seat)``: the codec adds nothing from any other source.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, partial
from typing import Any, cast

from croupier import PROTOCOL_VERSION
from croupier.arbiter import (
    ActionEvent,
    DecisionRequest,
    Fault,
    Inbound,
    MatchOver,
    Outbound,
    Outcome,
    Rejection,
    Reply,
    RoundEnded,
    RoundStarted,
    Unexpected,
    Welcome,
)
from croupier.games import _chips as chips
from croupier.games import as_nas, felduz, fipsen
from croupier.games import scauver as sc
from croupier.transport._chips_codec import (
    card40,
    cards40,
    chip_action,
    chip_settlement,
    chip_table,
)
from croupier.v1 import bot_pb2 as pb


def score(value: Fraction) -> pb.Score:
    """An exact score on the wire."""
    return pb.Score(numerator=value.numerator, denominator=value.denominator)


# ---- per-game parts ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameCodec:
    """How one game's observations, action details and round results go on the wire."""

    observation: Callable[[Any, pb.Observation], None]
    action_detail: Callable[[Any, int, pb.LegalAction], None]
    round_detail: Callable[[Any, pb.DealEnded], None]


def _rank(rank: int) -> pb.AsNasRank:
    return cast(pb.AsNasRank, rank + 1)


def _move(action: int) -> pb.AsNasMove:
    return cast(pb.AsNasMove, action + 1)


def _as_nas_result(result: as_nas.DealResult, out: pb.AsNasDealResult) -> None:
    out.deal_index = result.deal_index
    out.dealer = result.dealer
    for seat, ranks in enumerate(result.revealed):
        if ranks is not None:
            out.shown.add(seat=seat, ranks=[_rank(r) for r in ranks])
    out.winners.extend(result.winners)
    out.pot = result.pot
    out.deltas.extend(score(d) for d in result.deltas)


def _as_nas_history(history: tuple[tuple[int, int], ...]) -> list[pb.AsNasHistoryEntry]:
    return [pb.AsNasHistoryEntry(seat=s, move=_move(a)) for s, a in history]


def _history_encoder(
    entry: type[Any], detail: Callable[[int], Any]
) -> Callable[[tuple[tuple[int, int], ...]], list[Any]]:
    """The history encoder of a game whose entries are ``entry(seat, action_id, action)``, the
    typed ``action`` being ``detail(action_id)``. A public action's detail depends on its id
    alone (never on a hand), so ``detail`` is a per-game cache of shared messages, and each
    (seat, action id) entry is made once too: the encoder returns shared messages, which the
    callers copy into their own (``extend``, ``add(history=...)``) and never modify."""

    @cache
    def one(seat: int, action: int) -> Any:
        return entry(seat=seat, action_id=action, action=detail(action))

    def history(actions: tuple[tuple[int, int], ...]) -> list[Any]:
        return [one(s, a) for s, a in actions]

    return history


class _SerializedOnce:
    """Serialize an immutable value's message once, keyed by the value's identity, and hand out
    the bytes: parsing them is C speed, rebuilding the message in Python is not. Holding the
    value keeps its ``id`` from being reused while it is cached."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._entries: dict[int, tuple[object, bytes]] = {}

    def get(self, value: object, build: Callable[[], bytes]) -> bytes:
        hit = self._entries.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        data = build()
        if len(self._entries) >= self._size:
            self._entries.pop(next(iter(self._entries)))
        self._entries[id(value)] = (value, data)
        return data


def _finished_bytes(
    msg_type: type[Any],
    field: str,
    finished: Any,
    history: Callable[[tuple[tuple[int, int], ...]], list[Any]],
    result: Callable[[Any, Any], None],
) -> bytes:
    """An observation message holding one finished deal or round in ``field`` (its public
    ``history`` and ``result``), serialized. Serialized messages concatenate: the bytes of
    several such messages are the message holding all of them, in order."""
    msg = msg_type()
    entry = getattr(msg, field).add(history=history(finished.history))
    result(finished.result, entry.result)
    data: bytes = msg.SerializeToString()
    return data


#: Each finished deal or round is serialized once (a match's observations share the objects)...
_FINISHED = _SerializedOnce(4096)
#: ...and the joined bytes of a whole ``past`` tuple once, as every later observation repeats it.
_PAST_DEALS = _SerializedOnce(256)
#: One public event goes to every seat: encode it once.
_EVENTS = _SerializedOnce(256)


def _merge_past(
    msg: Any,
    field: str,
    past: tuple[Any, ...],
    history: Callable[[tuple[tuple[int, int], ...]], list[Any]],
    result: Callable[[Any, Any], None],
) -> None:
    """Merge the finished deals or rounds ``past`` into the observation message ``msg``. A new
    ``past`` (one deal longer) costs one new deal's encoding, not all of them again."""
    if not past:
        return
    msg_type = type(msg)

    def build() -> bytes:
        return b"".join(
            _FINISHED.get(f, partial(_finished_bytes, msg_type, field, f, history, result))
            for f in past
        )

    msg.MergeFromString(_PAST_DEALS.get(past, build))


def _deal_header(msg: Any, obs: Any) -> None:
    """The deal index and count and the dealer, as the deal games' observations carry them."""
    msg.deal_index = obs.deal_index
    msg.num_deals = obs.num_deals
    msg.dealer = obs.dealer


def _as_nas_observation(obs: as_nas.AsNasObservation, out: pb.Observation) -> None:
    msg = out.as_nas
    _merge_past(msg, "past_deals", obs.past_deals, _as_nas_history, _as_nas_result)
    _deal_header(msg, obs)
    msg.to_act = obs.to_act if obs.to_act is not None else 0
    msg.hand.extend(_rank(r) for r in obs.hand)
    for s in range(len(obs.stakes)):
        msg.seats.add(
            stake=obs.stakes[s],
            folded=obs.folded[s],
            looked=obs.looked[s],
            total=score(obs.totals[s]),
        )
    msg.high_bet = obs.high
    msg.pot = obs.pot
    msg.history.extend(_as_nas_history(obs.history))


def _as_nas_action(obs: as_nas.AsNasObservation, action: int, out: pb.LegalAction) -> None:
    seat = obs.to_act if obs.to_act is not None else 0
    stake = obs.stakes[seat]
    if action == as_nas.Action.CALL:
        stake = obs.high
    elif action == as_nas.Action.RAISE:
        stake = obs.high + 1
    out.as_nas.move = _move(action)
    out.as_nas.stake_after = stake


def _as_nas_round(obs: as_nas.AsNasObservation, out: pb.DealEnded) -> None:
    if obs.last_deal is not None:
        _as_nas_result(obs.last_deal, out.as_nas)


# -- Fipsen --


def _fipsen_card(card: int) -> pb.FipsenCard:
    return pb.FipsenCard(
        id=card,
        suit=cast(pb.FipsenSuit, fipsen.card_suit(card) + 1),
        rank=cast(pb.FipsenRank, fipsen.card_rank(card) + 1),
    )


#: Every card's message, made once.
_FIPSEN_CARDS = tuple(_fipsen_card(c) for c in range(fipsen.DECK_SIZE))


def _fipsen_cards(cards: tuple[int, ...]) -> list[pb.FipsenCard]:
    return [_FIPSEN_CARDS[c] for c in cards]


def _fipsen_suit(suit: int | None) -> pb.FipsenSuit:
    return cast(pb.FipsenSuit, 0 if suit is None else suit + 1)


def _fipsen_bid(action: int, out: pb.FipsenBid) -> None:
    bid = fipsen.action_bid(action)
    if bid is not None:
        out.tricks = bid.tricks
        out.hand, out.ruten, out.durch, out.kieker = bid.hand, bid.ruten, bid.durch, bid.kieker


_FIPSEN_MOVES = (
    (fipsen.Action.DURCH, pb.FIPSEN_MOVE_DURCH),
    (fipsen.Action.STOP, pb.FIPSEN_MOVE_STOP),
    (fipsen.Action.PLAY_BASE, pb.FIPSEN_MOVE_PLAY),
    (fipsen.Action.TRUMP_BASE, pb.FIPSEN_MOVE_TRUMP),
    (fipsen.Action.DISCARD_BASE, pb.FIPSEN_MOVE_DISCARD),
    (fipsen.Action.PLAY_HAND, pb.FIPSEN_MOVE_PLAY_HAND),
    (fipsen.Action.TAKE_SKAT, pb.FIPSEN_MOVE_TAKE_SKAT),
    (fipsen.Action.DECLINE_FIPS, pb.FIPSEN_MOVE_DECLINE_FIPS),
    (fipsen.Action.SIEBENER_FIPS, pb.FIPSEN_MOVE_SIEBENER_FIPS),
    (fipsen.Action.BID_BASE, pb.FIPSEN_MOVE_BID),
    (fipsen.Action.HOLD, pb.FIPSEN_MOVE_HOLD),
    (fipsen.Action.PASS, pb.FIPSEN_MOVE_PASS),
)


@cache
def _fipsen_detail(action: int) -> pb.FipsenAction:
    """The typed fields an action id implies (the bid a HOLD takes over is added by the caller):
    made once per id, a shared message that callers copy and never modify."""
    out = pb.FipsenAction()
    base, move = next((b, m) for b, m in _FIPSEN_MOVES if action >= b)
    out.move = pb.FIPSEN_MOVE_KIEKER if action == fipsen.Action.KIEKER else move
    if move == pb.FIPSEN_MOVE_BID:
        _fipsen_bid(action, out.bid)
    elif move in (pb.FIPSEN_MOVE_PLAY, pb.FIPSEN_MOVE_DISCARD):
        out.card.CopyFrom(_FIPSEN_CARDS[action - base])
    elif move == pb.FIPSEN_MOVE_TRUMP:
        out.trump = _fipsen_suit(action - base)
    return out


_fipsen_history = _history_encoder(pb.FipsenHistoryEntry, _fipsen_detail)


def _fipsen_result(result: fipsen.DealResult, out: pb.FipsenDealResult) -> None:
    out.deal_index = result.deal_index
    out.dealer = result.dealer
    out.outcome = cast(pb.FipsenDealOutcome, result.outcome + 1)
    if result.declarer is not None:
        out.declarer = result.declarer
    if result.contract is not None:
        _fipsen_bid(result.contract, out.contract)
    out.trump = _fipsen_suit(result.trump)
    out.hand, out.ruten, out.durch = result.hand, result.ruten, result.durch
    out.declarer_tricks = result.declarer_tricks
    out.value = result.value
    out.revealed.extend(_fipsen_cards(result.revealed))
    out.deltas.extend(score(d) for d in result.deltas)


_FIPSEN_PHASES = {
    fipsen.Phase.DRAW_DEALER: pb.FIPSEN_PHASE_BETWEEN_DEALS,
    fipsen.Phase.DEAL: pb.FIPSEN_PHASE_BETWEEN_DEALS,
    fipsen.Phase.SIEBENER_FIPS: pb.FIPSEN_PHASE_SIEBENER_FIPS,
    fipsen.Phase.BIDDING: pb.FIPSEN_PHASE_BIDDING,
    fipsen.Phase.SKAT: pb.FIPSEN_PHASE_SKAT,
    fipsen.Phase.DISCARD: pb.FIPSEN_PHASE_DISCARD,
    fipsen.Phase.TRUMP: pb.FIPSEN_PHASE_TRUMP,
    fipsen.Phase.PLAY: pb.FIPSEN_PHASE_PLAY,
    fipsen.Phase.STOP_OR_DURCH: pb.FIPSEN_PHASE_STOP_OR_DURCH,
    fipsen.Phase.OVER: pb.FIPSEN_PHASE_OVER,
}


def _fipsen_observation(obs: fipsen.FipsenObservation, out: pb.Observation) -> None:
    msg = out.fipsen
    _merge_past(msg, "past_deals", obs.past_deals, _fipsen_history, _fipsen_result)
    _deal_header(msg, obs)
    msg.phase = _FIPSEN_PHASES[obs.phase]
    if obs.to_act is not None:
        msg.to_act = obs.to_act
    msg.hand.extend(_fipsen_cards(obs.hand))
    msg.history.extend(_fipsen_history(obs.history))
    if obs.standing_bid is not None:
        _fipsen_bid(obs.standing_bid, msg.standing_bid)
    msg.passed.extend(obs.passed)
    if obs.declarer is not None:
        msg.declarer = obs.declarer
    if obs.contract is not None:
        _fipsen_bid(obs.contract, msg.contract)
    msg.trump = _fipsen_suit(obs.trump)
    msg.hand_applied = obs.hand_applied
    msg.ruten_applied = obs.ruten_applied
    msg.durch_applied = obs.durch_applied
    msg.skat_taken = obs.skat_taken
    msg.skat.extend(_fipsen_cards(obs.skat))
    msg.discards.extend(_fipsen_cards(obs.discards))
    for trick in obs.tricks:
        msg.tricks.add(leader=trick.leader, cards=_fipsen_cards(trick.cards), winner=trick.winner)
    if obs.trick_leader is not None:
        msg.trick_leader = obs.trick_leader
    msg.trick_cards.extend(_fipsen_cards(obs.trick_cards))
    msg.declarer_tricks = obs.declarer_tricks
    msg.defender_tricks = obs.defender_tricks
    msg.totals.extend(score(t) for t in obs.totals)


def _fipsen_action(obs: fipsen.FipsenObservation, action: int, out: pb.LegalAction) -> None:
    out.fipsen.CopyFrom(_fipsen_detail(action))
    if action == fipsen.Action.HOLD and obs.standing_bid is not None:
        _fipsen_bid(obs.standing_bid, out.fipsen.bid)


def _fipsen_round(obs: fipsen.FipsenObservation, out: pb.DealEnded) -> None:
    if obs.last_deal is not None:
        _fipsen_result(obs.last_deal, out.fipsen)


# ---- Scauver -----------------------------------------------------------------------------------

_FLANK = (pb.SCAUVER_FLANK_LEFT, pb.SCAUVER_FLANK_RIGHT)


def _scauver_move(action: int, hand: tuple[int, ...], out: pb.ScauverAction) -> None:
    """Fill ``out`` with the typed fields of a Scauver action id; ``hand`` is the acting seat's
    hand, needed only for the opening (the only id relative to the hand, and never public)."""
    if action < sc.FOLD:
        out.move = pb.SCAUVER_MOVE_CHIPS
        chip_action(action, out.chip)
    elif action == sc.FOLD:
        out.move = pb.SCAUVER_MOVE_FOLD
    elif action == sc.PROCEED:
        out.move = pb.SCAUVER_MOVE_PROCEED
    elif action == sc.NO_BET:
        out.move = pb.SCAUVER_MOVE_NO_BET
    elif action < sc.PLACE_PAIR:
        out.move = pb.SCAUVER_MOVE_PLACE
        card, flank = divmod(action - sc.PLACE, 2)
        out.placements.add(card=card40(card), flank=_FLANK[flank])
    elif action < sc.OPEN:
        out.move = pb.SCAUVER_MOVE_PLACE_PAIR
        left, right = divmod(action - sc.PLACE_PAIR, chips.DECK_SIZE)
        out.placements.add(card=card40(left), flank=pb.SCAUVER_FLANK_LEFT)
        out.placements.add(card=card40(right), flank=pb.SCAUVER_FLANK_RIGHT)
    else:
        out.move = pb.SCAUVER_MOVE_OPEN
        for card, flank in sc.open_choice(hand, action):
            out.placements.add(card=card40(card), flank=_FLANK[flank])


def _scauver_field(field: sc.Field, out: pb.ScauverField) -> None:
    out.left.extend(cards40(field[sc.LEFT]))
    out.right.extend(cards40(field[sc.RIGHT]))


@cache
def _scauver_detail(action: int) -> pb.ScauverAction:
    """A Scauver action's typed fields when its id names everything (any id but an opening's,
    so every public one): made once per id, a shared message copied, never modified."""
    out = pb.ScauverAction()
    _scauver_move(action, (), out)
    return out


_scauver_history = _history_encoder(pb.ScauverHistoryEntry, _scauver_detail)


def _scauver_result(result: sc.RoundResult, out: pb.ScauverRoundResult) -> None:
    out.round = result.round_index
    out.dealer = result.dealer
    for field in result.fields:
        _scauver_field(field, out.fields.add())
    for showing in result.showings:
        msg = out.showings.add(seat=showing.seat, difference=showing.difference)
        _scauver_field((showing.left, showing.right), msg.field)
        link = showing.link
        if link is not None and showing.score is not None:
            msg.has_link = True
            msg.score = showing.score
            msg.link.left.extend(cards40(link.left))
            msg.link.right.extend(cards40(link.right))
            msg.link.value = link.value
            msg.link.greater_cards, msg.link.lesser_cards = link.shape
    out.decided_by = cast(pb.ScauverCriterion, int(result.decided_by) + 1)
    chip_settlement(result.settlement, out.settlement)


def _scauver_phase(phase: sc.Phase) -> pb.ScauverPhase:
    if phase is sc.Phase.DRAW_DEALER:
        return pb.SCAUVER_PHASE_DEAL
    return cast(pb.ScauverPhase, int(phase))


def _scauver_observation(obs: sc.ScauverObservation, out: pb.Observation) -> None:
    msg = out.scauver
    _merge_past(msg, "past_rounds", obs.past_rounds, _scauver_history, _scauver_result)
    chip_table(obs.table, obs.round_cap, msg.table)
    msg.phase = _scauver_phase(obs.phase)
    if obs.to_act is not None:
        msg.to_act = obs.to_act
    if obs.turn_seat is not None:
        msg.turn_seat = obs.turn_seat
    msg.turn = obs.turn
    msg.hand.extend(cards40(obs.hand))
    for s, field in enumerate(obs.fields):
        seat = msg.seats.add(hand_size=obs.hand_sizes[s], opened=obs.opened[s])
        _scauver_field(field, seat.field)
    msg.stock_size = obs.stock_size
    msg.history.extend(_scauver_history(obs.history))


def _scauver_action(obs: sc.ScauverObservation, action: int, out: pb.LegalAction) -> None:
    if action < sc.OPEN:
        out.scauver.CopyFrom(_scauver_detail(action))
    else:
        _scauver_move(action, obs.hand, out.scauver)


def _scauver_round(obs: sc.ScauverObservation, out: pb.DealEnded) -> None:
    if obs.last_round is not None:
        _scauver_result(obs.last_round, out.scauver)


# ---- Felduz ----

_FELDUZ_MOVES = {
    felduz.NO_BET: pb.FELDUZ_MOVE_NO_BET,
    felduz.DRAW: pb.FELDUZ_MOVE_DRAW,
    felduz.STAND: pb.FELDUZ_MOVE_STAND,
    felduz.CONTINUE: pb.FELDUZ_MOVE_CONTINUE,
}


def _felduz_detail(action: int, hand: tuple[int, ...], out: pb.FelduzAction) -> None:
    """Fill ``out`` with a Felduz action's typed fields; ``hand`` (the acting seat's hand,
    sorted) is needed only for an opening split."""
    if chips.is_chip_action(action):
        out.move = pb.FELDUZ_MOVE_CHIPS
        chip_action(action, out.chip)
    elif action in _FELDUZ_MOVES:
        out.move = _FELDUZ_MOVES[action]
    elif action < felduz.REVEAL:
        out.move = pb.FELDUZ_MOVE_OPEN
        out.cards.extend(cards40(felduz.split_cards(hand, action - felduz.SPLIT)[0]))
    elif action < felduz.RESERVE:
        out.move = pb.FELDUZ_MOVE_REVEAL
        out.cards.append(card40(action - felduz.REVEAL))
    else:
        out.move = pb.FELDUZ_MOVE_RESERVE
        out.cards.extend(cards40(felduz.reserve_cards(action)))


def _is_split(action: int) -> bool:
    """An opening split: the one Felduz id whose cards depend on the hand (never public)."""
    return felduz.SPLIT <= action < felduz.REVEAL


@cache
def _felduz_public(action: int) -> pb.FelduzAction:
    """A Felduz action's typed fields when its id names everything (any id but a split's, so
    every public one): made once per id, a shared message copied, never modified."""
    out = pb.FelduzAction()
    _felduz_detail(action, (), out)
    return out


_felduz_history = _history_encoder(pb.FelduzHistoryEntry, _felduz_public)


def _felduz_result(result: felduz.RoundResult, out: pb.FelduzRoundResult) -> None:
    out.round = result.round
    out.dealer = result.dealer
    chip_settlement(result.settlement, out.settlement)
    for seat, field in enumerate(result.fields):
        reserve = result.reserves[seat]
        if field is not None and reserve is not None:
            out.shown.add(
                seat=seat,
                field=cards40(field),
                reserve=cards40(reserve),
                field_sum=felduz.field_sum(field),
                reserve_sum=felduz.field_sum(reserve),
            )
    for event in result.events:
        criterion = cast(pb.FelduzCriterion, event.criterion + 1)
        out.events.add(criterion=criterion, seats=event.seats)


def _felduz_observation(obs: felduz.FelduzObservation, out: pb.Observation) -> None:
    msg = out.felduz
    _merge_past(msg, "past_rounds", obs.past_rounds, _felduz_history, _felduz_result)
    msg.round = obs.round
    msg.round_cap = obs.round_cap
    msg.phase = cast(pb.FelduzPhase, obs.phase + 1)
    if obs.to_act is not None:
        msg.to_act = obs.to_act
    if obs.turn is not None:
        msg.turn = obs.turn
    msg.turn_start = cast(pb.FelduzTurnStart, obs.first + 1)
    chip_table(obs.table, obs.round_cap, msg.table)
    for s, opened in enumerate(obs.open_fields):
        msg.seats.add(
            open=cards40(opened),
            closed_count=obs.closed_counts[s],
            reserve_count=obs.reserve_counts[s],
            stood=obs.stood[s],
            chosen=obs.chosen[s],
        )
    msg.stock = obs.stock
    msg.closed.extend(cards40(obs.closed))
    msg.reserve.extend(cards40(obs.reserve))
    msg.history.extend(_felduz_history(obs.history))


def _felduz_action(obs: felduz.FelduzObservation, action: int, out: pb.LegalAction) -> None:
    if _is_split(action):
        _felduz_detail(action, obs.closed, out.felduz)
    else:
        out.felduz.CopyFrom(_felduz_public(action))


def _felduz_round(obs: felduz.FelduzObservation, out: pb.DealEnded) -> None:
    if obs.last_round is not None:
        _felduz_result(obs.last_round, out.felduz)


CODECS: dict[str, GameCodec] = {
    "as-nas": GameCodec(_as_nas_observation, _as_nas_action, _as_nas_round),
    "felduz": GameCodec(_felduz_observation, _felduz_action, _felduz_round),
    "fipsen": GameCodec(_fipsen_observation, _fipsen_action, _fipsen_round),
    "scauver": GameCodec(_scauver_observation, _scauver_action, _scauver_round),
}


# ---- arbiter -> bot ----------------------------------------------------------------------------

_REJECT = {
    Fault.ILLEGAL_ACTION: pb.REJECT_REASON_ILLEGAL_ACTION,
    Fault.STALE_REQUEST: pb.REJECT_REASON_STALE_REQUEST,
    Fault.TIMEOUT: pb.REJECT_REASON_TOO_LATE,
    Fault.UNEXPECTED_MESSAGE: pb.REJECT_REASON_UNEXPECTED_MESSAGE,
}
_OUTCOME = {
    Outcome.NORMAL: pb.SEAT_OUTCOME_NORMAL,
    Outcome.TIMEOUTS: pb.SEAT_OUTCOME_TIMEOUTS,
    Outcome.ILLEGAL_ACTIONS: pb.SEAT_OUTCOME_ILLEGAL_ACTIONS,
    Outcome.DISCONNECTED: pb.SEAT_OUTCOME_DISCONNECTED,
}


#: Arbiter messages that travel as ``PlayResponse.events`` (batched by the transport).
EVENT_TYPES = (ActionEvent, RoundStarted, RoundEnded)
EventMessage = ActionEvent | RoundStarted | RoundEnded


def encode_event(message: EventMessage, codec: GameCodec, out: pb.Event) -> None:
    """Fill ``out`` with the wire form of one public event."""
    out.step = message.step
    if isinstance(message, ActionEvent):
        taken = out.action_taken
        taken.seat = message.seat
        taken.action_id = message.action
        taken.label = message.label
        taken.by_arbiter = message.by_arbiter
    elif isinstance(message, RoundStarted):
        out.deal_started.deal_index = message.round_index
        out.deal_started.dealer = message.dealer
    else:
        ended = out.deal_ended
        ended.deal_index = message.round_index
        ended.deltas.extend(score(d) for d in message.deltas)
        ended.totals.extend(score(t) for t in message.totals)
        codec.round_detail(message.observation, ended)


def encode(
    message: Outbound | None, codec: GameCodec, events: Sequence[EventMessage] = ()
) -> pb.PlayResponse:
    """The wire form of one arbiter message (``None``: events only) preceded by ``events``.
    An event message goes last among the events: every event takes the same path."""
    if isinstance(message, EVENT_TYPES):
        return encode(None, codec, (*events, message))
    response = _encode(message, codec)
    for event in events:
        response.events.add().MergeFromString(
            _EVENTS.get(event, partial(_event_bytes, event, codec))
        )
    return response


def _event_bytes(event: EventMessage, codec: GameCodec) -> bytes:
    msg = pb.Event()
    encode_event(event, codec, msg)
    data: bytes = msg.SerializeToString()
    return data


def _encode(message: Outbound | None, codec: GameCodec) -> pb.PlayResponse:
    """The wire form of one arbiter message that is not an event (``None``: an empty one)."""
    if message is None:
        return pb.PlayResponse()
    if isinstance(message, DecisionRequest):
        response = pb.PlayResponse()
        decision = response.decision
        decision.request_id = message.request_id
        codec.observation(message.observation, decision.observation)
        clocks = decision.clocks
        clocks.move_time_ms = message.clocks.move_time_ms
        clocks.time_bank_ms = message.clocks.time_bank_ms
        clocks.last_latency_us = message.clocks.last_latency_us
        for action, label in zip(message.legal_actions, message.labels, strict=True):
            legal = decision.legal_actions.add(id=action, label=label)
            codec.action_detail(message.observation, action, legal)
        return response
    if isinstance(message, Rejection):
        return pb.PlayResponse(
            rejected=pb.ActionRejected(
                request_id=message.request_id,
                reason=_REJECT[message.fault],
                message=message.message,
                default_played=message.default_played,
            )
        )
    if isinstance(message, MatchOver):
        result = message.result
        return pb.PlayResponse(
            match_end=pb.MatchEnd(
                cancelled=result.cancelled,
                results=[
                    pb.SeatResult(
                        seat=r.seat,
                        bot_name=r.bot_name,
                        score=score(r.score),
                        place=r.place,
                        outcome=_OUTCOME[r.outcome],
                        timeouts=r.timeouts,
                        rejected=r.rejected,
                    )
                    for r in result.seats
                ],
            )
        )
    if isinstance(message, Welcome):
        return pb.PlayResponse(
            welcome=pb.Welcome(
                match_id=message.match_id,
                seat=message.seat,
                num_seats=message.num_seats,
                game=message.game,
                rules_version=message.rules_version,
                params=message.params,
                protocol_version=PROTOCOL_VERSION,
                clock_rules=pb.ClockRules(
                    move_time_ms=message.clock.move_time_ms,
                    time_bank_ms=message.clock.time_bank_ms,
                ),
            )
        )
    raise TypeError(f"no wire form for {type(message).__name__}")


# ---- bot -> arbiter ----------------------------------------------------------------------------


def decode(request: pb.PlayRequest) -> Inbound:
    """The arbiter's reading of one bot message after the handshake."""
    if request.WhichOneof("kind") == "action":
        return Reply(request.action.request_id, request.action.action_id)
    kind = request.WhichOneof("kind")
    return Unexpected(
        "an empty message" if kind is None else f"a {kind} message after the handshake"
    )
