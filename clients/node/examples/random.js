// A random bot for any Croupier game: a uniformly random legal action, seeded from
// CROUPIER_SEED (so a match with a fixed seed is reproducible).
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

const random = generator(Number(process.env.CROUPIER_SEED || 0));
run((decision) => {
  const legal = decision.legalActions;
  return legal[Math.floor(random() * legal.length)].id;
}, { name: "node-random", version: "1" });
