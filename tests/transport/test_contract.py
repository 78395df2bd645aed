"""The wire contract as its own artifact (issue 11): one file per game, stubs that stand alone,
the server's ``croupier.v1`` an alias of them, versions that agree, removed names reserved."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from google.protobuf import descriptor_pb2

import croupier
import croupier.v1
import croupier_proto.v1
from croupier.games import GAMES
from croupier_proto.v1 import as_nas_pb2, bot_pb2, felduz_pb2, fipsen_pb2, scauver_pb2

ROOT = Path(__file__).resolve().parents[2]
STUBS = ROOT / "proto" / "python"
SDK = ROOT / "clients" / "python"


def test_each_game_has_a_file_of_its_own_and_the_core_none_of_their_messages() -> None:
    observation = bot_pb2.Observation.DESCRIPTOR
    assert {f.name for f in observation.fields} == {g.replace("-", "_") for g in GAMES}
    for field in observation.fields:  # the game's observation lives in its own file
        assert field.message_type.file.name == f"croupier/v1/{field.name}.proto"
    games = ("".join(part.title() for part in name.split("-")) for name in GAMES)  # AsNas, ...
    prefixes = (*games, "Chip", "Card40")
    core = bot_pb2.DESCRIPTOR
    assert [n for n in [*core.message_types_by_name, *core.enum_types_by_name]
            if n.startswith(prefixes)] == []  # fmt: skip


def test_the_servers_croupier_v1_is_the_stubs_package_under_another_name() -> None:
    generated = sorted(p.stem for p in (STUBS / "croupier_proto" / "v1").glob("*_pb2*.py"))
    assert "bot_pb2" in generated
    for name in generated:  # a new .proto's module is found by server/croupier/v1 itself
        assert getattr(croupier.v1, name, None) is getattr(croupier_proto.v1, name), name
    assert croupier.PROTOCOL_VERSION == croupier.v1.PROTOCOL_VERSION == 3


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("package", [STUBS / "croupier_proto", SDK / "croupier_bot"])
def test_the_stubs_and_the_sdk_import_nothing_of_the_server(package: Path) -> None:
    for path in package.rglob("*.py"):
        server = {m for m in _imports(path) if m == "croupier" or m.startswith("croupier.")}
        assert not server, f"{path.relative_to(ROOT)} imports {sorted(server)}"


def test_the_three_distributions_are_released_at_one_version() -> None:
    def project(where: Path) -> dict[str, object]:
        table: dict[str, object] = tomllib.loads((where / "pyproject.toml").read_text())["project"]
        return table

    version = croupier.__version__
    stubs, sdk, root = project(STUBS), project(SDK), project(ROOT)
    assert (stubs["name"], stubs["version"]) == ("croupier-proto", version)
    assert (sdk["name"], sdk["version"]) == ("croupier-bot", version)
    assert f"croupier-proto=={version}" in sdk["dependencies"]  # type: ignore[operator]
    assert {f"croupier-proto=={version}", f"croupier-bot=={version}"} <= set(
        root["dependencies"]  # type: ignore[call-overload]
    )


def _reserved(message: object) -> set[str]:
    proto = descriptor_pb2.DescriptorProto()
    message.DESCRIPTOR.CopyToProto(proto)  # type: ignore[attr-defined]
    return set(proto.reserved_name)


def test_names_removed_within_v1_stay_reserved() -> None:
    # CHANGELOG.md, "Protocol versions": the baseline predates these reservations, so this
    # test (not buf breaking) keeps them
    assert "event" in _reserved(bot_pb2.PlayResponse)
    assert "last_deal" in _reserved(as_nas_pb2.AsNasObservation)
    assert "chips" in _reserved(scauver_pb2.ScauverAction)
    assert "has_link" in _reserved(scauver_pb2.ScauverShowing)
    # protocol 2 (bounded decisions): the finished rounds left the observations
    assert "past_deals" in _reserved(as_nas_pb2.AsNasObservation)
    assert "past_deals" in _reserved(fipsen_pb2.FipsenObservation)
    assert "past_rounds" in _reserved(felduz_pb2.FelduzObservation)
    assert "past_rounds" in _reserved(scauver_pb2.ScauverObservation)
