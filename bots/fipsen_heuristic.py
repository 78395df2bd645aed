"""A Fipsen bot that bids from an estimate of its sure tricks and plays its cards sensibly.

* Estimate: for each possible trump suit, trump length and high trumps, plus side Aces (and
  Kings guarded by their Ace); the best suit gives the estimate ``e``.
* Bidding: the chance to make n tricks (plain, taking the Skat, or Hand) at estimate ``e`` comes
  from :data:`MAKE`, a table measured by playing 30,000 deals out (this bot's play against
  defenders like it); under Ruten (the 7♦ the only trump) from the hand's sure tricks (the 7♦,
  Aces, guarded Kings: :data:`MAKE_RUTEN`). A contract is worth playing when that chance is at
  least :data:`SURE` (a lost contract costs twice what a won one brings, so 2/3 breaks even).
  Among the bids and the hold it would play it takes the one worth most on average
  (``value * (3p - 2)``), and passes when there is none; never Durch or Kieker. (Version 1 bid
  n only when ``n <= e``, always the cheapest, never Ruten: ``bench/strength.py
  --fipsen-bidding`` compares the two.)
* Setup: always calls Siebener Fips, takes the Skat, keeps the five cards with the best
  estimate (under Ruten: the 7♦, Aces and Kings), names the best suit; goes Durch only when
  every card left is a top trump.
* Play: the declarer cashes sure winners and otherwise leads low; defenders lead Aces. Following,
  it lets a defender partner's winning card stand, wins as cheaply as it can, and otherwise
  discards its lowest card (side suits before trumps).
"""

from __future__ import annotations

import itertools
from typing import Any

from croupier_bot import Bot, Decision, main, proto

#: A card as (suit 0..3, rank 0..7): ♣ ♠ ♥ ♦ and 7 .. A (wire values minus one).
Card = tuple[int, int]
ACE, KING = 7, 6
HIGH_TRUMP = {7: 1.0, 6: 0.8, 5: 0.6, 4: 0.4}


def card_of(card: proto.FipsenCard) -> Card:
    """The (suit, rank) of a wire card."""
    return card.suit - 1, card.rank - 1


def estimate(hand: list[Card], trump: int) -> float:
    """Tricks the hand should take with ``trump``: high, long trumps, side Aces, guarded Kings."""
    trumps = [r for s, r in hand if s == trump]
    value = sum(HIGH_TRUMP.get(r, 0.25) for r in trumps) + max(0, len(trumps) - 2) * 0.5
    for suit in {s for s, _ in hand if s != trump}:
        ranks = {r for s, r in hand if s == suit}
        value += 0.9 * (ACE in ranks) + 0.6 * (ACE in ranks and KING in ranks)
    return value


#: P(the declarer makes n tricks) by (n, Hand) and the estimate ``e`` of its dealt hand
#: (rounded down to a half, from 0.5 to 4.0), with the Skat taken unless Hand: measured over
#: 30,000 random deals played out by this bot's setup and play against defenders like it.
MAKE: dict[tuple[int, bool], tuple[float, ...]] = {
    (2, False): (0.43, 0.64, 0.78, 0.88, 0.95, 0.99, 0.99, 1.00),
    (2, True): (0.02, 0.13, 0.34, 0.63, 0.88, 0.97, 0.99, 1.00),
    (3, False): (0.22, 0.31, 0.44, 0.59, 0.77, 0.90, 0.97, 0.98),
    (3, True): (0.01, 0.02, 0.04, 0.20, 0.50, 0.82, 0.95, 0.98),
    (4, False): (0.05, 0.10, 0.18, 0.31, 0.46, 0.69, 0.89, 0.90),
    (4, True): (0.00, 0.00, 0.00, 0.02, 0.08, 0.39, 0.73, 0.94),
}
#: Under Ruten (♦ trump: the 7♦ is the only trump) by (n, Hand) and the hand's sure tricks
#: ``k`` (:func:`ruten_tricks`, 1 to 4): measured likewise over 100,000 deals.
MAKE_RUTEN: dict[tuple[int, bool], tuple[float, ...]] = {
    (2, False): (0.44, 0.80, 0.95, 1.00),
    (2, True): (0.24, 0.80, 0.95, 0.99),
    (3, False): (0.14, 0.35, 0.71, 0.85),
    (3, True): (0.05, 0.18, 0.75, 0.94),
    (4, False): (0.07, 0.17, 0.38, 0.62),
    (4, True): (0.01, 0.04, 0.24, 0.75),
}
#: The least chance to make a contract worth playing (2/3 breaks even, plus a margin).
SURE = 0.7


def ruten_tricks(hand: list[Card]) -> int:
    """Sure tricks when the 7♦ is the only trump: the 7♦ itself, each Ace, each King with its
    Ace."""
    held = set(hand)
    return (
        ((3, 0) in held)
        + sum(1 for s, r in held if r == ACE)
        + sum(1 for s, r in held if r == KING and (s, ACE) in held)
    )


def make_chance(tricks: int, hand: bool, e: float, ruten: bool = False) -> float:
    """The chance to make ``tricks`` (plain or Hand) with estimate ``e`` (:data:`MAKE`), or
    under Ruten with ``e`` sure tricks (:data:`MAKE_RUTEN`); all five tricks need a hand one
    trick stronger than four."""
    if tricks >= 5:
        tricks, e = 4, e - 1.0
    if ruten:
        k = min(int(e), 4)
        return MAKE_RUTEN[(tricks, hand)][k - 1] if k >= 1 else 0.0
    row = MAKE[(tricks, hand)]
    index = int(min(max(e, 0.5), 4.0) * 2) - 1
    return row[index] if e >= 0.5 else 0.0


def worth(bid: Any, e: float, k: int) -> float | None:
    """What playing ``bid`` brings on average with estimate ``e`` (``k`` sure tricks under
    Ruten), when the bidder would play it (anything with ``tricks``, ``hand``, ``ruten``,
    ``durch`` and ``kieker``: a wire ``FipsenBid`` or the rules' ``Bid``); ``None`` when it
    would not (never Durch or Kieker)."""
    if bid.kieker or bid.durch:
        return None
    p = make_chance(bid.tricks, bid.hand, k if bid.ruten else e, bid.ruten)
    if p < SURE:
        return None
    value = int(bid.tricks) << (int(bid.hand) + int(bid.ruten))
    return value * (3 * p - 2)


def ruten_keep(card: Card) -> tuple[int, int]:
    """How much a card is worth keeping under Ruten: the 7♦, Aces, Kings, then rank."""
    suit, rank = card
    return (2 if suit == 3 else 1 if rank >= KING else 0, rank)


def best_trump(hand: list[Card]) -> tuple[int, float]:
    """The suit giving the best estimate, and that estimate."""
    return max(((t, estimate(hand, t)) for t in range(4)), key=lambda te: te[1])


def beats(card: Card, best: Card, led: int, trump: int) -> bool:
    """Whether ``card`` beats the trick's current best card ``best``."""

    def key(c: Card) -> tuple[int, int]:
        return (2 if c[0] == trump else 1 if c[0] == led else 0, c[1])

    return key(card) > key(best)


class FipsenHeuristic(Bot):
    """Bids its estimated sure tricks, keeps and names its strongest suit, plays sensibly."""

    name = "fipsen-heuristic"
    version = "2"

    def act(self, decision: Decision) -> int:
        obs: proto.FipsenObservation = decision.observation.fipsen
        legal: dict[int, proto.FipsenAction] = {a.id: a.fipsen for a in decision.legal_actions}
        moves: dict[int, int] = {a.move: a_id for a_id, a in legal.items()}
        hand = [card_of(c) for c in obs.hand]
        if proto.FIPSEN_MOVE_SIEBENER_FIPS in moves:
            return moves[proto.FIPSEN_MOVE_SIEBENER_FIPS]
        if proto.FIPSEN_MOVE_PASS in moves:
            return self._bid(legal, hand)
        if proto.FIPSEN_MOVE_TAKE_SKAT in moves:
            return moves[proto.FIPSEN_MOVE_TAKE_SKAT]
        if proto.FIPSEN_MOVE_DISCARD in moves:
            return self._discard(legal, obs)
        if proto.FIPSEN_MOVE_TRUMP in moves:
            suit = best_trump(hand)[0]
            return next(i for i, a in legal.items() if a.trump - 1 == suit)
        if proto.FIPSEN_MOVE_STOP in moves:
            return moves[proto.FIPSEN_MOVE_DURCH if self._all_top(obs) else proto.FIPSEN_MOVE_STOP]
        return self._play(legal, obs, decision.match.seat)

    # -- bidding and setup ------------------------------------------------------------------

    def _bid(self, legal: dict[int, proto.FipsenAction], hand: list[Card]) -> int:
        e, k = best_trump(hand)[1], ruten_tricks(hand)
        best, best_worth = -1, 0.0
        for action_id in sorted(legal):  # the hold first, then the bids by rank
            action = legal[action_id]
            if action.move not in (proto.FIPSEN_MOVE_HOLD, proto.FIPSEN_MOVE_BID):
                continue
            value = worth(action.bid, e, k)
            if value is not None and (best < 0 or value > best_worth):
                best, best_worth = action_id, value
        if best >= 0:
            return best
        return next(i for i, a in legal.items() if a.move == proto.FIPSEN_MOVE_PASS)

    def _discard(self, legal: dict[int, proto.FipsenAction], obs: proto.FipsenObservation) -> int:
        cards = {card_of(a.card): i for i, a in legal.items()}
        held = list(cards)
        if obs.contract.ruten:  # ♦ is trump: keep the 7♦, Aces and Kings
            return cards[min(held, key=ruten_keep)]
        keep = max(
            itertools.combinations(held, 5),
            key=lambda five: (best_trump(list(five))[1], sorted(five)),
        )
        out = [c for c in held if c not in keep]
        return cards[min(out, key=lambda c: (c[1], c[0]))]

    def _all_top(self, obs: proto.FipsenObservation) -> bool:
        """Whether every card left in hand is a trump above every trump not yet seen."""
        trump = obs.trump - 1
        seen = {card_of(c) for c in (*obs.hand, *obs.discards)}
        seen |= {card_of(c) for t in obs.tricks for c in t.cards}
        hand = [card_of(c) for c in obs.hand]
        unseen = [r for r in range(8) if (trump, r) not in seen and (trump < 3 or r == 0)]
        return all(s == trump and all(r > u for u in unseen) for s, r in hand)

    # -- play ---------------------------------------------------------------------------------

    def _play(
        self, legal: dict[int, proto.FipsenAction], obs: proto.FipsenObservation, seat: int
    ) -> int:
        trump = obs.trump - 1
        options = {card_of(a.card): i for i, a in legal.items()}
        low = min(options, key=lambda c: (c[0] == trump, c[1]))
        declarer = obs.declarer if obs.HasField("declarer") else -1
        trick = [card_of(c) for c in obs.trick_cards]
        if not trick:
            if seat == declarer:
                top = [c for c in options if self._sure(c, obs, trump)]
                if top:
                    return options[max(top, key=lambda c: (c[0] == trump, c[1]))]
                return options[low]
            aces = [c for c in options if c[1] == ACE and c[0] != trump]
            return options[aces[0] if aces else low]
        led = trick[0][0]
        best_i = 0
        for i in range(1, len(trick)):
            if beats(trick[i], trick[best_i], led, trump):
                best_i = i
        winner = (obs.trick_leader + best_i) % 4
        if seat != declarer and winner != declarer:
            return options[low]  # a partner is winning: keep the good cards
        winning = [c for c in options if beats(c, trick[best_i], led, trump)]
        if winning:
            return options[min(winning, key=lambda c: (c[0] == trump, c[1]))]
        return options[low]

    def _sure(self, card: Card, obs: proto.FipsenObservation, trump: int) -> bool:
        """No unseen card of the same suit is higher, and (off trump) no trump is out."""
        seen = {card_of(c) for c in (*obs.hand, *obs.discards)}
        seen |= {card_of(c) for t in obs.tricks for c in t.cards}
        suit, rank = card
        if any((suit, r) not in seen for r in range(rank + 1, 8) if suit < 3):
            return False
        if suit == trump:
            return True
        trumps = [(trump, r) for r in range(8) if trump < 3 or r == 0]
        return all(t in seen for t in trumps)


if __name__ == "__main__":
    main(FipsenHeuristic())
