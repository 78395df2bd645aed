"""End to end: each ``<game>-search`` bundled bot plays a whole match as a real bot process
over gRPC, launched by ``croupier match`` in its sandbox, against the game's heuristic and the
random bot, within tight clocks: every seat ends ``normal`` (no timeout, no illegal reply) and
the replay verifies. The search takes its budget from the ``Clocks`` of each decision."""

from __future__ import annotations

import pytest
from e2e_kit import croupier, play_match

from croupier.replay import read_replay

pytestmark = pytest.mark.e2e

#: Small matches of each game: (extra flags, seats).
MATCHES = {
    "as-nas": (["--deals", "2"], 4),
    "fipsen": (["--deals", "2"], 4),
    "felduz": (["--players", "3", "--param", "stack=6", "--deals", "4"], 3),
    "scauver": (["--players", "3", "--param", "stack=4", "--deals", "4"], 3),
}
#: The time per decision: a tenth of the default; the search plans to use a quarter of it.
MOVE_MS = 400
#: A small bank: a search that overran its move time a few times would run out of it.
BANK_MS = 1000


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_search_bot_plays_a_whole_match_over_grpc_within_the_clocks(
    game: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    flags, seats = MATCHES[game]
    lineup = [f"{game}-search", f"{game}-heuristic", "random", f"{game}-heuristic"][:seats]
    bots = [arg for name in lineup for arg in ("--bot", name)]
    out = tmp_path_factory.mktemp(game)
    played = play_match(
        out,
        "--game",
        game,
        "--seed",
        2026,
        "--move-ms",
        MOVE_MS,
        "--bank-ms",
        BANK_MS,
        *flags,
        *bots,
        timeout=300,
    )
    replay = read_replay(played.replay)
    assert replay.complete
    header_seats = replay.header["seats"]
    assert [s["bot_name"] for s in header_seats] == lineup
    result = replay.records[-1].data
    assert [r["outcome"] for r in result["seats"]] == ["normal"] * seats, result
    searched = [
        r.data
        for r in replay.records
        if r.type == "action" and r.data["seat"] == 0 and r.data.get("fault") is None
    ]
    assert searched, "the search bot was never asked"
    assert all(not r.get("conceded") for r in searched)
    assert "Traceback" not in played.done.stderr
    done = croupier("replay", "verify", played.replay)
    assert done.returncode == 0, done.stdout + done.stderr
