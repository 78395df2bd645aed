"""``record_match`` runs its seats' policies and the match as one task group (issue 21): a policy
that fails stops the match at once, and its error is raised as itself, not wrapped in a group,
and not after the failed seat has timed out through the rest of the match."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.arbiter import DecisionRequest, MatchConfig
from croupier.replay import record_match


def test_a_failing_policy_stops_the_match_and_is_raised_as_itself(tmp_path: Path) -> None:
    answered = 0

    def failing(request: DecisionRequest) -> int:
        nonlocal answered
        answered += 1
        if answered == 2:
            raise ValueError("a policy's own bug")
        return request.legal_actions[0]

    def first(request: DecisionRequest) -> int:
        return request.legal_actions[0]

    path = tmp_path / "m.jsonl"
    config = MatchConfig("as-nas", {"deals": 2}, seed=3)
    with pytest.raises(ValueError, match="a policy's own bug"):
        record_match(config, path, [failing, first, first, first], ["b"] * 4)
    kinds = [
        line.split('"type":"', 1)[1].split('"', 1)[0] for line in path.read_text().splitlines()
    ]
    assert "result" not in kinds  # stopped, not played on through the seat's timeouts
    assert "fault" not in kinds
