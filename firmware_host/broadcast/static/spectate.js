// The spectators' page: what the club's broadcast released, live over server-sent events.
// Only released items ever reach this page (the server reads the released topics alone).
'use strict';
const SUITS = {S: '\u2660', H: '\u2665', D: '\u2666', C: '\u2663'};
const SEATS = {N: 'North', E: 'East', S: 'South', W: 'West'};
const st = {event: {}, boards: {}, current: {}, pick: null};
window.shown = {};   // "table/board/index" -> the time (ms) the page first showed that item

function esc(t) { return String(t).replace(/[&<>"']/g, c => ({'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'})[c]); }
function suit(s) { return `<span class="${'HD'.includes(s) ? 'red' : ''}">${SUITS[s]}</span>`; }
function card(c) { return `${suit(c[1])}${c[0] === 'T' ? '10' : esc(c[0])}`; }
function call(c) {
  const low = String(c).toLowerCase();
  if (low === 'pass') return 'Pass';
  if (low === 'double') return 'X';
  if (low === 'redouble') return 'XX';
  const m = /^([1-7])(NT|N|[CDHS])$/i.exec(c);
  return m ? `${m[1]}${m[2].toUpperCase().startsWith('N') ? 'NT' : suit(m[2].toUpperCase())}` : esc(c);
}
function contract(sm) {
  if (!sm || sm.contract == null) return '';
  if (sm.contract === 'Pass') return 'passed out';
  const m = /^([1-7])(NT|N|[CDHS])(X*)$/.exec(sm.contract);
  const c = m ? `${m[1]}${m[2].startsWith('N') ? 'NT' : suit(m[2])}${m[3]}` : esc(sm.contract);
  return `${c}${sm.declarer ? ' ' + esc(sm.declarer) : ''}`;
}
function key(t, b) { return `${t}/${b}`; }

const drawn = [];    // keys of items taken, stamped in window.shown once drawn

function take(body, live) {
  if (typeof body.table !== 'number' || typeof body.board !== 'number' || !Array.isArray(body.items)) return;
  st.boards[key(body.table, body.board)] = body;
  for (const it of body.items) drawn.push(`${body.table}/${body.board}/${it.index}`);
  const cur = st.current[body.table];
  if (live || cur === undefined) st.current[body.table] = body.board;
  else {
    const old = st.boards[key(body.table, cur)];
    if (old && old.finished && (!body.finished || body.board > cur)) st.current[body.table] = body.board;
  }
  if (st.pick === null) st.pick = body.table;
}

function glance() {
  const tables = [...new Set([...(st.event.tables || []), ...Object.keys(st.current).map(Number)])].sort((a, b) => a - b);
  const box = document.getElementById('glance');
  box.innerHTML = tables.map(t => {
    const b = st.boards[key(t, st.current[t])];
    const sm = b ? b.summary || {} : {};
    const room = b && b.room === 'c' ? ' (closed room)' : '';
    const euchre = b && b.game === 'euchre';
    const what = !b ? 'nothing shown yet' : euchre ? (sm.trump ? `trump ${suit(sm.trump)} by ${esc(sm.maker || '')}${sm.alone ? ' alone' : ''}` : 'making trump')
      : (sm.contract == null ? 'in the auction' : contract(sm));
    const tricks = sm.tricks ? `NS ${sm.tricks.NS} \u00b7 EW ${sm.tricks.EW}` : '';
    return `<button type="button" data-t="${t}" aria-pressed="${t === st.pick}"><b>Table ${t}${room}</b>` +
      `<span class="l">${b ? (euchre ? 'Hand ' : 'Board ') + b.board : ''}</span><span class="l">${what}</span><span class="l">${tricks}${b && b.finished ? ' \u00b7 done' : ''}</span></button>`;
  }).join('');
  for (const el of box.querySelectorAll('button')) el.onclick = () => { st.pick = Number(el.dataset.t); render(); };
}

function one() {
  const t = st.pick;
  const b = t === null ? null : st.boards[key(t, st.current[t])];
  const euchre = b && b.game === 'euchre';
  document.getElementById('one').textContent = b ? `Table ${t}, ${euchre ? 'Hand' : 'Board'} ${b.board}` : 'Pick a table';
  const first = b && b.items.length && b.items[0].kind === 'board' ? b.items[0] : null;
  const dealt = euchre ? b.items.find(i => i.kind === 'hands') : null;
  const cards = b ? b.items.filter(i => i.kind === 'card') : [];
  const calls = b ? b.items.filter(i => i.kind === 'call') : [];
  const played = new Set(cards.map(c => c.card));
  for (const s of 'NESW') {
    const opening = b && b.items.length ? b.items[0] : null;   // a board's, or a euchre hand's deal
    const name = opening && opening.names ? opening.names[s] : (first ? ('NS'.includes(s) ? first.ns : first.ew) : '');
    let text = `<b>${SEATS[s]}${name ? ' \u00b7 ' + esc(name) : ''}</b>`;
    if (dealt && dealt.hands[s]) {
      const left = dealt.hands[s].filter(c => !played.has(c));
      text += left.length ? left.map(c => c === '?' ? '?' : card(c)).join(' ') : '\u2014';
    } else if (first && first.hands && first.hands[s]) {
      const parts = first.hands[s].split('.');
      text += ['S', 'H', 'D', 'C'].map((x, i) => {
        const left = [...parts[i]].filter(r => !played.has(r + x)).map(r => r === 'T' ? '10' : esc(r)).join(' ');
        return `${suit(x)} ${left || '\u2014'}`;
      }).join('<br>');
    }
    document.getElementById('h' + s).innerHTML = text;
  }
  const grid = document.getElementById('trick');
  grid.innerHTML = '';
  const last = cards.length ? cards[cards.length - 1].trick : 0;
  const cells = {N: [1, 2], W: [2, 1], E: [2, 3], S: [3, 2]};
  for (const c of cards.filter(x => x.trick === last)) {
    const d = document.createElement('div');
    d.style.gridRow = cells[c.seat][0]; d.style.gridColumn = cells[c.seat][1];
    d.innerHTML = card(c.card);
    grid.appendChild(d);
  }
  const sm = b ? b.summary || {} : {};
  const result = b ? b.items.filter(i => i.kind === 'result').pop() : null;
  let line = '';
  if (euchre) {
    const dealItem = b.items.find(i => i.kind === 'deal');
    const turned = b.items.find(i => i.kind === 'turned');
    line = `Dealer ${SEATS[dealItem ? dealItem.dealer : ''] || ''}`;
    if (turned) line += ` \u00b7 turned ${card(turned.card)}`;
    if (sm.trump) line += ` \u00b7 trump ${suit(sm.trump)} made by ${SEATS[sm.maker] || ''}${sm.alone ? ', alone' : ''}`;
    if (sm.tricks) line += ` \u00b7 tricks NS ${sm.tricks.NS}, EW ${sm.tricks.EW}`;
    if (result) line += ` \u00b7 makers ${esc(result.makers || '')} took ${result.tricks}`;
  } else if (b) {
    line = first ? `Dealer ${SEATS[first.dealer] || ''} \u00b7 Vulnerable: ${esc(first.vulnerable || '')}` : '';
    if (sm.contract != null) line += ` \u00b7 ${contract(sm)}`;
    if (sm.tricks) line += ` \u00b7 tricks NS ${sm.tricks.NS}, EW ${sm.tricks.EW}`;
    if (result) line += result.contract === 'Pass' ? ' \u00b7 passed out' : ` \u00b7 ${result.tricks} tricks, ${result.score >= 0 ? 'NS +' + result.score : 'EW +' + (-result.score)}`;
  }
  document.getElementById('line').innerHTML = line;
  const rows = [];
  let row = ['', '', '', ''];
  let col = first ? 'WNES'.indexOf(first.dealer) : 0;
  for (const c of calls) { row[col] = call(c.call); col++; if (col === 4) { rows.push(row); row = ['', '', '', '']; col = 0; } }
  if (row.some(x => x)) rows.push(row);
  if (euchre) {
    const bids = b.items.filter(i => i.kind === 'bid');
    document.getElementById('auction').innerHTML = !bids.length ? '' : '<tr><th>Seat</th><th colspan="3">Declaration</th></tr>' +
      bids.map(x => `<tr><td>${SEATS[x.seat] || ''}</td><td colspan="3">${esc(x.call)}${x.suit ? ' ' + suit(x.suit) : ''}${x.alone ? ' alone' : ''}</td></tr>`).join('');
  } else {
    document.getElementById('auction').innerHTML = '<tr><th>West</th><th>North</th><th>East</th><th>South</th></tr>' +
      rows.map(r => '<tr>' + r.map(x => `<td>${x}</td>`).join('') + '</tr>').join('');
  }
  const notes = b ? b.items.filter(i => i.kind === 'ruling' && i.clause !== 'BP-22').map(i => `${i.clause}: ${i.reason || ''}`) : [];
  const claim = b ? b.items.filter(i => i.kind === 'claim').pop() : null;
  if (claim) notes.push(`${SEATS[claim.seat]} claimed ${claim.tricks} of the rest (${claim.outcome})`);
  document.getElementById('notes').textContent = notes.join(' \u2022 ');
}

let queued = false;
function render() {
  queued = false;
  glance(); one();
  const now = Date.now();
  for (const k of drawn.splice(0)) if (!(k in window.shown)) window.shown[k] = now;
}
function later() { if (!queued) { queued = true; requestAnimationFrame(render); } }

// the new items of a board this page already has (else a fresh snapshot: reconnect)
function extend(body) {
  const old = st.boards[key(body.table, body.board)];
  if (!old || old.items.length !== body.from) return false;
  const items = old.items.concat(body.items);
  take(Object.assign({}, body, {items: items, from: undefined}), true);
  return true;
}

function ruleText(e) {
  if (e.rule === 'delay') return `Shown ${e.delay} s after each card is played.`;
  if (e.rule === 'teams') return 'A board is shown in one room once the other room has finished it.';
  return 'A board is shown once every table has finished it.';
}

function connect() {
  let src = new EventSource('/events');
  const conn = document.getElementById('conn');
  src.onopen = () => { conn.textContent = 'Live'; };
  src.onerror = () => { conn.textContent = 'Reconnecting…'; };
  src.onmessage = ev => {
    const m = JSON.parse(ev.data);
    for (const one of (m.type === 'batch' ? m.messages : [m])) if (!apply(one)) return;
    document.getElementById('rule').textContent = st.event.rule ? ruleText(st.event) : '';
    later();
  };
  // one message; false when the page must start again from a fresh snapshot
  function apply(m) {
    if (m.type === 'snapshot') {
      st.event = m.event || {};
      for (const b of m.boards) take(b, false);
    } else if (m.type === 'event') {
      st.event = m.body || {};
    } else if (m.type === 'board') {
      take(m.body, true);
    } else if (m.type === 'cleared' || (m.type === 'items' && !extend(m.body))) {   // a board gone: start afresh
      src.close(); st.boards = {}; st.current = {}; connect(); return false;
    }
    return true;
  }
}
connect();
