"""End to end: a three-player Scauver match of bundled bot processes over gRPC, through the
``croupier`` command exactly as a user runs it; its replay verifies and renders each view
without leaking what the viewer may not see."""

from __future__ import annotations

import re

import pytest
from e2e_kit import Played, croupier, play_match

from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e

BOTS = ["scauver-heuristic", "random", "scauver-heuristic"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``croupier match --game scauver --players 3 --seed 5 --deals 3``: three rounds: a
    showdown, rounds won by the last one in, and an elimination."""
    out = tmp_path_factory.mktemp("scauver")
    args = ("--game", "scauver", "--players", 3, "--seed", 5, "--deals", 3)
    return play_match(out, *args, timeout=180)


def test_the_match_finishes_and_its_replay_verifies(played: Played) -> None:
    for seat, name in enumerate(BOTS):
        assert re.search(
            rf"^\d\s+{seat}\s+{name}\s+\d+\s+normal\s+0\s+0$", played.done.stdout, re.M
        )
    done = croupier("replay", "verify", played.replay)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")
    assert ", 3 rounds, scores " in done.stdout  # a chip game counts rounds, not deals
    summary = croupier("replay", "summary", played.replay).stdout
    assert "scauver, 3 rounds, finished" in summary
    replay = read_replay(played.replay)
    assert replay.complete
    assert sum(verify(replay).scores) == 300  # chips are conserved


def _show(played: Played, *view: object) -> list[str]:
    done = croupier("replay", "show", played.replay, *view)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_the_omniscient_view_shows_every_card_and_the_chosen_links(played: Played) -> None:
    lines = _show(played)
    assert len([x for x in lines if "[chance]" in x]) == 1 + 3  # the first dealer, 3 deals
    showdowns = [x for x in lines if "showdown:" in x]
    assert showdowns
    assert all(re.search(r"D \d+, (link \[.+\] = \[.+\] v \d+ \(\d–\d\), score \d+|no link)", x)
               for x in showdowns)  # fmt: skip
    assert any("decided by" in x for x in lines)
    assert any(re.match(r"\s*seat \d: Open:\[", x) for x in lines)


def test_a_seat_view_shows_only_its_own_hidden_cards(played: Played) -> None:
    seat = 1
    lines = _show(played, "--seat", seat)
    assert "[chance]" not in "\n".join(lines)
    private = [m[1] for x in lines if (m := re.match(r"\s*seat (\d) (is dealt|draws) ", x))]
    assert private
    assert set(private) == {str(seat)}
    openings = [m[1] for x in lines if (m := re.match(r"\s*seat (\d): Open:", x))]
    assert set(openings) == {str(seat)}  # others' opening actions are never shown...
    reveal = [i for i, x in enumerate(lines) if " opens: " in x]
    assert reveal  # ...their flanks appear once every seat has chosen
    own = [i for i, x in enumerate(lines) if x.strip().startswith(f"seat {seat}: Open:")]
    assert all(any(o < r for o in own) for r in reveal)


def test_the_public_view_shows_no_hidden_card(played: Played) -> None:
    text = "\n".join(_show(played, "--public"))
    assert "public view" in text.splitlines()[0]
    assert "[chance]" not in text
    assert "is dealt" not in text
    assert " draws " not in text
    assert "Open:" not in text
    assert " opens: " in text
    assert "showdown:" in text
