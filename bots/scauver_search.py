"""The Scauver search bot: determinized sampling with rollouts (``croupier_bots._search``).

Its placements are sampled: for each placement option (the opening has up to 80) it completes
its field at best over many sampled futures of the cards it cannot see, and in each future it
also completes every other live field with that future's cards (a seat that has not opened yet:
eight unseen cards). An option is worth the share of those showdowns it wins, plus half its mean
goodness (:func:`sample_futures`, :func:`showdown_value`). The futures follow the decision's
clock: one per :data:`MOVES_PER_FUTURE` moves of the search's budget (100 at 2,000 moves, 250
under the default 2,000 ms move time), where the heuristic takes twelve and values a field by its
own score alone (``croupier_bots.scauver_heuristic``).

Heads-up (two live players, the default table) it answers a bet by the chance that bet leaves
it (:func:`answer_chance`): over sampled deals of the cards it cannot see, each weighted by how
likely the bettor's bet was in it, the bettor played as the heuristic (the cap at a sampled
chance above 0.75, a third of the range above 0.6, that chance estimated from what the bettor
can see). A bettor that knows it wins bets; a seat that counts only its own cards calls. It
then answers, and bets at its own turns, by the heuristic's rules on that chance.

With three or more live players its betting is searched with rollouts: at each betting step,
final bet and answer it samples the cards it cannot see (the others' hands and the stock's
order) from what it has seen, weighs each sample by how well the rollout policy explains the
others' bets, plays each candidate out to the end of the round in every sample and keeps the
best mean chip result (bets and raises at their smallest, a middle and their largest amount),
anchored on the heuristic: it plays the heuristic's move unless the search finds one at least
:attr:`ScauverSearch.margin` chips better. Heads-up the rollouts misjudge the heuristic's answers
and were measured worse than the heuristic's betting (``bench/README.md``: unanchored, 22 a
round below the heuristic at 5,000 moves; anchored, with these placements and from seed 1001,
+0.6 a round after 300 sets, where the heuristic's betting with them made +14.4 after 200).

Rollout policy (every seat, on the full state, reading its own cards and the table only): place
the card (and flank) whose field, completed at best with typical values for the cards still to
come, scores best; bet the most the cap allows when its field promises to beat every other
field it can see, raise likewise, stay in when the promise beats the price, else go out.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cache
from typing import Any

import numpy as np

from croupier.games import chips
from croupier.games.cards40 import VALUES
from croupier.games.scauver.rules import GAME as RULES
from croupier.games.scauver.rules import (
    NO_BET,
    OPEN,
    OPEN_COMBOS,
    PLACE,
    PLACE_PAIR,
    PROCEED,
    Phase,
    ScauverState,
)
from croupier_bot import Decision, MatchInfo, main, proto

from ._chips_search import chip_candidates, chip_kind
from ._search import SearchBot, budget_for
from .scauver_heuristic import (
    FIELD_CARDS,
    Key,
    ScauverHeuristic,
    _values,
    best_completion,
    goodness,
    unseen_values,
)

#: The values a rollout assumes for cards still to be drawn (the deck's mean is 5.5).
FILLER = (5, 6, 5, 6, 5, 6, 5, 6)


@cache
def promise(left: tuple[int, ...], right: tuple[int, ...], hand: tuple[int, ...]) -> float:
    """How good a field can still become (0..1): its best completion with ``hand`` and typical
    values for the cards still to come."""
    need = 8 - len(left) - len(right) - len(hand)
    extra = tuple(sorted((*hand, *FILLER[: max(need, 0)])))
    if need < 0:
        extra = tuple(sorted(hand))[: 8 - len(left) - len(right)]
    return goodness(best_completion(left, right, extra))


def _field_values(state: ScauverState, seat: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    left, right = state.fields[seat]
    return tuple(sorted(VALUES[c] for c in left)), tuple(sorted(VALUES[c] for c in right))


def _hand_values(state: ScauverState, seat: int) -> tuple[int, ...]:
    return tuple(sorted(VALUES[c] for c in state.hands[seat]))


def place(state: ScauverState, player: int) -> int:
    """The placement whose field promises most (:func:`promise`)."""
    left, right = _field_values(state, player)
    hand = state.hands[player]
    best, best_value = -1, -1.0
    for action in RULES.legal_actions(state):
        if PLACE <= action < PLACE_PAIR:
            card, flank = divmod(action - PLACE, 2)
            placed = [(card, flank)]
        elif PLACE_PAIR <= action < OPEN:
            low, high = divmod(action - PLACE_PAIR, 40)
            placed = [(low, 0), (high, 1)]
        else:
            placed = _opening(hand, action)
        new_left, new_right = list(left), list(right)
        rest = list(hand)
        for card, flank in placed:
            (new_left if flank == 0 else new_right).append(VALUES[card])
            rest.remove(card)
        value = promise(
            tuple(sorted(new_left)),
            tuple(sorted(new_right)),
            tuple(sorted(VALUES[c] for c in rest)),
        )
        if value > best_value:
            best, best_value = action, value
    return best


def _opening(hand: tuple[int, ...], action: int) -> list[tuple[int, int]]:
    combo, mask = divmod(action - OPEN, 8)
    return [(hand[pos], (mask >> j) & 1) for j, pos in enumerate(OPEN_COMBOS[combo])]


def chance(state: ScauverState, me: int) -> float:
    """A rough chance to win the showdown: 0.8 when the seat's field promises more than every
    other live field it can see (completed with typical values), less the more it trails."""
    mine = promise(*_field_values(state, me), _hand_values(state, me))
    live = state.table.live
    p = 0.8
    for o in range(len(live)):
        if o != me and live[o]:
            theirs = promise(*_field_values(state, o), ())
            if theirs >= mine:
                p -= 0.3 + 0.4 * min(1.0, theirs - mine)
    return max(0.05, p)


def rollout_policy(state: ScauverState, player: int, rng: np.random.Generator) -> int:
    """A fast Scauver move for ``player`` on the full state."""
    table = state.table
    if table.bet is not None:
        p = chance(state, player)
        bet = table.bet
        answers = chips.answer_actions(table)
        if p > 0.7 and len(answers) > 2:
            return answers[-1]
        price = bet.level - bet.contrib[player]
        return chips.IN if p * (chips.pot(table) + price) >= price else chips.OUT
    phase = state.phase
    if phase is Phase.BET or phase is Phase.FINAL_BET:
        p = chance(state, player)
        bets = chips.bet_actions(table)
        if p > 0.6 and bets:
            return bets[-1] if p > 0.75 else bets[len(bets) // 3]
        return PROCEED if phase is Phase.BET else NO_BET
    return place(state, player)


#: Sampled futures per placement decision: one per this many moves of the decision's budget
#: (:func:`croupier_bots._search.budget_for`), within :data:`MIN_FUTURES` and :data:`MAX_FUTURES`.
MOVES_PER_FUTURE = 20
MIN_FUTURES, MAX_FUTURES = 12, 1000
#: How much a field's goodness adds to a placement's share of showdowns won (a tie-break, and
#: a guide when nobody's field is known yet).
GOODNESS_WEIGHT = 0.5

Future = tuple[tuple[int, ...], list[Key]]

#: Worlds an answer samples: this share of a placement's futures.
ANSWER_WORLDS_SHARE = 0.6
#: Samples of the bettor's own estimate in each world (as the heuristic's twelve, fewer).
ANSWER_INNER = 10
#: The weight of a world in which the heuristic would not have bet.
ANSWER_NOISE = 0.1


def futures_for(move_time_ms: int, moves_per_ms: float) -> int:
    """How many futures a placement samples under a move time (``CROUPIER_SEARCH_BUDGET``, if
    set, fixes the budget it follows)."""
    budget = budget_for(move_time_ms, moves_per_ms)
    return max(MIN_FUTURES, min(MAX_FUTURES, budget // MOVES_PER_FUTURE))


def sample_futures(obs: proto.ScauverObservation, me: int, count: int, rng: Any) -> list[Future]:
    """``count`` futures drawn from the cards seat ``me`` cannot see (read from its observation
    alone): each the values the seat will still draw, and every other live seat's best completed
    field with its hidden cards and draws (a seat that has not opened: eight unseen cards)."""
    unseen = unseen_values(obs)
    field = obs.seats[me].field
    mine = FIELD_CARDS - len(field.left) - len(field.right) - len(obs.hand)
    others = []
    for seat, alive in enumerate(obs.table.live):
        if alive and seat != me:
            theirs = obs.seats[seat].field
            left, right = _values(theirs.left), _values(theirs.right)
            others.append((left, right, FIELD_CARDS - len(left) - len(right)))
    drawn = mine + sum(need for _, _, need in others)
    out: list[Future] = []
    for _ in range(count):
        cards = rng.sample(unseen, drawn)
        rest = cards[mine:]
        keys = []
        for left, right, need in others:
            extra, rest = tuple(sorted(rest[:need])), rest[need:]
            keys.append(best_completion(left, right, extra))
        out.append((tuple(cards[:mine]), keys))
    return out


def showdown_value(
    left: tuple[int, ...], right: tuple[int, ...], hand: tuple[int, ...], futures: list[Future]
) -> float:
    """A placement's worth over sampled futures: the share of showdowns its best completion wins
    (ties shared), plus :data:`GOODNESS_WEIGHT` times its mean goodness."""
    total = 0.0
    for draws, keys in futures:
        own = best_completion(left, right, tuple(sorted((*hand, *draws))))
        if all(key <= own for key in keys):
            total += 1.0 / (1 + sum(key == own for key in keys))
        total += GOODNESS_WEIGHT * goodness(own)
    return total / len(futures)


def _beats(a: Key, b: Key) -> float:
    return 1.0 if a > b else 0.5 if a == b else 0.0


def answer_chance(
    obs: proto.ScauverObservation, me: int, bettor: int, worlds: int, rng: Any
) -> float:
    """Seat ``me``'s chance to win the showdown against the one other live seat, ``bettor``,
    which has just bet or raised, from ``me``'s observation alone: over ``worlds`` sampled deals
    of the cards ``me`` cannot see, each weighted by how likely the heuristic's bet (the cap at
    a chance above 0.75, a third of the range above 0.6) was in it. That chance is the bettor's
    own estimate in the world, from what it can see (:data:`ANSWER_INNER` samples of ``me``'s
    hand and the draws); a world where the heuristic would not have bet counts
    :data:`ANSWER_NOISE`."""
    unseen = unseen_values(obs)
    hand = tuple(c.value for c in obs.hand)
    mine, theirs = obs.seats[me].field, obs.seats[bettor].field
    my_left, my_right = _values(mine.left), _values(mine.right)
    left, right = _values(theirs.left), _values(theirs.right)
    held = obs.seats[bettor].hand_size
    their_need = FIELD_CARDS - len(left) - len(right)  # its hand and its draws to come
    my_draws = FIELD_CARDS - len(my_left) - len(my_right) - len(hand)
    my_need = my_draws + len(hand)  # what it cannot see of mine
    bet = obs.table.bet
    threshold = 0.75 if bet.level >= bet.max_level else 0.6
    won = total = 0.0
    for _ in range(worlds):
        pool = rng.sample(unseen, len(unseen))
        their_hand = pool[:held]
        own = best_completion(
            my_left, my_right, tuple(sorted((*hand, *pool[their_need:][:my_draws])))
        )
        other = best_completion(left, right, tuple(sorted(pool[:their_need])))
        # The bettor's view: everything but its hand is unseen to it, my hand included.
        blind = [*pool[held:], *hand]
        estimate = 0.0
        for _ in range(ANSWER_INNER):
            guess = rng.sample(blind, their_need - held + my_need)
            its = best_completion(left, right, tuple(sorted((*their_hand, *guess[my_need:]))))
            estimate += _beats(
                its, best_completion(my_left, my_right, tuple(sorted(guess[:my_need])))
            )
        weight = 1.0 if estimate / ANSWER_INNER > threshold else ANSWER_NOISE
        won += weight * _beats(own, other)
        total += weight
    return won / total


class Placer(ScauverHeuristic):
    """The heuristic, placing by the share of sampled showdowns won: far more futures than its
    twelve, each completing every live field (``futures`` of them per decision); and answering a
    bet heads-up by the chance that bet leaves it (:func:`answer_chance`, over ``futures`` x
    :data:`ANSWER_WORLDS_SHARE` worlds)."""

    futures = MIN_FUTURES

    def win_chance(self, obs: proto.ScauverObservation, me: int) -> float:
        bet = obs.table.bet if obs.table.HasField("bet") else None
        others = [s for s, alive in enumerate(obs.table.live) if alive and s != me]
        if bet is None or bet.to_act != me or len(others) != 1:
            return super().win_chance(obs, me)
        worlds = max(MIN_FUTURES, int(self.futures * ANSWER_WORLDS_SHARE))
        return answer_chance(obs, me, others[0], worlds, self.rng)

    def _place(
        self, obs: proto.ScauverObservation, me: int, legal: Sequence[proto.LegalAction]
    ) -> int:
        futures = sample_futures(obs, me, self.futures, self.rng)
        field = obs.seats[me].field
        values: dict[tuple[tuple[int, ...], ...], float] = {}
        best_id, best_value = legal[0].id, -1.0
        for action in legal:
            left, right = list(_values(field.left)), list(_values(field.right))
            hand = [c.value for c in obs.hand]
            for p in action.scauver.placements:
                (left if p.flank == proto.SCAUVER_FLANK_LEFT else right).append(p.card.value)
                hand.remove(p.card.value)
            key = (tuple(sorted(left)), tuple(sorted(right)), tuple(sorted(hand)))
            if key not in values:
                values[key] = showdown_value(*key, futures)
            if values[key] > best_value:
                best_id, best_value = action.id, values[key]
        return best_id


class ScauverSearch(SearchBot):
    """Places by the share of sampled showdowns won and answers heads-up by the chance a bet
    leaves it (:class:`Placer`); with three or more live players searches its betting with
    rollouts, anchored on the heuristic's move."""

    name = "scauver-search"
    version = "2"
    game = "scauver"
    #: Its rollouts place cards by sampled completions: half the default rate (measured: 21).
    moves_per_ms = 10.0
    #: It bets like the heuristic unless the search finds a move this many chips better.
    margin = 1.0

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.placer = Placer(seed or 0)

    def on_welcome(self, match: MatchInfo) -> None:
        super().on_welcome(match)
        self.placer.on_welcome(match)

    def policy(self, state: Any, player: int, rng: np.random.Generator) -> int:
        return rollout_policy(state, player, rng)

    def kind(self, state: Any, action: int) -> int:
        return chip_kind(action)

    def shortcut(self, decision: Decision, legal: list[int]) -> int | None:
        move_ms = int(decision.clocks.move_time_ms) if decision.clocks is not None else 0
        self.placer.futures = futures_for(move_ms, self.moves_per_ms)
        if all(a >= PLACE for a in legal):  # an opening or a placement
            return self.placer.act(decision)
        if sum(decision.observation.scauver.table.live) == 2:  # heads-up: no rollouts
            return self.placer.act(decision)
        return None

    def candidates(self, decision: Decision, legal: list[int]) -> list[int]:
        return chip_candidates(legal)

    def anchor(self, decision: Decision, legal: list[int]) -> int | None:
        return int(self.placer.act(decision))


if __name__ == "__main__":
    main(ScauverSearch(int(os.environ.get("CROUPIER_SEED", "0"))))
