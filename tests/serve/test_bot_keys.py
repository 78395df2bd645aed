"""A registered bot's key, managed by an operator (docs/server.md, "Roles and keys"): ``croupier
ctl revoke`` (the key stops working for good), ``rotate`` (a new key; the old one stops working)
and ``disable``/``enable`` (a disabled bot is not seated and cannot connect). Each, with the bot
connected and playing: its session ends at once (not after the reconnect window), its seat faults
as a disconnect and the match finishes (within half the reconnect window, set to five minutes);
the old key is refused, also after a restart."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import grpc
import pytest
from serve_kit import (
    RANDOM_SLOW_BOT,
    Control,
    ServeProcess,
    code_of,
    ctl,
    ctl_here,
    start_bot,
    stop_bots,
    wait_connected,
    wait_for,
    wait_state,
)

from croupier import PROTOCOL_VERSION
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

#: The server's reconnect window: the seats of a bot whose key goes must not wait for it.
GRACE_S = 300
GRACE = ("--reconnect-grace", str(GRACE_S))
#: What a session dialled with the old key is answered, and the words of the seat's fault.
REFUSED = {
    "revoke": (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_UNKNOWN", "revoked"),
    "rotate": (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_UNKNOWN", "changed"),
    "disable": (grpc.StatusCode.PERMISSION_DENIED, "BOT_DISABLED", "disabled"),
}


def session_answer(address: str, key: str) -> tuple[Any, str]:
    """What a Session dialled with ``key`` is answered: (OK, "welcome") or (code, reason)."""
    channel = grpc.insecure_channel(address)
    hello = pb.SessionHello(
        token=key, bot_name="probe", bot_version="1", protocol_version=PROTOCOL_VERSION, capacity=1
    )
    try:
        stub = bot_pb2_grpc.BotServiceStub(channel)
        for response in stub.Session(iter([pb.SessionRequest(hello=hello)]), timeout=15):
            return grpc.StatusCode.OK, response.WhichOneof("kind")
        return grpc.StatusCode.OK, ""
    except grpc.RpcError as exc:
        return exc.code(), dict(exc.trailing_metadata() or ()).get("croupier-reason", "")
    finally:
        channel.close()


def connected(control: Control, name: str) -> bool:
    bots = {b.bot_name: b for b in control.ListBots(cpb.ListBotsRequest()).bots}
    return bots[name].connected


def register(server: ServeProcess, name: str) -> str:
    done = ctl(server, "register", name, "--game", "scauver")
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize("action", ["revoke", "rotate", "disable"])
def test_a_playing_bot_loses_its_key(tmp_path: Path, action: str) -> None:
    code, reason, words = REFUSED[action]
    state = tmp_path / "state"
    bots = []
    # a reconnect window far longer than the test waits: a seat kept for it would show
    server = ServeProcess(state, *GRACE)
    try:
        keys = {n: register(server, n) for n in ("vic", "opp")}
        op = Control(server.control_address, server.operator_key)
        log = tmp_path / "vic.log"
        bots = [
            start_bot(server.bot_address, keys["vic"], RANDOM_SLOW_BOT, log=log,
                      SLOW_BOT_DELAY_S="0.3"),
            start_bot(server.bot_address, keys["opp"], RANDOM_SLOW_BOT, SLOW_BOT_DELAY_S="0.02"),
        ]  # fmt: skip
        wait_connected(op, ["vic", "opp"])
        match_id = op.CreateMatch(
            cpb.CreateMatchRequest(
                game="scauver", params={"players": 2, "round_cap": 30}, bots=["vic", "opp"]
            )
        ).match.match_id
        wait_for(
            lambda: op.GetMatch(cpb.GetMatchRequest(match_id=match_id)).match.decisions >= 3,
            60,
            "the match to be under way",
        )

        started = time.monotonic()
        done = ctl_here(server, action, "vic")  # (in this process: at once, under any load)
        assert done.returncode == 0, done.stderr
        if action == "rotate":
            new_key = done.stdout.strip()
            assert new_key.startswith("bot_")
            assert new_key != keys["vic"]
        # the session ends at once, not after the reconnect window
        wait_for(lambda: not connected(op, "vic"), 60, "vic's session to end")
        assert time.monotonic() - started < GRACE_S / 2
        assert bots[0].wait(20) != 0  # the SDK was refused when it dialled again
        assert code.name in log.read_text(), log.read_text()[-2000:]

        # the seat faulted as a disconnect; the match played on to its end
        match = wait_state(op, match_id, [cpb.MATCH_STATE_FINISHED], GRACE_S / 2)
        assert match.seats[0].result.outcome == pb.SEAT_OUTCOME_DISCONNECTED
        assert match.seats[1].result.outcome == pb.SEAT_OUTCOME_NORMAL
        replay = state / "replays" / f"{match_id}.jsonl"
        records = [json.loads(line) for line in replay.read_text().splitlines()]
        faults = [r for r in records if r.get("fault") == "disconnect" and r["seat"] == 0]
        assert faults, records
        assert words in faults[0]["detail"], faults
        assert "did not come back" not in faults[0]["detail"]

        # the old key is refused on both ports; the bot is not seated
        assert session_answer(server.bot_address, keys["vic"]) == (code, reason)
        as_vic = Control(server.control_address, keys["vic"])
        listing = code_of(lambda: as_vic.ListBots(cpb.ListBotsRequest()))
        if action != "disable":
            assert listing == grpc.StatusCode.UNAUTHENTICATED
        refused = ctl(server, "create", "--game", "scauver", "--bot", "vic", "--bot", "opp")
        if action == "rotate":
            assert refused.returncode == 0, refused.stderr  # a new key: seated again
        else:
            assert refused.returncode == 2, refused.stderr
            assert refused.stderr.count("\n") == 1
            assert "vic" in refused.stderr
            assert refused.stderr.startswith("croupier: error: failed_precondition: ")
            assert words in refused.stderr

        # ... also after a restart
        assert server.stop() == 0
        server = ServeProcess(state, *GRACE)
        assert session_answer(server.bot_address, keys["vic"]) == (code, reason)
        if action == "rotate":  # the new key opens the bot's session
            assert session_answer(server.bot_address, new_key) == (grpc.StatusCode.OK, "welcome")
        if action == "disable":  # enabled again, the same key works
            assert ctl(server, "enable", "vic").returncode == 0
            assert session_answer(server.bot_address, keys["vic"]) == (
                grpc.StatusCode.OK,
                "welcome",
            )
        if action == "revoke":  # revoked for good: revoking again says so
            again = ctl(server, "revoke", "vic")
            assert again.returncode == 2, again.stderr
            assert "revoked" in again.stderr, again.stderr
            listed = ctl(server, "bots", "--json")
            rows = {b["bot"]: b for b in json.loads(listed.stdout)}
            assert rows["vic"]["key"] == "revoked"
            assert rows["opp"]["key"] == "active"
    finally:
        server.stop()
        stop_bots(bots)


def test_key_commands_are_for_operators_and_known_bots(tmp_path: Path) -> None:
    with ServeProcess(tmp_path / "state") as server:
        key = register(server, "ann")
        for command in ("revoke", "rotate", "disable", "enable"):
            done = ctl_here(server, command, "nobody")
            assert done.returncode == 2, done.stderr
            assert done.stderr == "croupier: error: not_found: no registered bot named 'nobody'\n"
            for who in (key, server.spectator_key):
                done = ctl_here(server, command, "ann", key=who)
                assert done.returncode == 4, done.stderr
                assert done.stderr.startswith("croupier: error: permission_denied: ")
        # the stable reasons, in the trailing metadata
        for who, reason in ((server.operator_key, "BOT_NOT_FOUND"), (key, "ROLE")):
            control = Control(server.control_address, who)
            with pytest.raises(grpc.RpcError) as refused:
                control.RevokeBotKey(cpb.RevokeBotKeyRequest(bot_name="nobody"))
            trailer = dict(refused.value.trailing_metadata() or ())  # type: ignore[attr-defined]
            assert trailer.get("croupier-reason") == reason
            control.close()
        # nothing changed: ann's key still opens its session
        assert session_answer(server.bot_address, key) == (grpc.StatusCode.OK, "welcome")
