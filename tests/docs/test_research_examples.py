"""docs/research.md's examples run as they are: every ``python`` block, in order, in one
namespace (as a reader pastes them into one session)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RESEARCH = ROOT / "docs" / "research.md"


def test_every_example_of_the_research_guide_runs() -> None:
    blocks = re.findall(r"```python\n(.*?)```", RESEARCH.read_text(), re.S)
    assert len(blocks) >= 5
    namespace: dict[str, object] = {"__name__": "research_examples"}
    for number, block in enumerate(blocks, 1):
        code = compile(block, f"{RESEARCH.name}, python block {number}", "exec")
        exec(code, namespace)
    env = namespace["env"]
    assert env.match.over  # type: ignore[attr-defined]  # (the last example played a match)
