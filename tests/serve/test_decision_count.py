"""A match's decision count is public (ListMatches, GetMatch, the web page's lists and bot pages,
live and once the match has ended), so it counts the announced decisions only: an unannounced
action would show in it as a decision the public view does not have. In Fipsen the one seat
whose hand is 7♣ 7♠ 7♥ 7♦ + an Ace is asked whether to call Siebener Fips, and its
``DECLINE_FIPS`` is not public (docs/rules/fipsen.md: the table sees the game "exactly as if it
had already declined"): a count one higher than the public view's actions told every spectator
(and every bot, through the control API) that a seat holds the four sevens."""

from __future__ import annotations

import asyncio
import http.client
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from serve_kit import (
    SLOW_BOT,
    Control,
    ServeProcess,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_state,
)

from croupier.arbiter import DecisionRequest, Match, MatchConfig, MatchOver, Reply
from croupier.replay import ReplayWriter, read_replay
from croupier.serve import MatchFeed, watch_match
from croupier.v1 import control_pb2 as cpb

#: A seed whose first Fipsen deal gives seat 1 the four sevens and an Ace (before bidding, the
#: arbiter asks it whether to call Siebener Fips).
SEED, FIPS_SEAT = 5942, 1
SIEBENER_FIPS, DECLINE_FIPS = 31, 32


def _announced(path: Path) -> list[int]:
    """After each record of the replay: the announced decisions so far."""
    replay = read_replay(path)
    game, count, out = replay.game, 0, []
    for i, rec in enumerate(replay.records):
        if rec.type == "action" and game.is_public(replay.before(i), rec.data["action"]):
            count += 1
        out.append(count)
    return out


class _Counted(MatchFeed):
    """A feed that notes its decision count after each record."""

    def __init__(self, match_id: str) -> None:
        super().__init__(match_id)
        self.counts: list[int] = []

    def __call__(self, record: dict[str, Any]) -> None:
        super().__call__(record)
        if record.get("type") != "header":
            self.counts.append(self.decisions)


async def _play(path: Path, feed: MatchFeed) -> None:
    match = Match(MatchConfig("fipsen", {"deals": 1}, seed=SEED), "m", ReplayWriter(path, feed))

    async def drive(link: Any) -> None:
        rng = np.random.default_rng(link.seat)
        link.claim(f"bot-{link.seat}", "1")
        while (message := await link.outbox.get()) is not None:
            if isinstance(message, MatchOver):
                return
            if isinstance(message, DecisionRequest):
                legal = [a for a in message.legal_actions if a != SIEBENER_FIPS]  # it declines
                link.inbox.put_nowait(Reply(message.request_id, int(rng.choice(legal))))

    async with asyncio.TaskGroup() as group:
        for link in match.seats:
            group.create_task(drive(link))
        await match.run()


def test_the_live_count_never_shows_a_declined_siebener_fips(tmp_path: Path) -> None:
    path = tmp_path / "m.jsonl"
    feed = _Counted("m")
    asyncio.run(_play(path, feed))
    labels = [r.data["label"] for r in read_replay(path).records if r.type == "action"]
    assert "Decline" in labels, "the seed no longer deals the four sevens: pick another"
    announced = _announced(path)
    assert feed.counts == announced, (
        "the live decision count is not the announced decisions' count: it shows the "
        f"unannounced decline (first differing record {_first_diff(feed.counts, announced)})"
    )


def _first_diff(a: list[int], b: list[int]) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), -1)


def _get(port: int, path: str) -> Any:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        assert response.status == 200, response.read()
        return json.loads(response.read())
    finally:
        connection.close()


@pytest.mark.e2e
def test_a_spectator_cannot_count_a_declined_siebener_fips(tmp_path: Path) -> None:
    config = tmp_path / "serve.toml"
    config.write_text("[serve]\nmove_ms = 150\nbank_ms = 0\n")
    names = ("ann", "ben", "cyd", "dee")
    with ServeProcess(
        tmp_path / "state", "--config", str(config), "--web-listen", "127.0.0.1:0"
    ) as server:
        op = Control(server.control_address, server.operator_key)
        keys = register(op, *names)
        # ben (seat 1) never answers in time: the arbiter plays its default, DECLINE_FIPS
        bots = [
            start_bot(server.bot_address, keys[n], SLOW_BOT, SLOW_BOT_MS="400")
            if n == "ben"
            else start_bot(server.bot_address, keys[n])
            for n in names
        ]
        try:
            wait_connected(op, names)
            request = cpb.CreateMatchRequest(
                game="fipsen", params={"deals": 1}, bots=names, seed=SEED
            )
            match_id = op.CreateMatch(request).match.match_id
            wait_state(op, match_id, [cpb.MATCH_STATE_FINISHED], timeout=120)
            replay = tmp_path / "m.jsonl"
            chunks = op.FetchReplay(cpb.FetchReplayRequest(match_id=match_id))
            replay.write_bytes(b"".join(c.chunk for c in chunks))
            declines = [
                r
                for r in read_replay(replay).records
                if r.type == "action" and r.data["action"] == DECLINE_FIPS
            ]
            assert [r.data["seat"] for r in declines] == [FIPS_SEAT], "the seed's premise"
            spectator = Control(server.control_address, None)
            watched = spectator.WatchMatch(cpb.WatchMatchRequest(match_id=match_id))
            public = sum(
                e.HasField("action_taken")
                for m in watched
                if m.HasField("frame")
                for e in m.frame.events
            )
            assert public == _announced(replay)[-1]
            listed = spectator.GetMatch(cpb.GetMatchRequest(match_id=match_id)).match.decisions
            port = int(server.web_url.rsplit(":", 1)[1].strip("/"))
            paged = _get(port, "/api/pages/bots/ann/matches")["matches"]
            on_page = next(m["decisions"] for m in paged if m["match_id"] == match_id)
            assert listed == on_page == public, (
                f"the public count says {listed} decisions (the page {on_page}), the public view "
                f"shows {public}: the difference is seat {FIPS_SEAT}'s hidden decline"
            )
        finally:
            stop_bots(bots)


async def _released(records: list[dict[str, Any]], request: cpb.WatchMatchRequest) -> list[int]:
    """The messages a watcher of a live feed has been sent after each record (header first)."""
    feed = MatchFeed("m")
    got: list[cpb.WatchMatchResponse] = []

    async def watch() -> None:
        async for message in watch_match(feed, request, may_see_seat=lambda seat: True):
            got.append(message)

    watcher = asyncio.create_task(watch())
    out = []
    for record in records:
        feed(record)
        for _ in range(20):  # let the watcher take in what there is
            await asyncio.sleep(0)
        out.append(len(got))
    feed.close()
    await watcher
    return out


@pytest.mark.parametrize("seat", [None, 0, FIPS_SEAT])
def test_a_delayed_watcher_is_not_sent_a_frame_by_a_hidden_decline(
    tmp_path: Path, seat: int | None
) -> None:
    """A delay counts the decisions the watcher's view is told of: a frame held back one
    decision must not come out when another seat declines its Siebener Fips (a second watcher
    without a delay would see a frame released while nothing was played in public)."""
    path = tmp_path / "m.jsonl"
    asyncio.run(_play(path, MatchFeed("m")))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    request = cpb.WatchMatchRequest(match_id="m", delay_decisions=1)
    if seat is not None:
        request.seat = seat
    sent = asyncio.run(_released(records, request))
    hidden = [
        i
        for i, r in enumerate(records)
        if r["type"] == "action" and r["action"] == DECLINE_FIPS and r["seat"] != seat
    ]
    assert hidden or seat == FIPS_SEAT
    for i in hidden:
        assert sent[i] == sent[i - 1], (
            f"the watcher of {'the public view' if seat is None else f'seat {seat}'} was sent "
            f"{sent[i] - sent[i - 1]} message(s) when seat {FIPS_SEAT} declined its Fips"
        )
