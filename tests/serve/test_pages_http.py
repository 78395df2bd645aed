"""The web page's public pages over plain HTTP (``/api/pages/...``, serve/_pages.py) against a
real ``croupier serve`` whose registered bots (real processes of the Python SDK) have played a
few real matches: a bot's page (its rating after each rated match, agreeing with
GetStandings; its matches paged and filtered; head to head; faults), the standings sorted by
the rating they show with every column explained, the finished matches paged, and that no
answer holds anything a spectator may not see (an owner, a key, its hash, a seed, a replay
path)."""

from __future__ import annotations

import hashlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from serve_kit import Control, ServeProcess, start_bot, stop_bots, wait_connected, wait_state

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

BOTS = ("alice", "bob", "carol")
OWNER = "owner-contact-7f3a@example.org"
#: (seat 0, seat 1) of each match played, in order.
PAIRS = [
    ("alice", "bob"),
    ("bob", "carol"),
    ("alice", "carol"),
    ("bob", "alice"),
    ("carol", "alice"),
]


@dataclass
class Played:
    server: ServeProcess
    control: Control
    keys: dict[str, str]
    match_ids: list[str]
    #: Wall-clock milliseconds just before and just after the bots were registered.
    registered: tuple[int, int]

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.server.web_url.rstrip("/") + path, timeout=30) as r:
            return json.loads(r.read())

    def raw(self, path: str) -> tuple[int, bytes]:
        try:
            with urllib.request.urlopen(self.server.web_url.rstrip("/") + path, timeout=30) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    tmp = tmp_path_factory.mktemp("pages")
    server = ServeProcess(tmp / "state", "--web-listen", "127.0.0.1:0")
    control = Control(server.control_address, server.operator_key)
    procs = []
    try:
        before_ms = time.time_ns() // 1_000_000
        keys = {
            n: control.RegisterBot(cpb.RegisterBotRequest(bot_name=n, owner=OWNER)).key
            for n in BOTS
        }
        registered = (before_ms, time.time_ns() // 1_000_000)
        for seed, name in enumerate(BOTS, start=1):
            procs.append(
                start_bot(
                    server.bot_address, keys[name], log=tmp / f"{name}.log", CROUPIER_SEED=str(seed)
                )
            )
        wait_connected(control, BOTS)
        ids = []
        for i, pair in enumerate(PAIRS):
            request = cpb.CreateMatchRequest(
                game="scauver", params={"players": 2, "round_cap": 1}, bots=list(pair), seed=i + 1
            )
            ids.append(control.CreateMatch(request).match.match_id)
            wait_state(control, ids[-1], [cpb.MATCH_STATE_FINISHED])
        yield Played(server, control, keys, ids, registered)
    finally:
        server.stop()
        stop_bots(procs)
        control.close()


def test_a_bot_page_has_its_rating_after_each_match_as_the_standings_fold_it(
    played: Played,
) -> None:
    page = played.get("/api/pages/bots/alice")
    mine = [m for m, pair in zip(played.match_ids, PAIRS, strict=True) if "alice" in pair]
    history = page["rating"]["history"]
    assert [h["match_id"] for h in history] == mine
    assert page["rating"]["game"] == "scauver"
    standings = played.control.GetStandings(cpb.GetStandingsRequest())
    row = next(r for r in standings.rows if r.bot_name == "alice")
    assert history[-1]["mu"] == pytest.approx(row.mu, abs=1e-3)
    assert history[-1]["sigma"] == pytest.approx(row.sigma, abs=1e-3)
    assert page["rating"]["mu"] == pytest.approx(row.mu, abs=1e-3)
    assert all(h["sigma"] < 25 / 3 for h in history)  # each match taught the fold something
    assert page["games"] == ["scauver"]
    assert page["opponents"] == ["bob", "carol"]
    assert page["finished"] == len(mine)
    h2h = {h["opponent"]: h for h in page["head_to_head"]}
    assert h2h["bob"]["matches"] == 2
    assert h2h["carol"]["matches"] == 2
    for h in h2h.values():
        assert h["wins"] + h["draws"] + h["losses"] == h["matches"]
    faults = page["faults"]
    assert set(faults) >= {"timeouts", "rejected", "illegal_actions", "disconnected", "matches"}
    listed = played.control.ListBots(cpb.ListBotsRequest()).bots
    said = next(b.bot_version for b in listed if b.bot_name == "alice")
    assert said, "the SDK bot says a version in its SessionHello"
    assert page["bot"] == {
        "name": "alice",
        "registered": True,
        "games": [],
        "version": said,
        "registered_ms": page["bot"]["registered_ms"],
        "state": "enabled",
    }
    before_ms, after_ms = played.registered
    assert before_ms <= page["bot"]["registered_ms"] <= after_ms  # when RegisterBot ran


def test_a_bots_matches_are_paged_and_filtered_by_game_and_opponent(played: Played) -> None:
    mine = [m for m, pair in zip(played.match_ids, PAIRS, strict=True) if "alice" in pair]
    seen: list[str] = []
    offset = 0
    while True:
        page = played.get(f"/api/pages/bots/alice/matches?offset={offset}&limit=2")
        assert page["total"] == len(mine)
        assert len(page["matches"]) <= 2
        seen += [m["match_id"] for m in page["matches"]]
        offset += 2
        if offset >= page["total"]:
            break
    assert seen == mine[::-1]  # newest first, each once
    vs_carol = played.get("/api/pages/bots/alice/matches?opponent=carol")
    expected = [
        m for m, p in zip(played.match_ids, PAIRS, strict=True) if set(p) == {"alice", "carol"}
    ]
    assert [m["match_id"] for m in vs_carol["matches"]] == expected[::-1]
    assert vs_carol["total"] == 2
    assert played.get("/api/pages/bots/alice/matches?game=fipsen")["total"] == 0
    assert played.get("/api/pages/bots/alice/matches?game=scauver")["total"] == len(mine)
    assert played.get("/api/pages/bots/alice/matches?opponent=alice")["total"] == 0
    status, _ = played.raw("/api/pages/bots/alice/matches?limit=x")
    assert status == 400
    status, _ = played.raw("/api/pages/bots/nobody-here")
    assert status == 404


def test_the_standings_are_sorted_by_the_rating_they_show_and_explained(played: Played) -> None:
    data = played.get("/api/pages/standings")
    rows = data["rows"]
    assert {r["bot_name"] for r in rows} == set(BOTS)
    ratings = [r["rating"] for r in rows]
    assert ratings == sorted(ratings, reverse=True)
    assert [r["rank"] for r in rows] == [1, 2, 3]
    for r in rows:
        assert r["rating"] == pytest.approx(r["mu"] - 3 * r["sigma"], abs=1e-3)
    assert set(data["columns"]) >= {"rank", "bot", "rating", "mu", "sigma", "matches", "score"}
    assert all(len(text) > 20 for text in data["columns"].values())


def test_the_finished_list_is_paged(played: Played) -> None:
    first = played.get("/api/pages/matches?state=finished&limit=2")
    assert first["total"] == len(PAIRS)
    assert [m["match_id"] for m in first["matches"]] == played.match_ids[::-1][:2]
    last = played.get("/api/pages/matches?state=finished&limit=2&offset=4")
    assert [m["match_id"] for m in last["matches"]] == [played.match_ids[0]]
    assert played.get("/api/pages/featured") == {"match": None}
    status, _ = played.raw("/api/pages/matches?state=nope")
    assert status == 400


def test_the_public_pages_hold_no_owner_key_seed_or_replay(played: Played) -> None:
    paths = [
        "/api/pages/standings",
        "/api/pages/featured",
        "/api/pages/matches?state=finished&limit=100",
        *(f"/api/pages/bots/{n}" for n in BOTS),
        *(f"/api/pages/bots/{n}/matches?limit=100" for n in BOTS),
    ]
    secrets = [OWNER.encode(), played.server.operator_key.encode()]
    for key in played.keys.values():
        secrets += [key.encode(), hashlib.sha256(key.encode()).hexdigest().encode()]
    replays = Path(played.server.state_dir, "replays")
    for path in paths:
        status, body = played.raw(path)
        assert status == 200, path
        for secret in secrets:
            assert secret not in body, (path, secret[:12])
        text = body.decode()
        for word in ('"seed"', '"replay', "key_sha256", '"owner"', '"detail"', str(replays)):
            assert word not in text, (path, word)


def test_the_rating_history_survives_a_killed_server(played: Played) -> None:
    """(Last: it kills the module's server.) The history is the fold of the committed matches:
    a SIGKILL loses none of it."""
    before = {n: played.get(f"/api/pages/bots/{n}")["rating"]["history"] for n in BOTS}
    played.server.kill()
    with ServeProcess(played.server.state_dir, "--web-listen", "127.0.0.1:0") as again:
        played.server = again
        after = {n: played.get(f"/api/pages/bots/{n}")["rating"]["history"] for n in BOTS}
    assert after == before
    assert sum(len(h) for h in after.values()) == 2 * len(PAIRS)
