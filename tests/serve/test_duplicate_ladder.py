"""End to end: duplicate sets on ``croupier serve``'s continuous ladder, whose players are
registered (remote) bots that can remember anything. Refused unless the host opts in
(``[ladder] allow_remote_duplicate``); with it, a spy bot (Python SDK, module-level memory, its
own key on the control API) is never told a set's seed before its own seating, and no key ever
holds two live seatings of one set. What it may remember of an earlier seating it played is the
documented caveat of the opt-in (docs/server.md)."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import grpc
import pytest
from serve_kit import (
    CROUPIER,
    Control,
    ServeProcess,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_for,
)
from spy_kit import SPY, SpyReport

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

LADDER = """
[ladder]
game = "as-nas"
params = {{ deals = 3 }}
concurrency = 2
duplicate = true
{allow}
"""
SETS = 3  # duplicate sets of four seatings to play
FINISHED = cpb.MATCH_STATE_FINISHED


def _config(folder: Path, allow: bool) -> Path:
    path = folder / "serve.toml"
    path.write_text(LADDER.format(allow="allow_remote_duplicate = true" if allow else ""))
    return path


def test_a_duplicate_ladder_of_registered_bots_is_refused_by_default(tmp_path: Path) -> None:
    done = subprocess.run(
        [*CROUPIER, "serve", "--config", str(_config(tmp_path, allow=False)),
         "--state-dir", str(tmp_path / "state"), "--bot-listen", "127.0.0.1:0",
         "--control-listen", "127.0.0.1:0"],
        capture_output=True, text=True, timeout=20,
    )  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith("croupier: error: ")
    assert "ladder.allow_remote_duplicate" in lines[0]


def test_with_the_opt_in_no_seed_is_known_early_and_no_key_holds_two_live_seatings(
    tmp_path: Path,
) -> None:
    """Four spies with room for eight matches each, a ladder of two matches at once: the
    ladder could seat a set's seatings side by side, and a seating's end could tell the seed
    to the next. Neither happens; once a set is over, a bot's key may watch its own seat of it,
    whose end carries the reveal."""
    names = [f"spy{i}" for i in range(4)]
    server = ServeProcess(tmp_path / "state", "--config", str(_config(tmp_path, allow=True)))
    bots: list[subprocess.Popen[bytes]] = []
    logs = {n: tmp_path / f"{n}.log" for n in names}
    try:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, *names)
        for name in names:
            bots.append(
                start_bot(
                    server.bot_address,
                    keys[name],
                    [sys.executable, *SPY.split()[1:]],
                    log=logs[name],
                    CROUPIER_CONTROL=server.control_address,
                )
            )
        wait_connected(op, names)

        def finished() -> list[cpb.MatchInfo]:
            page = op.ListMatches(cpb.ListMatchesRequest(state=FINISHED, limit=1000))
            return list(page.matches)

        def whole_sets() -> int:
            ids = [m.match_id for m in finished()]
            sets = {i.rsplit("-s", 1)[0] for i in ids}
            return sum(1 for s in sets if sum(i.startswith(s + "-s") for i in ids) == 4)

        wait_for(lambda: whole_sets() >= SETS, 240, f"{SETS} whole duplicate sets")
        matches = finished()
        # after its set, a spy's key watches its own seat of a seating: the reveal is there
        done_sets = {}
        for m in matches:
            done_sets.setdefault(m.match_id.rsplit("-s", 1)[0], []).append(m)
        whole = next(ms for ms in done_sets.values() if len(ms) == 4)
        seat = next(s for s in whole[0].seats if s.bot_name == "spy0")
        own = Control(server.control_address, keys["spy0"])
        request = cpb.WatchMatchRequest(match_id=whole[0].match_id, seat=seat.seat)
        ends = [m.end for m in own.WatchMatch(request) if m.WhichOneof("kind") == "end"]
        assert len(ends) == 1, ends
        assert len(ends[0].salt) == 32, ends
        other = cpb.WatchMatchRequest(match_id=whole[0].match_id, seat=(seat.seat + 1) % 4)
        with pytest.raises(grpc.RpcError) as refused:  # another seat's view is not its own
            list(own.WatchMatch(other))
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        own.close()
        op.close()
    finally:
        stop_bots(bots)
        server.stop()
    report = SpyReport.read(logs.values())
    assert len(report.seatings) >= SETS * 4 * 4, report.summary()
    assert not report.early, f"{report.summary()}; first: {report.early[:2]}"
    assert not report.live_overlaps(), f"{report.summary()}; {report.live_overlaps()[:2]}"
    assert not report.revealed(), f"{report.summary()}; first: {report.revealed()[:2]}"
    # the server's own account: no two seatings of one set overlap in time (each has the
    # same four bots)
    by_set: dict[str, list[cpb.MatchInfo]] = {}
    for m in matches:
        by_set.setdefault(m.match_id.rsplit("-s", 1)[0], []).append(m)
    for set_id, seatings in by_set.items():
        spans = sorted((m.started_unix_ms, m.ended_unix_ms, m.match_id) for m in seatings)
        for (_, end, a), (start, _, b) in itertools.pairwise(spans):
            assert end <= start, f"{a} and {b} of set {set_id} were played at once"
