"""The defaults are written once (``croupier._defaults``) and every place a user reads them says
the same: the CLI's flags and help, the tournament file, the server's config, the arbiter's
types, and the docs' tables and examples (README, docs/ladder.md, docs/server.md,
docs/protocol.md). A default changed in one place only fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from croupier import _defaults as d
from croupier.arbiter import ClockRules, MatchConfig
from croupier.cli import build_parser
from croupier.ladder import load_config
from croupier.serve._config import ServeConfig

ROOT = Path(__file__).resolve().parents[2]


def _text(name: str) -> str:
    return (ROOT / name).read_text()


def _num(text: str) -> float:
    return float(text.strip("`"))


def test_the_arbiter_s_types_use_them() -> None:
    clock = ClockRules()
    assert (clock.move_time_ms, clock.time_bank_ms, clock.margin_ms) == (
        d.MOVE_MS,
        d.BANK_MS,
        d.MARGIN_MS,
    )
    config = MatchConfig("as-nas", {})
    assert (config.connect_timeout_s, config.event_flush_ms) == (
        d.CONNECT_TIMEOUT_S,
        d.EVENT_FLUSH_MS,
    )


@pytest.mark.parametrize("command", ["match", "check-bot"])
def test_the_cli_flags_use_them(command: str) -> None:
    words = [command, "random"] if command == "check-bot" else [command, "--game", "as-nas"]
    args = build_parser().parse_args(words)
    bank = d.CHECK_BOT_BANK_MS if command == "check-bot" else d.BANK_MS
    assert (args.move_ms, args.bank_ms, args.margin_ms, args.connect_timeout) == (
        d.MOVE_MS,
        bank,
        d.MARGIN_MS,
        d.CONNECT_TIMEOUT_S,
    )
    if command == "match":
        assert (args.event_flush_ms, args.reconnect_grace) == (
            d.EVENT_FLUSH_MS,
            d.RECONNECT_GRACE_S,
        )


def test_the_tournament_file_and_the_server_use_them(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('game = "fipsen"\n[bots]\n' + "".join(f'{c} = "random"\n' for c in "abcd"))
    config = load_config(path, {})
    assert (config.move_ms, config.bank_ms) == (d.MOVE_MS, d.BANK_MS)
    assert (config.connect_timeout_s, config.reconnect_grace_s, config.event_flush_ms) == (
        d.CONNECT_TIMEOUT_S,
        d.TOURNAMENT_RECONNECT_GRACE_S,
        d.EVENT_FLUSH_MS,
    )
    server = ServeConfig(state_dir=tmp_path)
    assert (server.move_ms, server.bank_ms, server.connect_timeout_s) == (
        d.MOVE_MS,
        d.BANK_MS,
        d.CONNECT_TIMEOUT_S,
    )
    assert (server.reconnect_grace_s, server.event_flush_ms, server.max_matches) == (
        d.RECONNECT_GRACE_S,
        d.EVENT_FLUSH_MS,
        d.SERVER_MAX_MATCHES,
    )


def test_the_tournament_table_in_docs_ladder_says_them() -> None:
    rows = {
        m[1]: m[2]
        for m in re.finditer(r"^\| `([^`]+)` \| (`[^`]*`) \|", _text("docs/ladder.md"), re.M)
    }
    assert _num(rows["[clock] move_ms"]) == d.MOVE_MS
    assert _num(rows["[clock] bank_ms"]) == d.BANK_MS
    assert _num(rows["[clock] connect_timeout_s"]) == d.CONNECT_TIMEOUT_S
    assert _num(rows["[clock] reconnect_grace_s"]) == d.TOURNAMENT_RECONNECT_GRACE_S
    assert _num(rows["event_flush_ms"]) == d.EVENT_FLUSH_MS


def test_the_server_config_example_in_docs_server_says_them() -> None:
    text = _text("docs/server.md")
    lines = dict(re.findall(r"^(\w+) = ([\d.]+)\s+#", text, re.M))
    assert _num(lines["max_matches"]) == d.SERVER_MAX_MATCHES
    assert _num(lines["move_ms"]) == d.MOVE_MS
    assert _num(lines["bank_ms"]) == d.BANK_MS
    assert _num(lines["connect_timeout_s"]) == d.CONNECT_TIMEOUT_S
    assert _num(lines["reconnect_grace_s"]) == d.RECONNECT_GRACE_S
    assert _num(lines["event_flush_ms"]) == d.EVENT_FLUSH_MS
    assert f"({d.RECONNECT_GRACE_S:g} s by default;" in text


def test_the_readme_and_the_protocol_guide_say_them() -> None:
    readme = _text("README.md")
    assert f"`--move-ms` (default {d.MOVE_MS}) and `--bank-ms` (default {d.BANK_MS})" in readme
    assert f"`--move-ms {d.MOVE_MS}` and a bank of only `--bank-ms {d.CHECK_BOT_BANK_MS}`" in readme
    guide = " ".join(_text("docs/protocol.md").split())
    assert f"`--move-ms` {d.MOVE_MS} but a **bank of {d.CHECK_BOT_BANK_MS} ms**" in guide
    assert f"where `croupier match` gives {d.BANK_MS})" in guide
