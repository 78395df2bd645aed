"""Tournaments: formats and seatings, duplicate sets, the SQLite store, executors (local and
Ray), ratings and statistics. ``docs/ladder.md`` is the guide.

::

    config = load_config(Path("ladder.toml"))
    summary = asyncio.run(run_tournament(config))
    info, table = store_standings(config.store)
"""

from croupier.ladder._config import (
    REMOTE,
    BotSpec,
    FormatSpec,
    SprtSpec,
    TournamentConfig,
    load_config,
    parse_config,
    parse_override,
)
from croupier.ladder._play import (
    MatchWatch,
    Played,
    ResolvedBot,
    SeatEntry,
    resolve_bot,
    seat_entry,
)
from croupier.ladder._schedule import Schedule, Seeder, Slot, deal_script, seatings
from croupier.ladder._stats import Interval, Standings
from croupier.ladder._store import MatchRecord, SeatRecord, open_store, read_store
from croupier.ladder._tournament import (
    Progress,
    Summary,
    check_launch,
    results_path,
    run_tournament,
    store_standings,
)

__all__ = [
    "REMOTE",
    "BotSpec",
    "FormatSpec",
    "Interval",
    "MatchRecord",
    "MatchWatch",
    "Played",
    "Progress",
    "ResolvedBot",
    "Schedule",
    "SeatEntry",
    "SeatRecord",
    "Seeder",
    "Slot",
    "SprtSpec",
    "Standings",
    "Summary",
    "TournamentConfig",
    "check_launch",
    "deal_script",
    "load_config",
    "open_store",
    "parse_config",
    "parse_override",
    "read_store",
    "resolve_bot",
    "results_path",
    "run_tournament",
    "seat_entry",
    "seatings",
    "store_standings",
]
