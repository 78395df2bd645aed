"""A scripted deal (``MatchConfig.chance_script``) that does not fit the game is refused cleanly."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from croupier.arbiter import ClockRules, Match, MatchConfig
from croupier.errors import ConfigError
from croupier.games import GAMES
from croupier.replay import ReplayWriter


def test_a_malformed_chance_script_is_a_config_error_in_every_game(tmp_path: Path) -> None:
    """The arbiter applies a scripted outcome (which checks it) before labelling it, so a bad
    script is a ConfigError naming the problem, never an IndexError from a label."""
    for game in GAMES:
        for bad in ((), (10**6,)):
            config = MatchConfig(
                game,
                {},
                seed=1,
                clock=ClockRules(move_time_ms=100, time_bank_ms=0),
                connect_timeout_s=0.2,
                chance_script=(bad,),
            )
            match = Match(config, "bad", ReplayWriter(tmp_path / f"{game}-{len(bad)}.jsonl"))
            with pytest.raises(ConfigError, match="chance_script does not fit"):
                asyncio.run(match.run())
