// Fipsen's board on the spectators' page (served by croupier serve as part of /static/games.js):
// the deal, phase and tricks, a box per seat (total, declarer, dealer) and the trick's cards.
"use strict";

(() => {
  const RANKS = { SEVEN: "7", EIGHT: "8", NINE: "9", TEN: "10", JACK: "J", QUEEN: "Q", KING: "K", ACE: "A" };
  const SUITS = { CLUBS: "♣", SPADES: "♠", HEARTS: "♥", DIAMONDS: "♦" };

  function cardText(card) {
    if (card.label) return card.label;
    const rank = RANKS[(card.rank || "").replace("FIPSEN_RANK_", "")] || "?";
    const suit = SUITS[(card.suit || "").replace("FIPSEN_SUIT_", "")] || "?";
    return rank + suit;
  }

  (window.CROUPIER_BOARDS = window.CROUPIER_BOARDS || {}).fipsen = (watch, o, kit) => {
    const { el } = kit;
    const summary = el("div", { class: "summary" },
      el("span", {}, "deal ", el("b", { text: String((o.deal_index || 0) + 1) }), ` of ${o.num_deals || "?"}`),
      el("span", { text: `phase ${(o.phase || "").replace("FIPSEN_PHASE_", "").toLowerCase()}` }),
      el("span", { text: `tricks ${o.declarer_tricks || 0}:${o.defender_tricks || 0}` }));
    const seats = el("div", { class: "seats" });
    (o.totals || []).forEach((total, i) => {
      seats.append(kit.seatBox(watch, i, o.to_act === i, [
        kit.facts(`total ${kit.score(total)}`, o.declarer === i ? "declarer" : "",
          i === (o.dealer || 0) ? "dealer" : ""),
      ]));
    });
    return [summary, seats, kit.cardRow(o.trick_cards, "trick", cardText)];
  };
})();
