"""The docs' examples stay true: the example replay verifies, the example transcript and the
stdio example session parse as the protocol's messages, and every relative link points at a file
that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from google.protobuf import json_format, text_format

from croupier.replay import read_replay, verify
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
    assert all(answer.isdigit() for answer in written)


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
