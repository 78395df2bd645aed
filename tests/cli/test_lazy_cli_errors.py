"""Lazy imports change no behaviour (issue 20, "fast start-up"): every subcommand's arguments are
added when it is chosen and every handler imports what it runs, yet each mistake a user can make
is still one ``croupier: error: ...`` line (or argparse's usage and its one error line) with its
documented exit status, never a traceback, through the code path that now imports late: the
type checks of the arguments (seeds, ``NAME=VALUE``, addresses, sandbox limits), the games and
bundled bots named in choices, the replay reader behind the facade, the configuration files of
``tournament`` and ``serve``, ``ctl``'s gRPC client. Each is a real ``croupier`` process.

The messages are those of the eager parser before the change (checked against main's, byte for
byte, when this test was written).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import croupier

_CROUPIER = "from croupier.__main__ import run; run()"


def croupier_cli(*argv: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", _CROUPIER, *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("errors")
    (folder / "bad.jsonl").write_text('{"type": "nope"}\n')
    (folder / "bad.toml").write_text('[format]\nkind = "knockout"\n')
    return folder


#: (argv, exit status, "usage" for argparse's usage error of that prog or "line" for one
#: ``croupier: error:`` line alone, a piece of the error line). ``{d}``: the fixture's folder.
CASES: list[tuple[tuple[str, ...], int, str, str]] = [
    (("bogus",), 2, "usage croupier", "invalid choice: 'bogus'"),
    (("replay", "bogus"), 2, "usage croupier replay", "invalid choice: 'bogus'"),
    (("match", "--game", "no-such-game"), 2, "usage croupier match",
     "invalid choice: 'no-such-game' (choose from 'as-nas', 'felduz', 'fipsen', 'scauver')"),
    (("match", "--game", "as-nas", "--seed", "-1"), 2, "usage croupier match",
     "argument --seed: seed -1: must be an integer from 0 to 2**128 - 1"),
    (("match", "--game", "as-nas", "--param", "x"), 2, "usage croupier match",
     "argument --param: expected NAME=VALUE, got 'x'"),
    (("match", "--game", "as-nas", "--event-flush-ms", "-5"), 2, "usage croupier match",
     "argument --event-flush-ms: -5 is not from 0 to 60000 ms"),
    (("match", "--game", "as-nas", "--listen", "nohost"), 2, "usage croupier match",
     "'nohost' is not HOST:PORT"),
    (("match", "--game", "as-nas", "--bot-memory-mb", "-1"), 2, "usage croupier match",
     "argument --bot-memory-mb: -1 is negative"),
    (("match", "--game", "felduz", "--stack", "0"), 2, "usage croupier",
     "unrecognized arguments: --stack 0"),
    (("match", "--game", "as-nas", "--deals", "100000"), 2, "line",
     "as-nas parameter 'deals'=100000 is out of range [1, 1000]"),
    (("match", "--game", "as-nas", "--param", "nosuch=3"), 2, "line",
     "as-nas has no parameter 'nosuch' (known: deals, players)"),
    (("match", "--game", "as-nas", "--fault-policy", "bad=x"), 2, "line",
     "unknown fault class 'bad'"),
    (("match", "--game", "as-nas", "--deals", "1", "--bot", "/no/such/bot"), 2, "line",
     "/no/such/bot is not an executable file"),
    (("match", "--game", "as-nas", "--play-listen", "127.0.0.1:0"), 2, "line",
     "--play-listen is where the page of --bot human seats listens, and no seat is human"),
    (("check-bot", "--game", "no-such", "/no/such/bot"), 2, "usage croupier check-bot",
     "argument --game: 'no-such' is not a game (choose from as-nas, felduz, fipsen, scauver, "
     "or all)"),
    (("check-bot", "/no/such/bot"), 2, "line", "/no/such/bot is not an executable file"),
    (("games", "no-such-game"), 2, "usage croupier", "unrecognized arguments: no-such-game"),
    (("replay", "verify", "/no/such.jsonl"), 2, "line",
     "/no/such.jsonl: cannot read: No such file or directory"),
    (("replay", "verify", "{d}/bad.jsonl"), 2, "line", "line 1: unknown record type 'nope'"),
    (("replay", "show", "--seat", "9", "{d}/bad.jsonl"), 2, "line",
     "line 1: unknown record type 'nope'"),
    (("replay", "summary", "/no/such.jsonl"), 2, "line", "cannot read"),
    (("replay", "step", "/no/such.jsonl"), 2, "line", "cannot read"),
    (("replay", "diff", "/no/a.jsonl", "/no/b.jsonl"), 2, "line", "/no/a.jsonl: cannot read"),
    (("replay", "export", "/no/such.jsonl"), 2, "usage croupier replay export",
     "the following arguments are required: --to"),
    (("replay", "export", "--to", "{d}/x", "--format", "xyz", "/no/such.jsonl"), 2,
     "usage croupier replay export", "argument --format: invalid choice: 'xyz'"),
    (("tournament", "/no/such.toml"), 2, "line",
     "cannot read /no/such.toml: No such file or directory"),
    (("tournament", "{d}/bad.toml"), 2, "line", "bad.toml: game: missing"),
    (("serve", "--config", "{d}/bad.toml"), 2, "line", "bad.toml: format: unknown table"),
    (("ctl", "bogus"), 2, "usage croupier ctl", "invalid choice: 'bogus'"),
    (("ctl", "--address", "127.0.0.1:1", "list"), 5, "line",
     "cannot reach the server at 127.0.0.1:1"),
    # a port past 65535 was dialled modulo 65536 (99999: port 34463), another server's maybe
    (("ctl", "--address", "127.0.0.1:99999", "list"), 2, "line",
     "--address '127.0.0.1:99999': the port is not from 1 to 65535"),
    # a seat or a delay is a protocol uint32: checked before the call, not by protobuf's setter
    (("ctl", "--address", "127.0.0.1:1", "seat", "m", "99999999999999999999"), 2,
     "usage croupier ctl seat", "argument seat: 99999999999999999999 is more than 4294967295"),
    (("ctl", "--address", "127.0.0.1:1", "seat", "m", "-1"), 2,
     "usage croupier ctl seat", "argument seat: -1 is negative"),
    (("ctl", "--address", "127.0.0.1:1", "watch", "m", "--seat", "-1"), 2,
     "usage croupier ctl watch", "argument --seat: -1 is negative"),
    (("ctl", "--address", "127.0.0.1:1", "watch", "m", "--delay-decisions", "4294967296"), 2,
     "usage croupier ctl watch", "argument --delay-decisions: 4294967296 is more than"),
    (("ctl", "--address", "127.0.0.1:1", "watch", "m", "--delay-rounds", "-1"), 2,
     "usage croupier ctl watch", "argument --delay-rounds: -1 is negative"),
]  # fmt: skip


@pytest.mark.parametrize(("argv", "status", "form", "needle"), CASES, ids=lambda v: str(v))
def test_a_users_mistake_is_still_one_line_with_its_status(
    files: Path, argv: tuple[str, ...], status: int, form: str, needle: str
) -> None:
    done = croupier_cli(*(a.replace("{d}", str(files)) for a in argv))
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode == status, done.stderr
    lines = done.stderr.splitlines()
    if form == "line":
        assert len(lines) == 1, lines
        assert lines[0].startswith("croupier: error: "), lines
    else:
        prog = form.removeprefix("usage ")
        assert lines[0].startswith(f"usage: {prog} "), lines
        errors = [line for line in lines if ": error: " in line]
        assert errors == [lines[-1]], lines
        assert lines[-1].startswith(f"{prog}: error: "), lines
    assert needle in lines[-1], lines[-1]


def test_version_prints_the_version_and_help_every_command() -> None:
    done = croupier_cli("--version")
    assert (done.returncode, done.stdout, done.stderr) == (
        0,
        f"croupier {croupier.__version__}\n",
        "",
    )
    done = croupier_cli("--help")
    assert done.returncode == 0
    for command in ("match", "replay", "check-bot", "games", "tournament", "serve", "ctl"):
        assert f"    {command} " in done.stdout
    done = croupier_cli("match", "--help")  # the arguments built when the command is chosen
    assert done.returncode == 0
    assert "--game {as-nas,felduz,fipsen,scauver}" in done.stdout
    assert "--event-flush-ms MS" in done.stdout
