// The human seat's page (play.html; docs/server.md, "Human seats"). The page's key to its seat is
// the secret after the '#' (the server hands it out; never the seat token). The seat's messages
// arrive as server-sent events, each the JSON line a stdio bot reads (canonical protobuf JSON);
// an action goes back as POST /api/play/<secret>/act {request_id, action_id}. The arbiter keeps
// the clocks and judges every action; this page only shows them.
"use strict";

// $ and el: dom.js

// An enum value without its type's prefix ("AS_NAS_RANK_ACE" -> "ace").
const ENUM = /^[A-Z0-9]+(?:_[A-Z0-9]+)*?_(?:RANK|SUIT|MOVE|KIND|PHASE|OUTCOME|ACTION)_/;
function show(v) {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return ENUM.test(v) ? v.replace(ENUM, "").toLowerCase() : v;
  if (Array.isArray(v)) return v.map(show).join(" ");
  if (typeof v === "object") {
    if ("numerator" in v && "denominator" in v) {
      return v.denominator === "1" ? String(v.numerator) : `${v.numerator}/${v.denominator}`;
    }
    if ("rank" in v || "suit" in v) return [show(v.rank), show(v.suit)].filter(Boolean).join(" of ");
    const keys = Object.keys(v);
    if (keys.length === 1) return show(v[keys[0]]);
    return keys.map((k) => `${k} ${show(v[k])}`).join(", ");
  }
  return String(v);
}

const state = {
  secret: "", seat: null, game: "", names: [], decision: null, received: 0, deadline: null,
  log: [], ended: false,
};

// ---- the table: the seat's own observation, nothing else ---------------------------------------

function drawObservation(obs) {
  const table = $("table");
  table.replaceChildren();
  const view = obs ? Object.values(obs)[0] || {} : {};
  const facts = el("div", { class: "facts" });
  const rest = [];
  for (const [k, v] of Object.entries(view)) {
    if (k === "hand" || k === "history") continue;
    if (Array.isArray(v) && v.length && typeof v[0] === "object" && k === "seats") rest.push([k, v]);
    else if (typeof v !== "object" || v === null) facts.append(el("span", {}, `${k} `, el("b", { text: show(v) })));
    else if (Array.isArray(v) && !v.length) continue;
    else facts.append(el("span", {}, `${k} `, el("b", { text: show(v) })));
  }
  table.append(facts);
  const hand = view.hand || view.ownHand || view.cards;
  if (hand !== undefined) {
    const row = el("div", { class: "hand", id: "hand" }, el("span", { text: "your hand:" }));
    const cards = Array.isArray(hand) ? hand : [hand];
    if (!cards.length) row.append(el("span", { class: "note", text: "(not looked at)" }));
    for (const c of cards) row.append(el("span", { class: "card", text: show(c) }));
    table.append(row);
  }
  for (const [, seats] of rest) {
    const keys = [...new Set(seats.flatMap((s) => Object.keys(s)))];
    const head = el("tr", {}, el("th", { text: "seat" }), ...keys.map((k) => el("th", { text: k })));
    const body = seats.map((s, i) => {
      const row = el("tr", {}, el("td", { text: i === state.seat ? `${i} (you)` : String(i) }),
        ...keys.map((k) => el("td", { text: show(s[k]) })));
      if (i === state.seat) row.classList.add("me");
      return row;
    });
    table.append(el("table", {}, el("thead", {}, head), el("tbody", {}, ...body)));
  }
}

// ---- the legal actions: a button each; a run of amounts is one input and slider ---------------

function drawActions(decision) {
  const box = $("actions");
  box.replaceChildren();
  $("act-error").textContent = "";
  box.dataset.request = decision ? String(decision.requestId) : "";
  if (!decision) return;
  for (const a of decision.legalActions || []) {
    const r = a.amounts;
    if (r && r.highest > r.lowest) {
      const word = (a.label || "").split(":")[0] || "Bet";
      const number = el("input", { type: "number", min: r.lowest, max: r.highest, step: r.step || 1,
        value: r.lowest, class: "amount", "aria-label": `${word} amount` });
      const slider = el("input", { type: "range", min: r.lowest, max: r.highest, step: r.step || 1,
        value: r.lowest, "aria-label": `${word} amount slider` });
      number.addEventListener("input", () => { slider.value = number.value; });
      slider.addEventListener("input", () => { number.value = slider.value; });
      const button = el("button", { type: "button", class: "act", "data-label": word,
        "data-range": `${r.lowest}-${r.highest}/${r.step || 1}`, text: word });
      button.addEventListener("click", () => {
        const amount = Number(number.value);
        const step = r.step || 1;
        if (!Number.isInteger(amount) || amount < r.lowest || amount > r.highest
            || (amount - r.lowest) % step !== 0) {
          $("act-error").textContent = `the amount must be ${r.lowest} to ${r.highest} in steps of ${step}`;
          return;
        }
        send(decision, a.id + (amount - r.lowest));
      });
      box.append(el("span", { class: "range" }, button, number, slider,
        el("span", { class: "note", text: `${r.lowest}–${r.highest}` })));
    } else {
      const button = el("button", { type: "button", class: "act", "data-label": a.label || String(a.id),
        "data-action": String(a.id), text: a.label || `action ${a.id}` });
      button.addEventListener("click", () => send(decision, a.id));
      box.append(button);
    }
  }
}

async function send(decision, actionId) {
  if (state.decision !== decision) return;
  state.decision = null;
  state.deadline = null;
  drawActions(null);
  $("seat-status").textContent = "sent; waiting for the table";
  const reply = await fetch(`/api/play/${encodeURIComponent(state.secret)}/act`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ request_id: Number(decision.requestId), action_id: actionId }),
  });
  if (!reply.ok) {
    const data = await reply.json().catch(() => ({}));
    $("act-error").textContent = data.error || `refused (${reply.status})`;
  }
}

// ---- the clock: the arbiter's, counted down here ------------------------------------------------

function tick() {
  const clock = $("clock");
  if (!state.deadline) { clock.textContent = ""; return; }
  const elapsed = performance.now() - state.deadline.at;
  const move = Math.max(0, state.deadline.move - elapsed);
  const bank = Math.max(0, state.deadline.bank - Math.max(0, elapsed - state.deadline.move));
  clock.textContent = `move ${(move / 1000).toFixed(1)} s · bank ${(bank / 1000).toFixed(1)} s`;
  clock.classList.toggle("low", move + bank < 5000);
}
setInterval(tick, 100);

// ---- the seat's messages ------------------------------------------------------------------------

function logLine(text) {
  state.log.push(text);
  if (state.log.length > 200) state.log.shift();
  const log = $("log");
  log.prepend(el("li", { text }));
  while (log.children.length > 200) log.lastChild.remove();
}

function onMessage(m) {
  state.received += 1;
  for (const e of m.events || []) {
    if (e.actionTaken) {
      const who = e.actionTaken.seat === state.seat ? "you" : `seat ${e.actionTaken.seat || 0}`;
      logLine(`${who}: ${e.actionTaken.label}`);
    } else if (e.dealStarted) logLine(`deal ${(e.dealStarted.dealIndex || 0) + 1} begins`);
    else if (e.dealEnded) logLine(`deal ended: ${show(e.dealEnded.deltas || e.dealEnded.scores || "")}`);
  }
  if (m.welcome) {
    state.seat = m.welcome.seat || 0;
    state.game = m.welcome.game;
    $("seat-title").textContent = `${m.welcome.game}: you are seat ${state.seat} of ${m.welcome.numSeats}`;
    $("seat-status").textContent = "waiting for your turn";
  } else if (m.decision) {
    state.decision = m.decision;
    const c = m.decision.clocks || {};
    state.deadline = { at: performance.now(), move: c.moveTimeMs || 0, bank: c.timeBankMs || 0 };
    drawObservation(m.decision.observation);
    drawActions(m.decision);
    $("seat-status").textContent = "your turn";
  } else if (m.rejected) {
    logLine(`your reply was not accepted: ${show(m.rejected)}`);
  } else if (m.matchEnd) {
    state.ended = true;
    state.decision = null;
    state.deadline = null;
    drawActions(null);
    const rows = (m.matchEnd.results || []).map((r, i) => el("tr", i === state.seat ? { class: "me" } : {},
      el("td", { text: i === state.seat ? `${i} (you)` : String(i) }),
      el("td", { text: show(r.score) }), el("td", { text: String(r.place || "") }),
      el("td", { text: show(r.outcome) })));
    $("table").replaceChildren(el("h3", { text: m.matchEnd.cancelled ? "match cancelled" : "match over" }),
      el("table", { id: "results" }, el("thead", {}, el("tr", {}, ...["seat", "score", "place", "ended"]
        .map((t) => el("th", { text: t })))), el("tbody", {}, ...rows)));
    $("seat-status").textContent = "the match is over";
  }
}

function connect() {
  $("join").hidden = true;
  $("vs-bots").hidden = true;
  $("seat").hidden = false;
  const source = new EventSource(`/api/play/${encodeURIComponent(state.secret)}/events`);
  source.onmessage = (event) => onMessage(JSON.parse(event.data));
  source.addEventListener("close", () => {
    source.close();
    document.body.dataset.done = "1";
    if (!state.ended) $("seat-status").textContent = "the seat's stream ended";
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED && !state.ended) {
      $("seat-status").textContent = "lost the table (wrong key, or the server stopped)";
    }
  };
}

$("join-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("join-error").textContent = "";
  const reply = await fetch("/api/play/join", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: $("join-token").value.trim() }),
  });
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) { $("join-error").textContent = data.error || `refused (${reply.status})`; return; }
  state.secret = data.secret;
  history.replaceState(null, "", `#${data.secret}`);
  connect();
});

$("vs-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("vs-error").textContent = "";
  const body = { game: $("vs-game").value };
  if (!$("vs-key").hidden) body.key = $("vs-key").value.trim();
  $("vs-start").disabled = true;
  const reply = await fetch("/api/play/vs-bots", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  $("vs-start").disabled = false;
  const data = await reply.json().catch(() => ({}));
  if (!reply.ok) { $("vs-error").textContent = data.error || `refused (${reply.status})`; return; }
  state.secret = data.secret;
  history.replaceState(null, "", `#${data.secret}`);
  $("vs-bots").hidden = true;
  connect();
});

// no seat yet: what this server offers (a seat token's form, "play vs bots")
async function offer() {
  const data = await fetch("/api/play/config").then((r) => r.json()).catch(() => ({}));
  if (data.join) $("join").hidden = false;
  if (data.vs_bots && data.vs_bots !== "off") {
    for (const game of data.games || []) $("vs-game").append(el("option", { value: game, text: game }));
    $("vs-key").hidden = data.vs_bots !== "operators";
    $("vs-bots").hidden = false;
  }
  if (!data.join && (!data.vs_bots || data.vs_bots === "off")) {
    $("join").hidden = false;
    $("join-error").textContent = "this server seats no humans from here";
  }
}

state.secret = decodeURIComponent(location.hash.slice(1));
if (state.secret) connect();
else offer();
