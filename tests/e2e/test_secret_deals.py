"""Deals no bot can compute (issue 19, part 1): a tournament or the server's ladder without a
seed derives every match seed from a secret key it drew at its first start (HMAC-SHA256 of the
slot), kept mode 0600 in its store; the match id and every other public fact give nothing.

The attacker is ``bots/dealspy.py``: a session bot that recomputes, for each match it plays, the
seed the public derivation gives (SHA-256 of the config's seed, 0 by default, and the slot the
match id spells out), deals the first deal from it with the project's own rules and compares the
hand it predicts with the hand it is dealt. Before secret keys it predicted every hand, in a
tournament and on the server's ladder alike; these tests failed then (``predicted yes``).
"""

from __future__ import annotations

import json
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_kit import BOTS_DIR, CROUPIER

pytestmark = pytest.mark.e2e

SPY = f"{sys.executable} {BOTS_DIR / 'dealspy.py'}"


def _tournament(
    folder: Path, *extra: str, seed: int | None = None, duplicate: bool = True
) -> subprocess.CompletedProcess[str]:
    """A four-bot one-table Fipsen tournament (the spy and three random bots, duplicate sets:
    four seatings of one deal, played at once) named ``cup`` in ``folder``. ``duplicate``
    False: four seatings with deals of their own (a process a bot, not one a lane: 4 Python
    bots to start, not 16)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = [
        'name = "cup"',
        'game = "fipsen"',
        "concurrency = 4",
        "[params]",
        "deals = 1",
        "[bots]",
        f'spy = "{SPY}"',
        'r1 = "random"',
        'r2 = "random"',
        'r3 = "random"',
    ]
    if seed is not None:
        lines.insert(0, f"seed = {seed}")
    if not duplicate:
        lines += ["[format]", "duplicate = false"]
    (folder / "cup.toml").write_text("\n".join(lines) + "\n")
    return subprocess.run(
        [*CROUPIER, "tournament", str(folder / "cup.toml"), *extra],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=folder,
    )


def _spy_lines(folder: Path) -> list[str]:
    return [
        line
        for log in folder.rglob("*.log")
        for line in log.read_text(errors="replace").splitlines()
        if line.startswith("spy ")
    ]


def _deals(replays: Path) -> dict[str, list[object]]:
    """The chance outcomes of every replay in ``replays``, by match id."""
    out: dict[str, list[object]] = {}
    for path in sorted(replays.glob("*.jsonl")):
        records = [json.loads(line) for line in path.read_text().splitlines()]
        out[records[0]["match_id"]] = [r["outcome"] for r in records if r["type"] == "chance"]
    return out


@pytest.fixture(scope="module")
def unseeded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two runs of the tournament without a seed, each in a folder of its own (only read by the
    tests that use them)."""
    one, two = tmp_path_factory.mktemp("one"), tmp_path_factory.mktemp("two")
    for folder in (one, two):
        done = _tournament(folder)
        assert done.returncode == 0, done.stderr
        assert "warning" not in done.stderr, done.stderr
    return one, two


def test_a_bot_cannot_compute_the_deals_of_a_tournament_from_its_match_ids(
    unseeded: tuple[Path, Path],
) -> None:
    for folder in unseeded:
        lines = _spy_lines(folder)
        assert len(lines) == 4, lines  # the spy played every seating of the set
        assert [line for line in lines if line.endswith("predicted yes")] == [], lines


def test_tournaments_without_a_seed_deal_differently_and_keep_their_secrets_private(
    unseeded: tuple[Path, Path],
) -> None:
    one, two = unseeded
    first, second = _deals(one / "cup-matches"), _deals(two / "cup-matches")
    assert sorted(first) == sorted(second)  # the same tournament, the same match ids
    assert all(first[m] != second[m] for m in first)  # ... and other cards
    for folder in (one, two):
        store = folder / "cup.sqlite"
        assert stat.S_IMODE(store.stat().st_mode) == 0o600
        for side in folder.glob("cup.sqlite-*"):  # SQLite's -wal and -shm files
            assert stat.S_IMODE(side.stat().st_mode) == 0o600, side
        out = folder / "cup-matches"
        assert stat.S_IMODE(out.stat().st_mode) == 0o700
        for path in out.rglob("*"):
            want = 0o700 if path.is_dir() else 0o600
            assert stat.S_IMODE(path.stat().st_mode) == want, path


def test_an_explicit_seed_repeats_the_deals_and_a_small_one_is_warned_about(
    tmp_path: Path,
) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        done = _tournament(folder, seed=7, duplicate=False)
        assert done.returncode == 0, done.stderr
        warnings = [line for line in done.stderr.splitlines() if "warning" in line]
        assert len(warnings) == 1, done.stderr
        assert "seed 7 is small enough for a bot to search" in warnings[0]
    deals = _deals(one / "cup-matches")
    assert len(deals) == 4, deals
    assert all(deals.values()), deals
    assert deals == _deals(two / "cup-matches")


def test_a_registered_bot_cannot_compute_the_deals_of_the_servers_ladder(
    tmp_path: Path,
) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "serve"))
    from serve_kit import Control, ServeProcess, register, start_bot, stop_bots, wait_for

    config = tmp_path / "serve.toml"
    config.write_text('[ladder]\ngame = "fipsen"\nparams = { deals = 1 }\nconcurrency = 2\n')
    with ServeProcess(tmp_path / "state", "--config", str(config)) as server:
        control = Control(server.control_address, server.operator_key)
        keys = register(control, "spy", "r1", "r2", "r3")
        log = tmp_path / "spy.log"
        bots = [start_bot(server.bot_address, keys["spy"], SPY.split(), log=log)]
        bots += [start_bot(server.bot_address, keys[n]) for n in ("r1", "r2", "r3")]
        try:

            def spied() -> bool:
                return log.exists() and log.read_text(errors="replace").count("spy ") >= 3

            wait_for(spied, timeout=180, what="the spy to play three ladder matches")
        finally:
            stop_bots(bots)
            control.close()
        store = server.state_dir / "croupier.sqlite"
        secret_mode = stat.S_IMODE(server.state_dir.stat().st_mode)
    lines = [line for line in log.read_text().splitlines() if line.startswith("spy ")]
    assert [line for line in lines if line.endswith("predicted yes")] == [], lines
    assert secret_mode == 0o700
    assert stat.S_IMODE(store.stat().st_mode) == 0o600
