"""``croupier replay show --deal N`` names only a deal or round the replay holds, in every game
(the chip games count rounds, which no parameter fixes in advance)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from seats_kit import play

from croupier.arbiter import DecisionRequest, MatchConfig
from croupier.cli import main


def _random(seed: int) -> object:
    rng = np.random.default_rng(seed)

    def policy(request: DecisionRequest) -> int:
        return int(request.legal_actions[rng.integers(len(request.legal_actions))])

    return policy


@pytest.fixture(scope="module")
def felduz(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    path = tmp_path_factory.mktemp("r") / "felduz.jsonl"
    config = MatchConfig("felduz", {"players": 2, "round_cap": 4, "stack": 6}, seed=3)
    play(config, "show-rounds", path, [_random(1), _random(2)])  # type: ignore[list-item]
    rounds = sum('"type":"round_end"' in line for line in path.read_text().splitlines())
    return path, rounds


@pytest.mark.parametrize("bad", ["0", "999", "-1"])
def test_a_round_the_replay_does_not_hold_is_one_error_line(
    felduz: tuple[Path, int], bad: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path, rounds = felduz
    assert main(["replay", "show", str(path), "--deal", bad]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    why = " (numbered from 1: the wire's round 0 is round 1)" if bad == "0" else ""
    assert err == [f"croupier: error: --deal {bad}: the replay holds rounds 1..{rounds}{why}"]


@pytest.mark.parametrize("flag", ["--round", "--deal"])
def test_the_error_names_the_flag_as_typed(
    felduz: tuple[Path, int], flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--round 0`` (the wire's first round) is answered as ``--round 0``, not ``--deal 0``."""
    path, rounds = felduz
    assert main(["replay", "show", str(path), flag, "0"]) == 2
    (err,) = capsys.readouterr().err.strip().splitlines()
    assert err == (
        f"croupier: error: {flag} 0: the replay holds rounds 1..{rounds} "
        "(numbered from 1: the wire's round 0 is round 1)"
    )


def test_every_round_it_holds_is_shown(
    felduz: tuple[Path, int], capsys: pytest.CaptureFixture[str]
) -> None:
    path, rounds = felduz
    for n in range(1, rounds + 1):
        assert main(["replay", "show", str(path), "--deal", str(n)]) == 0
        assert f"── Round {n}/4" in capsys.readouterr().out
