// A table's page for its players: this round, the pairs' standing, the travellers they may see.
"use strict";
(() => {
  const { el, cell, traveller, placeBoard, connect, notSent } = window.dupview;
  const $ = (id) => document.getElementById(id);
  const key = new URLSearchParams(window.location.search).get("key") || "";
  const base = window.location.pathname;
  window.cardtableShownBoards = [];

  function shown() {
    window.cardtableShownBoards = [...document.querySelectorAll("#travellers details.board")].map((d) => Number(d.dataset.board));
    $("no-travellers").hidden = window.cardtableShownBoards.length > 0;
  }
  function game(g) {  // the game at the table, as its own screen shows it: sentences that wrap, the auction a table
    g = g || {};
    const box = $("game");
    box.replaceChildren(...(g.head || []).map((line) => el("p", "", line)));
    if ((g.auction || []).length) {
      const t = el("table", "auction");
      const head = el("tr");
      for (const name of g.auction[0]) { const th = el("th", "", name); th.scope = "col"; head.append(th); }
      t.append(el("thead"));
      t.tHead.append(head);
      const body = el("tbody");
      for (const row of g.auction.slice(1)) {
        const tr = el("tr");
        for (let i = 0; i < 4; i++) tr.append(el("td", "", row[i] || ""));
        body.append(tr);
      }
      t.append(body);
      box.append(t);
    }
    for (const line of g.lines || []) box.append(el("p", "", line));
    if (g.status) box.append(el("p", "status", g.status));
    const r = g.ruling;
    $("ruling").hidden = !r;
    if (r) {
      $("ruling-headline").textContent = "Ruling: " + r.headline;
      $("ruling-reason").textContent = r.reason;
      $("ruling-reason").hidden = !r.reason;
      $("ruling-law").textContent = r.law + (r.clause ? " [" + r.clause + "]" : "");
      $("ruling-law").hidden = !(r.law || r.clause);
    }
    const lamps = g.lamps || [];
    $("lamps").textContent = "Lamps lit: " + lamps.join(", ");
    $("lamps").hidden = !lamps.length;
    const off = "online" in g && !g.online;
    $("offline").textContent = off ? "This table's device is offline: what is shown here is the last it sent before it " +
      "stopped, and its results cannot reach the director until it is back. Call the director; a result can be entered by hand below." : "";
    $("offline").hidden = !off;
    $("game-section").hidden = !(box.childElementCount || r || lamps.length || off);
  }
  function apply(msg) {
    if (msg.type === "game") { game(msg.game); return; }
    if ("game" in msg) game(msg.game);
    $("title").textContent = "Table " + msg.table + " · round " + msg.round + " of " + msg.rounds;
    const named = (pair, names) => pair + (names ? " (" + names + ")" : "");
    $("here").textContent = msg.ns ? named(msg.ns, msg.ns_names) + " v " + named(msg.ew, msg.ew_names) + " · boards " + msg.boards.join(", ") +
      (msg.left.length ? " · still to play: " + msg.left.join(", ") : " · round finished") : "No boards here this round.";
    const over = msg.ns && !msg.left.length && (msg.next || []).length;
    $("next-box").hidden = !over;
    $("next").replaceChildren(...(over ? msg.next.map((line) => el("li", "", line)) : []));
    $("move").hidden = !msg.move;
    $("move").textContent = msg.move;
    const body = $("standing");
    body.replaceChildren();
    for (const s of msg.standing) {
      const tr = el("tr");
      [s.pair, s.field, s.place, s.percent || s.total, s.boards].forEach((v) => cell(tr, v));
      body.append(tr);
    }
    const box = $("travellers");
    if (msg.type === "snapshot") box.replaceChildren();
    for (const n of msg.hide || []) {
      const d = box.querySelector('details.board[data-board="' + n + '"]');
      if (d) d.remove();
    }
    for (const t of msg.travellers) placeBoard(box, traveller(t, false));
    shown();
    $("finished").hidden = !msg.finished;
    const sel = $("enter-key");
    const chosen = sel.value;
    sel.replaceChildren();
    for (const k of msg.enterable || []) {
      const [board, ns, ew] = k.split("/");
      const o = el("option", "", "Board " + board + " · " + ns + " v " + ew);
      o.value = k;
      sel.append(o);
    }
    if ((msg.enterable || []).includes(chosen)) sel.value = chosen;
    $("enter-part").hidden = !(msg.enterable || []).length;
  }
  async function name(confirm) {
    const f = new FormData($("players"));
    const resp = await fetch("/api" + base + "/players?key=" + encodeURIComponent(key), { method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ side: f.get("side"), players: [f.get("p1"), f.get("p2")], confirm }) });
    const said = await resp.json();
    const names = (said.players || []).map((p) => p.name + (p.member ? " (" + p.member + ")" : "")).join(" & ");
    $("players-answer").textContent = !resp.ok ? said.error : confirm ? "Named: " + names : names + "?";
    $("players-answer").className = resp.ok ? "answer" : "answer refused";
    $("players-answer").hidden = false;
    $("players-confirm").hidden = !resp.ok || confirm;
  }
  $("players").addEventListener("submit", (ev) => { ev.preventDefault(); name(false); });
  $("players-confirm").addEventListener("click", () => name(true));
  $("enter").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = ev.target.querySelector("button[type=submit]");
    if (button.disabled) return;   // a second press while the first is on its way: one result, one answer
    button.disabled = true;
    const f = new FormData(ev.target);
    const body = {};
    for (const n of ["key", "contract", "declarer", "lead", "tricks"]) if (f.get(n)) body[n] = f.get(n);
    try {
      const resp = await fetch("/api" + base + "/enter", { method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-Table-Key": key }, body: JSON.stringify(body) });
      const said = await resp.json();
      $("enter-answer").textContent = resp.ok ? (said.already ? "Entered already: " : "Entered: ") +
        "the director sees it as entered by hand." : said.error;
      $("enter-answer").className = resp.ok ? "answer" : "answer refused";
      if (resp.ok) ev.target.reset();
    } catch (e) {
      $("enter-answer").textContent = "Not sent (" + e.message + "): try again.";
      $("enter-answer").className = "answer refused";
    } finally {
      button.disabled = false;
    }
  });
  notSent($("players"), $("players-answer"));
  notSent($("enter"), $("enter-answer"));
  connect(base + "/events?key=" + encodeURIComponent(key), apply, $("conn"));
})();
