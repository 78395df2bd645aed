"""The docs' examples stay true: the example replay verifies, the example transcript and the
stdio example session parse as the protocol's messages, every relative link points at a file
that exists, every program of docs/protocol.md (its ``python`` and ``js`` blocks) is run by a
test here, and its commands that generate C++ and Go stubs run as written."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path

import pytest
from google.protobuf import json_format, text_format

from croupier.replay import read_replay, verify
from croupier.v1 import PROTOCOL_VERSION
from croupier.v1 import bot_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
DOCS = [
    ROOT / "README.md",
    *sorted((ROOT / "docs").rglob("*.md")),
    *ROOT.glob("clients/*/README.md"),
]


def _blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def test_the_example_replay_verifies(tmp_path: Path) -> None:
    example = _blocks((ROOT / "docs" / "replay-format.md").read_text(), "jsonl")[0]
    path = tmp_path / "example.jsonl"
    path.write_text(example)
    report = verify(read_replay(path))
    assert report.rounds == 1


def test_the_example_transcript_parses_as_protocol_messages() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    transcript = text[text.index("## Example transcript") :]
    blocks = _blocks(transcript[: transcript.index("\n## ")], "protobuf")
    chunks = []
    for block in blocks:
        chunks += re.split(r"^# (bot -> arbiter|arbiter -> bot)\b.*\n", block, flags=re.M)[1:]
    directions, bodies = chunks[0::2], chunks[1::2]
    assert directions.count("bot -> arbiter") >= 2
    assert directions.count("arbiter -> bot") >= 4
    for direction, body in zip(directions, bodies, strict=True):
        message = pb.PlayRequest() if direction == "bot -> arbiter" else pb.PlayResponse()
        text_format.Parse(body, message)
        assert message.ListFields(), body


def test_the_stdio_example_session_is_canonical_json_of_protocol_messages() -> None:
    text = (ROOT / "docs" / "protocol.md").read_text()
    session = text[text.index("### Example session") :]
    (block,) = _blocks(session[: session.index("\n## ")], "")[:1]
    lines = block.splitlines()
    read = [line[2:] for line in lines if line.startswith("> ")]
    written = [line[2:] for line in lines if line.startswith("< ")]
    assert len(read) + len(written) == len(lines)
    kinds = [json_format.Parse(line, pb.PlayResponse()).WhichOneof("kind") for line in read]
    assert kinds == ["welcome", "decision", "match_end"]
    # the program's hello first (the stdio handshake), then its answers
    hello = json_format.Parse(written[0], pb.PlayRequest()).hello
    assert (hello.bot_name, hello.bot_version) == ("tee-bot", "1.0")
    assert lines[0] == f"< {written[0]}"
    assert written[1:]
    assert all(answer.isdigit() for answer in written[1:])
    welcome = json_format.Parse(read[0], pb.PlayResponse()).welcome
    assert welcome.protocol_version == PROTOCOL_VERSION  # the bridge speaks the current one
    end = json_format.Parse(read[-1], pb.PlayResponse()).match_end
    assert end.results[welcome.seat].bot_name == hello.bot_name  # named by its hello


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files(doc: Path) -> None:
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", doc.read_text()):
        assert (doc.parent / target).exists(), f"{doc.name}: broken link {target}"


@pytest.mark.e2e
def test_the_complete_javascript_bot_passes_check_bot_in_the_sandbox(tmp_path: Path) -> None:
    """docs/protocol.md's "A complete bot in JavaScript", copied out of the docs into a project
    of its own (with the Node SDK's installed @grpc packages) and checked as its text says, in
    the default sandbox and with no CROUPIER_PROTO_DIR of the user's: the arbiter tells the bot
    where the .proto files are. (It died with ENOENT croupier/v1/bot.proto in the sandbox.)"""
    import os
    import shutil
    import subprocess
    import sys

    from serve_kit import NODE_SDK, node_program

    node = node_program()
    text = (ROOT / "docs" / "protocol.md").read_text()
    section = text[text.index("## A complete bot in JavaScript") :]
    (program,) = _blocks(section[: section.index("\n## ")], "js")
    (commands,) = _blocks(section[: section.index("\n## ")], "sh")
    assert 'croupier check-bot "node bot.js"' in commands
    project = tmp_path / "js-bot"
    project.mkdir()
    (project / "bot.js").write_text(program)
    shutil.copytree(NODE_SDK / "node_modules", project / "node_modules", symlinks=True)
    env = {k: v for k, v in os.environ.items() if k != "CROUPIER_PROTO_DIR"}
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "check-bot", f"{node} bot.js", "--deals", "1"],
        capture_output=True, text=True, timeout=120, cwd=project, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed, 0 failed" in done.stdout


def test_the_commitment_recipe_in_the_protocol_guide_gives_the_replay_s_commitment() -> None:
    """docs/protocol.md's Python recipe for recomputing a match's commitment, run as the docs
    give it, on the docs' example replay (format 4): it gives the header's commitment."""
    import json

    text = (ROOT / "docs" / "protocol.md").read_text()
    (recipe,) = [b for b in _blocks(text, "python") if "def commitment(" in b]
    scope: dict[str, object] = {}
    exec(recipe, scope)  # the docs' own code
    example = _blocks((ROOT / "docs" / "replay-format.md").read_text(), "jsonl")[0]
    records = [json.loads(line) for line in example.splitlines() if line.strip()]
    header, result = records[0], records[-1]
    assert header["format_version"] == 4
    commitment = scope["commitment"]
    assert callable(commitment)
    assert commitment(header, int(header["seed"]), result["salt"]) == header["commitment"]


#: Every program block (``python``, ``js``) of docs/protocol.md, by its first line, and the test
#: here that runs it: a program added to the guide fails the check below until a test runs it.
PROTOCOL_PROGRAMS = {
    "import hashlib, json": "test_the_commitment_recipe_in_the_protocol_guide_gives_the_replay_s_"
    "commitment",
    "// bot.js: a minimal Croupier bot (As-Nas).": "test_the_complete_javascript_bot_passes_"
    "check_bot_in_the_sandbox",
    '"""Host one As-Nas match for bots that connect from anywhere."""': "test_the_hosting_"
    "program_in_the_protocol_guide_plays_a_match_with_remote_bots",
}


def _protocol_programs() -> list[str]:
    text = (ROOT / "docs" / "protocol.md").read_text()
    return [*_blocks(text, "python"), *_blocks(text, "js")]


def test_every_program_of_the_protocol_guide_is_run_by_a_test() -> None:
    firsts = [block.splitlines()[0] for block in _protocol_programs()]
    assert sorted(firsts) == sorted(PROTOCOL_PROGRAMS), (
        "docs/protocol.md's python/js blocks changed: run each new one in a test of "
        "tests/docs/test_docs_examples.py and list it in PROTOCOL_PROGRAMS"
    )
    for name in PROTOCOL_PROGRAMS.values():
        assert callable(globals().get(name)), name


def _codegen_block(marker: str) -> str:
    text = (ROOT / "docs" / "protocol.md").read_text()
    (block,) = [b for b in _blocks(text, "sh") if marker in b]
    return block


@pytest.mark.parametrize(
    ("language", "marker", "tools", "made"),
    [
        ("cpp", "--cpp_out", ["protoc", "grpc_cpp_plugin"], "gen/croupier/v1/bot.grpc.pb.cc"),
        ("go", "--go_out", ["protoc", "protoc-gen-go", "protoc-gen-go-grpc"],
         "gen/croupierv1/bot_grpc.pb.go"),
    ],
)  # fmt: skip
def test_the_protocol_guides_stub_commands_run_as_written(
    language: str, marker: str, tools: list[str], made: str, tmp_path: Path
) -> None:
    """docs/protocol.md's commands that generate C++ and Go stubs, run as written in a fresh
    folder holding a copy of ``proto/`` (the Go one failed: ``gen/: No such file or
    directory``)."""
    import os
    import shutil
    import subprocess

    missing = [tool for tool in tools if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI needs {', '.join(missing)} (tests/run installs them)")
        pytest.skip(f"missing: {', '.join(missing)}")
    shutil.copytree(ROOT / "proto" / "croupier", tmp_path / "proto" / "croupier")
    done = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", _codegen_block(marker)],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, f"{language}: {done.stderr}"
    assert (tmp_path / made).is_file(), sorted(p.name for p in tmp_path.rglob("*"))


#: A log line of the arbiter's (structlog's console format, the default without configuration).
_LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \[")


@pytest.mark.e2e
def test_the_hosting_program_in_the_protocol_guide_plays_a_match_with_remote_bots(
    tmp_path: Path,
) -> None:
    """docs/protocol.md's Python program that hosts one As-Nas match for remote bots, run as the
    docs give it but listening on a free local port: it prints each seat's address and token,
    four bots dial in with them, and it prints every seat's result (between the arbiter's log
    lines, which a program that configures no logging gets on stdout too)."""
    import os
    import subprocess
    import sys

    (program,) = [b for b in _protocol_programs() if "Host one As-Nas match" in b]
    assert 'listen="0.0.0.0:50051"' in program
    program = program.replace('listen="0.0.0.0:50051"', 'listen="127.0.0.1:0"')
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    host = subprocess.Popen(
        [sys.executable, "-c", program], cwd=tmp_path, env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )  # fmt: skip
    bots: list[subprocess.Popen[str]] = []
    try:
        assert host.stdout is not None
        seats: list[str] = []
        while len(seats) < 4 and (line := host.stdout.readline()):
            if not _LOG_LINE.match(line):
                seats.append(line)
        bot = "from croupier_bot import run\nrun(lambda d: d.legal_ids[0], name='first')\n"
        for n, line in enumerate(seats):
            match = re.fullmatch(rf"seat {n}: CROUPIER_ADDRESS=(\S+) CROUPIER_TOKEN=(\S+)\n", line)
            assert match, seats
            seat_env = {**env, "CROUPIER_ADDRESS": match[1], "CROUPIER_TOKEN": match[2]}
            bots.append(subprocess.Popen([sys.executable, "-c", bot], env=seat_env, text=True))
        out, err = host.communicate(timeout=120)
        for proc in bots:  # each ends on its own once told the match is over
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=30)
    finally:
        for proc in (*bots, host):
            if proc.poll() is None:
                proc.kill()
            proc.wait()
    assert host.returncode == 0, err
    rows = [line.split() for line in out.splitlines() if not _LOG_LINE.match(line)]
    assert [(r[0], r[1], r[-1]) for r in rows] == [(str(n), "first", "normal") for n in range(4)]
    assert [bot.returncode for bot in bots] == [0] * 4
    assert list(tmp_path.glob("matches/*.jsonl"))
