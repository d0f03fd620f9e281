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
  // A pair in its column: "3 NS" in the NS column, the direction left out on a phone (class "dir"); a pair
  // sitting the other way (an arrow-switched round) keeps its direction everywhere, and on a phone that has
  // no room for it the direction goes under the number (class "brk") rather than the table off its box.
  function pairCell(row, label, column) {
    const m = /^(\d+) (NS|EW)$/.exec(label || "");
    if (m && m[2] !== column) { const td = cell(row, label); td.classList.add("brk"); return td; }
    if (!m) return cell(row, label);
    const td = cell(row, m[1]);
    td.append(el("span", "dir", " " + m[2]));
    return td;
  }
  // One board's traveller: a <details> block. Every cell is one line (no word broken): the Group column
  // only on a fouled board, a line's note as a marker with the words listed under the table, and on a
  // narrow screen the Round, Lead and East-West points columns left out (class "opt"). ``pick``: called
  // with a line when its row is clicked (the director's page fills its forms).
  function traveller(t, open, pick) {
    const d = el("details", "board");
    d.dataset.board = t.board;
    if (open) d.open = true;
    const par = t.par ? ", par " + t.par : "";
    const fouled = t.groups.length > 1;
    const groups = fouled ? ", fouled: groups " + t.groups.join(", ") : "";
    d.append(el("summary", "", "Board " + t.board + " · " + t.dealer + " deals, " + t.vulnerability + " · " +
      t.played + " of " + t.due + " played" + par + groups));
    // the box scrolls when a traveller is wider than the screen (a big field's pairs and scores): a region
    // the keyboard can reach and a screen reader names, so that nothing in it is out of reach
    const box = el("div", "scroll");
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", "Board " + t.board + "'s traveller");
    const table = el("table", "dup-table");
    const pts = t.top === "" ? "IMPs" : "MP";
    const noted = t.lines.filter((ln) => ln.note);
    // [name, class, the part left out on a phone (only North-South's points are shown there)]
    const cols = [["Round", "opt"], ["NS", ""], ["EW", ""], ["Contract", "l"], ["By", ""], ["Tricks", ""],
      ["Lead", "opt"], ["Score", ""], [pts, "", "NS "], ["EW " + pts, "opt"], ["%", "", "NS "]];
    if (fouled) cols.push(["Group", ""]);
    if (noted.length) cols.push(["Note", "opt"]);
    const tr0 = el("tr");
    for (const [name, cls, lead] of cols) {
      const th = el("th", cls);
      if (lead) th.append(el("span", "dir", lead));
      th.append(name);
      th.scope = "col";
      tr0.append(th);
    }
    const thead = el("thead");
    thead.append(tr0);
    table.append(thead);
    const body = el("tbody");
    const notes = el("ol", "notes");
    for (const ln of t.lines) {
      const tr = el("tr", (ln.fouled ? "fouled" : "") + (ln.hand ? " hand" : ""));
      tr.dataset.key = ln.key;
      cell(tr, ln.round || "").className = "opt";
      pairCell(tr, ln.ns, "NS").title = ln.ns_names || "";   // the players, with their member numbers
      pairCell(tr, ln.ew, "EW").title = ln.ew_names || "";
      if (ln.contract === "Passed out") {   // "Pass" on a phone
        const td = cell(tr, "", true);
        td.append(el("span", "dir", "Passed out"), el("span", "phone", "Pass"));
      } else cell(tr, ln.contract, true);
      [ln.declarer, ln.tricks].forEach((v) => cell(tr, v));
      cell(tr, ln.lead).className = "opt";
      // a split score ("420/-140", each side's own) may go onto two lines after its slash on a phone
      const [own, theirs] = String(ln.score).split("/");
      const score = cell(tr, theirs === undefined ? own : own + "/");
      if (theirs !== undefined) { score.append(el("wbr"), theirs); score.classList.add("brk"); }
      cell(tr, ln.ns_points);
      cell(tr, ln.ew_points).className = "opt";
      cell(tr, ln.ns_pct);
      if (fouled) cell(tr, ln.group);
      if (noted.length) {
        const n = ln.note ? noted.indexOf(ln) + 1 : 0;
        cell(tr, n ? "(" + n + ")" : "").className = "opt";
        if (n) notes.append(el("li", "", ln.ns + " v " + ln.ew + ": " + ln.note));
      }
      if (pick && ln.key) {
        tr.tabIndex = 0;
        tr.title = "Fill the forms with line " + ln.key;
        tr.addEventListener("click", () => pick(ln));
        tr.addEventListener("keydown", (ev) => { if (ev.key === "Enter") pick(ln); });
      }
      body.append(tr);
    }
    table.append(body);
    box.append(table);
    d.append(box);
    if (noted.length) d.append(notes);
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
  // A browser's EventSource tries again by itself after a network error, but gives up for good on an
  // answer that is not the stream: a dashboard restarted (a login it did not keep) answers the
  // director's stream 401, a proxy 502 while the dashboard starts. So on an error the director's page
  // asks loginUrl (a state that needs the login) and goes to the login page on 401, as the dashboard's
  // own page does; and a stream the browser gave up is opened again, 3 s on. The login page is told this
  // page (?next=), so the director logs in and is back here, not on the dashboard's page.
  function toLogin() { window.location = "/login?next=" + encodeURIComponent(window.location.pathname); }
  function connect(url, apply, connEl, loginUrl) {
    let es = null;
    function open() {
      es = new EventSource(url);
      es.onopen = () => { connEl.textContent = "live"; connEl.className = "conn live"; };
      es.onmessage = (ev) => apply(JSON.parse(ev.data));
      es.addEventListener("expired", toLogin);
      es.onerror = async () => {
        connEl.textContent = "reconnecting"; connEl.className = "conn down";
        const gaveUp = es.readyState === EventSource.CLOSED;
        if (loginUrl) {
          try {
            const r = await fetch(loginUrl, { credentials: "same-origin" });
            if (r.status === 401) { es.close(); toLogin(); return; }
          } catch (e) { /* the server is away: the browser tries again */ }
        }
        if (gaveUp) setTimeout(open, 3000);
      };
    }
    open();
  }
  // A form the browser kept back: the answer under it says so, as a refusal (formcheck.js, loaded first).
  function notSent(form, answer) {
    window.formcheck.notSent(form, (text) => {
      answer.textContent = text;
      answer.className = "answer refused";
      answer.hidden = false;
    });
  }
  return { el, cell, headRow, traveller, placeBoard, connect, notSent, toLogin };
})();
