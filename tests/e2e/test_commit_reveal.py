"""Commit-reveal for the deals: every bot is told a commitment at Welcome, the seed and salt
behind it at MatchEnd, and ``replay verify`` checks the replay against both."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from e2e_kit import Kit, croupier, read_stream

from croupier.errors import ReplayMismatchError
from croupier.replay import read_replay, verify
from croupier.v1 import bot_pb2 as pb

pytestmark = pytest.mark.e2e


#: Scheme v2's terms and the seat fields set when a bot joins (docs/protocol.md, written again
#: here, not imported).
TERMS = ("match_id", "game", "rules_version", "params", "chance_script", "chance_script_sha256",
         "clock", "fault_policy", "reconnect_grace_ms", "event_flush_ms", "seats")  # fmt: skip
JOINED = {"bot_name", "bot_version", "connected", "peer"}


def _terms_sha256(header: dict[str, Any]) -> str:
    """The terms' digest as docs/protocol.md states it: the terms from the replay header."""
    terms = {key: header[key] for key in TERMS}
    terms["seats"] = [{k: v for k, v in s.items() if k not in JOINED} for s in header["seats"]]
    text = json.dumps(terms, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _commit(scheme: int, seed: int, salt: str, digest: str) -> str:
    """Scheme v1 (``digest``: the chance script's) or v2 (``digest``: the terms')."""
    return hashlib.sha256(f"croupier-commit-v{scheme}:{seed}:{salt}:{digest}".encode()).hexdigest()


def test_a_bot_can_check_the_match_was_fixed_before_play(e2e: Kit) -> None:
    stream = e2e.streams / "seat0.bin"
    run = e2e.run([e2e.bot("recorder", stream), e2e.random, e2e.random, e2e.random], seed=77)
    messages = [pb.PlayResponse.FromString(raw) for raw in read_stream(stream)]
    welcome = next(m.welcome for m in messages if m.WhichOneof("kind") == "welcome")
    end = next(m.match_end for m in messages if m.WhichOneof("kind") == "match_end")
    assert len(welcome.deal_commitment) == len(welcome.match_commitment) == 64
    assert (end.seed, end.seed_decimal) == (77, "77")
    assert len(end.salt) == 32
    # from MatchEnd alone: the deals' commitment (as since protocol 2) and the match's
    seed = int(end.seed_decimal)
    assert welcome.deal_commitment == _commit(1, seed, end.salt, end.chance_script_sha256)
    assert welcome.match_commitment == _commit(2, seed, end.salt, end.terms_sha256)
    # with the published replay: the terms behind terms_sha256
    header = json.loads(run.replay.read_text().splitlines()[0])
    assert (header["commitment"], header["deal_commitment"]) == (
        welcome.match_commitment, welcome.deal_commitment
    )  # fmt: skip
    assert _terms_sha256(header) == end.terms_sha256
    # the terms are the ones the bot was told, and the script the one revealed
    assert (header["match_id"], header["game"], header["rules_version"]) == (
        welcome.match_id, welcome.game, welcome.rules_version
    )  # fmt: skip
    assert header["params"] == dict(welcome.params)
    assert header["clock"]["move_time_ms"] == welcome.clock_rules.move_time_ms
    assert header["chance_script_sha256"] == end.chance_script_sha256
    empty = hashlib.sha256(b"[]").hexdigest()
    assert (header["chance_script"], end.chance_script_sha256) == (0, empty)
    report = verify(read_replay(run.replay))
    assert (report.scheme, report.commitment) == (2, welcome.match_commitment)


def test_a_duplicate_seating_commits_but_keeps_its_reveal_from_the_bots(e2e: Kit) -> None:
    """A seating of a duplicate set (``withhold_reveal``): the Welcome still commits, but the
    MatchEnd leaves the seed, salt and script digest unset, since other seatings of the set
    deal the same cards; the replay keeps them whole, and verifies."""
    stream = e2e.streams / "seat0.bin"
    script = ((0,), tuple(range(20)), tuple(reversed(range(20))))
    bots = [e2e.bot("recorder", stream), e2e.random, e2e.random, e2e.random]
    run = e2e.run(bots, seed=78, chance_script=script, withhold_reveal=True)
    messages = [pb.PlayResponse.FromString(raw) for raw in read_stream(stream)]
    welcome = next(m.welcome for m in messages if m.WhichOneof("kind") == "welcome")
    end = next(m.match_end for m in messages if m.WhichOneof("kind") == "match_end")
    assert len(welcome.deal_commitment) == len(welcome.match_commitment) == 64
    revealed = (end.seed, end.seed_decimal, end.salt, end.chance_script_sha256, end.terms_sha256)
    assert revealed == (0, "", "", "", ""), end
    assert len(end.results) == 4
    replay = read_replay(run.replay)
    result = replay.records[-1].data
    assert replay.header["seed"] == 78
    assert len(result["salt"]) == 32
    digest = hashlib.sha256(
        json.dumps([list(o) for o in script], separators=(",", ":")).encode()
    ).hexdigest()
    assert welcome.deal_commitment == _commit(1, 78, result["salt"], digest)
    header = json.loads(run.replay.read_text().splitlines()[0])
    assert welcome.match_commitment == _commit(2, 78, result["salt"], _terms_sha256(header))
    verify(replay)


def test_replay_verify_rejects_a_reveal_that_does_not_match(e2e: Kit, tmp_path: Path) -> None:
    run = e2e.run([e2e.random] * 4, seed=5)
    lines = run.replay.read_text().splitlines()
    result = json.loads(lines[-1])
    result["salt"] = "0" * 32
    forged = tmp_path / "forged.jsonl"
    forged.write_text("\n".join([*lines[:-1], json.dumps(result)]) + "\n")
    with pytest.raises(ReplayMismatchError, match="do not match the commitment"):
        verify(read_replay(forged))
    done = croupier("replay", "verify", forged)
    assert done.returncode == 1
    assert "do not match the commitment" in done.stdout


def test_a_seed_beyond_64_bits_is_revealed_in_seed_decimal(e2e: Kit) -> None:
    seed = (1 << 127) + 12345  # match seeds are 128-bit: beyond MatchEnd.seed (uint64)
    stream = e2e.streams / "seat0.bin"
    run = e2e.run([e2e.bot("recorder", stream), e2e.random, e2e.random, e2e.random], seed=seed)
    messages = [pb.PlayResponse.FromString(raw) for raw in read_stream(stream)]
    welcome = next(m.welcome for m in messages if m.WhichOneof("kind") == "welcome")
    end = next(m.match_end for m in messages if m.WhichOneof("kind") == "match_end")
    assert (end.seed, end.seed_decimal) == (0, str(seed))
    assert welcome.deal_commitment == _commit(1, seed, end.salt, end.chance_script_sha256)
    assert welcome.match_commitment == _commit(2, seed, end.salt, end.terms_sha256)
    assert read_replay(run.replay).header["seed"] == seed
    verify(read_replay(run.replay))
