"""Tournaments: formats and seatings, duplicate sets, the SQLite store, executors (local and
Ray), ratings and statistics. ``docs/ladder.md`` is the guide.

::

    config = load_config(Path("ladder.toml"))
    summary = asyncio.run(run_tournament(config))
    info, table = store_standings(config.store)

Also what ``croupier serve`` builds on (its ladder and its own store): the rating fold, the
match job, and the SQLite kit both stores are opened with.
"""

from croupier.ladder._config import (
    EXECUTORS,
    REMOTE,
    RESTARTS,
    BotSpec,
    FormatSpec,
    SprtSpec,
    TournamentConfig,
    load_config,
    parse_config,
    parse_override,
    same_program,
    with_runtime,
)
from croupier.ladder._play import (
    MatchJob,
    MatchWatch,
    Played,
    ResolvedBot,
    SeatEntry,
    play_job,
    resolve_bot,
    seat_entry,
)
from croupier.ladder._schedule import Schedule, Seeder, Slot, deal_script, seatings
from croupier.ladder._sqlite import SQLiteStore, private_file
from croupier.ladder._sqlite import connect as connect_sqlite
from croupier.ladder._stats import (
    Interval,
    Rating,
    Standings,
    initial_rating,
    openskill_ratings,
    rate_match,
    standings,
)
from croupier.ladder._store import (
    SEAT_COLUMNS,
    MatchRecord,
    SeatRecord,
    Store,
    open_store,
    read_store,
    seat_record,
    seat_rows,
)
from croupier.ladder._tournament import (
    Progress,
    Summary,
    check_launch,
    relative_path,
    results_path,
    run_tournament,
    store_standings,
)

__all__ = [
    "EXECUTORS",
    "REMOTE",
    "RESTARTS",
    "SEAT_COLUMNS",
    "BotSpec",
    "FormatSpec",
    "Interval",
    "MatchJob",
    "MatchRecord",
    "MatchWatch",
    "Played",
    "Progress",
    "Rating",
    "ResolvedBot",
    "SQLiteStore",
    "Schedule",
    "SeatEntry",
    "SeatRecord",
    "Seeder",
    "Slot",
    "SprtSpec",
    "Standings",
    "Store",
    "Summary",
    "TournamentConfig",
    "check_launch",
    "connect_sqlite",
    "deal_script",
    "initial_rating",
    "load_config",
    "open_store",
    "openskill_ratings",
    "parse_config",
    "parse_override",
    "play_job",
    "private_file",
    "rate_match",
    "read_store",
    "relative_path",
    "resolve_bot",
    "results_path",
    "run_tournament",
    "same_program",
    "seat_entry",
    "seat_record",
    "seat_rows",
    "seatings",
    "standings",
    "store_standings",
    "with_runtime",
]
