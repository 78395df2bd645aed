"""One conformance check over the game registry, parametrized by game: every part a GameSpec
declares is present and works with the others (after OpenSpiel's ``basic_tests`` and
PettingZoo's ``api_test``). A game added to the registry is checked here without a line of its
own; ``test_an_incomplete_game_is_named_and_refused`` shows the check can fail.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from seats_kit import play as play_match

from croupier.arbiter import Clocks, DecisionRequest, MatchConfig, decision_request
from croupier.errors import ConfigError
from croupier.games import CHANCE, GAMES, GameSpec, get_spec, missing_parts, register
from croupier.games._drive import play, random_moves
from croupier.replay import OMNISCIENT, read_replay, render
from croupier.transport import BUNDLED, play_local
from croupier.transport._codec import encode
from croupier.v1 import bot_pb2 as pb
from croupier_bot import Bot, LegalActions, Seat

GOLDEN = Path(__file__).parents[1] / "golden"


def _small(spec: GameSpec) -> dict[str, int]:
    """Parameters for a short match: the golden playthrough's."""
    return dict(spec.playthrough.params)


def _seats(spec: GameSpec, params: dict[str, int]) -> int:
    return int(spec.game.num_players(spec.game.initial_state(spec.game.info.make_params(params))))


def _decisions(spec: GameSpec, seed: int) -> list[tuple[Any, int]]:
    """Every decision state of a random match, with the seat to act."""
    game = spec.game
    state = game.initial_state(game.info.make_params(_small(spec)))
    chooser = random_moves(game, np.random.default_rng(seed))
    return [(p.before, p.player) for p in play(game, state, chooser) if p.player != CHANCE]


@pytest.mark.parametrize("name", GAMES)
def test_every_part_is_present(name: str) -> None:
    spec = get_spec(name)
    assert missing_parts(spec) == []
    assert spec.name == name
    assert (GOLDEN / f"{name}.txt").is_file(), f"no golden playthrough for {name}"
    assert spec.game.info.rules_doc.startswith("docs/rules/")
    assert (Path(__file__).parents[2] / spec.game.info.rules_doc).is_file()


@pytest.mark.parametrize("name", GAMES)
def test_the_game_package_ships_in_the_distribution(name: str) -> None:
    """A non-editable install has only the packages pyproject.toml lists."""
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    package = type(get_spec(name).game).__module__.rsplit(".", 1)[0]
    assert package in project["tool"]["setuptools"]["packages"]


@pytest.mark.parametrize("name", GAMES)
def test_the_game_has_its_entry_in_each_oneof_of_the_core(name: str) -> None:
    """``bot.proto``'s four oneofs name the game by its wire name (CONTRIBUTING.md), and its
    round-history message is ``<Game>Past<Unit>`` (the SDKs' ``past_<unit>s``)."""
    wire = get_spec(name).wire_name
    for message, oneof, entry in (
        (pb.Observation, "game", wire),
        (pb.LegalAction, "detail", wire),
        (pb.DealEnded, "game", wire),
        (pb.DealEnded, "past", f"{wire}_past"),
    ):
        entries = {f.name for f in message.DESCRIPTOR.oneofs_by_name[oneof].fields}
        assert entry in entries, f"no {entry} in {message.DESCRIPTOR.name}.{oneof} (bot.proto)"
    past = pb.DealEnded.DESCRIPTOR.fields_by_name[f"{wire}_past"].message_type
    head, _, unit = past.name.rpartition("Past")
    assert head, f"{past.name} is not named <Game>Past<Unit>"
    assert unit, f"{past.name} is not named <Game>Past<Unit>"
    assert past.file.name == f"croupier/v1/{wire}.proto"


@pytest.mark.parametrize("name", GAMES)
def test_the_web_renderer_is_registered_under_the_wire_name(name: str) -> None:
    """A game's ``web.js`` (optional) sets the page's renderer of its wire view."""
    spec = get_spec(name)
    assert spec.package is not None
    script = resources.files(spec.package).joinpath("web.js")
    if not script.is_file():
        pytest.skip("no web.js: the page shows the view's plain fields")
    registers = f"(window.CROUPIER_BOARDS = window.CROUPIER_BOARDS || {{}}).{spec.wire_name} = "
    assert registers in script.read_text()


@pytest.mark.parametrize("name", GAMES)
def test_the_codec_round_trips_random_decision_requests(name: str) -> None:
    spec = get_spec(name)
    for seed in range(3):
        for request_id, (state, seat) in enumerate(_decisions(spec, seed), 1):
            request = decision_request(spec.game, state, seat, request_id, Clocks(5, 6, 7))
            wire = encode(request, spec.codec)
            again = pb.PlayResponse.FromString(wire.SerializeToString())
            assert again == wire
            decision = again.decision
            assert decision.request_id == request_id
            assert decision.observation.WhichOneof("game") == spec.wire_name
            expanded = LegalActions(decision.legal_actions)  # amount ranges, as the SDK does
            assert [a.id for a in expanded] == list(request.legal_actions)
            assert [a.label for a in expanded] == list(request.labels)
            assert all(a.WhichOneof("detail") == spec.wire_name for a in expanded)


@pytest.mark.parametrize("name", GAMES)
def test_the_encoder_has_its_declared_shape(name: str) -> None:
    spec = get_spec(name)
    for state, seat in _decisions(spec, 11)[:200]:
        for viewer in (seat, None):
            vector = spec.encoder.encode(spec.game.observe(state, viewer))
            assert vector.shape == (spec.encoder.size,)
            assert np.isfinite(vector).all()


@pytest.mark.parametrize("name", GAMES)
def test_the_narrator_renders_a_random_match_in_every_view(name: str, tmp_path: Path) -> None:
    spec = get_spec(name)
    config = MatchConfig(name, _small(spec), seed=5)
    seats = spec.game.num_players(
        spec.game.initial_state(spec.game.info.make_params(config.params))
    )
    rng = np.random.default_rng(5)

    def policy(request: DecisionRequest) -> int:
        return int(request.legal_actions[rng.integers(len(request.legal_actions))])

    play_match(config, "conformance", tmp_path / "m.jsonl", [policy] * seats)
    replay = read_replay(tmp_path / "m.jsonl")
    rounds = sum(1 for r in replay.records if r.type == "round_end")
    for view in (OMNISCIENT, None, *range(seats)):
        lines = list(render(replay, view))
        assert lines[-1].lstrip().startswith(f"{seats}.") or "Final standings" in "\n".join(lines)
        headers = [line for line in lines if line.startswith("──") and "standings" not in line]
        assert len(headers) == rounds, (view, headers)


def _bot_class(module_name: str) -> type[Bot]:
    module = importlib.import_module(module_name)
    (cls,) = [
        c
        for c in vars(module).values()
        if inspect.isclass(c) and issubclass(c, Bot) and c.__module__ == module.__name__
    ]
    return cls


def _make(cls: type[Bot], seed: int) -> Bot:
    takes_seed = len(inspect.signature(cls).parameters) > 0
    return cls(seed) if takes_seed else cls()  # type: ignore[call-arg]


@pytest.mark.parametrize("name", GAMES)
def test_the_default_bots_exist_and_play(name: str) -> None:
    spec = get_spec(name)
    assert set(spec.bots.lineup) <= set(BUNDLED), "the line-up names bots that are not bundled"
    assert set(spec.bots.bundled) <= set(BUNDLED)
    params = _small(spec)
    n = _seats(spec, params)
    classes = [_bot_class(BUNDLED[spec.bots.lineup[s % len(spec.bots.lineup)]]) for s in range(n)]
    scores = play_local(name, params, 3, [Seat(_make(c, s)) for s, c in enumerate(classes)])
    assert len(scores) == n


@pytest.mark.parametrize("name", GAMES)
def test_resample_gives_every_seat_back_what_it_saw(name: str) -> None:
    """``spec.resample`` (no-leak sampling): at every state of random matches and for every
    seat, a sample shows the seat exactly the observation it was drawn from, and a seat to act
    is asked in it with the same legal moves (``tests/games/test_resample.py`` checks the
    distribution)."""
    spec = get_spec(name)
    game = spec.game
    params = game.info.make_params(_small(spec))
    for seed in range(3):
        state = game.initial_state(params)
        chooser = random_moves(game, np.random.default_rng(seed))
        for ply in play(game, state, chooser):
            for seat in range(game.num_players(ply.after)):
                obs = game.observe(ply.after, seat)
                sample = spec.resample(obs, np.random.default_rng(seed), params)
                assert game.observe(sample, seat) == obs
                if game.current_player(ply.after) == seat:
                    assert game.legal_actions(sample) == game.legal_actions(ply.after)


def test_an_incomplete_game_is_named_and_refused() -> None:
    """The check can fail: a spec without a codec, and one whose rules lack ``observe``."""
    whole = get_spec("as-nas")
    no_codec = whole.replace(codec=None)
    assert missing_parts(no_codec) == ["codec"]
    no_resample = whole.replace(resample=None)
    assert missing_parts(no_resample) == ["resample"]
    with pytest.raises(ConfigError, match="missing codec"):
        register(no_codec)

    class Blind:
        info = whole.game.info

        def __getattr__(self, name: str) -> Any:
            if name == "observe":
                raise AttributeError(name)
            return getattr(whole.game, name)

    blind = whole.replace(game=Blind(), bots=dataclasses.replace(whole.bots, lineup=()))
    assert missing_parts(blind) == ["game.observe", "bots.lineup"]
    with pytest.raises(ConfigError, match=r"missing game\.observe, bots\.lineup"):
        register(blind)
    assert get_spec("as-nas") is whole  # nothing was registered


def test_a_second_game_of_the_same_name_is_refused() -> None:
    with pytest.raises(ConfigError, match="registered already"):
        register(get_spec("fipsen"))
