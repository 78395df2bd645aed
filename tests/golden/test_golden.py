"""Golden playthroughs: each registered game has a file, which re-simulates to itself.

Regenerate after an intended rules change: ``python tests/golden/regenerate.py``
(and bump the game's ``version`` if legal moves or scoring changed).
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from croupier.errors import IllegalActionError
from croupier.games import GAMES, get_spec
from croupier.games.playthrough import generate, resimulate

HERE = Path(__file__).parent
REGEN = "python tests/golden/regenerate.py"


def golden_path(directory: Path, name: str) -> Path:
    return directory / f"{name}.txt"


def _first_difference(expected: str, actual: str) -> str:
    diff = difflib.unified_diff(
        expected.splitlines(), actual.splitlines(), "golden", "now", n=1, lineterm=""
    )
    return "\n".join(list(diff)[:12])


@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_a_golden_file(name: str) -> None:
    assert golden_path(HERE, name).is_file(), f"no golden file for {name}: run `{REGEN}`"


@pytest.mark.parametrize("name", GAMES)
def test_golden_file_resimulates_from_its_own_moves(name: str) -> None:
    golden = golden_path(HERE, name).read_text(encoding="utf-8")
    again = resimulate(golden)
    assert again == golden, f"rules changed? (`{REGEN}`)\n{_first_difference(golden, again)}"


@pytest.mark.parametrize("name", GAMES)
def test_golden_file_is_reproduced_from_its_seed(name: str) -> None:
    golden = golden_path(HERE, name).read_text(encoding="utf-8")
    config = get_spec(name).playthrough
    again = generate(name, dict(config.params), config.seed)
    assert again == golden, _first_difference(golden, again)


def test_a_changed_move_is_caught() -> None:
    """The comparison can fail: any altered action either makes a later recorded move illegal or
    changes the states that follow it."""
    golden = golden_path(HERE, "as-nas").read_text(encoding="utf-8")
    lines = golden.splitlines(keepends=True)
    actions = [i for i, line in enumerate(lines) if line.startswith("action: ")][:20]
    diverged = 0
    for index in actions:
        legal = [int(x.split()[0]) for x in lines[index - 1].removeprefix("legal: ").split(", ")]
        chosen = int(lines[index].split()[1])
        for other in (a for a in legal if a != chosen):
            edited = [*lines[:index], f"action: {other} x\n", *lines[index + 1 :]]
            try:
                again = resimulate("".join(edited)).splitlines(keepends=True)
            except IllegalActionError:
                continue  # a later recorded action became illegal: caught
            following = slice(index + 1, index + 8)  # the next step's observations
            assert again[following] != lines[following]
            diverged += 1
    assert diverged > 0  # the divergence branch, not only the illegal one, was exercised
