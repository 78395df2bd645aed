"""The continuous ladder's scheduler (``croupier.serve.LadderScheduler``) on a real arbiter server
with real bot processes that connect as registered (remote session) bots."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
from collections import Counter
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from croupier.errors import ConfigError
from croupier.ladder import MatchRecord, Seeder, open_store
from croupier.ladder._store import Store
from croupier.replay import read_replay, verify
from croupier.serve import LadderConfig, LadderMatch, LadderScheduler
from croupier.serve._config import parse_ladder_config, parse_serve_config
from croupier.serve._scheduler import PoolBackend
from croupier.transport import ArbiterServer, BotPool

RANDOM = [sys.executable, "-m", "croupier_bots.random_bot"]
FAST = {"players": 3, "round_cap": 2}


def recompute(matches: list[MatchRecord], names: list[str]) -> dict[str, tuple[float, float]]:
    """openskill over the stored matches in slot order, written out here from the library's
    own API (not the ladder's helpers), each seat a team of one ranked by its place."""
    model = PlackettLuce()
    current = {n: model.rating() for n in names}
    for m in sorted(matches, key=lambda m: m.slot):
        teams = [[current[s.bot]] for s in m.seats]
        for s, team in zip(
            m.seats, model.rate(teams, ranks=[s.place for s in m.seats]), strict=True
        ):
            current[s.bot] = team[0]
    return {n: (float(r.mu), float(r.sigma)) for n, r in current.items()}


def assert_ratings_agree(store: Store, names: list[str]) -> None:
    again = recompute(store.matches(), names)
    held = store.ratings()
    for name in names:
        if name in held:
            assert held[name][:2] == pytest.approx(again[name], abs=1e-12), name
        else:
            assert again[name] == (25.0, 25 / 3), f"{name} was rated but has no stored rating"


async def connect(address: str, key: str, capacity: int = 2) -> asyncio.subprocess.Process:
    env = {
        **os.environ,
        "CROUPIER_ADDRESS": address,
        "CROUPIER_SESSION_TOKEN": key,
        "CROUPIER_SESSION_CAPACITY": str(capacity),
    }
    return await asyncio.create_subprocess_exec(*RANDOM, env=env, stderr=asyncio.subprocess.DEVNULL)


async def until(predicate: object, timeout: float = 60.0) -> None:
    assert callable(predicate)
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)


@pytest.mark.e2e
def test_the_ladder_seats_only_connected_bots_rotates_seats_and_rates_each_match(
    tmp_path: Path,
) -> None:
    """Four bots connect, a fifth is registered but never does; one of the four leaves halfway.
    Every match is created only between bots connected at that moment, duplicate sets share
    their deals over rotated seats, every replay verifies and the stored ratings equal a
    recomputation from the stored results."""
    names = ["ada", "bea", "cyd", "dot", "eve"]
    seen: list[tuple[str, str, tuple[str, ...], bool]] = []
    open_sets: list[tuple[str, bool]] = []

    async def scenario() -> tuple[list[MatchRecord], dict[str, int]]:
        server = ArbiterServer()
        await server.start()
        pool = BotPool(server, tmp_path / "logs", session_timeout_s=2.0)
        keys = {name: pool.add_remote(name) for name in names}
        store = open_store(tmp_path / "ladder.sqlite")
        config = LadderConfig(
            "scauver",
            FAST,
            concurrency=3,
            duplicate=True,
            seed=7,
            move_ms=3000,
            poll_s=0.05,
            allow_remote_duplicate=True,
        )

        def listen(m: LadderMatch) -> None:
            connected = all(pool.connected(b) for b in m.bots)
            seen.append((m.match_id, m.state, m.bots, connected))
            if m.state == "pending":  # its set's deals are being played: not for spectators
                open_sets.append((m.deal_set, ladder.deal_set_open(m.deal_set)))

        backend = PoolBackend(config, server, pool, store, tmp_path / "out")
        ladder = LadderScheduler(config, backend, seeds=Seeder.explicit(7), listener=listen)
        for name in names:
            ladder.add_bot(name)
        procs = [await connect(server.address, keys[n]) for n in names[:4]]
        await ladder.start()
        try:
            await until(lambda: len(store.matches()) >= 9)
            procs[3].kill()  # dot leaves
            await procs[3].wait()
            await until(lambda: not pool.connected("dot"))
            seen.append(("", "dot-left", (), True))
            before = len(store.matches())
            await until(lambda: len(store.matches()) >= before + 6)
            await ladder.stop(finish=True)
            matches = store.matches()
            assert open_sets
            assert all(is_open for _, is_open in open_sets)
            assert not ladder.deal_set_open(open_sets[0][0])  # the first set is long over
            assert_ratings_agree(store, names)
            held = store.ratings()
            for name, rating in ladder.ratings().items():  # what it pairs by is what it stored
                assert (rating.mu, rating.sigma) == held.get(name, (25.0, 25 / 3, 0))[:2]
        finally:
            await ladder.stop()
            await pool.close()
            await server.stop()
            for proc in procs:
                if proc.returncode is None:
                    await asyncio.wait_for(proc.wait(), 30)
            store.close()
        return matches, ladder.games()

    matches, games = asyncio.run(scenario())
    created = [s for s in seen if s[1] == "pending"]
    assert created
    assert all(ok for *_, ok in created), "a match was made with a bot that is not connected"
    assert all(s.bot != "eve" for m in matches for s in m.seats)
    assert games["eve"] == 0
    states = Counter(s[1] for s in seen)
    assert states["finished"] == len(matches)
    for m in matches:
        assert len({s.bot for s in m.seats}) == 3
        replay = read_replay(tmp_path / m.replay_path)
        verify(replay)
        assert (
            hashlib.sha256((tmp_path / m.replay_path).read_bytes()).hexdigest() == m.replay_sha256
        )
    # dot played before it left, and is in no match made after its session ended
    drop = next(i for i, entry in enumerate(seen) if entry[1] == "dot-left")
    assert any("dot" in bots for _, state, bots, _ in seen[:drop] if state == "pending")
    later = [bots for _, state, bots, _ in seen[drop:] if state == "pending"]
    assert later
    assert all("dot" not in bots for bots in later)
    # duplicate sets: the seatings of a table share seed and deals, with the bots rotated
    sets: dict[str, list[MatchRecord]] = {}
    for m in matches:
        sets.setdefault(m.deal_set, []).append(m)
    full = [ms for ms in sets.values() if len(ms) == 3]
    assert full, "no duplicate set was played in full"
    for ms in full:
        assert len({m.seed for m in ms}) == 1
        orders = {tuple(s.bot for s in m.seats) for m in ms}
        first = next(iter(orders))
        assert orders == {first[k:] + first[:k] for k in range(3)}
        deals = [
            [
                r.data["outcome"]
                for r in read_replay(tmp_path / m.replay_path).records
                if r.type == "chance"
            ]
            for m in ms
        ]
        shortest = min(len(d) for d in deals)
        assert shortest > 0
        assert deals[0][:shortest] == deals[1][:shortest] == deals[2][:shortest]
    # the three bots that stayed sat in every seat position (dot, which left mid-set, may have
    # sat in two of them only)
    positions: dict[str, set[int]] = {}
    for m in matches:
        for s in m.seats:
            positions.setdefault(s.bot, set()).add(s.seat)
    assert all(positions[bot] == {0, 1, 2} for bot in ("ada", "bea", "cyd")), positions


STDIO_PROGRAM = [sys.executable, str(Path(__file__).parents[2] / "clients/stdio/random_bot.py")]


def bridge(address: str, *extra: str) -> list[str]:
    """``python -m croupier_bot.stdio --connect ADDRESS EXTRA... -- <the stdio random bot>``."""
    head = [sys.executable, "-m", "croupier_bot.stdio", "--connect", address]
    return [*head, *extra, "--", *STDIO_PROGRAM]


@pytest.mark.e2e
def test_a_stdio_program_behind_the_client_bridge_is_a_registered_bot(tmp_path: Path) -> None:
    """The bridge opens a session with the bot's key and plays each seat with a fresh stdio
    program, two at a time; it leaves with status 0 when the server ends the session. A wrong
    key is one error line and status 2."""
    names = ["py1", "py2", "std"]
    dumps = tmp_path / "env"
    std_key = ""

    async def scenario() -> tuple[list[MatchRecord], int, tuple[int, bytes]]:
        nonlocal std_key
        server = ArbiterServer()
        await server.start()
        pool = BotPool(server, tmp_path / "logs", session_timeout_s=5.0)
        keys = {name: pool.add_remote(name) for name in names}
        std_key = keys["std"]
        store = open_store(tmp_path / "ladder.sqlite")
        config = LadderConfig("scauver", FAST, concurrency=2, seed=3, move_ms=3000, poll_s=0.05)
        backend = PoolBackend(config, server, pool, store, tmp_path / "out")
        ladder = LadderScheduler(config, backend, seeds=Seeder.explicit(3))
        for name in names:
            ladder.add_bot(name)
        procs = [await connect(server.address, keys[n]) for n in names[:2]]
        # the key comes in the environment, as a supervisor would pass it; each program
        # records the environment it got, then plays (a fresh one for every seat)
        dumps.mkdir()
        recorder = tmp_path / "record_env.py"
        recorder.write_text(
            "import json, os, sys\n"
            "path = os.path.join(os.environ['ENV_DUMPS'], f'{os.getpid()}.json')\n"
            "open(path, 'w').write(json.dumps(dict(os.environ)))\n"
            "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])\n"
        )
        head = [sys.executable, "-m", "croupier_bot.stdio", "--connect", server.address]
        std = await asyncio.create_subprocess_exec(
            *head,
            "--capacity",
            "2",
            "--",
            sys.executable,
            str(recorder),
            *STDIO_PROGRAM[1:],
            env={**os.environ, "CROUPIER_SESSION_TOKEN": keys["std"], "ENV_DUMPS": str(dumps)},
        )
        wrong = await asyncio.create_subprocess_exec(
            *bridge(server.address, "--key", "not-a-key"), stderr=asyncio.subprocess.PIPE
        )
        _, wrong_err = await asyncio.wait_for(wrong.communicate(), 30)
        assert wrong.returncode is not None
        await ladder.start()
        try:
            await until(lambda: len(store.matches()) >= 4)
            await ladder.stop(finish=True)
            matches = store.matches()
        finally:
            await ladder.stop()
            await pool.close()
            await server.stop()
            code = await asyncio.wait_for(std.wait(), 30)
            for proc in procs:
                await asyncio.wait_for(proc.wait(), 30)
            hello = store.bots()["std"].hello_name
            store.close()
        assert hello == "random_bot.py"
        return matches, code, (wrong.returncode, wrong_err)

    matches, code, (wrong_code, wrong_err) = asyncio.run(scenario())
    assert len(matches) >= 4
    for m in matches:
        assert [s.outcome for s in m.seats] == ["normal"] * 3, m
        verify(read_replay(tmp_path / m.replay_path))
    assert code == 0
    assert wrong_code == 2
    lines = wrong_err.decode().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("croupier_bot.stdio: error: UNAUTHENTICATED"), lines
    # a fresh program for every seat, none of which could read the key or the address
    envs = [json.loads(p.read_text()) for p in dumps.iterdir()]
    assert len(envs) == len(matches)
    for env in envs:
        assert std_key not in json.dumps(env)
        assert not {"CROUPIER_ADDRESS", "CROUPIER_SESSION_TOKEN", "CROUPIER_TOKEN"} & set(env)
        assert env["CROUPIER_SEED"].isdigit()


@pytest.mark.parametrize(
    ("table", "line"),
    [
        ({"game": "scauver", "seatings": "all"}, "ladder.seatings: must be rotations or"),
        ({"game": "nope"}, "ladder.game: unknown game 'nope'"),
        ({"game": "scauver", "params": {"players": 9}}, "ladder.params: scauver parameter"),
        ({"gme": "scauver"}, "ladder.gme: unknown key (known: allow_remote_duplicate, closeness,"),
        ({"game": "scauver", "concurrency": "4"}, "ladder.concurrency: must be an integer"),
        ({"concurrency": 4}, "ladder.game: missing"),
        ({"game": "scauver", "exploration": 2}, "ladder.exploration: must be from 0 to 1"),
    ],
)
def test_a_mistake_in_the_ladder_table_is_one_line_naming_the_key(
    table: dict[str, object], line: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        parse_serve_config({"ladder": table}, "serve.toml", base=Path("."))
    message = str(caught.value)
    assert message.startswith(f"serve.toml: {line}"), message
    assert "\n" not in message


def test_the_ladder_table_gives_the_scheduler_its_settings() -> None:
    config = parse_ladder_config(
        {
            "game": "scauver",
            "params": {"players": 3},
            "duplicate": True,
            "allow_remote_duplicate": True,
            "seed": 5,
        },
        "s.toml",
    )
    assert config is not None
    assert (config.game, config.full_params()["players"], config.duplicate) == ("scauver", 3, True)
    assert config.seed == 5
    assert parse_ladder_config({}, "s.toml") is None
    assert parse_ladder_config({"game": "scauver", "enabled": False}, "s.toml") is None
