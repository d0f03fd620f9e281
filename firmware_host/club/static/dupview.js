// Shared by the duplicate session's pages: travellers and standings drawn with textContent only.
"use strict";
window.dupview = (() => {
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function cell(row, text, left) {
    const td = el("td", left ? "l" : "", text);
    row.append(td);
    return td;
  }
  function headRow(names, lefts) {
    const tr = el("tr");
    names.forEach((n, i) => { const th = el("th", lefts && lefts.includes(i) ? "l" : "", n); th.scope = "col"; tr.append(th); });
    const thead = el("thead");
    thead.append(tr);
    return thead;
  }
  // One board's traveller: a <details> block; ``seen`` collects the lines shown (for the delay figures).
  function traveller(t, open) {
    const d = el("details", "board");
    d.dataset.board = t.board;
    if (open) d.open = true;
    const par = t.par ? ", par " + t.par : "";
    const groups = t.groups.length > 1 ? ", fouled: groups " + t.groups.join(", ") : "";
    d.append(el("summary", "", "Board " + t.board + " · " + t.dealer + " deals, " + t.vulnerability + " · " +
      t.played + " of " + t.due + " played" + par + groups));
    const box = el("div", "scroll");
    const table = el("table", "dup-table");
    const pts = t.top === "" ? "IMPs" : "MP";
    table.append(headRow(["Round", "NS", "EW", "Contract", "By", "Tricks", "Lead", "Score", "NS " + pts, "EW " + pts,
      "NS %", "Group", "Note"], [3, 12]));
    const body = el("tbody");
    for (const ln of t.lines) {
      const tr = el("tr", ln.fouled ? "fouled" : "");
      tr.dataset.key = ln.key;
      cell(tr, ln.round || "");
      cell(tr, ln.ns).title = ln.ns_names || "";   // the players, with their member numbers
      cell(tr, ln.ew).title = ln.ew_names || "";
      cell(tr, ln.contract, true);
      [ln.declarer, ln.tricks, ln.lead, ln.score, ln.ns_points, ln.ew_points, ln.ns_pct, ln.group].forEach((v) => cell(tr, v));
      cell(tr, ln.note, true);
      body.append(tr);
    }
    table.append(body);
    box.append(table);
    d.append(box);
    if (t.dd) {
      const dd = Object.entries(t.dd).map(([seat, s]) => seat + ": NT " + s.NT + ", ♠ " + s.S + ", ♥ " + s.H +
        ", ♦ " + s.D + ", ♣ " + s.C).join(" · ");
      d.append(el("p", "meta", "Double dummy: " + dd + (t.par_contracts.length ? " · par " + t.par_contracts.join(", ") : "")));
    }
    return d;
  }
  function placeBoard(container, node) {
    const n = Number(node.dataset.board);
    const old = container.querySelector('details.board[data-board="' + n + '"]');
    if (old) { node.open = old.open; old.replaceWith(node); return; }
    const after = [...container.querySelectorAll("details.board")].find((d) => Number(d.dataset.board) > n);
    if (after) after.before(node); else container.append(node);
  }
  function connect(url, apply, connEl) {
    let es = null;
    function open() {
      es = new EventSource(url);
      es.onopen = () => { connEl.textContent = "live"; connEl.className = "conn live"; };
      es.onmessage = (ev) => apply(JSON.parse(ev.data));
      es.addEventListener("expired", () => { window.location = "/login"; });
      es.onerror = () => { connEl.textContent = "reconnecting"; connEl.className = "conn down"; };
    }
    open();
  }
  return { el, cell, headRow, traveller, placeBoard, connect };
})();
