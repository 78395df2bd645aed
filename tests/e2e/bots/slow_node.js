// Slow (Node.js SDK): plays the first legal action, but spends 800 ms (busy) over its 2nd
// decision (CROUPIER_DELAY_MS over every other one), so a test can cut its connection while it
// thinks. Logs each decision as
// "decision <n> request_id=<id>", like the Python test bots.
"use strict";

const path = require("path");
const { run } = require(path.join(__dirname, "..", "..", "..", "clients", "node"));

let count = 0;
run(
  (decision) => {
    count += 1;
    console.log(`decision ${count} request_id=${decision.requestId}`);
    const delay = Number(process.env.CROUPIER_DELAY_MS || 0);
    if (count === 2 || delay > 0) {
      const until = Date.now() + (count === 2 ? 800 : delay);
      while (Date.now() < until) {
        // thinking
      }
    }
    return decision.legalActions[0].id;
  },
  { name: "slow-node", version: "test" },
);
