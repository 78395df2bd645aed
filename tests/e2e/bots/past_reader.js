// A Node SDK bot that reads the finished rounds as a protocol-1 bot did (the observation's
// past_deals / past_rounds) and checks them at every decision against the round ends it was
// told of: their count, and each one's history and result. It plays a random legal action (every
// amount of a bet run counted) and says on stdout (the seat log) what it read. A mismatch throws,
// and the bot dies: the match then shows the seat disconnected.
"use strict";

const path = require("path");
const { run } = require(path.join(__dirname, "..", "..", "..", "clients", "node"));

const FIELD = { as_nas: "past_deals", fipsen: "past_deals", felduz: "past_rounds",
  scauver: "past_rounds" };
let ended = 0;
let most = 0;
let ranged = 0;
let seed = Number(process.env.CROUPIER_SEED || 1) >>> 0;
function random() {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 4294967296;
}

run(
  (decision) => {
    const game = decision.observation.game;
    const past = decision.observation[game][FIELD[game]];
    if (!Array.isArray(past) || past.length !== ended) {
      throw new Error(`${past && past.length} finished rounds, told of ${ended}`);
    }
    for (const record of past) {
      if (!record.result || !Array.isArray(record.history)) throw new Error("a record is partial");
    }
    most = Math.max(most, past.length);
    const ids = decision.legalActions.map((a) => a.id);
    for (let i = 1; i < ids.length; i++) {
      if (ids[i] <= ids[i - 1]) throw new Error("legal actions not ascending");
    }
    if (decision.legalActions.some((a) => a.amounts)) throw new Error("a range left unexpanded");
    if (ids.length > 20) ranged += 1;
    return ids[Math.floor(random() * ids.length)];
  },
  {
    name: "node-past-reader",
    onEvent: (event) => {
      if (event.deal_ended) ended += 1;
    },
    onMatchEnd: () => console.log(`past-reader: read up to ${most} finished rounds; ${ranged} long lists`),
  },
);
