"""``croupier match --bot remote``: a seat whose bot is not launched by the arbiter but dials in
from elsewhere with the token the arbiter prints (how competitors' machines join a match)."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from e2e_kit import join_remote_seat

from croupier.replay import read_replay, verify

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.e2e


def test_a_remote_bot_joins_with_the_printed_token(tmp_path: Path) -> None:
    done = join_remote_seat(
        tmp_path, "--game", "as-nas", "--seed", "5", "--deals", "2", "--bot", "remote",
        "--bot", "random", "--connect-timeout", "60",
    )  # fmt: skip
    assert done.returncode == 0
    (replay,) = tmp_path.glob("*.jsonl")
    parsed = read_replay(replay)
    seat = dict(parsed.header["seats"][0])
    assert seat.pop("peer").startswith("ipv4:127.0.0.1:")  # where the remote bot came from
    assert seat == {"seat": 0, "bot_name": "random", "bot_version": "1", "connected": True}
    verify(parsed)
    assert "normal" in done.stdout
    assert not (tmp_path / f"{parsed.header['match_id']}.seat0.log").exists()  # not launched here


def test_a_stdio_program_behind_the_sdk_bridge_joins_under_its_hello(tmp_path: Path) -> None:
    """``python -m croupier_bot.stdio`` with a seat token (one match): the program's first line,
    a hello, names the bot in Hello; it is not taken as a reply."""
    program = [sys.executable, str(ROOT / "clients" / "stdio" / "random_bot.py")]
    done = join_remote_seat(
        tmp_path, "--game", "fipsen", "--seed", "5", "--deals", "1", "--bot", "remote",
        "--bot", "random", "--connect-timeout", "60",
        bot=[sys.executable, "-m", "croupier_bot.stdio", "--", *program],
    )  # fmt: skip
    assert done.returncode == 0
    (replay,) = tmp_path.glob("*.jsonl")
    parsed = read_replay(replay)
    seat = parsed.header["seats"][0]
    assert (seat["bot_name"], seat["bot_version"]) == ("random-py", "1.0")
    result = next(r for r in parsed.records if r.type == "result").data["seats"][0]
    assert (result["rejected"], result["outcome"]) == (0, "normal"), result
    verify(parsed)


def test_a_remote_seat_nobody_joins_is_played_by_default(tmp_path: Path) -> None:
    """After the connect timeout the match goes on; the empty seat ends disconnected."""
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", "5",
         "--deals", "1", "--out", str(tmp_path), "--bot", "remote", "--connect-timeout", "1"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0
    row = next(line for line in done.stdout.splitlines() if "(remote)" in line)
    assert row.split()[1] == "0"  # seat 0
    assert "disconnected" in row


#: The warning lines of croupier match's plaintext ports off loopback (cli/_match.py).
LISTEN_WARNING = (
    "croupier: warning: --listen {address} is not a loopback address and the arbiter speaks "
    "plaintext: anyone on the network path can read the seat tokens and play those seats "
    "(--tls-cert and --tls-key make it TLS)"
)
PLAY_WARNING = (
    "croupier: warning: --play-listen {address} is not a loopback address and the page is "
    "plain HTTP: anyone on the network path can read a seat's link and play that seat"
)


@pytest.mark.parametrize(
    ("extra", "warning"),
    [
        (("--bot", "remote", "--listen"), LISTEN_WARNING),
        (("--bot", "human", "--play-listen"), PLAY_WARNING),
        (("--listen",), None),  # no seat dials in from elsewhere: nothing to warn of
    ],
)
@pytest.mark.parametrize("host", ["0.0.0.0", "127.0.0.1"])
def test_a_plaintext_port_off_loopback_is_warned_of(
    tmp_path: Path, extra: tuple[str, ...], warning: str | None, host: str
) -> None:
    """Remote seats' tokens (``--listen`` without TLS) and the human seats' page
    (``--play-listen``, plain HTTP) cross the network in clear off loopback: one warning line
    each, and the match still runs (a LAN match is allowed; here the busy port ends each run).
    On loopback, no warning."""
    with socket.socket() as busy:
        busy.bind(("0.0.0.0", 0))
        busy.listen()
        address = f"{host}:{busy.getsockname()[1]}"
        argv = [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--out", tmp_path]
        done = subprocess.run(
            [*argv, *extra, address], capture_output=True, text=True, timeout=60, check=False
        )
    assert done.returncode == 2, done.stderr
    said = [line for line in done.stderr.splitlines() if "warning: --" in line]  # (not sandbox's)
    off_loopback = host == "0.0.0.0" and warning is not None
    assert said == ([warning.format(address=address)] if off_loopback else [])
