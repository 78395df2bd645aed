// A bot for the chip games (Felduz, Scauver) that reads the legal actions as runs and never
// expands a range: at stack 1,000 a betting step is one entry with `amounts`, not a thousand
// actions. It plays a random run; on a run of bets or raises it picks a small amount and asks
// `decision.idForAmount` for its id (checked with `decision.isLegal`), and logs each pick on
// stderr. Seeded from the match's seed, so a match with a fixed seed is reproducible.
"use strict";

const { run } = require("..");

function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const generators = new WeakMap();
run((decision) => {
  let random = generators.get(decision.match);
  if (!random) {
    random = generator(Number(decision.match.seed || 0));
    generators.set(decision.match, random);
  }
  const runs = decision.legalRuns;
  const chosen = runs[Math.floor(random() * runs.length)];
  if (!chosen.amounts) {
    console.error(`pick ${chosen.start}`);
    return chosen.start;
  }
  const { lowest, highest, step } = chosen.amounts;
  const steps = Math.floor((highest - lowest) / step);
  const amount = lowest + step * Math.floor(random() * Math.min(steps + 1, 20));
  const id = decision.idForAmount(amount);
  if (id === null || !decision.isLegal(id)) throw new Error(`no id for amount ${amount}`);
  console.error(`pick ${id} amount ${amount}`); // (its log: what it meant to play)
  return id;
}, { name: "node-bettor", version: "1" });
