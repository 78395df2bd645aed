// Felduz's board on the spectators' page (served by croupier serve as part of /static/games.js):
// the chip table, each seat's open cards and closed (and reserved) backs, and the stock.
"use strict";

(window.CROUPIER_BOARDS = window.CROUPIER_BOARDS || {}).felduz = (watch, o, kit) => {
  const [summary, seats] = kit.chipBoard(watch, o, (s) => [
    kit.cardRow(s.open, "open"), kit.backs(s.closed_count || 0, "closed"),
    s.reserve_count ? kit.backs(s.reserve_count, "reserve") : null,
  ]);
  summary.append(kit.el("span", { text: `stock ${o.stock || 0}` }));
  return [summary, seats];
};
