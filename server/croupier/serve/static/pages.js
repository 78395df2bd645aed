// The page's public pages (/api/pages/...): the standings sorted by the rating they show, the
// finished matches paged, the featured live match, and a page per bot (#bot/<name>): its
// rating history (an SVG chart drawn here), its matches paged and filtered by game and
// opponent, its record against each opponent, its faults. Text is set with textContent only,
// so nothing a bot chose (its name) can become markup.
"use strict";

window.CroupierPages = (() => {
  // $, el and clear: dom.js
  const SVG = "http://www.w3.org/2000/svg";

  function svg(tag, attrs = {}, text = "") {
    const node = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
    if (text) node.textContent = text;
    return node;
  }

  async function getJSON(url) {
    const response = await fetch(url, { cache: "no-store" });
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return response.json();
  }

  const fixed = (x, digits = 2) => (x === null || x === undefined ? "–" : Number(x).toFixed(digits));
  const when = (ms) => (ms ? new Date(ms).toISOString().replace("T", " ").slice(0, 19) : "");
  const botLink = (name) => el("a", { href: `#bot/${encodeURIComponent(name)}`, class: "bot-link", text: name });

  function emptyRow(body, columns, text = "none") {
    body.append(el("tr", {}, el("td", { colspan: String(columns), class: "note", text })));
  }

  // A pager: « prev · "21–40 of 57" · next »; go(offset) loads that page.
  function pager(box, data, go) {
    clear(box);
    const { offset, limit, total } = data;
    const prev = el("button", { type: "button", class: "pg-prev", text: "◀ newer" });
    const next = el("button", { type: "button", class: "pg-next", text: "older ▶" });
    prev.disabled = offset <= 0;
    next.disabled = offset + limit >= total;
    prev.onclick = () => go(Math.max(0, offset - limit));
    next.onclick = () => go(offset + limit);
    const shown = total ? `${offset + 1}–${Math.min(total, offset + limit)} of ${total}` : "0 of 0";
    box.append(prev, el("span", { class: "pg-pos", text: shown }), next);
  }

  // ---- the home page --------------------------------------------------------------------------

  async function standings() {
    const d = await getJSON("/api/pages/standings");
    const columns = d.columns || {};
    for (const th of $("standings").tHead.rows[0].cells) {
      const key = th.dataset.col;
      if (key && columns[key]) th.title = columns[key];
    }
    const legend = clear($("standings-legend"));
    for (const key of ["rating", "mu", "sigma", "matches", "score", "faults"]) {
      if (columns[key]) legend.append(el("dt", { text: key === "mu" ? "μ" : key === "sigma" ? "σ" : key }), el("dd", { text: columns[key] }));
    }
    $("standings-game").textContent = d.game ? `continuous ladder · ${d.game} · sorted by rating` : "no rated match yet";
    const body = clear($("standings").tBodies[0]);
    if (!(d.rows || []).length) emptyRow(body, 8);
    for (const r of d.rows || []) {
      body.append(el("tr", { "data-bot": r.bot_name },
        el("td", { class: "num", text: String(r.rank) }),
        el("td", {}, botLink(r.bot_name)),
        el("td", { class: "num rating", text: fixed(r.rating) }),
        el("td", { class: "num", text: fixed(r.mu) }),
        el("td", { class: "num", text: fixed(r.sigma) }),
        el("td", { class: "num", text: String(r.matches || 0) }),
        el("td", { class: "num", text: fixed(r.mean_score) }),
        el("td", { class: "num", text: String(r.faults || 0) })));
    }
  }

  function winners(m) {
    const first = (m.seats || []).filter((s) => s.place === 1).map((s) => s.bot);
    return m.state === "finished" ? `won by ${first.join(", ") || "?"}` : m.state;
  }

  let finishedOffset = 0;

  let finishedTicket = 0;

  async function finished(offset = finishedOffset) {
    // the page asked for last is the one shown: an older answer arriving late is dropped
    const ticket = ++finishedTicket;
    finishedOffset = offset;
    const d = await getJSON(`/api/pages/matches?state=finished&offset=${offset}&limit=10`);
    if (ticket !== finishedTicket) return;
    const body = clear($("finished").tBodies[0]);
    if (!d.matches.length) emptyRow(body, 5);
    for (const m of d.matches) {
      body.append(el("tr", { "data-match": m.match_id },
        el("td", {}, el("a", { class: "button", href: `#replay/${encodeURIComponent(m.match_id)}`, text: "play back" })),
        el("td", { text: m.match_id }),
        el("td", { text: m.game }),
        el("td", { text: winners(m) }),
        el("td", { class: "num", text: when(m.ended_ms) })));
    }
    pager($("finished-pager"), d, (o) => finished(o));
  }

  async function featured() {
    const d = await getJSON("/api/pages/featured");
    const box = clear($("featured"));
    const m = d.match;
    box.dataset.match = m ? m.match_id : "";
    if (!m) {
      box.append(el("p", { class: "note", text: "No match is being played now." }));
      return;
    }
    const seats = el("div", { class: "featured-seats" });
    for (const s of m.seats) {
      seats.append(el("span", { class: "featured-seat" }, botLink(s.bot),
        el("span", { class: "note", text: s.mu === null ? " new" : ` μ ${fixed(s.mu)}` })));
    }
    box.append(
      el("div", { class: "featured-head" },
        el("b", { text: `${m.game} · ${m.match_id}` }),
        el("span", { class: "note", text: `table rating ${fixed(m.table_rating)} · ${m.decisions} decisions` }),
        el("a", { class: "button watch-featured", href: `#watch/${encodeURIComponent(m.match_id)}`, text: "watch live" })),
      seats);
  }

  // ---- a bot's page ---------------------------------------------------------------------------

  const bot = { name: "", offset: 0, game: "", opponent: "", timer: null, ticket: 0, summary: 0 };

  // The rating after each rated match: μ (line and points), the band μ ± σ, and the
  // conservative rating μ − 3σ (dashed); a point's title says which match it was.
  function chart(box, history) {
    clear(box);
    const W = 640, H = 220, L = 44, R = 12, T = 12, B = 28;
    const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, width: "100%", role: "img", id: "rating-svg",
      "aria-label": `rating after each of ${history.length} rated matches` });
    if (!history.length) {
      root.append(svg("text", { x: W / 2, y: H / 2, "text-anchor": "middle", class: "axis" }, "no rated match yet"));
      box.append(root);
      return;
    }
    const lo = Math.min(...history.map((h) => h.mu - 3 * h.sigma), 25 - 3 * 25 / 3);
    const hi = Math.max(...history.map((h) => h.mu + h.sigma), 25 + 25 / 3);
    const n = history.length;
    const x = (i) => L + (n === 1 ? (W - L - R) / 2 : (i * (W - L - R)) / (n - 1));
    const y = (v) => T + ((hi - v) * (H - T - B)) / (hi - lo || 1);
    for (let k = 0; k <= 4; k++) {
      const v = lo + ((hi - lo) * k) / 4;
      root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }),
        svg("text", { x: L - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, v.toFixed(1)));
    }
    root.append(svg("text", { x: L, y: H - 8, class: "axis" }, "match 1"),
      svg("text", { x: W - R, y: H - 8, "text-anchor": "end", class: "axis" }, `match ${n}`));
    const band = history.map((h, i) => `${x(i)},${y(h.mu + h.sigma)}`)
      .concat(history.map((h, i) => `${x(i)},${y(h.mu - h.sigma)}`).reverse());
    root.append(svg("polygon", { points: band.join(" "), class: "band" }));
    root.append(svg("polyline", { points: history.map((h, i) => `${x(i)},${y(h.mu - 3 * h.sigma)}`).join(" "), class: "ordinal" }));
    root.append(svg("polyline", { points: history.map((h, i) => `${x(i)},${y(h.mu)}`).join(" "), class: "mu", id: "rating-line" }));
    history.forEach((h, i) => {
      const dot = svg("circle", { cx: x(i), cy: y(h.mu), r: 3, class: "point" });
      dot.append(svg("title", {}, `${h.match_id}: place ${h.place}, μ ${h.mu.toFixed(2)}, σ ${h.sigma.toFixed(2)}`));
      root.append(dot);
    });
    box.append(root);
  }

  function options(select, values, chosen, none) {
    clear(select).append(el("option", { value: "", text: none }));
    for (const v of values) {
      const option = el("option", { value: v, text: v });
      if (v === chosen) option.selected = true;
      select.append(option);
    }
  }

  async function botMatches(offset = bot.offset) {
    const ticket = ++bot.ticket; // (as finished(): only the latest answer is shown)
    bot.offset = offset;
    const query = new URLSearchParams({ offset: String(offset), limit: "10" });
    if (bot.game) query.set("game", bot.game);
    if (bot.opponent) query.set("opponent", bot.opponent);
    const d = await getJSON(`/api/pages/bots/${encodeURIComponent(bot.name)}/matches?${query}`);
    if (ticket !== bot.ticket) return;
    const body = clear($("bot-matches").tBodies[0]);
    if (!d.matches.length) emptyRow(body, 6);
    for (const m of d.matches) {
      const me = m.seats.find((s) => s.bot === bot.name) || {};
      const others = el("td", {});
      m.seats.filter((s) => s.bot !== bot.name).forEach((s, i) => {
        if (i) others.append(", ");
        others.append(botLink(s.bot));
      });
      const live = m.state === "running" || m.state === "pending";
      const result = m.state === "finished" ? `place ${me.place} · ${me.score}` : m.state;
      body.append(el("tr", { "data-match": m.match_id, "data-game": m.game },
        el("td", {}, el("a", { class: "button", href: `#${live ? "watch" : "replay"}/${encodeURIComponent(m.match_id)}`, text: live ? "watch" : "play back" })),
        el("td", { text: m.game }), others, el("td", { text: result }),
        el("td", { class: "num", text: String(m.decisions || 0) }),
        el("td", { class: "num", text: when(m.ended_ms || m.created_ms) })));
    }
    pager($("bot-pager"), d, (o) => botMatches(o));
  }

  async function botSummary() {
    const ticket = ++bot.summary;
    const d = await getJSON(`/api/pages/bots/${encodeURIComponent(bot.name)}`);
    if (ticket !== bot.summary) return;
    const info = d.bot;
    $("bot-name").textContent = info.name;
    const facts = [info.registered ? `registered ${when(info.registered_ms)}` : "not registered (seen in matches)",
      info.registered ? `plays ${(info.games || []).join(", ") || "every game"}` : "",
      info.version ? `says ${info.version}` : "", info.state || ""];
    $("bot-facts").textContent = facts.filter(Boolean).join(" · ");
    const r = d.rating;
    $("bot-rating").textContent = r.mu === null
      ? `no rated match in ${r.game || "the ladder"} yet`
      : `${r.game} · rating ${fixed(r.mu - 3 * r.sigma)} (μ ${fixed(r.mu)}, σ ${fixed(r.sigma)}) after ${r.history.length} rated matches`;
    chart($("rating-chart"), r.history);
    options($("bot-game"), d.games, bot.game, "every game");
    options($("bot-opponent"), d.opponents, bot.opponent, "every opponent");
    const h2h = clear($("bot-h2h").tBodies[0]);
    if (!d.head_to_head.length) emptyRow(h2h, 6);
    for (const h of d.head_to_head) {
      h2h.append(el("tr", { "data-opponent": h.opponent }, el("td", {}, botLink(h.opponent)),
        el("td", { class: "num", text: String(h.matches) }), el("td", { class: "num", text: String(h.wins) }),
        el("td", { class: "num", text: String(h.draws) }), el("td", { class: "num", text: String(h.losses) }),
        el("td", { class: "num", text: `${Math.round((100 * (h.wins + h.draws / 2)) / (h.matches || 1))}%` })));
    }
    const f = d.faults;
    $("bot-faults-total").textContent = `${f.matches} of ${d.finished} finished matches with a fault · ` +
      `${f.timeouts} timeouts · ${f.rejected} rejected replies · ${f.illegal_actions} forfeited for illegal actions · ${f.disconnected} crashes or disconnections`;
    const faults = clear($("bot-faults").tBodies[0]);
    if (!f.recent.length) emptyRow(faults, 5);
    for (const x of f.recent) {
      faults.append(el("tr", { "data-match": x.match_id },
        el("td", {}, el("a", { href: `#replay/${encodeURIComponent(x.match_id)}`, text: x.match_id })),
        el("td", { text: x.game }), el("td", { text: x.outcome }),
        el("td", { class: "num", text: String(x.timeouts) }), el("td", { class: "num", text: String(x.rejected) })));
    }
    $("botpage").dataset.loaded = bot.name;
  }

  async function refreshBot() {
    try {
      await botSummary();
      await botMatches();
      $("bot-error").textContent = "";
    } catch (error) {
      $("bot-error").textContent = String(error.message);
    }
  }

  function showBot(name) {
    hideBot();
    Object.assign(bot, { name, offset: 0, game: "", opponent: "" });
    $("botpage").dataset.loaded = "";
    $("bot-game").onchange = () => { bot.game = $("bot-game").value; botMatches(0); };
    $("bot-opponent").onchange = () => { bot.opponent = $("bot-opponent").value; botMatches(0); };
    refreshBot();
    bot.timer = setInterval(refreshBot, 5000);
  }

  function hideBot() {
    clearInterval(bot.timer);
    bot.timer = null;
  }

  return { standings, finished, featured, showBot, hideBot, botLink };
})();
