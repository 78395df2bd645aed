"""``croupier serve``'s configuration: the TOML file and the flags over it, every mistake one
line naming the key (and file), and the refusal of plaintext on an address others can reach."""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.cli import main
from croupier.errors import ConfigError
from croupier.serve import ServeConfig, is_loopback, load_serve_config


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "serve.toml"
    path.write_text(text)
    return path


def test_a_file_sets_everything_relative_to_itself(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        """
[serve]
bot_listen = "127.0.0.1:7100"
control_listen = "[::1]:7101"
state_dir = "state"
max_matches = 12
move_ms = 500
event_flush_ms = 0
bot_pending_per_peer = 4
bot_probation_per_peer = 0
bot_failed_hellos_per_peer = 100
[tls]
cert = "tls/cert.pem"
key = "tls/key.pem"
[roles]
anonymous_spectators = false
[ladder]
game = "scauver"
""",
    )
    config = load_serve_config(path)
    assert (config.bot_listen, config.control_listen) == ("127.0.0.1:7100", "[::1]:7101")
    assert config.state_dir == tmp_path / "state"
    assert config.store_path == tmp_path / "state" / "croupier.sqlite"
    assert (config.max_matches, config.move_ms, config.anonymous_spectators) == (12, 500, False)
    assert config.event_flush_ms == 0
    assert (config.bot_pending_per_peer, config.bot_probation_per_peer) == (4, 0)
    assert config.bot_failed_hellos_per_peer == 100
    assert config.tls is not None
    assert config.tls.cert == tmp_path / "tls" / "cert.pem"
    assert config.ladder_game == "scauver"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[serve]\nmax_matches = 0\n", "serve.max_matches: must be from 1 to 100000, got 0"),
        ("[serve]\nmove_ms = true\n", "serve.move_ms: must be an integer, got True"),
        ("[serve]\nevent_flush_ms = -5\n", "serve.event_flush_ms: must be from 0 to 60000"),
        ("[serve]\nbot_listen = 'nowhere'\n", "serve.bot_listen: 'nowhere' is not HOST:PORT"),
        ("[serve]\nports = 3\n", "serve.ports: unknown key"),
        ("[serve]\nbot_pending_per_peer = 0\n", "serve.bot_pending_per_peer: must be from 1"),
        ("[sever]\n", "sever: unknown table"),
        ("[tls]\ncert = 'c.pem'\n", "tls.key: missing"),
        ("[roles]\nplay_vs_bots = 'all'\n", "roles.play_vs_bots: must be off, operators or anyone"),
        ("[serve\n", "not valid TOML"),
        (
            "[serve]\nweb_listen = '127.0.0.1:0'\n[roles]\nanonymous_spectators = false\n",
            "serve.web_listen: the web page asks its visitors for no key: it would show a "
            "spectator's view to anyone who reaches it, and roles.anonymous_spectators is false "
            "(--no-anonymous)",
        ),
    ],
)
def test_every_mistake_is_one_line_naming_the_key(tmp_path: Path, text: str, message: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(ConfigError) as err:
        load_serve_config(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("address", "loopback"),
    [
        ("127.0.0.1:1", True),
        ("127.8.9.1:1", True),
        ("[::1]:1", True),
        ("localhost:1", True),
        ("0.0.0.0:1", False),
        ("[::]:1", False),
        ("192.168.1.4:1", False),
        ("example.org:1", False),
    ],
)
def test_loopback_addresses(address: str, loopback: bool) -> None:
    assert is_loopback(address) is loopback


@pytest.mark.parametrize("flag", ["--bot-listen", "--control-listen", "--web-listen"])
def test_plaintext_on_a_reachable_address_is_refused_in_one_line(
    tmp_path: Path, flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    other = "--control-listen" if flag == "--bot-listen" else "--bot-listen"
    argv = ["serve", "--state-dir", str(tmp_path / "s"), flag, "0.0.0.0:0", other, "127.0.0.1:0"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("croupier: error: serve.")
    assert "is not a loopback address and is served in plaintext" in err
    assert not (tmp_path / "s").exists()  # refused before anything was made or bound


def test_defaults_are_loopback_and_anonymous_spectators() -> None:
    config = ServeConfig()
    assert is_loopback(config.bot_listen)
    assert is_loopback(config.control_listen)
    assert config.anonymous_spectators
    assert config.play_vs_bots == "operators"
    assert not config.allow_insecure_remote


@pytest.mark.e2e
def test_play_vs_bots_for_anyone_without_a_web_page_is_warned_of(tmp_path: Path) -> None:
    """A setting that cannot take effect is said at start, not silently kept: a real server."""
    from serve_kit import ServeProcess

    path = _write(tmp_path, '[roles]\nplay_vs_bots = "anyone"\n')
    warning = (
        'croupier: warning: roles.play_vs_bots = "anyone" has no effect: the server has no web '
        "page (set serve.web_listen or pass --web-listen)"
    )
    for extra, warned in (((), True), (("--web-listen", "127.0.0.1:0"), False)):
        state = tmp_path / f"state{len(extra)}"
        server = ServeProcess(state, "--config", str(path), *extra)
        try:
            assert bool(server.web_url) is not warned
        finally:
            assert server.stop() == 0
        assert (warning in server.log.read_text().splitlines()) is warned


def test_a_web_page_without_anonymous_spectators_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The page holds the spectator key and asks for none: with ``--no-anonymous`` it would
    show everyone what only key holders may see. Before, it served on regardless."""
    argv = ["serve", "--state-dir", str(tmp_path / "s"), "--no-anonymous",
            "--web-listen", "127.0.0.1:0", "--bot-listen", "127.0.0.1:0",
            "--control-listen", "127.0.0.1:0"]  # fmt: skip
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("croupier: error: ")
    assert "leave the page off, or let anonymous spectators in" in err
    assert not (tmp_path / "s").exists()
