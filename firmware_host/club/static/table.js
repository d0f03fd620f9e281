// A table's page for its players: this round, the pairs' standing, the travellers they may see.
"use strict";
(() => {
  const { el, cell, traveller, placeBoard, connect } = window.dupview;
  const $ = (id) => document.getElementById(id);
  const key = new URLSearchParams(window.location.search).get("key") || "";
  const base = window.location.pathname;
  window.cardtableShownBoards = [];

  function shown() {
    window.cardtableShownBoards = [...document.querySelectorAll("#travellers details.board")].map((d) => Number(d.dataset.board));
    $("no-travellers").hidden = window.cardtableShownBoards.length > 0;
  }
  function game(lines) {  // the game at the table, as its own screen shows it
    $("game").textContent = (lines || []).join("\n");
    $("game-section").hidden = !(lines || []).length;
  }
  function apply(msg) {
    if (msg.type === "game") { game(msg.game); return; }
    if ("game" in msg) game(msg.game);
    $("title").textContent = "Table " + msg.table + " · round " + msg.round + " of " + msg.rounds;
    $("here").textContent = msg.ns ? msg.ns + " v " + msg.ew + " · boards " + msg.boards.join(", ") +
      (msg.left.length ? " · still to play: " + msg.left.join(", ") : " · round finished") : "No boards here this round.";
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
  }
  connect(base + "/events?key=" + encodeURIComponent(key), apply, $("conn"));
})();
