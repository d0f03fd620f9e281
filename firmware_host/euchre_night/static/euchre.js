// A euchre night's page on the director's server (euchre_night/screens.py): draws each view the stream sends.
"use strict";
(() => {
  const body = document.body;
  const TABLE = body.dataset.table || "";
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const $ = id => document.getElementById(id);
  if (TABLE) $("exports").hidden = true;
  function draw(v) {
    if ($("call")) $("call").parentElement.hidden = !!v.finished;   // a finished night has no round to call
    window.euchreNight.draw(v, TABLE);
  }
  // A browser's EventSource tries again by itself after a network error but gives up for good on an
  // answer that is no stream: the dashboard restarted (its logins were in its memory) answers 401, or 404
  // to a table's page opened by a login. A page opened by a login then asks /api/state and goes to the
  // login page on 401, telling it this page (?next=) so the login comes back here; a stream the browser
  // gave up is opened again 3 s on (docs/euchre.md).
  const toLogin = () => { location.href = "/login?next=" + encodeURIComponent(location.pathname); };
  function open() {
    const es = new EventSource(body.dataset.stream);
    es.onopen = () => { $("conn").textContent = "live"; };
    es.onerror = async () => {
      $("conn").textContent = "reconnecting";
      const gaveUp = es.readyState === EventSource.CLOSED;
      if (!body.dataset.stream.includes("key=")) {
        try {
          const r = await fetch("/api/state", { credentials: "same-origin" });
          if (r.status === 401) { es.close(); toLogin(); return; }
        } catch (e) { /* the server is away: the browser tries again */ }
      }
      if (gaveUp) setTimeout(open, 3000);
    };
    es.onmessage = m => draw(JSON.parse(m.data));
    es.addEventListener("expired", () => { es.close(); toLogin(); });
  }
  open();
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
                                            points: num($("c-pen-points-" + i).value)});
        }
      }
      const r = await fetch("/api/euchre/correct", {method: "POST",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
        body: JSON.stringify({table: $("c-table").value, round: num($("c-round").value),
                              hand: num($("c-hand").value), facts: facts, why: $("c-why").value})});
      const a = await r.json();
      $("c-said").textContent = r.ok ? "corrected" : (a.error || "refused");
      // taken, every box goes back to "as taken" (empty): kept, the makers chosen for one hand were changed
      // again, unseen, by the director's next correction; refused, the form keeps what was typed to fix it
      if (r.ok) form.reset();
    };
  }
  // a number box: a whole number is sent as one, a box left empty as null (the refusal says "got
  // nothing"), anything else as typed; never 0 for a box nobody filled in
  function num(v) { const t = String(v).trim(); return t === "" ? null : /^[+-]?\d+$/.test(t) ? Number(t) : t; }
  const sub = $("substitute");
  if (sub) {
    sub.onsubmit = async ev => {
      ev.preventDefault();
      const r = await fetch("/api/euchre/substitute", {method: "POST",
        headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
        body: JSON.stringify({player: num($("s-player").value), name: $("s-name").value,
                              member: $("s-member").value, from_round: num($("s-round").value),
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
