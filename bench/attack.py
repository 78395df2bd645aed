"""Hostile load on one arbiter while an honest match runs on it (issue 9).

    .venv/bin/python bench/attack.py                 # 100,000 hostile messages (a few minutes)
    .venv/bin/python bench/attack.py --messages 20000 --deals 12

One server, in this process. First a **quiet** run: an honest As-Nas match between four
launched (sandboxed) random bots; then the same match again while attacker processes hammer the
same server: streams that send garbage bytes, Hellos with guessed tokens, wrong protocol
versions, replies before any Hello, health ``Watch`` streams, and then reset (cancel) each
stream, as fast as they can, until they have sent ``--messages`` messages between them. It
prints one JSON line: whether the arbiter survived (it still answers a health check), whether
the honest match finished with every seat ``normal``, whether its replay verifies, the honest
seats' decision times (p50/p99 of the charged ``time_us``) in the attacked run against the
quiet run, the attack's message and reset counts, and the arbiter's peak RSS.
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


async def _attacker(address: str, budget: int, seed: int) -> dict[str, int]:
    """One attacker process: hostile streams until ``budget`` messages have been sent."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    from croupier.v1 import PROTOCOL_VERSION
    from croupier.v1 import bot_pb2 as pb

    rng = random.Random(seed)
    sent = resets = refused = 0
    method = "/croupier.v1.BotService/Play"
    async with grpc.aio.insecure_channel(address) as channel:
        play = channel.stream_stream(method, request_serializer=None, response_deserializer=None)
        health = health_pb2_grpc.HealthStub(channel)
        while sent < budget:
            kind = rng.randrange(5)
            if kind == 4:
                watch = health.Watch(health_pb2.HealthCheckRequest())
                sent += 1
                watch.cancel()
                resets += 1
                continue
            call = play()
            try:
                for _ in range(rng.randrange(1, 6)):
                    if kind == 0:
                        raw = rng.randbytes(rng.randrange(1, 200))
                    elif kind == 1:
                        hello = pb.Hello(
                            token=rng.randbytes(18).hex(),
                            bot_name="x",
                            protocol_version=PROTOCOL_VERSION,
                        )
                        raw = pb.PlayRequest(hello=hello).SerializeToString()
                    elif kind == 2:
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
    return {"sent": sent, "resets": resets, "refused": refused}


def _decision_times(replay: Path) -> list[int]:
    from croupier.replay import read_replay

    return [
        r.data["time_us"]
        for r in read_replay(replay).records
        if r.type == "action" and r.data["fault"] is None
    ]


async def _honest(server: object, out: Path, deals: int, seed: int) -> dict[str, object]:
    from croupier.arbiter import ClockRules, MatchConfig, Outcome
    from croupier.replay import read_replay, verify
    from croupier.runner import run_match

    random_bot = [sys.executable, "-m", "croupier_bots.random_bot"]
    config = MatchConfig(
        "as-nas", {"deals": deals}, seed=seed, clock=ClockRules(5000, 10000), connect_timeout_s=30
    )
    run = await run_match(config, [random_bot] * 4, out, server=server)  # type: ignore[arg-type]
    try:
        verify(read_replay(run.replay))
        verified = True
    except Exception:  # reported, not raised: this is a benchmark's figure
        verified = False
    times = _decision_times(run.replay)
    return {
        "finished": not run.result.cancelled,
        "all_normal": all(s.outcome is Outcome.NORMAL for s in run.result.seats),
        "outcomes": [s.outcome.value for s in run.result.seats],
        "faults": [
            r.data.get("detail", "")
            for r in read_replay(run.replay).records
            if r.type in ("action", "fault") and r.data.get("fault")
        ][:3],
        "verified": verified,
        "decisions": len(times),
        "p50_us": _percentile(times, 0.5),
        "p99_us": _percentile(times, 0.99),
        "mean_us": statistics.fmean(times) if times else 0.0,
    }


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


async def main(args: argparse.Namespace) -> dict[str, object]:
    from croupier.transport import ArbiterServer

    server = ArbiterServer("127.0.0.1:0")  # loopback peers are limited too
    address = await server.start()
    with tempfile.TemporaryDirectory() as tmp:
        quiet = await _honest(server, Path(tmp) / "quiet", args.deals, args.seed)
        per_process = args.messages // args.attackers + 1
        attackers = [
            subprocess.Popen(
                [sys.executable, __file__, "--attacker", address, str(per_process), str(n)],
                stdout=subprocess.PIPE,
                text=True,
            )
            for n in range(args.attackers)
        ]
        started = time.monotonic()
        await asyncio.sleep(0.5)  # the attack is under way before the honest bots come
        attacked = await _honest(server, Path(tmp) / "attacked", args.deals, args.seed)
        honest_s = time.monotonic() - started
        counts = []
        for proc in attackers:  # the attack runs to its budget (the match may finish first)
            out, _ = await asyncio.to_thread(proc.communicate)
            counts.append(json.loads(out.strip().splitlines()[-1]))
        attack_s = time.monotonic() - started
        survived = await _alive(address)
        await server.stop()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "bench": "attack",
        "arbiter_survived": survived,
        "honest_finished": attacked["finished"],
        "honest_all_normal": attacked["all_normal"],
        "honest_outcomes": attacked["outcomes"],
        "honest_faults": attacked["faults"],
        "honest_replay_verified": attacked["verified"],
        "hostile_messages": sum(c["sent"] for c in counts),
        "stream_resets": sum(c["resets"] for c in counts),
        "refused_streams": sum(c["refused"] for c in counts),
        "attack_s": round(attack_s, 1),
        "honest_match_s": round(honest_s, 1),
        "honest_p50_us": attacked["p50_us"],
        "honest_p99_us": attacked["p99_us"],
        "quiet_p50_us": quiet["p50_us"],
        "quiet_p99_us": quiet["p99_us"],
        "p50_ratio": round(attacked["p50_us"] / max(1.0, quiet["p50_us"]), 2),  # type: ignore[operator]
        "p99_ratio": round(attacked["p99_us"] / max(1.0, quiet["p99_us"]), 2),  # type: ignore[operator]
        "quiet_verified": quiet["verified"],
        "peak_rss_mib": round(rss_kib / 1024, 1),
        "cpus": os.cpu_count(),
    }


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--attacker":
        _, _, address, budget, seed = sys.argv
        print(json.dumps(asyncio.run(_attacker(address, int(budget), int(seed)))))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=100_000, help="hostile messages in all")
    parser.add_argument("--attackers", type=int, default=2, help="attacker processes")
    parser.add_argument("--deals", type=int, default=24, help="deals of each honest match")
    parser.add_argument("--seed", type=int, default=9)
    print(json.dumps(asyncio.run(main(parser.parse_args()))))
