"""The web page's public pages (``/api/pages/...``, docs/server.md, "Spectating"): a page per
bot (its rating history, its matches paged and filtered by game and opponent, its record
against each opponent, its faults), the standings sorted by the rating they show, the finished
matches paged, and a featured live match.

Unlike the rest of the page's backend (a spectator client of the control API), these are read
from the server's store directly, in its reader thread (:meth:`Storage.read`), and every answer
is built here from the public facts of a match only: its id, game, parameters, state, times,
decisions and rounds, and per seat the bot, score, place, outcome, timeouts and rejected
replies: what ``ListMatches`` shows a spectator. Never a seed, a replay path, a key or its
hash, an owner, nor a card: nothing here reads a replay.

The rating history is not stored apart: a rating is the fold of
:func:`~croupier.ladder.rate_match` over the server's finished matches of the ladder's game in
the order they finished (what ``GetStandings`` computes), so the rating after each match is
that fold's value at that match, recomputed exactly from what the store has kept since its
first match: a store of any age has its whole history, and a crash loses none of it (a match is
committed finished with its seats in one transaction). The fold is cached per game and carried
on over the matches finished since.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from croupier.ladder import Rating, initial_rating, rate_match
from croupier.serve._matches import HUMAN_SEAT
from croupier.serve._matches import _own_standings as own_standings
from croupier.serve._storage import Storage
from croupier.serve._store import FINISHED, RUNNING, STATES, ServerMatch, ServerStore
from croupier.serve._watch import MatchFeed

#: Rows of a page of matches unless asked (``limit``), and the most a page may have.
PAGE_SIZE, PAGE_MAX = 20, 100
#: Running matches looked at to choose the featured one.
FEATURED_SCAN = 500
_NAME = re.compile(r"[A-Za-z0-9._:@+-]{1,200}")

#: What each column of the standings means (the page shows these as the headers' titles).
COLUMNS = {
    "rank": "Place in this table: by rating, highest first.",
    "bot": "The registered bot; its name opens its page.",
    "rating": (
        "Conservative skill estimate, mu - 3 sigma: the skill the bot has with 99.7% "
        "confidence. The table is sorted on it."
    ),
    "mu": (
        "mu: the estimated skill (OpenSkill Plackett-Luce), updated after each rated match "
        "from the places at the table. A new bot starts at 25."
    ),
    "sigma": "sigma: the uncertainty of mu; it shrinks as the bot plays.",
    "matches": "Rated matches played (the ladder's game, finished matches only).",
    "score": "Mean score per match in the game's own points.",
    "faults": "Matches in which the bot timed out, sent an illegal action or disconnected.",
}


class PageError(Exception):
    """A request the pages cannot answer: an HTTP ``status`` and why (one line)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass(slots=True)
class _Fold:
    """The ratings fold of one game: each bot's rating after each of its matches, folded up to
    the ``count`` finished matches up to ``last`` ((ended_ms, id) of the last one)."""

    count: int
    last: tuple[int, str]
    ratings: dict[str, Rating]
    history: dict[str, list[dict[str, Any]]]


def _score(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{value}"


def public_match(match: ServerMatch, decisions: int | None = None) -> dict[str, Any]:
    """A match's public facts (see the module docstring): no seed, no replay, no detail."""
    results = {s.seat: s for s in match.seats}
    seats = []
    for seat, bot in enumerate(match.bots):
        entry: dict[str, Any] = {"seat": seat, "bot": bot}
        r = results.get(seat)
        if r is not None:
            entry.update(
                score=_score(r.score),
                place=r.place,
                outcome=r.outcome,
                timeouts=r.timeouts,
                rejected=r.rejected,
            )
        seats.append(entry)
    return {
        "match_id": match.match_id,
        "game": match.game,
        "params": dict(match.params),
        "state": match.state,
        "tournament": match.tournament,
        "created_ms": match.created_ms,
        "started_ms": match.started_ms,
        "ended_ms": match.ended_ms,
        "rounds": match.rounds,
        "decisions": match.decisions if decisions is None else decisions,
        "seats": seats,
    }


# -- reads, in the store's reader thread ------------------------------------------------------

#: The matches the ratings fold over: the server's own finished matches of a game, but a
#: person's match against bots (a ``human:web`` seat), which the standings leave out too.
_FINISHED_OWN = (
    "WHERE state = ? AND tournament = '' AND game = ? AND NOT EXISTS "
    f"(SELECT 1 FROM json_each(bots_json) WHERE value = '{HUMAN_SEAT}')"
)


def _finished_count(store: ServerStore, game: str) -> int:
    """How many of the server's own matches of ``game`` have finished (they never unfinish)."""
    sql = f"SELECT COUNT(*) FROM server_matches {_FINISHED_OWN}"
    return int(store.read_sql(sql, (FINISHED, game))[0][0])


def _latest_game(store: ServerStore) -> str:
    """The game of the latest finished match of the server's own (``""``: none)."""
    latest = [m for m in store.list_matches(FINISHED, 50) if not m.tournament]
    return latest[0].game if latest else ""


def _fold(store: ServerStore, game: str, cached: _Fold | None) -> _Fold:
    """The ratings fold of ``game``: ``cached`` carried on over the matches finished after its
    last one, if every match finished since comes after it in the fold's order (ended_ms, id);
    else folded again from the first match (a match committed with an earlier end)."""
    count = _finished_count(store, game)
    fold = cached
    if fold is not None and fold.count == count:
        return fold
    newer: list[ServerMatch] = []
    if fold is not None:
        newer = store.matches_where(
            f"{_FINISHED_OWN} AND (ended_ms > ? OR (ended_ms = ? AND id > ?))",
            (FINISHED, game, fold.last[0], fold.last[0], fold.last[1]),
            "ORDER BY ended_ms, id",
        )
        if fold.count + len(newer) != count:
            fold = None
    if fold is None:
        fold = _Fold(0, (0, ""), {}, {})
        newer = store.matches_where(_FINISHED_OWN, (FINISHED, game), "ORDER BY ended_ms, id")
    else:  # (a copy: a reader of the cached fold is never handed one half carried on)
        fold = _Fold(
            fold.count,
            fold.last,
            dict(fold.ratings),
            {bot: list(h) for bot, h in fold.history.items()},
        )
    current, history = fold.ratings, fold.history
    for match in newer:
        for s in match.seats:
            current.setdefault(s.bot, initial_rating())
        after = rate_match(current, match.record())
        current.update(after)
        for s in match.seats:
            rating = after.get(s.bot, current[s.bot])
            history.setdefault(s.bot, []).append(
                {
                    "match_id": match.match_id,
                    "ended_ms": match.ended_ms,
                    "place": s.place,
                    "mu": round(rating.mu, 4),
                    "sigma": round(rating.sigma, 4),
                }
            )
        fold.count += 1
        fold.last = (match.ended_ms, match.match_id)
    return fold


def _where_bot(bot: str, game: str, opponent: str, state: str | None) -> tuple[str, list[Any]]:
    """The WHERE clause of the server's own matches ``bot`` played (at a seat), of ``game`` and
    against ``opponent`` if given, in ``state`` if given."""
    clauses = ["tournament = ''", "EXISTS (SELECT 1 FROM json_each(bots_json) WHERE value = ?)"]
    args: list[Any] = [bot]
    if opponent:
        clauses.append("EXISTS (SELECT 1 FROM json_each(bots_json) WHERE value = ?) AND ? != ?")
        args += [opponent, opponent, bot]
    if game:
        clauses.append("game = ?")
        args.append(game)
    if state:
        clauses.append("state = ?")
        args.append(state)
    return "WHERE " + " AND ".join(clauses), args


def _page(
    store: ServerStore, where: str, args: Sequence[Any], offset: int, limit: int
) -> tuple[list[ServerMatch], int]:
    total = int(store.read_sql(f"SELECT COUNT(*) FROM server_matches {where}", args)[0][0])
    rows = store.matches_where(
        where, args, f"ORDER BY created_ms DESC, id DESC LIMIT {int(limit)} OFFSET {int(offset)}"
    )
    return rows, total


def _bot_matches(
    store: ServerStore, bot: str, game: str, opponent: str, offset: int, limit: int
) -> tuple[list[ServerMatch], int]:
    where, args = _where_bot(bot, game, opponent, None)
    return _page(store, where, args, offset, limit)


def _state_matches(
    store: ServerStore, state: str, offset: int, limit: int
) -> tuple[list[ServerMatch], int]:
    return _page(store, "WHERE state = ?", [state], offset, limit)


def _bot_summary(store: ServerStore, bot: str) -> dict[str, Any] | None:
    """A bot's public record: its registration (no owner, no key), the games and opponents of
    its matches, its record against each opponent and its faults; ``None`` if the server has
    neither registered it nor seen it play."""
    registered = {b.name: b for b in store.registered_bots()}.get(bot)
    where, args = _where_bot(bot, "", "", None)
    games = [
        r[0]
        for r in store.read_sql(
            f"SELECT DISTINCT game FROM server_matches {where} ORDER BY game", args
        )
    ]
    if registered is None and not games:
        return None
    finished = store.matches_where(*_where_bot(bot, "", "", FINISHED), "ORDER BY ended_ms, id")
    opponents: dict[str, list[int]] = {}
    faults: list[dict[str, Any]] = []
    totals = {"timeouts": 0, "rejected": 0, "illegal_actions": 0, "disconnected": 0}
    for match in finished:
        mine = [s for s in match.seats if s.bot == bot]
        for me in mine:
            for other in match.seats:
                if other.bot == bot:
                    continue
                wdl = opponents.setdefault(other.bot, [0, 0, 0])
                wdl[0 if me.place < other.place else 1 if me.place == other.place else 2] += 1
            totals["timeouts"] += me.timeouts
            totals["rejected"] += me.rejected
            if me.outcome in ("illegal_actions", "disconnected"):
                totals[me.outcome] += 1
            if me.timeouts or me.rejected or me.outcome != "normal":
                faults.append(
                    {
                        "match_id": match.match_id,
                        "game": match.game,
                        "ended_ms": match.ended_ms,
                        "outcome": me.outcome,
                        "timeouts": me.timeouts,
                        "rejected": me.rejected,
                    }
                )
    all_opponents = {
        r[0]
        for r in store.read_sql(
            f"SELECT DISTINCT j.value FROM server_matches, json_each(bots_json) AS j {where}",
            args,
        )
    }
    info: dict[str, Any] = {"name": bot, "registered": registered is not None}
    if registered is not None:
        info.update(
            games=list(registered.games),
            version=registered.bot_version,
            registered_ms=registered.created_ms,
            state="disabled" if registered.disabled or registered.revoked_ms else "enabled",
        )
    return {
        "bot": info,
        "games": games,
        "opponents": sorted(all_opponents - {bot}),
        "finished": len(finished),
        "head_to_head": [
            {"opponent": name, "wins": w, "draws": d, "losses": lo, "matches": w + d + lo}
            for name, (w, d, lo) in sorted(opponents.items())
        ],
        "faults": {
            **totals,
            "matches": len(faults),
            "recent": faults[::-1][:PAGE_SIZE],
        },
    }


# -- the pages --------------------------------------------------------------------------------


def _int(query: Mapping[str, list[str]], name: str, default: int, top: int) -> int:
    raw = (query.get(name) or [""])[0]
    if not raw:
        return default
    if not raw.isdigit() or len(raw) > 9:
        raise PageError(400, f"{name}: not a count")
    return min(int(raw), top)


def _text(query: Mapping[str, list[str]], name: str) -> str:
    raw = (query.get(name) or [""])[0]
    if raw and not _NAME.fullmatch(raw):
        raise PageError(400, f"{name}: not a name")
    return raw


class Pages:
    """The ``/api/pages/...`` answers, from ``storage`` (its reader thread), ``feeds`` (the
    running matches' live decision counts) and the ladder's game (``""``: that of the latest
    finished match, as ``GetStandings``)."""

    def __init__(
        self,
        storage: Storage,
        feeds: Mapping[str, MatchFeed],
        ladder_game: str,
        deal_set_open: Callable[[ServerMatch], bool] = lambda match: False,
        versions: Callable[[str], str] = lambda name: "",
    ) -> None:
        self._storage = storage
        #: What a registered bot says its version is (its session's SessionHello, now or last).
        self._versions = versions
        self._feeds = feeds
        #: Whether a match is a seating of a duplicate set still being played: its live
        #: decision count is not shown (0), as ``ListMatches`` does for a spectator.
        self._deal_set_open = deal_set_open
        self._ladder_game = ladder_game
        self._folds: dict[str, _Fold] = {}
        #: The last standings answer and the (game, finished matches) it was made from.
        self._standings: tuple[tuple[str, int], dict[str, Any]] | None = None

    async def get(self, path: str, query: Mapping[str, list[str]]) -> Any:
        """The answer to ``GET path?query`` (``path`` after ``/api/pages``); :class:`PageError`
        for a page there is not or a query it cannot read."""
        parts = path.strip("/").split("/")
        if parts == ["standings"]:
            return await self.standings()
        if parts == ["featured"]:
            return await self.featured()
        if parts == ["matches"]:
            state = (query.get("state") or [FINISHED])[0]
            if state not in STATES:
                raise PageError(400, f"state: unknown state {state[:20]!r}")
            offset = _int(query, "offset", 0, 1 << 30)
            limit = max(1, _int(query, "limit", PAGE_SIZE, PAGE_MAX))
            rows, total = await self._storage.read(_state_matches, state, offset, limit)
            return self._paged(rows, total, offset, limit)
        if len(parts) in (2, 3) and parts[0] == "bots" and _NAME.fullmatch(parts[1]):
            if len(parts) == 2:
                return await self.bot(parts[1])
            if parts[2] == "matches":
                offset = _int(query, "offset", 0, 1 << 30)
                limit = max(1, _int(query, "limit", PAGE_SIZE, PAGE_MAX))
                rows, total = await self._storage.read(
                    _bot_matches,
                    parts[1],
                    _text(query, "game"),
                    _text(query, "opponent"),
                    offset,
                    limit,
                )
                return self._paged(rows, total, offset, limit)
        raise PageError(404, f"no page /api/pages{path}")

    def _live(self, match: ServerMatch) -> dict[str, Any]:
        feed = self._feeds.get(match.match_id) if match.state == RUNNING else None
        if feed is not None and match.deal_set and self._deal_set_open(match):
            return public_match(match, 0)  # (a duplicate set's seating: see ListMatches)
        return public_match(match, None if feed is None else feed.decisions)

    def _paged(
        self, rows: Sequence[ServerMatch], total: int, offset: int, limit: int
    ) -> dict[str, Any]:
        return {
            "matches": [self._live(m) for m in rows],
            "total": total,
            "offset": offset,
            "limit": limit,
        }

    async def _ratings(self, game: str) -> _Fold:
        fold = await self._storage.read(_fold, game, self._folds.get(game))
        self._folds[game] = fold
        return fold

    async def _game(self) -> str:
        """The standings' game: the ladder's, else the latest finished match's (as
        ``GetStandings``)."""
        if self._ladder_game:
            return self._ladder_game
        return await self._storage.read(_latest_game)

    async def standings(self) -> dict[str, Any]:
        """The standings of the server's own matches (``GetStandings``' rows), sorted by the
        rating they show (mu - 3 sigma, then mu, then name), with what each column means."""
        game = await self._game()
        count = await self._storage.read(_finished_count, game)
        if self._standings is not None and self._standings[0] == (game, count):
            return self._standings[1]  # (no match of the game has finished since)
        game, table = await self._storage.read(own_standings, game)
        ordered = sorted(table.bots, key=lambda b: (-b.rating.ordinal, -b.rating.mu, b.name))
        rows: list[dict[str, Any]] = [
            {
                "rank": rank,
                "bot_name": b.name,
                "rating": round(b.rating.ordinal, 4),
                "mu": round(b.rating.mu, 4),
                "sigma": round(b.rating.sigma, 4),
                "matches": b.matches,
                "mean_score": b.score.mean if b.matches else 0.0,
                "faults": b.faults,
            }
            for rank, b in enumerate(ordered, 1)
        ]
        answer = {"game": game, "rows": rows, "columns": COLUMNS}
        self._standings = ((game, count), answer)
        return answer

    async def featured(self) -> dict[str, Any]:
        """The running match whose table is rated highest (the mean mu of its seats in the
        ladder's game; a bot without a rated match counts as new), the latest on a tie;
        ``{"match": null}`` if none is running."""
        running = await self._storage.read(ServerStore.list_matches, RUNNING, FEATURED_SCAN)
        if not running:
            return {"match": None}
        ratings = (await self._ratings(await self._game())).ratings
        new = initial_rating()

        def table(m: ServerMatch) -> float:
            return sum(ratings.get(b, new).mu for b in m.bots) / max(1, len(m.bots))

        best = max(running, key=lambda m: (table(m), m.created_ms, m.match_id))
        shown = self._live(best)
        shown["table_rating"] = round(table(best), 4)
        for seat in shown["seats"]:
            rating = ratings.get(seat["bot"])
            seat["mu"] = None if rating is None else round(rating.mu, 4)
        return {"match": shown}

    async def bot(self, name: str) -> dict[str, Any]:
        """A bot's page: see :func:`_bot_summary`, with its rating and its rating after each
        of its rated matches (the ladder's game)."""
        summary = await self._storage.read(_bot_summary, name)
        if summary is None:
            raise PageError(404, f"no bot {name!r} on this server")
        if summary["bot"]["registered"]:
            summary["bot"]["version"] = self._versions(name) or summary["bot"]["version"]
        game = await self._game()
        fold = await self._ratings(game) if game else None
        rating = fold.ratings.get(name) if fold else None
        summary["rating"] = {
            "game": game,
            "mu": None if rating is None else round(rating.mu, 4),
            "sigma": None if rating is None else round(rating.sigma, 4),
            "history": fold.history.get(name, []) if fold else [],
        }
        return summary
