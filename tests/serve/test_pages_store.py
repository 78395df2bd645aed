"""The public pages' reads of the server store (serve/_pages.py), on a real store: the featured
match is the running table rated highest; the rating history is the standings' fold, kept by
nothing but the finished matches (so a store that never recorded a history has all of it);
faults and head to head are counted per seat."""

from __future__ import annotations

import asyncio
import dataclasses
from fractions import Fraction
from pathlib import Path

from serve_kit import server_match

from croupier.ladder import SeatRecord, openskill_ratings
from croupier.serve._matches import HUMAN_SEAT
from croupier.serve._pages import Pages
from croupier.serve._storage import Storage
from croupier.serve._store import ServerStore


def _finish(
    store: ServerStore,
    i: int,
    bots: tuple[str, str],
    seats: tuple[SeatRecord, ...],
    ended: int | None = None,
) -> None:
    match = dataclasses.replace(server_match(i), bots=bots)
    assert store.create_match(match)
    assert store.mark_running(match.match_id, 2000 + i)
    assert store.finish_match(
        match.match_id,
        ended_ms=3000 + i if ended is None else ended,
        rounds=1,
        decisions=10,
        replay_path=f"replays/{match.match_id}.jsonl",
        replay_sha256="ab",
        seats=seats,
    )


def _won(winner: str, loser: str, *, faults: bool = False) -> tuple[SeatRecord, ...]:
    return (
        SeatRecord(0, winner, Fraction(1), 1, "normal", 0, 0),
        SeatRecord(1, loser, Fraction(-1), 2, "timeouts" if faults else "normal", 2 * faults, 0),
    )


def _pages(tmp_path: Path) -> tuple[Storage, Pages]:
    storage, _, _ = Storage.open(tmp_path / "s.sqlite", tmp_path, tmp_path / "replays")
    return storage, Pages(storage, {}, "fipsen")


def test_the_featured_match_is_the_running_table_rated_highest(tmp_path: Path) -> None:
    asyncio.run(_featured(tmp_path))


async def _featured(tmp_path: Path) -> None:
    storage, pages = _pages(tmp_path)
    store = storage.writes
    try:
        for i in range(6):  # a beats b again and again: a is rated highest, b lowest
            _finish(store, i, ("a", "b"), _won("a", "b"))
        tables = {10: ("b", "d"), 11: ("a", "c"), 12: ("c", "d"), 13: ("b", "c")}
        for i, bots in tables.items():
            match = dataclasses.replace(server_match(i, created=5000 - i), bots=bots)
            assert store.create_match(match)
            assert store.mark_running(match.match_id, 6000)
        featured = (await pages.featured())["match"]
        assert featured["match_id"] == "m011"
        assert [s["bot"] for s in featured["seats"]] == ["a", "c"]
        assert featured["seats"][1]["mu"] is None  # c has no rated match
        assert featured["table_rating"] > 25
        assert "seed" not in featured
    finally:
        storage.close()


def test_the_rating_history_is_the_fold_of_the_finished_matches(tmp_path: Path) -> None:
    asyncio.run(_history(tmp_path))


async def _history(tmp_path: Path) -> None:
    storage, pages = _pages(tmp_path)
    store = storage.writes
    try:
        results = [("a", "b"), ("b", "a"), ("a", "c"), ("c", "b"), ("a", "b")]
        for i, (w, lo) in enumerate(results):
            _finish(store, i, (w, lo), _won(w, lo, faults=lo == "b"))
        page = await pages.bot("b")
        history = page["rating"]["history"]
        assert [h["match_id"] for h in history] == ["m000", "m001", "m003", "m004"]
        matches = store.finished("", "fipsen")
        for n, h in enumerate(history):  # after each of b's matches: the fold up to it
            upto = [m.record() for m in matches if m.ended_ms <= h["ended_ms"]]
            expected = openskill_ratings(upto, ["a", "b", "c"])["b"]
            assert (h["mu"], h["sigma"]) == (round(expected.mu, 4), round(expected.sigma, 4)), n
        assert page["faults"]["timeouts"] == 2 * 3
        assert page["faults"]["matches"] == 3
        h2h = {h["opponent"]: (h["wins"], h["draws"], h["losses"]) for h in page["head_to_head"]}
        assert h2h == {"a": (1, 0, 2), "c": (0, 0, 1)}
        # one more finished match: the cached fold is replaced, not served stale
        _finish(store, 9, ("b", "c"), _won("b", "c"))
        again = (await pages.bot("b"))["rating"]["history"]
        assert [h["match_id"] for h in again][-1] == "m009"
        # one committed with an earlier end than the last folded: the fold starts over, and
        # agrees with a fold made from nothing
        _finish(store, 8, ("c", "b"), _won("c", "b"), ended=3002)
        fresh = Pages(storage, {}, "fipsen")
        for bot in ("a", "b", "c"):
            carried = (await pages.bot(bot))["rating"]
            assert carried == (await fresh.bot(bot))["rating"], bot
        assert "m008" in [h["match_id"] for h in carried["history"]]
    finally:
        storage.close()


def test_the_standings_are_sorted_by_rating_and_follow_each_new_match(tmp_path: Path) -> None:
    asyncio.run(_standings(tmp_path))


async def _standings(tmp_path: Path) -> None:
    storage, pages = _pages(tmp_path)
    store = storage.writes
    try:
        for i in range(3):
            _finish(store, i, ("a", "b"), _won("a", "b"))
        first = await pages.standings()
        assert [r["bot_name"] for r in first["rows"]] == ["a", "b"]
        assert [r["matches"] for r in first["rows"]] == [3, 3]
        for i in range(3, 9):  # c beats a every time: c passes it
            _finish(store, i, ("c", "a"), _won("c", "a"))
        # d wins its one match by the most points: first by score, not by rating (its sigma
        # is still wide)
        big = (
            SeatRecord(0, "d", Fraction(5), 1, "normal", 0, 0),
            SeatRecord(1, "b", Fraction(-5), 2, "normal", 0, 0),
        )
        _finish(store, 9, ("d", "b"), big)
        rows = (await pages.standings())["rows"]
        assert [r["matches"] for r in rows if r["bot_name"] == "a"] == [9]
        ratings = [r["rating"] for r in rows]
        assert ratings == sorted(ratings, reverse=True)
        assert rows[0]["bot_name"] == "c"
        assert [r["rank"] for r in rows] == [1, 2, 3, 4]
        assert [r["bot_name"] for r in rows].index("d") > 0
    finally:
        storage.close()


def test_a_persons_match_against_bots_is_not_in_the_rating_history(tmp_path: Path) -> None:
    asyncio.run(_human(tmp_path))


async def _human(tmp_path: Path) -> None:
    """The standings leave out a match with a human seat (``human:web``: "play vs bots"), so
    a bot's page does too: its rating there is the standings' rating."""
    storage, pages = _pages(tmp_path)
    store = storage.writes
    try:
        _finish(store, 0, ("a", "b"), _won("a", "b"))
        _finish(store, 1, (HUMAN_SEAT, "a"), _won(HUMAN_SEAT, "a"))
        page = await pages.bot("a")
        assert [h["match_id"] for h in page["rating"]["history"]] == ["m000"]
        row = next(r for r in (await pages.standings())["rows"] if r["bot_name"] == "a")
        assert (page["rating"]["mu"], page["rating"]["sigma"]) == (row["mu"], row["sigma"])
    finally:
        storage.close()
