"""The replay pages: static HTML, one for the index and one a board, each table's play card by card.

No server and no outside file: each page carries its own style, its data (a JSON block that escapes
``<``, ``>`` and ``&``, so no text from a journal can close it or change how it is read) and a small
script that steps through the play (buttons and the arrow keys). Text from the journals (pair labels, names, rulings' reasons) is put on the page as
text, never as markup. The layout is the usual one: North at the top, South at the bottom, West and East
at the sides, the trick in the middle, and the auction as a four-column grid West, North, East, South.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence

from laws.broadcast.feed import BoardPlay

_STYLE = """
*{box-sizing:border-box}body{font-family:system-ui,sans-serif;margin:0;padding:12px;color:#111;background:#f6f6f2}
h1{font-size:1.3rem;margin:0 0 8px}a{color:#0645ad}nav{margin:8px 0;display:flex;flex-wrap:wrap;gap:6px}
table{border-collapse:collapse;width:100%;max-width:900px;background:#fff}th,td{border:1px solid #ccc;padding:4px 6px;text-align:left;white-space:nowrap}
.wrap{overflow-x:auto}.tabs button{margin:0 4px 4px 0;padding:6px 10px;font-size:1rem}
.tabs button[aria-pressed=true]{background:#234;color:#fff}
.board{display:grid;grid-template-columns:1fr 1.2fr 1fr;grid-template-areas:". n ." "w t e" ". s .";gap:6px;max-width:640px}
.hand{background:#fff;border:1px solid #bbb;border-radius:6px;padding:6px;font-family:ui-monospace,monospace;font-size:.95rem;min-height:5.5em}
.hand b{display:block;font-family:system-ui,sans-serif}.n{grid-area:n}.s{grid-area:s}.w{grid-area:w}.e{grid-area:e}
.trick{grid-area:t;display:grid;grid-template-columns:1fr 1fr 1fr;grid-template-rows:1fr 1fr 1fr;background:#2d6a3e;color:#fff;border-radius:8px;min-height:8em;align-items:center;justify-items:center;font-weight:bold}
.red{color:#c00}.trick .red{color:#ffd0d0}.controls{margin:10px 0;display:flex;gap:6px;flex-wrap:wrap;align-items:center}
.controls button{font-size:1.1rem;padding:6px 12px}.auction td,.auction th{text-align:center;width:25%}
.note{font-size:.9rem;color:#333;max-width:640px}
@media (max-width:480px){.board{grid-template-columns:1fr 1fr 1fr}.hand{font-size:.8rem;padding:4px}}
"""

_SCRIPT = """
const data=JSON.parse(document.getElementById('plays').textContent);
const SUITS={S:'\\u2660',H:'\\u2665',D:'\\u2666',C:'\\u2663'};const ORDER='NESW';
let cur=0,step=0;
function cardText(c){const r=c[0]==='T'?'10':c[0];return `<span class="${'HD'.includes(c[1])?'red':''}">${SUITS[c[1]]}${r}</span>`}
function handOf(p,seat,played){const parts=p.hands[seat].split('.');return ['S','H','D','C'].map((s,i)=>{
 const left=[...parts[i]].filter(r=>!played.has(r+s)).map(r=>r==='T'?'10':r).join(' ');
 return `<span class="${'HD'.includes(s)?'red':''}">${SUITS[s]}</span> ${left||'\\u2014'}`}).join('<br>')}
function winner(trick,trump){let best=trick[0];for(const t of trick.slice(1)){const c=t[1],b=best[1];
 if(c[1]===b[1]){if('AKQJT98765432'.indexOf(c[0])<'AKQJT98765432'.indexOf(b[0]))best=t}else if(trump&&c[1]===trump&&b[1]!==trump)best=t}return best[0]}
function render(){const p=data[cur];const played=new Set(p.cards.slice(0,step).map(x=>x[1]));
 for(const s of ORDER){document.getElementById('h'+s).innerHTML=`<b>${({N:'North',E:'East',S:'South',W:'West'})[s]} ${s==='N'||s==='S'?esc(p.ns||''):esc(p.ew||'')}</b>`+handOf(p,s,played)}
 const trump=p.contract&&p.contract!=='Pass'?(p.contract.replace(/X/g,'').slice(1)[0]):null;const tr=trump==='N'?null:trump;
 let won={NS:0,EW:0};const full=Math.floor(step/4);for(let k=0;k<full;k++){const w=winner(p.cards.slice(4*k,4*k+4),tr);won['NS'.includes(w)?'NS':'EW']++}
 const cells={N:[0,1],W:[1,0],E:[1,2],S:[2,1]};const grid=document.getElementById('trick');grid.innerHTML='';
 const start=step%4===0&&step>0?step-4:step-step%4;for(const [seat,c] of p.cards.slice(start,step)){const d=document.createElement('div');
 d.style.gridRow=cells[seat][0]+1;d.style.gridColumn=cells[seat][1]+1;d.innerHTML=cardText(c);grid.appendChild(d)}
 document.getElementById('where').textContent=`card ${step} of ${p.cards.length} \\u00b7 tricks NS ${won.NS}, EW ${won.EW}`;
 document.getElementById('result').textContent=p.contract==null?'not finished':(p.contract==='Pass'?'passed out':`${p.contract} by ${p.declarer}, ${p.tricks} tricks, ${p.score>=0?'NS +'+p.score:'EW +'+(-p.score)}`);
 const rows=[];let row=['','','',''];let col='WNES'.indexOf(p.dealer);const calls=p.auction||p.calls.map(x=>x[1]);
 for(const c of calls){row[col]=esc(c);col++;if(col===4){rows.push(row);row=['','','',''];col=0}}if(row.some(x=>x))rows.push(row);
 document.getElementById('auction').innerHTML='<tr><th>West</th><th>North</th><th>East</th><th>South</th></tr>'+rows.map(r=>'<tr>'+r.map(x=>`<td>${x}</td>`).join('')+'</tr>').join('');
 document.getElementById('rulings').textContent=p.rulings.filter(r=>r.clause!=='BP-22').map(r=>`${r.clause}: ${r.reason}`).join(' \\u2022 ');
 document.querySelectorAll('.tabs button').forEach((b,i)=>b.setAttribute('aria-pressed',i===cur))}
function esc(t){return String(t).replace(/[&<>"]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'})[c])}
function go(n){const p=data[cur];step=Math.max(0,Math.min(p.cards.length,n));render()}
document.querySelectorAll('.tabs button').forEach((b,i)=>b.onclick=()=>{cur=i;step=0;render()});
document.getElementById('first').onclick=()=>go(0);document.getElementById('prev').onclick=()=>go(step-1);
document.getElementById('next').onclick=()=>go(step+1);document.getElementById('last').onclick=()=>go(1e9);
document.addEventListener('keydown',e=>{if(e.key==='ArrowRight')go(step+1);if(e.key==='ArrowLeft')go(step-1)});
render();
"""


def _page(title: str, body: str) -> str:
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head><body><main>{body}</main></body>"
            "</html>\n")


def _json_block(value: object) -> str:
    """``value`` as JSON to sit in a ``<script>`` element, with no ``<``, ``>`` or ``&`` in it (each as its
    ``\\u`` escape, which JSON reads back as the same text). Escaping ``</`` alone was not enough: a pair
    named ``<!--<script>`` put the browser's parser in the script's "double-escaped" state, the data block
    then ran on past its own ``</script>`` over the page's script, and the replay drew nothing at all."""
    text = json.dumps(value, sort_keys=True)
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _result(b: BoardPlay) -> str:
    if b.contract is None:
        return "not finished"
    if b.contract == "Pass":
        return "passed out"
    side = f"NS +{b.score}" if (b.score or 0) >= 0 else f"EW +{-(b.score or 0)}"
    return f"{b.contract} by {b.declarer.value if b.declarer else '?'}, {b.tricks} tricks, {side}"


def index_page(title: str, boards: Mapping[int, Sequence[BoardPlay]]) -> str:
    """Every board and every table's result, each board linking to its replay."""
    rows = []
    for number, plays in boards.items():
        for b in plays:
            rows.append(f'<tr><td><a href="board-{number:02d}.html">Board {number}</a></td><td>{b.table}</td>'
                        f"<td>{html.escape(b.ns or '')}</td><td>{html.escape(b.ew or '')}</td>"
                        f"<td>{html.escape(_result(b))}</td></tr>")
    heading = html.escape(title or "Replay")
    body = (f"<h1>{heading}</h1><p>Every board at every table, card by card, from the tables' journals.</p>"
            f'<div class="wrap"><table><tr><th>Board</th><th>Table</th><th>North-South</th><th>East-West</th>'
            f"<th>Result</th></tr>{''.join(rows)}</table></div>")
    return _page(f"{title or 'Replay'}", body)


def board_page(title: str, number: int, plays: Sequence[BoardPlay], numbers: Sequence[int]) -> str:
    """One board: a tab a table, the four hands, the auction grid and the play card by card."""
    links = " ".join(f'<a href="board-{n:02d}.html">{n}</a>' for n in numbers)
    tabs = "".join(f'<button type="button" aria-pressed="false">Table {b.table}</button>' for b in plays)
    body = (f'<h1>{html.escape(title or "Replay")}: Board {number}</h1><nav aria-label="boards"><a href="index.html">'
            f"All boards</a> {links}</nav>"
            f'<div class="tabs" role="group" aria-label="tables">{tabs}</div>'
            '<div class="board"><div class="hand n" id="hN"></div><div class="hand w" id="hW"></div>'
            '<div class="trick" id="trick" role="group" aria-label="the trick"></div><div class="hand e" id="hE"></div>'
            '<div class="hand s" id="hS"></div></div>'
            '<div class="controls"><button id="first" type="button" aria-label="first card">&laquo;</button>'
            '<button id="prev" type="button" aria-label="previous card">&lsaquo;</button>'
            '<button id="next" type="button" aria-label="next card">&rsaquo;</button>'
            '<button id="last" type="button" aria-label="last card">&raquo;</button>'
            '<span id="where"></span></div><p id="result"></p>'
            '<div class="wrap"><table class="auction" id="auction"></table></div><p class="note" id="rulings"></p>'
            f'<script type="application/json" id="plays">{_json_block([play_data(b) for b in plays])}</script>'
            f"<script>{_SCRIPT}</script>")
    return _page(f"{title or 'Replay'}: Board {number}", body)


def play_data(b: BoardPlay) -> dict[str, object]:
    """One table's play of a board as the replay page's data (only what the table committed)."""
    return {"table": b.table, "board": b.board, "round": b.round, "ns": b.ns, "ew": b.ew,
            "dealer": b.dealer.value, "vulnerable": b.vulnerable,
            "hands": {s.value: h for s, h in b.hands.items()},
            "calls": [[s.value, c] for s, c in b.calls], "auction": b.auction,
            "cards": [[s.value, c] for s, c in b.cards],
            "claim": None if b.claim is None else [b.claim[0].value, b.claim[1]],
            "claim_tricks": b.claim_tricks,
            "rulings": [dict(i.view()) for i in b.items if i.kind == "ruling"],
            "contract": b.contract, "declarer": b.declarer.value if b.declarer else None,
            "tricks": b.tricks, "score": b.score}
