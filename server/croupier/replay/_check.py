"""The checks of a replay, record by record (:class:`ReplayCheck`): each record's *format* values
that need no rules (seats, action ids, step and round numbers, score text; the header's format
and rules versions, game, parameters, seed and seats), then its *re-simulation* against the rules
(the seat to act, legality, labels, the chance outcome the seed draws, round ends with their
deltas and results, the final scores, places and fault counts) and, in format 4, the header's
terms against the commitment at the result (:mod:`._reader`'s docstring says what each failure
means)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import numpy as np

from croupier.arbiter import (
    Fault,
    FaultClass,
    FaultPolicy,
    Outcome,
    Policy,
    SeatStats,
    deal_commitment,
    fault_class,
    forfeit_places,
    header_terms,
    match_commitment,
    script_digest,
)
from croupier.errors import (
    ConfigError,
    IllegalActionError,
    ReplayFormatError,
    ReplayMismatchError,
)
from croupier.games import CHANCE, TERMINAL, Game, get_game, get_spec
from croupier.replay._records import (
    _BOUND,
    _COMMITTED,
    _MISSING,
    Record,
    _later,
    _short,
    _typed,
)
from croupier.replay._writer import FORMAT, READABLE_VERSIONS, score_text

_FAULTS = frozenset(f.value for f in Fault)
_OUTCOMES = frozenset(o.value for o in Outcome)
_REJECTED = frozenset({"illegal_action", "stale_request", "unexpected_message"})
_GONE = frozenset({"disconnect", "no_show", "crash"})
#: ``ReplayCheck.conceding`` of a seat that concedes to the end of the match.
_ALWAYS = -1
#: An exact score as the writer writes it (``docs/replay-format.md``, "Scores").
_SCORE = re.compile(r"-?(0|[1-9][0-9]{0,30})(/[1-9][0-9]{0,30})?")
#: Bounds on numbers no real replay comes near (a chance outcome's entries, its length, times).
_OUTCOME_MAX, _OUTCOME_LEN, _BIG = 1 << 16, 1 << 12, 1 << 63
#: A format 4 seed: decimal text without a sign or leading zeros, below 2**128.
_SEED = re.compile(r"0|[1-9][0-9]{0,38}")
_SEED_MAX = 1 << 128
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX32 = re.compile(r"[0-9a-f]{32}")
#: What a format 4 commitment binds, as verify's ``ok`` line names it (docs/replay-format.md).
BINDS = ("deals", "script", "game", "params", "seats", "clock", "policy", "reconnect", "flush")


class ReplayCheck:
    """Checks a replay record by record, format then re-simulation (the module docstring);
    :meth:`feed` returns the state after each record. Used by :func:`read_replay` and by
    :func:`follow` (a file that is still being written)."""

    def __init__(self, header: Record) -> None:
        data = header.data
        if header.type != "header":
            raise ReplayFormatError("the first record must be the header", header.line)
        self.game = game = self._check_header(data, header.line)
        self.format_version: int = data["format_version"]
        #: The header as every caller gets it: the seed an int in every format.
        self.header = data = {**data, "seed": int(data["seed"])}
        self.bound: tuple[str, ...] = ()  # what the commitment was checked to bind
        self.state = self.initial = game.initial_state(game.info.make_params(data["params"]))
        self.seats = game.num_players(self.state)
        if len(data["seats"]) != self.seats:
            raise ReplayFormatError(
                f"{len(data['seats'])} seats in the header, the params give {self.seats}",
                header.line,
            )
        if [s["seat"] for s in data["seats"]] != list(range(self.seats)):
            raise ReplayFormatError("the header must list every seat in order", header.line)
        #: Seats whose bot never joined (format 4: their fault opens the records).
        self.absent = [not s["connected"] for s in data["seats"]]
        self.started = False  # a step (or the result) has been read
        self.ending = False  # a fault of a joined seat, recorded after the last step, was read
        self.terms: dict[str, Any] = {}
        if self.format_version >= _BOUND:
            self.terms = self._check_bound_header(data, header.line)
        else:
            self._check_since("header", data, header.line, self.format_version)
        self.round_record = get_spec(game.info.name).round_record
        # Chance outcomes are redrawn from the seed, except the first ``chance_script`` ones,
        # which the match was given (duplicate play).
        self.rng = np.random.default_rng(data["seed"])
        self.scripted: int = data["chance_script"]
        self.script: list[list[int]] = []  # the scripted outcomes, for the commitment
        self.chance_events = 0
        self.step = 0
        self.rounds = 0
        self.round_start = game.returns(self.state)
        self.round_due = False  # a deal just ended: the next record must be its round_end
        self.over = False  # the result record has been read
        self.results: list[dict[str, Any]] = []  # each finished round's result
        #: Each seat's fault counts, kept by the arbiter's own rules (``SeatStats``).
        self.stats = [SeatStats() for _ in range(self.seats)]
        #: The fault policy the match played under (format 3; before it, always ``default``).
        self.policy = self._check_policy(data, header.line)
        #: Per seat, as the arbiter keeps it: None, the round it forfeited, or _ALWAYS.
        self.conceding: list[int | None] = [None] * self.seats
        grace = data.get("reconnect_grace_ms", 0)
        if not isinstance(grace, int) or isinstance(grace, bool) or not 0 <= grace < _BIG:
            raise ReplayFormatError("header: reconnect_grace_ms must be 0 or more", header.line)
        flush = data.get("event_flush_ms", 50)
        if not isinstance(flush, int) or isinstance(flush, bool) or not 0 <= flush < _BIG:
            raise ReplayFormatError("header: event_flush_ms must be 0 or more", header.line)
        #: The reconnect window; per seat, whether its bot is away (dropped, not back yet).
        self.grace_ms: int = grace
        self.away = [False] * self.seats
        self._checks: dict[str, Callable[[Record], None]] = {
            "chance": self._chance,
            "action": self._action,
            "fault": self._fault,
            "forfeit": self._forfeit,
            "dropped": self._dropped,
            "rejoined": self._rejoined,
            "round_end": self._round_end,
            "result": self._result,
        }

    @staticmethod
    def _check_header(data: dict[str, Any], line: int) -> Game[Any]:
        if data["format"] != FORMAT:
            raise ReplayFormatError(f"not a {FORMAT} file (format {_short(data['format'])})", line)
        version = data["format_version"]
        newest = max(READABLE_VERSIONS)
        if version > newest:
            raise ReplayFormatError(
                f"{FORMAT} format v{version} is newer than this Croupier reads "
                f"(v{min(READABLE_VERSIONS)} to v{newest}): read it with a newer Croupier",
                line,
            )
        if version not in READABLE_VERSIONS:
            raise ReplayFormatError(f"unknown {FORMAT} format version {version}", line)
        try:
            game = get_game(data["game"])
        except ConfigError as exc:
            raise ReplayFormatError(str(exc), line) from None
        recorded, ours = data["rules_version"], game.info.version
        if recorded != ours:
            age = "newer" if recorded > ours else "older"
            raise ReplayFormatError(
                f"recorded with {game.info.name} rules v{recorded}, {age} than this Croupier's "
                f"v{ours}: a replay re-simulates only under the rules it was played by",
                line,
            )
        try:
            game.info.make_params(data["params"])
        except ConfigError as exc:
            raise ReplayFormatError(str(exc), line) from None
        seed = data["seed"]
        if isinstance(seed, str) and version < _BOUND:
            raise ReplayMismatchError(
                f"format_version {version}, but the seed is decimal text, which only format "
                f"{_BOUND} writes: a replay relabelled as older",
                line,
            )
        if isinstance(seed, str) and not (_SEED.fullmatch(seed) and int(seed) < _SEED_MAX):
            raise ReplayFormatError(f"header: seed {_short(seed)} is not a seed in decimal", line)
        if isinstance(seed, int) and version >= _BOUND:
            raise ReplayFormatError(
                f"header: format {version} writes the seed as decimal text, not a number", line
            )
        for key in ("seed", "chance_script", "protocol_version"):
            if isinstance(data[key], int) and not 0 <= data[key] < _BIG:
                raise ReplayFormatError(f"header: {key} {_short(data[key])} is out of range", line)
        return game

    @staticmethod
    def _check_since(kind: str, data: dict[str, Any], line: int, version: int) -> None:
        """A record of an old format holds nothing a later format added (else it was
        relabelled as older: a mismatch)."""
        found = _later(kind, data, version)
        if found is not None:
            what, since = found
            raise ReplayMismatchError(
                f"format_version {version}, but {what}, which came with format {since}: "
                "a replay relabelled as older",
                line,
            )

    def _check_bound_header(self, data: dict[str, Any], line: int) -> dict[str, Any]:
        """A format 4 header: its commitment and its terms (``_commit.TERMS``), as typed."""
        for key, typ in (("clock", dict), ("fault_policy", dict), ("reconnect_grace_ms", int),
                         ("event_flush_ms", int), ("chance_script_sha256", str)):  # fmt: skip
            if not _typed(data.get(key, _MISSING), typ):
                raise ReplayFormatError(f"header: field {key!r} missing or of the wrong type", line)
        if not _HEX64.fullmatch(data["chance_script_sha256"]):
            raise ReplayFormatError("header: chance_script_sha256 must be 64 hex digits", line)
        for seat in data["seats"]:
            if not isinstance(seat.get("peer"), str):
                raise ReplayFormatError("header: a seat without its peer", line)
        committed = data.get("commitment")
        if committed is None:
            raise ReplayMismatchError(
                f"a format {data['format_version']} replay without its commitment (every "
                "match since format 4 has one: it was removed)",
                line,
            )
        if not isinstance(committed, str) or not _HEX64.fullmatch(committed):
            raise ReplayFormatError("header: commitment must be 64 hex digits", line)
        deals = data.get("deal_commitment")
        if not isinstance(deals, str) or not _HEX64.fullmatch(deals):
            raise ReplayFormatError("header: deal_commitment must be 64 hex digits", line)
        return header_terms(data)

    @staticmethod
    def _check_policy(data: dict[str, Any], line: int) -> FaultPolicy:
        raw = data.get("fault_policy")
        if raw is None and data["format_version"] < 3:
            return FaultPolicy()
        if not isinstance(raw, dict) or set(raw) != {c.value for c in FaultClass}:
            raise ReplayFormatError(
                "header: fault_policy must name a policy for each of "
                + ", ".join(c.value for c in FaultClass),
                line,
            )
        try:
            return FaultPolicy.from_mapping(raw, "header: fault_policy")
        except ConfigError as exc:
            raise ReplayFormatError(str(exc), line) from None

    def _fault_policy(self, rec: Record, fault: str, state: Any) -> Policy:
        """Check the policy a record says was applied to ``fault`` against the header's, and
        apply it as the arbiter does (``Match._apply_policy``)."""
        if fault not in _FAULTS:
            raise ReplayFormatError(f"unknown fault {_short(fault)}", rec.line)
        kind = Fault(fault)
        policy = self.policy.of(kind)
        recorded = rec.data.get("policy", "default" if self.format_version < 3 else None)
        if recorded != policy.value:
            raise self._fail(
                f"{fault} recorded with policy {_short(recorded)}, but the match's "
                f"{fault_class(kind).value} policy is {policy.value}",
                rec,
            )
        seat, stats = rec.data["seat"], self.stats[rec.data["seat"]]
        if policy.forfeits:
            stats.forfeits += 1
            if policy is Policy.FORFEIT_MATCH:
                stats.forfeited_match = True
            gone = fault_class(kind) in (FaultClass.DISCONNECT, FaultClass.CRASH)
            if policy is Policy.FORFEIT_MATCH or gone or state is None:
                self.conceding[seat] = _ALWAYS
            else:
                self.conceding[seat] = self.game.round_index(state)
        return policy

    def _concedes(self, seat: int, state: Any) -> bool:
        conceding = self.conceding[seat]
        if conceding is None:
            return False
        if conceding == _ALWAYS or conceding == self.game.round_index(state):
            return True
        self.conceding[seat] = None
        return False

    # -- one record -----------------------------------------------------------------------------

    def feed(self, rec: Record) -> Any:
        """Check one record after the header; return the state after it."""
        data, kind = rec.data, rec.type
        if kind == "header":
            raise ReplayFormatError("a second header", rec.line)
        if self.over:
            raise ReplayFormatError(f"a {kind} record after the result", rec.line)
        if data["step"] != self.step:
            raise ReplayFormatError(
                f"step {_short(data['step'])} where {self.step} was due "
                "(a record is missing, repeated or out of order)",
                rec.line,
            )
        if self.round_due and kind in ("chance", "action", "forfeit", "result"):
            raise self._fail(
                f"a deal ended at step {self.step} but its round_end record is missing", rec
            )
        if self.format_version < _BOUND:
            self._check_since(kind, data, rec.line, self.format_version)
        elif kind not in ("fault", "dropped", "rejoined"):
            self._bound_order(kind, rec)
        self._checks[kind](rec)
        return self.state

    def _bound_order(self, kind: str, rec: Record) -> None:
        """Format 4: the seats whose bot never joined (``connected`` false) have their fault
        first, before any step; faults of joined seats found at the end come after the last
        step (the arbiter records no other fault record)."""
        if not self.started:
            self.started = True
            missing = [s for s in range(self.seats) if self.absent[s] and not self._gone(s)]
            if missing:
                raise self._fail(
                    f"seat {missing[0]} is not connected, but no fault says its bot never "
                    "joined (no_show or crash at step 0)",
                    rec,
                )
        if self.ending and kind != "result":
            raise self._fail(
                f"{'an' if kind[0] in 'aeiou' else 'a'} {kind} record after a fault recorded "
                "at the match's end (after its last step)",
                rec,
            )

    def _gone(self, seat: int) -> bool:
        return self.stats[seat].disconnected

    def _seat(self, rec: Record) -> int:
        seat = rec.data["seat"]
        if seat not in range(self.seats):
            raise ReplayFormatError(
                f"seat {_short(seat)} is not a seat of the match (0..{self.seats - 1})", rec.line
            )
        return int(seat)

    @staticmethod
    def _fail(message: str, rec: Record) -> ReplayMismatchError:
        return ReplayMismatchError(message, rec.line)

    def _chance(self, rec: Record) -> None:
        game, state = self.game, self.state
        outcome = tuple(rec.data["outcome"])
        if len(outcome) > _OUTCOME_LEN or not all(0 <= x < _OUTCOME_MAX for x in outcome):
            raise ReplayFormatError("chance record: an outcome out of range", rec.line)
        if game.current_player(state) != CHANCE:
            raise self._fail("a chance outcome where no chance event is due", rec)
        try:
            label = game.chance_label(state, outcome)
            self.state = game.apply_chance(state, outcome)
        except (IllegalActionError, TypeError, ValueError, IndexError, KeyError) as exc:
            raise self._fail(f"illegal chance outcome: {exc}", rec) from None
        if rec.data["label"] != label:
            raise self._fail(
                f"chance label {_short(rec.data['label'])} but the outcome gives {label!r}", rec
            )
        if self.chance_events >= self.scripted and outcome != game.sample_chance(state, self.rng):
            raise self._fail("this chance outcome is not the one the match seed draws", rec)
        if self.chance_events < self.scripted:
            self.script.append(list(outcome))
        self.chance_events += 1
        self.step += 1

    def _action(self, rec: Record) -> None:
        game, state, data = self.game, self.state, rec.data
        seat, action, fault = self._seat(rec), data["action"], data["fault"]
        if action not in range(game.info.num_distinct_actions):
            raise ReplayFormatError(
                f"action {_short(action)} is not an action id of {game.info.name} "
                f"(0..{game.info.num_distinct_actions - 1})",
                rec.line,
            )
        if not 0 <= data["time_us"] < _BIG:
            raise ReplayFormatError(f"time_us {_short(data['time_us'])} is out of range", rec.line)
        if fault is not None and fault not in _FAULTS:
            raise ReplayFormatError(f"unknown fault {_short(fault)}", rec.line)
        conceded = data.get("conceded", False)
        if not isinstance(conceded, bool):
            raise ReplayFormatError("action record: conceded must be true or false", rec.line)
        player = game.current_player(state)
        if player != seat:
            who = "chance" if player == CHANCE else "nobody" if player == TERMINAL else player
            raise self._fail(f"seat {seat} acts where {who} is due", rec)
        if not game.is_legal(state, action):  # arithmetic: no list of every amount
            raise self._fail(f"action {action} is not legal here", rec)
        label = game.action_label(state, action)
        if data["label"] != label:
            raise self._fail(
                f"action label {_short(data['label'])} but action {action} is {label!r}", rec
            )
        stats = self.stats[seat]
        concedes = self._concedes(seat, state)
        if concedes != conceded or (concedes and fault is not None):
            why = "has forfeited" if concedes else "has not forfeited"
            raise self._fail(f"seat {seat} {why} the round; conceded is {conceded}", rec)
        policy = self._fault_policy(rec, fault, state) if fault is not None else None
        if concedes or (policy is not None and policy.forfeits):
            if game.forfeit_round(state) is not None:
                raise self._fail(f"seat {seat} forfeits: a forfeit record is due here", rec)
            if action != game.concede_action(state):
                why = f"after a {fault} ({policy.value if policy else ''})" if fault else ""
                raise self._fail(
                    f"seat {seat} has forfeited {why}: its concede move is due, not {label}", rec
                )
        elif (fault is not None or stats.disconnected) and action != game.default_action(state):
            why = f"after a {fault}" if fault else "for a seat whose bot has gone"
            raise self._fail(f"{why} the default action is due, not {label}", rec)
        if self.away[seat] and fault is None and not conceded:
            raise self._fail(f"seat {seat} answers while its bot is away", rec)
        stats.timeouts += fault == "timeout"
        stats.rejected += fault in _REJECTED
        stats.disconnected |= fault in _GONE
        self.away[seat] &= fault not in _GONE
        before = game.round_index(state)
        self.state = game.apply(state, action)
        self.step += 1
        self.round_due = (
            game.current_player(self.state) == TERMINAL or game.round_index(self.state) != before
        )

    def _fault(self, rec: Record) -> None:
        seat, fault = self._seat(rec), rec.data["fault"]
        if fault not in _FAULTS:
            raise ReplayFormatError(f"unknown fault {_short(fault)}", rec.line)
        if fault not in _GONE:
            raise self._fail(f"a fault record for {fault}, which happens only at a decision", rec)
        if self.format_version >= _BOUND:
            self._bound_fault(seat, fault, rec)
        self._fault_policy(rec, fault, None)
        self.stats[seat].disconnected = True
        self.away[seat] = False

    def _bound_fault(self, seat: int, fault: str, rec: Record) -> None:
        """Format 4: a fault record is a seat's bot that never joined (first, at step 0, for a
        seat that is not ``connected``), or one that left after its last decision (at the end,
        for a joined seat); each seat's bot goes once."""
        if self._gone(seat):
            raise self._fail(f"seat {seat}'s bot has gone already: a second {fault}", rec)
        if self.absent[seat]:
            if self.started or self.ending or fault == "disconnect":
                raise self._fail(
                    f"seat {seat} is not connected: only its no_show (or crash) at step 0, "
                    f"before any other record, can say so, not this {fault}",
                    rec,
                )
        elif fault == "no_show":
            raise self._fail(f"a no_show for seat {seat}, which is connected", rec)
        else:
            self.ending = True

    def _dropped(self, rec: Record) -> None:
        """A seat's connection dropped inside a match that lets bots come back."""
        seat = self._seat(rec)
        if self.grace_ms <= 0:
            raise self._fail("a dropped connection in a match without a reconnect window", rec)
        if self.away[seat] or self.stats[seat].disconnected:
            why = "is away already" if self.away[seat] else "has gone"
            raise self._fail(f"seat {seat} drops, but it {why}", rec)
        self.away[seat] = True

    def _rejoined(self, rec: Record) -> None:
        """A seat's bot came back within the window: it must have dropped, and not timed
        out of the window (then a disconnect fault ends the seat)."""
        seat = self._seat(rec)
        if not self.away[seat]:
            raise self._fail(f"seat {seat} rejoins, but it had not dropped", rec)
        if not 0 <= rec.data["gap_us"] < _BIG:
            raise ReplayFormatError(
                f"gap_us {_short(rec.data['gap_us'])} is out of range", rec.line
            )
        self.away[seat] = False

    def _forfeit(self, rec: Record) -> None:
        """The rules ended the round as lost for the seat (``forfeit_round``)."""
        game, state, data = self.game, self.state, rec.data
        seat, fault = self._seat(rec), data["fault"]
        if not 0 <= data["time_us"] < _BIG:
            raise ReplayFormatError(f"time_us {_short(data['time_us'])} is out of range", rec.line)
        if game.current_player(state) != seat:
            raise self._fail(f"seat {seat} forfeits where it is not to act", rec)
        concedes = self._concedes(seat, state)
        if fault is None and not concedes:
            raise self._fail(f"a forfeit by seat {seat}, which has no fault to forfeit for", rec)
        if fault is not None:
            if concedes:
                raise self._fail(f"seat {seat} had forfeited already: no new fault", rec)
            if not self._fault_policy(rec, fault, state).forfeits:
                raise self._fail(f"a forfeit after a {fault}, whose policy is default", rec)
        after = game.forfeit_round(state)
        if after is None:
            raise self._fail(f"{game.info.name} has no forfeit of the round here", rec)
        stats = self.stats[seat]
        stats.timeouts += fault == "timeout"
        stats.rejected += fault in _REJECTED
        stats.disconnected |= fault in _GONE
        before = game.round_index(state)
        self.state = after
        self.step += 1
        self.round_due = game.current_player(after) == TERMINAL or game.round_index(after) != before

    def _round_end(self, rec: Record) -> None:
        data = rec.data
        if data["round"] != self.rounds:
            raise ReplayFormatError(
                f"round {_short(data['round'])} where round {self.rounds} was due", rec.line
            )
        if len(data["deltas"]) != self.seats or not all(
            _SCORE.fullmatch(d) for d in data["deltas"]
        ):
            raise ReplayFormatError(
                f"round_end record: deltas must be {self.seats} scores", rec.line
            )
        if self.format_version >= 2 and not isinstance(data.get("result"), dict):
            raise ReplayFormatError(
                "round_end record: field 'result' missing or not an object", rec.line
            )
        if not self.round_due:
            raise self._fail("a round_end record where no deal ended", rec)
        self.round_due = False
        totals = self.game.returns(self.state)
        deltas = [score_text(t - s) for t, s in zip(totals, self.round_start, strict=True)]
        self.round_start = totals
        if data["deltas"] != deltas:
            raise self._fail(f"round deltas {data['deltas']} but the play gives {deltas}", rec)
        expected = self.round_record(self.game.observe(self.state, None))
        self.results.append(expected)
        if self.format_version >= 2 and data["result"] != expected:
            key = next(
                (k for k in {*expected, *data["result"]}
                 if data["result"].get(k, ...) != expected.get(k, ...)),
                "?",
            )  # fmt: skip
            raise self._fail(
                f"round result {key!r} is {_short(data['result'].get(key))} but the play "
                f"gives {_short(expected.get(key))}",
                rec,
            )
        self.rounds += 1

    def _reveal(self, rec: Record) -> None:
        """The commitment the bots were told at Welcome matches the seed and the salt revealed
        at the end: format 4 with the header's terms and the whole chance script (the
        outcomes played and ``chance_script_rest``); formats 2 and 3 with the script's digest
        (checked against the outcomes when the match played them all)."""
        if self.format_version >= _BOUND:
            self._reveal_terms(rec)
            return
        committed = self.header.get("commitment")
        if committed is None:  # a replay from before commit-reveal
            if self.format_version >= _COMMITTED:
                raise self._fail(
                    f"a format {self.format_version} replay without its commitment (every "
                    f"match since format {_COMMITTED} has one: it was removed)",
                    rec,
                )
            return
        salt, digest = rec.data.get("salt"), rec.data.get("chance_script_sha256")
        if not isinstance(salt, str) or not isinstance(digest, str):
            raise self._fail("the header has a commitment but the result reveals no salt", rec)
        bound = ["deals"]
        if len(self.script) == self.scripted:
            if script_digest(self.script) != digest:
                raise self._fail("the revealed chance script digest is not the script played", rec)
            bound.append("script")
        if deal_commitment(self.header["seed"], salt, digest) != committed:
            raise self._fail("the revealed seed and salt do not match the commitment", rec)
        self.bound = tuple(bound)

    def _reveal_terms(self, rec: Record) -> None:
        data, header = rec.data, self.header
        salt, digest = data.get("salt"), data.get("chance_script_sha256")
        rest = data.get("chance_script_rest")
        if not isinstance(salt, str) or not _HEX32.fullmatch(salt):
            raise self._fail("the result does not reveal the salt (32 hex digits)", rec)
        if digest != header["chance_script_sha256"]:
            raise self._fail("the result's chance_script_sha256 is not the header's", rec)
        if not (
            isinstance(rest, list)
            and all(
                isinstance(o, list)
                and len(o) <= _OUTCOME_LEN
                and all(type(x) is int and 0 <= x < _OUTCOME_MAX for x in o)
                for o in rest
            )
        ):
            raise ReplayFormatError(
                "result: chance_script_rest must be a list of outcomes", rec.line
            )
        if rest and self.chance_events >= self.scripted:
            raise self._fail("chance_script_rest holds outcomes, but the match played them", rec)
        played = self.script  # the scripted outcomes the match reached
        if len(played) + len(rest) != self.scripted or script_digest(played + rest) != digest:
            raise self._fail(
                f"the chance script played and revealed ({len(played)} + {len(rest)} outcomes) "
                f"is not the committed script of {self.scripted}",
                rec,
            )
        if match_commitment(header["seed"], salt, self.terms) != header["commitment"]:
            raise self._fail(
                "the header's terms, seed and revealed salt do not match the commitment", rec
            )
        if deal_commitment(header["seed"], salt, digest) != header["deal_commitment"]:
            raise self._fail(
                "the seed, the revealed salt and the script do not match the deal commitment", rec
            )
        self.bound = BINDS

    def _bound_result(self, rec: Record) -> None:
        """Format 4: how the match ended follows from the play, and the names in the result
        are the header's (each bot was told them in MatchEnd)."""
        data = rec.data
        over = self.game.current_player(self.state) == TERMINAL
        if data["cancelled"] and over:
            raise self._fail("the result says cancelled, but the match was played to its end", rec)
        reason = data.get("cancel_reason")
        if not isinstance(reason, str) or bool(reason) != data["cancelled"]:
            raise self._fail(
                f"cancel_reason {_short(reason)} for a match that "
                + ("was cancelled" if data["cancelled"] else "was not cancelled"),
                rec,
            )
        for row, seat in zip(data["seats"], self.header["seats"], strict=True):
            if row["bot_name"] != seat["bot_name"]:
                raise self._fail(
                    f"seat {row['seat']} is {_short(row['bot_name'])} in the result, "
                    f"{_short(seat['bot_name'])} in the header",
                    rec,
                )

    def _result(self, rec: Record) -> None:
        data, game = rec.data, self.game
        rows = data["seats"]
        if [r["seat"] for r in rows] != list(range(self.seats)):
            raise ReplayFormatError("the result must list every seat in order", rec.line)
        for row in rows:
            if not _SCORE.fullmatch(row["score"]) or row["place"] not in range(1, self.seats + 1):
                raise ReplayFormatError(f"result: seat {row['seat']}'s score or place", rec.line)
            if row["outcome"] not in _OUTCOMES or row["timeouts"] < 0 or row["rejected"] < 0:
                raise ReplayFormatError(f"result: seat {row['seat']}'s outcome or counts", rec.line)
        self.over = True
        if not data["cancelled"] and game.current_player(self.state) != TERMINAL:
            raise self._fail("result recorded before the match is over", rec)
        if self.format_version >= _BOUND:
            self._bound_result(rec)
        scores = game.returns(self.state)
        recorded = [r["score"] for r in rows]
        if recorded != [score_text(s) for s in scores]:
            raise self._fail(
                f"scores {recorded} but the play gives {[str(s) for s in scores]}", rec
            )
        forfeited = tuple(s.forfeited_match for s in self.stats)
        if [r["place"] for r in rows] != list(forfeit_places(game.ranking(self.state), forfeited)):
            raise self._fail(
                f"places {[r['place'] for r in rows]} do not follow from the play", rec
            )
        self._reveal(rec)
        for seat, row in enumerate(rows):
            stats = self.stats[seat]
            expected = (stats.outcome().value, stats.timeouts, stats.rejected, stats.forfeits)
            forfeits = row.get("forfeits", 0 if self.format_version < 3 else None)
            if (row["outcome"], row["timeouts"], row["rejected"], forfeits) != expected:
                raise self._fail(
                    f"seat {seat}: outcome {row['outcome']}, {row['timeouts']} timeouts, "
                    f"{row['rejected']} rejected, {_short(forfeits)} forfeits, but its faults "
                    f"give {expected}",
                    rec,
                )
