"""End to end: a whole Fipsen match of four real bot processes over gRPC (the default line-up,
fipsen-heuristic and random), run with the ``croupier`` command; its replay verifies and renders,
and a seat's rendered view shows no card that seat did not see."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from e2e_kit import Kit, Played, croupier, flattened, play_match, read_stream

from croupier.games import get_game
from croupier.games.fipsen.rules import card_name
from croupier.replay import OMNISCIENT, read_replay, render
from croupier.v1 import bot_pb2 as pb

pytestmark = pytest.mark.e2e

DEALS = 4


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """``croupier match --game fipsen --seed 12 --deals 4 --out DIR``, once for the module."""
    out = tmp_path_factory.mktemp("fipsen") / "matches"
    return play_match(out, "--game", "fipsen", "--seed", 12, "--deals", DEALS)


def test_a_fipsen_match_of_bot_processes_finishes_normally(played: Played) -> None:
    replay = read_replay(played.replay)
    assert replay.complete
    assert replay.header["game"] == "fipsen"
    names = [s["bot_name"] for s in replay.header["seats"]]
    assert names == ["fipsen-heuristic", "random", "fipsen-heuristic", "random"]
    result = replay.records[-1].data
    assert [r["outcome"] for r in result["seats"]] == ["normal"] * 4
    assert sum(1 for r in replay.records if r.type == "round_end") == DEALS
    assert "Traceback" not in played.done.stderr


def test_the_fipsen_replay_verifies(played: Played) -> None:
    done = croupier("replay", "verify", played.replay)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f", {DEALS} deals, " in done.stdout


def test_replay_show_narrates_contracts_tricks_and_scores(played: Played) -> None:
    done = croupier("replay", "show", played.replay)
    assert done.returncode == 0, done.stderr
    text = done.stdout
    assert text.count("── Deal ") == DEALS
    assert "[chance] Deal 1" in text  # the omniscient view shows the deal
    played_deals = text.count("contract: seat ")
    assert text.count("trick 1: ") == played_deals
    assert played_deals + text.count("thrown in") + text.count("Siebener Fips with") == DEALS
    assert "Final standings" in text


def test_a_seat_view_shows_only_its_own_cards(played: Played) -> None:
    replay = read_replay(played.replay)
    game = get_game("fipsen")
    seat = 1
    # the cards each other seat held but never played, and the dead Skat/stock, per deal
    hidden_per_deal: list[set[str]] = []
    state = game.initial_state(game.info.make_params(replay.header["params"]))
    for rec in replay.records:
        if rec.type == "chance":
            state = game.apply_chance(state, tuple(rec.data["outcome"]))
            if state.hands[0]:
                hidden_per_deal.append(
                    {card_name(c) for s in range(4) if s != seat for c in state.hands[s]}
                    | {card_name(c) for c in (*state.skat, *state.stock)}
                )
        elif rec.type == "action":
            label = rec.data["label"]
            if label.startswith("Play:") and hidden_per_deal:
                hidden_per_deal[-1].discard(label.removeprefix("Play:"))
            state = game.apply(state, rec.data["action"])
    done = croupier("replay", "show", played.replay, "--seat", seat)
    assert done.returncode == 0, done.stderr
    sections = done.stdout.split("── Deal ")[1:]
    assert len(sections) == DEALS
    for section, hidden in zip(sections, hidden_per_deal, strict=True):
        assert f"seat {seat} holds " in section
        assert "[chance]" not in section
        mine = {  # its own hand, and the Skat if it took it
            line.split(" ", 5)[5]
            for line in section.splitlines()
            if line.startswith((f"   seat {seat} holds ", f"   seat {seat} takes "))
        }
        shown = {w for line in section.splitlines() for w in re.split(r"[ :]", line)}
        own = {c for line in mine for c in line.split()}
        assert not (hidden - own) & shown, "a hidden card shows in the seat's view"
    public = croupier("replay", "show", played.replay, "--public")
    assert public.returncode == 0
    assert " holds " not in public.stdout


def test_check_bot_passes_the_fipsen_heuristic() -> None:
    bot = f"{sys.executable} -m croupier_bots.fipsen_heuristic"
    done = croupier("check-bot", bot, "--game", "fipsen", "--seat", 2, "--deals", 2)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "6 passed, 0 failed" in done.stdout


def test_a_changed_skat_and_stock_nobody_saw_leave_every_stream_byte_identical(
    tmp_path: Path,
) -> None:
    """No leak end to end: replay a match with the Skat and the Kieker stock swapped in every
    deal where neither was taken; no seat saw them, so all four streams and every seat's view of
    the replay are byte-identical, while the omniscient record differs."""
    kit = Kit(tmp_path)

    def run(out: str, script: tuple[tuple[int, ...], ...] = ()) -> tuple[Path, list[Path]]:
        streams = [kit.streams / f"{out}{s}.bin" for s in range(4)]
        bots = [kit.bot("recorder", p) for p in streams]
        done = kit.run(bots, out=out, game="fipsen", seed=5, deals=6, chance_script=script,
                       match_id="fipsen-noleak")  # fmt: skip
        return done.replay, streams

    first, streams_a = run("a")
    script = [tuple(r.data["outcome"]) for r in read_replay(first).records if r.type == "chance"]
    taken: list[bool] = []  # per deal: was the Skat or the stock taken
    for rec in read_replay(first).records:
        if rec.type == "chance" and len(rec.data["outcome"]) > 1:
            taken.append(False)
        elif rec.type == "action" and rec.data["label"] in ("TakeSkat", "Kieker"):
            taken[-1] = True
    changed = 0
    for deal, was_taken in enumerate(taken):
        if not was_taken:
            d = list(script[1 + deal])
            d[12:14], d[22:24] = d[22:24], d[12:14]
            script[1 + deal] = tuple(d)
            changed += 1
    assert changed, "every deal used the Skat: pick another seed"
    second, streams_b = run("b", tuple(script))
    one, two = read_replay(first), read_replay(second)
    assert [r.data["outcome"] for r in two.records if r.type == "chance"] == [
        list(o) for o in script
    ]
    for a, b in zip(streams_a, streams_b, strict=True):
        assert flattened(read_stream(a)) == flattened(read_stream(b))
    records = [  # the compared bytes hold each finished deal's record (DealEnded.fipsen_past)
        e.deal_ended.fipsen_past
        for raw in read_stream(streams_a[0])
        for e in pb.PlayResponse.FromString(raw).events
        if e.WhichOneof("kind") == "deal_ended"
    ]
    assert len(records) == 6
    assert all(r.HasField("result") for r in records)
    for seat in (None, 0, 1, 2, 3):
        assert list(render(one, seat)) == list(render(two, seat))
    assert list(render(one, OMNISCIENT)) != list(render(two, OMNISCIENT))
