"""A person's seat in a real browser (Debian's chromium, driven by playwright): ``croupier match
--bot human`` starts the arbiter, the bundled bots and the seat's page; the test plays the human
seats by clicking the legal actions the page shows, the match ends normally and its replay
verifies.

Every byte the browser was sent goes through a recording proxy (the one of
``test_web_browser``). Each page must have been sent exactly its own seat's messages: its seat's
Welcome, decisions only when its seat is to act, and only its own hand, the one the omniscient
replay says its seat was dealt (the other seats' hands are in the replay's deal labels). With
two human seats in one match, a page that were handed the other seat's stream fails this.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest
from browser_kit import Proxy, chromium, require_browser
from serve_kit import Control, ServeProcess, wait_state

from croupier.replay import read_replay, verify
from croupier.serve import HUMAN_SEAT
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

require_browser()


def _shots(tmp_path: Path) -> Path:
    """Where the screenshots go: ``CROUPIER_SHOTS`` if set, else the test's own folder (not a
    fixed path: another run of the suite on this machine would write the same files)."""
    folder = Path(os.environ.get("CROUPIER_SHOTS") or tmp_path / "shots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


_URL = re.compile(r"seat (\d+) is yours: open (http://[^\s]+)")
_TOKEN = re.compile(r"seat (\d+): CROUPIER_TOKEN=(\S+)")


@dataclass
class _Match:
    proc: subprocess.Popen[str]
    urls: dict[int, str]
    tokens: dict[int, str] = field(default_factory=dict)
    stderr: list[str] = field(default_factory=list)


@contextmanager
def _match(out: Path, *args: str, humans: int = 1) -> Iterator[_Match]:
    """``croupier match ... --out OUT``, once it has printed every human seat's URL. The seats
    have 120 s to join, not 15: a browser starting on a loaded machine (the suite's other
    worker) took longer, the match went on without the second page's seat and ended, and that
    page found no server."""
    argv = [sys.executable, "-m", "croupier", "match", "--out", str(out), "--connect-timeout",
            "120", *args]  # fmt: skip
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    played = _Match(proc, {})
    ready = threading.Event()

    def drain() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            played.stderr.append(line)
            if found := _TOKEN.search(line):
                played.tokens[int(found[1])] = found[2]
            if found := _URL.search(line):
                played.urls[int(found[1])] = found[2]
                if len(played.urls) == humans:
                    ready.set()
        ready.set()

    threading.Thread(target=drain, daemon=True).start()
    try:
        assert ready.wait(30), "no URL printed"
        assert len(played.urls) == humans, "".join(played.stderr)
        yield played
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)


def _events(proxy: Proxy, secret: str) -> list[dict[str, Any]]:
    """Every message the browser was sent on the event stream of ``secret``."""
    out = []
    for exchange in proxy.exchanges:
        if exchange.path == f"/api/play/{secret}/events":
            for line in bytes(exchange.response).decode().split("\n"):
                if line.startswith("data: ") and line != "data: {}":
                    out.append(json.loads(line[6:]))
    return out


def _dealt(replay_path: Path) -> list[dict[int, list[str]]]:
    """Each deal's hands, by seat, from the omniscient replay's deal labels."""
    deals = []
    for line in replay_path.read_text().splitlines():
        record = json.loads(line)
        if record.get("type") == "chance" and record["label"].startswith("Deal "):
            hands = re.findall(r"seat (\d+): ([A-Za-z ]+?)(?:;|$)", record["label"])
            deals.append({int(s): sorted(h.split()) for s, h in hands})
    return deals


def _rank(value: str) -> str:
    return value.removeprefix("AS_NAS_RANK_").title()


def _own_view_only(seat: int, messages: list[dict[str, Any]], replay_path: Path) -> None:
    """The page of ``seat`` got its seat's messages and nothing of another seat's."""
    dealt = _dealt(replay_path)
    welcomes = [m["welcome"] for m in messages if "welcome" in m]
    assert welcomes, "the page got no Welcome"
    assert {w["seat"] for w in welcomes} == {seat}, f"page of seat {seat} got {welcomes}"
    decisions = [m["decision"] for m in messages if "decision" in m]
    assert decisions, "the page got no decision"
    for d in decisions:
        view = d["observation"]["asNas"]
        assert view["toAct"] == seat, f"page of seat {seat} got seat {view['toAct']}'s decision"
        if view["hand"]:
            shown = sorted(_rank(r) for r in view["hand"])
            own = dealt[view["dealIndex"]][seat]
            assert shown == own, (
                f"page of seat {seat} was shown the hand {shown} in deal {view['dealIndex']}; "
                f"its seat was dealt {own}"
            )
    assert any("matchEnd" in m for m in messages), "the page never got the match end"
    acted = [
        r
        for r in map(json.loads, replay_path.read_text().splitlines())
        if r.get("type") == "action" and r["seat"] == seat
    ]
    assert len(acted) == len(decisions), "the page's decisions are not its seat's"


def _play(pages: dict[int, Any], rng: random.Random, shot: Path, timeout_s: float = 60.0) -> int:
    """Click a legal action on each page whenever it shows a new decision (Look whenever it is
    legal, else one at random), until every page says its match is over; return the number of
    clicks. The first page's first decision showing its cards is saved as a screenshot in
    ``shot``."""
    last = dict.fromkeys(pages, "")
    clicks = 0
    deadline = time.monotonic() + timeout_s
    done: set[int] = set()
    while len(done) < len(pages):
        assert time.monotonic() < deadline, f"not over after {timeout_s} s ({clicks} clicks)"
        for seat, page in pages.items():
            if seat in done:
                continue
            finished, request = page.evaluate(
                "() => [document.body.dataset.done || '',"
                " document.getElementById('actions').dataset.request || '']"
            )
            if finished:
                done.add(seat)
            elif request and request != last[seat]:
                shown = page.locator("#hand .card").count()  # (once the seat has looked)
                if not shot.exists() and seat == min(pages) and shown:
                    page.screenshot(path=str(shot), full_page=True)
                look = page.locator("#actions button.act[data-label='Look']")
                if look.count():  # the seat sees its hand: the page is shown its own cards
                    look.click()
                else:
                    rng.choice(page.locator("#actions button.act").all()).click()
                last[seat] = request
                clicks += 1
        time.sleep(0.03)
    return clicks


def _proxied(url: str) -> tuple[Proxy, str, str]:
    found = re.match(r"http://([^:/]+):(\d+)/play#(.+)", url)
    assert found, url
    proxy = Proxy((found[1], int(found[2])))
    return proxy, f"http://127.0.0.1:{proxy.port}/play#{found[3]}", found[3]


def test_two_humans_play_as_nas_by_clicking_and_see_only_their_seats(tmp_path: Path) -> None:
    """Two human seats of one As-Nas match, played by clicking: seat 0 a ``--bot human`` seat
    at the URL printed, seat 1 a ``--bot remote`` seat whose token is pasted into the page.
    Each page was sent its own seat's view only; a wrong key is refused; the match ends
    normally and its replay verifies."""
    out = tmp_path / "out"
    args = ("--game", "as-nas", "--deals", "2", "--bot", "human", "--bot", "remote")
    args += ("--move-ms", "4000", "--bank-ms", "8000")  # a click takes well under a second
    with _match(out, *args) as played, chromium() as browser:
        proxies, pages, secrets = {}, {}, {}
        proxies[0], local, secrets[0] = _proxied(played.urls[0])
        proxies[1], _, _ = _proxied(played.urls[0])
        pages[0] = browser.new_page(viewport={"width": 1100, "height": 700})
        pages[0].goto(local)
        pages[1] = browser.new_page(viewport={"width": 1100, "height": 700})
        pages[1].goto(f"http://127.0.0.1:{proxies[1].port}/play")
        pages[1].fill("#join-token", played.tokens[1])
        pages[1].click("#join-form button")
        pages[1].wait_for_selector("#seat:not([hidden])")
        secrets[1] = pages[1].evaluate("() => location.hash.slice(1)")
        try:
            shots = _shots(tmp_path)
            shot = shots / "human-seat.png"
            shot.unlink(missing_ok=True)
            # a key that is not a seat's gets nothing
            wrong = pages[0].evaluate(
                "async () => (await fetch('/api/play/not-a-seat/events')).status"
            )
            assert wrong == 403, "a key that is no seat's was served a seat's stream"
            clicks = _play(pages, random.Random(7), shot)
            pages[0].screenshot(path=str(shots / "human-seat-end.png"), full_page=True)
            assert pages[0].locator("#results").count() == 1
        finally:
            for proxy in proxies.values():
                proxy.stop()
        assert played.proc.wait(30) == 0, "".join(played.stderr)
        assert clicks >= 2
    replay_path = next(out.glob("*.jsonl"))
    for seat in (0, 1):
        _own_view_only(seat, _events(proxies[seat], secrets[seat]), replay_path)
    verify(read_replay(replay_path))
    result = json.loads(replay_path.read_text().splitlines()[-1])
    assert result["type"] == "result"
    assert not result["cancelled"]
    for seat in (0, 1):
        assert result["seats"][seat]["bot_name"] == "human"  # (the page says Hello as human)
        assert result["seats"][seat]["outcome"] == "normal"
        assert result["seats"][seat]["timeouts"] == 0


def test_a_human_bets_an_amount_in_a_chip_game(tmp_path: Path) -> None:
    """Felduz: the page shows a run of bet amounts as an input bounded by the range; the human
    types an amount that is not the lowest and the arbiter plays it as a legal action."""
    out = tmp_path / "out"
    args = ("--game", "felduz", "--deals", "3", "--seed", str(2**80 + 11), "--bot", "human")
    with _match(out, *args) as played, chromium() as browser:
        page = browser.new_page(viewport={"width": 1100, "height": 700})
        page.goto(played.urls[0])
        bet = None
        deadline = time.monotonic() + 45
        last = ""
        while not page.evaluate("() => document.body.dataset.done || ''"):
            assert time.monotonic() < deadline, "the match did not end"
            request = page.evaluate("() => document.getElementById('actions').dataset.request")
            if not request or request == last:
                time.sleep(0.03)
                continue
            last = request
            ranges = page.locator("#actions .range").all()
            if bet is None and ranges:
                low, high, step = map(
                    int,
                    re.split(
                        r"[-/]", ranges[0].locator("button").get_attribute("data-range") or ""
                    ),
                )
                assert high > low
                bet = low + step * max(1, (high - low) // step // 2)
                ranges[0].locator("input[type=number]").fill(str(bet))
                word = ranges[0].locator("button").get_attribute("data-label")
                ranges[0].locator("button").click()
                bet_label = f"{word}:{bet}"
            else:
                page.locator("#actions button.act[data-action]").first.click()
        assert played.proc.wait(30) == 0, "".join(played.stderr)
    assert bet is not None, "no bet by amount was offered"
    replay_path = next(out.glob("*.jsonl"))
    verify(read_replay(replay_path))
    records = [json.loads(line) for line in replay_path.read_text().splitlines()]
    mine = [r for r in records if r.get("type") == "action" and r["seat"] == 0]
    assert any(r["label"] == bet_label and r["fault"] is None for r in mine), [
        r["label"] for r in mine
    ]
    assert all(r["fault"] is None for r in mine)


def test_an_operator_plays_vs_bots_on_the_server_page(tmp_path: Path) -> None:
    """``croupier serve --web-listen``: the page's "play vs bots" (operators only by default)
    starts an As-Nas match of seat 0 against the bundled bots; without the operator key it is
    refused; the operator plays it by clicking; the page was sent its own seat's view only; the
    server records the match finished, its replay verifies, and the standings leave it out."""
    server = ServeProcess(tmp_path / "state", "--web-listen", "127.0.0.1:0")
    shots = _shots(tmp_path)
    control = Control(server.control_address, server.operator_key)
    try:
        proxy, base, _ = _proxied(server.web_url.rstrip("/") + "/play#x")
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1100, "height": 700})
            try:
                page.goto(base.split("#")[0])
                page.wait_for_selector("#vs-bots:not([hidden])")
                page.select_option("#vs-game", "as-nas")
                page.screenshot(path=str(shots / "human-seat-vs-bots.png"))
                page.fill("#vs-key", "not-the-key")
                page.click("#vs-start")
                page.wait_for_selector("#vs-error:has-text('only an operator')")
                page.fill("#vs-key", server.operator_key)
                page.click("#vs-start")
                page.wait_for_selector("#seat:not([hidden])")
                secret = page.evaluate("() => location.hash.slice(1)")
                _play({0: page}, random.Random(3), tmp_path / "serve-seat.png", timeout_s=90)
            finally:
                proxy.stop()
        # the control API cannot seat a human: only the page's own orders do
        bots = (HUMAN_SEAT, "bundled:random", "bundled:random", "bundled:random")
        with pytest.raises(grpc.RpcError) as refused:
            control.CreateMatch(cpb.CreateMatchRequest(game="as-nas", bots=bots))
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert refused.value.details() == "seat 0: 'human:web' is only a web page's human seat"
        listed = control.ListMatches(cpb.ListMatchesRequest()).matches
        assert len(listed) == 1
        match = wait_state(control, listed[0].match_id, [cpb.MATCH_STATE_FINISHED])
        assert match.seats[0].bot_name == HUMAN_SEAT
        replay_path = server.state_dir / "replays" / f"{match.match_id}.jsonl"
        _own_view_only(0, _events(proxy, secret), replay_path)
        verify(read_replay(replay_path))
        result = json.loads(replay_path.read_text().splitlines()[-1])
        assert result["seats"][0]["outcome"] == "normal"
        assert result["seats"][0]["timeouts"] == 0
        standings = control.GetStandings(cpb.GetStandingsRequest())
        assert HUMAN_SEAT not in {row.bot_name for row in standings.rows}
    finally:
        server.stop()
