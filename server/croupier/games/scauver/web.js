// Scauver's board on the spectators' page (served by croupier serve as part of /static/games.js):
// the chip table, each seat's two fields and its hand's backs, and the stock.
"use strict";

(window.CROUPIER_BOARDS = window.CROUPIER_BOARDS || {}).scauver = (watch, o, kit) => {
  const [summary, seats] = kit.chipBoard(watch, o, (s) => [
    kit.cardRow((s.field || {}).left, "left"), kit.cardRow((s.field || {}).right, "right"),
    kit.backs(s.hand_size || 0, "hand"),
  ]);
  summary.append(kit.el("span", { text: `stock ${o.stock_size || 0}` }));
  return [summary, seats];
};
