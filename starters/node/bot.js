// A Croupier bot in Node.js (the croupier-bot SDK, installed from its packed tarball): plays a
// random legal action in any of the four games, picking bet and raise amounts by arithmetic on
// the ranges the wire carries (decision.legalRuns, decision.idForAmount: no run of bets is ever
// listed one by one). Seeded from the match's seed, so a match with --seed replays the same.
// Change `act` to make it play better.
"use strict";

const { run } = require("croupier-bot");

function generator(seed) {
  let a = seed >>> 0; // mulberry32
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const generators = new WeakMap();

function act(decision) {
  let random = generators.get(decision.match);
  if (!random) {
    random = generator(Number(decision.match.seed || 0));
    generators.set(decision.match, random);
  }
  const runs = decision.legalRuns; // one { start, stop, step, amounts } per entry of the wire
  const chosen = runs[Math.floor(random() * runs.length)];
  if (!chosen.amounts) return chosen.start; // a single action (fold, call, a card...)
  // a run of bets or raises: pick an amount among its smallest 20, then its id
  const { lowest, highest, step } = chosen.amounts;
  const count = Math.floor((highest - lowest) / step) + 1;
  const amount = lowest + step * Math.floor(random() * Math.min(count, 20));
  const id = decision.idForAmount(amount);
  if (id === null || !decision.isLegal(id)) throw new Error(`no id for amount ${amount}`);
  return id;
}

run(act, { name: "starter-node", version: "1.0" });
