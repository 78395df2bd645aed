"""The wire messages an in-process bot is handed (a bot of the Python SDK, driven through its
``croupier_bot.Seat``): exactly those of the arbiter's in-process play (``play_local``) and so of
a match over gRPC, built from the seat's observation by the game's codec.

Written here rather than imported: the environments sit on the rules (``games/``) and nothing
above them; ``tests/env`` checks these messages against the transport's, byte for byte.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from croupier import PROTOCOL_VERSION
from croupier.env._match import RoundEnd
from croupier.games import ActionRuns, GameSpec, score
from croupier.v1 import bot_pb2 as pb

#: The match id in-process play gives (as ``play_local``).
MATCH_ID = "local"
#: The clock rules of in-process play: no clock (``ClockRules(0, 0)`` and its defaults).
_CLOCK = pb.ClockRules(
    move_time_ms=0, time_bank_ms=0, kind=pb.CLOCK_KIND_WALL, margin_ms=50, cpu_wall_guard_ms=10000
)


def welcome(spec: GameSpec, params: Mapping[str, int], seat: int, seats: int) -> pb.PlayResponse:
    """The Welcome of ``seat``."""
    info = spec.game.info
    return pb.PlayResponse(
        welcome=pb.Welcome(
            match_id=MATCH_ID,
            seat=seat,
            num_seats=seats,
            game=info.name,
            rules_version=info.version,
            params=dict(params),
            protocol_version=PROTOCOL_VERSION,
            clock_rules=_CLOCK,
        )
    )


def decision(
    spec: GameSpec,
    state: Any,
    seat: int,
    request_id: int,
    legal: tuple[int, ...],
    events: Sequence[RoundEnd] = (),
) -> pb.PlayResponse:
    """The decision request of ``seat``, to act in ``state``, after ``events``."""
    game, codec = spec.game, spec.codec
    observation = game.observe(state, seat)
    response = pb.PlayResponse()
    _events(spec, events, response)
    message = response.decision
    message.request_id = request_id
    codec.observation(observation, message.observation)
    message.clocks.SetInParent()
    ranged = codec.amount_runs(ActionRuns.of_ids(legal))  # (the codec finds runs by arithmetic)
    runs = {start: (stop, lowest, step) for start, stop, lowest, step in ranged}
    i, n = 0, len(legal)
    while i < n:
        action = legal[i]
        entry = message.legal_actions.add(id=action, label=game.action_label(state, action))
        codec.action_detail(observation, action, entry)
        run = runs.get(i)
        if run is None:
            i += 1
            continue
        stop, lowest, step = run
        entry.amounts.lowest = lowest
        entry.amounts.highest = lowest + legal[stop - 1] - action
        entry.amounts.step = step
        i = stop
    return response


def events(spec: GameSpec, ended: Sequence[RoundEnd]) -> pb.PlayResponse:
    """A message with the round ends ``ended`` only (the last ones of a match)."""
    response = pb.PlayResponse()
    _events(spec, ended, response)
    return response


def _events(spec: GameSpec, ended: Sequence[RoundEnd], out: pb.PlayResponse) -> None:
    for end in ended:
        event = out.events.add()
        event.step = end.step
        deal = event.deal_ended
        deal.deal_index = end.round_index
        deal.deltas.extend(score(d) for d in end.deltas)
        deal.totals.extend(score(t) for t in end.totals)
        spec.codec.round_detail(end.public, deal)
