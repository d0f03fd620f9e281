"use strict";
// An event's page on the director's server (club/event_screens.py): the stream sends the whole view
// (the director's, or one table's) first and again after every change; the page draws it.
(function () {
  function cell(v) {
    return String(v === null || v === undefined ? "" : v)
      .replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  }
  function who(view) {
    return view.kind.startsWith("teams") || view.kind === "swiss-teams" ? "team"
      : view.kind === "individual" ? "player" : "pair";
  }
  function name(s) {
    const n = s.name ? ` ${cell(s.name)}` : "";
    return `${cell(s.competitor || s.player || s.pair)}${n}`;
  }
  function draw(view) {
    const out = [];
    if (view.seat) {
      const s = view.seat;
      // a finished event says so: its last round is kept on the page, never read as still being played
      out.push(view.finished
        ? `<p id="round">Finished: all ${view.rounds} rounds are complete (the last, round ${view.round}: boards `
          + `${view.boards.join(", ")})</p>`
        : `<p id="round">Round ${view.round} of ${view.rounds}: boards ${view.boards.join(", ")}</p>`);
      out.push(`<p id="seats">N ${cell(s.north)} S ${cell(s.south)} E ${cell(s.east)} W ${cell(s.west)}`
               + (s.room ? ` (${cell(s.room)} room, match ${cell(s.match)})` : "")
               + (s.section ? ` (section ${cell(s.section)}: N-S ${cell(s.ns_pair)}, E-W ${cell(s.ew_pair)})` : "")
               + "</p>");
      if (view.repeat) {      // a Swiss round that no draw could make without a repeat: this match is one
        out.push(`<p id="repeat">A repeat: these two have met before (no draw of this round avoided every repeat)</p>`);
      }
      if (view.names) {
        out.push(`<p id="names">` + Object.keys(view.names).sort().map(
          k => `${cell(k)}: ${cell(view.names[k])}`).join("; ") + "</p>");
      }
      const entered = view.entered || [];
      out.push(`<p id="entered">Results in: ${entered.length ? "boards " + entered.map(cell).join(", ") : "none yet"}`
               + "</p>");
      if (view.released && view.released.length) {     // teams: a board both rooms have played, its IMPs
        out.push(`<ul id="released">` + view.released.map(b => `<li>Board ${cell(b.board)}: `
                 + `home ${cell(b.home_imps)} IMPs, away ${cell(b.away_imps)} IMPs</li>`).join("") + "</ul>");
      }
      if (view.held && view.held.length) {     // a board a table called fouled: no figure until the director decides;
        // after the boards scored, as docs/competitions.md orders the page (it once came before them)
        out.push(`<ul id="held">` + view.held.map(b => `<li>Board ${cell(b)}: awaits the director (fouled at a table): `
                 + "no score until he decides</li>").join("") + "</ul>");
      }
    } else if (view.draws) {
      const d = view.draws[view.draws.length - 1];
      out.push(`<p id="round">Round ${d.round} of ${view.rounds}${view.finished ? " (finished)" : ""}</p>`);
      // each match with its event tables (the number the "Correct a result" form asks for), the club
      // table playing there, the room, and the results in of those the table owes this round
      const at = (t) => {
        const n = String(t.table), club = (d.club_tables || {})[n], due = (d.due || {})[n];
        return `<li class="at">Table ${cell(t.table)}${club ? ` (${cell(club)})` : ""}`
          + (t.room ? `, ${cell(t.room)} room` : "")
          + (t.section ? `, section ${cell(t.section)}: ${cell(t.ns_pair)} v ${cell(t.ew_pair)}`
             : d.matches.length ? "" : `: N ${cell(t.north)} S ${cell(t.south)} E ${cell(t.east)} W ${cell(t.west)}`)
          + (due === undefined ? "" : `: ${cell((d.results || {})[n] || 0)} of ${cell(due)} results in`) + "</li>";
      };
      const tables = d.tables || [];
      // a Swiss round that no draw could make without a repeat: its repeated matches say so
      const again = (m) => (d.repeats || []).some(x => x[0] === m[0] && x[1] === m[1]) ? " (repeat)" : "";
      // a match whose figures leave out a board held for the director says so
      const held = (i) => {
        const h = ((d.scored || [])[i] || {}).held || [];
        return h.length ? ` (board${h.length > 1 ? "s" : ""} ${h.map(cell).join(", ")} held for the director)` : "";
      };
      out.push(`<ul id="draw">` + d.matches.map((m, i) => `<li>${cell(m[0])} v ${cell(m[1])}${again(m)}${held(i)}`
               + `<ul>${tables.filter(t => t.match === i + 1).map(at).join("")}</ul></li>`).join("")
               + (d.matches.length ? "" : tables.map(at).join(""))
               + d.byes.map(b => `<li>${cell(b)}: bye</li>`).join("") + "</ul>");
      const w = who(view);
      out.push(`<ul id="standings">` + view.standings.map(s => `<li>${s.field ? cell(s.field) + ": " : ""}`
               + `${cell(s.place)} ${w} ${name(s)}, `
               + (s.vp ? `${cell(s.vp)} VP` : `${cell(s.percent)} %`) + "</li>").join("") + "</ul>");
      if (view.held && view.held.length) {     // boards a table called fouled, left out of every figure
        out.push(`<p>Held for the director (not in any figure until he corrects the board):</p>`
                 + `<ul id="held">` + view.held.map(h => `<li>${cell(h.text)}</li>`).join("") + "</ul>");
      }
      if (view.adjustments && view.adjustments.length) {
        out.push(`<ul id="adjustments">` + view.adjustments.map(a => `<li>${cell(a.text)}</li>`).join("") + "</ul>");
      }
    } else if (view.bye) {
      out.push(`<p id="round">Round ${view.round} of ${view.rounds}${view.finished ? " (finished)" : ""}: `
               + "this table has a bye</p>");
    } else {
      out.push(`<p id="round">This table has no part in the event</p>`);
    }
    if (view.answers && view.answers.length) {   // the answers to this table's messages: a refusal with why
      out.push(`<ul id="answers">` + view.answers.map(a => `<li>${cell(a.source || "a message")}`
               + (a.kind === "players" ? ", member cards" : "")      // its member cards, not a result
               + (a.board ? `, board ${cell(a.board)}` : "") + `: ${cell(a.status)}`
               + (a.why ? `: ${cell(a.why)}` : "") + "</li>").join("") + "</ul>");
    }
    document.getElementById("view").innerHTML = out.join("");
  }
  const conn = document.getElementById("conn");
  // A browser's EventSource tries again by itself after a network error but gives up for good on an
  // answer that is no stream: the dashboard restarted (a login it did not keep) answers 401, or 404
  // to a table's page opened by a login. A page opened by a login then asks /api/state and goes to the
  // login page on 401, telling it this page (?next=) so the login comes back here; a stream the browser
  // gave up is opened again 3 s on (docs/competitions.md).
  const stream = document.body.dataset.stream;
  const toLogin = () => window.location.assign("/login?next=" + encodeURIComponent(window.location.pathname));
  let source = null;
  function open() {
    source = new EventSource(stream);
    source.onopen = () => { conn.textContent = "live"; };
    source.onerror = async () => {
      conn.textContent = "reconnecting";
      const gaveUp = source.readyState === EventSource.CLOSED;
      if (!stream.includes("key=")) {
        try {
          const r = await fetch("/api/state", { credentials: "same-origin" });
          if (r.status === 401) { source.close(); toLogin(); return; }
        } catch (e) { /* the server is away: the browser tries again */ }
      }
      if (gaveUp) setTimeout(open, 3000);
    };
    source.addEventListener("expired", () => { source.close(); toLogin(); });
    source.onmessage = onView;
  }
  // An award's worth in the event's scoring (docs/scoring.md §5, §10): IMPs in teams and Swiss pairs, a share
  // of the top in an individual and in sections; the form said "A+ (60 %)" at a teams event, where it is +3 IMPs.
  function awardWords(view) {
    const mp = view.kind === "individual" || view.kind === "pairs-sections";
    const words = mp ? {"A+": "A+ (60 %)", "A=": "A= (50 %)", "A-": "A- (40 %)"}
      : {"A+": "A+ (+3 IMPs)", "A=": "A= (0 IMPs)", "A-": "A- (-3 IMPs)"};
    document.querySelectorAll("#correct-form option").forEach(o => {
      if (words[o.value]) o.textContent = words[o.value];
    });
  }
  window.cardtableEventSeen = [];   // each view's rounds: drawn and complete (tests read it)
  const onView = (e) => {
    const view = JSON.parse(e.data);
    window.cardtableEventSeen.push({round: view.round, complete: (view.draws || []).map(d => d.complete)});
    draw(view);
    if (view.draws) awardWords(view);
  };
  open();
  // The director's forms (the director's page only): each posts JSON with the login's CSRF token; the
  // promise says whether it was taken.
  const token = (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  function post(path, body, done = "Done.") {
    const answer = document.getElementById("answer");
    return fetch(path, {method: "POST", credentials: "same-origin", body: JSON.stringify(body),
                        headers: {"Content-Type": "application/json", "X-CSRF-Token": token}})
      .then(r => r.json().then(j => { answer.textContent = r.ok ? done : (j.error || "Refused."); return r.ok; }))
      .catch(() => { answer.textContent = "The server did not answer."; return false; });
  }
  // a whole number typed is sent as one; anything else is sent as typed, so the refusal quotes it
  function num(v) { const t = String(v).trim(); return t === "" ? undefined : /^[+-]?\d+$/.test(t) ? Number(t) : t; }
  // A form the browser keeps back (a required box empty) is never sent: the answer says so (formcheck.js,
  // loaded first, as dupview.js does), never the last answer's reason, which would read as if about this form.
  function notSent(form) {
    window.formcheck.notSent(form, (text) => { document.getElementById("answer").textContent = text; });
  }
  const names = document.getElementById("names-form");
  if (names) notSent(names);
  if (names) {
    names.addEventListener("submit", (e) => {
      e.preventDefault();
      const f = new FormData(names);
      // a section's pair is typed as "A 3NS" (section, then pair); anything else is a competitor's number
      const typed = f.get("competitor").trim();
      const pair = typed.match(/^(\S+)\s+(\S+)$/);
      const who = pair ? {section: pair[1], pair: pair[2]} : {competitor: num(typed)};
      post("/api/event/names", {...who, name: f.get("name").trim(),
        players: f.get("players").split(",").map(x => x.trim()).filter(x => x)});
    });
  }
  const correct = document.getElementById("correct-form");
  if (correct) notSent(correct);
  if (correct) {
    correct.addEventListener("submit", (e) => {
      e.preventDefault();
      const f = new FormData(correct);
      const body = {round: num(f.get("round")), table: num(f.get("table")), board: num(f.get("board")),
                    why: f.get("why")};
      const ns = f.get("award_ns"), ew = f.get("award_ew");
      if (ns && ew) {
        body.adjusted = ns + "/" + ew;
      } else if (f.get("assigned").trim() !== "") {
        body.assigned = num(f.get("assigned"));
      } else {
        body.contract = f.get("contract").trim();
        if (/^pass$/i.test(body.contract)) {     // a passed-out board: no declarer, no tricks
          body.contract = "Pass";
          body.declarer = "";
        } else {
          body.declarer = f.get("declarer").trim();
          body.tricks = num(f.get("tricks"));
        }
        // a blank box is never a score: refused here, naming it, as the server refuses it
        const blank = body.contract === "" ? "Contract (or Pass), an assigned score or each side's award"
          : body.contract === "Pass" ? ""
          : body.declarer === "" ? "Declarer" : body.tricks === undefined ? "Tricks" : "";
        if (blank) {
          document.getElementById("answer").textContent = `Not sent: fill in ${blank}.`;
          return;
        }
      }
      // taken, the form is emptied, as the page first showed it: kept, an award chosen for one board was sent
      // unseen with the next board's contract (and stood over it); refused, it keeps what was typed
      // (docs/competitions.md)
      // taken, the answer names the board it changed, as the duplicate page names its line: the form is
      // emptied, and a bare "Done." left the director no way to see which board his typing became
      post("/api/event/correct", body, `Done: round ${body.round}, table ${body.table}, board ${body.board}.`)
        .then(ok => { if (ok) correct.reset(); });
    });
  }
})();
