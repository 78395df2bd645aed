// The spectators' page: lobby, standings, matches, a live board and playback. Everything it
// shows comes from the server's public view (/api/...); text is set with textContent only, so
// nothing a bot chose (its name) can become markup.
"use strict";

// $, el and clear: dom.js

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
  const rating = (watch.ratings || [])[seat];
  const name = el("div", { class: "name", text: `${seat} · ${watch.names[seat] || "(no bot)"}` });
  if (typeof rating === "number") name.append(el("span", { class: "rating", title: "rating (μ of the standings)", text: ` μ ${rating.toFixed(1)}` }));
  const box = el("div", { class: `seat${acting ? " acting" : ""}`, "data-seat": String(seat) }, name);
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
//
// Live, the server sends a snapshot (the view now and the last events) and then one frame per
// step; each is applied in constant time: the table is drawn from that frame's view alone, its
// events are appended to the log, which keeps the last LOG_MAX lines (older ones leave the
// page). A round's showdown (the DealEnded's public account) stays on the table until the next
// round starts. Playback holds a finished match's frames and draws any one the same way.

const LOG_MAX = 200;
const SPEEDS = [1, 2, 5, 10, 25, 50, 100]; // playback steps per second

function newWatch(id) {
  return {
    id, names: [], ratings: [], game: "", noun: "round", last: null, end: null, showdown: null,
    frames: [], applied: 0,
  };
}

function logLines(watch, frame) {
  const out = [];
  for (const e of frame.events || []) {
    if (e.deal_started) {
      const d = e.deal_started;
      out.push({ cls: "round", text: `${watch.noun} ${(d.deal_index || 0) + 1} · dealer ${watch.names[d.dealer || 0] || d.dealer || 0}` });
    } else if (e.action_taken) {
      const a = e.action_taken;
      out.push({ cls: a.by_arbiter ? "arbiter" : "", step: e.step || 0, text: `${watch.names[a.seat || 0] || `seat ${a.seat || 0}`}: ${a.label}` });
    } else if (e.deal_ended) {
      const d = e.deal_ended;
      const deltas = (d.deltas || []).map((x, i) => `${watch.names[i] || i} ${signed(x)}`).join(", ");
      out.push({ cls: "round", text: `${watch.noun} ${(d.deal_index || 0) + 1} ended: ${deltas}` });
    }
  }
  return out;
}

function logItem(line) {
  const step = line.cls === "round" ? null : el("span", { class: "step", text: String(line.step || 0) });
  return el("li", { class: line.cls }, step, line.text);
}

// The log follows the newest line unless the reader has scrolled up (then "jump to live").
let following = true;

function appendLog(lines) {
  const log = $("log");
  for (const line of lines) log.append(logItem(line));
  while (log.childElementCount > LOG_MAX) log.firstElementChild.remove();
  if (following) log.scrollTop = 1e9;
}

// The round's showdown as the rules made it public: every card list in the game's account
// of the round's end (DealEnded.<game>), by seat, with the seat's score change.
// (a game whose cards are enum values, such as As-Nas's ranks, gives them by their last word)
function cardLists(data, out = []) {
  if (Array.isArray(data)) {
    if (data.length && data.every((c) => c && typeof c === "object" && "label" in c)) out.push(data);
    else if (data.length && data.every((c) => typeof c === "string" && /^[A-Z][A-Z0-9_]*_[A-Z0-9]+$/.test(c))) {
      out.push(data.map((c) => {
        const word = c.split("_").pop();
        return { label: word.charAt(0) + word.slice(1).toLowerCase() };
      }));
    } else for (const item of data) cardLists(item, out);
  } else if (data && typeof data === "object") {
    for (const [key, value] of Object.entries(data)) {
      if (key !== "link") cardLists(value, out); // (a link repeats the field's cards)
    }
  }
  return out;
}

function showdownBox(watch, ended) {
  const box = el("div", { class: "showdown", id: "showdown" },
    el("b", { text: `${watch.noun} ${(ended.deal_index || 0) + 1} ended` }));
  const detail = Object.entries(ended).find(([key, v]) => !key.endsWith("_past") && v && typeof v === "object" && !Array.isArray(v));
  // a list of per-seat entries: by their `seat` where they have one (proto3 JSON leaves out
  // seat 0), else by position; the same cards twice (a field and its showing) shown once
  const bySeat = new Map();
  for (const list of detail ? Object.values(detail[1]) : []) {
    if (!Array.isArray(list) || !list.every((item) => item && typeof item === "object")) continue;
    const keyed = list.some((item) => "seat" in item);
    list.forEach((item, index) => {
      const seat = keyed ? item.seat || 0 : index;
      const known = bySeat.get(seat) || [];
      for (const cards of cardLists(item)) {
        const text = cards.map((c) => c.label).join(" ");
        if (!known.some((k) => k.text === text)) known.push({ text, cards });
      }
      bySeat.set(seat, known);
    });
  }
  const rows = el("div", { class: "seats" });
  (ended.deltas || []).forEach((delta, seat) => {
    const parts = [el("div", { class: "facts", text: `${signed(delta)} · total ${score((ended.totals || [])[seat])}` })];
    for (const shown of bySeat.get(seat) || []) parts.push(cardRow(shown.cards));
    rows.append(seatBox(watch, seat, false, parts));
  });
  box.append(rows);
  return box;
}

function resultBox(watch) {
  const box = el("div", { class: "result", id: "result" },
    el("b", { text: watch.end.cancelled ? "Final standings (cancelled)" : "Final standings" }));
  const rows = [...(watch.end.results || [])].sort((a, b) => (a.place || 0) - (b.place || 0));
  for (const r of rows) {
    box.append(el("div", { text: `${r.place}. ${r.bot_name || `seat ${r.seat || 0}`}: ${score(r.score)}` }));
  }
  return box;
}

// The table: one frame's view, the showdown of the round just ended, the result at the end.
function drawTable(watch, frame, showdown, showEnd) {
  const table = clear($("table"));
  if (frame && frame.view) {
    const [kind] = Object.keys(frame.view);
    const draw = BOARDS[kind] || plainBoard;
    for (const part of draw(watch, frame.view[kind], KIT)) table.append(part);
  }
  if (showdown) table.append(showdownBox(watch, showdown));
  if (showEnd && watch.end) table.append(resultBox(watch));
  $("board").dataset.step = frame ? String(frame.step || 0) : "0";
}

// The showdown that frame leaves on the table: its round's end, until a round starts.
function nextShowdown(showdown, frame) {
  for (const e of frame.events || []) {
    if (e.deal_started) showdown = null;
    else if (e.deal_ended) showdown = e.deal_ended;
  }
  return showdown;
}

function started(watch, message, redraw) {
  const match = message.started.match || {};
  watch.game = match.game || "";
  watch.names = (match.seats || []).map((s) => s.bot_name || "");
  watch.noun = match.params && "deals" in match.params ? "deal" : "round";
  $("board-title").textContent = `${watch.game} · ${match.match_id || watch.id}`;
  loadRatings(watch).then(redraw);
}

// Ratings beside the names: the standings' μ of each seat's bot, where the server has one.
async function loadRatings(watch) {
  try {
    const data = await getJSON("/api/standings");
    const mu = new Map((data.rows || []).map((r) => [r.bot_name, r.mu || 0]));
    watch.ratings = watch.names.map((name) => (mu.has(name) ? mu.get(name) : null));
  } catch (error) {
    watch.ratings = [];
  }
}

let current = null; // { source?, watch, timer?, ... }

function stop() {
  if (current && current.source) current.source.close();
  if (current && current.timer) clearInterval(current.timer);
  current = null;
  $("live-controls").hidden = true;
}

function watchLive(id) {
  stop();
  let watch = newWatch(id);
  const source = new EventSource(`/api/matches/${encodeURIComponent(id)}/watch`);
  const live = { source, watch, paused: false, behind: [] };
  current = live;
  following = true;
  $("playback").hidden = true;
  $("live-controls").hidden = false;
  $("board-status").textContent = "connecting…";
  clear($("table"));
  clear($("log"));
  const status = () => {
    const step = watch.last ? watch.last.step || 0 : 0;
    const state = watch.end ? "finished" : live.paused ? `paused · live at step ${step}` : `live · step ${step}`;
    $("board-status").textContent = state;
    $("jump-live").hidden = !live.paused && following;
    $("pause").textContent = live.paused ? "resume" : "pause";
  };
  const show = () => {
    drawTable(watch, watch.last, watch.showdown, true);
    // the seat to act's clock: how long the table has waited for it (all the public view
    // tells: a seat's time bank is not shown, as a bank emptied by a timeout would tell that
    // the arbiter played the seat's default action)
    const acting = $("table").querySelector(".seat.acting");
    if (acting && !watch.end) acting.append(el("div", { class: "clock", text: "thinking 0.0 s" }));
    $("board").dataset.live = watch.end ? "over" : "live";
    $("board").dataset.applied = String(watch.applied);
    $("live-controls").hidden = Boolean(watch.end);
  };
  live.jump = () => {
    live.paused = false;
    following = true;
    appendLog(live.behind);
    live.behind = [];
    show();
    status();
  };
  live.toggle = () => {
    if (live.paused) live.jump();
    else { live.paused = true; status(); }
  };
  source.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.started) {
      // (a reconnection starts over from a fresh snapshot)
      watch = live.watch = newWatch(id);
      started(watch, message, () => {
        if (current === live && !live.paused && watch.last) show();
      });
      clear($("log"));
      live.behind = [];
      return;
    }
    if (message.frame) {
      const frame = message.frame;
      if (frame.snapshot) clear($("log"));
      live.since = performance.now();
      watch.last = frame;
      watch.showdown = nextShowdown(watch.showdown, frame);
      watch.applied += 1;
      const lines = logLines(watch, frame);
      if (live.paused) {
        live.behind.push(...lines);
        if (live.behind.length > LOG_MAX) live.behind.splice(0, live.behind.length - LOG_MAX);
      } else {
        appendLog(lines);
      }
    } else if (message.end) {
      watch.end = message.end;
      live.paused = false;
      appendLog(live.behind);
      live.behind = [];
    }
    if (!live.paused) show();
    status();
  };
  source.addEventListener("close", () => source.close());
  source.addEventListener("failed", (event) => {
    $("board-status").textContent = JSON.parse(event.data).error;
    source.close();
  });
  live.timer = setInterval(() => {
    const clock = $("table").querySelector(".seat.acting .clock");
    if (clock && live.since) clock.textContent = `thinking ${((performance.now() - live.since) / 1000).toFixed(1)} s`;
  }, 200);
}

async function playBack(id) {
  stop();
  const watch = newWatch(id);
  const back = { watch, timer: null };
  current = back;
  $("board-status").textContent = "loading…";
  let data;
  try {
    data = await getJSON(`/api/matches/${encodeURIComponent(id)}/replay`);
  } catch (error) {
    $("board-status").textContent = String(error.message);
    return;
  }
  for (const message of data.messages) {
    if (message.started) started(watch, message, () => {
      if (current === back && watch.frames.length) show(Number($("pb-slider").value));
    });
    else if (message.frame) watch.frames.push(message.frame);
    else if (message.end) watch.end = message.end;
  }
  const frames = watch.frames;
  const slider = $("pb-slider");
  slider.max = String(Math.max(0, frames.length - 1));
  // frame i as live showed it: its view, the showdown still on the table, the last lines
  const show = (i) => {
    const last = frames.length - 1;
    i = Math.max(0, Math.min(last, i));
    slider.value = String(i);
    $("pb-pos").textContent = `step ${i + 1} of ${frames.length}`;
    $("board-status").textContent = back.timer ? "playing" : "playback";
    let showdown = null;
    for (let j = i; j >= 0; j--) { // back to the round's start at most
      const events = frames[j].events || [];
      if (events.some((e) => e.deal_started)) break;
      const ended = events.find((e) => e.deal_ended);
      if (ended) { showdown = ended.deal_ended; break; }
    }
    drawTable(watch, frames[i], showdown, i === last);
    const lines = [];
    for (let j = i; j >= 0 && lines.length < LOG_MAX; j--) lines.unshift(...logLines(watch, frames[j]));
    clear($("log"));
    following = true;
    appendLog(lines.slice(-LOG_MAX));
    if (i === last) pause();
  };
  const pause = () => {
    if (back.timer) clearInterval(back.timer);
    back.timer = null;
    $("pb-play").textContent = "play";
  };
  const play = () => {
    pause();
    if (Number(slider.value) >= frames.length - 1) show(0);
    const speed = Number($("pb-speed").value) || 1;
    back.timer = setInterval(() => show(Number(slider.value) + 1), 1000 / speed);
    $("pb-play").textContent = "pause";
    $("board-status").textContent = "playing";
  };
  $("pb-first").onclick = () => show(0);
  $("pb-prev").onclick = () => show(Number(slider.value) - 1);
  $("pb-next").onclick = () => show(Number(slider.value) + 1);
  $("pb-last").onclick = () => show(frames.length - 1);
  $("pb-play").onclick = () => (back.timer ? pause() : play());
  $("pb-speed").onchange = () => { if (back.timer) play(); };
  slider.oninput = () => show(Number(slider.value));
  $("playback").hidden = false;
  show(0);
}

function setUpBoardControls() {
  const speed = $("pb-speed");
  for (const s of SPEEDS) speed.append(el("option", { value: String(s), text: `${s} steps/s` }));
  speed.value = "5";
  $("pause").onclick = () => current && current.toggle && current.toggle();
  $("jump-live").onclick = () => current && current.jump && current.jump();
  $("log").addEventListener("scroll", () => {
    const log = $("log");
    following = log.scrollHeight - log.scrollTop - log.clientHeight < 30;
    if (current && current.jump) $("jump-live").hidden = !current.paused && following;
  });
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

setUpBoardControls();
window.addEventListener("hashchange", route);
route();
