"""The fault policy per fault class (timeout, illegal, disconnect, crash -> default,
forfeit-round, forfeit-match): what the seat is asked, what is played for it, how it is placed,
and that the replay records it and re-simulates it (``replay verify``).

The arbiter is the real one; seats are driven in-process through their :class:`SeatLink`.
Real bot processes (crashes, disconnects) are in ``tests/e2e/test_fault_policy_e2e.py``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from croupier.arbiter import (
    ClockRules,
    DecisionRequest,
    FaultPolicy,
    Match,
    MatchConfig,
    MatchOver,
    MatchResult,
    Outcome,
    Policy,
    Rejection,
    Reply,
    SeatLink,
    forfeit_places,
)
from croupier.errors import ConfigError, ReplayMismatchError
from croupier.games import get_game
from croupier.replay import ReplayWriter, read_replay, verify

CLOCK = ClockRules(move_time_ms=40, time_bank_ms=0, margin_ms=10)

#: A seat's behaviour: given a request (and how many it has had), the reply to send
#: (``None``: stay silent, so it times out).
Behaviour = Callable[[DecisionRequest, int], Reply | None]


def good(request: DecisionRequest, n: int) -> Reply:
    return Reply(request.request_id, request.legal_actions[-1])


def silent_from(first: int) -> Behaviour:
    def behave(request: DecisionRequest, n: int) -> Reply | None:
        return None if n >= first else good(request, n)

    return behave


def illegal_at(which: int) -> Behaviour:
    def behave(request: DecisionRequest, n: int) -> Reply | None:
        return Reply(request.request_id, 9999) if n == which else good(request, n)

    return behave


async def _seat(link: SeatLink, behave: Behaviour, asked: list[DecisionRequest]) -> None:
    link.claim(f"bot-{link.seat}", "1")
    while True:
        message = await link.outbox.get()
        if message is None or isinstance(message, MatchOver):
            return
        if isinstance(message, DecisionRequest):
            asked.append(message)
            reply = behave(message, len(asked))
            if reply is not None:
                link.inbox.put_nowait(reply)
        if isinstance(message, Rejection):
            asked.append(message)  # type: ignore[arg-type]  # kept in order, for the asserts


def play(
    tmp_path: Path,
    game: str,
    params: dict[str, int],
    behaviours: list[Behaviour],
    policy: FaultPolicy,
    seed: int = 3,
) -> tuple[MatchResult, list[list[DecisionRequest]], Path]:
    path = tmp_path / f"{game}-{seed}.jsonl"
    config = MatchConfig(
        game, params, seed=seed, clock=CLOCK, connect_timeout_s=5, fault_policy=policy
    )
    match = Match(config, "policy", ReplayWriter(path))
    asked: list[list[DecisionRequest]] = [[] for _ in match.seats]

    async def main() -> MatchResult:
        seats = [
            asyncio.create_task(_seat(link, behaviours[link.seat], asked[link.seat]))
            for link in match.seats
        ]
        result = await match.run()
        await asyncio.gather(*seats)
        return result

    result = asyncio.run(main())
    verify(read_replay(path))
    return result, asked, path


def records(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


# -- the policy value ------------------------------------------------------------------------


def test_policy_parses_and_names_a_bad_key_or_value() -> None:
    policy = FaultPolicy.parse("timeout=forfeit-round, crash=forfeit-match")
    assert policy.timeout is Policy.FORFEIT_ROUND
    assert policy.crash is Policy.FORFEIT_MATCH
    assert policy.illegal is Policy.DEFAULT
    assert policy.disconnect is Policy.DEFAULT
    assert FaultPolicy.parse(str(policy)) == policy
    assert FaultPolicy.parse("") == FaultPolicy()
    with pytest.raises(ConfigError, match="unknown fault class 'timout'"):
        FaultPolicy.parse("timout=default")
    with pytest.raises(ConfigError, match="illegal='forfeit' is not a policy"):
        FaultPolicy.parse("illegal=forfeit")
    with pytest.raises(ConfigError, match="'crash' is not CLASS=POLICY"):
        FaultPolicy.parse("crash")
    with pytest.raises(ConfigError, match="given twice"):
        FaultPolicy.parse("crash=default,crash=forfeit-match")


def test_forfeited_seats_are_placed_below_the_others() -> None:
    assert forfeit_places((1, 2, 3, 4), (True, False, False, False)) == (4, 1, 2, 3)
    assert forfeit_places((1, 1, 3, 4), (False, True, False, True)) == (1, 3, 2, 4)
    assert forfeit_places((2, 1, 1, 4), (False, False, False, False)) == (2, 1, 1, 4)
    assert forfeit_places((1, 1, 3, 3), (True, True, False, False)) == (3, 3, 1, 1)


# -- in a match ------------------------------------------------------------------------------


def test_default_policy_is_todays_behaviour(tmp_path: Path) -> None:
    """Every class defaults to ``default``: a timeout plays the default action, the seat is
    asked again at its next decision, and nothing is forfeited."""
    behaviours = [silent_from(2), good, good, good]
    result, asked, path = play(tmp_path, "as-nas", {"deals": 2}, behaviours, FaultPolicy())
    seat0 = result.seats[0]
    assert seat0.outcome is Outcome.TIMEOUTS
    assert seat0.forfeits == 0
    requests = [m for m in asked[0] if isinstance(m, DecisionRequest)]
    assert seat0.timeouts == len(requests) - 1  # asked every time, timed out from the 2nd on
    header = records(path)[0]
    assert header["fault_policy"] == {
        "timeout": "default", "illegal": "default", "disconnect": "default", "crash": "default"
    }  # fmt: skip


def test_forfeit_round_folds_the_as_nas_seat_and_stops_asking_it(tmp_path: Path) -> None:
    """A timeout under ``forfeit-round``: As-Nas concedes by folding (its stake stays in the
    pot); the seat is not asked again in that deal, and is asked again in the next."""
    behaviours = [silent_from(1), good, good, good]
    policy = FaultPolicy(timeout=Policy.FORFEIT_ROUND)
    result, asked, path = play(tmp_path, "as-nas", {"deals": 3}, behaviours, policy)
    game = get_game("as-nas")
    recs = records(path)
    faulted = [r for r in recs if r["type"] == "action" and r["seat"] == 0 and r["fault"]]
    assert faulted
    assert all(r["policy"] == "forfeit-round" for r in faulted)
    assert all(r["label"] == "Fold" for r in faulted)
    seat0 = result.seats[0]
    assert seat0.forfeits == seat0.timeouts == len(faulted)
    # one request per deal at most: after its timeout the seat is not asked again that deal
    requests = [m for m in asked[0] if isinstance(m, DecisionRequest)]
    deals = {m.observation.deal_index for m in requests}
    assert len(requests) == len(deals) == seat0.timeouts
    assert game.info.name == "as-nas"
    assert seat0.outcome is Outcome.TIMEOUTS


def test_forfeit_match_places_the_seat_last_whatever_its_score(tmp_path: Path) -> None:
    """One illegal reply under ``illegal=forfeit-match``: never asked again, conceding every
    decision, outcome ``forfeited`` and the last place even with the best score."""
    behaviours = [good, illegal_at(1), good, good]
    policy = FaultPolicy(illegal=Policy.FORFEIT_MATCH)
    result, asked, path = play(tmp_path, "as-nas", {"deals": 3}, behaviours, policy)
    seat1 = result.seats[1]
    assert seat1.outcome is Outcome.FORFEITED
    assert seat1.forfeits == 1
    assert seat1.rejected == 1
    assert seat1.place == 4
    requests = [m for m in asked[1] if isinstance(m, DecisionRequest)]
    assert len(requests) == 1  # the one it answered illegally
    conceded = [r for r in records(path) if r["type"] == "action" and r.get("conceded")]
    assert conceded
    assert {r["seat"] for r in conceded} == {1}
    assert {r["label"] for r in conceded} == {"Fold"}
    others = sorted(r.place for r in result.seats if r.seat != 1)
    assert others[0] == 1
    assert max(others) <= 3


def test_a_fipsen_declarer_that_forfeits_loses_its_contract(tmp_path: Path) -> None:
    """Fipsen's own forfeit: a declarer that times out under ``forfeit-round`` loses its
    contract at once (-2 x value), recorded as a ``forfeit`` record that verify re-simulates."""
    from croupier.games.fipsen.rules import Phase

    def declarer_then_silent(request: DecisionRequest, n: int) -> Reply | None:
        phase = request.observation.phase
        if phase in ("bidding", Phase.BIDDING):
            bids = [a for a, label in zip(request.legal_actions, request.labels, strict=True)
                    if label.startswith("Bid")]  # fmt: skip
            return Reply(request.request_id, bids[0] if bids else request.legal_actions[0])
        return None  # silent once it has a contract to play

    def passer(request: DecisionRequest, n: int) -> Reply:
        return Reply(request.request_id, request.legal_actions[0])  # PASS, lowest card...

    policy = FaultPolicy(timeout=Policy.FORFEIT_ROUND)
    for seed in range(1, 30):
        result, _asked, path = play(
            tmp_path, "fipsen", {"deals": 1}, [declarer_then_silent] + [passer] * 3, policy, seed
        )
        forfeits = [r for r in records(path) if r["type"] == "forfeit"]
        if forfeits:
            break
    else:
        pytest.fail("no seed made seat 0 a declarer")
    (forfeit,) = forfeits
    assert forfeit["seat"] == 0
    assert forfeit["fault"] == "timeout"
    assert forfeit["policy"] == "forfeit-round"
    (end,) = [r for r in records(path) if r["type"] == "round_end"]
    assert end["result"]["outcome"] == "lost"
    assert end["result"]["declarer"] == 0
    assert result.seats[0].score < 0
    assert result.seats[0].forfeits == 1


def test_verify_re_simulates_the_forfeit(tmp_path: Path) -> None:
    """Tampering with a forfeit is caught: a conceded move changed, a policy rewritten, a
    header that says the policy was ``default``."""
    behaviours = [silent_from(1), good, good, good]
    policy = FaultPolicy(timeout=Policy.FORFEIT_MATCH)
    _, _, path = play(tmp_path, "as-nas", {"deals": 2}, behaviours, policy)
    game = get_game("as-nas")
    recs = records(path)

    def check(mutated: list[dict[str, object]], needle: str) -> None:
        bad = tmp_path / "bad.jsonl"
        bad.write_text("".join(json.dumps(r) + "\n" for r in mutated))
        with pytest.raises(ReplayMismatchError, match=needle):
            verify(read_replay(bad))

    index = next(i for i, r in enumerate(recs) if r.get("conceded"))
    # replay to that point to find another legal move than the concede
    state = game.initial_state(recs[0]["params"])  # type: ignore[arg-type]
    for r in recs[1:index]:
        if r["type"] == "chance":
            state = game.apply_chance(state, tuple(r["outcome"]))  # type: ignore[arg-type]
        elif r["type"] == "action":
            state = game.apply(state, r["action"])  # type: ignore[arg-type]
    other = next(a for a in game.legal_actions(state) if a != recs[index]["action"])
    changed = [dict(r) for r in recs]
    changed[index]["action"], changed[index]["label"] = other, game.action_label(state, other)
    check(changed, "concede move is due")

    first = next(i for i, r in enumerate(recs) if r["type"] == "action" and r["fault"])
    rewritten = [dict(r) for r in recs]
    rewritten[first]["policy"] = "default"
    check(rewritten, "policy is forfeit-match")

    header = [dict(r) for r in recs]
    header[0]["fault_policy"] = dict(FaultPolicy().as_dict())
    check(header, "policy 'forfeit-match', but the match's timeout policy is default")


def misbehave(bad: dict[int, str]) -> Behaviour:
    """Good replies, except at the decisions in ``bad``: ``"illegal"`` or ``"silent"``."""

    def behave(request: DecisionRequest, n: int) -> Reply | None:
        what = bad.get(n)
        if what == "silent":
            return None
        if what == "illegal":
            return Reply(request.request_id, 99999)
        return Reply(request.request_id, request.legal_actions[n % len(request.legal_actions)])

    return behave


GAMES = {
    "as-nas": {"deals": 3},
    "fipsen": {"deals": 3},
    "felduz": {"stack": 8, "round_cap": 4},
    "scauver": {"stack": 8, "round_cap": 4},
}


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize(
    "policy",
    [
        FaultPolicy(timeout=Policy.FORFEIT_ROUND, illegal=Policy.FORFEIT_ROUND),
        FaultPolicy(timeout=Policy.FORFEIT_MATCH, illegal=Policy.FORFEIT_ROUND),
    ],
    ids=str,
)
def test_every_game_forfeits_and_the_replay_verifies(
    tmp_path: Path, game: str, policy: FaultPolicy
) -> None:
    """In every game, seats that fault under forfeit policies concede by the game's rules; the
    match ends, its replay verifies (``play`` checks), and the counts and places follow."""
    behaviours = [
        misbehave({1: "illegal", 4: "silent", 7: "illegal"}),
        misbehave({2: "silent", 5: "illegal"}),
        misbehave({}),
        misbehave({3: "illegal"}),
    ]
    params = GAMES[game]
    seats = 4 if game in ("as-nas", "fipsen") else 3
    if seats == 3:
        params = {**params, "players": 3}
    forfeits = conceded_moves = 0
    for seed in (1, 2):
        result, _, path = play(tmp_path, game, params, behaviours[:seats], policy, seed=seed)
        forfeits += sum(r.forfeits for r in result.seats)
        forfeited = [r for r in result.seats if r.outcome is Outcome.FORFEITED]
        for r in result.seats:
            assert r.forfeits == r.timeouts + r.rejected  # every fault was a forfeit
        if forfeited:
            assert policy.timeout is Policy.FORFEIT_MATCH
            worst = min(r.place for r in forfeited)
            assert worst > max(r.place for r in result.seats if r.outcome is not Outcome.FORFEITED)
        conceded = [r for r in records(path) if r.get("conceded")]
        assert all(r["fault"] is None and r["time_us"] == 0 for r in conceded)
        conceded_moves += len(conceded)
    assert forfeits > 0
    if policy.timeout is Policy.FORFEIT_MATCH:
        assert conceded_moves > 0  # a seat that forfeited the match concedes what is left
