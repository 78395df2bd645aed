"""Replays that cannot be forged (issue 19 item 7): each forgery the issue found is a test here.

Each forgery is made from a real replay the way someone holding the file would make it, keeping
the commitment the bots were told at Welcome (a forger cannot change that: the bots may have kept
it), and ``croupier replay verify`` must not say ``ok``: status 1 and a ``FAIL`` line.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from forge_kit import Records, deals, old_format, outcome, paste, records, verdict, write
from replay_kit import cli, random_policy

from croupier.arbiter import DecisionRequest, Match, MatchConfig, Reply, SeatLink
from croupier.errors import ConfigError
from croupier.replay import Policy, ReplayWriter, follow, read_replay, record_match, verify

PARAMS = {"players": 4, "deals": 3}


def _match(
    out: Path,
    name: str,
    seed: int,
    *,
    script: list[list[int]] | None = None,
    params: dict[str, int] | None = None,
    cancel_after: int | None = None,
    absent: tuple[int, ...] = (),
    bots: int = 1,
) -> Path:
    """A real as-nas match: four random seats (policy seeds from ``bots``), seats in
    ``absent`` never join; ``script``: its first chance outcomes."""
    policies: list[Policy | None] = [
        None if s in absent else random_policy(bots * 10 + s) for s in range(4)
    ]
    config = MatchConfig(
        "as-nas",
        params or PARAMS,
        seed=seed,
        chance_script=tuple(tuple(o) for o in script or ()),
        connect_timeout_s=0.2 if absent else 15.0,
    )
    path = out / f"{name}.jsonl"
    return record_match(
        config, path, policies, [f"bot{s}" for s in range(4)], "m-1", cancel_after=cancel_after
    )


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("forgery")


@pytest.fixture(scope="module")
def plain(out: Path) -> Path:
    return _match(out, "plain", 7)


def _fails(path: Path) -> str:
    status, line = verdict(path)
    assert status == 1, line
    assert line.startswith("FAIL"), line
    return line


def _edited(path: Path, change: Callable[[Records], Any], into: Path) -> Path:
    recs = records(path)
    change(recs)
    return write(into, recs)


# -- the deals ------------------------------------------------------------------------------------


def test_a_raised_chance_script_does_not_hide_rewritten_deals(out: Path, plain: Path) -> None:
    """Other deals (a real match dealt another seed's cards), the original's commitment, and
    ``chance_script`` raised above the match's chance events so that no deal is checked
    against the seed."""
    other = _match(out, "other-deals", 8)
    forged_match = _match(out, "forged-deals", 7, script=deals(other))
    forged = paste(records(forged_match), records(plain))
    forged[0]["chance_script"] = 1000
    assert outcome(forged) != outcome(records(plain))  # another result
    _fails(write(out / "raised.jsonl", forged))


def test_rewritten_deals_fail_against_the_seed(out: Path, plain: Path) -> None:
    other = _match(out, "other-deals-2", 8)
    forged_match = _match(out, "forged-deals-2", 7, script=deals(other))
    forged = paste(records(forged_match), records(plain))
    forged[0]["chance_script"] = 0
    assert outcome(forged) != outcome(records(plain))
    _fails(write(out / "rewritten.jsonl", forged))


def test_rewritten_scripted_deals_of_a_cancelled_duplicate_seating(out: Path) -> None:
    """A duplicate seating plays a chance script; cancelled before the script's end, the
    script's digest could not be checked, so its played deals could be rewritten."""
    script = deals(_match(out, "set-deals", 21, params={"players": 4, "deals": 4}))
    original = _match(
        out, "seating", 9, script=script, params={"players": 4, "deals": 4}, cancel_after=10
    )
    swapped = [script[0], deals(_match(out, "third", 22))[1], *script[2:]]
    forged_match = _match(
        out, "forged-seating", 9, script=swapped, params={"players": 4, "deals": 4},
        cancel_after=10,
    )  # fmt: skip
    forged = paste(records(forged_match), records(original))
    assert [r["outcome"] for r in forged if r["type"] == "chance"][1] != script[1]
    _fails(write(out / "seating.jsonl", forged))


# -- how the match ended --------------------------------------------------------------------------


def test_a_finished_match_cannot_claim_it_was_cancelled(out: Path, plain: Path) -> None:
    def cancel(recs: Records) -> None:
        recs[-1]["cancelled"] = True
        recs[-1]["cancel_reason"] = "cancelled by the operator"

    _fails(_edited(plain, cancel, out / "cancelled.jsonl"))


# -- the format version ---------------------------------------------------------------------------


def test_a_downgrade_to_format_1_does_not_skip_the_round_results(out: Path, plain: Path) -> None:
    def downgrade(recs: Records) -> None:
        recs[0]["format_version"] = 1  # format 1 has no structured round results
        next(r for r in recs if r["type"] == "round_end")["result"]["pot"] += 5

    _fails(_edited(plain, downgrade, out / "v1.jsonl"))


def test_a_downgrade_by_one_format_version_is_refused(out: Path, plain: Path) -> None:
    def downgrade(recs: Records) -> None:
        recs[0]["format_version"] -= 1

    _fails(_edited(plain, downgrade, out / "minus-one.jsonl"))


# -- the terms of the match -----------------------------------------------------------------------


def _set_policy(recs: Records) -> None:
    recs[0]["fault_policy"]["timeout"] = "forfeit-match"


def _set_clock(recs: Records) -> None:
    recs[0]["clock"]["move_time_ms"] *= 10


def _set_grace(recs: Records) -> None:
    recs[0]["reconnect_grace_ms"] = 30000


def _set_flush(recs: Records) -> None:
    recs[0]["event_flush_ms"] = 0


def _disconnect(recs: Records) -> None:
    recs[0]["seats"][1]["connected"] = False


def _remove_commitment(recs: Records) -> None:
    del recs[0]["commitment"]


HEADER_EDITS = {
    "fault_policy": _set_policy,
    "clock": _set_clock,
    "reconnect_grace_ms": _set_grace,
    "event_flush_ms": _set_flush,
    "connected": _disconnect,
    "commitment removed": _remove_commitment,
}


@pytest.mark.parametrize("edit", sorted(HEADER_EDITS))
def test_an_edited_header_fails(out: Path, plain: Path, edit: str) -> None:
    _fails(_edited(plain, HEADER_EDITS[edit], out / f"{edit}.jsonl"))


def test_a_no_show_cannot_be_claimed_as_connected(out: Path) -> None:
    original = _match(out, "no-show", 3, absent=(2,))
    assert records(original)[0]["seats"][2]["connected"] is False
    assert verdict(original)[0] == 0

    def connect(recs: Records) -> None:
        recs[0]["seats"][2]["connected"] = True

    _fails(_edited(original, connect, out / "connected.jsonl"))


# -- format 4 against format 3 --------------------------------------------------------------------


@pytest.mark.parametrize("commitment", ["keep", "v1", "drop"])
def test_a_format_4_replay_rewritten_as_format_3_is_refused(
    out: Path, plain: Path, commitment: str
) -> None:
    """Rewritten as the format 3 writer would have written it: the seed a number, the format 4
    fields gone; the commitment the bots were told kept (a scheme v1 check cannot match it), a
    scheme v1 one computed anew (then it is not the one the bots were told: verify's line
    shows it, and the old format says it is unbound), or none (format 3 always had one)."""
    recs = old_format(records(plain), 3, commitment)
    status, line = verdict(write(out / f"as-v3-{commitment}.jsonl", recs))
    if commitment == "v1":
        assert status == 0, line
        assert "format 3 (old, unbound)" in line
        assert records(plain)[0]["commitment"] not in line
        return
    assert status == 1, line
    assert ("without its commitment" if commitment == "drop" else "do not match") in line


def test_a_relabelled_format_4_replay_names_what_gave_it_away(out: Path, plain: Path) -> None:
    recs = records(plain)
    recs[0]["format_version"] = 3
    line = _fails(write(out / "relabelled.jsonl", recs))
    assert "the seed is decimal text, which only format 4 writes" in line
    recs[0]["seed"] = int(recs[0]["seed"])
    line = _fails(write(out / "relabelled2.jsonl", recs))
    assert "'chance_script_sha256', which came with format 4: a replay relabelled" in line


# -- what verify says it checked ------------------------------------------------------------------


def test_verify_says_what_the_commitment_bound(plain: Path) -> None:
    status, line = verdict(plain)
    commitment = records(plain)[0]["commitment"]
    assert status == 0, line
    assert line.endswith(
        f", finished; commitment v2 {commitment} checked: deals, script, game, params, seats, "
        "clock, policy, reconnect, flush"
    )


def test_a_seed_of_128_bits_is_written_as_text_and_read_as_an_int(out: Path) -> None:
    seed = 2**127 + 12345  # >= 2**64: no JSON double and no uint64 holds it
    config = MatchConfig("as-nas", PARAMS, seed=seed)
    path = record_match(config, out / "big.jsonl", [random_policy(s) for s in range(4)],
                        [f"bot{s}" for s in range(4)])  # fmt: skip
    assert records(path)[0]["seed"] == str(seed)
    replay = read_replay(path)
    assert replay.header["seed"] == seed
    assert verify(replay).scheme == 2
    assert verdict(path)[0] == 0
    rows = [json.loads(line) for line in cli("replay", "summary", "--json", path).out.splitlines()]
    assert rows[0]["seed"] == str(seed)  # summary --json: decimal text, like the header
    followed = next(follow(path, idle_s=0))[0]
    assert followed.data["seed"] == seed
    # one more draws other deals
    recs = records(path)
    recs[0]["seed"] = str(seed + 1)
    assert "not the one the match seed draws" in _fails(write(out / "big2.jsonl", recs))


def test_the_seat_roster_is_bound_field_by_field(out: Path) -> None:
    """A field the organiser sets on each seat before the match (``MatchConfig.seat_roster``,
    e.g. the server's registered name) is in the header's seat object and in the commitment,
    whatever its name: no code names it."""
    roster = tuple({"registered": f"owner{s}/bot", "rating": 1500 + s} for s in range(4))
    config = MatchConfig("as-nas", PARAMS, seed=5, seat_roster=roster)
    path = record_match(config, out / "roster.jsonl", [random_policy(s) for s in range(4)],
                        [f"bot{s}" for s in range(4)])  # fmt: skip
    seats = records(path)[0]["seats"]
    assert [s["registered"] for s in seats] == [f"owner{s}/bot" for s in range(4)]
    assert verdict(path)[0] == 0
    for change in (
        lambda s: s.update(registered="owner2/bot"),  # another seat's
        lambda s: s.update(rating=2900),
        lambda s: s.pop("rating"),
        lambda s: s.update(team="red"),  # a field added afterwards
    ):
        recs = records(path)
        change(recs[0]["seats"][1])
        _fails(write(out / "roster-edit.jsonl", recs))
    with pytest.raises(ConfigError, match="'bot_name' is not a field"):
        record_match(
            MatchConfig("as-nas", PARAMS, seat_roster=({"bot_name": "x"},) * 4),
            out / "roster-bad.jsonl", [random_policy(s) for s in range(4)], ["b"] * 4,
        )  # fmt: skip


def test_the_names_in_the_result_are_the_header_s(out: Path, plain: Path) -> None:
    """Each bot was told every seat's name in MatchEnd: the header's names are bound to them."""

    def rename(recs: Records) -> None:
        recs[0]["seats"][0]["bot_name"], recs[0]["seats"][3]["bot_name"] = "bot3", "bot0"

    assert "is 'bot0' in the result, 'bot3' in the header" in _fails(
        _edited(plain, rename, out / "names.jsonl")
    )


def test_the_rest_of_a_chance_script_is_revealed_and_checked(out: Path) -> None:
    """A seating cancelled inside its script reveals the outcomes it did not reach: with the
    played ones they must give the committed digest."""
    script = deals(_match(out, "set-deals-3", 31, params={"players": 4, "deals": 4}))
    original = _match(
        out, "seating-3", 9, script=script, params={"players": 4, "deals": 4}, cancel_after=10
    )
    recs = records(original)
    played = sum(1 for r in recs if r["type"] == "chance")
    assert 0 < played < len(script)
    assert recs[-1]["chance_script_rest"] == script[played:]
    assert verdict(original)[0] == 0
    recs[-1]["chance_script_rest"] = recs[-1]["chance_script_rest"][:-1]
    assert "is not the committed script of 5" in _fails(write(out / "rest.jsonl", recs))


# -- how a match that ended at its last move is recorded ------------------------------------------


class _CancelAtTheEnd(ReplayWriter):
    """A cancel (the operator's, the match cap's) that lands after the last move is applied,
    before the arbiter looks again: here from the recorder, at the last round's end."""

    match: Match

    def round_end(self, step: int, round_index: int, deltas: Any, public: Any) -> None:
        super().round_end(step, round_index, deltas, public)
        if round_index == PARAMS["deals"] - 1:
            self.match.cancel()


def test_a_cancel_after_the_last_move_leaves_the_match_finished(out: Path) -> None:
    writer = _CancelAtTheEnd(out / "late-cancel.jsonl")
    match = Match(MatchConfig("as-nas", PARAMS, seed=4), "m-late", writer)
    writer.match = match

    async def main() -> None:
        async def seat(link: SeatLink) -> None:
            link.claim(f"bot{link.seat}", "1")
            while (message := await link.outbox.get()) is not None:
                if isinstance(message, DecisionRequest):
                    link.inbox.put_nowait(Reply(message.request_id, message.legal_actions[0]))

        tasks = [asyncio.create_task(seat(link)) for link in match.seats]
        result = await match.run()
        assert not result.cancelled
        for task in tasks:
            task.cancel()

    asyncio.run(main())
    result = records(writer.path)[-1]
    assert (result["cancelled"], result["cancel_reason"]) == (False, "")
    assert verdict(writer.path)[0] == 0
