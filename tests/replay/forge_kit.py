"""Forgers for the replay tests: real replays (``replay_kit.play``, the real arbiter and writer)
edited the way someone who holds the file and wants another result would edit them.

A forger cannot change the commitment the bots were told at Welcome (each bot may have kept it):
so a forgery keeps the original's commitment and everything the commitment is checked against
(the seed, the revealed salt, the script digest), and rewrites the rest. The strongest forgeries
here are real matches played under other terms (other deals, params, clocks, policies) with the
original's commitment pasted in: every record in them is consistent with the rules.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from replay_kit import cli

Records = list[dict[str, Any]]

#: What a forger keeps from the original: the commitment and what it is checked against.
KEEP_HEADER = ("match_id", "seed", "commitment", "chance_script_sha256")
KEEP_RESULT = ("salt", "chance_script_sha256")


def records(path: Path) -> Records:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def write(path: Path, recs: Records) -> Path:
    """The records as the writer writes them (compact, UTF-8)."""
    path.write_text(
        "".join(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in recs)
    )
    return path


def verdict(path: Path) -> tuple[int, str]:
    """``croupier replay verify PATH``: its status and its line (stdout or the error line)."""
    ran = cli("replay", "verify", path)
    return ran.status, (ran.out + ran.err).strip()


def outcome(recs: Records) -> tuple[Any, ...]:
    """What a forgery would change: the scores, places and outcomes claimed, and how it ended."""
    result = recs[-1]
    assert result["type"] == "result"
    rows = result["seats"]
    return (
        tuple(r["score"] for r in rows),
        tuple(r["place"] for r in rows),
        tuple(r["outcome"] for r in rows),
        result["cancelled"],
    )


def deals(path: Path) -> list[list[int]]:
    """The chance outcomes of a replay, in order (a chance script of its deals)."""
    return [r["outcome"] for r in records(path) if r["type"] == "chance"]


def paste(forged: Records, original: Records) -> Records:
    """``forged`` with the original's commitment and the values it is checked against."""
    out = [dict(r) for r in forged]
    for key in KEEP_HEADER:
        if key in original[0]:
            out[0][key] = original[0][key]
        else:
            out[0].pop(key, None)
    for key in KEEP_RESULT:
        if key in original[-1]:
            out[-1][key] = original[-1][key]
        else:
            out[-1].pop(key, None)
    return out


#: Fields each format version introduced: (record type, field) -> version (written again here,
#: from CHANGELOG.md and the writer's history, not taken from the reader).
INTRODUCED = {
    ("header", "commitment"): 2, ("header", "fault_policy"): 3,
    ("header", "reconnect_grace_ms"): 3, ("header", "event_flush_ms"): 3,
    ("header", "chance_script_sha256"): 4, ("header", "deal_commitment"): 4,
    ("action", "wall_us"): 2, ("action", "lag_us"): 2,
    ("action", "cpu_us"): 2, ("action", "policy"): 3, ("action", "conceded"): 3,
    ("fault", "policy"): 3, ("round_end", "result"): 2, ("result", "salt"): 2,
    ("result", "chance_script_sha256"): 2, ("result", "cancel_reason"): 2,
    ("result", "chance_script_rest"): 4,
}  # fmt: skip


def old_format(recs: Records, to: int, commitment: str = "v1") -> Records:
    """A format 4 replay as an old writer would have written it in format ``to``: the seed a
    number, the fields format ``to`` cannot hold removed. ``commitment``: ``v1``, formats 2 and
    3 get a scheme v1 commitment of the seed, the salt and the script digest (format 3 always
    had one; computed here as docs/protocol.md stated scheme v1); ``keep``, the format 4 one
    stays (a forger who must keep what the bots were told); ``drop``, none."""
    kept = recs[0].get("commitment")
    recs[0]["format_version"] = to
    recs[0]["seed"] = int(recs[0]["seed"])
    for r in recs:
        for key in [k for k in r if INTRODUCED.get((r["type"], k), 0) > to]:
            del r[key]
    if to < 2:
        recs[0]["clock"] = {k: recs[0]["clock"][k] for k in ("move_time_ms", "time_bank_ms")}
        for seat in recs[0]["seats"]:
            seat.pop("peer", None)
    if to < 3:
        for row in recs[-1]["seats"]:
            row.pop("forfeits", None)
    if commitment == "drop":
        recs[0].pop("commitment", None)
    elif commitment == "keep" and kept is not None:
        recs[0]["commitment"] = kept
    elif commitment == "v1" and to >= 2 and "salt" in recs[-1]:
        text = f"croupier-commit-v1:{recs[0]['seed']}:{recs[-1]['salt']}:"
        text += recs[-1]["chance_script_sha256"]
        recs[0]["commitment"] = hashlib.sha256(text.encode()).hexdigest()
    return recs
