"""Tournament files: what is accepted, and that every mistake is one line naming key and file."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.errors import ConfigError
from croupier.ladder import load_config, parse_override
from croupier.ladder._config import first_difference, with_runtime

GOOD = """
name = "club"
game = "fipsen"
seed = 5
rounds = 3
[params]
deals = 4
[clock]
move_ms = 500
[format]
kind = "round-robin"
seatings = "permutations"
[bots]
alice = "random"
bob = { command = "fipsen-heuristic" }
carol = "random"
dave = "remote"
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "t.toml"
    path.write_text(text)
    return path


def test_a_good_file_is_read_with_its_defaults(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path, GOOD))
    assert config.name == "club"
    assert config.game == "fipsen"
    assert config.params["deals"] == 4
    assert config.seats == 4
    assert [b.name for b in config.bots] == ["alice", "bob", "carol", "dave"]
    assert config.bot("bob").command == "fipsen-heuristic"
    assert config.bot("dave").remote
    assert config.move_ms == 500
    assert config.bank_ms == 30000
    assert config.fmt.seatings == "permutations"
    assert config.fmt.duplicate
    assert config.store == tmp_path / "t.sqlite"  # relative to the file, named after it
    assert config.out == tmp_path / "t-matches"


def test_flag_overrides_replace_keys_of_the_file(tmp_path: Path) -> None:
    overrides = dict(
        parse_override(s) for s in ["rounds=7", "format.duplicate=false", "params.deals=2"]
    )
    config = load_config(_write(tmp_path, GOOD), overrides)
    assert (config.rounds, config.fmt.duplicate, config.params["deals"]) == (7, False, 2)
    assert parse_override("bots.eve=random") == ("bots.eve", "random")  # a bare word: a string


def test_the_hash_covers_what_defines_the_tournament_not_how_it_runs(tmp_path: Path) -> None:
    config = load_config(_write(tmp_path, GOOD))
    moved = with_runtime(config, store=tmp_path / "x.db", concurrency=9, executor="ray")
    assert moved.config_hash() == config.config_hash()
    other = load_config(_write(tmp_path, GOOD.replace("seed = 5", "seed = 6")))
    assert other.config_hash() != config.config_hash()
    assert first_difference(config.defining(), other.defining()) == "seed changed from 5 to 6"


def test_the_tls_table_names_the_listener_s_files_relative_to_the_file(tmp_path: Path) -> None:
    """``[tls]`` is a runtime setting like ``listen``: not in the hash, so it may change."""
    text = GOOD.replace("[params]", '[tls]\ncert = "c.pem"\nkey = "/k/c.key"\n[params]')
    config = load_config(_write(tmp_path, text))
    assert config.tls is not None
    assert (config.tls.cert, config.tls.key) == (tmp_path / "c.pem", Path("/k/c.key"))
    assert config.tls.client_ca is None
    assert config.config_hash() == load_config(_write(tmp_path, GOOD)).config_hash()
    mutual = text.replace("[params]", 'client_ca = "ca.pem"\n[params]')
    tls = load_config(_write(tmp_path, mutual)).tls
    assert tls is not None
    assert tls.client_ca == tmp_path / "ca.pem"


@pytest.mark.parametrize(
    ("change", "key", "says"),
    [
        (("rounds = 3", "rounds = 0"), "rounds", "at least 1"),
        (("rounds = 3", 'rounds = "x"'), "rounds", "integer"),
        (('game = "fipsen"', 'game = "chess"'), "game", "unknown game"),
        (("deals = 4", "deals = 100000"), "params", "out of range"),
        (("deals = 4", "dealz = 4"), "params", "no parameter"),
        (('kind = "round-robin"', 'kind = "knockout"'), "format.kind", "one of"),
        (("move_ms = 500", "move_ms = -1"), "clock.move_ms", "at least 0"),
        (("move_ms = 500", "tick = 1"), "clock.tick", "unknown key"),
        (('carol = "random"', "carol = 3"), "bots.carol", "command string"),
        (('carol = "random"', 'carol = ""'), "bots.carol", "empty command"),
        (('carol = "random"', 'Alice = "random"'), "bots.Alice", "duplicate display name"),
        (("seed = 5", "sede = 5"), "sede", "unknown key"),
        (("seed = 5", 'seed = 5\ntls = "x.pem"'), "tls", "must be a table"),
        (("[params]", '[tls]\ncert = "a.pem"\n[params]'), "tls.key", "missing"),
        (("[params]", '[tls]\nkey = "a.key"\n[params]'), "tls.cert", "missing"),
        (("[params]", '[tls]\ncert = "a"\nkey = "b"\nca = "c"\n[params]'), "tls.ca", "unknown"),
    ],
)
def test_each_mistake_is_one_line_naming_the_key_and_the_file(
    tmp_path: Path, change: tuple[str, str], key: str, says: str
) -> None:
    path = _write(tmp_path, GOOD.replace(*change))
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith(f"{path}: {key}: "), message
    assert says in message


def test_too_few_bots_and_gauntlet_candidates_are_refused(tmp_path: Path) -> None:
    few = GOOD.replace('carol = "random"\n', "").replace('dave = "remote"\n', "")
    with pytest.raises(ConfigError, match=r"t\.toml: bots: 2 bots for tables of 4 seats"):
        load_config(_write(tmp_path, few))
    gauntlet = GOOD.replace('kind = "round-robin"', 'kind = "gauntlet"\ncandidates = ["zed"]')
    with pytest.raises(ConfigError, match=r"format\.candidates: 'zed' is not one of the bots"):
        load_config(_write(tmp_path, gauntlet))


def test_a_file_that_is_not_toml_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"t\.toml: not valid TOML"):
        load_config(_write(tmp_path, "game = "))
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")


def test_the_sprt_section_is_checked(tmp_path: Path) -> None:
    text = GOOD + '[sprt]\ncandidate = "bob"\nbaseline = "bob"\n'
    with pytest.raises(ConfigError, match=r"sprt\.baseline: must differ"):
        load_config(_write(tmp_path, text))
    text = GOOD + '[sprt]\ncandidate = "bob"\nbaseline = "alice"\nalpha = 0.7\n'
    with pytest.raises(ConfigError, match=r"sprt\.alpha"):
        load_config(_write(tmp_path, text))


def test_the_faults_table_sets_every_match_s_fault_policy(tmp_path: Path) -> None:
    from croupier.arbiter import FaultPolicy, Policy

    plain = load_config(_write(tmp_path, GOOD))
    assert plain.fault_policy == FaultPolicy()
    assert plain.reconnect_grace_s == 0
    text = GOOD.replace("move_ms = 500", "move_ms = 500\nreconnect_grace_s = 5")
    text += '[faults]\ntimeout = "forfeit-round"\ncrash = "forfeit-match"\n'
    config = load_config(_write(tmp_path, text))
    assert config.fault_policy == FaultPolicy(
        timeout=Policy.FORFEIT_ROUND, crash=Policy.FORFEIT_MATCH
    )
    assert config.reconnect_grace_s == 5
    # a policy is part of what the store's hash covers (a default one is not: old stores match)
    assert config.config_hash() != plain.config_hash()
    assert "faults" not in plain.defining()


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        ('[faults]\ntimout = "default"\n', "[faults]: unknown fault class 'timout'"),
        ('[faults]\ncrash = "boom"\n', "[faults]: crash='boom' is not a policy"),
    ],
)
def test_a_bad_faults_table_is_one_line_naming_the_key(
    tmp_path: Path, extra: str, needle: str
) -> None:
    with pytest.raises(ConfigError, match=r"^\S*t\.toml: " + needle.replace("[", r"\[")):
        load_config(_write(tmp_path, GOOD + extra))


def test_a_bad_reconnect_grace_is_refused(tmp_path: Path) -> None:
    text = GOOD.replace("move_ms = 500", "move_ms = 500\nreconnect_grace_s = -1")
    with pytest.raises(ConfigError, match=r"clock\.reconnect_grace_s: must be 0 to 86400"):
        load_config(_write(tmp_path, text))


@pytest.mark.parametrize("value", ["0", "-1", "nan", "inf", "3601"])
def test_a_bad_connect_timeout_is_refused(tmp_path: Path, value: str) -> None:
    """(``inf`` would wait for a bot's session for ever.)"""
    text = GOOD.replace("move_ms = 500", f"move_ms = 500\nconnect_timeout_s = {value}")
    with pytest.raises(ConfigError, match=r"clock\.connect_timeout_s: must be more than 0"):
        load_config(_write(tmp_path, text))


def test_event_flush_ms_is_a_runtime_setting_passed_to_every_match(tmp_path: Path) -> None:
    """How long events wait for their seat's next message changes how the matches are sent,
    not what defines them: outside the hash (like concurrency), in every match's config."""
    from croupier.ladder._play import make_jobs, resolve_bot
    from croupier.ladder._schedule import Schedule, Seeder

    plain = load_config(_write(tmp_path, GOOD))
    assert plain.event_flush_ms == 50
    off = load_config(_write(tmp_path, "event_flush_ms = 0\n" + GOOD))
    assert off.event_flush_ms == 0
    assert off.config_hash() == plain.config_hash()
    assert load_config(_write(tmp_path, GOOD), {"event_flush_ms": 7}).event_flush_ms == 7
    slots = Schedule(off, Seeder(b"key")).round_slots(0, {})[:2]
    bots = {b.name: resolve_bot(b) for b in off.bots}
    jobs = make_jobs(off, slots, bots)
    assert [job.config.event_flush_ms for job in jobs] == [0, 0]
    for bad in ("-1", "60001", '"soon"'):
        with pytest.raises(ConfigError, match=r"^\S*t\.toml: event_flush_ms: must"):
            load_config(_write(tmp_path, f"event_flush_ms = {bad}\n" + GOOD))
