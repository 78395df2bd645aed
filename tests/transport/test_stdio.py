"""The stdio bridges' two translations (``croupier_proto.v1.stdio``, which the arbiter's bridge
and the SDK's both run): an arbiter message to one JSON line (protobuf's canonical mapping, read
back to the same message), and a program's line to a reply."""

from __future__ import annotations

import json
from collections import deque

import pytest
from google.protobuf import json_format

from croupier.v1 import bot_pb2 as pb
from croupier_proto.v1.stdio import bot_name, parse_hello, parse_reply, to_line


def _decision() -> pb.PlayResponse:
    response = pb.PlayResponse(decision=pb.DecisionRequest(request_id=7))
    response.decision.legal_actions.add(id=0, label="Look")
    response.decision.legal_actions.add(id=4, label="Raise:3")
    response.events.add(step=3).action_taken.seat = 2
    return response


def test_a_message_is_one_line_of_canonical_json_with_every_field() -> None:
    line = to_line(_decision())
    assert line.endswith(b"\n")
    assert line.count(b"\n") == 1
    data = json.loads(line)
    assert data["decision"]["requestId"] == "7"  # uint64: a string, as the mapping says
    assert [a["id"] for a in data["decision"]["legalActions"]] == [0, 4]  # id 0 is written too
    assert data["events"][0]["actionTaken"]["seat"] == 2
    assert json_format.Parse(line, pb.PlayResponse()) == _decision()


def _reply(line: bytes, pending: deque[int], last: int = 0) -> tuple[int, int] | None:
    message = parse_reply(line, pending, last)
    if message is None:
        return None
    if message.WhichOneof("kind") is None:
        return (-1, -1)  # not an action
    return (message.action.request_id, message.action.action_id)


def test_bare_ids_answer_the_decisions_in_order() -> None:
    pending = deque([3, 4])
    assert _reply(b"2\n", pending) == (3, 2)
    assert _reply(b" 5 \n", pending) == (4, 5)
    assert _reply(b"1\n", pending, last=4) == (4, 1)  # nothing pending: a stale reply to the last


def test_a_json_object_names_its_request_and_settles_the_earlier_ones() -> None:
    pending = deque([3, 4, 5])
    assert _reply(b'{"request_id": "4", "action_id": 1}', pending) == (4, 1)
    assert list(pending) == [5]
    assert _reply(b'{"requestId": 5, "actionId": 2}', pending) == (5, 2)
    assert not pending


@pytest.mark.parametrize(
    "line",
    [b"fold\n", b"-1\n", b"1.5\n", b'{"action_id": true}', b'{"request_id": "x", "action_id": 1}',
     b"[1]\n", b'{"action_id": 4294967296}', b"\xff\xfe\n", b'{"action_id": "2"}', b"4294967296"],
)  # fmt: skip
def test_anything_else_is_a_message_that_is_not_an_action(line: bytes) -> None:
    pending = deque([3])
    assert _reply(line, pending) == (-1, -1)


def test_an_object_without_a_request_id_answers_the_oldest_decision() -> None:
    pending = deque([3, 4])
    assert _reply(b'{"action_id": 2}', pending) == (3, 2)
    assert list(pending) == [4]


def test_a_line_that_is_not_an_action_uses_up_the_oldest_decision() -> None:
    pending = deque([3, 4])
    assert _reply(b"{}", pending) == (-1, -1)
    assert _reply(b"fold", pending) == (-1, -1)
    assert not pending  # the arbiter played the defaults for 3 and 4


def test_blank_lines_are_ignored() -> None:
    pending = deque([3])
    assert _reply(b"  \n", pending) is None
    assert list(pending) == [3]


def test_the_bot_name_is_the_script_the_command_runs() -> None:
    assert bot_name(["bash", __file__]) == "test_stdio.py"
    assert bot_name(["/usr/local/bin/mybot", "--fast"]) == "mybot"


def test_a_hello_line_names_the_bot_and_nothing_else_does() -> None:
    assert parse_hello(b'{"hello": {"botName": "x", "botVersion": "1.0"}}\n') == ("x", "1.0")
    assert parse_hello(b'{"hello": {"bot_name": "y"}}') == ("y", "")
    assert parse_hello(b'{"hello": {}}') == ("", "")
    for line in (b"3", b"{}", b'{"hello": "x"}', b'{"hello": {"botName": 3}}', b"{oops", b""):
        assert parse_hello(line) is None, line
