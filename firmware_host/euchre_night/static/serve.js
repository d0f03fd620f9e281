// `cardtable euchre serve`'s page (pages.py): the director's (the body's data-table empty) or a table's.
// Draws each view the stream sends (night_view.js); the director's page calls the round with the token.
"use strict";
(() => {
  const TABLE = document.body.dataset.table || "";
  const $ = id => document.getElementById(id);
  const es = new EventSource("/events");
  es.onopen = () => { $("conn").textContent = "live"; };
  es.onerror = () => { $("conn").textContent = "reconnecting"; };   // the browser tries again on its own
  es.onmessage = m => {
    const v = JSON.parse(m.data);
    $("title").textContent = v.name;
    window.euchreNight.draw(v, TABLE);
  };
  const call = $("call");
  if (call) {
    call.onclick = async () => {
      const r = await fetch("/call", {method: "POST", headers: {"X-Director-Token": $("token").value}});
      $("said").textContent = await r.text();
    };
  }
})();
