"""Commit-reveal for the deals: every bot is told a commitment at Welcome, the seed and salt
behind it at MatchEnd, and ``replay verify`` checks the replay against both."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from e2e_kit import Kit, croupier, read_stream

from croupier.errors import ReplayMismatchError
from croupier.replay import read_replay, verify
from croupier.v1 import bot_pb2 as pb

pytestmark = pytest.mark.e2e


def _commit(seed: int, salt: str, script: list[list[int]]) -> str:
    """The scheme as docs/protocol.md states it (written again here, not imported)."""
    digest = hashlib.sha256(json.dumps(script, separators=(",", ":")).encode()).hexdigest()
    return hashlib.sha256(f"croupier-commit-v1:{seed}:{salt}:{digest}".encode()).hexdigest()


def test_a_bot_can_check_the_deals_were_fixed_before_play(e2e: Kit) -> None:
    stream = e2e.streams / "seat0.bin"
    run = e2e.run([e2e.bot("recorder", stream), e2e.random, e2e.random, e2e.random], seed=77)
    messages = [pb.PlayResponse.FromString(raw) for raw in read_stream(stream)]
    welcome = next(m.welcome for m in messages if m.WhichOneof("kind") == "welcome")
    end = next(m.match_end for m in messages if m.WhichOneof("kind") == "match_end")
    assert len(welcome.deal_commitment) == 64
    assert end.seed == 77
    assert len(end.salt) == 32
    assert welcome.deal_commitment == _commit(end.seed, end.salt, [])
    replay = read_replay(run.replay)
    assert replay.header["commitment"] == welcome.deal_commitment
    verify(replay)


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
    assert len(welcome.deal_commitment) == 64
    assert (end.seed, end.salt, end.chance_script_sha256) == (0, "", ""), end
    assert len(end.results) == 4
    replay = read_replay(run.replay)
    result = replay.records[-1].data
    assert replay.header["seed"] == 78
    assert len(result["salt"]) == 32
    assert welcome.deal_commitment == _commit(78, result["salt"], [list(o) for o in script])
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
