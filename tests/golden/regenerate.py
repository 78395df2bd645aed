"""Rewrite the golden playthrough of every registered game (after an intended rules change; bump
the game's ``version`` too): ``.venv/bin/python tests/golden/regenerate.py``."""

from __future__ import annotations

from pathlib import Path

from croupier.games import GAMES, get_spec
from croupier.games.playthrough import generate

HERE = Path(__file__).parent


def main() -> None:
    for name in GAMES:
        config = get_spec(name).playthrough
        path = HERE / f"{name}.txt"
        path.write_text(generate(name, dict(config.params), config.seed), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
