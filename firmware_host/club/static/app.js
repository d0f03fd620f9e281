// cardtable dashboard: the call queue, the tables, the rulings feed and pack health, live over server-sent
// events. Everything shown is set with textContent (never innerHTML), so nothing a table sends can become
// markup. Every word shown comes from the server, which takes them from the table's own display.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (id) => document.getElementById(id);
  const tablesEl = $("tables"), feedEl = $("feed"), packsEl = $("packs"), connEl = $("conn");
  const queueEl = $("queue"), retireEl = $("retire");
  const cards = new Map();     // table id -> card element
  const views = new Map();     // table id -> latest view
  const shown = new Map();     // table id -> what was last drawn on its card
  const packRows = new Map();
  const feedItems = new Map(); // entry id -> li
  let offset = 0;              // dashboard clock minus this browser's clock (seconds)
  let callKeys = new Map();    // table id -> JSON of its call and pending commands, to redraw only on change
  let knownCalls = null;       // tables calling at the last redraw (null: before the first snapshot)
  const LAT_MAX = 200000;
  // Delay from an event at a table to its display here (seconds); read by `cardtable bench club`.
  window.cardtableLatency = [];
  window.cardtableUpdates = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  // The law as the players read it (its name and number); the clause id only inside a detail a director
  // can open, never in the text on the page.
  function lawLine(law, clause) {
    const d = el("div", "law", law || "");
    if (clause) {
      const more = el("details", "clause");
      more.append(el("summary", "", "law id"), el("code", "", clause));
      d.append(" ", more);
    }
    return d;
  }
  const nameOf = (id) => (views.get(id) || {}).name || id;
  const nowServer = () => Date.now() / 1000 + offset;
  const timeFormat = new Intl.DateTimeFormat([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
  const clockText = (t) => timeFormat.format(new Date((t - offset) * 1000));
  function waited(since) {
    const s = Math.max(0, Math.floor(nowServer() - since));
    const m = Math.floor(s / 60);
    return m >= 60 ? Math.floor(m / 60) + " h " + (m % 60) + " min" : m + ":" + String(s % 60).padStart(2, "0");
  }

  // -- the tables --------------------------------------------------------------------------------------
  function tableCard(id) {
    let c = cards.get(id);
    if (c) return c;
    c = el("article", "table");
    c.dataset.table = id;
    const h = el("h3");
    const name = el("button", "name", id);
    name.type = "button";
    name.addEventListener("click", () => showHistory(id));
    h.append(name, el("span", "phase"));
    const f = el("form", "result");
    f.hidden = true;
    f.addEventListener("submit", (ev) => { ev.preventDefault(); enterResult(id, f); });
    f.addEventListener("input", () => { f.querySelector(".said").textContent = ""; });  // a fixed error goes
    const fix = el("form", "correct");
    fix.hidden = true;
    fix.addEventListener("submit", (ev) => { ev.preventDefault(); enterResult(id, fix, "/api/correct"); });
    fix.addEventListener("input", () => { fix.querySelector(".said").textContent = ""; });
    // lamps the players settle themselves are no call, but the director may still put them out from here
    const out = el("button", "ack lamps-out", "Lamps out");
    out.type = "button";
    out.hidden = true;
    out.addEventListener("click", () => post("/api/ack", { table: id }, out).then(() => { out.disabled = false; }));
    c.append(h, el("div", "meta"), el("div", "score"), el("ul", "lamps"), out, el("div", "ruling"), el("div", "choices"),
      el("div", "pending"), el("div", "set-aside"), el("ul", "results"), f, fix, el("div", "journal"));
    const after = [...cards.keys()].filter((k) => k > id).sort()[0];
    tablesEl.insertBefore(c, after ? cards.get(after) : null);
    cards.set(id, c);
    $("table-count").textContent = String(cards.size);
    return c;
  }

  // One lit lamp and why it is lit (the ruling that lit it, or the device's own reason).
  function litItem(i) {
    const li = el("li", "lit-item");
    li.append(el("span", "lamp lit", i.lamp));
    const why = [i.headline, i.reason].filter((x) => x).join(": ");
    if (why) li.append(el("span", "why", " " + why));
    if (i.law) li.append(lawLine(i.law, i.clause));
    return li;
  }

  function showTable(t) {
    views.set(t.table, t);
    const c = tableCard(t.table);
    const last = shown.get(t.table) || {};
    const text = (sel, value) => {
      if (last[sel] !== value) c.querySelector(sel).textContent = value;
      last[sel] = value;
    };
    if (last.name !== (t.name || t.table)) {  // a name first known now: the feed's entries say it too
      for (const b of document.querySelectorAll("b.who")) if (b.dataset.table === t.table) b.textContent = " " + (t.name || t.table) + " ";
      last.name = t.name || t.table;
    }
    text(".name", t.name || t.table);
    c.querySelector(".name").title = "History of " + (t.name || t.table);
    c.classList.toggle("calling", !!t.call);
    c.classList.toggle("offline", !t.online);
    text(".phase", t.online ? t.phase : "offline");
    const counts = Object.entries(t.counts || {}).map(([s, n]) => s + " " + n).join(", ");
    let meta = "deal " + t.deal + (t.dealer ? ", " + t.dealer + " deals" : "") + (counts ? " · cards " + counts : "");
    if (t.last_event) meta += " · last: " + t.last_event;
    // a device that is offline shows as its lit lamp with its reason (t.lit); here only without one
    const lamp = (label) => (t.lit || []).some((i) => i.lamp.startsWith("NO ") && i.lamp.includes(label));
    if (t.shoe_online === false && !lamp("SHOE")) meta += " · shoe offline";
    if (t.camera_online === false && !lamp("CAMERA")) meta += " · camera offline";
    if ((t.offline || {}).records) meta += " · " + t.offline.records;   // a duplicate table refused hand records
    text(".meta", meta);
    text(".score", t.score || "");
    const out = c.querySelector("button.lamps-out");
    out.hidden = !!t.call || !(t.lit || []).some((i) => !i.lamp.startsWith("NO "));
    out.setAttribute("aria-label", "Put the lamps out at " + (t.name || t.table));
    const lampsKey = JSON.stringify(t.lit || []);
    if (last.lamps !== lampsKey) {
      c.querySelector(".lamps").replaceChildren(...(t.lit || []).map(litItem));
      last.lamps = lampsKey;
    }
    const rulingKey = JSON.stringify(t.ruling);
    if (last.ruling !== rulingKey) {
      const r = c.querySelector(".ruling");
      r.replaceChildren(...(t.ruling ? [el("div", "headline", t.ruling.headline),
        lawLine(t.ruling.law, t.ruling.clause),
        el("div", "reason", t.ruling.reason)] : []));
      r.hidden = !t.ruling;
      last.ruling = rulingKey;
    }
    const pendingKey = JSON.stringify([t.pending || [], t.refused || []]);
    if (last.pending !== pendingKey) {
      c.querySelector(".pending").replaceChildren(...(t.pending || []).map((p) =>
        el("div", "note", (KINDS[p.kind] || "command") + " by " + p.by +
          ": pending until the table confirms" + (t.online ? "" : " (table away: it gets it on return)"))),
      ...(t.refused || []).map((p) => el("div", "note refused", (KINDS[p.kind] || "command") + " by " + p.by +
          " refused by the table: " + p.why)));
      last.pending = pendingKey;
    }
    const asideKey = JSON.stringify(t.set_aside || []);
    if (last.aside !== asideKey) {
      c.querySelector(".set-aside").replaceChildren(...(t.set_aside || []).map((w) => el("div", "note refused", w)));
      last.aside = asideKey;
    }
    // How far the club can check this table's journal: the newest head it holds (docs/mqtt.md).
    const j = t.journal;
    text(".journal", !j ? "" : j.problem ? "JOURNAL HEAD MISMATCH: " + j.problem :
      "journal verified up to row " + j.row + ", at " + clockText(j.t));
    const choicesKey = JSON.stringify([t.claims || [], t.search, t.game, t.entries || {}, t.bridge]);
    if (last.choices !== choicesKey) {
      const entries = t.entries || {};
      c.querySelector(".choices").replaceChildren(...(t.claims || []).map((cl, i) => claimForm(t, cl, i)),
        ...(t.search ? [searchForm(t)] : []), ...(t.bridge ? bridgePart(t, t.bridge) : []),
        ...(entries.bid ? [bidForm(t, entries.bid)] : []),
        ...(entries.discard ? [discardForm(t)] : []), ...(entries.call ? [callForm(t, entries.call)] : []));
      last.choices = choicesKey;
    }
    const f = c.querySelector("form.result");
    const entered = (t.results || []).some((r) => r.deal === t.deal);
    const formKey = t.result_due && !entered ? t.game : "";
    if (last.form !== formKey) {
      resultForm(f, t.game, t.table, "Enter result");
      f.hidden = !formKey;
      last.form = formKey;
    }
    // the results entered here, each saying whether the table took it; a taken one can be corrected
    const resultsKey = JSON.stringify([t.results || [], t.game]);
    if (last.results !== resultsKey) {
      c.querySelector(".results").replaceChildren(...(t.results || []).map((r) => el("li", r.taken ? "taken" : "waiting",
        (r.kind === "correct" ? "Correction of deal " : "Result of deal ") + r.deal + " by " + r.by + ": " + r.words +
        " — " + (r.taken ? "taken by the table" : r.why ? "refused by the table: " + r.why : "on its way to the table"))));
      const fix = c.querySelector("form.correct");
      const done = (t.results || []).filter((r) => r.taken);
      fix.hidden = !done.length;
      if (done.length) resultForm(fix, t.game, t.table, "Correct result", done[done.length - 1].deal);
      last.results = resultsKey;
    }
    shown.set(t.table, last);
    const key = JSON.stringify([t.call, t.pending, t.online]);
    if (callKeys.get(t.table) !== key) { callKeys.set(t.table, key); return true; }
    return false;
  }

  // -- the call queue ------------------------------------------------------------------------------------
  const callItems = new Map();  // table id -> [key, li] of its queue entry, rebuilt only when it changed
  function callItem(t) {
    const key = callKeys.get(t.table);
    const had = callItems.get(t.table);
    if (had && had[0] === key) return had[1];
    const li = el("li", "call");
    li.dataset.table = t.table;
    li.dataset.since = String(t.call.since);
    const where = el("div", "where");
    where.append(el("b", "", t.name || t.table), el("span", "wait", waited(t.call.since)));
    const said = el("div", "said");
    said.append(el("div", "headline", t.call.headline), el("div", "reason", t.call.reason),
      lawLine(t.call.law, t.call.clause));
    const acts = el("div", "acts");
    if (t.call.taken_by) acts.append(el("span", "taken", "taken by " + t.call.taken_by));
    else {
      const take = el("button", "take", "Take call");
      take.type = "button";
      take.setAttribute("aria-label", "Take the call of " + (t.name || t.table));
      take.addEventListener("click", () => post("/api/take", { table: t.table }, take));
      acts.append(take);
    }
    const pending = (t.pending || []).some((p) => p.kind === "ack");
    if (pending) acts.append(el("span", "pending-ack", "lamps out sent: pending" + (t.online ? "" : " (table away)")));
    else {
      const ack = el("button", "ack", "Acknowledge");
      ack.type = "button";
      ack.setAttribute("aria-label", "Acknowledge " + (t.name || t.table) + ": its lamps go out");
      ack.addEventListener("click", () => post("/api/ack", { table: t.table }, ack));
      acts.append(ack);
    }
    li.append(where, said, acts);
    if (had) had[1].replaceWith(li);
    callItems.set(t.table, [key, li]);
    return li;
  }

  function drawQueue() {
    const calls = [...views.values()].filter((t) => t.call).sort((a, b) => a.call.since - b.call.since ||
      (a.table < b.table ? -1 : 1));
    const items = calls.map(callItem);
    const now = new Set(calls.map((t) => t.table));
    for (const [id, [, li]] of callItems) if (!now.has(id)) { li.remove(); callItems.delete(id); }
    // move only what is out of place (longest wait first)
    items.forEach((li, i) => { if (queueEl.children[i] !== li) queueEl.insertBefore(li, queueEl.children[i] || null); });
    $("no-calls").hidden = calls.length > 0;
    $("call-count").textContent = String(calls.length);
    document.title = (calls.length ? "(" + calls.length + ") " : "") + "cardtable club";
    if (knownCalls !== null) {
      for (const t of calls) if (!knownCalls.has(t.table)) announce(t);
    }
    knownCalls = now;
  }

  function tick() {
    for (const li of queueEl.children) li.querySelector(".wait").textContent = waited(Number(li.dataset.since));
  }
  setInterval(tick, 1000);

  // An optional sound and a browser notification when a new call arrives.
  const soundBox = $("sound");
  soundBox.checked = localStorage.getItem("cardtable-sound") === "on";
  soundBox.addEventListener("change", () => localStorage.setItem("cardtable-sound", soundBox.checked ? "on" : "off"));
  $("notify").addEventListener("click", () => { if ("Notification" in window) Notification.requestPermission(); });
  let audio = null;
  function announce(t) {
    if (soundBox.checked) {
      try {
        audio = audio || new AudioContext();
        const o = audio.createOscillator(), g = audio.createGain();
        o.frequency.value = 880; g.gain.value = 0.2;
        o.connect(g).connect(audio.destination);
        o.start(); o.stop(audio.currentTime + 0.25);
      } catch (e) { /* no sound available */ }
    }
    if ("Notification" in window && Notification.permission === "granted" && document.hidden) {
      new Notification((t.name || t.table) + ": " + t.call.headline, { body: t.call.reason, tag: "cardtable-" + t.table });
    }
  }

  // -- the feed, history and packs -------------------------------------------------------------------------
  function entryItem(r) {
    const li = el("li");
    li.dataset.kind = r.kind;
    const head = el("div", "line");
    const known = nameOf(r.table);  // the table's name now (a ruling may come before its first status)
    const who = el("b", "who", " " + (known !== r.table ? known : r.name || r.table) + " ");
    who.dataset.table = r.table;
    head.append(el("time", "", clockText(r.t)), who, el("span", "headline", r.headline));
    li.append(head);
    if (r.reason) li.append(el("div", "reason", r.reason));
    if (r.law) li.append(lawLine(r.law, r.clause));
    if (r.kind === "irregularity" && r.calls !== false) li.append(el("div", r.acked_by ? "acked" : "unacked",
      r.acked_by ? "acknowledged by " + r.acked_by : "not yet acknowledged"));
    return li;
  }
  function showEntry(r) {
    historyEntry(r);
    const li = entryItem(r);
    const old = feedItems.get(r.id);
    if (old) { old.replaceWith(li); } else { feedEl.prepend(li); }
    feedItems.set(r.id, li);
    while (feedEl.children.length > 200) {
      const gone = feedEl.lastChild;
      for (const [k, v] of feedItems) if (v === gone) feedItems.delete(k);
      gone.remove();
    }
  }
  for (const b of document.querySelectorAll(".filter button")) {
    b.addEventListener("click", () => {
      feedEl.dataset.filter = b.dataset.filter;
      for (const o of document.querySelectorAll(".filter button")) o.setAttribute("aria-pressed", String(o === b));
    });
  }
  // The open history follows its table live, as the feed does (nothing needs a reload): a new entry of
  // that table goes on top, a changed one (acknowledged) is redrawn. Entries that come while the history
  // is being fetched are kept and laid over what the fetch brought, so none falls between the two.
  const history = { table: null, items: new Map(), waiting: null };
  function historyEntry(r) {
    if (r.table !== history.table) return;
    if (history.waiting) { history.waiting.push(r); return; }
    const li = entryItem(r);
    const old = history.items.get(r.id);
    if (old) old.replaceWith(li); else $("history-list").prepend(li);
    history.items.set(r.id, li);
  }
  $("history").addEventListener("close", () => { history.table = null; history.items.clear(); });
  async function showHistory(id) {
    history.table = id;
    history.waiting = [];
    const r = await fetch("/api/history?table=" + encodeURIComponent(id), { credentials: "same-origin" }).catch(() => null);
    if (r && r.status === 401) { window.location = "/login"; return; }
    const data = r && r.ok ? await r.json().catch(() => null) : null;
    if (history.table !== id) return;   // another table's history asked for meanwhile
    if (!data) { history.table = null; history.waiting = null; return; }
    const came = history.waiting;
    history.waiting = null;
    history.items.clear();
    const items = (data.history || []).map((e) => { const li = entryItem(e); history.items.set(e.id, li); return li; });
    $("history-h").textContent = "History of " + nameOf(id);
    $("history-list").replaceChildren(...items);
    came.forEach(historyEntry);
    const d = $("history");
    if (d.open) return;
    if (typeof d.showModal === "function") d.showModal(); else d.setAttribute("open", "");
  }
  function showPack(p) {
    const key = p.table + "\u0000" + p.pack;
    let row = packRows.get(key);
    if (!row) { row = { tr: el("tr"), li: el("li") }; packsEl.append(row.tr); packRows.set(key, row); }
    row.tr.className = p.retire ? "retire" : "";
    row.tr.replaceChildren(el("td", "", p.table), el("td", "", p.pack), el("td", "", p.unreadable),
      el("td", "", p.damaged), el("td", "", p.deals));
    if (p.retire) {
      row.li.replaceChildren(el("b", "", "Retire " + p.pack + " at " + p.table + ": "), el("span", "", p.why));
      if (!row.li.parentNode) retireEl.append(row.li);
    } else row.li.remove();
  }

  function apply(msg) {
    offset = msg.now ? msg.now - Date.now() / 1000 : offset;
    let calls = false;
    if (msg.type === "snapshot") {
      for (const t of msg.tables) calls = showTable(t) || calls;
      feedEl.replaceChildren(); feedItems.clear();
      msg.feed.slice().reverse().forEach(showEntry);
      msg.packs.forEach(showPack);
      drawQueue();
      return;
    }
    const times = [];
    for (const u of msg.updates) {
      if (u.type === "table") {
        calls = showTable(u.table) || calls;
        if (u.ts) times.push(...u.ts);
      } else if (u.type === "feed") showEntry(u.entry);
      else if (u.type === "pack") showPack(u.pack);
    }
    if (calls) drawQueue();
    // measured once the page has been changed (the browser paints right after this task)
    const now = (performance.timeOrigin + performance.now()) / 1000;
    for (const t of times) {
      if (window.cardtableLatency.length < LAT_MAX) window.cardtableLatency.push(now - t);
    }
    window.cardtableUpdates += msg.updates.length;
  }

  // -- commands ----------------------------------------------------------------------------------------------
  async function post(url, body, button) {
    if (button) button.disabled = true;
    const resp = await fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body),
    });
    if (resp.status === 401) { window.location = "/login"; return null; }
    const answer = await resp.json();
    if (!resp.ok && button) { button.disabled = false; button.title = answer.error || ""; }
    return { ok: resp.ok, answer: answer };
  }

  const KINDS = { ack: "acknowledgement", result: "result", correct: "correction", choose: "choice",
    search: "search outcome", bid: "bid", discard: "discard", call: "bridge call", accept: "acceptance",
    decline: "call not accepted", withdraw: "card taken back", bar: "bar", correct_revoke: "revoke correction", claim: "claim",
    claim_reply: "answer to the claim", claim_ruled: "ruling on the claim" };
  const SUIT_WORDS = [["S", "spades"], ["H", "hearts"], ["D", "diamonds"], ["C", "clubs"]];
  const RANKS = { "contract-bridge": "AKQJT98765432", euchre: "AKQJT987" };
  function picker(name, label, pairs) {
    const l = el("label", "", label + " ");
    const s = el("select");
    s.name = name;
    for (const [value, words] of pairs) { const opt = el("option", "", words); opt.value = value; s.append(opt); }
    l.append(s);
    return l;
  }
  // An open claim: who may choose, why, and a control to take one of its options for a player (with the
  // card or suit the option names). Only words are shown; the option's value is what the table is sent.
  function claimForm(t, cl, i) {
    const f = el("form", "claim");
    const head = el("div", "headline", "Choice for " + cl.side + (cl.against ? " against " + cl.against : "") +
      (cl.trick ? " (trick " + cl.trick + ")" : ""));
    const why = el("div", "reason", cl.why);
    const law = lawLine(cl.law, cl.clause);
    const seat = picker("seat", "for", cl.seats.map((x) => [x.seat, x.name]));
    const what = picker("what", "choice", cl.options.map((o) => [o.what, o.words]));
    const ranks = (RANKS[t.game] || RANKS["contract-bridge"]).split("").map((r) => [r, r === "T" ? "10" : r]);
    const card = el("span", "card-pick");
    card.append(picker("rank", "card", ranks), picker("card-suit", "of", SUIT_WORDS));
    const suit = picker("suit", "suit", SUIT_WORDS);
    const needs = () => (cl.options.find((o) => o.what === what.querySelector("select").value) || {}).needs;
    const show = () => { card.hidden = needs() !== "card"; suit.hidden = needs() !== "suit"; };
    what.querySelector("select").addEventListener("change", show);
    show();
    const go = el("button", "", "Enter choice");
    go.type = "submit";
    go.setAttribute("aria-label", "Enter the choice at " + t.table);
    const said = el("span", "said");
    said.setAttribute("role", "status");
    f.append(head, why, law, seat, what, card, suit, go, said);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const v = (n) => f.querySelector("[name='" + n + "']").value;
      const body = { table: t.table, clause: cl.clause, seat: v("seat"), what: v("what") };
      if (needs() === "card") body.card = v("rank") + v("card-suit");
      if (needs() === "suit") body.suit = v("suit");
      said.textContent = " sending";
      const r = await post("/api/choose", body, null);
      if (r) said.textContent = r.ok ? " sent: pending until the table confirms" : " " + r.answer.error;
    });
    f.dataset.claim = String(i);
    return f;
  }
  // The missing-card search: where the card was found (or that it was not) is recorded for the table.
  function searchForm(t) {
    const f = el("form", "search");
    const found = picker("found", "outcome", t.search.outcomes.map((o, i) => [String(i), o.words]));
    const go = el("button", "", "Record search");
    go.type = "submit";
    go.setAttribute("aria-label", "Record the search for the missing card at " + t.table);
    const said = el("span", "said");
    said.setAttribute("role", "status");
    f.append(el("div", "headline", "Search for the card missing from " + t.search.short + "'s hand"), found, go, said);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const o = t.search.outcomes[Number(f.querySelector("[name='found']").value)];
      said.textContent = " sending";
      const r = await post("/api/search", { table: t.table, found: o.found }, null);
      if (r) said.textContent = r.ok ? " sent: pending until the table confirms" : " " + r.answer.error;
    });
    return f;
  }

  const SEATS = [["N", "North"], ["E", "East"], ["S", "South"], ["W", "West"]];
  // A form that posts its fields to `url` and says what became of it.
  function entryForm(t, cls, title, parts, label, url, fields) {
    const f = el("form", cls);
    const go = el("button", "", label);
    go.type = "submit";
    go.setAttribute("aria-label", label + " at " + t.table);
    const said = el("span", "said");
    said.setAttribute("role", "status");
    f.append(el("div", "headline", title), ...parts, go, said);
    f.addEventListener("submit", async (ev) => {
      ev.preventDefault();
      said.textContent = " sending";
      const r = await post(url, Object.assign({ table: t.table }, fields(f)), null);
      if (r) said.textContent = r.ok ? " sent: pending until the table confirms" : " " + r.answer.error;
    });
    return f;
  }
  // A euchre declaration entered for a player (the suit only when naming one).
  function bidForm(t, calls) {
    const call = picker("call", "call", calls.map((x) => [x.call, x.words]));
    const suit = picker("suit", "suit", SUIT_WORDS);
    const alone = el("label", "", "alone ");
    const box = el("input");
    box.type = "checkbox"; box.name = "alone";
    alone.append(box);
    const show = () => { suit.hidden = call.querySelector("select").value !== "name"; };
    call.querySelector("select").addEventListener("change", show);
    show();
    return entryForm(t, "bid", "Enter a bid for a player", [picker("seat", "for", SEATS), call, suit, alone],
      "Enter bid", "/api/bid", (f) => {
        const v = (n) => f.querySelector("[name='" + n + "']").value;
        const body = { seat: v("seat"), call: v("call"), alone: box.checked };
        if (body.call === "name") body.suit = v("suit");
        return body;
      });
  }
  // A bridge call entered for a player (a club without bidding cards, or a call the camera did not see):
  // any call, for any seat; the table's engine judges whose turn it was and whether it was legal.
  function callForm(t, calls) {
    return entryForm(t, "bridge-call", "Enter a call for a player",
      [picker("seat", "for", SEATS), picker("call", "call", calls.map((x) => [x.call, x.words]))],
      "Enter call", "/api/call", (f) => {
        const v = (n) => f.querySelector("[name='" + n + "']").value;
        return { seat: v("seat"), call: v("call") };
      });
  }
  // A bridge deal's irregularity or claim: what waits, in words, and a form for each answer the laws leave
  // to a player or the director now (the server says which, and every word; the table's engine judges).
  function bridgePart(t, b) {
    const lines = (b.said || []).concat(b.claim ? [b.claim] : []).map((w) => el("div", "reason bridge-said", w));
    return lines.concat((b.offers || []).map((o) => answerForm(t, o)));
  }
  function answerForm(t, o) {
    const seats = (o.seats || []).map((x) => [x.seat, x.name]);
    const parts = [];
    if (o.law) parts.push(lawLine(o.law, o.clause));
    if (o.why) parts.push(el("div", "reason", o.why));
    const v = (f, n) => f.querySelector("[name='" + n + "']").value;
    const count = (most) => Array.from({ length: most + 1 }, (_, i) => [String(i), String(i)]);
    let fields = (f) => ({ seat: v(f, "seat") });
    if (seats.length) parts.push(picker("seat", o.kind === "claim" ? "by" : "for", seats));
    if (o.kind === "correct_revoke") {
      parts.push(picker("card", "card played instead", o.cards.map((x) => [x.card, x.words])));
      fields = (f) => ({ seat: v(f, "seat"), card: v(f, "card") });
    } else if (o.kind === "bar") {
      if (o.seat) parts[parts.length - 1].querySelector("select").value = o.seat;
      parts.push(picker("rounds", "must pass", o.turns.map((x) => [String(x.turns), x.words])));
      fields = (f) => ({ seat: v(f, "seat"), rounds: v(f, "rounds") === "rest" ? "rest" : Number(v(f, "rounds")) });
    } else if (o.kind === "claim") {
      parts.push(picker("tricks", "tricks for his side, of the last " + o.most, count(o.most)));
      fields = (f) => ({ seat: v(f, "seat"), tricks: Number(v(f, "tricks")) });
    } else if (o.kind === "claim_reply") {
      parts.push(picker("agree", "answer", o.answers.map((x) => [String(x.agree), x.words])));
      fields = (f) => ({ seat: v(f, "seat"), agree: v(f, "agree") === "true" });
    } else if (o.kind === "claim_ruled") {
      parts.push(picker("tricks", "tricks for the claimer's side", count(o.most)));
      fields = (f) => ({ tricks: Number(v(f, "tricks")) });
    }
    return entryForm(t, "answer " + o.kind, o.title, parts, o.label, "/api/" + o.kind, fields);
  }
  // The euchre dealer's discard (the card when it was seen).
  function discardForm(t) {
    const seat = picker("seat", "by", SEATS);
    const dealer = SEATS.find((x) => x[1] === t.dealer);
    if (dealer) seat.querySelector("select").value = dealer[0];
    const ranks = [["", "not seen"]].concat(RANKS.euchre.split("").map((r) => [r, r === "T" ? "10" : r]));
    return entryForm(t, "discard", "Enter the dealer's discard", [seat, picker("rank", "card", ranks),
      picker("card-suit", "of", SUIT_WORDS)], "Enter discard", "/api/discard", (f) => {
      const v = (n) => f.querySelector("[name='" + n + "']").value;
      return v("rank") ? { seat: v("seat"), card: v("rank") + v("card-suit") } : { seat: v("seat") };
    });
  }

  function choice(name, label, options) {
    const l = el("label", "", label + " ");
    const s = el("select");
    s.name = name;
    for (const o of options) { const opt = el("option", "", o); opt.value = o; s.append(opt); }
    l.append(s);
    return l;
  }
  function number(name, label, max) {
    const l = el("label", "", label + " ");
    const i = el("input");
    i.type = "number"; i.name = name; i.min = "0"; i.max = String(max); i.required = true;
    l.append(i);
    return l;
  }
  // The director enters a hand's result: the fields of a `result` event for the table's game.
  function resultForm(f, game, id, label, deal) {
    const parts = [];
    if (deal) {
      const l = el("label", "", "deal ");
      const n = el("input");
      n.type = "number"; n.name = "deal"; n.min = "1"; n.value = String(deal); n.required = true;
      l.append(n);
      parts.push(l);
    }
    if (game === "contract-bridge") {
      const l = el("label", "", "contract ");
      const contract = el("input");
      contract.name = "contract"; contract.placeholder = "4S, 3NTX"; contract.size = 6; contract.required = true;
      l.append(contract);
      parts.push(choice("declarer", "declarer", ["N", "E", "S", "W"]), l, number("tricks", "tricks", 13));
    } else if (game === "euchre") {
      const l = el("label", "", "alone ");
      const alone = el("input");
      alone.type = "checkbox"; alone.name = "alone";
      l.append(alone);
      parts.push(choice("makers", "makers", ["NS", "EW"]), l, number("tricks", "tricks", 5));
    } else { f.replaceChildren(); return; }
    const go = el("button", "", label);
    go.type = "submit";
    go.setAttribute("aria-label", label + " at " + nameOf(id));
    const said = el("span", "said");
    said.setAttribute("role", "status");
    f.replaceChildren(...parts, go, said);
  }
  async function enterResult(id, f, url) {
    f.querySelector(".said").textContent = " sending";
    const result = {};
    let deal = null;
    for (const input of f.querySelectorAll("input, select")) {
      if (input.name === "deal") deal = Number(input.value);
      else if (input.type === "checkbox") result[input.name] = input.checked;
      else if (input.type === "number") result[input.name] = input.value === "" ? null : Number(input.value);
      else result[input.name] = input.value;
    }
    const body = deal === null ? { table: id, result: result } : { table: id, deal: deal, result: result };
    const r = await post(url || "/api/result", body, null);
    if (r) f.querySelector(".said").textContent = r.ok ? " sent: pending until the table takes it" : " " + r.answer.error;
  }

  function connect() {
    const es = new EventSource("/events");
    es.onopen = () => { connEl.textContent = "live"; connEl.className = "conn live"; };
    es.onmessage = (ev) => apply(JSON.parse(ev.data));
    es.addEventListener("expired", () => { es.close(); window.location = "/login"; });
    es.onerror = async () => {
      connEl.textContent = "reconnecting"; connEl.className = "conn down";
      const r = await fetch("/api/state", { credentials: "same-origin" });
      if (r.status === 401) { es.close(); window.location = "/login"; }
    };
  }
  connect();
})();
