"""Hostile peers on loopback are bounded like any other (issue 19, "Honest seats under attack"):
streams held open without a Hello, on ``Play`` and on ``Session``, guessed tokens, idle
connections and reflection streams; yet a stream with a valid token always gets in, also from an
address that is over its limits (bots behind one NAT, many seats of one session process)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from croupier import PROTOCOL_VERSION
from croupier.arbiter import Match, MatchConfig
from croupier.replay import ReplayWriter
from croupier.transport import REASON_KEY, ArbiterServer
from croupier.transport import _server as server_module
from croupier.transport._peers import peer_key
from croupier.transport._server import MAX_FAILED_HELLOS_PER_PEER, MAX_PENDING_PER_PEER
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import bot_pb2_grpc


def _reason(exc: grpc.aio.AioRpcError) -> str:
    return str(dict(exc.trailing_metadata() or ()).get(REASON_KEY, ""))


async def _first_error(call: object, timeout: float = 5.0) -> str:
    """The ``croupier-reason`` the stream ``call`` ends with (it must end within ``timeout``)."""
    try:
        await asyncio.wait_for(call.read(), timeout)  # type: ignore[attr-defined]
    except grpc.aio.AioRpcError as exc:
        return _reason(exc)
    except TimeoutError:
        return "still open"
    return "not refused"


async def _opened(calls: list[object]) -> None:
    for call in calls:
        await call.wait_for_connection()  # type: ignore[attr-defined]
    await asyncio.sleep(0.2)  # each handler has started on the server


@pytest.mark.parametrize(
    ("peer", "key"),
    [
        ("ipv4:127.0.0.1:5000", "loopback"),
        ("ipv4:127.9.9.9:1", "loopback"),  # any of 127/8: one peer
        ("ipv6:[::1]:5", "loopback"),
        ("ipv6:%5B::1%5D:80", "loopback"),
        ("ipv6:[::ffff:127.0.0.1]:5", "loopback"),
        ("ipv6:[::ffff:10.1.2.3]:7", "ipv4:10.1.2.3"),
        ("ipv6:%5B2001:db8:1:2:3:4:5:6%5D:9", "ipv6:2001:db8:1:2::/64"),  # one host's /64
        ("ipv4:203.0.113.7:44", "ipv4:203.0.113.7"),
        ("unix:/tmp/croupier-x/arbiter.sock", "unix"),
        ("unix:", "unix"),
        # one launched bot, each connection through its gate (transport/_gate.py)
        ("unix-abstract:croupier-gate-0a1b2c3d4e5f6071-1", "gate:0a1b2c3d4e5f6071"),
        ("unix-abstract:croupier-gate-0a1b2c3d4e5f6071-12", "gate:0a1b2c3d4e5f6071"),
        ("unix-abstract:some-other-name", "unix"),
    ],
)
def test_a_peer_is_what_one_party_controls(peer: str, key: str) -> None:
    assert peer_key(peer) == key


def test_streams_held_without_hello_from_loopback_are_limited_on_play_and_session() -> None:
    """Today loopback is exempt: a local process may hold 1024 streams without a Hello, and
    Session streams are not counted anywhere."""

    async def main() -> tuple[str, str]:
        server = ArbiterServer()  # the defaults: the tests' peer is 127.0.0.1
        address = await server.start()
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                stub = bot_pb2_grpc.BotServiceStub(channel)
                held = [stub.Session() for _ in range(MAX_PENDING_PER_PEER)]
                await _opened(held)
                play, session = stub.Play(), stub.Session()
                outcome = await _first_error(play), await _first_error(session)
                for call in held:
                    call.cancel()
                return outcome
        finally:
            await server.stop(0)

    assert asyncio.run(main()) == ("TOO_MANY_ATTEMPTS", "TOO_MANY_ATTEMPTS")


def test_guessing_from_loopback_is_limited_yet_a_valid_token_still_gets_in(tmp_path: Path) -> None:
    async def main() -> tuple[list[str], str, str, str]:
        server = ArbiterServer()
        address = await server.start()
        match = Match(MatchConfig("as-nas", {"deals": 1}), "m-nat", ReplayWriter(tmp_path / "r"))
        server.bots.add_match(match)
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                stub = bot_pb2_grpc.BotServiceStub(channel)

                async def hello(token: str, session: bool = False) -> object:
                    if session:
                        call = stub.Session()
                        h = pb.SessionHello(token=token, protocol_version=PROTOCOL_VERSION)
                        await call.write(pb.SessionRequest(hello=h))
                    else:
                        call = stub.Play()
                        h2 = pb.Hello(token=token, bot_name="b", protocol_version=PROTOCOL_VERSION)
                        await call.write(pb.PlayRequest(hello=h2))
                    return call

                guesses = [
                    await _first_error(await hello(f"guess-{n}", session=n % 2 == 1))
                    for n in range(MAX_FAILED_HELLOS_PER_PEER)
                ]
                play_after = await _first_error(await hello("one-more"))
                session_after = await _first_error(await hello("one-more", session=True))
                honest = await hello(match.tokens[0])  # a neighbour behind the same address
                first = await asyncio.wait_for(honest.read(), 5)  # type: ignore[attr-defined]
                honest.cancel()  # type: ignore[attr-defined]
                return guesses, play_after, session_after, first.WhichOneof("kind")
        finally:
            await server.stop(0)

    guesses, play_after, session_after, honest = asyncio.run(main())
    assert set(guesses) == {"TOKEN_UNKNOWN"}
    assert (play_after, session_after) == ("TOO_MANY_ATTEMPTS", "TOO_MANY_ATTEMPTS")
    assert honest == "welcome"


def test_a_burst_of_honest_streams_from_one_address_all_get_in(tmp_path: Path) -> None:
    """Many seats dialled at once from one connection (a session process handed many seats, or
    bots behind one NAT): each says Hello at once with a valid token, and none is refused."""

    async def main() -> list[str]:
        server = ArbiterServer()
        address = await server.start()
        matches = [
            Match(MatchConfig("as-nas", {"deals": 1}), f"m-{n}", ReplayWriter(tmp_path / f"{n}"))
            for n in range(12)
        ]
        for match in matches:
            server.bots.add_match(match)
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                stub = bot_pb2_grpc.BotServiceStub(channel)
                calls = [stub.Play() for _ in range(4 * len(matches))]
                tokens = [t for m in matches for t in m.tokens]
                await asyncio.gather(
                    *(
                        call.write(
                            pb.PlayRequest(
                                hello=pb.Hello(
                                    token=token, bot_name="b", protocol_version=PROTOCOL_VERSION
                                )
                            )
                        )
                        for call, token in zip(calls, tokens, strict=True)
                    )
                )
                kinds = []
                for call in calls:
                    try:
                        kinds.append((await asyncio.wait_for(call.read(), 10)).WhichOneof("kind"))
                    except grpc.aio.AioRpcError as exc:
                        kinds.append(_reason(exc))
                for call in calls:
                    call.cancel()
                return kinds
        finally:
            await server.stop(0)

    assert asyncio.run(main()) == ["welcome"] * 48


def test_an_idle_connection_is_closed_after_its_documented_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A TCP connection that carries no stream is closed (GOAWAY) after CONNECTION_IDLE_S."""
    monkeypatch.setattr(server_module, "CONNECTION_IDLE_S", 1.0, raising=False)

    async def main() -> grpc.ChannelConnectivity:
        server = ArbiterServer()
        address = await server.start()
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                await asyncio.wait_for(channel.channel_ready(), 5)
                await asyncio.sleep(3.0)
                return channel.get_state()
        finally:
            await server.stop(0)

    assert asyncio.run(main()) is not grpc.ChannelConnectivity.READY


def test_a_held_open_reflection_stream_is_closed_after_the_hello_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_module, "HELLO_TIMEOUT_S", 0.5)

    async def main() -> str:
        server = ArbiterServer()
        address = await server.start()
        try:
            async with grpc.aio.insecure_channel(address) as channel:
                stub = reflection_pb2_grpc.ServerReflectionStub(channel)
                call = stub.ServerReflectionInfo()
                request = reflection_pb2.ServerReflectionRequest(list_services="")
                await call.write(request)  # a client that asks once, then holds the stream
                assert (await asyncio.wait_for(call.read(), 5)).list_services_response.service
                try:
                    ended = await asyncio.wait_for(call.read(), 5)
                except TimeoutError:
                    return "still open"
                return "closed" if ended is grpc.aio.EOF else "answered"
        finally:
            await server.stop(0)

    assert asyncio.run(main()) == "closed"
