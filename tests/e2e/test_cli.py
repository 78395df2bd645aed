"""End to end: the ``croupier`` command run as a subprocess, exactly as a user runs it.

Contract under test (``croupier.cli``): a user's mistake ends in exit status 2 with one
``croupier: error: ...`` line (or argparse's usage error) on stderr and never a traceback; a
replay that fails ``replay verify`` exits 1 naming the line.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from e2e_kit import Played, croupier, play_match

from croupier.replay import read_replay

pytestmark = pytest.mark.e2e

DEFAULT_BOTS = ["as-nas-heuristic", "random", "as-nas-heuristic", "random"]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``croupier match --game as-nas --seed 3 --deals 2 --out DIR``, run once for the module."""
    out = tmp_path_factory.mktemp("cli") / "matches"
    return play_match(out, "--game", "as-nas", "--seed", 3, "--deals", 2)


# ---- croupier match ----------------------------------------------------------------------------


def test_match_prints_the_standings_and_the_replay_path(played: Played) -> None:
    assert played.replay.parent == played.out
    assert played.replay.is_file()
    match_id = played.replay.stem
    assert re.search(rf"^match {re.escape(match_id)}$", played.done.stdout, re.M)
    rows = played.rows
    assert sorted(int(r["seat"]) for r in rows) == [0, 1, 2, 3]
    for r in rows:
        assert r["bot"] == DEFAULT_BOTS[int(r["seat"])]
        assert (r["ended"], r["timeouts"], r["rejected"]) == ("normal", "0", "0")
    scores = [Fraction(r["score"]) for r in rows]
    assert sum(scores) == 0
    assert scores == sorted(scores, reverse=True)  # best first
    places = [int(r["place"]) for r in rows]
    assert places[0] == 1
    assert places == sorted(places)
    # the table agrees with the replay's result record
    result = read_replay(played.replay).records[-1].data
    by_seat = {r["seat"]: r for r in result["seats"]}
    for r in rows:
        recorded = by_seat[int(r["seat"])]
        assert (recorded["score"], recorded["place"]) == (r["score"], int(r["place"]))
    logs = sorted(p.name for p in played.out.glob(f"{match_id}.seat*.log"))
    assert logs == [f"{match_id}.seat{s}.log" for s in range(4)]
    assert "Traceback" not in played.done.stderr


def test_the_replay_of_a_match_verifies(played: Played) -> None:
    done = croupier("replay", "verify", played.replay)
    assert done.returncode == 0, done.stdout + done.stderr
    line = done.stdout.strip()
    assert line.startswith(f"ok   {played.replay}: ")
    assert ", 2 deals, " in line
    assert ", finished; commitment v2 " in line
    assert line.endswith(
        " checked: deals, script, game, params, seats, clock, policy, reconnect, flush"
    )
    scores = line.split("scores ", 1)[1].split(", finished")[0].split()
    by_seat = {int(r["seat"]): r["score"] for r in played.rows}
    assert scores == [by_seat[s] for s in range(4)]


# ---- croupier replay show ----------------------------------------------------------------------


def deal_facts(replay: Path) -> list[tuple[set[int], bool]]:
    """Per deal: the seats that folded, and whether it ended in a showdown."""
    facts: list[tuple[set[int], bool]] = []
    folded: set[int] = set()
    for rec in read_replay(replay).records:
        if rec.type == "action" and rec.data["label"] == "Fold":
            folded.add(rec.data["seat"])
        elif rec.type == "round_end":
            facts.append((folded, len(folded) < 3))
            folded = set()
    return facts


def deals_of(text: str) -> list[list[str]]:
    """The lines of each deal's section of a hand history."""
    sections: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("── Deal "):
            sections.append([])
        elif line.startswith("── Final standings"):
            break
        elif sections:
            sections[-1].append(line)
    return sections


def test_replay_show_prints_the_whole_hand_history(played: Played) -> None:
    done = croupier("replay", "show", played.replay)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert "omniscient view" in text.splitlines()[0]
    chance = [line for line in text.splitlines() if "[chance]" in line]
    assert len(chance) == 3  # the first dealer, then each of the 2 deals
    for seat, name in enumerate(DEFAULT_BOTS):
        assert f"seat {seat}: {name}" in text
    assert len(deals_of(text)) == 2
    assert "── Final standings ──" in text


def test_replay_show_for_one_seat_hides_every_other_hand(played: Played) -> None:
    seat = 1
    done = croupier("replay", "show", played.replay, "--seat", seat)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert f"seat {seat}'s view" in text.splitlines()[0]
    assert "[chance]" not in text
    facts = deal_facts(played.replay)
    sections = deals_of(text)
    assert len(sections) == len(facts) == 2
    hand = re.compile(r"\b(As|Shah|Bibi|Sarbaz|Couli)( (As|Shah|Bibi|Sarbaz|Couli)){4}\b")
    for line in text.splitlines():  # five ranks in a row: its own look, or a live showdown hand
        if hand.search(line):
            assert re.match(rf"\s*(seat {seat} sees its hand|showdown: seat \d shows)", line), line
    fold_then_showdown = 0
    for lines, (folded, showdown) in zip(sections, facts, strict=True):
        sees = [
            int(m[1]) for line in lines if (m := re.match(r"\s*seat (\d+) sees its hand", line))
        ]
        assert set(sees) <= {seat}  # only its own cards, once it looked
        shows = [int(m[1]) for line in lines if (m := re.match(r"\s*showdown: seat (\d+)", line))]
        if showdown:
            assert sorted(shows) == sorted(set(range(4)) - folded)  # live hands only
            first_show = next(i for i, line in enumerate(lines) if "showdown:" in line)
            assert all("shows" not in line for line in lines[:first_show])
            fold_then_showdown += bool(folded)
        else:
            assert shows == []
    assert fold_then_showdown, "seed 3 should give a showdown after a fold (folded hands hidden)"


def test_replay_show_public_view_shows_no_private_cards(played: Played) -> None:
    done = croupier("replay", "show", played.replay, "--public")
    assert done.returncode == 0, done.stderr
    assert "public view" in done.stdout.splitlines()[0]
    assert "[chance]" not in done.stdout
    assert "sees its hand" not in done.stdout


# ---- croupier replay verify on tampered files --------------------------------------------------


def rewrite(src: Path, dst: Path, line: int, change: object) -> Path:
    """Copy ``src`` to ``dst`` with the record on 1-based ``line`` passed through ``change``."""
    lines = src.read_text().splitlines(keepends=True)
    record = json.loads(lines[line - 1])
    change(record)  # type: ignore[operator]
    lines[line - 1] = json.dumps(record, separators=(",", ":")) + "\n"
    dst.write_text("".join(lines))
    return dst


def line_of(path: Path, kind: str, nth: int = 0) -> int:
    hits = [
        n
        for n, text in enumerate(path.read_text().splitlines(), start=1)
        if json.loads(text)["type"] == kind
    ]
    return hits[nth]


def test_verify_names_the_line_of_a_changed_action(played: Played, tmp_path: Path) -> None:
    line = line_of(played.replay, "action", 3)

    def to_fold(record: dict[str, object]) -> None:
        record["action"] = 1 if record["action"] != 1 else 3  # Fold is always legal

    bad = rewrite(played.replay, tmp_path / "action.jsonl", line, to_fold)
    done = croupier("replay", "verify", played.replay, bad)
    assert done.returncode == 1
    ok, fail = done.stdout.splitlines()
    assert ok.startswith(f"ok   {played.replay}:")
    assert fail.startswith(f"FAIL {bad}: line {line}: ")


def test_verify_names_the_line_of_swapped_cards(played: Played, tmp_path: Path) -> None:
    line = line_of(played.replay, "chance", 1)  # the first deal (0 is the first dealer)

    def swap(record: dict[str, list[int]]) -> None:
        deck = record["outcome"]
        # two cards of different ranks dealt to different seats: the hands really change
        i, j = next(
            (i, j)
            for i in range(20)
            for j in range(i + 1, 20)
            if i % 4 != j % 4 and deck[i] // 4 != deck[j] // 4
        )
        deck[i], deck[j] = deck[j], deck[i]

    bad = rewrite(played.replay, tmp_path / "swap.jsonl", line, swap)
    done = croupier("replay", "verify", bad)
    assert done.returncode == 1
    assert done.stdout.startswith(f"FAIL {bad}: line {line}: chance label")
    assert "Traceback" not in done.stderr


def test_verify_of_a_corrupt_file_names_the_line(played: Played, tmp_path: Path) -> None:
    lines = played.replay.read_text().splitlines(keepends=True)
    lines[2] = lines[2][: len(lines[2]) // 2] + "\n"  # a broken JSON line
    bad = tmp_path / "corrupt.jsonl"
    bad.write_text("".join(lines))
    done = croupier("replay", "verify", played.replay, bad)
    # not a readable replay: one error line and status 2; the good file is still verified
    line = one_error_line(done)
    assert line.startswith(f"croupier: error: {bad}: line 3: not JSON")
    assert done.stdout.startswith(f"ok   {played.replay}: ")


# ---- user errors -------------------------------------------------------------------------------


def one_error_line(done: subprocess.CompletedProcess[str], *, alone: bool = True) -> str:
    """Exit status 2, no traceback, one ``croupier: error:`` line (the only stderr line when
    ``alone``); returns that line."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    errors = [line for line in lines if line.startswith("croupier: error: ")]
    assert len(errors) == 1, lines
    assert lines[-1] == errors[0]
    if alone:
        assert lines == errors
    return errors[0]


def usage_error(done: subprocess.CompletedProcess[str], command: str) -> str:
    """Exit status 2 with argparse's usage message and its one error line."""
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith(f"usage: {command}")
    assert lines[-1].startswith(f"{command}: error: ")
    return lines[-1]


def test_an_unknown_game_is_a_usage_error() -> None:
    line = usage_error(croupier("match", "--game", "no-such-game"), "croupier match")
    assert "no-such-game" in line


def test_a_missing_subcommand_is_a_usage_error() -> None:
    usage_error(croupier(), "croupier")
    usage_error(croupier("replay"), "croupier replay")


@pytest.mark.parametrize(
    ("bot", "needle"),
    [
        ("/no/such/dir/bot", "is not an executable file"),
        ("no-such-program-for-croupier", "not found on PATH"),
        ("python3 'unterminated", "cannot parse"),
    ],
)
def test_a_bot_command_that_cannot_run_is_an_error(bot: str, needle: str) -> None:
    done = croupier("match", "--game", "as-nas", "--deals", 1, "--bot", bot)
    assert needle in one_error_line(done)


def test_too_many_bots_is_an_error() -> None:
    done = croupier("match", "--game", "as-nas", "--deals", 1, *["--bot", "random"] * 5)
    assert "5 bots given for 4 seats" in one_error_line(done)


def test_an_out_of_range_parameter_is_an_error() -> None:
    done = croupier("match", "--game", "as-nas", "--deals", 100000)
    assert "deals" in one_error_line(done)


def test_an_output_directory_that_cannot_be_made_is_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = croupier("match", "--game", "as-nas", "--deals", 1, "--out", blocker)
    assert str(blocker) in one_error_line(done, alone=False)


def test_showing_a_corrupt_replay_is_an_error(played: Played, tmp_path: Path) -> None:
    lines = played.replay.read_text().splitlines(keepends=True)
    lines[4] = '{"type": "action", "step": \n'
    bad = tmp_path / "corrupt.jsonl"
    bad.write_text("".join(lines))
    assert "line 5: not JSON" in one_error_line(croupier("replay", "show", bad))


def test_showing_a_missing_replay_is_an_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.jsonl"
    assert str(missing) in one_error_line(croupier("replay", "show", missing))
    # so do verify, summary and export: it is not a readable replay (status 2)
    for action in (["verify"], ["summary"], ["export", "--to", missing.parent / "out.csv"]):
        line = one_error_line(croupier("replay", *action, missing))
        assert line.startswith(f"croupier: error: {missing}: cannot read: ")


def test_showing_a_seat_the_match_does_not_have_is_an_error(played: Played) -> None:
    assert "--seat 9" in one_error_line(croupier("replay", "show", played.replay, "--seat", 9))


# ---- help --------------------------------------------------------------------------------------


def test_every_subcommand_has_help() -> None:
    top = croupier("--help")
    assert top.returncode == 0
    commands = re.findall(r"^    (\S+)\s", top.stdout, re.M)
    assert {"match", "replay", "games"} <= set(commands)
    paths = [[c] for c in commands]
    replay = croupier("replay", "--help")
    paths += [["replay", a] for a in re.findall(r"^    (\S+)\s", replay.stdout, re.M)]
    assert ["replay", "show"] in paths
    assert ["replay", "verify"] in paths
    for path in paths:
        done = croupier(*path, "--help")
        assert done.returncode == 0, path
        assert done.stdout.startswith(f"usage: croupier {' '.join(path)}"), path
        assert done.stderr == ""


def test_the_console_script_and_games_listing() -> None:
    script = Path(sys.executable).with_name("croupier")
    done = subprocess.run([script, "--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert done.stdout.startswith("croupier ")
    games = croupier("games")
    assert games.returncode == 0
    assert games.stdout.startswith("as-nas: ")
    assert re.search(r"^\s+deals=12\s+\[1\.\.1000\]", games.stdout, re.M)
