"""Replays, one JSON-lines file per match (docs/replay-format.md): write, read, verify, render."""

from croupier.replay._reader import Record, Replay, VerifyReport, iter_records, read_replay, verify
from croupier.replay._render import OMNISCIENT, render, summarize
from croupier.replay._writer import FORMAT, FORMAT_VERSION, ReplayWriter, score_text

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "OMNISCIENT",
    "Record",
    "Replay",
    "ReplayWriter",
    "VerifyReport",
    "iter_records",
    "read_replay",
    "render",
    "score_text",
    "summarize",
    "verify",
]
