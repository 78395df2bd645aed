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
