"""``croupier ctl watch MATCH``: a match's WatchMatch stream rendered live in a terminal.

Each frame becomes its events as lines (a deal starts, a seat acts, a deal ends with its score
changes) followed by a compact board of the view (the chips, the fields, the trick...), all
from the stream alone: the public view, or a seat's own view for its bot's key. Everything
that came from a bot (its name) is escaped, so no byte of it can drive the terminal.

:func:`render_watch` renders any stream of ``WatchMatchResponse`` as it comes (``croupier ctl
watch`` hands it the server's stream; the tests feed it directly).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TextIO

from croupier.cli._output import EXIT_CANCELLED, printable
from croupier.errors import ConfigError
from croupier.games import get_spec
from croupier.v1 import bot_pb2 as pb
from croupier.v1 import control_pb2 as cpb
from croupier.v1 import score_pb2

#: Exit status when the match finished (``EXIT_CANCELLED``: it was cancelled, or the stream
#: ended before it did).
EXIT_FINISHED = 0
_NAME_MAX = 40


def _safe(text: str) -> str:
    text = printable(text)
    return text if len(text) <= _NAME_MAX else text[: _NAME_MAX - 1] + "…"


def _score(value: score_pb2.Score) -> str:
    return (
        str(value.numerator)
        if value.denominator in (0, 1)
        else f"{value.numerator}/{value.denominator}"
    )


def _signed(value: score_pb2.Score) -> str:
    text = _score(value)
    return text if text.startswith("-") or text == "0" else f"+{text}"


def board(view: pb.Observation) -> str:
    """The view as one compact line (what a glance at the table shows): the game narrator's
    ``board`` of the game's message, or, for a game whose narrator has none, the message's
    plain fields (``name value``)."""
    kind = view.WhichOneof("game")
    if kind is None:
        return ""
    message = getattr(view, kind)
    try:
        narrator = get_spec(kind.replace("_", "-")).narrator
    except ConfigError:  # (a game this arbiter does not know: its plain fields)
        narrator = None
    if narrator is not None and narrator.board is not None:
        return narrator.board(message)
    return " · ".join(
        f"{field.name} {value}"
        for field, value in message.ListFields()
        if field.type != field.TYPE_MESSAGE and not _repeated(field)
    )


def _repeated(field: Any) -> bool:
    return bool(field.label == field.LABEL_REPEATED)


class Renderer:
    """Turns WatchMatch messages into terminal lines."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.noun = "deal"
        self.status: int | None = None

    def lines(self, message: cpb.WatchMatchResponse) -> list[str]:
        kind = message.WhichOneof("kind")
        if kind == "started":
            return self._started(message.started)
        if kind == "frame":
            return self._frame(message.frame)
        if kind == "end":
            return self._end(message.end)
        return []

    def _who(self, seat: int) -> str:
        name = self.names[seat] if seat < len(self.names) else ""
        return f"seat {seat} {name}".rstrip()

    def _started(self, started: cpb.WatchStarted) -> list[str]:
        match = started.match
        self.names = [_safe(s.bot_name) for s in match.seats]
        self.noun = "deal" if "deals" in match.params else "round"
        view = f"seat {started.seat}'s view" if started.HasField("seat") else "public view"
        head = f"{match.game} · match {_safe(match.match_id)} · {view}"
        return [head, *(f"   {self._who(s.seat)}" for s in match.seats)]

    def _frame(self, frame: cpb.WatchFrame) -> list[str]:
        out = []
        for event in frame.events:
            which = event.WhichOneof("kind")
            if which == "deal_started":
                started = event.deal_started
                out.append(
                    f"── {self.noun} {started.deal_index + 1} · dealer "
                    f"{self._who(started.dealer)} ──"
                )
            elif which == "action_taken":
                taken = event.action_taken
                by = "  (played by the arbiter)" if taken.by_arbiter else ""
                out.append(f"  {event.step:>4}  {self._who(taken.seat)}: {taken.label}{by}")
            elif which == "deal_ended":
                ended = event.deal_ended
                deltas = " ".join(_signed(d) for d in ended.deltas)
                totals = " ".join(_score(t) for t in ended.totals)
                out.append(
                    f"── {self.noun} {ended.deal_index + 1} ended: {deltas} · totals {totals} ──"
                )
        if frame.HasField("view") and frame.events:
            to_act = f" · to act: {self._who(frame.to_act)}" if frame.HasField("to_act") else ""
            out.append(f"        {board(frame.view)}{to_act}")
        return out

    def _end(self, end: pb.MatchEnd) -> list[str]:
        self.status = EXIT_CANCELLED if end.cancelled else EXIT_FINISHED
        title = "Final standings (cancelled)" if end.cancelled else "Final standings"
        out = [f"── {title} ──"]
        for row in sorted(end.results, key=lambda r: (r.place, r.seat)):
            name = _safe(row.bot_name) or "(no bot)"
            out.append(f"   {row.place}. seat {row.seat} {name}: {_score(row.score)}")
        return out


def render_watch(messages: Iterable[cpb.WatchMatchResponse], out: TextIO) -> int:
    """Write each message's lines to ``out`` as it comes (flushed); the exit status: 0 when the
    match finished, 3 when it was cancelled or the stream ended before the match did."""
    renderer = Renderer()
    for message in messages:
        for line in renderer.lines(message):
            out.write(line + "\n")
        out.flush()
    if renderer.status is None:
        out.write("   (the stream ended before the match did: the match was cut off)\n")
        return EXIT_CANCELLED
    return renderer.status
