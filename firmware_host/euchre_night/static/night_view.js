// A euchre night's view drawn on a page: the round, the tables (seats, hands, points, reneges), who sits
// out and the standings. Shared by `cardtable euchre serve`'s pages (pages.py) and the director's server's
// (screens.py). Every value is put with textContent, never as markup: a hand's fields come from a table's
// login, and a name from the roster.
"use strict";
window.euchreNight = (() => {
  const cell = (tr, tag, text, cls) => {
    const c = document.createElement(tag);
    c.textContent = String(text);
    if (cls) c.className = cls;
    tr.appendChild(c);
    return c;
  };
  const row = (table, tag, cells) => {
    const tr = document.createElement("tr");
    for (const [text, cls] of cells) cell(tr, tag, text, cls);
    table.appendChild(tr);
    return tr;
  };
  const seats = t => ["N", "S", "E", "W"].map(s => s + ": " + t.seats[s].name).join(", ");
  const renege = r => "hand " + r.hand + ": " + r.seat + " trick " + r.trick + " (" + r.law + ")";
  function draw(v, only) {
    const $ = id => document.getElementById(id);
    $("round").textContent = (v.finished ? "Final standings" :
      "Round " + v.round + " of " + v.rounds + (v.called ? " (called: finish the hand in play)" : "")) +
      " · hands taken: " + v.hands_taken;
    const rows = v.tables.filter(t => !only || t.table === only);
    const tables = document.createElement("table");
    row(tables, "th", [["Table"], ["Seats"], ["Hands"], ["NS"], ["EW"], ["Reneges"]]);
    for (const t of rows) {
      // a Swiss round that no draw could make without a repeat: the table whose partnerships met before
      row(tables, "td", [[t.table + (t.repeat ? " (repeat)" : "")], [seats(t)], [t.hands + "/" + t.of, "n"], [t.ns, "n"], [t.ew, "n"],
                         [t.reneges.map(renege).join("; "), "renege"]]);
    }
    if (only && !rows.length) row(tables, "td", [["This table sits out this round."]]).firstChild.colSpan = 6;
    const box = $("tables");
    box.replaceChildren(tables);
    if (v.out.length) {
      const p = document.createElement("p");
      p.textContent = "Sitting out: " + v.out.map(p => p.name).join(", ");
      box.appendChild(p);
    }
    const st = $("standings");
    st.replaceChildren();
    row(st, "th", [["Place"], ["Player"], ["Points"], ["Hands won"], ["Loners"]]);
    for (const r of v.standings) {
      row(st, "td", [[r.place], [r.shown], [r.points_shown, "n"], [r.hands_won, "n"], [r.loners, "n"]]);
    }
    $("head").textContent = "journal head " + v.head;
    document.body.dataset.version = v.version;
  }
  return {draw};
})();
