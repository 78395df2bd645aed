"""The spectators' web page in a real browser (Debian's chromium, driven by playwright): a real
``croupier serve`` process, three registered bots (real processes of the Python SDK) playing
Scauver through their sessions, the page showing the lobby and the running match, its live
board updating and the round's showdown left on the table at its end, then the playback of the
finished match (the seats' ratings beside their names, stepping, playing at speed).

Every byte the browser was sent goes through a recording proxy in front of the page's port.
Afterwards the hidden cards are computed from the omniscient replay (each match is one round:
the cards still in the hands and the stock at its end were never shown), and no response, no
event-stream message, holds one of them, nor a seed or a salt.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_kit import Proxy, chromium, require_browser
from serve_kit import (
    RANDOM_SLOW_BOT,
    Control,
    ServeProcess,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_state,
)

from croupier.games import cards40
from croupier.replay import read_replay, verify
from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "images" / "live-board.png"
BOTS = ("alice", "bob", "carol")

if TYPE_CHECKING:
    from playwright.sync_api import Page

require_browser()


# ---- the server and its bots ----------------------------------------------------------------


@dataclass
class _Served:
    server: ServeProcess
    control: Control

    @property
    def state(self) -> Path:
        return self.server.state_dir


@pytest.fixture
def served(tmp_path: Path) -> Iterator[_Served]:
    server = ServeProcess(tmp_path / "state", "--web-listen", "127.0.0.1:0")
    control = Control(server.control_address, server.operator_key)
    bots = []
    try:
        keys = register(control, *BOTS)
        for seed, name in enumerate(BOTS, start=1):
            bots.append(
                start_bot(
                    server.bot_address,
                    keys[name],
                    RANDOM_SLOW_BOT,
                    tmp_path / f"{name}.log",
                    CROUPIER_SEED=str(seed),
                    SLOW_BOT_NAME=name,
                    SLOW_BOT_DELAY_S="0.15",
                    SLOW_BOT_FIRST_S="1.5",
                )
            )
        wait_connected(control, BOTS)
        yield _Served(server, control)
    finally:
        server.stop()
        stop_bots(bots)
        control.close()


def _create(s: _Served, seed: int) -> str:
    request = cpb.CreateMatchRequest(
        game="scauver", params={"players": 3, "round_cap": 1}, bots=list(BOTS), seed=seed
    )
    match_id: str = s.control.CreateMatch(request).match.match_id
    return match_id


def _wait_finished(s: _Served, match_id: str) -> None:
    wait_state(s.control, match_id, [cpb.MATCH_STATE_FINISHED])


# ---- what must never reach the page ---------------------------------------------------------


def _never_shown(replay_path: Path) -> set[int]:
    """A one-round Scauver match's cards still in a hand or the stock when it ended."""
    replay = read_replay(replay_path)
    verify(replay)
    end = next(i for i, r in enumerate(replay.records) if r.type == "round_end")
    state = replay.before(end - 1)  # before the round's last action
    return {int(c) for hand in state.hands for c in hand} | {int(c) for c in state.stock}


def _card_ids(data: Any) -> set[int]:
    """The ids of every card object (id, value, label) anywhere in decoded JSON."""
    found: set[int] = set()
    if isinstance(data, dict):
        if "label" in data and "value" in data:
            found.add(int(data.get("id", 0)))
        for value in data.values():
            found |= _card_ids(value)
    elif isinstance(data, list):
        for value in data:
            found |= _card_ids(value)
    return found


def _payloads(body: bytes) -> list[Any]:
    """The JSON documents of one HTTP response: its body, or each event-stream message."""
    head, _, rest = body.partition(b"\r\n\r\n")
    if b"text/event-stream" in head:
        return [
            json.loads(line[6:])
            for line in rest.decode("utf-8").splitlines()
            if line.startswith("data: ")
        ]
    if b"application/json" in head:
        return [json.loads(rest.decode("utf-8"))]
    return []


def _labels(ids: set[int]) -> list[bytes]:
    out = []
    for card in ids:
        label = cards40.card_label(card)
        out += [label.encode(), json.dumps(label).strip('"').encode()]  # raw and \u-escaped
    return out


# ---- the test -------------------------------------------------------------------------------


def _step(page: Page) -> int:
    return int(page.get_attribute("#board", "data-step") or 0)


def test_the_page_shows_a_live_board_and_a_playback_and_is_never_sent_a_hidden_card(
    served: _Served, tmp_path: Path
) -> None:
    host, _, port = served.server.web_url.removeprefix("http://").rstrip("/").rpartition(":")
    proxy = Proxy((host, int(port)))
    url = f"http://127.0.0.1:{proxy.port}/"
    try:
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.goto(url)
            # the lobby: the three registered bots, connected
            for name in BOTS:
                page.wait_for_selector(f"#bots td:text-is('{name}')")
            assert page.locator("#bots td.on").count() == len(BOTS)
            first = _create(served, seed=11)
            row = page.wait_for_selector(f"#running tr[data-match='{first}']", timeout=15000)
            assert row is not None
            row.query_selector("a").click()
            # the live board: it moves on by itself while the match is played (the bots take
            # their time over their first decision: the page is open before play shows)
            page.wait_for_selector("#board[data-live='live']")
            steps: set[int] = set()
            deadline = time.monotonic() + 60  # (a polled wait: the page's CSP forbids eval)
            while page.get_attribute("#board", "data-live") == "live":
                assert time.monotonic() < deadline
                steps.add(_step(page))
                if len(steps) == 4:
                    assert page.locator("#table .seat").count() == 3
                    assert page.locator("#board-status").inner_text().startswith("live")
                    if os.environ.get("CROUPIER_SCREENSHOT"):  # docs/images/live-board.png
                        SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
                        page.locator("body").screenshot(path=str(SCREENSHOT))
                page.wait_for_timeout(30)
            assert len(steps) >= 4, steps
            page.wait_for_selector("#result", timeout=60000)
            assert page.locator("#board-status").inner_text() == "finished"
            # the round's showdown stays on the table (a one-round match: to the end)
            assert page.locator("#showdown .seat").count() == 3
            if os.environ.get("CROUPIER_SHOTS"):
                shots = Path(os.environ["CROUPIER_SHOTS"])
                shots.mkdir(parents=True, exist_ok=True)
                page.locator("body").screenshot(path=str(shots / "live-showdown.png"))
            _wait_finished(served, first)
            # playback of the finished match, from the home page's list
            page.click("a.back-link")
            row = page.wait_for_selector(f"#finished tr[data-match='{first}']", timeout=15000)
            assert row is not None
            row.query_selector("a").click()
            page.wait_for_selector("#playback:not([hidden])")
            # each seat's rating beside its name (the standings rate them once a match ended)
            page.wait_for_selector("#table .seat .rating")
            assert page.locator("#table .seats > .seat .rating").count() == 3
            assert page.locator("#pb-pos").inner_text().startswith("step 1 of ")
            page.click("#pb-next")
            page.click("#pb-next")
            assert page.locator("#pb-pos").inner_text().startswith("step 3 of ")
            shown = page.locator("#table").inner_text()
            page.click("#pb-last")
            assert page.locator("#table").inner_text() != shown
            page.wait_for_selector("#result")
            assert page.locator("#showdown .seat").count() == 3
            # played back from the start at the top speed, it runs to the end by itself
            page.click("#pb-first")
            page.select_option("#pb-speed", "100")
            page.click("#pb-play")
            last = page.locator("#pb-pos").inner_text().split(" of ")[1]
            page.wait_for_selector(f"#pb-pos:text-is('step {last} of {last}')", timeout=15000)
            page.wait_for_selector("#result")
    finally:
        proxy.stop()

    replays = {first: served.state / "replays" / f"{first}.jsonl"}
    hidden = {m: _never_shown(path) for m, path in replays.items()}
    assert all(len(h) >= 20 for h in hidden.values())
    everything = set().union(*hidden.values())
    assert proxy.exchanges
    streams = 0
    for exchange in proxy.exchanges:
        body = bytes(exchange.response)
        assert body, exchange.path
        match = re.match(r"/api/matches/([^/]+)/(watch|replay)", exchange.path)
        secret = hidden[match.group(1)] if match else everything
        for label in _labels(secret):
            assert label not in body, (exchange.path, label)
        for payload in _payloads(body):
            assert not _card_ids(payload) & secret, exchange.path
            text = json.dumps(payload)
            assert '"seed"' not in text
            assert '"salt"' not in text
        streams += b"text/event-stream" in body.partition(b"\r\n\r\n")[0]
    assert streams >= 1
    # the page was sent cards at all (the check is not vacuous): the public fields
    sent = set().union(
        *(_card_ids(p) for e in proxy.exchanges for p in _payloads(bytes(e.response)))
    )
    assert len(sent) >= 6
