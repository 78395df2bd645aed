"""A registered bot plays the games it declares (docs/server.md, "Registered bots and their
games"): ``croupier ctl register NAME --game G...``; the continuous ladder never seats it in
another game and ``croupier ctl create`` refuses it there, in one line naming the bot and the
game; an operator changes its games with ``croupier ctl games``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serve_kit import (
    Control,
    ServeProcess,
    ctl,
    start_bot,
    stop_bots,
    wait_connected,
    wait_for,
)

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

LADDER = """
[ladder]
game = "as-nas"
params = { deals = 1 }
concurrency = 2
exploration = 1.0
"""
AS_NAS = ("a1", "a2", "a3", "a4")


def _ladder_matches(control: Control) -> list[cpb.MatchInfo]:
    listed = control.ListMatches(cpb.ListMatchesRequest(limit=1000)).matches
    return [m for m in listed if m.match_id.startswith("ladder-")]


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServeProcess, Control]]:
    tmp: Path = tmp_path_factory.mktemp("games")
    config = tmp / "serve.toml"
    config.write_text(LADDER)
    bots = []
    with ServeProcess(tmp / "state", "--config", str(config)) as server:
        keys = {}
        for name in AS_NAS:
            done = ctl(server, "register", name, "--game", "as-nas")
            assert done.returncode == 0, done.stderr
            keys[name] = done.stdout.strip()
        done = ctl(server, "register", "fip", "--game", "fipsen")
        assert done.returncode == 0, done.stderr
        keys["fip"] = done.stdout.strip()
        op = Control(server.control_address, server.operator_key)
        try:
            bots = [start_bot(server.bot_address, key) for key in keys.values()]
            wait_connected(op, list(keys))
            yield server, op
        finally:
            server.stop()
            stop_bots(bots)


def test_the_ladder_seats_a_bot_only_in_its_games(
    world: tuple[ServeProcess, Control],
) -> None:
    server, op = world
    listed = {b.bot_name: list(b.games) for b in op.ListBots(cpb.ListBotsRequest()).bots}
    assert listed == {**{n: ["as-nas"] for n in AS_NAS}, "fip": ["fipsen"]}

    def finished() -> int:
        done = [m for m in _ladder_matches(op) if m.state == cpb.MATCH_STATE_FINISHED]
        return len(done)

    # five connected bots, four seats, seats drawn at random: fip would sit in most tables
    wait_for(lambda: finished() >= 8, 240, "8 ladder matches")
    matches = _ladder_matches(op)
    seated = [s.bot_name for m in matches for s in m.seats]
    assert "fip" not in seated, f"fip was seated in as-nas: {seated}"
    assert set(seated) == set(AS_NAS)
    # nor was it chosen and then refused: every table the ladder drew was played
    tables = sorted(int(m.match_id.split("-t")[1].split("-")[0]) for m in matches)
    assert tables == list(range(1, len(tables) + 1)), f"tables drawn but not created: {tables}"

    # an operator declares as-nas for it: the ladder takes it in
    done = ctl(server, "games", "fip", "--game", "fipsen", "--game", "as-nas")
    assert done.returncode == 0, done.stderr
    wait_for(
        lambda: any(s.bot_name == "fip" for m in _ladder_matches(op) for s in m.seats),
        120,
        "fip to be seated once it plays as-nas",
    )
    done = ctl(server, "games", "fip", "--game", "fipsen")
    assert done.returncode == 0, done.stderr


def test_create_refuses_a_bot_in_a_game_it_does_not_play(
    world: tuple[ServeProcess, Control],
) -> None:
    server, _ = world
    others = ["--bot", "bundled:random"] * 3
    done = ctl(server, "create", "--game", "as-nas", "--bot", "fip", *others)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "croupier: error: failed_precondition: bot 'fip' does not play as-nas "
        "(it plays fipsen; croupier ctl games changes that)\n"
    )
    done = ctl(server, "create", "--game", "fipsen", "--bot", "fip", *others)
    assert done.returncode == 0, done.stderr
    done = ctl(server, "create", "--game", "fipsen", "--bot", "a1", *others)
    assert done.returncode == 2, done.stderr
    assert "'a1' does not play fipsen" in done.stderr, done.stderr


def test_games_are_checked(world: tuple[ServeProcess, Control]) -> None:
    server, _ = world
    done = ctl(server, "register", "zed", "--game", "chess")
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("croupier: error: invalid_argument: games: ")
    assert "chess" in done.stderr
    assert done.stderr.count("\n") == 1
    done = ctl(server, "games", "nobody", "--all")
    assert done.stderr == "croupier: error: not_found: no registered bot named 'nobody'\n"
