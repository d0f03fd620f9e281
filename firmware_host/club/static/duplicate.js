// The director's duplicate page: progress, fouled boards, ranking, travellers, adjusted scores.
"use strict";
(() => {
  const { el, cell, headRow, traveller, placeBoard, connect } = window.dupview;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (id) => document.getElementById(id);
  const seenLines = new Set();
  window.cardtableDupLatency = [];
  window.cardtableDupServer = [];   // the part of each delay spent before the server sent the update
  window.cardtableDupVersion = -1;
  let called = 0, rounds = 0;

  function drawSession(v) {
    const s = v.session;
    $("title").textContent = s.name + " · " + s.date;
    $("session-words").textContent = s.club + " · " + s.movement + " · " + s.pairs + " pairs · " + s.method;
    $("commitment").textContent = s.commitment;
  }
  function drawRound(v) {
    called = v.called; rounds = v.rounds;
    $("round-words").textContent = "Round " + v.called + " of " + v.rounds + " called. ";
    const b = $("move");
    b.hidden = v.called >= v.rounds;
    b.textContent = "Move for round " + (v.called + 1);
  }
  function drawProgress(v) {
    const ol = $("progress");
    ol.replaceChildren();
    for (const t of v.progress) {
      const li = el("li", t.slow ? "slow" : "");
      li.dataset.table = t.table;
      li.append(el("b", "", "Table " + t.table + (t.club_table ? " (" + t.club_table + ")" : "") + " · round " + t.round));
      if (t.sit_out) li.append(el("span", "", (t.ns || t.ew) + " sits out"));
      else li.append(el("span", "", t.ns + " v " + t.ew + " · boards " + t.boards.join(", ")));
      const names = [t.ns_names, t.ew_names].filter((n) => n).join(" v ");
      if (names) li.append(el("div", "meta", names));
      li.append(el("div", "meta", t.left.length ? "still to play: " + t.left.join(", ") : "round finished"));
      if (t.slow) li.append(el("div", "meta", "slow: boards " + t.unplayed.join(", ") + " unplayed"));
      ol.append(li);
    }
    $("slow-count").textContent = v.slow.length;
  }
  function drawFouls(v) {
    const ol = $("fouls");
    ol.replaceChildren();
    for (const f of v.fouls) {
      const li = el("li");
      li.dataset.board = f.board;
      li.textContent = "Board " + f.board + ", table " + f.table + ", round " + f.round + ": " + f.said +
        " Hands that differ: " + f.seats + ". Scored in group " + f.group + ".";
      ol.append(li);
    }
    $("no-fouls").hidden = v.fouls.length > 0;
  }
  function drawRankings(v) {
    const box = $("rankings");
    box.replaceChildren();
    for (const r of v.rankings) {
      box.append(el("h3", "", r.field));
      const wrap = el("div", "scroll");
      const table = el("table", "dup-table");
      table.append(headRow(["Place", "Pair", "Players", "Total", "%", "Boards"], [2]));
      const body = el("tbody");
      for (const row of r.rows) {
        const tr = el("tr");
        tr.dataset.pair = row.pair;
        cell(tr, row.place); cell(tr, row.pair); cell(tr, row.names, true);
        cell(tr, row.total); cell(tr, row.percent || row.per_board); cell(tr, row.boards);
        body.append(tr);
      }
      table.append(body);
      wrap.append(table);
      box.append(wrap);
    }
  }
  function drawRefused(v) {
    const ol = $("refused");
    ol.replaceChildren();
    for (const r of v.refusals) ol.append(el("li", "", r.why));
    $("no-refused").hidden = v.refusals.length > 0;
  }
  function drawBoards(boards, replace, sentAt) {
    const box = $("travellers");
    if (replace) box.replaceChildren();
    const now = (performance.timeOrigin + performance.now()) / 1000;
    for (const t of boards) {
      placeBoard(box, traveller(t, false));
      for (const ln of t.lines) {
        if (!seenLines.has(ln.key)) {
          seenLines.add(ln.key);
          if (!replace && ln.t && window.cardtableDupLatency.length < 100000) {
            window.cardtableDupLatency.push(now - ln.t);
            if (sentAt) window.cardtableDupServer.push(sentAt - ln.t);
          }
        }
      }
    }
  }
  function apply(msg) {
    if (msg.type === "snapshot") drawSession(msg);
    drawRound(msg); drawProgress(msg); drawFouls(msg); drawRankings(msg); drawRefused(msg);
    drawBoards(msg.boards, msg.type === "snapshot", msg.now);
    window.cardtableDupVersion = msg.version;
  }
  async function post(url, body, answer) {
    const resp = await fetch(url, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body) });
    if (resp.status === 401) { window.location = "/login"; return; }
    const said = await resp.json();
    answer.textContent = resp.ok ? "Done." : said.error;
    answer.className = resp.ok ? "answer" : "answer refused";
  }
  $("move").addEventListener("click", () => post("/api/duplicate/round", { round: called + 1 }, $("move-answer")));
  $("adjust").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    post("/api/duplicate/adjust", { board: Number(f.get("board")), ns: f.get("ns"), ew: f.get("ew"), kind: f.get("kind"),
      ns_value: f.get("ns_value"), ew_value: f.get("ew_value"), why: f.get("why") }, $("entry-answer"));
  });
  $("correct").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const body = { key: f.get("key"), why: f.get("why") };
    if (f.get("contract")) body.contract = f.get("contract");
    if (f.get("declarer")) body.declarer = f.get("declarer");
    if (f.get("tricks") !== "") body.tricks = Number(f.get("tricks"));
    post("/api/duplicate/correct", body, $("entry-answer"));
  });
  $("players").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    post("/api/duplicate/players", { pair: f.get("pair"), players: [f.get("p1"), f.get("p2")] }, $("entry-answer"));
  });
  $("cancel-line").addEventListener("click", () => {
    const f = new FormData($("correct"));
    post("/api/duplicate/cancel", { key: f.get("key"), why: f.get("why") }, $("entry-answer"));
  });
  connect("/duplicate/events", apply, $("conn"));
})();
