"""``croupier games``: the games and their parameters."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``croupier games`` takes none."""


def run(args: argparse.Namespace) -> int:
    from croupier.games import GAMES, get_game

    for name in GAMES:
        info = get_game(name).info
        print(
            f"{name}: {info.title} (rules v{info.version}, {info.min_players}-{info.max_players} "
            f"players; rules: {info.rules_doc})"
        )
        for p in info.params:
            print(f"    {p.name}={p.default}  [{p.low}..{p.high}]  {p.doc}")
    return 0
