// A random bot for any Croupier game: a uniformly random legal action, seeded from the match's
// seed (so a match with a fixed seed is reproducible).
"use strict";

const { run } = require("..");

// mulberry32: a small seedable generator (Math.random cannot be seeded).
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

// One generator per match, seeded by the match's seed (CROUPIER_SEED, or in a session the seat
// assignment's): a process that plays many matches at once keeps them apart and reproducible.
const generators = new WeakMap();
run((decision) => {
  let random = generators.get(decision.match);
  if (!random) {
    random = generator(Number(decision.match.seed || 0));
    generators.set(decision.match, random);
  }
  const legal = decision.legalActions;
  return legal[Math.floor(random() * legal.length)].id;
}, { name: "node-random", version: "1" });
