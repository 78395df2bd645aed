"""A Scauver bot that places cards for a low score and bets by a sampled chance of winning.

Every decision samples the cards it cannot see (the stock and the other hands) a few times and
completes each live player's field as well as possible with them: its own field for each of its
placement options, and every player's field for the chance of winning the showdown. It places
where the sampled completions score best; it bets when that chance is high, proceeds otherwise,
and answers a bet when the chance beats the price (raising when it is very high).

It reads only its observation and the typed legal actions; the link search is its own (the
rules are in ``docs/rules/scauver.md``). Against the random bot it wins about 94 % (± 2.4 %) of
two-player matches with the default parameters (100 matches, seats alternated, ``play_local``;
measured in ``bench/README.md``).
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from croupier_bot import Bot, Decision, MatchInfo, main, proto

from ._chips_legal import legal_entries

FLANK_CARDS = 4
FIELD_CARDS = 2 * FLANK_CARDS
SHAPES = {(2, 1): 1, (2, 2): 2, (3, 1): 3, (3, 2): 4, (3, 3): 5}
#: Every card value of the 40-card deck (A = 1 ... K = 10), four of each.
DECK_VALUES = tuple(v for v in range(1, 11) for _ in range(4))

Key = tuple[int, int, int, int, tuple[int, ...]]


@lru_cache(maxsize=1024)
def _vanguards(flank: tuple[int, ...]) -> dict[int, list[tuple[tuple[int, ...], frozenset[int]]]]:
    """A flank's vanguards (1 to 3 of its values, high to low) by their sum."""
    out: dict[int, list[tuple[tuple[int, ...], frozenset[int]]]] = {}
    for k in (1, 2, 3):
        for chosen in set(itertools.combinations(sorted(flank, reverse=True), k)):
            out.setdefault(sum(chosen), []).append((chosen, frozenset(chosen)))
    return out


@lru_cache(maxsize=300_000)
def field_key(left: tuple[int, ...], right: tuple[int, ...]) -> Key:
    """How good a complete field is (larger is better), from its flanks' values sorted
    ascending: linked beats unlinked, then lower score D x v, then the stronger link; unlinked
    fields by lower D. With D fixed the best links share one value v: the smallest that links
    (the largest when D = 0)."""
    difference = abs(sum(left) - sum(right))
    lefts, rights = _vanguards(left), _vanguards(right)
    for total in sorted(lefts.keys() & rights.keys(), reverse=difference == 0):
        best: Key | None = None
        for a, a_set in lefts[total]:
            for b, b_set in rights[total]:
                if a_set & b_set:
                    continue
                greater, lesser = (a, b) if (len(a), a) >= (len(b), b) else (b, a)
                shape = SHAPES[len(greater), len(lesser)]
                key = (1, -difference * total, total, shape, greater + lesser)
                if best is None or key > best:
                    best = key
        if best is not None:
            return best
    return (0, -difference, 0, 0, ())


def goodness(key: Key) -> float:
    """A number for averaging field keys: 1 for a zero score, falling with the score."""
    return 1.0 / (1.0 + -key[1] / 10.0) if key[0] else 0.0


@lru_cache(maxsize=200_000)
def best_completion(left: tuple[int, ...], right: tuple[int, ...], extra: tuple[int, ...]) -> Key:
    """The best key a field can reach when the ``extra`` values fill its flanks to 4 + 4."""
    best: Key | None = None
    for chosen in set(itertools.combinations(extra, FLANK_CARDS - len(left))):
        rest = list(extra)
        for v in chosen:
            rest.remove(v)
        key = field_key(tuple(sorted(left + chosen)), tuple(sorted(right + tuple(rest))))
        if best is None or key > best:
            best = key
    if best is None:
        raise ValueError(f"cannot complete {left} {right} with {extra}")
    return best


def unseen_values(obs: proto.ScauverObservation) -> list[int]:
    """Values of the cards a seat cannot see (the stock and the other hands), from its
    observation: the deck less its hand and every flank."""
    pool = list(DECK_VALUES)
    seen = [c.value for c in obs.hand]
    for seat in obs.seats:
        seen.extend(c.value for c in seat.field.left)
        seen.extend(c.value for c in seat.field.right)
    for v in seen:
        pool.remove(v)
    return pool


def _values(cards: Sequence[proto.Card40]) -> tuple[int, ...]:
    return tuple(sorted(c.value for c in cards))


class ScauverHeuristic(Bot):
    """Places for a low sampled score; bets, calls and raises by a sampled chance of winning."""

    name = "scauver-heuristic"
    version = "1"

    def __init__(self, seed: int = 0, samples: int = 12) -> None:
        self.rng = random.Random(seed)
        self.samples = samples

    def on_welcome(self, match: MatchInfo) -> None:
        if match.seed is not None:  # the match's own seed (in a session: one per match)
            self.rng.seed(match.seed)

    # -- what the bot cannot see -----------------------------------------------------------------

    def _unseen(self, obs: proto.ScauverObservation) -> list[int]:
        return unseen_values(obs)

    def _draws_left(self, obs: proto.ScauverObservation, seat: int, known: int) -> int:
        placed = len(obs.seats[seat].field.left) + len(obs.seats[seat].field.right)
        return FIELD_CARDS - placed - known

    def win_chance(self, obs: proto.ScauverObservation, me: int) -> float:
        """The share of samples in which the bot's best field beats every live opponent's."""
        unseen = self._unseen(obs)
        hand = tuple(c.value for c in obs.hand)
        mine = obs.seats[me].field
        live = [s for s, alive in enumerate(obs.table.live) if alive and s != me]
        wins = 0.0
        for _ in range(self.samples):
            pool = unseen[:]
            self.rng.shuffle(pool)
            future = self._draws_left(obs, me, len(hand))
            own_extra, pool = tuple(sorted(hand + tuple(pool[:future]))), pool[future:]
            own = best_completion(_values(mine.left), _values(mine.right), own_extra)
            beaten, tied = True, 0
            for s in live:
                field = obs.seats[s].field
                need = self._draws_left(obs, s, 0)
                extra, pool = tuple(sorted(pool[:need])), pool[need:]
                theirs = best_completion(_values(field.left), _values(field.right), extra)
                if theirs > own:
                    beaten = False
                    break
                tied += theirs == own
            if beaten:
                wins += 1.0 / (1 + tied)
        return wins / self.samples

    # -- decisions ------------------------------------------------------------------------------

    def act(self, decision: Decision) -> int:
        obs: proto.ScauverObservation = decision.observation.scauver
        me = decision.match.seat
        legal = legal_entries(decision)
        moves = {a.scauver.move for a, _ in legal}
        if moves & {
            proto.SCAUVER_MOVE_OPEN,
            proto.SCAUVER_MOVE_PLACE,
            proto.SCAUVER_MOVE_PLACE_PAIR,
        }:
            return self._place(obs, me, [a for a, _ in legal])
        return self._bet(obs, me, legal)

    def _place(
        self, obs: proto.ScauverObservation, me: int, legal: Sequence[proto.LegalAction]
    ) -> int:
        """The placement whose best completions score best on average, over one set of sampled
        future draws shared by every option (options with equal values are valued once)."""
        field = obs.seats[me].field
        unseen = self._unseen(obs)
        known = len(field.left) + len(field.right) + len(obs.hand)
        futures = [tuple(self.rng.sample(unseen, FIELD_CARDS - known)) for _ in range(self.samples)]
        values: dict[tuple[tuple[int, ...], ...], float] = {}
        best_id, best_value = legal[0].id, -1.0
        for action in legal:
            left = [c.value for c in field.left]
            right = [c.value for c in field.right]
            hand = [c.value for c in obs.hand]
            for p in action.scauver.placements:
                (left if p.flank == proto.SCAUVER_FLANK_LEFT else right).append(p.card.value)
                hand.remove(p.card.value)
            key = (tuple(sorted(left)), tuple(sorted(right)), tuple(hand))
            if key not in values:
                values[key] = sum(
                    goodness(best_completion(key[0], key[1], tuple(sorted((*hand, *future)))))
                    for future in futures
                ) / len(futures)
            if values[key] > best_value:
                best_id, best_value = action.id, values[key]
        return best_id

    def _bet(
        self, obs: proto.ScauverObservation, me: int, legal: Sequence[tuple[Any, range]]
    ) -> int:
        chance = self.win_chance(obs, me)
        chip_moves: dict[int, _Ids] = {}
        moves: dict[int, int] = {}
        for action, ids in legal:
            detail = action.scauver
            if detail.move == proto.SCAUVER_MOVE_CHIPS:
                chip_moves.setdefault(detail.chip.move, _Ids()).add(ids)
            else:
                moves[detail.move] = action.id
        bets = chip_moves.get(proto.CHIP_MOVE_BET, _Ids())
        raises = chip_moves.get(proto.CHIP_MOVE_RAISE, _Ids())
        bet = obs.table.bet if obs.table.HasField("bet") else None
        if bet is not None and proto.CHIP_MOVE_IN in chip_moves:  # answering a bet
            price = bet.level - bet.contributions[me]
            if chance > 0.7 and raises:
                return raises[-1]
            if chance * (obs.table.pot + price) >= price:
                return chip_moves[proto.CHIP_MOVE_IN][0]
            return chip_moves[proto.CHIP_MOVE_OUT][0]
        if chance > 0.6 and bets:
            return bets[-1] if chance > 0.75 else bets[len(bets) // 3]
        for passive in (proto.SCAUVER_MOVE_PROCEED, proto.SCAUVER_MOVE_NO_BET):
            if passive in moves:
                return moves[passive]
        return int(legal[0][0].id)


class _Ids:
    """Ids that come as ascending ranges, read by position without being listed."""

    def __init__(self) -> None:
        self.runs: list[range] = []
        self.count = 0

    def add(self, ids: range) -> None:
        self.runs.append(ids)
        self.count += len(ids)

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, k: int) -> int:
        if k < 0:
            k += self.count
        for run in self.runs:
            if k < len(run):
                return run[k]
            k -= len(run)
        raise IndexError(k)


if __name__ == "__main__":
    main(ScauverHeuristic(int(os.environ.get("CROUPIER_SEED", "0"))))
