"""Bot authors' self-service on a real ``croupier serve`` with real registered bots
(docs/server.md, "Bot authors' self-service"): a bot's key fetches its own seat's view of a match
that has ended and its own seat's log (``FetchSeatView``/``FetchSeatLog``, ``croupier ctl seat``),
never another seat's or another bot's; the view holds no other seat's hidden card."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest
from serve_kit import (
    Control,
    ServeProcess,
    ctl_here,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_state,
)

from croupier.replay import OMNISCIENT, read_replay, render
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

SLOW_BOT = Path(__file__).with_name("bots") / "slow_bot.py"
BOTS = ("alice", "bob", "carol", "dave")
#: A card as the hand histories print it (Fipsen's 32 cards: 7 to A of four suits).
CARD = re.compile(r"(?:10|[7-9JQKA])[♣♠♥♦]")


class World:
    def __init__(self, server: ServeProcess, keys: dict[str, str], match: Any, other: Any) -> None:
        self.server = server
        self.keys = keys
        self.match = match  # alice, bob, carol (slow: it times out), dave
        self.other = other  # bob, dave and two bundled bots: alice has no seat
        self.replay = Path()

    def control(self, key: str | None) -> Control:
        return Control(self.server.control_address, key)

    def seat_of(self, match: Any, name: str) -> int:
        return next(s.seat for s in match.seats if s.bot_name == name)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    root = tmp_path_factory.mktemp("self_service")
    config = root / "serve.toml"
    config.write_text("[serve]\nmove_ms = 150\nbank_ms = 0\n")
    with ServeProcess(root / "state", "--config", str(config)) as server:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, *BOTS)
        bots = [
            start_bot(server.bot_address, keys[n])
            if n != "carol"
            else start_bot(
                server.bot_address, keys[n], [sys.executable, str(SLOW_BOT)], SLOW_BOT_MS="400"
            )
            for n in BOTS
        ]
        try:
            wait_connected(op, BOTS)
            params = {"deals": 1}
            first = op.CreateMatch(
                cpb.CreateMatchRequest(game="fipsen", params=params, bots=BOTS, seed=11)
            ).match
            second = op.CreateMatch(
                cpb.CreateMatchRequest(
                    game="fipsen",
                    params=params,
                    bots=["bob", "dave", "bundled:random", "bundled:random"],
                    seed=12,
                )
            ).match
            done = [cpb.MATCH_STATE_FINISHED]
            match = wait_state(op, first.match_id, done, timeout=120)
            other = wait_state(op, second.match_id, done, timeout=120)
            world = World(server, keys, match, other)
            world.replay = root / "replay.jsonl"
            fetched = ctl_here(server, "replay", "fetch", match.match_id, "--out", world.replay)
            assert fetched.returncode == 0, fetched.stderr
            op.close()
            yield world
        finally:
            stop_bots(bots)


def _view(control: Control, match_id: str, seat: int) -> list[str]:
    request = cpb.FetchSeatViewRequest(match_id=match_id, seat=seat)
    return [line for piece in control.FetchSeatView(request) for line in piece.lines]


def _log(control: Control, match_id: str, seat: int) -> str:
    request = cpb.FetchSeatLogRequest(match_id=match_id, seat=seat)
    return b"".join(piece.chunk for piece in control.FetchSeatLog(request)).decode()


def _refusal(call: Any) -> grpc.StatusCode:
    with pytest.raises(grpc.RpcError) as info:
        call()
    return info.value.code()  # type: ignore[no-any-return]


def test_a_bot_key_fetches_its_own_seat_view(world: World) -> None:
    seat = world.seat_of(world.match, "alice")
    view = _view(world.control(world.keys["alice"]), world.match.match_id, seat)
    assert view[0].endswith(f"seat {seat}'s view"), view[0]
    # exactly what `croupier replay show --seat` prints of the replay
    assert view == list(render(read_replay(world.replay), seat))
    done = ctl_here(world.server, "seat", world.match.match_id, seat, key=world.keys["alice"])
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == view


def test_the_seat_view_holds_no_other_seats_hidden_card(world: World) -> None:
    """Every card dealt to another seat that the public record never shows stays out of the
    seat's view; its own cards are in it (the check is not vacuous)."""
    replay = read_replay(world.replay)
    deal = next(
        line for line in render(replay, OMNISCIENT) if "[chance] Deal" in line
    )  # "... seat 0: 10♣ J♣ ...; seat 1: ...; Skat ...; stock ..."
    hands = {
        int(n): set(CARD.findall(cards)) for n, cards in re.findall(r"seat (\d): ([^;]+)", deal)
    }
    public = {c for line in render(replay, None) for c in CARD.findall(line)}
    for name in BOTS:
        seat = world.seat_of(world.match, name)
        view = _view(world.control(world.keys[name]), world.match.match_id, seat)
        shown = {c for line in view for c in CARD.findall(line)}
        hidden = set().union(*(hands[s] - public for s in hands if s != seat))
        assert hidden, "no hidden card to leak: the check would be vacuous"
        assert not shown & hidden, (
            f"seat {seat}'s view shows other seats' hidden cards {sorted(shown & hidden)}"
        )
        assert hands[seat] <= shown, f"seat {seat}'s view lacks its own cards"


def test_a_bot_key_fetches_its_own_seat_log(world: World) -> None:
    seat = world.seat_of(world.match, "carol")  # the slow one: it timed out
    log = _log(world.control(world.keys["carol"]), world.match.match_id, seat)
    assert log.startswith(f"# seat {seat} of match {world.match.match_id} (fipsen): carol")
    assert re.search(r"^step \d+: timeout: the arbiter played ", log, re.M), log
    assert re.search(r"^result: place \d, score -?\d+, outcome \w+, [1-9]\d* timeouts", log, re.M)
    assert (
        "no stderr of this seat alone is kept here" in log
    )  # a registered bot's own machine keeps it
    # its seat's log tells of its own faults only
    alice = _log(
        world.control(world.keys["alice"]),
        world.match.match_id,
        world.seat_of(world.match, "alice"),
    )
    assert "timeout" not in alice.replace(" 0 timeouts", ""), alice
    done = ctl_here(
        world.server, "seat", world.match.match_id, seat, "--log", key=world.keys["carol"]
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == log


def test_an_operator_reads_every_seat(world: World) -> None:
    op = world.control(world.server.operator_key)
    for seat in range(4):
        assert _view(op, world.other.match_id, seat)[0].endswith(f"seat {seat}'s view")
        assert _log(op, world.other.match_id, seat).startswith(f"# seat {seat} of match")


def test_other_seats_and_other_bots_are_refused(world: World) -> None:
    alice = world.control(world.keys["alice"])
    m = world.match.match_id
    bob_seat = world.seat_of(world.match, "bob")
    denied = grpc.StatusCode.PERMISSION_DENIED
    # another seat of its own match
    assert _refusal(lambda: _view(alice, m, bob_seat)) == denied
    assert _refusal(lambda: _log(alice, m, bob_seat)) == denied
    # another bot's match: every seat
    for seat in range(4):
        assert _refusal(lambda s=seat: _view(alice, world.other.match_id, s)) == denied
        assert _refusal(lambda s=seat: _log(alice, world.other.match_id, s)) == denied
    # the spectator key and no key: no seat at all
    for key in (world.server.spectator_key, None):
        spectator = world.control(key)
        assert _refusal(lambda c=spectator: _view(c, m, 0)) == denied
        assert _refusal(lambda c=spectator: _log(c, m, 0)) == denied
    # croupier ctl: one line, the documented exit status (4: refused)
    for extra in ((), ("--log",)):
        done = ctl_here(world.server, "seat", m, bob_seat, *extra, key=world.keys["alice"])
        assert done.returncode == 4, done
        assert done.stdout == ""
        assert done.stderr.startswith("croupier: error: permission_denied: "), done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
    # a seat that is not there, a match that is not there: errors of their own
    assert _refusal(lambda: _view(alice, m, 9)) == grpc.StatusCode.INVALID_ARGUMENT
    assert _refusal(lambda: _view(alice, "nope", 0)) == grpc.StatusCode.NOT_FOUND
