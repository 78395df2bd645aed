"""What defines a match (:class:`MatchConfig`): read by the match loop (``_match``) and by the
commitment to its terms (``_commit``), and by every host that starts one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from croupier import _defaults as defaults
from croupier.arbiter._faults import FaultPolicy
from croupier.arbiter._types import ClockRules


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """What defines a match. ``params`` are validated against the game's declared parameters."""

    game: str
    params: Mapping[str, int] = field(default_factory=dict)
    seed: int = 0
    clock: ClockRules = field(default_factory=ClockRules)
    connect_timeout_s: float = defaults.CONNECT_TIMEOUT_S
    #: Chance outcomes to use, in order, before the seed draws any (duplicate play: the deals of
    #: another match, with the seats rotated; also how tests change what a seat cannot see).
    chance_script: tuple[tuple[int, ...], ...] = ()
    #: What each class of fault costs the seat (``croupier.arbiter._faults``).
    fault_policy: FaultPolicy = field(default_factory=FaultPolicy)
    #: How long a bot that dialed in (not a launched one) may be away after its connection
    #: drops and come back with its token to the pending decision; 0: no reconnect.
    reconnect_grace_s: float = 0.0
    #: How long a public event may wait for the next message to its seat before it is sent in
    #: an events-only message of its own, in milliseconds; 0: it always waits for that message
    #: (fewer messages: a throughput setting for ladders whose bots do not think between turns).
    event_flush_ms: int = defaults.EVENT_FLUSH_MS
    #: Per seat (empty, or one entry per seat): fields the organiser sets on the seat's object
    #: in the replay header, known before the match starts: the commitment binds them
    #: (``_commit.match_terms``). ``registered_name`` is the name the host knows the seat's bot
    #: by (a competition server's registered name): the seat's bot is that, whatever name it
    #: says in its Hello (kept as its self-description).
    seat_roster: tuple[Mapping[str, str | int | bool], ...] = ()
    #: Keep the reveal (seed, salt, script digest) out of the bots' ``MatchOver``: a seating of a
    #: duplicate set, whose deals other seatings of the set still play. The replay keeps it.
    withhold_reveal: bool = False
