"""Forgeries at random: 0 that change a match's outcome are reported ``ok`` (issue 19 item 7).

From real replays (the real arbiter and writer; deals drawn from the seed or scripted as in a
duplicate set, faults under a forfeit policy, a no-show, a cancelled match, seats with fields
the organiser set), a seeded generator makes forgeries out of one to three edits, as someone
who holds the file and kept the commitment the bots were told would make them:

- **other matches**: a real match played under other terms (other deals, dealt from a script
  or another seed; other params; another fault policy), with the original's commitment, seed,
  salt and script digest pasted in, and some header fields set back to the original's so the
  forgery looks like it (``chance_script`` raised to skip the seed check, or set back);
- **edits**: a header field (clock, fault policy, reconnect window, event flush, chance script,
  params, a seat's connection), who sat where (names swapped with their results, a seat's
  roster field), a chance outcome with its label, a round's deltas or result, a final score,
  place or outcome, ``cancelled`` flipped, the reveal (salt, script digest, the rest of the
  script, the seed, the match id), the commitment or the salt removed, the format version
  lowered (relabelled only, or rewritten as the old writer wrote it, keeping the commitment or
  dropping it).

Every forgery that changes the file must fail ``croupier replay verify`` (in particular every
one whose claimed outcome, the scores, places, seat outcomes or ``cancelled``, differs), unless
it was rewritten into an old format without any commitment: then the ``ok`` line must say so
(``old, unbound``: such a file is not the match whose commitment the bots were told, and
``--require-bound`` fails it). Rewriting the bots' own actions consistently is not among the
forgeries: the actions are what the bots sent, which no replay can prove (the table saw them;
see docs/replay-format.md, "What binds each field").

Edits that change nothing the match depends on (the wall-clock fields: times, peers, versions,
fault details) must still verify: verify does not just reject every edit.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from forge_kit import Records, deals, old_format, outcome, paste, records, verdict, write
from replay_kit import cli, random_policy

from croupier.arbiter import DecisionRequest, FaultPolicy, MatchConfig
from croupier.games import get_game
from croupier.replay import FORMAT_VERSION, Policy, record_match

FORGERIES = 360
WALL_CLOCK_EDITS = 120


def _sloppy(seed: int) -> Policy:
    """Random, and now and then an illegal action id (an illegal_action fault)."""
    rng = random.Random(seed)

    def policy(request: DecisionRequest) -> int:
        if rng.random() < 0.08:
            return 99
        return rng.choice(request.legal_actions)

    return policy


# -- the originals --------------------------------------------------------------------------------


class Original:
    """A real match and how to play it again under other terms."""

    def __init__(
        self,
        out: Path,
        name: str,
        game: str,
        params: dict[str, int],
        seed: int,
        *,
        script: list[list[int]] | None = None,
        sloppy: bool = False,
        absent: tuple[int, ...] = (),
        cancel_after: int | None = None,
        policy: FaultPolicy | None = None,
        roster: tuple[dict[str, Any], ...] = (),
    ) -> None:
        self.out, self.name, self.game, self.params, self.seed = out, name, game, params, seed
        self.script, self.sloppy, self.absent = script or [], sloppy, absent
        self.cancel_after, self.policy = cancel_after, policy or FaultPolicy()
        self.roster = roster
        self.path = self.play(name)
        self.records = records(self.path)
        self.plays = 0

    def play(
        self,
        name: str,
        *,
        seed: int | None = None,
        params: dict[str, int] | None = None,
        script: list[list[int]] | None = None,
        policy: FaultPolicy | None = None,
    ) -> Path:
        n = (params or self.params)["players"]
        make = _sloppy if self.sloppy else random_policy
        policies: list[Policy | None] = [
            None if s in self.absent else make(self.seed * 10 + s) for s in range(n)
        ]
        config = MatchConfig(
            self.game,
            params or self.params,
            seed=self.seed if seed is None else seed,
            chance_script=tuple(tuple(o) for o in (self.script if script is None else script)),
            fault_policy=policy or self.policy,
            connect_timeout_s=0.2 if self.absent else 15.0,
            seat_roster=self.roster if n == len(self.roster) else (),
        )
        path = self.out / f"{name}.jsonl"
        path.unlink(missing_ok=True)
        names = [f"bot{s}" for s in range(n)]
        return record_match(config, path, policies, names, "m-1", cancel_after=self.cancel_after)


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> list[Original]:
    out = tmp_path_factory.mktemp("fuzz-originals")
    set_deals = deals(
        Original(out, "set", "as-nas", {"players": 4, "deals": 4}, 40).path
    )  # a duplicate set's deals
    chip_set = deals(Original(out, "chip-set", "felduz", {"players": 3, "round_cap": 6}, 41).path)
    forfeit = FaultPolicy.from_mapping({"illegal": "forfeit-round"}, "test")
    return [
        Original(out, "plain", "as-nas", {"players": 4, "deals": 3}, 1),
        Original(out, "fipsen", "fipsen", {"players": 4, "deals": 2}, 2),
        Original(out, "seating", "as-nas", {"players": 4, "deals": 4}, 3, script=set_deals),
        Original(
            out, "chip-seating", "felduz", {"players": 3, "round_cap": 6}, 4, script=chip_set
        ),
        Original(
            out, "cancelled-seating", "as-nas", {"players": 4, "deals": 4}, 5,
            script=set_deals, cancel_after=11,
        ),
        Original(out, "faults", "as-nas", {"players": 4, "deals": 3}, 6, sloppy=True,
                 policy=forfeit),
        Original(out, "no-show", "as-nas", {"players": 4, "deals": 2}, 7, absent=(1,)),
        Original(out, "roster", "scauver", {"players": 3, "round_cap": 4}, 8,
                 roster=tuple({"registered": f"owner{s}/bot", "elo": 1500 + s} for s in range(3))),
    ]  # fmt: skip


# -- forgeries ------------------------------------------------------------------------------------

Edit = Callable[[Records, Original, random.Random], Records]


def _other_deals(recs: Records, o: Original, rng: random.Random) -> Records:
    """A real match dealt other cards (scripted from another seed's match), pasted in; the
    header's chance_script raised, kept as played, or set back to the original's."""
    donor = o.play(f"{o.name}-donor", seed=rng.randrange(1000, 10**6), script=[])
    o.plays += 1
    forged = paste(records(o.play(f"{o.name}-forged", script=deals(donor))), recs)
    forged[0]["chance_script"] = rng.choice([recs[0]["chance_script"], 10**4, len(deals(donor))])
    return forged


def _other_seed(recs: Records, o: Original, rng: random.Random) -> Records:
    forged = records(o.play(f"{o.name}-forged", seed=rng.randrange(1000, 10**6)))
    return paste(forged, recs)


def _other_params(recs: Records, o: Original, rng: random.Random) -> Records:
    game = get_game(o.game)
    key = game.info.length_param
    params = dict(o.params, **{key: max(1, o.params[key] + rng.choice([-1, 1, 2]))})
    forged = paste(records(o.play(f"{o.name}-forged", params=params, script=[])), recs)
    if rng.random() < 0.5:
        forged[0]["params"] = recs[0]["params"]
    return forged


def _other_policy(recs: Records, o: Original, rng: random.Random) -> Records:
    choice = rng.choice(["default", "forfeit-round", "forfeit-match"])
    policy = FaultPolicy.from_mapping({"illegal": choice, "timeout": choice}, "test")
    forged = paste(records(o.play(f"{o.name}-forged", policy=policy)), recs)
    if rng.random() < 0.5:
        forged[0]["fault_policy"] = recs[0].get("fault_policy")
    return forged


def _header_field(recs: Records, o: Original, rng: random.Random) -> Records:
    h = recs[0]
    kind = rng.choice(["clock", "policy", "grace", "flush", "script", "connected", "params"])
    if kind == "clock":
        key = rng.choice(sorted(h["clock"]))
        h["clock"][key] = "cpu" if h["clock"][key] == "wall" else (
            "wall" if h["clock"][key] == "cpu" else h["clock"][key] + rng.choice([1, 1000])
        )  # fmt: skip
    elif kind == "policy":
        cls = rng.choice(sorted(h["fault_policy"]))
        h["fault_policy"][cls] = rng.choice(
            sorted({"default", "forfeit-round", "forfeit-match"} - {h["fault_policy"][cls]})
        )
    elif kind == "grace":
        h["reconnect_grace_ms"] = h.get("reconnect_grace_ms", 0) + rng.choice([1, 10000])
    elif kind == "flush":
        h["event_flush_ms"] = rng.choice([0, 1, 51, 500])
    elif kind == "script":
        h["chance_script"] = h["chance_script"] + rng.choice([1, 5, 10**4])
    elif kind == "connected":
        seat = rng.choice(h["seats"])
        seat["connected"] = not seat["connected"]
    else:
        key = rng.choice(sorted(h["params"]))
        if key != "players":
            h["params"][key] += rng.choice([-1, 1])
    return recs


def _chance(recs: Records, o: Original, rng: random.Random) -> Records:
    """Another legal outcome for one chance event, with its label."""
    game = get_game(o.game)
    state = game.initial_state(game.info.make_params(recs[0]["params"]))
    chances = [i for i, r in enumerate(recs) if r["type"] == "chance"]
    target = rng.choice(chances)
    for i, r in enumerate(recs[1:], start=1):
        if i == target:
            outcome_ = game.sample_chance(state, np.random.default_rng(rng.randrange(2**32)))
            r["outcome"], r["label"] = list(outcome_), game.chance_label(state, outcome_)
            break
        if r["type"] == "chance":
            state = game.apply_chance(state, tuple(r["outcome"]))
        elif r["type"] == "action":
            state = game.apply(state, r["action"])
        elif r["type"] == "forfeit":
            state = game.forfeit_round(state)
    return recs


def _round(recs: Records, o: Original, rng: random.Random) -> Records:
    ends = [r for r in recs if r["type"] == "round_end"]
    if not ends:
        return recs
    end = rng.choice(ends)
    if rng.random() < 0.5 and "result" in end:
        key = rng.choice(sorted(end["result"]))
        end["result"][key] = rng.choice([0, 1, 7, None, [], [0]])
    else:
        end["deltas"] = list(reversed(end["deltas"]))
    return recs


def _result(recs: Records, o: Original, rng: random.Random) -> Records:
    rows = recs[-1]["seats"]
    row = rng.choice(rows)
    kind = rng.choice(["score", "place", "outcome", "swap"])
    if kind == "score":
        row["score"] = str(int(row["score"].split("/")[0]) + rng.choice([-3, 1, 10]))
    elif kind == "place":
        row["place"] = 1 if row["place"] != 1 else len(rows)
    elif kind == "outcome":
        row["outcome"] = rng.choice(["normal", "timeouts", "forfeited", "disconnected"])
    else:
        a, b = rng.sample(range(len(rows)), 2)
        rows[a]["score"], rows[b]["score"] = rows[b]["score"], rows[a]["score"]
        rows[a]["place"], rows[b]["place"] = rows[b]["place"], rows[a]["place"]
    return recs


def _seats(recs: Records, o: Original, rng: random.Random) -> Records:
    """Who sat where: the names swapped (header and result alike), or a seat's other fields."""
    seats, rows = recs[0]["seats"], recs[-1]["seats"]
    a, b = rng.sample(range(len(seats)), 2)
    kind = rng.choice(["names", "field", "add", "drop"])
    if kind == "names":
        for objs in (seats, rows):
            objs[a]["bot_name"], objs[b]["bot_name"] = objs[b]["bot_name"], objs[a]["bot_name"]
        rows[a]["score"], rows[b]["score"] = rows[b]["score"], rows[a]["score"]  # claim theirs
        rows[a]["place"], rows[b]["place"] = rows[b]["place"], rows[a]["place"]
    elif kind == "field" and "registered" in seats[a]:
        seats[a]["registered"], seats[b]["registered"] = (
            seats[b]["registered"],
            seats[a]["registered"],
        )
    elif kind == "drop" and "elo" in seats[a]:
        del seats[a]["elo"]
    else:
        seats[a]["team"] = "forged"
    return recs


def _reveal(recs: Records, o: Original, rng: random.Random) -> Records:
    """The reveal at the end: another salt, script digest or rest of the script; or the seed."""
    kind = rng.choice(["salt", "digest", "rest", "seed", "match_id"])
    if kind == "salt":
        recs[-1]["salt"] = f"{rng.getrandbits(128):032x}"
    elif kind == "digest":
        recs[-1]["chance_script_sha256"] = f"{rng.getrandbits(256):064x}"
    elif kind == "rest":
        recs[-1]["chance_script_rest"] = [*recs[-1].get("chance_script_rest", []), [0]][-3:]
    elif kind == "seed":
        recs[0]["seed"] = str(int(recs[0]["seed"]) + rng.choice([1, 2**64]))
    else:
        recs[0]["match_id"] = "m-2"
    return recs


def _cancel(recs: Records, o: Original, rng: random.Random) -> Records:
    result = recs[-1]
    result["cancelled"] = not result["cancelled"]
    result["cancel_reason"] = "cancelled by the operator" if result["cancelled"] else ""
    return recs


def _uncommit(recs: Records, o: Original, rng: random.Random) -> Records:
    recs[0].pop("commitment", None)
    if rng.random() < 0.5:
        recs[-1].pop("salt", None)
        recs[-1].pop("chance_script_sha256", None)
    return recs


def _downgrade(recs: Records, o: Original, rng: random.Random) -> Records:
    to = rng.randrange(1, FORMAT_VERSION)
    if rng.random() < 0.3:
        recs[0]["format_version"] = to  # relabelled only
        return recs
    return old_format(recs, to, rng.choice(["keep", "drop"]))


EDITS: dict[str, Edit] = {
    "other-deals": _other_deals,
    "other-seed": _other_seed,
    "other-params": _other_params,
    "other-policy": _other_policy,
    "header": _header_field,
    "chance": _chance,
    "round": _round,
    "result": _result,
    "cancel": _cancel,
    "seats": _seats,
    "reveal": _reveal,
    "uncommit": _uncommit,
    "downgrade": _downgrade,
}
#: Edits that play a whole other match (at most one per forgery, and first).
_MATCHES = ("other-deals", "other-seed", "other-params", "other-policy")


def _unbound(recs: Records) -> bool:
    """Rewritten into an old format without any commitment: nothing in it is bound."""
    return recs[0]["format_version"] < 3 and "commitment" not in recs[0]


@pytest.mark.slow
def test_no_forgery_that_changes_the_outcome_verifies(
    originals: list[Original], tmp_path: Path
) -> None:
    rng = random.Random(20261219)
    changed = changed_caught = kept = kept_caught = unbound = identical = 0
    kinds: dict[str, int] = {}
    escaped: list[str] = []
    for n in range(FORGERIES):
        o = originals[n % len(originals)]
        chosen = rng.sample(sorted(set(EDITS) - set(_MATCHES)), rng.choice([1, 1, 2]))
        if rng.random() < 0.45:
            chosen.insert(0, rng.choice(_MATCHES))
        if "downgrade" in chosen:  # last: it strips what the others may have set
            chosen.remove("downgrade")
            chosen.append("downgrade")
        recs = copy.deepcopy(o.records)
        for kind in chosen:
            recs = EDITS[kind](recs, o, rng)
            kinds[kind] = kinds.get(kind, 0) + 1
        if recs == o.records:  # an edit that happened to change nothing
            identical += 1
            continue
        path = write(tmp_path / f"f{n}.jsonl", recs)
        status, line = verdict(path)
        other = outcome(recs) != outcome(o.records)
        changed += other
        kept += not other
        if status != 0:
            changed_caught += other
            kept_caught += not other
        elif _unbound(recs) and "(old, unbound): no commitment" in line:
            unbound += 1  # not the match the bots were told: no commitment at all
            strict = cli("replay", "verify", "--require-bound", path)
            assert strict.status == 1, strict.out
        else:
            escaped.append(f"{'+'.join(chosen)} on {o.name}: {line}")
    print(
        f"\nforgeries: {FORGERIES} ({identical} changed nothing); {changed} changed the outcome, "
        f"{changed_caught} of them failed verify; {kept} changed the file but not the outcome, "
        f"{kept_caught} of them failed verify; {unbound} verified only as old formats without "
        f"a commitment ('unbound'), {len(escaped)} verified ok; edits: {kinds}"
    )
    assert not escaped, "\n".join(escaped[:10])
    assert changed >= FORGERIES // 3  # many forgeries do change the outcome


def _wall_clock(recs: Records, rng: random.Random) -> str:
    """One edit of a field nothing in the match depends on."""
    kind = rng.choice(["started_at", "ended_at", "time_us", "peer", "bot_version", "version",
                       "detail", "wall_us"])  # fmt: skip
    if kind == "started_at":
        recs[0]["started_at"] = "2031-01-02T03:04:05.678Z"
    elif kind == "ended_at":
        recs[-1]["ended_at"] = "1999-12-31T23:59:59.999Z"
    elif kind in ("time_us", "wall_us"):
        for r in rng.sample([r for r in recs if r["type"] == "action"], 3):
            if kind in r:
                r[kind] = rng.randrange(0, 10**7)
    elif kind == "peer":
        rng.choice(recs[0]["seats"])["peer"] = "ipv4:10.9.8.7:4242"
    elif kind == "bot_version":
        rng.choice(recs[0]["seats"])["bot_version"] = "9.9.9-forged"
    elif kind == "version":
        recs[0]["croupier_version"] = "0.0.1"
    else:
        faulted = [r for r in recs if r.get("detail")]
        if faulted:
            rng.choice(faulted)["detail"] = "something else happened"
    return kind


@pytest.mark.slow
def test_edits_of_wall_clock_fields_still_verify(originals: list[Original], tmp_path: Path) -> None:
    rng = random.Random(7)
    for n in range(WALL_CLOCK_EDITS):
        o = originals[n % len(originals)]
        recs = copy.deepcopy(o.records)
        kind = _wall_clock(recs, rng)
        path = write(tmp_path / f"w{n}.jsonl", recs)
        status, line = verdict(path)
        assert status == 0, (kind, o.name, line)
        assert (
            json.loads(path.read_text().splitlines()[0])["commitment"] == o.records[0]["commitment"]
        )
