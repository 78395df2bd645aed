// The spectators' page: lobby, standings, matches, a live board and playback. Everything it
// shows comes from the server's public view (/api/...); text is set with textContent only, so
// nothing a bot chose (its name) can become markup.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) {
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
  }
  return node;
}

function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

async function getJSON(url) {
  const response = await fetch(url, { cache: "no-store" });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.json();
}

function score(s) {
  if (!s) return "0";
  const num = s.numerator || "0";
  const den = s.denominator || "1";
  return den === "1" ? String(num) : `${num}/${den}`;
}

function signed(s) {
  const text = score(s);
  return text.startsWith("-") || text === "0" ? text : `+${text}`;
}

const STATE_NAMES = {
  MATCH_STATE_PENDING: "pending",
  MATCH_STATE_RUNNING: "running",
  MATCH_STATE_FINISHED: "finished",
  MATCH_STATE_CANCELLED: "cancelled",
  MATCH_STATE_ABORTED: "aborted",
};

// ---- the home page ------------------------------------------------------------------------

function seatNames(match) {
  return (match.seats || []).map((s) => s.bot_name || "(no bot)").join(", ");
}

function renderMatches(data, bodyId, finished) {
  const body = clear($(bodyId).tBodies[0]);
  const matches = data.matches || [];
  if (!matches.length) {
    body.append(el("tr", {}, el("td", { colspan: "5", class: "note", text: "none" })));
    return;
  }
  for (const m of matches) {
    const link = el("a", {
      class: "button",
      href: `#${finished ? "replay" : "watch"}/${encodeURIComponent(m.match_id)}`,
      text: finished ? "play back" : "watch",
    });
    const row = el("tr", { "data-match": m.match_id }, el("td", { text: m.match_id }),
      el("td", { text: m.game }));
    if (finished) {
      const winners = (m.seats || []).filter((s) => s.result && s.result.place === 1);
      const text = STATE_NAMES[m.state] === "finished"
        ? `won by ${winners.map((s) => s.bot_name).join(", ") || "?"}`
        : STATE_NAMES[m.state] || "";
      row.append(el("td", { text }));
    } else {
      row.append(el("td", { text: seatNames(m) }), el("td", { class: "num", text: m.decisions || "0" }));
    }
    row.append(el("td", {}, link));
    body.append(row);
  }
}

async function refreshHome() {
  const jobs = [
    getJSON("/api/matches?state=running").then((d) => renderMatches(d, "running", false)),
    window.CroupierPages.finished(), // (paged: static/pages.js)
    window.CroupierPages.featured(),
    getJSON("/api/bots").then((d) => {
      const body = clear($("bots").tBodies[0]);
      for (const b of d.bots || []) {
        // the registered name is the bot; what its Hello said (name, version) is only a
        // self-description, shown after it, dimmed
        const says = [b.reported_name || "", b.bot_version || ""].join(" ").trim();
        const state = b.disabled || b.key_revoked ? "disabled" : b.connected ? "connected" : "away";
        body.append(el("tr", {}, el("td", { text: b.bot_name }),
          el("td", { text: (b.games || []).join(", ") || "all" }),
          el("td", { class: "says", text: says }),
          el("td", { class: b.connected ? "on" : "off", text: state })));
      }
    }),
    window.CroupierPages.standings(), // (sorted by the rating shown, explained: static/pages.js)
  ];
  await Promise.allSettled(jobs);
}

// ---- cards and boards -----------------------------------------------------------------------

// A card by its label (a game whose cards have none gives cardRow its own text function).
function cardText(card) {
  return card.label || "?";
}

function cardRow(cards, tag, text = cardText) {
  const row = el("div", { class: "cards" });
  if (tag) row.append(el("span", { class: "tag", text: tag }));
  for (const card of cards || []) {
    const shown = text(card);
    const red = shown.includes("♥") || shown.includes("♦");
    row.append(el("span", { class: red ? "card red" : "card", text: shown }));
  }
  return row;
}

function backs(count, tag) {
  const row = el("div", { class: "cards" });
  if (tag) row.append(el("span", { class: "tag", text: tag }));
  for (let i = 0; i < count; i++) row.append(el("span", { class: "card back", text: "·" }));
  return row;
}

function seatBox(watch, seat, acting, parts) {
  const box = el("div", { class: `seat${acting ? " acting" : ""}`, "data-seat": String(seat) },
    el("div", { class: "name", text: `${seat} · ${watch.names[seat] || "(no bot)"}` }));
  for (const part of parts) if (part) box.append(part);
  return box;
}

function facts(...items) {
  return el("div", { class: "facts", text: items.filter((x) => x !== null && x !== "").join(" · ") });
}

// The board of a chip game (games/chips.py): round, pot and phase, and a box per seat with its
// stack, its chips in, and the game's own parts (seatParts(seat message, seat)).
function chipBoard(watch, o, seatParts) {
  const t = o.table || {};
  const summary = el("div", { class: "summary" },
    el("span", {}, "round ", el("b", { text: String((t.round || 0) + 1) }), ` of ${t.round_cap || "?"}`),
    el("span", {}, "pot ", el("b", { text: String(t.pot || 0) })),
    el("span", { text: `phase ${(o.phase || "").split("_PHASE_")[1] || "-"}`.toLowerCase() }));
  const seats = el("div", { class: "seats" });
  (o.seats || []).forEach((s, i) => {
    const live = (t.live || [])[i];
    const box = seatBox(watch, i, o.to_act === i, [
      facts(`stack ${(t.stacks || [])[i] || 0}`, `in ${(t.committed || [])[i] || 0}`,
        i === (t.dealer || 0) ? "dealer" : "", live ? "" : "out of the round"),
      ...seatParts(s, i),
    ]);
    if (!live) box.classList.add("out");
    seats.append(box);
  });
  return [summary, seats];
}

// What a game's board renderer is handed: the page's helpers.
const KIT = { el, score, cardRow, backs, seatBox, facts, chipBoard };

// A game without a renderer of its own: its view's plain fields.
function plainBoard(watch, o) {
  const plain = Object.entries(o).filter(([, v]) => v !== null && typeof v !== "object");
  return [el("div", { class: "summary" },
    ...plain.map(([key, value]) => el("span", { text: `${key} ${value}` })))];
}

// The board renderers, by the game's wire name (Observation.game): each game package ships its
// own (croupier/games/<game>/web.js, served as /static/games.js before this file), which sets
// CROUPIER_BOARDS.<game> = (watch, view, kit) => [elements].
const BOARDS = window.CROUPIER_BOARDS || {};

// ---- a watched match ------------------------------------------------------------------------

function newWatch(id) {
  return { id, names: [], game: "", noun: "round", frames: [], end: null, log: [] };
}

function logLines(watch, frame) {
  const out = [];
  for (const e of frame.events || []) {
    if (e.deal_started) {
      const d = e.deal_started;
      out.push({ cls: "round", text: `${watch.noun} ${(d.deal_index || 0) + 1} · dealer ${watch.names[d.dealer || 0] || d.dealer || 0}` });
    } else if (e.action_taken) {
      const a = e.action_taken;
      out.push({ cls: a.by_arbiter ? "arbiter" : "", text: `${watch.names[a.seat || 0] || `seat ${a.seat || 0}`}: ${a.label}` });
    } else if (e.deal_ended) {
      const d = e.deal_ended;
      const deltas = (d.deltas || []).map((x, i) => `${watch.names[i] || i} ${signed(x)}`).join(", ");
      out.push({ cls: "round", text: `${watch.noun} ${(d.deal_index || 0) + 1} ended: ${deltas}` });
    }
  }
  return out;
}

function apply(watch, message) {
  if (message.started) {
    const match = message.started.match || {};
    watch.game = match.game || "";
    watch.names = (match.seats || []).map((s) => s.bot_name || "");
    watch.noun = match.params && "deals" in match.params ? "deal" : "round";
    $("board-title").textContent = `${watch.game} · ${match.match_id || watch.id}`;
  } else if (message.frame) {
    watch.frames.push(message.frame);
  } else if (message.end) {
    watch.end = message.end;
  }
}

function drawBoard(watch, upto, showEnd) {
  const table = clear($("table"));
  const frame = watch.frames[upto];
  if (frame && frame.view) {
    const [kind] = Object.keys(frame.view);
    const draw = BOARDS[kind] || plainBoard;
    for (const part of draw(watch, frame.view[kind], KIT)) table.append(part);
  }
  if (showEnd && watch.end) {
    const box = el("div", { class: "result", id: "result" },
      el("b", { text: watch.end.cancelled ? "Final standings (cancelled)" : "Final standings" }));
    const rows = [...(watch.end.results || [])].sort((a, b) => (a.place || 0) - (b.place || 0));
    for (const r of rows) {
      box.append(el("div", { text: `${r.place}. ${r.bot_name || `seat ${r.seat || 0}`}: ${score(r.score)}` }));
    }
    table.append(box);
  }
  const log = clear($("log"));
  for (const f of watch.frames.slice(0, upto + 1)) {
    for (const line of logLines(watch, f)) {
      const step = line.cls === "round" ? null : el("span", { class: "step", text: String(f.step || 0) });
      log.append(el("li", { class: line.cls }, step, line.text));
    }
  }
  log.scrollTop = log.scrollHeight;
  $("board").dataset.step = frame ? String(frame.step || 0) : "0";
}

let current = null; // { source?: EventSource, watch }

function stop() {
  if (current && current.source) current.source.close();
  current = null;
}

function watchLive(id) {
  stop();
  const watch = newWatch(id);
  const source = new EventSource(`/api/matches/${encodeURIComponent(id)}/watch`);
  current = { source, watch };
  $("playback").hidden = true;
  $("board-status").textContent = "connecting…";
  source.onmessage = (event) => {
    apply(watch, JSON.parse(event.data));
    const step = watch.frames.length ? watch.frames[watch.frames.length - 1].step || 0 : 0;
    $("board-status").textContent = watch.end ? "finished" : `live · step ${step}`;
    $("board").dataset.live = watch.end ? "over" : "live";
    drawBoard(watch, watch.frames.length - 1, true);
  };
  source.addEventListener("close", () => source.close());
  source.addEventListener("failed", (event) => {
    $("board-status").textContent = JSON.parse(event.data).error;
    source.close();
  });
}

async function playBack(id) {
  stop();
  const watch = newWatch(id);
  current = { watch };
  $("board-status").textContent = "loading…";
  let data;
  try {
    data = await getJSON(`/api/matches/${encodeURIComponent(id)}/replay`);
  } catch (error) {
    $("board-status").textContent = String(error.message);
    return;
  }
  for (const message of data.messages) apply(watch, message);
  const slider = $("pb-slider");
  slider.max = String(Math.max(0, watch.frames.length - 1));
  const show = (i) => {
    const last = watch.frames.length - 1;
    i = Math.max(0, Math.min(last, i));
    slider.value = String(i);
    $("pb-pos").textContent = `step ${i + 1} of ${watch.frames.length}`;
    $("board-status").textContent = "playback";
    drawBoard(watch, i, i === last);
  };
  $("pb-first").onclick = () => show(0);
  $("pb-prev").onclick = () => show(Number(slider.value) - 1);
  $("pb-next").onclick = () => show(Number(slider.value) + 1);
  $("pb-last").onclick = () => show(watch.frames.length - 1);
  slider.oninput = () => show(Number(slider.value));
  $("playback").hidden = false;
  show(0);
}

// ---- routing --------------------------------------------------------------------------------

let homeTimer = null;

function route() {
  const [view, raw] = location.hash.replace(/^#/, "").split("/");
  const id = raw ? decodeURIComponent(raw) : "";
  const onBoard = (view === "watch" || view === "replay") && id;
  const onBot = view === "bot" && id; // a bot's page (static/pages.js)
  $("home").hidden = Boolean(onBoard || onBot);
  $("board").hidden = !onBoard;
  $("botpage").hidden = !onBot;
  clearInterval(homeTimer);
  window.CroupierPages.hideBot();
  if (onBot) {
    stop();
    window.CroupierPages.showBot(id);
  } else if (!onBoard) {
    stop();
    refreshHome();
    homeTimer = setInterval(refreshHome, 2000);
  } else if (view === "watch") {
    watchLive(id);
  } else {
    playBack(id);
  }
}

window.addEventListener("hashchange", route);
route();
