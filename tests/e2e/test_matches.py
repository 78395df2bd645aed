"""End to end: whole matches through :func:`croupier.runner.run_match` - a real arbiter, real gRPC
over loopback, real bot processes (the bundled bots and the misbehaving ones in ``bots/``).

Every misbehaviour must cost only the seat that misbehaved: the match completes, the fault is
recorded with its kind in the replay, the seat's outcome and counters say what happened, the
other seats end normal, and the replay re-simulates (``verify``).
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import grpc
import pytest
from e2e_kit import Kit, config, flattened, read_stream
from grpc_health.v1 import health_pb2, health_pb2_grpc

from croupier.arbiter import ClockRules, Match, MatchConfig, Outcome
from croupier.games.as_nas.rules import Action
from croupier.replay import ReplayWriter, read_replay, verify
from croupier.runner import MatchRun, run_match
from croupier.transport import REASON_KEY, ArbiterServer
from croupier.v1 import PROTOCOL_VERSION
from croupier.v1 import bot_pb2 as pb

pytestmark = pytest.mark.e2e

SHORT = ClockRules(move_time_ms=300, time_bank_ms=700)
#: Seed 4 draws seat 2 as the first dealer, so seat 0 is first to act in deal 2 (of 2).
SEED_SEAT0_OPENS_DEAL2 = 4


# ---- helpers -----------------------------------------------------------------------------------


def check_common(run: MatchRun, faulty: set[int]) -> None:
    """The match finished, its replay verifies and agrees with the result, and every seat not in
    ``faulty`` played a clean match."""
    replay = read_replay(run.replay)
    assert replay.complete
    report = verify(replay)
    assert report.scores == tuple(r.score for r in run.result.seats)
    assert sum(report.scores) == 0
    assert not run.result.cancelled
    for r in run.result.seats:
        if r.seat not in faulty:
            assert (r.outcome, r.timeouts, r.rejected) == (Outcome.NORMAL, 0, 0), r
    for rec in Kit.records(run.replay):
        if rec.get("seat") not in faulty:
            assert rec.get("fault") is None, rec


def seat_log(run: MatchRun, seat: int) -> str:
    return run.logs[seat].read_text()


def faults(run: MatchRun, seat: int) -> list[tuple[int, str]]:
    """(1-based decision number, fault) for each of ``seat``'s faulty action records."""
    acts = Kit.records(run.replay, "action", seat)
    return [(n, a["fault"]) for n, a in enumerate(acts, start=1) if a["fault"]]


def action_states(path: Path) -> Iterator[tuple[dict[str, Any], Any]]:
    """Each action record of a replay with the re-simulated state it was played in."""
    replay = read_replay(path)
    game = replay.game
    state = game.initial_state(game.info.make_params(replay.header["params"]))
    for rec in replay.records:
        if rec.type == "chance":
            state = game.apply_chance(state, tuple(rec.data["outcome"]))
        elif rec.type == "action":
            yield rec.data, state
            state = game.apply(state, rec.data["action"])


def dealt_hands(path: Path) -> list[list[list[int]]]:
    """Per deal, each seat's ranks high to low, from the replay's chance outcomes and the dealing
    rule (card id = 4 * rank + copy; one card at a time counter-clockwise from the dealer's right;
    the dealer moves one seat right after each deal)."""
    chances = [c["outcome"] for c in Kit.records(path, "chance")]
    first_dealer, deals = chances[0][0], chances[1:]
    out = []
    for index, deck in enumerate(deals):
        dealer = (first_dealer - index) % 4
        hands: list[list[int]] = [[] for _ in range(4)]
        for i, card in enumerate(deck):
            hands[(dealer - 1 - i) % 4].append(card // 4)
        out.append([sorted(h, reverse=True) for h in hands])
    return out


def rejections(log: str) -> list[tuple[int, str, bool]]:
    """(request_id, reason, default_played) of each ActionRejected a test bot logged."""
    return [
        (int(m[1]), m[2], m[3] == "True")
        for m in re.finditer(
            r"rejected request_id=(\d+) reason=REJECT_REASON_(\w+) "
            r"default_played=(\w+)",
            log,
        )
    ]


def banks(log: str) -> list[int]:
    """The time bank shown with each decision a test bot logged, in order."""
    return [int(b) for b in re.findall(r"^decision \d+ request_id=\d+ .*?bank_ms=(\d+)", log, re.M)]


# ---- normal play -------------------------------------------------------------------------------


def test_full_default_match_of_bundled_bots(e2e: Kit) -> None:
    defaults = MatchConfig(game="as-nas", seed=7)  # 12 deals, default clocks
    bots = [e2e.heuristic, e2e.random, e2e.heuristic, e2e.random]
    run = asyncio.run(run_match(defaults, bots, e2e.tmp / "out"))
    check_common(run, faulty=set())
    replay = read_replay(run.replay)
    assert replay.header["params"] == {"players": 4, "deals": 12}
    assert verify(replay).rounds == 12
    assert len(Kit.records(run.replay, "round_end")) == 12
    names = ["as-nas-heuristic", "random", "as-nas-heuristic", "random"]
    assert [s["bot_name"] for s in replay.header["seats"]] == names
    assert all(s["connected"] for s in replay.header["seats"])
    assert [r.bot_name for r in run.result.seats] == names
    # places follow the scores: a better score never has a worse place
    for a in run.result.seats:
        for b in run.result.seats:
            if a.score > b.score:
                assert a.place < b.place
    assert [(e.seat, e.code, e.signalled) for e in run.exits] == [(s, 0, False) for s in range(4)]
    assert len(run.logs) == 4
    for seat, log in sorted(run.logs.items()):
        assert log.name == f"{replay.header['match_id']}.seat{seat}.log"
        assert "match over after" in log.read_text()  # every bot received its MatchEnd


# ---- clocks ------------------------------------------------------------------------------------


def test_sleeping_past_move_time_and_bank_is_a_timeout(e2e: Kit) -> None:
    # A loaded machine's stalls, which the arbiter does not charge (arbiter/_lag.py), move a
    # deadline later in proportion to the wait: 686 ms of a 2.4 s sleep were seen (28 %), and
    # 1.6 s of 4 s with the machine's load at 11. The sleep is 1.4 s past the 2.2 s the third
    # decision may take (the timeout comes unless 39 % of the sleep is stalls), and it ends
    # 600 ms before the next decision (2 s, no bank left) could time out too (stalls only move
    # that later).
    clock = ClockRules(move_time_ms=2000, time_bank_ms=200)
    sleeper = e2e.bot("sleeper", "--on", 3, "--sleep-ms", 3600)
    run = e2e.run([sleeper, e2e.random, e2e.random, e2e.random], seed=1, deals=3, clock=clock)
    check_common(run, faulty={0})
    assert faults(run, 0) == [(3, "timeout")]
    r = run.result.seats[0]
    assert (r.outcome, r.timeouts, r.rejected) == (Outcome.TIMEOUTS, 1, 0)
    log = seat_log(run, 0)
    shown = banks(log)
    assert len(shown) >= 4, "the sleeper needs a decision after the timeout"
    assert shown[0] == clock.time_bank_ms
    assert all(bank > 0 for bank in shown[1:3])
    # the arbiter waited the move time plus the bank left, and not for the reply
    late = Kit.records(run.replay, "action", 0)[2]
    assert late["time_us"] >= (clock.move_time_ms + shown[2]) * 1000
    # the late reply is answered TOO_LATE and was not played; the bank is gone afterwards
    assert rejections(log) == [(3, "TOO_LATE", False)]
    assert set(shown[3:]) == {0}


def test_overrun_inside_the_bank_is_not_a_timeout(e2e: Kit) -> None:
    # The sleep is 1 s: a loaded machine's stalls, which the arbiter does not charge
    # (arbiter/_lag.py), were seen to take 250 ms off a 600 ms sleep, so what is charged beyond
    # the 200 ms move time is whatever the stalls leave; the timeout (2.2 s) is 1.2 s away.
    clock = ClockRules(move_time_ms=200, time_bank_ms=2000)
    sleeper = e2e.bot("sleeper", "--on", 1, "--sleep-ms", 1000)
    run = e2e.run([e2e.random, sleeper, e2e.random, e2e.random], seed=1, deals=3, clock=clock)
    check_common(run, faulty=set())
    first = Kit.records(run.replay, "action", 1)[0]
    # (not the whole 1 s: the clock starts when the arbiter sees the request written, which a
    # loaded machine may let it see after the bot has read it and begun to sleep)
    assert first["wall_us"] >= 800_000
    # charged: the wall time less what the arbiter itself lost meanwhile (a loaded machine)
    assert abs(first["time_us"] - (first["wall_us"] - first["lag_us"])) <= 2
    shown = banks(seat_log(run, 1))
    assert len(shown) >= 2
    # 1 s against a 200 ms move time: what was charged beyond the 200 ms (about 800 ms, less
    # any stall of the arbiter's own) comes out of the bank, which stays positive
    assert shown[0] == 2000
    assert shown[1] == 2000 - (first["time_us"] // 1000 - 200)
    assert 0 < shown[1] < 2000
    assert re.search(r"^decision 2 .*last_latency_us=(\d{6,})", seat_log(run, 1), re.M)


# ---- rejected replies --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["out-of-range", "in-context"])
def test_illegal_actions_are_rejected_and_replaced(e2e: Kit, kind: str) -> None:
    illegal = e2e.bot("illegal", "--on", "1,3", "--kind", kind)
    run = e2e.run([e2e.random, illegal, e2e.random, e2e.random], seed=1, deals=3)
    check_common(run, faulty={1})
    assert faults(run, 1) == [(1, "illegal_action"), (3, "illegal_action")]
    sent = [int(a) for a in re.findall(r"^illegal \d+ (\d+)$", seat_log(run, 1), re.M)]
    details = [a["detail"] for a in Kit.records(run.replay, "action", 1) if a["fault"]]
    for action, detail in zip(sent, details, strict=True):
        assert f"action {action} " in detail
    if kind == "out-of-range":
        assert sent == [99, 99]
    else:
        assert all(a in (Action.CALL, Action.HOLD) for a in sent)
    r = run.result.seats[1]
    assert (r.outcome, r.timeouts, r.rejected) == (Outcome.ILLEGAL_ACTIONS, 0, 2)
    assert rejections(seat_log(run, 1)) == [
        (1, "ILLEGAL_ACTION", True),
        (3, "ILLEGAL_ACTION", True),
    ]


@dataclass(frozen=True)
class Bad:
    args: tuple[object, ...]
    decision: int
    fault: str
    reason: str
    rejected_id: int  # the request id the ActionRejected carries


BAD_MESSAGES = {
    "stale-old": Bad(("--stale-on", 2, "--stale", "old"), 2, "stale_request", "STALE_REQUEST", 1),
    "stale-future": Bad(
        ("--stale-on", 2, "--stale", "future"), 2, "stale_request", "STALE_REQUEST", 3
    ),
    "second-hello": Bad(("--hello-on", 2), 2, "unexpected_message", "UNEXPECTED_MESSAGE", 2),
    "empty-envelope": Bad(("--empty-on", 1), 1, "unexpected_message", "UNEXPECTED_MESSAGE", 1),
}


@pytest.mark.parametrize("name", list(BAD_MESSAGES))
def test_stale_and_unexpected_messages_are_rejected(e2e: Kit, name: str) -> None:
    bad = BAD_MESSAGES[name]
    run = e2e.run([e2e.random, e2e.random, e2e.bot("garbage", *bad.args), e2e.random], deals=3)
    check_common(run, faulty={2})
    assert faults(run, 2) == [(bad.decision, bad.fault)]
    r = run.result.seats[2]
    assert (r.outcome, r.timeouts, r.rejected) == (Outcome.ILLEGAL_ACTIONS, 0, 1)
    assert rejections(seat_log(run, 2)) == [(bad.rejected_id, bad.reason, True)]


@pytest.mark.parametrize(
    "bot",
    [
        ("garbage", "--hello-on", 2),
        ("garbage", "--stale-on", 2, "--stale", "future"),
        ("garbage", "--bytes-on", 2),
    ],
)
def test_the_answer_after_a_rejected_message_costs_nothing_more(
    e2e: Kit, bot: tuple[object, ...]
) -> None:
    """The bot sends a bad message, then (once) the right answer to the same request. The request
    was already settled with the default action, so that answer is turned away unplayed; it must
    not be charged to the next request (a reply is matched by its request id only), which would
    shift every later answer by one and fault the seat for the rest of the match."""
    run = e2e.run([e2e.random, e2e.random, e2e.bot(*bot, "--then-answer"), e2e.random], deals=3)
    check_common(run, faulty={2})
    assert len(Kit.records(run.replay, "action", 2)) >= 4
    assert len(faults(run, 2)) == 1, faults(run, 2)
    assert faults(run, 2)[0][0] == 2
    assert run.result.seats[2].rejected == 1
    ignored = [r for r in rejections(seat_log(run, 2)) if not r[2]]
    assert [r[0] for r in ignored] == [2]  # the answer to request 2 is turned away, unplayed


def test_undecodable_bytes_are_rejected_and_the_stream_goes_on(e2e: Kit) -> None:
    garbage = e2e.bot("garbage", "--bytes-on", 2)
    run = e2e.run([garbage, e2e.random, e2e.random, e2e.random], deals=3, clock=SHORT)
    check_common(run, faulty={0})
    assert len(Kit.records(run.replay, "action", 0)) >= 4
    # one garbled message is one rejected reply; later replies are read and played as sent
    assert faults(run, 0) == [(2, "unexpected_message")]
    r = run.result.seats[0]
    assert (r.outcome, r.timeouts, r.rejected) == (Outcome.ILLEGAL_ACTIONS, 0, 1)
    assert rejections(seat_log(run, 0)) == [(2, "UNEXPECTED_MESSAGE", True)]


# ---- leaving -----------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["os-exit", "sys-exit"])
def test_quitting_with_a_decision_pending_is_a_crash(e2e: Kit, how: str) -> None:
    """The process exits with status 3 while a decision is pending: a crash (the fault policy's
    ``crash`` class), which ends the seat as disconnected."""
    quitter = e2e.bot("quitter", "--after", 2, "--how", how)
    run = e2e.run([e2e.random, e2e.random, e2e.random, quitter], deals=4)
    check_common(run, faulty={3})
    assert faults(run, 3) == [(3, "crash")]
    r = run.result.seats[3]
    assert (r.outcome, r.timeouts, r.rejected) == (Outcome.DISCONNECTED, 0, 0)
    after = [(a, s) for a, s in action_states(run.replay) if a["seat"] == 3][3:]
    assert after, "the quitter's seat needs decisions after it left"
    game = read_replay(run.replay).game
    for record, state in after:  # played for the seat at once, without waiting
        assert record["action"] == game.default_action(state)
        assert record["time_us"] == 0
    assert "quitting on decision 3" in seat_log(run, 3)
    assert (run.exits[3].code, run.exits[3].signalled) == (3, False)
    assert "match_end received" not in seat_log(run, 3)


def test_leaving_with_no_decision_pending_is_recorded_as_a_fault(e2e: Kit) -> None:
    quitter = e2e.bot("quitter", "--how", "last-fold")
    slow = e2e.bot("sleeper", "--delay-ms", 120)  # gives the departure time to be noticed
    run = e2e.run([quitter, slow, slow, slow], seed=SEED_SEAT0_OPENS_DEAL2, deals=2)
    check_common(run, faulty={0})
    acts = Kit.records(run.replay, "action")
    last_fold = max(i for i, a in enumerate(acts) if a["seat"] == 0)
    assert acts[last_fold]["label"] == "Fold"
    assert last_fold < len(acts) - 1, "precondition: others act after the quitter's fold"
    assert faults(run, 0) == []
    departures = Kit.records(run.replay, "fault", 0)
    assert [d["fault"] for d in departures] == ["disconnect"]
    assert departures[0]["step"] == Kit.records(run.replay, "result")[0]["step"]
    assert run.result.seats[0].outcome is Outcome.DISCONNECTED
    assert "left after my fold" in seat_log(run, 0)
    assert (run.exits[0].code, run.exits[0].signalled) == (0, False)  # a clean exit, too early


def test_a_bot_that_never_connects_is_a_no_show(e2e: Kit) -> None:
    absent = e2e.bot("never_connects", "--sleep-s", 3.5)
    run = e2e.run([e2e.random, absent, e2e.random, e2e.random], deals=2, connect_timeout_s=3.0)
    check_common(run, faulty={1})
    replay = read_replay(run.replay)
    assert replay.header["seats"][1] == {
        "seat": 1,
        "bot_name": "",
        "bot_version": "",
        "connected": False,
        "peer": "",
    }
    # the others dialed the sandbox's unix socket: the header says where each came from
    assert {s["peer"].split(":")[0] for s in replay.header["seats"] if s["connected"]} == {"unix"}
    first = replay.records[0].data
    assert (first["type"], first["seat"], first["fault"], first["step"]) == (
        "fault",
        1,
        "no_show",
        0,
    )
    r = run.result.seats[1]
    assert (r.outcome, r.bot_name, r.timeouts, r.rejected) == (Outcome.DISCONNECTED, "", 0, 0)
    mine = [(a, s) for a, s in action_states(run.replay) if a["seat"] == 1]
    assert mine
    for record, state in mine:
        assert record["action"] == replay.game.default_action(state)
        assert record["time_us"] == 0


def test_a_bot_that_dies_before_connecting_does_not_hold_up_the_match(e2e: Kit) -> None:
    crashed = e2e.bot("never_connects", "--sleep-s", 0)
    started = time.monotonic()
    run = e2e.run([e2e.random, e2e.random, crashed, e2e.random], deals=1, connect_timeout_s=60)
    elapsed = time.monotonic() - started
    check_common(run, faulty={2})
    assert elapsed < 30, "the arbiter waited for a bot whose process had already exited"
    assert [d["fault"] for d in Kit.records(run.replay, "fault", 2)] == ["no_show"]
    assert run.result.seats[2].outcome is Outcome.DISCONNECTED


# ---- what a seat receives ----------------------------------------------------------------------


def public_events(stream: list[bytes], kind: str) -> list[Any]:
    """The public events of one kind a seat received, in order (they come batched, in
    ``PlayResponse.events``, ahead of the message they ride with)."""
    return [
        getattr(event, kind)
        for raw in stream
        for event in pb.PlayResponse.FromString(raw).events
        if event.WhichOneof("kind") == kind
    ]


def test_events_do_not_tell_the_table_which_actions_the_arbiter_played(
    e2e: Kit, tmp_path: Path
) -> None:
    """A recorder watches a quitter (seat 0), an illegal bot (seat 2) and a crashed bot (seat 3):
    every public action it is told about matches the replay, and ``by_arbiter`` is never set on
    another seat's action (the seat itself is told: ``tests/arbiter/test_fault_no_leak.py``)."""
    stream = e2e.streams / "seat1.bin"
    bots = [
        e2e.bot("quitter", "--after", 1),
        e2e.bot("recorder", stream),
        e2e.bot("illegal", "--on", 2),
        e2e.bot("never_connects", "--sleep-s", 0),
    ]
    run = e2e.run(bots, deals=3)
    check_common(run, faulty={0, 2, 3})
    taken = public_events(read_stream(stream), "action_taken")
    acts = Kit.records(run.replay, "action")
    assert len(taken) == len(acts)
    for t, record in zip(taken, acts, strict=True):
        assert (t.seat, t.action_id, t.label) == (record["seat"], record["action"], record["label"])
        assert not t.by_arbiter
    faulted = {a["seat"] for a in acts if a["fault"]} | {
        f["seat"] for f in Kit.records(run.replay, "fault")
    }
    assert faulted == {0, 2, 3}  # seat 3 never came: a no-show, then defaults without a fault


@dataclass
class RecordedRun:
    run: MatchRun
    stream: list[bytes]


SEAT = 1  # the recorder's seat


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> list[RecordedRun]:
    """The same match twice (seed, bots, match id): heuristic, recorder, random, heuristic."""
    out = []
    for n in range(2):
        kit = Kit(tmp_path_factory.mktemp(f"recorded{n}"))
        stream = kit.streams / "stream.bin"
        bots = [kit.heuristic, kit.bot("recorder", stream), kit.random, kit.heuristic]
        run = kit.run(bots, seed=11, deals=8, match_id="as-nas-recorded")
        out.append(RecordedRun(run, read_stream(stream)))
    return out


def test_a_seat_sees_exactly_its_observation_and_no_hidden_card(
    recorded: list[RecordedRun],
) -> None:
    rec = recorded[0]
    check_common(rec.run, faulty=set())
    replay = read_replay(rec.run.replay)
    game = replay.game
    messages = [pb.PlayResponse.FromString(raw) for raw in rec.stream]
    assert messages[0].WhichOneof("kind") == "welcome"
    assert messages[0].welcome.seat == SEAT
    assert messages[-1].WhichOneof("kind") == "match_end"
    decisions = [m.decision for m in messages if m.WhichOneof("kind") == "decision"]
    mine = [(a, s) for a, s in action_states(rec.run.replay) if a["seat"] == SEAT]
    assert len(decisions) == len(mine)
    dealt = dealt_hands(rec.run.replay)
    with_hand = without_hand = 0
    for d, (record, state) in zip(decisions, mine, strict=True):
        obs = d.observation.as_nas
        expected = game.observe(state, SEAT)
        looked_now = any(s == SEAT and a == Action.LOOK for s, a in expected.history)
        # the hand is empty until this seat's own LOOK in this deal, then it is the dealt hand
        if looked_now:
            with_hand += 1
            assert [r - 1 for r in obs.hand] == dealt[obs.deal_index][SEAT]
        else:
            without_hand += 1
            assert list(obs.hand) == []
        assert [s.looked for s in obs.seats] == list(expected.looked)
        assert [s.folded for s in obs.seats] == list(expected.folded)
        assert [s.stake for s in obs.seats] == list(expected.stakes)
        assert [Fraction(s.total.numerator, s.total.denominator) for s in obs.seats] == list(
            expected.totals
        )
        assert (obs.deal_index, obs.dealer, obs.to_act, obs.high_bet, obs.pot) == (
            expected.deal_index,
            expected.dealer,
            SEAT,
            expected.high,
            expected.pot,
        )
        assert [(h.seat, h.move - 1) for h in obs.history] == list(expected.history)
        assert [a.id for a in d.legal_actions] == list(game.legal_actions(state))
        assert record["action"] in [a.id for a in d.legal_actions]
    assert with_hand, "the recorder should have looked at least once"
    assert without_hand, "the recorder should have acted unlooked at least once"

    # deal ends: only live hands are shown, each exactly as dealt, and never a folded seat's
    folded_in_deal: dict[int, set[int]] = {}
    for record, state in action_states(rec.run.replay):
        if record["action"] == Action.FOLD:
            deal = game.observe(state, None).deal_index
            folded_in_deal.setdefault(deal, set()).add(record["seat"])
    ended = public_events(rec.stream, "deal_ended")
    assert len(ended) == replay.header["params"]["deals"]
    showdown_with_fold = 0
    for end in ended:
        deal = end.deal_index
        folded = folded_in_deal.get(deal, set())
        shown = {h.seat: [r - 1 for r in h.ranks] for h in end.as_nas.shown}
        assert not set(shown) & folded
        live = set(range(4)) - folded
        assert set(shown) in (live, set()), (deal, shown, folded)
        if len(live) == 1:
            assert shown == {}
        for seat, ranks in shown.items():
            assert ranks == dealt[deal][seat]
        if shown and folded:
            showdown_with_fold += 1
    assert showdown_with_fold, "pick a seed with a showdown after a fold"
    # each finished deal's record (sent once, in its deal_ended: protocol 2) obeys the same rule
    for i, end in enumerate(ended):
        past = end.as_nas_past
        assert past.result == end.as_nas
        assert past.result.deal_index == i
        folded = {h.seat for h in past.history if h.move - 1 == Action.FOLD}
        assert folded == folded_in_deal.get(past.result.deal_index, set())
        assert not {h.seat for h in past.result.shown} & folded


def test_a_seat_stream_is_reproducible(recorded: list[RecordedRun]) -> None:
    first, second = flattened(recorded[0].stream), flattened(recorded[1].stream)
    assert len(first) > 60
    assert len(first) == len(second)
    for n, (a, b) in enumerate(zip(first, second, strict=True)):
        assert a == b, f"item {n} differs"


# ---- determinism -------------------------------------------------------------------------------

WALL_CLOCK = (
    "match_id", "started_at", "ended_at", "time_us", "wall_us", "lag_us", "cpu_us", "commitment",
    "deal_commitment", "salt",
)  # fmt: skip


def stripped(path: Path) -> list[dict[str, Any]]:
    replay = read_replay(path)
    header = dict(replay.header)
    header["seats"] = [{k: v for k, v in s.items() if k != "peer"} for s in header["seats"]]
    return [
        {k: v for k, v in data.items() if k not in WALL_CLOCK}
        for data in [header, *(r.data for r in replay.records)]
    ]


def test_same_seed_same_bots_same_replay(e2e: Kit) -> None:
    bots = [e2e.heuristic, e2e.random, e2e.random, e2e.heuristic]
    a = e2e.run(bots, seed=2024, deals=4, out="a")
    b = e2e.run(bots, seed=2024, deals=4, out="b")
    c = e2e.run(bots, seed=2025, deals=4, out="c")
    assert a.result.match_id != b.result.match_id
    ra, rb = stripped(a.replay), stripped(b.replay)
    assert len(ra) == len(rb)
    for n, (x, y) in enumerate(zip(ra, rb, strict=True)):
        assert x == y, f"record {n} differs"
    assert stripped(c.replay) != ra  # the seed matters


# ---- one arbiter, many matches -----------------------------------------------------------------


async def health(address: str) -> list[int]:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        return [
            (await stub.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)).status
            for name in ("", "croupier.v1.BotService")
        ]


def test_the_arbiter_stays_healthy_across_faulty_matches(e2e: Kit) -> None:
    serving = health_pb2.HealthCheckResponse.SERVING
    faulty = [
        e2e.bot("garbage", "--bytes-on", 1),
        e2e.bot("quitter", "--after", 0),
        e2e.bot("illegal", "--on", 1),
        e2e.bot("garbage", "--hello-on", 1),
    ]
    normal = [e2e.random, e2e.heuristic, e2e.random, e2e.heuristic]

    async def session() -> tuple[list[MatchRun], list[int], tuple[grpc.StatusCode, str]]:
        server = ArbiterServer("127.0.0.1:0")
        await server.start()
        try:
            runs = [await run_match(config(deals=1), normal, e2e.tmp / "1", server=server)]
            runs.append(
                await run_match(config(deals=3, clock=SHORT), faulty, e2e.tmp / "2", server=server)
            )
            status = await health(server.address)
            runs.append(await run_match(config(deals=1), normal, e2e.tmp / "3", server=server))
            # and it still turns away a bad hello with the proper reason
            refused = await refusal(server.address, hello_bytes("no-such-token"))
        finally:
            await server.stop()
        return runs, status, refused

    runs, status, refused = asyncio.run(session())
    assert status == [serving, serving]
    check_common(runs[0], faulty=set())
    check_common(runs[1], faulty={0, 1, 2, 3})
    check_common(runs[2], faulty=set())
    outcomes = [r.outcome for r in runs[1].result.seats]
    assert outcomes == [
        Outcome.ILLEGAL_ACTIONS,
        Outcome.DISCONNECTED,
        Outcome.ILLEGAL_ACTIONS,
        Outcome.ILLEGAL_ACTIONS,
    ]
    assert refused == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_UNKNOWN")


def test_concurrent_matches_share_one_arbiter(e2e: Kit) -> None:
    async def both() -> list[MatchRun]:
        server = ArbiterServer("127.0.0.1:0")
        await server.start()
        try:
            return list(
                await asyncio.gather(
                    run_match(config(seed=1, deals=3), [e2e.random] * 4, e2e.tmp, server=server),
                    run_match(config(seed=2, deals=3), [e2e.heuristic] * 4, e2e.tmp, server=server),
                )
            )
        finally:
            await server.stop()

    a, b = asyncio.run(both())
    assert a.result.match_id != b.result.match_id
    for run, name in ((a, "random"), (b, "as-nas-heuristic")):
        check_common(run, faulty=set())
        assert [r.bot_name for r in run.result.seats] == [name] * 4  # tokens routed right


# ---- the handshake -----------------------------------------------------------------------------

PLAY = "/croupier.v1.BotService/Play"


def hello_bytes(token: str, version: int = PROTOCOL_VERSION) -> bytes:
    return pb.PlayRequest(
        hello=pb.Hello(token=token, bot_name="probe", bot_version="0", protocol_version=version)
    ).SerializeToString()


async def refusal(address: str, *messages: bytes, close: bool = False) -> tuple[Any, str]:
    """Open a Play stream, send ``messages`` (then half-close if ``close``); return the status
    code and ``croupier-reason`` the arbiter ends it with."""
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.stream_stream(PLAY, request_serializer=None, response_deserializer=None)()
        for m in messages:
            await call.write(m)
        if close:
            await call.done_writing()
        async with asyncio.timeout(10):
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await call.read()
        metadata = dict(info.value.trailing_metadata() or ())
        return info.value.code(), str(metadata.get(REASON_KEY))


@pytest.fixture
def hosted(tmp_path: Path) -> Iterator[tuple[Match, Path]]:
    writer = ReplayWriter(tmp_path / "handshake.jsonl")
    match = Match(config(connect_timeout_s=0.2), "as-nas-handshake", writer)
    yield match, tmp_path
    writer.close()


def action_bytes() -> bytes:
    return pb.PlayRequest(action=pb.ActionReply(request_id=1, action_id=3)).SerializeToString()


HANDSHAKE_ERRORS = {
    "unknown-token": (
        lambda tokens: [hello_bytes("no-such-token")],
        grpc.StatusCode.UNAUTHENTICATED,
        "TOKEN_UNKNOWN",
    ),
    "protocol-version": (
        lambda tokens: [hello_bytes(tokens[0], version=PROTOCOL_VERSION + 1)],
        grpc.StatusCode.FAILED_PRECONDITION,
        "PROTOCOL_VERSION",
    ),
    "protocol-version-1": (  # a bot of protocol 1 expects every finished round in each request
        lambda tokens: [hello_bytes(tokens[0], version=1)],
        grpc.StatusCode.FAILED_PRECONDITION,
        "PROTOCOL_VERSION",
    ),
    "action-first": (
        lambda tokens: [action_bytes()],
        grpc.StatusCode.INVALID_ARGUMENT,
        "HELLO_EXPECTED",
    ),
    "empty-first": (
        lambda tokens: [b""],
        grpc.StatusCode.INVALID_ARGUMENT,
        "HELLO_EXPECTED",
    ),
    "undecodable-first": (
        lambda tokens: [b"\x0a\xff"],
        grpc.StatusCode.INVALID_ARGUMENT,
        "HELLO_EXPECTED",
    ),
}


@pytest.mark.parametrize("case", list(HANDSHAKE_ERRORS))
def test_handshake_errors_carry_code_and_reason(hosted: tuple[Match, Path], case: str) -> None:
    match, _ = hosted
    messages, code, reason = HANDSHAKE_ERRORS[case]

    async def probe() -> tuple[Any, str]:
        server = ArbiterServer("127.0.0.1:0")
        await server.start()
        server.bots.add_match(match)
        try:
            return await refusal(server.address, *messages(match.tokens))
        finally:
            await server.stop()

    assert asyncio.run(probe()) == (code, reason)


def test_a_stream_closed_before_hello_is_refused(hosted: tuple[Match, Path]) -> None:
    match, _ = hosted

    async def probe() -> tuple[Any, str]:
        server = ArbiterServer("127.0.0.1:0")
        await server.start()
        server.bots.add_match(match)
        try:
            return await refusal(server.address, close=True)
        finally:
            await server.stop()

    assert asyncio.run(probe()) == (grpc.StatusCode.INVALID_ARGUMENT, "HELLO_EXPECTED")


def test_a_token_admits_one_connection(hosted: tuple[Match, Path]) -> None:
    match, _ = hosted
    token = match.tokens[2]

    async def probe() -> tuple[pb.Welcome, tuple[Any, str], tuple[Any, str], tuple[Any, str]]:
        server = ArbiterServer("127.0.0.1:0")
        await server.start()
        server.bots.add_match(match)
        try:
            async with grpc.aio.insecure_channel(server.address) as channel:
                first = channel.stream_stream(
                    PLAY, request_serializer=None, response_deserializer=None
                )()
                await first.write(hello_bytes(token))
                async with asyncio.timeout(10):
                    welcome = pb.PlayResponse.FromString(await first.read()).welcome
                # while the first bot is connected
                taken = await refusal(server.address, hello_bytes(token))
                # the first bot leaves: the server ends its stream; the seat stays closed
                await first.done_writing()
                async with asyncio.timeout(10):
                    assert await first.read() is grpc.aio.EOF
                closed = await refusal(server.address, hello_bytes(token))
                # and once the match is over, its tokens say so
                match.cancel()
                await match.run()
                over = await refusal(server.address, hello_bytes(match.tokens[0]))
            return welcome, taken, closed, over
        finally:
            await server.stop()

    welcome, taken, closed, over = asyncio.run(probe())
    assert (welcome.seat, welcome.num_seats, welcome.game, welcome.match_id) == (
        2,
        4,
        "as-nas",
        "as-nas-handshake",
    )
    assert dict(welcome.params) == {"players": 4, "deals": 2}
    assert welcome.protocol_version == PROTOCOL_VERSION
    assert taken == (grpc.StatusCode.ALREADY_EXISTS, "SEAT_TAKEN")
    assert closed == (grpc.StatusCode.FAILED_PRECONDITION, "SEAT_CLOSED")
    assert over == (grpc.StatusCode.FAILED_PRECONDITION, "MATCH_OVER")
