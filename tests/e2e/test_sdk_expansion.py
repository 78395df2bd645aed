"""The Node SDK and the C++ kit expand amount ranges exactly as the Python SDK does, and a Node
bot reads every finished round from the observation as before protocol 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from serve_kit import node_program

from croupier.arbiter import Clocks, decision_request
from croupier.games import CHANCE, chips, get_spec
from croupier.transport._codec import encode
from croupier_bot import LegalActions
from croupier_bot import proto as pb

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
NODE_SDK = ROOT / "clients" / "node"
EXPAND_CPP = ROOT / "build" / "cpp" / "croupier-expand-legal"
PAST_READER = Path(__file__).parent / "bots" / "past_reader.js"

#: Decodes one PlayResponse (bytes on stdin) as the Node SDK does and prints its expansion.
NODE_EXPAND = r"""
const path = require("path");
const sdk = process.env.CROUPIER_NODE_SDK;
const loader = require(path.join(sdk, "node_modules", "@grpc", "proto-loader"));
const { expandLegalActions } = require(sdk);
const def = loader.loadSync(path.join("croupier", "v1", "bot.proto"), {
  includeDirs: [process.argv[1]], keepCase: true, longs: String, enums: String,
  defaults: true, oneofs: true });
const decode = def["croupier.v1.BotService"].Play.responseDeserialize;
const chunks = [];
process.stdin.on("data", (c) => chunks.push(c));
process.stdin.on("end", () => {
  const response = decode(Buffer.concat(chunks));
  for (const a of expandLegalActions(response.decision.legal_actions)) {
    const detail = a.detail ? a[a.detail] : null;
    const amount = detail && detail.chip ? detail.chip.amount : 0;
    console.log(`${a.id}\t${a.label}\t${amount}`);
  }
});
"""


def betting_request(game: str, stack: int) -> pb.DecisionRequest:
    """The first request of a seeded match that offers bets (the lowest legal id each time)."""
    spec = get_spec(game)
    rules = spec.game
    state = rules.initial_state(rules.info.make_params({"stack": stack}))
    rng = np.random.default_rng(2)
    while True:
        seat = rules.current_player(state)
        if seat == CHANCE:
            state = rules.apply_chance(state, rules.sample_chance(state, rng))
            continue
        legal = rules.legal_actions(state)
        if any(chips.BET <= a < chips.RAISE for a in legal):
            request = decision_request(rules, state, seat, 1, Clocks(0, 0, 0))
            return encode(request, spec.codec).decision
        state = rules.apply(state, legal[0])


def _python_lines(decision: pb.DecisionRequest) -> list[str]:
    out = []
    for a in LegalActions(decision.legal_actions):
        detail = getattr(a, a.WhichOneof("detail")) if a.WhichOneof("detail") else None
        amount = detail.chip.amount if detail is not None and detail.HasField("chip") else 0
        out.append(f"{a.id}\t{a.label}\t{amount}")
    return out


@pytest.mark.parametrize("game", ["felduz", "scauver"])
def test_the_node_sdk_expands_ranges_as_the_python_sdk(game: str) -> None:
    decision = betting_request(game, 300)
    done = subprocess.run(
        [node_program(), "-e", NODE_EXPAND, str(ROOT / "proto")],
        input=pb.PlayResponse(decision=decision).SerializeToString(),
        capture_output=True, timeout=60, env={**os.environ, "CROUPIER_NODE_SDK": str(NODE_SDK)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines == _python_lines(decision)
    assert len(lines) > 250


@pytest.mark.parametrize("game", ["felduz", "scauver"])
def test_the_cpp_kit_expands_ranges_as_the_python_sdk(game: str) -> None:
    if not EXPAND_CPP.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{EXPAND_CPP} is missing: tests/run builds the C++ kit in CI")
        pytest.skip(f"{EXPAND_CPP} is not built (bash tests/run builds it)")
    decision = betting_request(game, 300)
    done = subprocess.run(
        [str(EXPAND_CPP)], input=decision.SerializeToString(), capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode().splitlines()
    assert lines == _python_lines(decision)
    assert len(lines) > 250


@pytest.mark.parametrize("game", ["as-nas", "felduz"])
def test_a_node_bot_reads_every_finished_round_from_its_observation(
    game: str, tmp_path: Path
) -> None:
    node = node_program()
    done = subprocess.run(
        [sys.executable, "-m", "croupier", "check-bot", f"{node} {PAST_READER}", "--game", game,
         "--deals", "3", "--sandbox", "none", "--out", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed, 0 failed" in done.stdout
    logs = "".join(p.read_text() for p in tmp_path.rglob("*.log"))
    assert "past-reader: read up to 2 finished rounds" in logs, logs
