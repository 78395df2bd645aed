"""TLS for remote bots: ``croupier match --bot remote --tls-cert FILE --tls-key FILE`` makes the
network listener speak TLS only (certificates from the suite's ``pki`` fixture, made with the
openssl command); a bot of the Python SDK joins over it with ``CROUPIER_TLS_CA``, launched bots
keep the unix socket, and a plaintext client, a client that does not trust the certificate and
(mutual TLS) a client without a certificate of the client CA are all refused before any Hello."""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from e2e_kit import join_remote_seat
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.errors import ConfigError
from croupier.replay import read_replay, verify
from croupier.transport import ArbiterServer, TlsConfig, server_credentials

pytestmark = pytest.mark.e2e


def test_a_remote_sdk_bot_plays_a_match_over_tls(tmp_path: Path, pki: dict[str, Path]) -> None:
    """The whole route: the CLI's flags, the TLS listener, the SDK's ``CROUPIER_TLS_CA``; the
    other seats are launched bots, which dial the (plaintext) unix socket."""
    done = join_remote_seat(
        tmp_path / "out", "--game", "as-nas", "--seed", "5", "--deals", "2", "--bot", "remote",
        "--bot", "random", "--connect-timeout", "60", "--tls-cert", pki["server_pem"],
        "--tls-key", pki["server_key"], tls=True, env={"CROUPIER_TLS_CA": str(pki["ca_pem"])},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (replay,) = (tmp_path / "out").glob("*.jsonl")
    parsed = read_replay(replay)
    seats = parsed.header["seats"]
    assert seats[0]["peer"].startswith("ipv4:127.0.0.1:")  # over the TLS listener
    assert all(s["peer"].startswith("unix:") for s in seats[1:])  # launched: the local socket
    assert [s["connected"] for s in seats] == [True] * 4
    verify(parsed)
    assert done.stdout.count("normal") == 4


async def _health(address: str, credentials: grpc.ChannelCredentials | None) -> object:
    """One health check over a fresh channel (plaintext without ``credentials``)."""
    channel = (
        grpc.aio.insecure_channel(address)
        if credentials is None
        else grpc.aio.secure_channel(address, credentials)
    )
    async with channel:
        stub = health_pb2_grpc.HealthStub(channel)
        return await stub.Check(health_pb2.HealthCheckRequest(), timeout=5)


def _code(address: str, credentials: grpc.ChannelCredentials | None) -> grpc.StatusCode:
    async def call() -> grpc.StatusCode:
        try:
            await _health(address, credentials)
        except grpc.aio.AioRpcError as exc:
            return exc.code()
        return grpc.StatusCode.OK

    return asyncio.run(call())


def _serve(tls: TlsConfig, work: object) -> None:
    async def main() -> None:
        server = ArbiterServer("127.0.0.1:0", tls=tls)
        address = await server.start()
        try:
            await asyncio.to_thread(work, address, server)  # type: ignore[arg-type]
        finally:
            await server.stop()

    asyncio.run(main())


def _creds(pki: dict[str, Path], ca: str = "ca_pem", client: bool = False) -> object:
    return grpc.ssl_channel_credentials(
        root_certificates=pki[ca].read_bytes(),
        private_key=pki["client_key"].read_bytes() if client else None,
        certificate_chain=pki["client_pem"].read_bytes() if client else None,
    )


def test_clients_that_do_not_speak_tls_or_trust_the_certificate_are_refused(
    pki: dict[str, Path],
) -> None:
    seen: dict[str, grpc.StatusCode] = {}

    def work(address: str, server: ArbiterServer) -> None:
        seen["plaintext"] = _code(address, None)
        seen["untrusted"] = _code(address, _creds(pki, "other-ca_pem"))  # type: ignore[arg-type]
        seen["trusting"] = _code(address, _creds(pki))  # type: ignore[arg-type]
        assert server.unix_socket is not None  # the local socket stays plaintext
        seen["unix"] = _code(f"unix:{server.unix_socket}", None)

    _serve(TlsConfig(pki["server_pem"], pki["server_key"]), work)
    assert seen == {
        "plaintext": grpc.StatusCode.UNAVAILABLE,
        "untrusted": grpc.StatusCode.UNAVAILABLE,
        "trusting": grpc.StatusCode.OK,
        "unix": grpc.StatusCode.OK,
    }


def test_mutual_tls_admits_only_clients_with_a_certificate_of_the_client_ca(
    pki: dict[str, Path],
) -> None:
    seen: dict[str, grpc.StatusCode] = {}

    def work(address: str, server: ArbiterServer) -> None:
        seen["no certificate"] = _code(address, _creds(pki))  # type: ignore[arg-type]
        seen["client certificate"] = _code(address, _creds(pki, client=True))  # type: ignore[arg-type]

    _serve(TlsConfig(pki["server_pem"], pki["server_key"], pki["ca_pem"]), work)
    assert seen == {
        "no certificate": grpc.StatusCode.UNAVAILABLE,
        "client certificate": grpc.StatusCode.OK,
    }


def test_bad_tls_files_are_one_clear_error(tmp_path: Path, pki: dict[str, Path]) -> None:
    garbage = tmp_path / "garbage.pem"
    garbage.write_text(
        "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n"
    )
    cases = {
        "cannot read the TLS certificate": TlsConfig(tmp_path / "missing.pem", pki["server_key"]),
        "is not a PEM file": TlsConfig(pki["server_pem"], pki["server_ext"]),
        "holds no private key": TlsConfig(pki["server_pem"], pki["server_pem"]),
        "do not load together": TlsConfig(pki["server_pem"], pki["client_key"]),
        "do not load together ": TlsConfig(garbage, pki["server_key"]),
        "is encrypted": TlsConfig(pki["server_pem"], pki["encrypted_key"]),
        "client CA": TlsConfig(pki["server_pem"], pki["server_key"], garbage),
    }
    for expected, tls in cases.items():
        with pytest.raises(ConfigError, match=expected.strip()) as caught:
            server_credentials(tls)
        assert "\n" not in str(caught.value)
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--bot", "remote",
         "--tls-cert", str(pki["server_pem"]), "--tls-key", str(pki["client_key"]),
         "--out", str(tmp_path / "out")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    (line,) = done.stderr.strip().splitlines()[-1:]
    assert line.startswith("croupier: error: the TLS certificate")
    assert "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas",
         "--tls-cert", str(pki["server_pem"])],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == (
        "croupier: error: --tls-cert and --tls-key go together"
    )


ROOT = Path(__file__).resolve().parents[2]
CPP_BOT = ROOT / "build" / "cpp" / "croupier-random-bot"
NODE_BOT = ROOT / "clients" / "node" / "examples" / "random.js"


def _sdk_bot(sdk: str) -> list[str]:
    if sdk == "node":
        node = shutil.which("node")
        if node is None or not (ROOT / "clients/node/node_modules/@grpc/grpc-js").is_dir():
            pytest.skip("Node.js or the Node SDK's dependencies are not installed")
        return [node, str(NODE_BOT)]
    if not CPP_BOT.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CPP_BOT} is missing: tests/run builds the C++ kit in CI")
        pytest.skip(f"{CPP_BOT} is not built (bash tests/run builds it)")
    return [str(CPP_BOT)]


@pytest.mark.parametrize("sdk", ["node", "cpp"])
def test_the_node_and_cpp_kits_dial_over_mutual_tls(
    sdk: str, tmp_path: Path, pki: dict[str, Path]
) -> None:
    """The other SDKs take the same variables: seat 0 joins over mutual TLS, the other seats
    are launched bots on the unix socket."""
    from croupier.arbiter import Match, MatchConfig, Outcome
    from croupier.runner import run_match

    argv = _sdk_bot(sdk)
    env = dict(
        os.environ,
        CROUPIER_TLS_CA=str(pki["ca_pem"]),
        CROUPIER_TLS_CERT=str(pki["client_pem"]),
        CROUPIER_TLS_KEY=str(pki["client_key"]),
    )
    bots: list[asyncio.subprocess.Process] = []

    async def main() -> object:
        async def start(address: str, token: str) -> None:
            env.update(CROUPIER_ADDRESS=address, CROUPIER_TOKEN=token)
            bots.append(
                await asyncio.create_subprocess_exec(*argv, env=env, stderr=asyncio.subprocess.PIPE)
            )

        def ready(address: str, match: Match) -> None:
            starting.append(asyncio.ensure_future(start(address, match.tokens[0])))

        starting: list[asyncio.Future[None]] = []
        config = MatchConfig("as-nas", {"deals": 1}, seed=3, connect_timeout_s=60)
        tls = TlsConfig(pki["server_pem"], pki["server_key"], pki["ca_pem"])
        random_bot = [sys.executable, "-m", "croupier_bots.random_bot"]
        run = await run_match(
            config, [None, *[random_bot] * 3], tmp_path / "out", tls=tls, on_ready=ready
        )
        _, err = await asyncio.wait_for(bots[0].communicate(), 60)
        assert bots[0].returncode == 0, err.decode()
        return run

    run = asyncio.run(main())
    assert run.result.seats[0].outcome is Outcome.NORMAL  # type: ignore[attr-defined]
    header = read_replay(run.replay).header  # type: ignore[attr-defined]
    assert header["seats"][0]["peer"].startswith("ipv4:127.0.0.1:")


def test_a_tournament_checks_its_tls_files_before_it_plays(
    tmp_path: Path, pki: dict[str, Path]
) -> None:
    config = tmp_path / "t.toml"
    config.write_text(
        'game = "as-nas"\nseed = 1\n[params]\ndeals = 1\n'
        '[bots]\na = "random"\nb = "random"\nc = "random"\nd = "random"\n'
    )
    base = [sys.executable, "-m", "croupier", "tournament", str(config), "--tls-cert",
            str(pki["server_pem"]), "--tls-key"]  # fmt: skip
    cases = {
        str(pki["client_key"]): "croupier: error: the TLS certificate",  # not its key
        f"{pki['server_key']} --executor ray": "croupier: error: --tls-cert: TLS serves remote",
    }
    for rest, expected in cases.items():
        done = subprocess.run(
            [*base, *rest.split()], capture_output=True, text=True, timeout=60, cwd=tmp_path
        )
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.strip().splitlines()[-1].startswith(expected)
        assert "Traceback" not in done.stderr
    # the same files from the file's [tls] table instead of the flags
    text = config.read_text()
    for key, rest, expected in [
        (pki["client_key"], [], "croupier: error: the TLS certificate"),
        (pki["server_key"], ["--executor", "ray"], f"croupier: error: {config}: tls: TLS serves"),
    ]:
        config.write_text(f'{text}[tls]\ncert = "{pki["server_pem"]}"\nkey = "{key}"\n')
        done = subprocess.run(
            [sys.executable, "-m", "croupier", "tournament", str(config), *rest],
            capture_output=True, text=True, timeout=60, cwd=tmp_path,
        )  # fmt: skip
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.strip().splitlines()[-1].startswith(expected), done.stderr
        assert "Traceback" not in done.stderr
    assert not list(tmp_path.glob("matches/*.jsonl"))  # nothing was played
