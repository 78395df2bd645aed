"""Hostile load on one arbiter while honest matches run on it (issues 9 and 19).

    .venv/bin/python bench/attack.py                 # 60,000 hostile messages (a few minutes)
    .venv/bin/python bench/attack.py --messages 20000 --deals 12

One server, in this process. The honest side: four random bots in session processes that dial
in over loopback (the attackers' own address, as bots behind one NAT would share an
attacker's), one seat each of every match. First a **quiet** run: ``--quiet-matches`` As-Nas
matches one after another. Then the honest matches start again, and once the first is under way
attacker processes (at the lowest CPU priority: they stand for other machines) hammer the same
server until they have sent ``--messages`` messages between them: garbage bytes, Hellos with
guessed tokens, wrong protocol versions, replies before any Hello, health ``Watch`` streams,
messages far over the size cap (on ``Play`` and ``Session``), streams held open without a word
(each attacker keeps :data:`HELD` open, letting the oldest go for a new one) and session junk
(bytes, guessed-token and wrong-version ``SessionHello`` s on ``Session``), resetting every
stream. The honest matches go on, one after another, until the attack has sent everything, so
they overlap the whole of it. It prints one JSON line: whether the arbiter survived (it still
answers a health check), how the honest bot processes exited, whether every honest match
finished with every seat ``normal`` and its replay verifies, the honest seats' decision times
(p50/p99 of the charged ``time_us``) under attack against the quiet run, the attack's counts,
and the arbiter's peak RSS.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _percentile(values: list[int], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return float(ordered[index])


#: Kinds of hostile stream, in the order of their number.
KINDS = (
    "garbage",  # bytes that are not a PlayRequest
    "guessed_token",  # Hellos with random tokens
    "wrong_version",  # Hellos of another protocol version
    "reply_before_hello",  # an ActionReply as the first message
    "health_watch",  # a health Watch, reset at once
    "oversized",  # a message far over the size cap, on Play or Session
    "held_open",  # a stream that says nothing, held until the server ends it
    "session_junk",  # Session streams: bytes, guessed tokens, wrong versions, replies
)
#: Streams without a Hello one attacker process keeps open at once ("held_open"): the two
#: default attackers together would hold more than the 1,024 streams a server serves.
HELD = 600
OVERSIZED_BYTES = 256 * 1024


async def _attacker(address: str, budget: int, seed: int) -> dict[str, int]:
    """One attacker process: hostile streams until ``budget`` messages have been sent."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from croupier.v1 import PROTOCOL_VERSION
    from croupier.v1 import bot_pb2 as pb

    rng = random.Random(seed)
    sent = resets = refused = held_total = 0
    held: list[object] = []
    async with grpc.aio.insecure_channel(address) as channel:
        play = channel.stream_stream(
            "/croupier.v1.BotService/Play", request_serializer=None, response_deserializer=None
        )
        session = channel.stream_stream(
            "/croupier.v1.BotService/Session", request_serializer=None, response_deserializer=None
        )
        health = health_pb2_grpc.HealthStub(channel)
        while sent < budget:
            kind = KINDS[rng.randrange(len(KINDS))]
            if kind == "health_watch":
                watch = health.Watch(health_pb2.HealthCheckRequest())
                sent += 1
                watch.cancel()
                resets += 1
                continue
            if kind == "held_open":  # the oldest held stream is let go for a new one
                call = (play if rng.random() < 0.5 else session)()
                held.append(call)
                held_total += 1
                sent += 1
                if len(held) > HELD:
                    held.pop(0).cancel()  # type: ignore[attr-defined]
                    resets += 1
                await asyncio.sleep(0)
                continue
            on_session = kind == "session_junk" or (kind == "oversized" and rng.random() < 0.5)
            call = (session if on_session else play)()
            try:
                for _ in range(rng.randrange(1, 6)):
                    if kind == "garbage" or (on_session and rng.random() < 0.25):
                        raw = rng.randbytes(rng.randrange(1, 200))
                    elif kind == "oversized":
                        raw = rng.randbytes(OVERSIZED_BYTES)
                    elif on_session:
                        hello = pb.SessionHello(
                            token=rng.randbytes(18).hex(),
                            bot_name="x",
                            capacity=rng.randrange(1, 1000),
                            protocol_version=rng.choice((PROTOCOL_VERSION, rng.randrange(2, 99))),
                        )
                        raw = pb.SessionRequest(hello=hello).SerializeToString()
                    elif kind == "guessed_token":
                        hello = pb.Hello(
                            token=rng.randbytes(18).hex(),
                            bot_name="x",
                            protocol_version=PROTOCOL_VERSION,
                        )
                        raw = pb.PlayRequest(hello=hello).SerializeToString()
                    elif kind == "wrong_version":
                        raw = pb.PlayRequest(
                            hello=pb.Hello(token="t", protocol_version=rng.randrange(2, 99))
                        ).SerializeToString()
                    else:
                        reply = pb.ActionReply(request_id=rng.randrange(1 << 30), action_id=3)
                        raw = pb.PlayRequest(action=reply).SerializeToString()
                    await call.write(raw)
                    sent += 1
            except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
                refused += 1
            call.cancel()  # an HTTP/2 RST_STREAM
            resets += 1
        for call in held:
            call.cancel()  # type: ignore[attr-defined]
    return {"sent": sent, "resets": resets, "refused": refused, "held": held_total}


def _decision_times(replay: Path) -> list[int]:
    from croupier.replay import read_replay

    return [
        r.data["time_us"]
        for r in read_replay(replay).records
        if r.type == "action" and r.data["fault"] is None
    ]


def _figures(replays: list[Path]) -> dict[str, object]:
    """The honest matches' figures from their replays."""
    from croupier.replay import read_replay, verify

    times: list[int] = []
    verified = finished = normal = True
    faults: list[str] = []
    for path in replays:
        replay = read_replay(path)
        try:
            verify(replay)
        except Exception:  # reported, not raised: this is a benchmark's figure
            verified = False
        times += _decision_times(path)
        result = next(r for r in replay.records if r.type == "result").data
        finished = finished and not result.get("cancelled", False)
        normal = normal and all(seat["outcome"] == "normal" for seat in result["seats"])
        faults += [
            r.data.get("detail", "")
            for r in replay.records
            if r.type in ("action", "fault") and r.data.get("fault")
        ]
    return {
        "matches": len(replays),
        "finished": finished,
        "all_normal": normal,
        "faults": faults[:3],
        "verified": verified,
        "decisions": len(times),
        "p50_us": _percentile(times, 0.5),
        "p99_us": _percentile(times, 0.99),
        "mean_us": statistics.fmean(times) if times else 0.0,
        "zero_share": round(sum(1 for t in times if t == 0) / max(1, len(times)), 3),
    }


class _Honest:
    """The honest side: four session bot processes that dial in over loopback (the attackers'
    own address, as bots behind one NAT would share an attacker's), each holding one seat of
    every match; matches are played one after another until told to stop."""

    def __init__(self, server: object, out: Path, deals: int) -> None:
        from croupier.transport import ENV_ADDRESS, ENV_SESSION_CAPACITY, ENV_SESSION_TOKEN, BotPool

        self.server, self.out, self.deals = server, out, deals
        (out / "logs").mkdir(parents=True, exist_ok=True)
        self.pool = BotPool(server, out / "logs")  # type: ignore[arg-type]
        self.names = [f"honest{n}" for n in range(4)]
        self.procs = []
        for name in self.names:
            token = self.pool.add_remote(name)
            env = {
                **os.environ,
                ENV_ADDRESS: server.address,  # type: ignore[attr-defined]
                ENV_SESSION_TOKEN: token,
                ENV_SESSION_CAPACITY: "1",
            }
            random_bot = [sys.executable, "-m", "croupier_bots.random_bot"]
            self.procs.append(subprocess.Popen(random_bot, env=env, stdout=subprocess.DEVNULL))
        self.started = asyncio.Event()  # the first match's first deal is under way

    async def play(self, seed: int, until: asyncio.Event | None, matches: int = 1) -> list[Path]:
        """Matches until ``until`` is set (``matches`` of them if ``None``); their replays
        (read later: reading is work on this process's event loop, the arbiter's)."""
        from croupier.arbiter import ClockRules, MatchConfig
        from croupier.runner import run_match

        replays = []
        n = 0
        while True:
            config = MatchConfig(
                "as-nas",
                {"deals": self.deals},
                seed=seed + n,
                clock=ClockRules(5000, 10000),
                connect_timeout_s=30,
            )
            seats = [self.pool.assigner(name) for name in self.names]
            run = await run_match(
                config,
                seats,
                self.out / f"s{seed}-m{n}",
                server=self.server,  # type: ignore[arg-type]
                on_ready=lambda *_: self.started.set(),
            )
            replays.append(run.replay)
            n += 1
            if until.is_set() if until is not None else n >= matches:
                break
        return replays

    async def close(self) -> list[int | None]:
        """Stop the pool; the bot processes' exit statuses (0: they left as told)."""
        await self.pool.close()
        codes = []
        for proc in self.procs:
            try:
                codes.append(await asyncio.to_thread(proc.wait, 30))
            except subprocess.TimeoutExpired:
                proc.kill()
                codes.append(None)
        return codes


async def _alive(address: str) -> bool:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    try:
        async with grpc.aio.insecure_channel(address) as channel:
            reply = await asyncio.wait_for(
                health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest()), 5
            )
            return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)
    except Exception:  # any failure means it did not answer
        return False


async def _overlapped(
    honest: _Honest, seed: int, argvs: list[list[str]]
) -> tuple[list[Path], list[dict[str, int]], float]:
    """Honest matches from before the processes ``argvs`` start until after they have all
    ended: the replays, what each process printed last, and how long they ran."""
    done = asyncio.Event()
    honest.started.clear()
    task = asyncio.create_task(honest.play(seed, done))
    await honest.started.wait()
    await asyncio.sleep(0.5)  # the match is under way before the load comes
    started = time.monotonic()
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) for argv in argvs]
    counts = []
    for proc in procs:  # they run to their budget
        out, _ = await asyncio.to_thread(proc.communicate)
        counts.append(json.loads(out.strip().splitlines()[-1]))
    took = time.monotonic() - started
    done.set()
    return await task, counts, took  # the last match ends after they have


def _ratio(a: object, b: object) -> float:
    return round(float(a) / max(1.0, float(b)), 2)  # type: ignore[arg-type]


async def main(args: argparse.Namespace) -> dict[str, object]:
    from croupier.transport import ArbiterServer

    server = ArbiterServer("127.0.0.1:0")  # loopback peers are limited too
    address = await server.start()
    with tempfile.TemporaryDirectory() as tmp:
        honest = _Honest(server, Path(tmp), args.deals)
        await honest.play(args.seed + 3000, None, 1)  # a warm-up: the bots start up
        quiet_replays = await honest.play(args.seed, None, args.quiet_matches)
        per_process = args.messages // args.attackers + 1
        attack = [
            [sys.executable, __file__, "--attacker", address, str(per_process), str(n)]
            for n in range(args.attackers)
        ]
        attacked_replays, counts, attack_s = await _overlapped(honest, args.seed + 1000, attack)
        # the control: as many processes at the same priority, as long, that only spin
        spin = [[sys.executable, __file__, "--spin", str(attack_s)]] * args.attackers
        control_replays, _, _ = await _overlapped(honest, args.seed + 4000, spin)
        # and quiet again: the machine's load drifts; the quiet figures are of both runs
        quiet_replays += await honest.play(args.seed + 2000, None, args.quiet_matches)
        survived = await _alive(address)
        exits = await honest.close()
        await server.stop()
        quiet, attacked = _figures(quiet_replays), _figures(attacked_replays)
        control = _figures(control_replays)
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "bench": "attack",
        "arbiter_survived": survived,
        "honest_bot_exits": exits,
        "honest_matches": attacked["matches"],
        "honest_finished": attacked["finished"],
        "honest_all_normal": attacked["all_normal"],
        "honest_faults": attacked["faults"],
        "honest_replay_verified": attacked["verified"],
        "hostile_messages": sum(c["sent"] for c in counts),
        "stream_resets": sum(c["resets"] for c in counts),
        "refused_streams": sum(c["refused"] for c in counts),
        "held_open_streams": sum(c["held"] for c in counts),
        "attack_s": round(attack_s, 1),
        "honest_decisions": attacked["decisions"],
        "honest_p50_us": attacked["p50_us"],
        "honest_p99_us": attacked["p99_us"],
        "honest_zero_share": attacked["zero_share"],
        "quiet_decisions": quiet["decisions"],
        "quiet_p50_us": quiet["p50_us"],
        "quiet_p99_us": quiet["p99_us"],
        "quiet_zero_share": quiet["zero_share"],
        "control_decisions": control["decisions"],
        "control_p50_us": control["p50_us"],
        "control_p99_us": control["p99_us"],
        "p50_ratio": _ratio(attacked["p50_us"], quiet["p50_us"]),
        "p99_ratio": _ratio(attacked["p99_us"], quiet["p99_us"]),
        # what the CPU the attacker processes burn does alone, and the attack against that
        "control_p99_ratio": _ratio(control["p99_us"], quiet["p99_us"]),
        "p99_ratio_to_control": _ratio(attacked["p99_us"], control["p99_us"]),
        "quiet_verified": quiet["verified"] and control["verified"],
        "peak_rss_mib": round(rss_kib / 1024, 1),
        "cpus": os.cpu_count(),
    }


def _spin(seconds: float) -> dict[str, int]:
    """The control's process: burn CPU for ``seconds``, send nothing."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return {"sent": 0, "resets": 0, "refused": 0, "held": 0}


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--attacker":
        _, _, address, budget, seed = sys.argv
        os.nice(19)  # the attackers stand for other machines: their CPU is not the arbiter's
        print(json.dumps(asyncio.run(_attacker(address, int(budget), int(seed)))))
        sys.exit(0)
    if len(sys.argv) > 1 and sys.argv[1] == "--spin":
        os.nice(19)  # as the attackers
        print(json.dumps(_spin(float(sys.argv[2]))))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=60_000, help="hostile messages in all")
    parser.add_argument("--attackers", type=int, default=2, help="attacker processes")
    parser.add_argument("--deals", type=int, default=24, help="deals of each honest match")
    parser.add_argument(
        "--quiet-matches", type=int, default=4, help="matches of each quiet run (before, after)"
    )
    parser.add_argument("--seed", type=int, default=9)
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
