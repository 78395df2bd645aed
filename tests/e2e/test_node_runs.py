"""Ranges stay ranges in the Node SDK (issue 25, part 2): ``decision.legalRuns``,
``isLegal`` and ``idForAmount`` give a bot the bets of a run without expanding it, and
``legalActions`` is built only when read. A Node bot that reads only the runs
(``clients/node/examples/bettor.js``) plays clean chip matches at stack 1,000 over real gRPC,
betting amounts above the lowest; and the runs agree with the expanded list id for id."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from serve_kit import NODE_SDK, node_program

from croupier.replay import read_replay, verify

pytestmark = pytest.mark.e2e

BETTOR = NODE_SDK / "examples" / "bettor.js"


@pytest.mark.parametrize(("game", "amphora"), [("felduz", 3), ("scauver", 1)])
def test_a_node_bot_bets_from_the_runs_in_a_clean_match(
    tmp_path: Path, game: str, amphora: int
) -> None:
    bot = f"{node_program()} {BETTOR}"
    params = ["--players", "2"]
    for p in ("stack=1000", f"amphora={amphora}", "double_every=0", "round_cap=12"):
        params += ["--param", p]
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "match", "--game", game, "--seed", "7",
         "--bot", bot, "--bot", bot, *params, "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (path,) = tmp_path.glob("*.jsonl")
    replay = read_replay(path)
    verify(replay)
    actions = [r.data for r in replay.records if r.type == "action"]
    assert actions
    assert all(a["fault"] is None for a in actions), [a for a in actions if a["fault"]]
    amounts = [
        int(a["label"].split(":")[1]) for a in actions if a["label"].startswith(("Bet:", "Raise:"))
    ]
    assert amounts, "no bet or raise was picked from a run"
    assert len(set(amounts)) > 1  # amounts picked within runs, not only the lowest
    # each pick was the action the bot meant: the id it sent, and for an amount the bet or raise
    # of that many chips (the label the arbiter recorded)
    meant = 0
    for seat in (0, 1):
        log = (tmp_path / f"{path.stem}.seat{seat}.log").read_text().splitlines()
        picks = [line.split() for line in log if line.startswith("pick ")]
        played = [a for a in actions if a["seat"] == seat]
        assert [int(p[1]) for p in picks] == [a["action"] for a in played]
        for pick, action in zip(picks, played, strict=True):
            if len(pick) == 4:  # pick ID amount A
                assert action["label"].split(":")[1] == pick[3], (pick, action)
                meant += 1
    assert meant == len(amounts)


def test_the_runs_hold_exactly_the_expanded_ids() -> None:
    script = """
const sdk = require(process.argv[1]);
const entries = [
  { id: 0, label: "Fold", amounts: null },
  { id: 1, label: "Call:5", amounts: null },
  { id: 7, label: "Raise:10", amounts: { lowest: 10, highest: 997, step: 3 } },
];
const view = sdk.decisionView({ request_id: 1, legal_actions: entries }, null, null);
// a step that allows one raise amount: the wire sends it without a range
const single = [{ id: 0, label: "In", amounts: null }, { id: 1, label: "Out", amounts: null },
  { id: 4006, label: "Raise:3", amounts: null }];
const lone = sdk.decisionView({ request_id: 2, legal_actions: single }, null, null);
const expanded = view.legalActions.map((a) => a.id);
const fromRuns = [];
for (const r of view.legalRuns) for (let id = r.start; id < r.stop; id += r.step) fromRuns.push(id);
const holds = [];
for (let id = 0; id < 1100; id++) if (view.isLegal(id)) holds.push(id);
console.log(JSON.stringify({
  expanded, fromRuns, holds,
  raise100: view.idForAmount(100, "Raise"), raise101: view.idForAmount(101),
  bet100: view.idForAmount(100, "Bet"), call5: view.idForAmount(5),
  lone: [lone.idForAmount(3), lone.idForAmount(3, "Raise"), lone.idForAmount(3, "Bet")],
}));
"""
    done = subprocess.run(
        [node_program(), "-e", script, str(NODE_SDK)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["expanded"] == seen["fromRuns"] == seen["holds"]
    assert len(seen["expanded"]) == 2 + (997 - 10) // 3 + 1
    assert seen["raise100"] == 7 + 90  # id of amount a = entry.id + a - lowest
    assert seen["raise101"] is None  # not on the step
    assert seen["bet100"] is None  # a run of raises, not bets
    assert seen["call5"] is None  # not a bet or raise
    assert seen["lone"] == [4006, 4006, None]  # a lone raise, found by its label
