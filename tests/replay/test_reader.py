"""One validating reader: every replay command agrees on what a valid file is (issue 10 item 2).

Each defect the issue lists is a test here: an unreadable or invalid file is one error line and
status 2 for *every* command, a replay that reads but does not verify is status 1, batches go on
past a bad file, newer versions are refused, verify says cancelled and unfinished.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from forge_kit import old_format
from replay_kit import Ran, cli, play

from croupier.errors import ReplayFormatError, ReplayMismatchError
from croupier.replay import read_replay, verify


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play(tmp_path_factory.mktemp("good"), "as-nas", 3, params={"deals": 3})


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records))
    return path


def commands(path: Path, other: Path, out: Path) -> list[tuple[object, ...]]:
    """Every replay command, reading ``path``."""
    return [
        ("replay", "show", path),
        ("replay", "show", path, "--seat", 1),
        ("replay", "show", path, "--public", "--where", "fault"),
        ("replay", "summary", path),
        ("replay", "summary", "--json", path),
        ("replay", "verify", path),
        ("replay", "export", path, "--to", out / "x.csv"),
        ("replay", "step", path),
        ("replay", "diff", path, other),
        ("replay", "diff", other, path),
    ]


def _one_error(ran: Ran, status: int, needle: str) -> None:
    assert ran.status == status, (ran.status, ran.out, ran.err)
    assert "Traceback" not in ran.err
    assert len(ran.errors) == 1, ran.err
    assert needle in ran.errors[0], ran.errors[0]


# -- each defect the issue lists ------------------------------------------------------------------


def _header(change: object) -> object:
    def mutate(records: list[dict]) -> None:
        change(records[0])  # type: ignore[operator]

    return mutate


def _first_action(change: object) -> object:
    def mutate(records: list[dict]) -> None:
        change(next(r for r in records if r["type"] == "action"))  # type: ignore[operator]

    return mutate


def _delete_first_action(records: list[dict]) -> None:
    records.remove(next(r for r in records if r["type"] == "action"))


INVALID = {
    "out-of-range params": (
        _header(lambda h: h["params"].update(deals=100000)), "out of range"),
    "players 4.5": (_header(lambda h: h["params"].update(players=4.5)), "must be an integer"),
    "action id -3": (_first_action(lambda a: a.update(action=-3)), "not an action id"),
    "action id 10**23": (_first_action(lambda a: a.update(action=10**23)), "not an action id"),
    "seat 99": (_first_action(lambda a: a.update(seat=99)), "seat 99 is not a seat"),
    "a deleted record": (_delete_first_action, "a record is missing"),
    "a negative seed": (_header(lambda h: h.update(seed="-5")), "seed '-5' is not a seed"),
    "a seed of 2**128": (_header(lambda h: h.update(seed=str(2**128))), "is not a seed"),
    "a numeric seed in format 4": (_header(lambda h: h.update(seed=5)), "as decimal text"),
    "newer rules": (_header(lambda h: h.update(rules_version=2)), "newer than this Croupier"),
    "newer format": (_header(lambda h: h.update(format_version=5)), "read it with a newer"),
    "five seats": (_header(lambda h: h["seats"].append(dict(h["seats"][0], seat=4))), "5 seats"),
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(INVALID))
def test_every_command_rejects_an_invalid_file_with_status_2(
    good: Path, tmp_path: Path, case: str
) -> None:
    mutate, needle = INVALID[case]
    records = _records(good)
    mutate(records)  # type: ignore[operator]
    bad = _write(tmp_path / "bad.jsonl", records)
    with pytest.raises(ReplayFormatError, match=needle):
        read_replay(bad, tolerate_truncated_tail=True)
    for args in commands(bad, good, tmp_path):
        ran = cli(*args)
        _one_error(ran, 2, needle)
        assert ran.errors[0].startswith(f"croupier: error: {bad}: ")


@pytest.mark.parametrize(
    ("case", "content"),
    [
        ("missing", None),
        ("empty", b""),
        ("not JSON", b"hello world\n"),
        ("not UTF-8", b"\xff\xfe\x00garbage\n"),
        ("binary without a newline", bytes(range(256))),
        ("a JSON array", b"[1, 2, 3]\n"),
    ],
)
def test_unreadable_files_are_one_error_line_and_status_2(
    good: Path, tmp_path: Path, case: str, content: bytes | None
) -> None:
    bad = tmp_path / "bad.jsonl"
    if content is not None:
        bad.write_bytes(content)
    for args in commands(bad, good, tmp_path):
        ran = cli(*args)
        _one_error(ran, 2, str(bad))


def test_a_tampered_final_score_is_status_1_everywhere(good: Path, tmp_path: Path) -> None:
    records = _records(good)
    records[-1]["seats"][0]["score"] = "1000"
    bad = _write(tmp_path / "score.jsonl", records)
    for args in commands(bad, good, tmp_path):
        ran = cli(*args)
        if args[1] == "verify":  # verify reports mismatches on stdout, as FAIL lines
            assert ran.status == 1
            assert ran.out.startswith(f"FAIL {bad}: line {len(records)}: scores ['1000'")
            continue
        _one_error(ran, 1, "(the replay does not verify)")
        assert "1000" not in ran.out  # show no longer prints it as the result


def test_a_batch_reports_each_bad_file_and_goes_on(good: Path, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    records = _records(good)
    records[-1]["seats"][0]["score"] = "1000"
    tampered = _write(tmp_path / "tampered.jsonl", records)
    files = [empty, good, tampered, good]
    summary = cli("replay", "summary", *files)
    assert summary.status == 2  # the worst: a file that does not read
    assert [e.split(":")[2].strip() for e in summary.errors] == [str(empty), str(tampered)]
    assert summary.out.count(": as-nas, 3 deals, finished") == 2
    as_json = cli("replay", "summary", "--json", good, tampered)
    assert as_json.status == 1
    (row,) = [json.loads(line) for line in as_json.out.splitlines()]
    assert row["status"] == "finished"
    assert [s["rounds_won"] for s in row["seats"]] == _rounds_won(good)
    export = cli("replay", "export", *files, "--to", tmp_path / "t.csv", "--table", "matches")
    assert export.status == 2
    assert len(export.errors) == 2
    assert len((tmp_path / "t.csv").read_text().splitlines()) == 1 + 2  # header + the good two


def _rounds_won(path: Path) -> list[int]:
    won = [0, 0, 0, 0]
    for r in _records(path):
        if r["type"] == "round_end":
            for s, d in enumerate(r["deltas"]):
                won[s] += not d.startswith("-") and d != "0"
    return won


def test_verify_says_cancelled_and_unfinished(tmp_path: Path) -> None:
    cancelled = play(tmp_path, "as-nas", 5, params={"deals": 6}, cancel_after=12, name="c")
    ran = cli("replay", "verify", cancelled)
    assert ran.status == 0
    assert ", cancelled; commitment v2 " in ran.out
    text = cancelled.read_text()
    unfinished = tmp_path / "u.jsonl"
    unfinished.write_text(text[: text.rindex('{"type":"result"')])
    ran = cli("replay", "verify", unfinished)
    assert ran.status == 1
    assert "unfinished: the replay has no result record" in ran.out
    cut = tmp_path / "cut.jsonl"
    cut.write_text(text[: text.rindex("\n", 0, len(text) // 2) + 20])  # inside a line: killed
    ran = cli("replay", "verify", cut)
    assert ran.status == 1
    assert "unfinished: the last line is truncated" in ran.out
    # the other commands read what is there and say the match did not finish
    shown = cli("replay", "show", cut)
    assert shown.status == 0
    assert shown.out.rstrip().endswith("(the replay ends here: the match did not finish)")
    assert "unfinished" in cli("replay", "summary", cut).out


@pytest.mark.parametrize("version", [1, 2, 3])
def test_an_old_format_replay_still_reads_and_verifies_as_unbound(
    good: Path, tmp_path: Path, version: int
) -> None:
    """A replay as the writer of format 1, 2 or 3 wrote it verifies as before, and verify says
    what its old commitment (formats 2-3: the seed and the chance script only) did not bind."""
    old = _write(tmp_path / f"v{version}.jsonl", old_format(_records(good), version))
    report = verify(read_replay(old))
    assert report.rounds == 3
    assert report.format_version == version
    ran = cli("replay", "verify", old)
    assert ran.status == 0, ran.out
    if version == 1:
        assert ran.out.rstrip().endswith(", finished; format 1 (old, unbound): no commitment, "
                                         "nothing bound")  # fmt: skip
        assert report.scheme == 0
    else:
        assert f"finished; format {version} (old, unbound): commitment v1 " in ran.out
        assert ran.out.rstrip().endswith(
            "checked: deals, script; not bound: game, params, seats, clock, policy, reconnect, "
            "flush"
        )
    strict = cli("replay", "verify", "--require-bound", old)
    assert strict.status == 1
    assert strict.out.startswith(f"FAIL {old}: format {version} (old, unbound)")
    assert strict.out.rstrip().endswith("(--require-bound)")
    # and its rounds can still be filtered: the results come from the re-simulation
    assert cli("replay", "show", old, "--where", "showdown").status == 0


def test_verify_checks_the_structured_round_results(good: Path, tmp_path: Path) -> None:
    records = _records(good)
    end = next(r for r in records if r["type"] == "round_end")
    end["result"]["pot"] += 1
    bad = _write(tmp_path / "pot.jsonl", records)
    with pytest.raises(ReplayMismatchError, match="round result 'pot'"):
        read_replay(bad)
    records = _records(good)
    next(r for r in records if r["type"] == "round_end").pop("result")
    with pytest.raises(ReplayFormatError, match="field 'result' missing"):
        read_replay(_write(tmp_path / "none.jsonl", records))
