// The director's duplicate page: progress, fouled boards, ranking, travellers, results by hand, corrections,
// adjusted scores; "Move for round N" asks first and can be undone until a result of that round arrives.
"use strict";
(() => {
  const { el, cell, headRow, traveller, placeBoard, connect, notSent, toLogin } = window.dupview;
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = (id) => document.getElementById(id);
  const seenLines = new Set();
  window.cardtableDupLatency = [];
  window.cardtableDupServer = [];   // the part of each delay spent before the server sent the update
  window.cardtableDupVersion = -1;
  let called = 0;

  function drawSession(v) {
    const s = v.session;
    $("title").textContent = s.name + " · " + s.date;
    $("session-words").textContent = s.club + " · " + s.movement + " · " + s.pairs + " pairs · " + s.method;
    $("commitment").textContent = s.commitment;
  }
  function drawHead(v) {   // the session journal's head moves with every commit: on every update, not once
    if (v.session && v.session.head) $("journal-head").textContent = v.session.head;
  }
  function drawRound(v) {
    if (v.called !== called) $("move-confirm").hidden = true;
    called = v.called;
    $("round-words").textContent = "Round " + v.called + " of " + v.rounds + " called. ";
    const b = $("move");
    b.hidden = v.called >= v.rounds;
    b.textContent = "Move for round " + (v.called + 1);
    $("undo").hidden = !v.undo;
    $("undo").textContent = "Undo the call of round " + v.called;
    $("finished").hidden = !v.finished;
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
      if (t.names) li.append(el("div", "meta", t.names));
      li.append(el("div", "meta", t.left.length ? "still to play: " + t.left.join(", ") : "round finished"));
      if (t.slow) li.append(el("div", "meta", "slow: boards " + t.unplayed.join(", ") + " unplayed"));
      const off = t.taken_off || { replay: [], director: [] };
      if (off.replay.length) li.append(el("div", "meta", "taken off, to be replayed: board " + off.replay.join(", ")));
      if (off.director.length) li.append(el("div", "meta", "taken off, for you to score: board " + off.director.join(", ")));
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
  function drawConflicts(v) {
    const ol = $("conflicts");
    ol.replaceChildren();
    for (const c of v.conflicts) {
      const li = el("li");
      li.dataset.key = c.key;
      li.append(el("div", "", "Line " + c.key + " (table " + c.table + ", round " + c.round + "): entered by hand by " +
        c.hand_by + ": " + c.hand + "; the table sent: " + c.table_result + (c.same ? " (the same result)" : "") +
        ". Only the one entered by hand is scored until you choose." +
        (c.foul ? " Keeping the table's keeps its fouled-board call: the board is scored in a fouled group from this table and round on." : "")));
      for (const [keep, words] of [["table", "Keep the table's"], ["hand", "Keep the one entered by hand"]]) {
        const b = el("button", "", words);
        b.type = "button";
        b.addEventListener("click", () => post("/api/duplicate/resolve", { key: c.key, keep: keep }, $("entry-answer")));
        li.append(b, " ");
      }
      ol.append(li);
    }
    $("conflicts-part").hidden = v.conflicts.length === 0;
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
        cell(tr, row.place); cell(tr, row.pair); cell(tr, row.names, true).classList.add("wrap");
        cell(tr, row.total); cell(tr, row.percent || row.per_board); cell(tr, row.boards);
        body.append(tr);
      }
      table.append(body);
      wrap.append(table);
      box.append(wrap);
    }
  }
  function drawRefused(v) {
    for (const [list, empty, rows] of [["refused", "no-refused", v.refusals], ["mine", "no-mine", v.mine]]) {
      const ol = $(list);
      ol.replaceChildren();
      for (const r of rows) {
        // who sent it, and from where: "Table 2 (table-02), board 5: ..." (a table's page also says whose)
        const table = r.table ? "Table " + r.table + (r.club_table ? " (" + r.club_table + ")" : "")
          : r.club_table ? "Table " + r.club_table : "";
        // the reason names them already: "table 2, round 1, board 5: ...", or the club table's own id
        // ("table-02: member cards read, ...", "table-02's member cards: ...")
        const said = (r.table && r.why.startsWith("table " + r.table + ",")) ||
          (r.club_table && (r.why.startsWith(r.club_table + ":") || r.why.startsWith(r.club_table + "'s ")));
        // a table's member cards: labelled so (their "by", "table-02 (member cards)", only repeats the table)
        const cards = r.what === "member cards";
        const where = [cards ? "" : r.by, said ? "" : table, cards && !said ? "member cards refused" : "",
          said || !r.board ? "" : "board " + r.board].filter((x) => x).join(", ");
        ol.append(el("li", "", (where ? where + ": " : "") + r.why));
      }
      $(empty).hidden = rows.length > 0;
    }
  }
  // a traveller line clicked: every form's line, the adjusted score's board and pairs, the correction's values
  function pick(ln) {
    for (const id of ["enter", "correct", "regroup"]) $(id).elements.key.value = ln.key;
    const a = $("adjust").elements;
    const [board] = ln.key.split("/");
    a.board.value = board; a.ns.value = ln.ns; a.ew.value = ln.ew;
    const c = $("correct").elements;
    c.contract.value = ""; c.tricks.value = ""; c.lead.value = ""; c.declarer.value = "";
    $("entry-answer").textContent = "Line " + ln.key + " chosen.";
    $("entry-answer").className = "answer";
  }
  function drawBoards(boards, replace, sentAt) {
    const box = $("travellers");
    if (replace) box.replaceChildren();
    const now = (performance.timeOrigin + performance.now()) / 1000;
    for (const t of boards) {
      placeBoard(box, traveller(t, false, pick));
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
    drawHead(msg);
    drawRound(msg); drawProgress(msg); drawFouls(msg); drawConflicts(msg); drawRankings(msg); drawRefused(msg);
    drawBoards(msg.boards, msg.type === "snapshot", msg.now);
    window.cardtableDupVersion = msg.version;
  }
  async function post(url, body, answer) {
    const resp = await fetch(url, { method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf }, body: JSON.stringify(body) });
    if (resp.status === 401) { toLogin(); return false; }
    const said = await resp.json();
    // a form taken names the line it changed, as the session journaled it (the form is emptied: the director
    // sees which line his typing became); the round call and the Players form name none
    const line = resp.ok && said.key ? " line " + said.key : "";
    answer.textContent = !resp.ok ? said.error
      : said.already ? "Already in, as entered:" + line + "." : line ? "Done:" + line + "." : "Done.";
    answer.className = resp.ok ? "answer" : "answer refused";
    return resp.ok;
  }
  $("move").addEventListener("click", () => {
    $("move-question").textContent = "Call round " + (called + 1) + "? Every table moves.";
    $("move-yes").textContent = "Yes, call round " + (called + 1);
    $("move-confirm").hidden = false;
    $("move-yes").focus();
  });
  // the question hidden, the keyboard's focus goes back to "Move for round N" (left on a hidden button, the
  // next Tab would start again from the top of the page)
  $("move-no").addEventListener("click", () => { $("move-confirm").hidden = true; $("move").focus(); });
  $("move-yes").addEventListener("click", () => {
    $("move-confirm").hidden = true;
    $("move").focus();
    post("/api/duplicate/round", { round: called + 1 }, $("move-answer"));
  });
  $("undo").addEventListener("click", () => post("/api/duplicate/uncall", { round: called }, $("move-answer")));
  function fields(form, names) {
    const f = new FormData(form);
    const body = {};
    for (const n of names) if (f.get(n) !== null && f.get(n) !== "") body[n] = f.get(n);
    return body;
  }
  // A form that changes a result (enter, correct or take off, adjust) is emptied once the session took it, as
  // the page first showed it: kept, what was chosen for one line (a declarer, a contract, a reason) went
  // unseen into the director's next record. A refused form keeps what was typed, so he can fix it
  // (docs/session.md, "The director's forms").
  function emptiedIfTaken(form) {
    return (ok) => { if (ok) { form.reset(); kindWords(); } };
  }
  $("enter").addEventListener("submit", (ev) => {
    ev.preventDefault();
    post("/api/duplicate/enter", fields(ev.target, ["key", "contract", "declarer", "lead", "tricks", "why"]), $("entry-answer"))
      .then(emptiedIfTaken(ev.target));
  });
  function kindWords() {
    const assigned = $("adjust").elements.kind.value === "assigned";
    $("ns-value-label").textContent = assigned ? "North-South's own score" : "North-South: A+, A=, A- or %";
    $("ew-value-label").textContent = assigned ? "East-West's own score (a split score only)" : "East-West: A+, A=, A- or %";
    $("adjust-hint").textContent = assigned
      ? "Each side's own score, as on its own scorecard: North-South +420 and East-West -140. Leave East-West empty when not split."
      : "A+ is average plus (60 %), A= average (50 %), A- average minus (40 %).";
  }
  $("adjust").elements.kind.addEventListener("change", kindWords);
  $("adjust").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const body = { board: Number(f.get("board")), ns: f.get("ns"), ew: f.get("ew"), kind: f.get("kind"), why: f.get("why") };
    if (body.kind === "assigned") { body.ns_own = f.get("ns_value"); body.ew_own = f.get("ew_value"); }
    else { body.ns_value = f.get("ns_value"); body.ew_value = f.get("ew_value"); }
    post("/api/duplicate/adjust", body, $("entry-answer")).then(emptiedIfTaken(ev.target));
  });
  $("correct").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const body = fields(ev.target, ["key", "contract", "declarer", "lead", "why"]);
    const t = new FormData(ev.target).get("tricks");
    if (t !== "") body.tricks = Number(t);
    post("/api/duplicate/correct", body, $("entry-answer")).then(emptiedIfTaken(ev.target));
  });
  $("players").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const body = { pair: f.get("pair"), players: [f.get("p1"), f.get("p2")] };
    // a substitute from round N on; left empty, the naming is for the whole evening (docs/session.md)
    if (f.get("round") !== "") body.round = Number(f.get("round"));
    post("/api/duplicate/players", body, $("entry-answer"));
  });
  $("cancel-line").addEventListener("click", () => {
    post("/api/duplicate/cancel", fields($("correct"), ["key", "why", "then"]), $("entry-answer"))
      .then(emptiedIfTaken($("correct")));
  });
  $("regroup").addEventListener("submit", (ev) => {
    ev.preventDefault();
    post("/api/duplicate/regroup", fields(ev.target, ["key", "group"]), $("entry-answer"));
  });
  for (const id of ["enter", "correct", "adjust", "regroup", "players"]) notSent($(id), $("entry-answer"));
  kindWords();
  connect("/duplicate/events", apply, $("conn"), "/api/duplicate/state");
})();
