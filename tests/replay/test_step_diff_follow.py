"""``replay step`` (from a pipe), ``replay diff``, ``show --where`` and ``show --follow`` (a real
match writing the file)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from replay_kit import cli, play, random_policy

from croupier.arbiter import DecisionRequest
from croupier.games import get_game
from croupier.replay import read_replay


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture(scope="module")
def as_nas(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(tmp_path_factory.mktemp("a"), "as-nas", 11, params={"deals": 4})


# -- step -----------------------------------------------------------------------------------------


def _views(out: str) -> list[list[str]]:
    chunks = re.split(r"^(?=── decision )", out, flags=re.M)
    return [c.splitlines() for c in chunks if c.startswith("── decision ")]


def test_step_walks_a_seat_s_decisions_from_a_pipe(as_nas: Path) -> None:
    ran = cli("replay", "step", as_nas, "--seat", 2, stdin="n\np\nr 3\nd 2\nx\nq\n")
    assert ran.status == 0, ran.err
    views = _views(ran.out)
    numbers = [int(re.match(r"── decision (\d+)/", v[0])[1]) for v in views]  # type: ignore[index]
    replay = read_replay(as_nas)
    game = replay.game
    mine = [i for i, r in enumerate(replay.records) if r.type == "action" and r.data["seat"] == 2]
    first_of_3 = next(k for k, i in enumerate(mine) if game.round_index(replay.before(i)) == 2)
    assert numbers == [1, 2, 1, first_of_3 + 1, 2]
    assert "commands: n (next)" in ran.out  # the unknown command "x" got the help line
    # each view: the legal actions of that state, the chosen one marked, and only lines that
    # seat 2's own hand history (`show --seat 2`) has
    seat_view = cli("replay", "show", as_nas, "--seat", 2).out.splitlines()
    for view, k in zip(views, [n - 1 for n in numbers], strict=True):
        i = mine[k]
        state = replay.before(i)
        listed = [int(m[1]) for line in view if (m := re.match(r"    [→ ] +(\d+)  ", line))]
        assert listed == list(game.legal_actions(state))
        chosen = [line for line in view if line.startswith("    →")]
        assert chosen == [
            f"    → {replay.records[i].data['action']:>4}  {replay.records[i].data['label']}"
        ]
        legal_at = next(n for n, line in enumerate(view) if line.startswith("   legal actions"))
        history = view[1:legal_at]
        assert all(line in seat_view for line in history), history
        assert not any("sees its hand" in line and "seat 2 " not in line for line in history)


@pytest.mark.e2e
def test_step_reads_commands_from_a_real_pipe(as_nas: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "replay", "step", str(as_nas)],
        input="n\nn\nq\n", capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [v[0].split(" · ")[0] for v in _views(done.stdout)] == [
        f"── decision {n}/{sum(1 for r in _records(as_nas) if r['type'] == 'action')}"
        for n in (1, 2, 3)
    ]


# -- diff -----------------------------------------------------------------------------------------


def test_diff_finds_the_first_divergence_of_each_round(tmp_path: Path) -> None:
    same = [random_policy(s) for s in (1, 2, 3, 4)]
    other = [random_policy(s) for s in (1, 2, 99, 4)]  # seat 2 plays differently
    a = play(tmp_path, "as-nas", 8, params={"deals": 5}, policies=same, name="a")
    b = play(tmp_path, "as-nas", 8, params={"deals": 5}, policies=other, name="b")
    ran = cli("replay", "diff", a, b)
    assert ran.status == 0, ran.err
    lines = ran.out.splitlines()
    ra, rb = _rounds(a), _rounds(b)
    for n, ((moves_a, deltas_a), (moves_b, deltas_b)) in enumerate(zip(ra, rb, strict=True)):
        line = next(x for x in lines if x.startswith(f"deal {n + 1}: "))
        first = next(
            (k for k, (x, y) in enumerate(zip(moves_a, moves_b, strict=False)) if x[:2] != y[:2]),
            None,
        )
        if first is None and len(moves_a) == len(moves_b):
            assert "same actions" in line
        else:
            first = first if first is not None else min(len(moves_a), len(moves_b))
            assert f"first differs at action {first + 1} " in line, line
        diffs = [Fraction(x) - Fraction(y) for x, y in zip(deltas_a, deltas_b, strict=True)]
        assert line.endswith("A−B " + " ".join(f"+{d}" if d > 0 else str(d) for d in diffs))
    final = [
        Fraction(x["score"]) - Fraction(y["score"])
        for x, y in zip(_records(a)[-1]["seats"], _records(b)[-1]["seats"], strict=True)
    ]
    assert lines[-1].startswith(
        "total A−B: " + " ".join(f"+{d}" if d > 0 else str(d) for d in final)
    )
    assert "different deals" not in ran.out  # one seed: the same deals
    itself = cli("replay", "diff", a, a)
    assert itself.out.splitlines()[-1] == "total A−B: 0 0 0 0 (5 of 5 deals played alike)"
    fipsen = play(tmp_path, "fipsen", 8, params={"deals": 1})
    assert "not comparable" in cli("replay", "diff", a, fipsen).errors[0]


def _rounds(path: Path) -> list[tuple[list[tuple[int, int, str]], list[str]]]:
    out, moves = [], []
    for r in _records(path)[1:]:
        if r["type"] == "action":
            moves.append((r["seat"], r["action"], r["label"]))
        elif r["type"] == "round_end":
            out.append((moves, r["deltas"]))
            moves = []
    return out


# -- --where and --round --------------------------------------------------------------------------


def _shown_deals(out: str) -> list[int]:
    return [int(m[1]) for m in re.finditer(r"^── (?:Deal|Round) (\d+)/", out, re.M)]


def test_where_fault_lists_the_rounds_with_a_fault(tmp_path: Path) -> None:
    random = random_policy(5)
    calls = iter(range(10**6))

    def clumsy(request: DecisionRequest) -> int:  # now and then an id that is never legal
        return 99 if next(calls) % 7 == 3 else random(request)

    seats = [clumsy, random_policy(1), random_policy(2), random_policy(3)]
    path = play(tmp_path, "as-nas", 5, params={"deals": 6}, policies=seats)
    faulty, deal = set(), 0
    for r in _records(path)[1:]:
        if r["type"] == "action" and r["fault"]:
            faulty.add(deal + 1)
        deal += r["type"] == "round_end"
    assert faulty
    assert faulty != set(range(1, 7))
    ran = cli("replay", "show", path, "--where", "fault")
    assert ran.status == 0, ran.err
    assert _shown_deals(ran.out) == sorted(faulty)
    timeouts = cli("replay", "show", path, "--where", "fault=timeout")
    assert _shown_deals(timeouts.out) == []
    one = cli("replay", "show", path, "--round", 2, "--seat", 0)
    assert _shown_deals(one.out) == [2]
    unknown = cli("replay", "show", path, "--where", "colour=red")
    assert unknown.status == 2
    assert "no field 'colour'" in unknown.errors[0]


def test_where_contract_lists_the_fipsen_deals_played_in_it(tmp_path: Path) -> None:
    path = play(tmp_path, "fipsen", 21, params={"deals": 12})
    contracts = [r["result"]["contract"] for r in _records(path) if r["type"] == "round_end"]
    wanted = next(c for c in contracts if c)
    ran = cli("replay", "show", path, "--public", "--where", f"contract={wanted.lower()}")
    assert _shown_deals(ran.out) == [n + 1 for n, c in enumerate(contracts) if c == wanted]
    declarer = cli("replay", "show", path, "--where", "outcome=lost", "--where", "ruten")
    lost_ruten = [
        n + 1
        for n, r in enumerate(r for r in _records(path) if r["type"] == "round_end")
        if r["result"]["outcome"] == "lost" and r["result"]["ruten"]
    ]
    assert _shown_deals(declarer.out) == lost_ruten


# -- follow ---------------------------------------------------------------------------------------


@pytest.mark.e2e
def test_follow_tails_a_replay_while_a_real_match_writes_it(tmp_path: Path) -> None:
    match = subprocess.Popen(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", "3",
         "--deals", "40", "--out", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (found := list(tmp_path.glob("*.jsonl"))) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert found, "the match wrote no replay"
        (replay,) = found
        while not replay.read_text().endswith("\n"):  # the header line is complete
            time.sleep(0.01)
        follower = subprocess.Popen(
            [sys.executable, "-m", "croupier", "replay", "show", str(replay), "--follow",
             "--public"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        seen_at_start = replay.read_text()
        out, err = follower.communicate(timeout=120)
        assert match.wait(timeout=60) == 0
    finally:
        for proc in (match,):
            if proc.poll() is None:
                proc.kill()
    assert '"type":"result"' not in seen_at_start, "the match ended before follow started"
    assert follower.returncode == 0, err
    assert "Traceback" not in err
    whole = cli("replay", "show", replay, "--public")
    assert out == whole.out  # the tail told the same story as the finished file
    assert get_game("as-nas").info.title in out.splitlines()[0]


def test_diff_of_a_duplicate_pair_sees_the_same_deals(tmp_path: Path) -> None:
    """The second match of a duplicate pair replays the first's deals (``chance_script``) with
    the bots moved round the table: diff compares the seats holding the same cards."""
    from croupier.arbiter import MatchConfig
    from croupier.replay import record_match

    bots = [random_policy(s) for s in range(4)]
    a = play(tmp_path, "as-nas", 30, params={"deals": 4}, policies=bots, name="a")
    deals = tuple(tuple(r["outcome"]) for r in _records(a) if r["type"] == "chance")
    rotated = [random_policy(s) for s in (1, 2, 3, 0)]
    b = record_match(
        MatchConfig("as-nas", {"players": 4, "deals": 4}, seed=31, chance_script=deals),
        tmp_path / "b.jsonl", rotated, ["b1", "b2", "b3", "b0"],
    )  # fmt: skip
    ran = cli("replay", "diff", a, b)
    assert ran.status == 0, ran.err
    assert "different deals" not in ran.out
    assert len([x for x in ran.out.splitlines() if x.startswith("deal ")]) == 4
    other_seed = play(tmp_path, "as-nas", 32, params={"deals": 4}, name="c")
    assert "(different deals)" in cli("replay", "diff", a, other_seed).out
