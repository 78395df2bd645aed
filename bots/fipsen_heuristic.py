"""A Fipsen bot that bids from an estimate of its sure tricks and plays its cards sensibly.

* Estimate: for each possible trump suit, trump length and high trumps, plus side Aces (and
  Kings guarded by their Ace); the best suit gives the estimate ``e``.
* Bidding: willing to play n tricks plain when ``n <= e`` (Hand too when ``n + 1 <= e``),
  never Ruten, Durch or Kieker; it opens and overbids with the lowest bid it is willing to
  play, holds while the standing bid is one it would play, and passes otherwise.
* Setup: always calls Siebener Fips, takes the Skat, keeps the five cards with the best
  estimate, names the best suit; goes Durch only when every card left is a top trump.
* Play: the declarer cashes sure winners and otherwise leads low; defenders lead Aces. Following,
  it lets a defender partner's winning card stand, wins as cheaply as it can, and otherwise
  discards its lowest card (side suits before trumps).
"""

from __future__ import annotations

import itertools

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
    version = "1"
    #: How many tricks above its estimate it will still bid.
    boldness = 0.0

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
        e = best_trump(hand)[1]

        def willing(bid: proto.FipsenBid) -> bool:
            if bid.kieker or bid.ruten or bid.durch or bid.tricks > e + self.boldness:
                return False
            return not bid.hand or bid.tricks + 1 <= e + self.boldness

        for action_id in sorted(legal):  # lowest first: hold, then the cheapest bid
            action = legal[action_id]
            if action.move in (proto.FIPSEN_MOVE_HOLD, proto.FIPSEN_MOVE_BID) and willing(
                action.bid
            ):
                return action_id
        return next(i for i, a in legal.items() if a.move == proto.FIPSEN_MOVE_PASS)

    def _discard(self, legal: dict[int, proto.FipsenAction], obs: proto.FipsenObservation) -> int:
        cards = {card_of(a.card): i for i, a in legal.items()}
        held = list(cards)
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
