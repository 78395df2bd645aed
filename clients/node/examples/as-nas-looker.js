// An As-Nas bot that looks, then raises with a pair or better and holds or folds otherwise:
// an example of reading the typed observation (ranks are enum names, AS_NAS_RANK_*).
"use strict";

const { run } = require("..");

function hasPair(hand) {
  const counts = {};
  for (const rank of hand) counts[rank] = (counts[rank] || 0) + 1;
  return Object.values(counts).some((n) => n >= 2);
}

run((decision) => {
  const byMove = Object.fromEntries(decision.legalActions.map((a) => [a.as_nas.move, a.id]));
  if ("AS_NAS_MOVE_LOOK" in byMove) return byMove.AS_NAS_MOVE_LOOK;
  const hand = decision.observation.as_nas.hand;
  if (hasPair(hand)) {
    return byMove.AS_NAS_MOVE_RAISE ?? byMove.AS_NAS_MOVE_CALL ?? byMove.AS_NAS_MOVE_HOLD;
  }
  return byMove.AS_NAS_MOVE_HOLD ?? byMove.AS_NAS_MOVE_FOLD;
}, { name: "node-looker", version: "1" });
