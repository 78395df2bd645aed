"""Bot sessions end to end: bot processes that stay up across matches (``BotService.Session``),
seated by a :class:`BotPool` on one real arbiter, over real gRPC, with real Python and Node bot
processes; a crashing session bot, a bot that knows only the per-match protocol, and
``restart="per-match"``."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from e2e_kit import BOTS_DIR, RANDOM, Kit, alive, config
from serve_kit import node_program

from croupier.arbiter import Outcome
from croupier.replay import read_replay, verify
from croupier.runner import MatchRun, run_match
from croupier.transport import ArbiterServer, BotPool, Restart, SandboxOptions
from croupier_bot import BotError, serve_async
from croupier_bots.random_bot import RandomBot

pytestmark = pytest.mark.e2e

NODE_RANDOM = Path(__file__).resolve().parents[2] / "clients" / "node" / "examples" / "random.js"


async def _tournament(
    tmp: Path,
    bots: dict[str, list[str]],
    tables: Sequence[Sequence[str]],
    *,
    concurrency: int,
    restart: Restart = "session",
    capacity: int = 3,
    deals: int = 2,
) -> tuple[list[MatchRun], BotPool]:
    """Play one match per table (bot names by seat), ``concurrency`` at a time, on one server
    with one pool; return the runs in table order and the (closed) pool."""
    server = ArbiterServer()
    await server.start()
    streams = tmp / "streams"  # the one directory the sandboxed bots may write
    streams.mkdir(parents=True, exist_ok=True)
    streams.chmod(0o777)
    sandbox = SandboxOptions(writable=(streams,))
    pool = BotPool(server, tmp / "logs", restart=restart, capacity=capacity, sandbox=sandbox)
    (tmp / "logs").mkdir(parents=True, exist_ok=True)
    for name, argv in bots.items():
        pool.add(name, argv)
    runs: list[MatchRun | None] = [None] * len(tables)
    queue = list(enumerate(tables))

    async def worker() -> None:
        while queue:
            i, table = queue.pop(0)
            seats = [pool.assigner(name) for name in table]
            conf = config(seed=100 + i, deals=deals)
            runs[i] = await run_match(conf, seats, tmp / "out", server=server, match_id=f"m{i:02}")

    try:
        await asyncio.gather(*(worker() for _ in range(concurrency)))
    finally:
        await pool.close()
        await server.stop()
    assert all(r is not None for r in runs)
    return [r for r in runs if r is not None], pool


def _normal(run: MatchRun) -> bool:
    return all(s.outcome is Outcome.NORMAL for s in run.result.seats)


def _actions(run: MatchRun) -> list[tuple[int, int]]:
    return [(r["seat"], r["action"]) for r in Kit.records(run.replay, "action")]


def test_python_and_node_bots_each_play_many_matches_in_one_session(tmp_path: Path) -> None:
    node = node_program()
    bots = {
        "py": RANDOM,
        "node": [node, str(NODE_RANDOM)],
        "py-2": RANDOM,
        "node-2": [node, str(NODE_RANDOM)],
    }
    names = list(bots)
    # 12 matches, 3 at a time, seats rotating
    tables = [names[i % 4 :] + names[: i % 4] for i in range(12)]
    runs, pool = asyncio.run(_tournament(tmp_path, bots, tables, concurrency=3))
    for name in names:
        stats = pool.stats(name)
        assert stats.mode == "session"
        assert stats.protocol == 3, f"{name}'s seats were not multiplexed on its session"
        assert stats.processes == 1, f"{name} was started {stats.processes} times"
        assert stats.seats == 12
        assert stats.crashes == 0
    for name in names:
        assert pool.stats(name).peak_load >= 2, f"{name} never played two matches at once"
    expected = {"py": "random", "py-2": "random", "node": "node-random", "node-2": "node-random"}
    for run, table in zip(runs, tables, strict=True):
        assert _normal(run), run.result
        assert [s.bot_name for s in run.result.seats] == [expected[n] for n in table]
        verify(read_replay(run.replay))
    # every process ended by itself when its session was closed
    assert sorted((e.code, e.signalled) for e in pool.exits) == [(0, False)] * 4
    log = (tmp_path / "logs" / "py.0.log").read_text()
    assert "session over after" in log
    assert "matches=12" in log


def test_a_session_bot_plays_a_match_as_a_fresh_process_would(tmp_path: Path) -> None:
    """Each match gets its own copy of the bot and its own seed: the same match ids played by
    persistent processes and by a fresh process per seat give the same actions."""
    bots = dict.fromkeys(("a", "b", "c", "d"), RANDOM)
    tables = [list(bots)] * 3
    kept, kept_pool = asyncio.run(_tournament(tmp_path / "kept", bots, tables, concurrency=3))
    fresh, fresh_pool = asyncio.run(
        _tournament(tmp_path / "fresh", bots, tables, concurrency=1, restart="per-match")
    )
    assert [kept_pool.stats(n).processes for n in bots] == [1] * 4
    assert [fresh_pool.stats(n).processes for n in bots] == [3] * 4
    assert all(_normal(r) for r in kept + fresh)
    assert [_actions(r) for r in kept] == [_actions(r) for r in fresh]
    assert len({str(_actions(r)) for r in kept}) == 3, "matches should differ from each other"


def test_a_crashing_session_bot_is_restarted_and_its_crash_recorded(
    e2e: Kit, tmp_path: Path
) -> None:
    marker = tmp_path / "streams" / "crashed-once"
    bots = {"crasher": e2e.bot("session_crasher", marker), "r1": RANDOM, "r2": RANDOM}
    bots["r3"] = RANDOM
    tables = [list(bots)] * 4
    runs, pool = asyncio.run(_tournament(tmp_path, bots, tables, concurrency=1, deals=3))
    assert marker.exists()
    first, *rest = runs
    crashed = first.result.seats[0]
    assert crashed.outcome is Outcome.DISCONNECTED
    faults = [r["fault"] for r in Kit.records(first.replay, seat=0) if r.get("fault")]
    assert faults == ["crash"]  # its process died (status 3)
    assert all(s.outcome is Outcome.NORMAL for s in first.result.seats[1:])
    assert all(_normal(r) for r in rest), "the restarted bot plays the next matches"
    stats = pool.stats("crasher")
    assert (stats.processes, stats.crashes, stats.mode) == (2, 1, "session")
    assert "crashing in match m00" in (tmp_path / "logs" / "crasher.0.log").read_text()
    assert [pool.stats(n).processes for n in ("r1", "r2", "r3")] == [1, 1, 1]


def test_a_failing_hook_ends_only_its_own_match_in_a_session(e2e: Kit, tmp_path: Path) -> None:
    marker = tmp_path / "streams" / "failed-once"
    bots = {"raiser": e2e.bot("session_crasher", marker, "--how", "raise")}
    bots.update({f"r{i}": RANDOM for i in range(3)})
    runs, pool = asyncio.run(_tournament(tmp_path, bots, [list(bots)] * 3, concurrency=1))
    assert runs[0].result.seats[0].outcome is Outcome.DISCONNECTED
    assert all(_normal(r) for r in runs[1:])
    stats = pool.stats("raiser")
    assert (stats.processes, stats.crashes) == (1, 0), "the process should have stayed up"
    log = (tmp_path / "logs" / "raiser.0.log").read_text()
    assert "RuntimeError: planned failure in act" in log
    assert "matches=3" in log


def test_a_per_match_only_bot_still_plays_through_the_pool(e2e: Kit, tmp_path: Path) -> None:
    # a raw Play-only bot; its stream goes to its own /tmp (each of its processes runs as a
    # uid of its own in a sandbox of its own, so they could not share one file)
    legacy = e2e.bot("recorder", f"/tmp/croupier-wire-{tmp_path.name}.bin")
    bots = {"legacy": legacy, "r1": RANDOM, "r2": RANDOM, "r3": RANDOM}
    tables = [list(bots)] * 3
    runs, pool = asyncio.run(_tournament(tmp_path, bots, tables, concurrency=2))
    assert all(_normal(r) for r in runs)
    assert [r.result.seats[0].bot_name for r in runs] == ["recorder"] * 3
    stats = pool.stats("legacy")
    assert stats.mode == "per-match"
    assert stats.processes == 1 + 3  # the session try, then one process per match
    # it was told at once why (not found out by a timeout)
    probe = (tmp_path / "logs" / "legacy.0.log").read_text()
    assert "session token" in probe


def test_one_process_never_holds_two_seats_of_a_match(tmp_path: Path) -> None:
    bots = {"twin": RANDOM, "other": RANDOM}
    tables = [["twin", "other", "twin", "other"]] * 2
    runs, pool = asyncio.run(_tournament(tmp_path, bots, tables, concurrency=1, capacity=4))
    assert all(_normal(r) for r in runs)
    # capacity 4 would fit both seats in one process; the pool starts a second one instead
    assert pool.stats("twin").processes == 2
    assert pool.stats("other").processes == 2


def test_the_session_handshake_refuses_with_stable_reasons() -> None:
    async def scenario() -> list[str]:
        server = ArbiterServer()
        await server.start()
        reasons = []
        try:
            try:
                await serve_async(RandomBot(1), address=server.address, token="no-such-session")
            except BotError as exc:
                reasons.append(exc.reason)
            session = server.bots.open_session()
            first = asyncio.create_task(
                serve_async(RandomBot(1), address=server.address, token=session.token)
            )
            await asyncio.wait_for(session.connected.wait(), 10)
            try:
                await serve_async(RandomBot(1), address=server.address, token=session.token)
            except BotError as exc:
                reasons.append(exc.reason)
            server.bots.close_session(session)
            summary = await asyncio.wait_for(first, 10)
            reasons.append(f"closed:{summary.matches}")
        finally:
            await server.stop()
        return reasons

    assert asyncio.run(scenario()) == ["TOKEN_UNKNOWN", "SESSION_TAKEN", "closed:0"]


def test_a_bot_that_cannot_start_is_a_no_show_and_the_match_goes_on(tmp_path: Path) -> None:
    bots = {"ghost": [str(tmp_path / "no-such-bot")], "r1": RANDOM, "r2": RANDOM, "r3": RANDOM}
    runs, pool = asyncio.run(_tournament(tmp_path, bots, [list(bots)] * 2, concurrency=1))
    for run in runs:
        assert run.result.seats[0].outcome is Outcome.DISCONNECTED
        assert all(s.outcome is Outcome.NORMAL for s in run.result.seats[1:])
        header = read_replay(run.replay).header
        assert header["seats"][0]["connected"] is False
    assert pool.stats("ghost").processes == 0


def test_a_remote_session_bot_is_handed_seats_as_it_has_room(tmp_path: Path) -> None:
    """A bot the pool does not start: its owner runs it with the session token the pool made
    (here with the SDK's default capacity, 1), and it plays every match it is seated in."""

    async def scenario() -> tuple[list[MatchRun], BotPool, int | None]:
        server = ArbiterServer()
        await server.start()
        pool = BotPool(server, tmp_path, capacity=4)
        token = pool.add_remote("far")
        for name in ("r1", "r2", "r3"):
            pool.add(name, RANDOM)
        env = {**os.environ, "CROUPIER_ADDRESS": server.address, "CROUPIER_SESSION_TOKEN": token}
        env.pop("CROUPIER_SESSION_CAPACITY", None)
        remote = await asyncio.create_subprocess_exec(*RANDOM, env=env)
        seats = ["far", "r1", "r2", "r3"]
        try:
            runs = await asyncio.gather(
                *(
                    run_match(
                        config(seed=i),
                        [pool.assigner(n) for n in seats],
                        tmp_path / "out",
                        server=server,
                        match_id=f"far{i}",
                    )
                    for i in range(4)
                )
            )
        finally:
            await pool.close()
            await server.stop()
            code = await asyncio.wait_for(remote.wait(), 30)
        return list(runs), pool, code

    runs, pool, code = asyncio.run(scenario())
    assert all(_normal(r) for r in runs)
    assert [r.result.seats[0].bot_name for r in runs] == ["random"] * 4
    stats = pool.stats("far")
    assert (stats.seats, stats.peak_load, stats.processes) == (4, 1, 0)
    assert code == 0, "the remote bot ends by itself when its session is closed"


def test_a_remote_bot_that_is_not_connected_is_a_no_show(tmp_path: Path) -> None:
    async def scenario() -> MatchRun:
        server = ArbiterServer()
        await server.start()
        pool = BotPool(server, tmp_path, session_timeout_s=0.5)
        pool.add_remote("absent")
        for name in ("r1", "r2", "r3"):
            pool.add(name, RANDOM)
        seats = [pool.assigner(n) for n in ("absent", "r1", "r2", "r3")]
        try:
            return await run_match(config(), seats, tmp_path / "out", server=server)
        finally:
            await pool.close()
            await server.stop()

    run = asyncio.run(scenario())
    assert run.result.seats[0].outcome is Outcome.DISCONNECTED
    assert all(s.outcome is Outcome.NORMAL for s in run.result.seats[1:])


def test_absent_remote_bots_are_waited_for_at_once_not_one_after_another(tmp_path: Path) -> None:
    """Every seat of a match is handed to its bot at once: four remote bots that never connect
    delay it by one session timeout, not four (as when the seats were handed out in turn)."""
    timeout_s = 1.0

    async def scenario() -> tuple[MatchRun, float]:
        server = ArbiterServer()
        await server.start()
        pool = BotPool(server, tmp_path, session_timeout_s=timeout_s)
        names = [f"absent{i}" for i in range(4)]
        for name in names:
            pool.add_remote(name)
        try:
            started = time.monotonic()
            run = await run_match(
                config(), [pool.assigner(n) for n in names], tmp_path / "out", server=server
            )
            return run, time.monotonic() - started
        finally:
            await pool.close()
            await server.stop()

    run, took = asyncio.run(scenario())
    assert all(s.outcome is Outcome.DISCONNECTED for s in run.result.seats)
    assert took < 3 * timeout_s, took  # (one after another: at least 4)


def test_a_match_cancelled_while_its_bot_starts_stops_that_bot(tmp_path: Path) -> None:
    """Cancelled while a session bot is still starting (it never opens its session), the match
    ends at once, and the half-started process is stopped then, not left running untracked
    until the pool (here: the server) ends."""
    never = [sys.executable, str(BOTS_DIR / "never_connects.py"), "--sleep-s", "60"]

    async def scenario() -> tuple[MatchRun, float, bool]:
        server = ArbiterServer()
        await server.start()
        pool = BotPool(server, tmp_path, session_timeout_s=30)
        pool.add("never", never)
        for name in ("r1", "r2", "r3"):
            pool.add_remote(name)  # (never connect either: the match waits on its seats)
        cancel = asyncio.Event()
        try:
            seats = [pool.assigner(n) for n in ("never", "r1", "r2", "r3")]
            playing = asyncio.ensure_future(
                run_match(config(), seats, tmp_path / "out", server=server, cancel=cancel)
            )
            while not pool.stats("never").pids:  # (launched: now starting)
                await asyncio.sleep(0.05)
            pid = pool.stats("never").pids[0]
            await asyncio.sleep(0.3)
            started = time.monotonic()
            cancel.set()
            run = await playing
            took = time.monotonic() - started
            deadline = time.monotonic() + 10
            while alive(pid) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            return run, took, alive(pid)
        finally:
            await pool.close()
            await server.stop()

    run, took, left = asyncio.run(scenario())
    assert run.result.cancelled
    assert took < 5, took  # (not the 30 s session timeout)
    assert not left, "the half-started bot was left running while the pool lived"


def test_a_lane_gets_no_directory_shared_with_other_sandboxes(tmp_path: Path) -> None:
    """A pool whose sandboxes share a writable directory (``SandboxOptions.writable``: tests
    use one to collect what bots record) binds it into a bot's process outside lanes, never into
    a lane's: two lanes of a bot could talk through it."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    note = shared / "notes.txt"
    note.touch()
    note.chmod(0o666)  # (each sandboxed bot may have a uid of its own)
    scribbler = [sys.executable, str(Path(__file__).parent / "bots" / "scribbler.py"), str(note)]

    async def scenario() -> None:
        server = ArbiterServer()
        await server.start()
        logs = tmp_path / "logs"
        logs.mkdir()
        pool = BotPool(server, logs, sandbox=SandboxOptions(writable=(shared,)))
        pool.add("s", scribbler)
        pool.add("r", RANDOM)
        try:
            for match_id, lane in (("plain", None), ("lane0", 0), ("lane1", 1)):
                seats = [pool.assigner("s", lane=lane), *[pool.assigner("r")] * 3]
                run = await run_match(config(), seats, tmp_path / "out", server=server,
                                      match_id=match_id)  # fmt: skip
                assert all(s.outcome is Outcome.NORMAL for s in run.result.seats)
        finally:
            await pool.close()
            await server.stop()
        assert pool.stats("s").processes == 3  # one outside lanes, one per lane

    asyncio.run(scenario())
    assert note.read_text().split() == ["plain"]
    said = "\n".join(p.read_text() for p in sorted((tmp_path / "logs").glob("s.*.log")))
    assert "scribble ok plain" in said
    assert "scribble refused lane0" in said
    assert "scribble refused lane1" in said
