// A euchre night's page on the director's server (euchre_night/screens.py): draws each view the stream sends.
"use strict";
(() => {
  const body = document.body;
  const TABLE = body.dataset.table || "";
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = id => document.getElementById(id);
  const e = s => String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
  const seats = t => ["N", "S", "E", "W"].map(s => s + ": " + e(t.seats[s].name)).join(", ");
  if (TABLE) $("exports").hidden = true;
  function draw(v) {
    if ($("call")) $("call").parentElement.hidden = !!v.finished;   // a finished night has no round to call
    $("round").textContent = (v.finished ? "Final standings" :
      "Round " + v.round + " of " + v.rounds + (v.called ? " (called: finish the hand in play)" : "")) +
      " · hands taken: " + v.hands_taken;
    let h = "<table><tr><th>Table</th><th>Seats</th><th>Hands</th><th>NS</th><th>EW</th><th>Reneges</th></tr>";
    for (const t of v.tables) {
      h += "<tr><td>" + e(t.table) + "</td><td>" + seats(t) + "</td><td class=n>" + t.hands + "/" + t.of +
        "</td><td class=n>" + t.ns + "</td><td class=n>" + t.ew + "</td><td class=renege>" +
        t.reneges.map(r => "hand " + r.hand + ": " + e(r.seat) + " trick " + r.trick + " (" + e(r.law) + ")").join("; ") +
        "</td></tr>";
    }
    if (TABLE && !v.tables.length) h += "<tr><td colspan=6>This table sits out this round.</td></tr>";
    h += "</table>";
    if (v.out.length) h += "<p>Sitting out: " + v.out.map(p => e(p.name)).join(", ") + "</p>";
    $("tables").innerHTML = h;
    let s = "<tr><th>Place</th><th>Player</th><th>Points</th><th>Hands won</th><th>Loners</th></tr>";
    for (const r of v.standings) {
      s += "<tr><td>" + e(r.place) + "</td><td>" + e(r.shown) + "</td><td class=n>" + e(r.points_shown) +
        "</td><td class=n>" + r.hands_won + "</td><td class=n>" + r.loners + "</td></tr>";
    }
    $("standings").innerHTML = s;
    $("head").textContent = "journal head " + v.head;
    body.dataset.version = v.version;
  }
  const es = new EventSource(body.dataset.stream);
  es.onopen = () => { $("conn").textContent = "live"; };
  es.onerror = () => { $("conn").textContent = "reconnecting"; };
  es.onmessage = m => draw(JSON.parse(m.data));
  es.addEventListener("expired", () => { es.close(); location.href = "/login"; });
  const form = $("correct");
  if (form) {
    form.onsubmit = async ev => {
      ev.preventDefault();
      const facts = {};
      if ($("c-makers").value) facts.makers = $("c-makers").value;
      if ($("c-tricks").value !== "") facts.tricks = Number($("c-tricks").value);
      const alone = $("c-alone").value;
      if (alone) facts.alone = alone === "none" ? null : alone;
      const voided = $("c-void").value;
      if (voided) facts.void = voided === "none" ? [] : voided.split(" ");
      const pen = $("c-pen").value;
      if (pen === "none") facts.penalties = [];
      if (pen === "below") {
        facts.penalties = [];
        for (const i of [1, 2]) {
          const clause = $("c-pen-clause-" + i).value;
          if (clause) facts.penalties.push({clause: clause, offending: $("c-pen-side-" + i).value,
                                            points: Number($("c-pen-points-" + i).value)});
        }
      }
      const r = await fetch("/api/euchre/correct", {method: "POST",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
        body: JSON.stringify({table: $("c-table").value, round: Number($("c-round").value),
                              hand: Number($("c-hand").value), facts: facts, why: $("c-why").value})});
      const a = await r.json();
      $("c-said").textContent = r.ok ? "corrected" : (a.error || "refused");
    };
  }
  const sub = $("substitute");
  if (sub) {
    sub.onsubmit = async ev => {
      ev.preventDefault();
      const r = await fetch("/api/euchre/substitute", {method: "POST",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
        body: JSON.stringify({player: Number($("s-player").value), name: $("s-name").value,
                              member: $("s-member").value, from_round: Number($("s-round").value),
                              why: $("s-why").value})});
      const a = await r.json();
      $("s-said").textContent = r.ok ? "substituted" : (a.error || "refused");
    };
  }
  const call = $("call");
  if (call) {
    call.onclick = async () => {
      const r = await fetch("/api/euchre/call", {method: "POST",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf}, body: "{}"});
      const a = await r.json();
      $("said").textContent = r.ok ? "called" : (a.error || "refused");
    };
  }
})();
