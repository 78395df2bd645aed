"""No leak in the chip games, from the arbiter to the rendered views: two real matches (the
arbiter, seats driven in-process through their links) differ only in cards seat 0 never sees.
Seat 0 must receive byte-identical messages in both, and its view of the replay (``croupier
replay show --seat 0``) and the public view must be identical; seat 2, whose cards changed, and
the omniscient view must differ (so the check can fail).

In both games seat 2 keeps two cards hidden, draws a card nobody else sees, and leaves the round
without a showdown; the cards it was dealt and drew differ between the two matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import felduz_kit
import scauver_kit
from seats_kit import play, scripted

from croupier.arbiter import ClockRules, MatchConfig
from croupier.games import get_spec
from croupier.replay import OMNISCIENT, read_replay, render
from croupier.transport._codec import encode
from croupier.v1 import bot_pb2 as pb

WATCHER, FOLDER = 0, 2
DEALER = 2  # so the opening is asked, and the turns go, 0, 1, 2
#: A move by label, or (an int) by position in the legal list (for choices only the seat sees).
Move = str | int


def _play(
    tmp_path: Path, name: str, game: str, deck: tuple[int, ...], scripts: Sequence[list[Move]]
) -> tuple[list[list[bytes]], Path]:
    path = tmp_path / f"{name}.jsonl"
    config = MatchConfig(
        game,
        {"players": len(scripts), "round_cap": 1},
        seed=1,
        clock=ClockRules(move_time_ms=5000, time_bank_ms=0),
        connect_timeout_s=5,
        chance_script=((DEALER,), deck),
    )
    seen = play(config, f"{game}-noleak", path, [scripted(moves) for moves in scripts])
    codec = get_spec(game).codec
    as_bytes = [
        [encode(m, codec).SerializeToString(deterministic=True) for m in messages]
        for messages in seen
    ]
    return as_bytes, path


def _compare(
    tmp_path: Path,
    game: str,
    decks: tuple[tuple[int, ...], tuple[int, ...]],
    scripts: Sequence[list[Move]],
) -> None:
    seen_a, replay_a = _play(tmp_path, "a", game, decks[0], scripts)
    seen_b, replay_b = _play(tmp_path, "b", game, decks[1], scripts)
    labels = [
        [(r.data["seat"], r.data["label"]) for r in read_replay(p).records if r.type == "action"]
        for p in (replay_a, replay_b)
    ]
    assert [x for x in labels[0] if x[0] != FOLDER] == [x for x in labels[1] if x[0] != FOLDER]
    assert seen_a[WATCHER] == seen_b[WATCHER]
    assert seen_a[FOLDER] != seen_b[FOLDER]
    # the bytes compared hold the finished round's record (its history and result), which a
    # decision request no longer carries: the one place a finished round goes on the wire
    records = [
        getattr(e.deal_ended, f"{game}_past")
        for raw in seen_a[WATCHER]
        for e in pb.PlayResponse.FromString(raw).events
        if e.WhichOneof("kind") == "deal_ended"
    ]
    assert len(records) == 1
    assert records[0].history
    assert records[0].HasField("result")
    one, two = read_replay(replay_a), read_replay(replay_b)
    for viewer in (WATCHER, 1, None):
        assert list(render(one, viewer)) == list(render(two, viewer)), viewer
    assert list(render(one, FOLDER)) != list(render(two, FOLDER))
    assert list(render(one, OMNISCIENT)) != list(render(two, OMNISCIENT))


def test_felduz_cards_a_seat_never_sees_change_nothing_it_receives_or_renders(
    tmp_path: Path,
) -> None:
    hands = {0: "Ad 2d 3d 4d 5d", 1: "Ah 2h 3h 4h 5h"}
    # seat 2 opens A♣ 2♣ 3♣ (its first split: the three lowest ids), keeps J♠ and one more
    # spade closed, draws one more spade and shows the J♠
    deck_a = felduz_kit.deck_for(3, DEALER, {**hands, 2: "Ac 2c 3c Js Ks"}, stock="Qs")
    deck_b = felduz_kit.deck_for(3, DEALER, {**hands, 2: "Ac 2c 3c Js 7s"}, stock="6s")
    # seats 0 and 1 stand at once; seat 2 draws, shows J♠ and goes on; then seat 0 bets,
    # seat 1 calls and seat 2 answers Out: 0 and 1 go to the showdown
    quiet: list[Move] = ["Stand", "NoBet", "Reserve:[]"]
    scripts: list[list[Move]] = [
        [0, *quiet, "Bet:2"],
        [0, *quiet, "In", "NoBet"],
        [0, "Draw", "NoBet", "Reveal:J♠", "Continue", "Out"],
    ]
    _compare(tmp_path, "felduz", (deck_a, deck_b), scripts)


def test_scauver_cards_a_seat_never_sees_change_nothing_it_receives_or_renders(
    tmp_path: Path,
) -> None:
    hands = {0: "A♦ 2♦ 3♦ 4♦ 5♦", 1: "A♥ 2♥ 3♥ 4♥ 5♥"}
    # the stock's third card is seat 2's first draw; the others go to seats 0 and 1
    stock = "6♦ 6♥ {} 7♦ 7♥ J♦ J♥"
    deck_a = scauver_kit.deck_for(
        3, DEALER, {**hands, 2: "A♣ 2♣ 3♣ J♠ K♠"}, stock=stock.format("Q♠")
    )
    deck_b = scauver_kit.deck_for(
        3, DEALER, {**hands, 2: "A♣ 2♣ 3♣ 7♠ Q♠"}, stock=stock.format("6♠")
    )
    # seat 2 opens A♣ 2♣ 3♣ to the left (its first option) and folds at its first betting step;
    # seats 0 and 1 proceed and place their lowest card for three turns
    turns: list[Move] = ["Proceed", 0, "Proceed", 0, "Proceed", 0, 0, "NoBet"]
    scripts: list[list[Move]] = [[0, *turns], [0, *turns], [0, "Fold"]]
    _compare(tmp_path, "scauver", (deck_a, deck_b), scripts)
