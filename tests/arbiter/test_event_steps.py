"""Event step numbers reveal nothing: unannounced actions do not advance them.

In Fipsen a seat whose hand is 7♣ 7♠ 7♥ 7♦ + an Ace is asked whether to call Siebener Fips, and
declining is not announced. If the events' ``step`` counted that decision, the gap would tell
every other seat that someone holds the four sevens. Two real matches (the arbiter, seats driven
in-process through their links) differ only in cards seat 0 never sees; in the first, seat 1 is
asked and declines. Seat 0 must receive exactly the same messages in both, and the other seats'
views of the replay, and the public view, must be the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from seats_kit import play

from croupier.arbiter import ClockRules, DecisionRequest, MatchConfig
from croupier.games.fipsen import rules as fipsen
from croupier.replay import read_replay, render

WATCHER = 0
DEALER = 3  # so seat 0 is Vorhand and seat 1 (Mittelhand) is asked first
DECLINE = int(fipsen.Action.DECLINE_FIPS)
PASS = int(fipsen.Action.PASS)


def cards(text: str) -> tuple[int, ...]:
    return tuple(fipsen.make_card(name[:-1], name[-1]) for name in text.split())


def deal(m: str, stock: str) -> tuple[int, ...]:
    v, h, d = "8♣ 9♣ 10♣ J♣ Q♣", "K♣ 8♠ 9♠ 10♠ J♠", "Q♠ K♠ A♠ 8♥ 9♥"
    hands = tuple(cards(x) for x in (v, m, h, d))
    return fipsen.stacked_deal(hands, cards("10♥ J♥"), cards(stock))


def _decline_then_pass(request: DecisionRequest) -> int:
    """Decline Siebener Fips, pass every bid, else play the lowest id."""
    legal = request.legal_actions
    return DECLINE if DECLINE in legal else PASS if PASS in legal else legal[0]


def _play(tmp_path: Path, name: str, outcome: tuple[int, ...]) -> tuple[list[Any], Path]:
    """Play one deal; what seat 0 received, and the replay."""
    path = tmp_path / f"{name}.jsonl"
    config = MatchConfig(
        "fipsen",
        {"deals": 1},
        seed=5,
        clock=ClockRules(move_time_ms=5000, time_bank_ms=0),
        connect_timeout_s=5,
        chance_script=((DEALER,), outcome),
    )
    return play(config, "steps", path, [_decline_then_pass] * 4)[WATCHER], path


def test_a_declined_siebener_fips_leaves_no_gap_in_the_steps(tmp_path: Path) -> None:
    asked, asked_replay = _play(tmp_path, "a", deal("7♣ 7♠ 7♥ 7♦ A♣", "Q♥ K♥ A♥"))
    quiet, quiet_replay = _play(tmp_path, "b", deal("7♣ 7♠ 7♥ 7♦ Q♥", "A♣ K♥ A♥"))
    labels = [
        [r.data["label"] for r in read_replay(p).records if r.type == "action"]
        for p in (asked_replay, quiet_replay)
    ]
    assert labels[0] == ["Decline", "Pass", "Pass", "Pass", "Pass"]  # the offer happened...
    assert labels[1] == ["Pass", "Pass", "Pass", "Pass"]  # ...only in the first match
    assert asked == quiet
    steps = [m.step for m in asked if hasattr(m, "step")]
    assert steps == sorted(steps)
    # nor in seat 0's view of the replay, or the public view; seat 1's own view does show it
    one, two = read_replay(asked_replay), read_replay(quiet_replay)
    for viewer in (WATCHER, 2, 3, None):
        assert list(render(one, viewer)) == list(render(two, viewer)), viewer
    assert "   seat 1 may call Siebener Fips" in list(render(one, 1))
