"""End to end: ``croupier tournament`` with real bot processes on a real arbiter.

Contract under test: every scheduled match is played once and stored once with its replay's
SHA-256; duplicate sets replay the same deals with the seats rotated; a rerun resumes (skips what
is finished); a different config against the store is refused in one line; bots that cannot
start or never connect are recorded against themselves while the tournament goes on.
"""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import subprocess
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from ladder_kit import (
    CROUPIER,
    one_deal_config,
    python_bot,
    standings_json,
    stored_seats,
    tournament,
    write_config,
)

from croupier.arbiter import keyed_seed
from croupier.ladder import read_store
from croupier.ladder._schedule import Results
from croupier.ladder._stats import openskill_ratings
from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e

BASIC = """
game = "as-nas"
seed = 1
rounds = 2
[params]
deals = 2
[clock]
move_ms = 5000
[bots]
alpha = "random"
beta = "as-nas-heuristic"
gamma = "random"
delta = "random"
"""


@pytest.fixture(scope="module")
def basic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The BASIC tournament (2 rounds of one table in 4 rotations: 8 matches), run once."""
    folder = tmp_path_factory.mktemp("basic")
    path = write_config(folder, BASIC)
    done = tournament(path, "--concurrency", 2)
    assert done.returncode == 0, done.stderr
    assert "t: 8/8 matches" in done.stdout
    return path


def test_every_match_is_stored_once_with_a_replay_that_verifies(basic: Path) -> None:
    conn = sqlite3.connect(basic.parent / "t.sqlite")
    rows = conn.execute("SELECT id, slot, replay_path, replay_sha256 FROM matches").fetchall()
    assert sorted(r[1] for r in rows) == list(range(8))
    for match_id, _, rel, sha in rows:
        replay = basic.parent / rel
        assert replay.name == f"{match_id}.jsonl"
        assert hashlib.sha256(replay.read_bytes()).hexdigest() == sha
        verify(read_replay(replay))
    seats = conn.execute("SELECT bot, seat FROM seats").fetchall()
    assert set(Counter(seats).values()) == {2}  # each bot in each seat once per round
    assert conn.execute("SELECT version FROM bots WHERE name = 'beta'").fetchone() == ("1",)


def test_a_duplicate_set_deals_the_same_cards_with_the_seats_rotated(basic: Path) -> None:
    deals: dict[str, list[list[int]]] = {}
    seating: dict[str, list[str]] = {}
    conn = sqlite3.connect(basic.parent / "t.sqlite")
    for match_id, deal_set in conn.execute("SELECT id, deal_set FROM matches WHERE round = 0"):
        replay = read_replay(basic.parent / "t-matches" / f"{match_id}.jsonl")
        chance = [r.data["outcome"] for r in replay.records if r.type == "chance"]
        deals.setdefault(deal_set, []).append(chance)
        seating[match_id] = [
            b
            for (b,) in conn.execute(
                "SELECT bot FROM seats WHERE match_id = ? ORDER BY seat", (match_id,)
            )
        ]
    ((_set, sets),) = deals.items()
    assert len(sets) == 4
    assert all(s == sets[0] for s in sets)
    assert len(sets[0]) == 3  # first dealer and two deals
    orders = list(seating.values())
    assert {tuple(o) for o in orders} == {tuple(orders[0][k:] + orders[0][:k]) for k in range(4)}


def test_rerunning_skips_what_is_finished_and_another_config_is_refused(basic: Path) -> None:
    again = tournament(basic)
    assert again.returncode == 0, again.stderr
    assert "8 already finished" in again.stderr
    assert "t: 8/8 matches" in again.stdout
    changed = tournament(basic, "--seed", 2)
    assert changed.returncode == 2
    assert changed.stderr.strip().splitlines() == [
        f"croupier: error: {basic.parent / 't.sqlite'} holds a different tournament: "
        "seed changed from 1 to 2 (use another store, or the config it was made with)"
    ]
    bots = tournament(basic, "--set", "bots.gamma=as-nas-heuristic")
    assert bots.returncode == 2
    assert 'bots.gamma changed from "random" to "as-nas-heuristic"' in bots.stderr


def test_standings_as_text_json_and_csv(basic: Path) -> None:
    store = basic.parent / "t.sqlite"
    data = standings_json(store)
    assert data["finished"] == data["total"] == 8
    assert {b["name"] for b in data["bots"]} == {"alpha", "beta", "gamma", "delta"}
    assert all(b["matches"] == 8 and b["rounds"] == 16 for b in data["bots"])
    assert [b["rank"] for b in data["bots"]] == [1, 2, 3, 4]
    # a trick game: ranked by the score per deal (the control-variate estimate)
    assert data["unit"] == "points/deal"
    assert data["ranked_by"] == "score"
    assert data["estimator"] == "control-variate"
    scores = [b["score"]["mean"] for b in data["bots"]]
    assert scores == sorted(scores, reverse=True)
    assert all(b["points"]["n"] == 8 for b in data["bots"])
    assert len(data["pairs"]) == 6
    assert all(p["cv"] is not None and p["lead"] == p["cv"] for p in data["pairs"])
    assert 0.0 <= data["cv_beta_action"] <= 1.0
    held = read_store(store)
    try:  # three random bots at every table: each seat has the action terms of their draws
        assert all(
            s.cv_action is not None and s.cv_action != 0 for m in held.matches() for s in m.seats
        )
    finally:
        held.close()
    csv = tournament("standings", store, "--csv")
    lines = csv.stdout.splitlines()
    assert lines[0].startswith("rank,bot,mu,sigma,ordinal,score,low,high,unit,estimator")
    assert len(lines) == 5
    text = tournament("standings", store)
    assert "score points/deal (95% CI)" in text.stdout
    assert "control variate, beta" in text.stdout
    both = tournament("standings", store, "--json", "--csv")
    assert both.returncode == 2
    assert both.stderr.splitlines() == [
        "croupier: error: croupier tournament standings: --json and --csv: choose one"
    ]
    helped = tournament("standings", "--help")
    assert helped.returncode == 0
    assert helped.stdout.startswith("usage: croupier tournament standings")
    missing = tournament("standings", store.parent / "nope.sqlite")
    assert missing.returncode == 2
    assert missing.stderr.startswith("croupier: error: no tournament store at")


def test_bots_that_never_connect_are_charged_and_the_rest_goes_on(
    tmp_path: Path,
) -> None:
    mute = python_bot("never_connects", "--sleep-s", 30)
    bots = {"ok1": "random", "ok2": "random", "ok3": "random", "mute": mute}
    path = one_deal_config(tmp_path, bots, connect_timeout_s=2.0)
    done = tournament(path, "--concurrency", 4)
    assert done.returncode == 0, done.stderr
    data = standings_json(tmp_path / "t.sqlite")
    by_name = {b["name"]: b for b in data["bots"]}
    assert data["finished"] == 4
    assert by_name["mute"]["faults"] == 4
    assert by_name["ok1"]["faults"] == by_name["ok2"]["faults"] == 0
    conn = sqlite3.connect(tmp_path / "t.sqlite")
    outcomes = Counter(conn.execute("SELECT bot, outcome FROM seats").fetchall())
    assert outcomes[("mute", "disconnected")] == 4


@pytest.mark.parametrize(
    ("command", "needle"),
    [
        ("randon", "randon not found on PATH (did you mean 'random'? bundled bots:"),
        ("/no/such/bot --please", "/no/such/bot is not an executable file"),
    ],
)
def test_a_misspelt_bundled_bot_or_a_missing_command_is_refused_before_anything_runs(
    tmp_path: Path, command: str, needle: str
) -> None:
    """Before, a misspelt bundled bot ran the whole tournament as a no-show, exit 0."""
    body = f"""
game = "as-nas"
seed = 4
[params]
deals = 1
[bots]
ok1 = "random"
ok2 = "random"
ok3 = "random"
ghost = "{command}"
"""
    path = write_config(tmp_path, body)
    done = tournament(path)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"croupier: error: {path}: bots.ghost: bot command"), lines
    assert needle in lines[0]
    assert not (tmp_path / "t.sqlite").exists()


def test_the_sprt_stops_the_tournament_once_it_decides(tmp_path: Path) -> None:
    """H0 and H1 far below the heuristic's real edge (and 10 apart, so that the log-likelihood
    ratio is far past its bound at the minimum of samples, whatever the deals): the test accepts
    H1 after a few duplicate sets, and no match starts after that (12 rounds of 2 seatings were
    scheduled; at most the two matches running at concurrency 2 finish after the decision)."""
    body = """
game = "felduz"
seed = 2
rounds = 12
[params]
round_cap = 3
[bots]
heuristic = "felduz-heuristic"
rand = "random"
[sprt]
candidate = "heuristic"
baseline = "rand"
d0 = -1000.0
d1 = -990.0
"""
    path = write_config(tmp_path, body)
    done = tournament(path, "--concurrency", 2)
    assert done.returncode == 0, done.stderr
    assert "stopped early: the sequential test decided" in done.stdout
    data = standings_json(tmp_path / "t.sqlite")
    assert data["sprt"]["decision"] == "H1"
    decided_at = data["sprt"]["n"]
    assert decided_at >= 8  # the test's minimum of samples
    assert data["finished"] <= 2 * decided_at + 2 < data["total"] == 24


def test_swiss_pairs_the_second_round_by_points_and_ratings_after_the_first(tmp_path: Path) -> None:
    body = """
game = "felduz"
seed = 3
rounds = 2
[params]
round_cap = 2
[format]
kind = "swiss"
[bots]
h1 = "felduz-heuristic"
h2 = "felduz-heuristic"
r1 = "random"
r2 = "random"
"""
    path = write_config(tmp_path, body)
    done = tournament(path, "--concurrency", 2)
    assert done.returncode == 0, done.stderr
    store = read_store(tmp_path / "t.sqlite")
    matches = store.matches()
    assert len(matches) == 8  # 2 rounds x 2 tables x 2 seatings
    first = [m for m in matches if m.round == 0]
    names = ["h1", "h2", "r1", "r2"]
    ratings = openskill_ratings(first, names)
    results = Results.of(first, names, {b: r.mu for b, r in ratings.items()})
    # score groups (match points), then the rating mu within a group
    order = sorted(names, key=lambda b: (-results.points[b], -ratings[b].mu, b))
    second = {frozenset(s.bot for s in m.seats) for m in matches if m.round == 1}
    assert second == {frozenset(order[:2]), frozenset(order[2:])}


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ("standings",),
            "croupier: error: croupier tournament standings STORE: the store is missing",
        ),
        (("{cfg}", "--concurrency", "0"), "croupier: error: --concurrency 0: must be at least 1"),
        (("{cfg}", "--set", "bots.x"), "croupier: error: --set 'bots.x': expected KEY=VALUE"),
        (
            ("{cfg}", "--executor", "ray", "--set", 'bots.z="remote"'),
            "croupier: error: {cfg}: bots.z: a remote bot needs the local executor (its seat "
            "token is handed out by this machine's arbiter)",
        ),
        (
            ("{cfg}", "--set", 'bots.z="remote"'),
            "croupier: error: {cfg}: format.duplicate: remote bots (z) can remember one seating "
            "of a duplicate set when they play the next; set format.allow_remote_duplicate = "
            "true to play duplicate sets with them anyway, or format.duplicate = false",
        ),
    ],
)
def test_command_line_mistakes_are_one_line_and_status_2(
    tmp_path: Path, args: tuple[str, ...], line: str
) -> None:
    cfg = write_config(tmp_path, BASIC)
    done = tournament(*(a.format(cfg=cfg) for a in args))
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [line.format(cfg=cfg)]


def test_a_finished_tournament_takes_more_rounds_with_new_deals_and_keeps_the_old(
    tmp_path: Path, basic: Path
) -> None:
    """Before, ``--rounds 2`` against a finished 1-round store was refused as another
    tournament. Now the played round keeps its matches and the new one is dealt from the same
    key: the store ends exactly as a 2-round run (the ``basic`` fixture) from the start."""
    path = write_config(tmp_path, BASIC.replace("rounds = 2", "rounds = 1"))
    first = tournament(path, "--concurrency", 2)
    assert first.returncode == 0, first.stderr
    store = tmp_path / "t.sqlite"
    before = stored_seats(store)
    more = tournament(path, "--rounds", 2, "--concurrency", 2)
    assert more.returncode == 0, more.stderr
    assert "t: 8/8 matches" in more.stdout
    assert re.search(r"^played 4 matches in [0-9.]+ s \([0-9.]+ matches/s\)", more.stdout, re.M)
    after = stored_seats(store)
    assert after[: len(before)] == before
    assert after == stored_seats(basic.parent / "t.sqlite")
    fewer = tournament(path, "--rounds", 1)
    assert fewer.returncode == 2
    assert "a tournament can be given more rounds, not fewer" in fewer.stderr
    # one results line per stored match (in the order stored), rounds counted from 1
    assert not (tmp_path / "t-matches" / "results.jsonl").exists()  # (not among the replays)
    results = (tmp_path / "t-results.jsonl").read_text()
    lines = [json.loads(x) for x in results.split()]
    assert sorted(x["match_id"] for x in lines) == sorted({row[0] for row in after})
    assert {x["round"] for x in lines} == {1, 2}
    assert all(x["match_id"].startswith(f"t-r{x['round']:03d}-") for x in lines)


def test_more_rounds_of_a_secret_keyed_tournament_are_dealt_from_its_key(tmp_path: Path) -> None:
    path = write_config(
        tmp_path, BASIC.replace("seed = 1\n", "").replace("rounds = 2", "rounds = 1")
    )
    assert tournament(path, "--concurrency", 2).returncode == 0
    conn = sqlite3.connect(tmp_path / "t.sqlite")
    seeds = dict(conn.execute("SELECT id, seed FROM matches").fetchall())
    conn.close()
    assert tournament(path, "--rounds", 2, "--concurrency", 2).returncode == 0
    conn = sqlite3.connect(tmp_path / "t.sqlite")
    now = dict(conn.execute("SELECT id, seed FROM matches").fetchall())
    (secret,) = conn.execute("SELECT secret FROM tournament").fetchone()
    conn.close()
    assert {k: now[k] for k in seeds} == seeds  # the played round kept its deals
    new = {now[k] for k in now if k not in seeds}
    assert len(new) == 1  # one new set
    assert new.isdisjoint(seeds.values())  # with new deals
    assert int(next(iter(new))) == keyed_seed(bytes.fromhex(secret), "deals", 1, 0)


def test_replays_keep_the_display_names_and_diff_compares_a_duplicate_pair_by_bot(
    basic: Path,
) -> None:
    """Before, a replay named its bots by what they said in Hello (three copies of ``random``
    were one name), and ``replay diff`` of two seatings compared seats, whose bots differ."""
    conn = sqlite3.connect(basic.parent / "t.sqlite")
    rows = conn.execute(
        "SELECT m.id, m.replay_path, s.seat, s.bot, s.score FROM matches m "
        "JOIN seats s ON s.match_id = m.id WHERE m.round = 0 ORDER BY m.slot, s.seat"
    ).fetchall()
    conn.close()
    paths: dict[str, Path] = {}
    scores: dict[str, dict[str, Fraction]] = {}
    for match_id, rel, seat, bot, score in rows:
        paths[match_id] = basic.parent / rel
        scores.setdefault(match_id, {})[bot] = Fraction(score)
        header = json.loads(paths[match_id].read_text().splitlines()[0])
        assert header["seats"][seat]["display_name"] == bot
        verify(read_replay(paths[match_id]))  # (raises if the commitment does not bind it)
    first, second = list(paths)[:2]
    done = subprocess.run(
        [*CROUPIER, "replay", "diff", paths[first], paths[second]],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    last = done.stdout.strip().splitlines()[-1]
    assert last.startswith("total A−B by bot: ")
    shown = dict(
        item.rsplit(" ", 1) for item in last.removeprefix("total A−B by bot: ").split("  ")
    )
    for bot, value in shown.items():
        expected = scores[first][bot] - scores[second][bot]
        assert Fraction(value) == expected, (bot, value, expected)


def test_the_action_terms_can_be_turned_off_between_runs(tmp_path: Path) -> None:
    path = write_config(tmp_path, BASIC.replace("rounds = 2", "rounds = 1"))
    off = tournament(path, "--concurrency", 2, "--set", "action_terms=false")
    assert off.returncode == 0, off.stderr
    held = read_store(tmp_path / "t.sqlite")
    try:
        seats = [s for m in held.matches() for s in m.seats]
    finally:
        held.close()
    assert len(seats) == 16
    assert all(s.cv is not None and s.cv_action == 0.0 for s in seats)
    assert standings_json(tmp_path / "t.sqlite")["cv_beta_action"] == 0.0
    bad = tournament(path, "--set", "action_terms=3")
    assert bad.returncode == 2
    assert "action_terms: must be true or false, got 3" in bad.stderr
