"""Bot authors' self-service: one seat of a match that has ended, as its bot's author may read
it (``FetchSeatView``, ``FetchSeatLog``; ``docs/server.md``, "Bot authors' self-service").

The seat's view is its hand history rendered from the replay by the one renderer of
``croupier replay show --seat`` (:func:`croupier.replay.render`), which narrates every step
from ``game.observe(state, seat)``: the seat's own hidden cards and the public record, never
another seat's (nothing is stripped from the omniscient view). The seat's log is what the
server keeps of the seat: its faults, connection drops and forfeits as the replay records them,
its result, and the stderr of the bot when the server launched it for this match alone
(``logs/<match>.seat<N>.log``). A registered bot runs on its author's machine, which keeps its
stderr; a bot the server launches in session mode writes one log for all its matches
(``logs/NAME.N.log``), which is not a seat's and stays the operator's.
"""

from __future__ import annotations

from pathlib import Path

from croupier.replay import Replay, read_replay, render
from croupier.serve._store import ServerMatch


def read_seat_replay(path: Path) -> Replay:
    """A stored replay of a match that has ended (an aborted match's partial one too)."""
    return read_replay(path, tolerate_truncated_tail=True)


def seat_view(replay: Replay, seat: int) -> list[str]:
    """``seat``'s hand history, as ``croupier replay show --seat`` prints it."""
    return list(render(replay, seat))


def _record_lines(replay: Replay, seat: int) -> list[str]:
    out = []
    for rec in replay.records:
        data = rec.data
        if data.get("seat") != seat:
            continue
        step = f"step {data['step']}"
        if rec.type == "action" and data["fault"]:
            out.append(f"{step}: {data['fault']}: the arbiter played {data['label']}")
        elif rec.type == "fault":
            out.append(f"{step}: {data['fault']}: {data['detail']}")
        elif rec.type == "forfeit":
            why = f" after a {data['fault']}" if data["fault"] else ""
            out.append(f"{step}: forfeited the round{why}")
        elif rec.type == "dropped":
            out.append(f"{step}: connection dropped ({data['reason']})")
        elif rec.type == "rejoined":
            out.append(f"{step}: back after {data['gap_us'] / 1e6:.1f} s away ({data['peer']})")
    return out


def seat_log(record: ServerMatch, replay: Replay | None, seat: int, log_dir: Path) -> bytes:
    """What the server keeps of ``seat`` of ``record`` (see the module docstring), as text."""
    lines = [f"# seat {seat} of match {record.match_id} ({record.game}): {record.bots[seat]}"]
    lines.append(f"# the match: {record.state}, {record.decisions} decisions")
    if replay is None:
        lines.append("# no replay was written: the match ended before it started")
    else:
        events = _record_lines(replay, seat)
        lines.append(f"# the seat's faults, drops and forfeits in the replay: {len(events)}")
        lines += events
    for r in record.seats:
        if r.seat == seat:
            lines.append(
                f"result: place {r.place}, score {r.score}, outcome {r.outcome}, "
                f"{r.timeouts} timeouts, {r.rejected} rejected actions"
            )
    stderr = log_dir / f"{record.match_id}.seat{seat}.log"
    try:
        kept = stderr.read_bytes()
    except OSError:
        lines.append(
            "# no stderr of this seat alone is kept here: a registered bot runs on its own "
            "machine, which keeps it (a bot the server launches for many matches writes one log "
            "for them all, the operator's)"
        )
        return ("\n".join(lines) + "\n").encode()
    lines.append(f"# the bot's stderr, as the server kept it ({len(kept)} bytes):")
    return ("\n".join(lines) + "\n").encode() + kept
