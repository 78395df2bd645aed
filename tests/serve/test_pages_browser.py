"""The public pages in a real browser (Debian's chromium, driven by playwright) against a real
``croupier serve`` whose registered bots (real processes of the Python SDK) have played real
matches: the home page's standings sorted by the rating they show, each column explained, the
finished list paged, the featured live match linked to its live board; a bot's page with its
rating chart (one point per rated match), its matches paged and filtered by opponent and game,
its record against each opponent.

With ``CROUPIER_SHOTS=DIR`` it saves ``DIR/pages-home.png`` and ``DIR/pages-bot.png``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import grpc
import pytest
from browser_kit import chromium, require_browser
from serve_kit import (
    RANDOM_BOT,
    RANDOM_SLOW_BOT,
    Control,
    ServeProcess,
    register,
    start_bot,
    stop_bots,
    wait_connected,
    wait_state,
)

from croupier.v1 import control_pb2 as cpb

pytestmark = pytest.mark.e2e

FAST = ("alice", "bob", "carol")
SLOW = "dave"
#: The finished matches: alice plays 12 (6 against bob, 6 against carol), bob and carol 2 more.
PAIRS = [("alice", "bob"), ("carol", "alice")] * 6 + [("bob", "carol")] * 2

if TYPE_CHECKING:
    from playwright.sync_api import Page

require_browser()


@dataclass
class _Served:
    server: ServeProcess
    control: Control
    finished: list[str]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[_Served]:
    server = ServeProcess(tmp_path / "state", "--web-listen", "127.0.0.1:0")
    control = Control(server.control_address, server.operator_key)
    procs = []
    try:
        keys = register(control, *FAST, SLOW)
        for seed, name in enumerate(FAST, start=1):
            procs.append(
                start_bot(server.bot_address, keys[name], RANDOM_BOT, CROUPIER_SEED=str(seed))
            )
        procs.append(
            start_bot(
                server.bot_address,
                keys[SLOW],
                RANDOM_SLOW_BOT,
                tmp_path / "dave.log",
                SLOW_BOT_NAME=SLOW,
                SLOW_BOT_DELAY_S="1.5",
                # the live match's first decision takes 28 s of dave's 2 + 30 s (move + bank):
                # it is still being played when the pages are read (it once ended within
                # 5 s on a loaded machine and alice's chart had a thirteenth point)
                SLOW_BOT_FIRST_S="28",
            )
        )
        wait_connected(control, (*FAST, SLOW))
        finished = []
        for i, pair in enumerate(PAIRS):
            request = cpb.CreateMatchRequest(
                game="scauver", params={"players": 2, "round_cap": 1}, bots=list(pair), seed=i + 1
            )
            finished.append(control.CreateMatch(request).match.match_id)
        for match_id in finished:
            wait_state(control, match_id, [cpb.MATCH_STATE_FINISHED])
        yield _Served(server, control, finished)
    finally:
        server.stop()
        stop_bots(procs)
        control.close()


def _shot(page: Page, name: str) -> None:
    folder = os.environ.get("CROUPIER_SHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name), full_page=True)


def _numbers(page: Page, selector: str) -> list[float]:
    return [float(t) for t in page.locator(selector).all_inner_texts()]


def test_the_home_page_and_a_bot_page_show_standings_matches_and_a_rating_chart(
    served: _Served,
) -> None:
    # a long match is being played (dave takes his time): the featured one
    request = cpb.CreateMatchRequest(
        game="scauver", params={"players": 2, "round_cap": 30}, bots=["alice", SLOW], seed=99
    )
    live = served.control.CreateMatch(request).match.match_id
    wait_state(served.control, live, [cpb.MATCH_STATE_RUNNING])
    try:
        with chromium() as browser:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(served.server.web_url)
            # the standings: sorted by the rating they show, every column explained
            page.wait_for_selector("#standings tr[data-bot='alice']")
            ratings = _numbers(page, "#standings td.rating")
            assert len(ratings) == 3
            assert ratings == sorted(ratings, reverse=True)
            titles = page.locator("#standings th").evaluate_all("(ths) => ths.map((t) => t.title)")
            assert all(len(t) > 10 for t in titles), titles
            assert page.locator("#standings-legend dt").count() >= 5
            # the finished list: 10 a page, newest first
            page.wait_for_selector(f"#finished tr[data-match='{served.finished[-1]}']")
            page.wait_for_selector(f"#featured[data-match='{live}']")
            _shot(page, "pages-home.png")
            rows = page.locator("#finished tbody tr")
            assert rows.count() == 10
            assert page.locator("#finished-pager .pg-pos").inner_text() == f"1–10 of {len(PAIRS)}"
            page.click("#finished-pager .pg-next")
            page.wait_for_selector(f"#finished tr[data-match='{served.finished[0]}']")
            assert rows.count() == len(PAIRS) - 10, rows.all_inner_texts()
            assert page.locator("#finished-pager .pg-next").is_disabled()
            # the featured match: the one being played, linked to its live board
            page.wait_for_selector(f"#featured[data-match='{live}']")
            page.click("#featured a.watch-featured")
            page.wait_for_selector("#board[data-live]", timeout=30000)  # (live, or just over)
            assert live in page.locator("#board-title").inner_text()
            page.click("a.back-link")
            # alice's page, from the standings
            page.click("#standings tr[data-bot='alice'] a.bot-link")
            page.wait_for_selector("#botpage[data-loaded='alice']")
            assert page.locator("#bot-name").inner_text() == "alice"
            rated = sum("alice" in pair for pair in PAIRS)
            assert page.locator("#rating-svg circle.point").count() == rated
            assert page.locator("#rating-line").get_attribute("points")
            # its matches: 10 a page (the running one first), then the rest
            page.wait_for_selector(f"#bot-matches tr[data-match='{live}']")
            assert page.locator("#bot-matches tbody tr").count() == 10
            assert page.locator("#bot-pager .pg-pos").inner_text() == f"1–10 of {rated + 1}"
            _shot(page, "pages-bot.png")
            page.click("#bot-pager .pg-next")
            page.wait_for_selector("#bot-pager .pg-pos:text-is('11–13 of 13')")
            assert page.locator("#bot-matches tbody tr").count() == 3
            # filtered by opponent: only the matches against carol
            page.select_option("#bot-opponent", "carol")
            page.wait_for_selector(f"#bot-pager .pg-pos:text-is('1–6 of {rated // 2}')")
            opponents = page.locator("#bot-matches tbody td:nth-child(3)").all_inner_texts()
            assert opponents == ["carol"] * (rated // 2)
            page.select_option("#bot-game", "scauver")
            page.wait_for_timeout(300)
            assert page.locator("#bot-matches tbody tr").count() == rated // 2
            # head to head
            h2h = page.locator("#bot-h2h tr[data-opponent='bob'] td").all_inner_texts()
            assert h2h[0] == "bob"
            assert h2h[1] == str(rated // 2)
            assert int(h2h[2]) + int(h2h[3]) + int(h2h[4]) == rated // 2
            # a bot's page links to its opponents' pages
            page.click("#bot-h2h tr[data-opponent='bob'] a.bot-link")
            page.wait_for_selector("#botpage[data-loaded='bob']")
            assert page.locator("#rating-svg circle.point").count() == sum(
                "bob" in pair for pair in PAIRS
            )
    finally:
        with contextlib.suppress(grpc.RpcError):  # (it may have finished)
            served.control.CancelMatch(cpb.CancelMatchRequest(match_id=live))
