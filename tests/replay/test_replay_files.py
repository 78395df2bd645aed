"""Replay files: crash safety (a killed arbiter leaves a readable prefix), verify catches tampering,
the reader names the bad line of a corrupt file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ladder_kit import children

from croupier.errors import ReplayFormatError, ReplayMismatchError
from croupier.replay import read_replay, verify


def _run_match(out: Path, seed: int = 4, deals: int = 3) -> Path:
    subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", str(seed),
         "--deals", str(deals), "--out", str(out)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    (replay,) = out.glob("*.jsonl")
    return replay


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run_match(tmp_path_factory.mktemp("m"))


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


@pytest.mark.e2e
def test_killed_arbiter_leaves_a_readable_prefix(tmp_path: Path) -> None:
    """SIGKILL the arbiter mid-match: complete lines stay records; verify says it is unfinished."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "croupier", "match", "--game", "as-nas", "--seed", "9",
         "--deals", "200", "--out", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        replay = None
        while time.monotonic() < deadline:
            found = list(tmp_path.glob("*.jsonl"))
            if found and found[0].read_text().count('"type":"action"') >= 20:
                replay = found[0]
                break
            time.sleep(0.05)
        assert replay is not None, "the match did not start writing"
        bots = children(proc.pid)
        assert len(bots) == 4
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        # the bots notice the broken stream and exit by themselves: no orphans
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(Path(f"/proc/{p}").exists() for p in bots):
            time.sleep(0.1)
        assert not [p for p in bots if Path(f"/proc/{p}").exists()], "orphaned bot processes"
    finally:
        if proc.poll() is None:
            proc.kill()
    text = replay.read_text()
    complete = text[: text.rfind("\n") + 1]
    prefix = tmp_path / "prefix.jsonl"
    prefix.write_text(complete)
    parsed = read_replay(prefix)
    assert parsed.header["seed"] == 9
    assert not parsed.complete
    assert sum(1 for r in parsed.records if r.type == "action") >= 20
    with pytest.raises(ReplayMismatchError, match="no result record"):
        verify(parsed)


def test_verify_accepts_the_untouched_replay(replay_file: Path) -> None:
    report = verify(read_replay(replay_file))
    assert report.rounds == 3
    assert sum(report.scores) == 0


def test_verify_catches_a_changed_action(replay_file: Path, tmp_path: Path) -> None:
    records = _lines(replay_file)
    index = next(
        i for i, r in enumerate(records) if r["type"] == "action" and r["action"] in (2, 3)
    )
    records[index]["action"] = 1  # FOLD instead of CALL/HOLD: legal, but a different match
    records[index]["label"] = "Fold"
    with pytest.raises(ReplayMismatchError) as caught:
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))
    assert caught.value.line > index + 1  # the divergence shows at or after the changed line


def test_verify_catches_swapped_cards_in_a_deal(replay_file: Path, tmp_path: Path) -> None:
    records = _lines(replay_file)
    index = next(
        i for i, r in enumerate(records) if r["type"] == "chance" and len(r["outcome"]) == 20
    )
    outcome = records[index]["outcome"]
    a = next(i for i in range(20) if outcome[i] // 4 != outcome[1] // 4 and i % 4 != 1)
    outcome[1], outcome[a] = outcome[a], outcome[1]  # two different ranks change hands
    with pytest.raises(ReplayMismatchError) as caught:
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))
    assert caught.value.line == index + 1
    assert "label" in str(caught.value)


def test_verify_catches_a_changed_score(replay_file: Path, tmp_path: Path) -> None:
    records = _lines(replay_file)
    records[-1]["seats"][0]["score"] = "1000"
    with pytest.raises(ReplayMismatchError, match="scores"):
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))


def test_verify_catches_an_illegal_action(replay_file: Path, tmp_path: Path) -> None:
    from croupier.games import get_game

    game = get_game("as-nas")
    records = _lines(replay_file)
    index = next(i for i, r in enumerate(records) if r["type"] == "action")
    state = game.initial_state(records[0]["params"])
    for record in records[1:index]:
        state = game.apply_chance(state, tuple(record["outcome"]))
    # an action id of the game that is not legal at this decision
    records[index]["action"] = min(set(range(5)) - set(game.legal_actions(state)))
    with pytest.raises(ReplayMismatchError, match="not legal") as caught:
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))
    assert caught.value.line == index + 1


@pytest.mark.parametrize("action", [42, -3, 10**23])
def test_the_reader_rejects_an_action_id_the_game_does_not_have(
    replay_file: Path, tmp_path: Path, action: int
) -> None:
    records = _lines(replay_file)
    index = next(i for i, r in enumerate(records) if r["type"] == "action")
    records[index]["action"] = action
    with pytest.raises(ReplayFormatError, match="not an action id of as-nas") as caught:
        read_replay(_write(tmp_path / "t.jsonl", records))
    assert caught.value.line == index + 1


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda lines: [*lines[:2], "{not json\n", *lines[3:]], "line 3: not JSON"),
        (lambda lines: lines[1:], "line 1: the first record must be the header"),
        (lambda lines: [*lines[:-1], lines[-1][:-5]], "truncated last line"),
        (lambda lines: [lines[0], '{"type":"action","step":0}\n'], "line 2: action record"),
        (lambda lines: [lines[0], '{"type":"dance"}\n'], "unknown record type"),
        (lambda lines: [], "is empty"),
    ],
)
def test_reader_names_the_bad_line(replay_file: Path, tmp_path: Path, mutate, message) -> None:  # type: ignore[no-untyped-def]
    lines = replay_file.read_text().splitlines(keepends=True)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(mutate(lines)))
    with pytest.raises(ReplayFormatError, match=message):
        read_replay(bad)


def test_verify_catches_a_missing_round_end(replay_file: Path, tmp_path: Path) -> None:
    records = _lines(replay_file)
    index = next(i for i, r in enumerate(records) if r["type"] == "round_end")
    del records[index]
    with pytest.raises(ReplayMismatchError, match="round_end record is missing") as caught:
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))
    assert caught.value.line == index + 1  # the record that now stands where it was


def test_verify_catches_an_extra_round_end(replay_file: Path, tmp_path: Path) -> None:
    records = _lines(replay_file)
    index = next(i for i, r in enumerate(records) if r["type"] == "action")
    extra = {"type": "round_end", "step": records[index]["step"], "round": 0, "deltas": ["0"] * 4,
             "result": {}}  # fmt: skip
    records.insert(index, extra)
    with pytest.raises(ReplayMismatchError, match="where no deal ended"):
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))


@pytest.mark.parametrize(
    ("seat", "fault", "message"),
    [(9, "no_show", "seat 9 is not a seat of the match"), (1, "boredom", "unknown fault")],
)
def test_the_reader_rejects_an_invalid_fault_record(
    replay_file: Path, tmp_path: Path, seat: int, fault: str, message: str
) -> None:
    records = _lines(replay_file)
    records.insert(1, {"type": "fault", "step": 0, "seat": seat, "fault": fault, "detail": ""})
    with pytest.raises(ReplayFormatError, match=message):
        read_replay(_write(tmp_path / "t.jsonl", records))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("outcome", [1.0, *range(1, 20)], "holds 1.0"),
        ("outcome", [[0], *range(1, 20)], "holds"),
        ("outcome", [True, *range(1, 20)], "holds True"),
    ],
)
def test_reader_rejects_non_integer_chance_outcomes(
    replay_file: Path, tmp_path: Path, field: str, value: list[object], message: str
) -> None:
    records = _lines(replay_file)
    index = next(i for i, r in enumerate(records) if r["type"] == "chance" and len(r[field]) == 20)
    records[index][field] = value
    with pytest.raises(ReplayFormatError, match=message):
        read_replay(_write(tmp_path / "t.jsonl", records))


@pytest.mark.parametrize("where", ["header", "result"])
def test_reader_rejects_malformed_seat_entries(
    replay_file: Path, tmp_path: Path, where: str
) -> None:
    records = _lines(replay_file)
    record = records[0] if where == "header" else records[-1]
    record["seats"][1] = "seat one"
    with pytest.raises(ReplayFormatError, match="malformed entry in 'seats'"):
        read_replay(_write(tmp_path / "t.jsonl", records))


def test_show_reads_what_a_killed_writer_left(replay_file: Path, tmp_path: Path) -> None:
    text = replay_file.read_text()
    cut = tmp_path / "cut.jsonl"
    middle = text.rindex("\n", 0, len(text) // 2) + 20  # 20 characters into a line
    cut.write_text(text[:middle])  # ends in the middle of a line
    with pytest.raises(ReplayFormatError, match="truncated last line"):
        read_replay(cut)
    partial = read_replay(cut, tolerate_truncated_tail=True)
    assert not partial.complete
    shown = subprocess.run(
        [sys.executable, "-m", "croupier", "replay", "show", str(cut)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "the match did not finish" in shown.stdout


def test_verify_catches_a_consistently_rewritten_deal(replay_file: Path, tmp_path: Path) -> None:
    """Swap two cards and rewrite the label to match: only the seed can tell."""
    from croupier.games import get_game

    game = get_game("as-nas")
    records = _lines(replay_file)
    index = next(
        i for i, r in enumerate(records) if r["type"] == "chance" and len(r["outcome"]) == 20
    )
    outcome = records[index]["outcome"]
    a = next(i for i in range(20) if outcome[i] // 4 != outcome[1] // 4 and i % 4 != 1)
    outcome[1], outcome[a] = outcome[a], outcome[1]
    # the label the new deal gives, computed as the writer would
    state = game.initial_state(records[0]["params"])
    state = game.apply_chance(state, tuple(records[index - 1]["outcome"]))
    records[index]["label"] = game.chance_label(state, tuple(outcome))
    # truncate after the deal so later records cannot be the ones that disagree first
    with pytest.raises(ReplayMismatchError, match="not the one the match seed draws") as caught:
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))
    assert caught.value.line == index + 1


def _first_default_action(records: list[dict]) -> int:
    """Index of the first action record that is the game's default action where it stands."""
    from croupier.games import get_game

    game = get_game(records[0]["game"])
    state = game.initial_state(records[0]["params"])
    for i, record in enumerate(records[1:], start=1):
        if record["type"] == "chance":
            state = game.apply_chance(state, tuple(record["outcome"]))
        elif record["type"] == "action":
            if record["action"] == game.default_action(state):
                return i
            state = game.apply(state, record["action"])
    raise AssertionError("no default action in this replay")


def test_verify_catches_a_result_that_hides_a_fault(replay_file: Path, tmp_path: Path) -> None:
    records = _lines(replay_file)
    index = _first_default_action(records)  # marking it a timeout keeps the play valid
    seat = records[index]["seat"]
    records[index]["fault"] = "timeout"
    records[index]["detail"] = "no reply before the deadline"
    records[index]["policy"] = "default"
    with pytest.raises(ReplayMismatchError, match=f"seat {seat}: outcome normal, 0 timeouts"):
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))


def test_verify_catches_a_seat_playing_on_after_it_left(replay_file: Path, tmp_path: Path) -> None:
    records = _lines(replay_file)
    index = next(i for i, r in enumerate(records) if r["type"] == "action" and r["label"] == "Look")
    seat = records[index]["seat"]
    gone = {"type": "fault", "step": records[index]["step"], "seat": seat, "fault": "disconnect",
            "detail": "the bot closed its stream", "policy": "default"}  # fmt: skip
    records.insert(index, gone)
    with pytest.raises(ReplayMismatchError, match="an action record after a fault recorded at"):
        verify(read_replay(_write(tmp_path / "t.jsonl", records)))
    # gone at a decision (a disconnect on its own default action), then playing on
    records = _lines(replay_file)
    game = read_replay(replay_file)
    for i, r in enumerate(game.records):
        if r.type != "action" or r.data["fault"] is not None:
            continue
        if r.data["action"] != game.game.default_action(game.before(i)):
            continue
        later = [q for q in game.records[i + 1 :] if q.type == "action"]
        if any(q.data["seat"] == r.data["seat"] for q in later):
            records[i + 1].update(fault="disconnect", detail="gone", policy="default")
            break
    with pytest.raises(ReplayMismatchError, match="whose bot has gone the default action is due"):
        verify(read_replay(_write(tmp_path / "t2.jsonl", records)))


def test_show_one_deal_only(replay_file: Path) -> None:
    from croupier.replay import render

    lines = list(render(read_replay(replay_file), 1, deal=2))
    assert any(line.startswith("── Deal 2/3") for line in lines)
    assert not any(line.startswith(("── Deal 1/3", "── Deal 3/3")) for line in lines)
    assert lines[-1].startswith("   ")  # the standings close it
    assert any("Final standings" in line for line in lines)


def test_summary_counts_deals_won_and_actions(replay_file: Path) -> None:
    from croupier.replay import summarize

    replay = read_replay(replay_file)
    lines = list(summarize(replay))
    assert lines[0].endswith("as-nas, 3 deals, finished")
    assert len(lines) == 1 + 4
    actions = [r.data for r in replay.records if r.type == "action"]
    for seat in range(4):
        looks = sum(1 for a in actions if a["seat"] == seat and a["label"] == "Look")
        assert (f"Look {looks}" in lines[1 + seat]) == (looks > 0)
    winners = sum(
        1 for r in replay.records if r.type == "round_end" for d in r.data["deltas"] if d[0] != "-"
        and d != "0"
    )  # fmt: skip
    assert sum(int(line.split("won ")[1].split()[0]) for line in lines[1:]) == winners


def test_show_reads_a_file_cut_inside_a_utf8_character(replay_file: Path, tmp_path: Path) -> None:
    data = replay_file.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: data.index(b"\n") + 1] + '{"type":"chance","label":"é'.encode()[:-1])
    assert read_replay(cut, tolerate_truncated_tail=True).records == ()
    with pytest.raises(ReplayFormatError, match="line 2: truncated last line"):
        read_replay(cut)
