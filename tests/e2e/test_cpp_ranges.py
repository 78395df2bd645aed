"""The C++ kit's range helpers (``legal_runs``, ``is_legal``, ``id_for_amount``) agree with the
arbiter's own rules (``croupier.games``: ``legal_runs``, ``is_legal`` and the chip games' ids
``BET + x``/``RAISE + y``) at every decision of seeded matches of the four games, chip games at
amphora 1 and above (runs that step), without expanding a range; so does the Python SDK's
``id_for_amount``. The matches include steps that allow a single bet or raise amount, which the
wire sends as an entry of its own without ``amounts`` (``Raise:3``)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from croupier.arbiter import Clocks, decision_request
from croupier.games import CHANCE, TERMINAL, chips, get_spec
from croupier.transport._codec import encode
from croupier_bot import Decision, LegalActions
from croupier_bot import proto as pb

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "build" / "cpp" / "croupier-legal-runs"

#: Seeded matches: the chip games at amphora 1 (runs of step 1) and 2 or 3 (runs that step, with
#: three players), Fipsen and As-Nas (no runs of amounts: every entry one id).
MATCHES = [
    ("felduz", {"stack": 100, "round_cap": 8}, 1),
    ("felduz", {"players": 3, "stack": 60, "amphora": 2, "round_cap": 8}, 2),
    ("scauver", {"stack": 100, "round_cap": 6}, 3),
    ("scauver", {"players": 3, "stack": 90, "amphora": 3, "round_cap": 6}, 4),
    ("fipsen", {"deals": 2}, 5),
    ("as-nas", {"deals": 4}, 6),
]
KINDS = ("", "Bet", "Raise")
U32 = 2**32


def _tool() -> Path:
    if not TOOL.is_file():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{TOOL} is missing: tests/run builds the C++ kit in CI")
        pytest.skip(f"{TOOL} is not built (bash tests/run builds it)")
    return TOOL


def _decisions(
    game: str, params: dict[str, int], seed: int
) -> list[tuple[Any, pb.DecisionRequest]]:
    """Every decision of a seeded match (state, request as the wire carries it); each seat picks
    a run at random, then an id of it."""
    spec = get_spec(game)
    rules = spec.game
    state = rules.initial_state(rules.info.make_params(params))
    rng = np.random.default_rng(seed)
    out: list[tuple[Any, pb.DecisionRequest]] = []
    while (seat := rules.current_player(state)) != TERMINAL:
        if seat == CHANCE:
            state = rules.apply_chance(state, rules.sample_chance(state, rng))
            continue
        request = decision_request(rules, state, seat, len(out) + 1, Clocks(0, 0, 0))
        out.append((state, encode(request, spec.codec).decision))
        runs = rules.legal_runs(state).runs
        run = runs[int(rng.integers(len(runs)))]
        state = rules.apply(state, run[int(rng.integers(len(run)))])
    return out


def _probe_ids(legal: tuple[int, ...]) -> list[int]:
    """Every legal id and its neighbours (the gaps of a run that steps), ids at the edges of the
    chip numbering and beyond 32 bits."""
    ids = {0, 1, chips.BET, chips.RAISE - 1, chips.RAISE, chips.CHIP_ACTIONS, U32 - 1, U32}
    for i in legal:
        ids.update((i - 1, i, i + 1))
    return sorted(i for i in ids if i >= 0)


def _expected_id(rules: Any, state: Any, chip_game: bool, amount: int, kind: str) -> str:
    """The arbiter's id of the bet or raise of ``amount`` chips (``-`` when none is legal)."""
    if not chip_game:
        return "-"
    if kind in ("", "Bet") and amount > 0 and rules.is_legal(state, chips.BET + amount):
        return str(chips.BET + amount)
    if kind in ("", "Raise") and amount > 0 and rules.is_legal(state, chips.RAISE + amount):
        return str(chips.RAISE + amount)
    return "-"


def _run_ids(text: str) -> tuple[range, tuple[int, int, int] | None]:
    first, count, step, *amounts = (int(v) for v in text.split(","))
    span = (amounts[0], amounts[1], amounts[2]) if amounts else None
    return range(first, first + count * step, step), span


@pytest.mark.parametrize(("game", "params", "seed"), MATCHES)
def test_the_cpp_range_helpers_agree_with_the_arbiters_rules(
    game: str, params: dict[str, int], seed: int
) -> None:
    tool = _tool()
    rules = get_spec(game).game
    chip_game = game in ("felduz", "scauver")
    decisions = _decisions(game, params, seed)
    most = params.get("stack", 0) * params.get("players", 2) + 2
    amounts = list(range(most))
    records, probes = [], []
    for state, decision in decisions:
        ids = _probe_ids(tuple(rules.legal_runs(state)))
        probes.append(ids)
        records += [decision.SerializeToString().hex(), " ".join(map(str, ids)),
                    " ".join(map(str, amounts))]  # fmt: skip
    done = subprocess.run(
        [str(tool)], input="\n".join(records) + "\n", capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 5 * len(decisions)
    stepped = amount_runs = 0
    for k, ((state, decision), ids) in enumerate(zip(decisions, probes, strict=True)):
        runs_line, legal_line, *by_kind = lines[5 * k : 5 * k + 5]
        where = f"{game} decision {k + 1}"
        # the runs: one per wire entry, the Python SDK's runs, the arbiter's ids
        runs = [_run_ids(text) for text in runs_line.split()]
        entries = decision.legal_actions
        assert [r for r, _ in runs] == list(LegalActions(entries).runs), where
        assert [i for r, _ in runs for i in r] == list(rules.legal_runs(state)), where
        for (ids_run, span), entry in zip(runs, entries, strict=True):
            if entry.HasField("amounts"):
                a = entry.amounts
                assert span == (a.lowest, a.highest, max(a.step, 1)), where
                amount_runs += 1
                stepped += ids_run.step > 1 and len(ids_run) > 1
            else:
                assert span is None, where
                assert len(ids_run) == 1, where
        # is_legal: every legal id, its neighbours, ids beyond the game's and beyond 32 bits
        want_legal = ["1" if i < U32 and rules.is_legal(state, i) else "0" for i in ids]
        wrong_ids = [
            (i, g, w) for i, g, w in zip(ids, legal_line, want_legal, strict=True) if g != w
        ]
        assert not wrong_ids, f"{where}: is_legal(id) (id, got, want) {wrong_ids[:5]}"
        # id_for_amount: every amount from 0 to the chips on the table, for each kind
        for kind, line in zip(KINDS, by_kind, strict=True):
            want = [_expected_id(rules, state, chip_game, a, kind) for a in amounts]
            got = line.split()
            wrong = [(a, g, w) for a, g, w in zip(amounts, got, want, strict=True) if g != w]
            assert not wrong, (
                f"{where}: id_for_amount(amount, {kind!r}) (amount, got, want) {wrong[:5]}"
            )
    assert len(decisions) > 20
    if chip_game:
        assert any(
            _lone(decision) for _, decision in decisions
        )  # the match offered runs of bets or raises (and, at amphora > 1, stepping ones)
        assert amount_runs > 5
        assert stepped > 0 or params.get("amphora", 1) == 1


def _lone(decision: pb.DecisionRequest) -> bool:
    """Whether the decision offers a bet or raise of one amount (an entry without a range)."""
    return any(
        not e.HasField("amounts") and e.label.startswith(("Bet:", "Raise:"))
        for e in decision.legal_actions
    )


@pytest.mark.parametrize(("game", "params", "seed"), MATCHES)
def test_the_python_sdks_id_for_amount_agrees_with_the_arbiters_rules(
    game: str, params: dict[str, int], seed: int
) -> None:
    rules = get_spec(game).game
    chip_game = game in ("felduz", "scauver")
    decisions = _decisions(game, params, seed)
    amounts = range(params.get("stack", 0) * params.get("players", 2) + 2)
    for k, (state, wire) in enumerate(decisions):
        legal = LegalActions(wire.legal_actions)
        decision = Decision(1, wire.observation, legal, wire.clocks, None)  # type: ignore[arg-type]
        for kind in KINDS:
            got = [decision.id_for_amount(a, kind) for a in amounts]
            want = [_expected_id(rules, state, chip_game, a, kind) for a in amounts]
            wrong = [
                (a, g, w)
                for a, g, w in zip(amounts, got, want, strict=True)
                if (g is None and w != "-") or (g is not None and str(g) != w)
            ]
            assert not wrong, (
                f"{game} decision {k + 1}: id_for_amount(amount, {kind!r}) {wrong[:5]}"
            )
    if chip_game:
        assert any(_lone(decision) for _, decision in decisions)
