"""As-Nas on the wire: observations, action details and deal results as ``croupier.v1`` messages."""

from __future__ import annotations

from typing import cast

from croupier.games._codec_kit import GameCodec, deal_header, merge_past, score
from croupier.games.as_nas import rules as as_nas
from croupier.v1 import as_nas_pb2
from croupier.v1 import bot_pb2 as pb


def _rank(rank: int) -> as_nas_pb2.AsNasRank:
    return cast(as_nas_pb2.AsNasRank, rank + 1)


def _move(action: int) -> as_nas_pb2.AsNasMove:
    return cast(as_nas_pb2.AsNasMove, action + 1)


def _result(result: as_nas.DealResult, out: as_nas_pb2.AsNasDealResult) -> None:
    out.deal_index = result.deal_index
    out.dealer = result.dealer
    for seat, ranks in enumerate(result.revealed):
        if ranks is not None:
            out.shown.add(seat=seat, ranks=[_rank(r) for r in ranks])
    out.winners.extend(result.winners)
    out.pot = result.pot
    out.deltas.extend(score(d) for d in result.deltas)


def _history(history: tuple[tuple[int, int], ...]) -> list[as_nas_pb2.AsNasHistoryEntry]:
    return [as_nas_pb2.AsNasHistoryEntry(seat=s, move=_move(a)) for s, a in history]


def _observation(obs: as_nas.AsNasObservation, out: pb.Observation) -> None:
    msg = out.as_nas
    merge_past(msg, "past_deals", obs.past_deals, _history, _result)
    deal_header(msg, obs)
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
    msg.history.extend(_history(obs.history))


def _action(obs: as_nas.AsNasObservation, action: int, out: pb.LegalAction) -> None:
    seat = obs.to_act if obs.to_act is not None else 0
    stake = obs.stakes[seat]
    if action == as_nas.Action.CALL:
        stake = obs.high
    elif action == as_nas.Action.RAISE:
        stake = obs.high + 1
    out.as_nas.move = _move(action)
    out.as_nas.stake_after = stake


def _round(obs: as_nas.AsNasObservation, out: pb.DealEnded) -> None:
    if obs.last_deal is not None:
        _result(obs.last_deal, out.as_nas)


#: The As-Nas codec registered in the game's spec.
CODEC = GameCodec(_observation, _action, _round)
