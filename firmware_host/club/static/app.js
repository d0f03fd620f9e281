// cardtable dashboard: live tables over server-sent events. Everything shown is set with textContent
// (never innerHTML), so nothing a table sends can become markup.
"use strict";
(function () {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const tablesEl = document.getElementById("tables");
  const feedEl = document.getElementById("feed");
  const packsEl = document.getElementById("packs");
  const connEl = document.getElementById("conn");
  const countEl = document.getElementById("table-count");
  const cards = new Map();   // table id -> element
  const packRows = new Map();
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

  function tableCard(id) {
    let c = cards.get(id);
    if (c) return c;
    c = el("div", "table");
    c.dataset.table = id;
    const h = el("h3");
    h.append(el("span", "name", id), el("span", "phase"));
    c.append(h, el("div", "meta"), el("div", "lamps"), el("div", "ruling"));
    const b = el("button", "ack", "Acknowledge");
    b.type = "button";
    b.addEventListener("click", () => acknowledge(id));
    const f = el("form", "result");
    f.addEventListener("submit", (ev) => { ev.preventDefault(); enterResult(id, f); });
    c.append(b, f);
    // keep the tables in id order
    const after = [...cards.keys()].filter((k) => k > id).sort()[0];
    tablesEl.insertBefore(c, after ? cards.get(after) : null);
    cards.set(id, c);
    countEl.textContent = String(cards.size);
    return c;
  }

  const shown = new Map();  // table id -> what was last drawn, so unchanged parts are left alone

  function showTable(t) {
    const c = tableCard(t.table);
    const last = shown.get(t.table) || {};
    const text = (sel, value) => {
      if (last[sel] !== value) c.querySelector(sel).textContent = value;
      last[sel] = value;
    };
    c.classList.toggle("attention", !!t.needs_ack);
    c.classList.toggle("offline", !t.online);
    text(".phase", t.online ? t.phase : "offline");
    const counts = Object.entries(t.counts || {}).map(([s, n]) => s + " " + n).join(", ");
    let meta = "deal " + t.deal + (t.dealer ? ", dealer " + t.dealer : "") + (counts ? " | cards: " + counts : "");
    meta += " | events " + t.events + (t.last_event ? " (" + t.last_event + ")" : "");
    if (t.shoe_online === false) meta += " | shoe offline";
    if (t.camera_online === false) meta += " | camera offline";
    text(".meta", meta);
    const lampsKey = JSON.stringify(t.lamps || {});
    if (last.lamps !== lampsKey) {
      c.querySelector(".lamps").replaceChildren(...Object.entries(t.lamps || {}).map(([name, lit]) => {
        const l = el("span", "lamp" + (lit ? " lit" : ""), name);
        l.dataset.lamp = name;
        return l;
      }));
      last.lamps = lampsKey;
    }
    const rulingKey = JSON.stringify([t.ruling, t.acked_by]);
    if (last.ruling !== rulingKey) {
      const r = c.querySelector(".ruling");
      if (t.ruling) {
        r.replaceChildren(el("div", "remedy", t.ruling.remedy),
          el("div", "law", t.ruling.law + (t.ruling.clause ? " [" + t.ruling.clause + "]" : "")),
          el("div", "reason", t.ruling.reason));
      } else {
        r.replaceChildren();
      }
      if (t.acked_by) r.append(el("div", "acked", "acknowledged by " + t.acked_by));
      last.ruling = rulingKey;
    }
    c.querySelector(".ack").disabled = !t.needs_ack;
    if (last.game !== t.game) {
      resultForm(c.querySelector("form.result"), t.game);
      last.game = t.game;
    }
    shown.set(t.table, last);
  }

  function showRuling(r) {
    const li = el("li");
    li.append(el("b", "", r.table + " "), el("span", "remedy", r.remedy + " "),
      el("span", "law", r.law ? "(" + r.law + ") " : ""), el("span", "reason", r.reason));
    feedEl.prepend(li);
    while (feedEl.children.length > 200) feedEl.lastChild.remove();
  }

  function showPack(p) {
    const key = p.table + "\u0000" + p.pack;
    let row = packRows.get(key);
    if (!row) {
      row = el("tr");
      packsEl.append(row);
      packRows.set(key, row);
    }
    row.replaceChildren(el("td", "", p.table), el("td", "", p.pack), el("td", "", p.unreadable),
      el("td", "", p.damaged), el("td", "", p.deals), el("td", p.retire ? "retire" : "", p.retire ? "retire" : ""));
  }

  function apply(msg) {
    if (msg.type === "snapshot") {
      msg.tables.forEach(showTable);
      feedEl.replaceChildren();
      msg.feed.slice().reverse().forEach(showRuling);
      msg.packs.forEach(showPack);
      return;
    }
    const times = [];
    for (const u of msg.updates) {
      if (u.type === "table") {
        showTable(u.table);
        if (u.ts) times.push(...u.ts);
      } else if (u.type === "ruling") showRuling(u.ruling);
      else if (u.type === "pack") showPack(u.pack);
    }
    // measured once the page has been changed (the browser paints right after this task)
    const now = (performance.timeOrigin + performance.now()) / 1000;
    for (const t of times) {
      if (window.cardtableLatency.length < LAT_MAX) window.cardtableLatency.push(now - t);
    }
    window.cardtableUpdates += msg.updates.length;
  }

  function choice(name, options) {
    const s = el("select");
    s.name = name;
    for (const o of options) { const opt = el("option", "", o); opt.value = o; s.append(opt); }
    return s;
  }

  function number(name, max) {
    const i = el("input");
    i.type = "number"; i.name = name; i.min = "0"; i.max = String(max); i.required = true;
    return i;
  }

  // The director enters a hand's result: the fields of a `result` event for the table's game.
  function resultForm(f, game) {
    const parts = [];
    if (game === "contract-bridge") {
      const contract = el("input");
      contract.name = "contract"; contract.placeholder = "4S, 3NTX"; contract.size = 6; contract.required = true;
      parts.push(el("label", "", "declarer "), choice("declarer", ["N", "E", "S", "W"]),
        el("label", "", " contract "), contract, el("label", "", " tricks "), number("tricks", 13));
    } else if (game === "euchre") {
      const alone = el("input");
      alone.type = "checkbox"; alone.name = "alone";
      parts.push(el("label", "", "makers "), choice("makers", ["NS", "EW"]), el("label", "", " alone "), alone,
        el("label", "", " tricks "), number("tricks", 5));
    } else {
      f.replaceChildren();
      return;
    }
    const go = el("button", "", "Enter result");
    go.type = "submit";
    f.replaceChildren(...parts, go, el("span", "said"));
  }

  async function enterResult(id, f) {
    f.querySelector(".said").textContent = " sending";
    const result = {};
    for (const input of f.querySelectorAll("input, select")) {
      if (input.type === "checkbox") result[input.name] = input.checked;
      else if (input.type === "number") result[input.name] = Number(input.value);
      else result[input.name] = input.value;
    }
    const resp = await fetch("/api/result", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ table: id, result: result }),
    });
    if (resp.status === 401) { window.location = "/login"; return; }
    const answer = await resp.json();
    f.querySelector(".said").textContent = resp.ok ? " sent" : " " + answer.error;
  }

  async function acknowledge(id) {
    const resp = await fetch("/api/ack", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ table: id }),
    });
    if (resp.status === 401) window.location = "/login";
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
