// As-Nas's board on the spectators' page (served by croupier serve as part of /static/games.js):
// the deal, pot and high stake, and a box per seat (stake, total, looked or blind, folded).
"use strict";

(window.CROUPIER_BOARDS = window.CROUPIER_BOARDS || {}).as_nas = (watch, o, kit) => {
  const { el } = kit;
  const summary = el("div", { class: "summary" },
    el("span", {}, "deal ", el("b", { text: String((o.deal_index || 0) + 1) }), ` of ${o.num_deals || "?"}`),
    el("span", {}, "pot ", el("b", { text: String(o.pot || 0) })),
    el("span", { text: `high stake ${o.high_bet || 0}` }));
  const seats = el("div", { class: "seats" });
  (o.seats || []).forEach((s, i) => {
    const box = kit.seatBox(watch, i, o.to_act === i && !s.folded, [
      kit.facts(`stake ${s.stake || 0}`, `total ${kit.score(s.total)}`, s.looked ? "looked" : "blind",
        s.folded ? "folded" : "", i === (o.dealer || 0) ? "dealer" : ""),
      kit.backs(5, "hand"),
    ]);
    if (s.folded) box.classList.add("out");
    seats.append(box);
  });
  return [summary, seats];
};
