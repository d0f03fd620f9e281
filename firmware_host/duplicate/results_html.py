"""A scored session as one printable HTML page: the ranking of each field, then each board's
traveller with its hands' par and double-dummy tricks. No script, no outside resource; a print style
sheet keeps a traveller on one page. Every value is escaped.
"""

from __future__ import annotations

from html import escape

from firmware_host.duplicate.results_data import ExportData
from firmware_host.duplicate.views import (
    FIELD_WORDS,
    METHOD_WORDS,
    card_words,
    contract_words,
    ordered_rankings,
)
from laws.cards import SEATS
from laws.duplicate.deal import SEAT_NAMES
from laws.scoring import ScoredBoard, ScoredLine, present

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #111; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; } h3 { font-size: 1em; margin: 1.2em 0 .3em; }
table { border-collapse: collapse; margin: .3em 0 1em; font-size: .9em; }
th, td { border: 1px solid #999; padding: .15em .45em; text-align: right; }
th { background: #eee; } td.l, th.l { text-align: left; }
.hands { font-family: ui-monospace, monospace; font-size: .85em; }
.note { color: #555; font-size: .85em; }
section.board { break-inside: avoid; page-break-inside: avoid; }
@media print { body { margin: 0; } h2 { break-before: page; } section.board { break-inside: avoid; } }
"""


def score_text(ln: ScoredLine) -> str:
    """North-South's score; a split assigned score shows both sides' (North-South's view): 420/140."""
    if ln.ns_score is None:
        return ""
    if ln.ew_score is not None and ln.ew_score != ln.ns_score:
        return f"{ln.ns_score}/{ln.ew_score}"
    return str(ln.ns_score)


def _cell(text: object, left: bool = False) -> str:
    cls = ' class="l"' if left else ""
    return f"<td{cls}>{escape(str(text))}</td>"


def _ranking(data: ExportData) -> list[str]:
    imps = data.setup.method.at_imps
    out = []
    for ranking in ordered_rankings(data.result):
        out.append(f"<h3>{escape(FIELD_WORDS.get(ranking.field, ranking.field))}</h3>")
        head = "<tr><th>Place</th><th>Pair</th><th class=\"l\">Players</th>"
        head += "<th>IMPs</th><th>Per board</th>" if imps else "<th>Matchpoints</th><th>Of</th><th>%</th>"
        out.append("<table>" + head + "<th>Boards</th></tr>")
        for s in ranking.standings:
            names = " & ".join(n for n in data.setup.names.get(s.pair.label, ()) if n)
            row = _cell(s.place) + _cell(s.pair.label) + _cell(names, True)
            if imps:
                row += _cell(present(s.total)) + _cell(present(s.per_board))
            else:
                row += _cell(present(s.total)) + _cell(present(s.tops or 0)) + _cell(present(s.percent or 0))
            out.append(f"<tr>{row}{_cell(s.boards)}</tr>")
        out.append("</table>")
    return out


def _board(data: ExportData, board: ScoredBoard) -> list[str]:
    rec = data.records[board.number]
    imps = data.setup.method.at_imps
    a = data.analysis.get(board.number)
    out = ['<section class="board">',
           f"<h3>Board {board.number}: {escape(SEAT_NAMES[rec.dealer])} deals, {escape(rec.vulnerability.words)}</h3>",
           '<table class="hands"><tr>' + "".join(f"<th>{SEAT_NAMES[s]}</th>" for s in SEATS) + "</tr><tr>" +
           "".join(_cell(rec.deal.pbn_hand(s), True) for s in SEATS) + "</tr></table>"]
    if a is not None:
        dd = ", ".join(f"{SEAT_NAMES[s][0]}: " + " ".join(f"{st} {a.tricks[s][st]}" for st in ("NT", "S", "H", "D", "C"))
                       for s in SEATS)
        out.append(f'<p class="note">Par {escape(a.optimum_score)} ({escape(", ".join(a.par_contracts))}). '
                   f"Double dummy: {escape(dd)}.</p>")
    unit = "IMPs" if imps else "MP"
    out.append("<table><tr><th>NS</th><th>EW</th><th class=\"l\">Contract</th><th>By</th><th>Tricks</th>"
               f"<th>Lead</th><th>Score</th><th>NS {unit}</th><th>EW {unit}</th><th class=\"l\">Note</th></tr>")
    for ln in board.lines:
        e = data.entry(board.number, ln.ns.label, ln.ew.label)
        note = ln.note or ("" if e is None or e.kind == "played" else e.kind)
        if e is not None and e.hand:   # a result entered by hand (docs/session.md)
            note = (note + "; " if note else "") + "entered by hand"
        if ln.group != "A" and "group" not in note:
            note = (note + "; " if note else "") + f"fouled board, group {ln.group}"
        contract = contract_words(ln.contract) or ("artificial " + "/".join(e.adjusted) if e and e.kind == "artificial" else "")
        row = (_cell(ln.ns.label) + _cell(ln.ew.label) + _cell(contract, True) + _cell(ln.declarer) +
               _cell("" if ln.tricks is None or not ln.declarer else ln.tricks) + _cell(card_words(ln.lead or "")) +
               _cell(score_text(ln)) + _cell(present(ln.ns_points)) +
               _cell(present(ln.ew_points)) + _cell(note, True))
        out.append(f"<tr>{row}</tr>")
    out.append("</table></section>")
    return out


def write(data: ExportData) -> bytes:
    s = data.setup
    title = f"{s.name}, {s.date}"
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{escape(title)}</title>", f"<style>{STYLE}</style></head><body>",
             f"<h1>{escape(title)}</h1>",
             f'<p class="note">{escape(s.club)} · {escape(data.movement.name)} · {s.pairs} pairs · scored by '
             f"{escape(METHOD_WORDS[s.method])} · hand records committed as {escape(s.to_dict()['commitment'])}</p>",
             "<h2>Ranking</h2>", *_ranking(data), "<h2>Travellers</h2>"]
    for board in data.result.boards:
        parts += _board(data, board)
    parts.append("</body></html>")
    return ("\n".join(parts) + "\n").encode("utf-8")
