"""Runs one match between seats: clocks, fault policy, public events, results.

Pure asyncio; no proto types and no files: the transport fills and drains each seat's
:class:`SeatLink`, and a :class:`Recorder` (the replay writer) records the match.
"""

from typing import TYPE_CHECKING

from croupier._lazy import facade
from croupier.errors import ClaimError

if TYPE_CHECKING:
    from croupier.arbiter._commit import JOINED as JOINED_SEAT_FIELDS
    from croupier.arbiter._commit import SCHEME as COMMIT_SCHEME
    from croupier.arbiter._commit import TERMS as COMMITTED_TERMS
    from croupier.arbiter._commit import commitment as deal_commitment
    from croupier.arbiter._commit import commitment_v2 as match_commitment
    from croupier.arbiter._commit import header_terms, script_digest, terms_digest
    from croupier.arbiter._config import MatchConfig
    from croupier.arbiter._faults import (
        FaultClass,
        FaultPolicy,
        Policy,
        fault_class,
        forfeit_places,
    )
    from croupier.arbiter._match import Match, Recorder, SeatInfo, decision_request
    from croupier.arbiter._seat import SeatLink
    from croupier.arbiter._seeds import (
        SEED_BITS,
        SEED_LIMIT,
        bot_seed,
        check_seed,
        explicit_key,
        keyed_seed,
        new_secret,
        random_seed,
        searchable,
        searchable_warning,
    )
    from croupier.arbiter._types import (
        ActionEvent,
        ClockKind,
        ClockRules,
        Clocks,
        DecisionRequest,
        DecisionTiming,
        Fault,
        Gone,
        Inbound,
        MatchOver,
        MatchResult,
        Outbound,
        Outcome,
        Rejection,
        Reply,
        RoundEnded,
        RoundStarted,
        SeatResult,
        SeatStats,
        Unexpected,
        Welcome,
    )

# Each name is imported from its module when it is first read (croupier._lazy).
__getattr__, __dir__ = facade(
    __name__,
    {
        "JOINED_SEAT_FIELDS": "_commit:JOINED",
        "COMMIT_SCHEME": "_commit:SCHEME",
        "COMMITTED_TERMS": "_commit:TERMS",
        "deal_commitment": "_commit:commitment",
        "match_commitment": "_commit:commitment_v2",
        "header_terms": "_commit",
        "script_digest": "_commit",
        "terms_digest": "_commit",
        "FaultClass": "_faults",
        "FaultPolicy": "_faults",
        "Policy": "_faults",
        "fault_class": "_faults",
        "forfeit_places": "_faults",
        "Match": "_match",
        "MatchConfig": "_config",
        "Recorder": "_match",
        "SeatInfo": "_match",
        "decision_request": "_match",
        "SeatLink": "_seat",
        "SEED_BITS": "_seeds",
        "SEED_LIMIT": "_seeds",
        "bot_seed": "_seeds",
        "check_seed": "_seeds",
        "explicit_key": "_seeds",
        "keyed_seed": "_seeds",
        "new_secret": "_seeds",
        "random_seed": "_seeds",
        "searchable": "_seeds",
        "searchable_warning": "_seeds",
        "ActionEvent": "_types",
        "ClockKind": "_types",
        "ClockRules": "_types",
        "Clocks": "_types",
        "DecisionRequest": "_types",
        "DecisionTiming": "_types",
        "Fault": "_types",
        "Gone": "_types",
        "Inbound": "_types",
        "MatchOver": "_types",
        "MatchResult": "_types",
        "Outbound": "_types",
        "Outcome": "_types",
        "Rejection": "_types",
        "Reply": "_types",
        "RoundEnded": "_types",
        "RoundStarted": "_types",
        "SeatResult": "_types",
        "SeatStats": "_types",
        "Unexpected": "_types",
        "Welcome": "_types",
    },
)

__all__ = [
    "COMMITTED_TERMS",
    "COMMIT_SCHEME",
    "JOINED_SEAT_FIELDS",
    "SEED_BITS",
    "SEED_LIMIT",
    "ActionEvent",
    "ClaimError",
    "ClockKind",
    "ClockRules",
    "Clocks",
    "DecisionRequest",
    "DecisionTiming",
    "Fault",
    "FaultClass",
    "FaultPolicy",
    "Gone",
    "Inbound",
    "Match",
    "MatchConfig",
    "MatchOver",
    "MatchResult",
    "Outbound",
    "Outcome",
    "Policy",
    "Recorder",
    "Rejection",
    "Reply",
    "RoundEnded",
    "RoundStarted",
    "SeatInfo",
    "SeatLink",
    "SeatResult",
    "SeatStats",
    "Unexpected",
    "Welcome",
    "bot_seed",
    "check_seed",
    "deal_commitment",
    "decision_request",
    "explicit_key",
    "fault_class",
    "forfeit_places",
    "header_terms",
    "keyed_seed",
    "match_commitment",
    "new_secret",
    "random_seed",
    "script_digest",
    "searchable",
    "searchable_warning",
    "terms_digest",
]
