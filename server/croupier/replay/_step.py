"""Walking a match decision by decision (``croupier replay step``): each decision as the seat
saw it (its hand history of the round so far, from ``observe``) and the legal actions it had."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from croupier.errors import ConfigError
from croupier.replay._records import Replay
from croupier.replay._render import Line, narrate


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the walk: its record index, round (0-based), seat and step."""

    index: int
    round: int
    seat: int
    step: int


class Walk:
    """The decisions of ``replay`` (only ``seat``'s, or every seat's), each viewable."""

    def __init__(self, replay: Replay, seat: int | None = None) -> None:
        seats = len(replay.header["seats"])
        if seat is not None and seat not in range(seats):
            raise ConfigError(f"--seat {seat}: the match has seats 0..{seats - 1}")
        self.replay = replay
        self.seat = seat
        game = replay.game
        self.decisions = [
            Decision(i, game.round_index(replay.before(i)), r.data["seat"], r.data["step"])
            for i, r in enumerate(replay.records)
            if r.type == "action" and (seat is None or r.data["seat"] == seat)
        ]
        self._lines: dict[int, list[Line]] = {}

    def __len__(self) -> int:
        return len(self.decisions)

    def first_of_round(self, round_: int) -> int | None:
        """The position of the first decision in ``round_`` (0-based), if any."""
        return next((k for k, d in enumerate(self.decisions) if d.round == round_), None)

    def view(self, k: int) -> list[str]:
        """Decision ``k`` (0-based) as its seat saw it, then its legal actions and the choice."""
        replay, game = self.replay, self.replay.game
        d = self.decisions[k]
        if d.seat not in self._lines:
            self._lines[d.seat] = narrate(replay, d.seat)
        state: Any = replay.before(d.index)
        data = replay.records[d.index].data
        unit = game.info.round_noun
        out = [
            f"── decision {k + 1}/{len(self)} · {unit} {d.round + 1} · step {d.step} · "
            f"seat {d.seat} to act (its view) ──"
        ]
        out += [
            line.text
            for line in self._lines[d.seat]
            if line.round == d.round and 0 <= line.index < d.index
        ]
        legal = game.legal_actions(state)
        out.append(f"   legal actions ({len(legal)}):")
        for action in legal:
            mark = "→" if action == data["action"] else " "
            out.append(f"    {mark} {action:>4}  {game.action_label(state, action)}")
        fault = f", {data['fault']}: played by the arbiter" if data["fault"] else ""
        out.append(f"   chose {data['label']} in {data['time_us'] / 1000:.1f} ms{fault}")
        return out
