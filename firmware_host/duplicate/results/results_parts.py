"""The pieces of the results pages (``results_html`` puts them on one page, ``results_site`` on a
folder of pages): the style sheet, a hand diagram in the compass layout with its double-dummy grid,
the ranking, a board's traveller, a pair's personal scorecard. Every value is escaped; no script, no
outside resource.

Printing (A4 or Letter, whichever the printer has): the page margins are the style sheet's; nothing
forces a page break before the ranking (the first page holds the title and what follows it); a board,
a diagram and a scorecard are never split across pages; the hand-record sheet sets its diagrams four
rows of two to a page (eight boards).
"""

from __future__ import annotations

from html import escape

from firmware_host.duplicate.results.results_data import ExportData, entered_by_hand
from firmware_host.duplicate.views import FIELD_WORDS, card_words, contract_words, ordered_rankings
from firmware_host.session.analysis import Analysis
from laws.cards import Seat
from laws.duplicate.deal import SEAT_NAMES, Board
from laws.scoring import ScoredBoard, ScoredLine, present

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.2em; color: #111; font-size: 11pt; }
h1 { font-size: 1.35em; margin: 0 0 .2em; } h2 { font-size: 1.15em; margin: 1em 0 .3em; }
h3 { font-size: 1em; margin: .6em 0 .3em; }
nav { margin-bottom: .6em; } nav a { margin-right: 1em; }
table { border-collapse: collapse; margin: .2em 0 .6em; font-size: .88em; }
th, td { border: 1px solid #999; padding: .1em .4em; text-align: right; }
th { background: #eee; } td.l, th.l { text-align: left; }
th, td { white-space: nowrap; }
.scroll { max-width: 100%; overflow-x: auto; min-width: 0; }
.note { color: #444; font-size: .85em; overflow-wrap: anywhere; }
.red { color: #c00; }
.board { display: flex; flex-wrap: wrap; gap: .4em 1.2em; align-items: flex-start;
         break-inside: avoid; page-break-inside: avoid; border-top: 1px solid #bbb; padding-top: .3em; }
.board h3 { flex-basis: 100%; margin: 0; }
.deal { display: grid; grid-template-columns: 7.2em 6.5em 9em;
        grid-template-areas: ". n ." "w c e" ". s x"; font-size: .85em; line-height: 1.15; }
.deal .x { grid-area: x; }
.deal .n { grid-area: n; } .deal .s { grid-area: s; } .deal .w { grid-area: w; } .deal .e { grid-area: e; }
.deal .c { grid-area: c; align-self: center; text-align: center; border: 1px solid #999; padding: .2em;
           font-size: .9em; }
.dd td, .dd th { padding: 0 .3em; } .dd { font-size: .92em; margin: .2em 0 0; }
.deal p.note { margin: 0; }
.sheet { display: grid; grid-template-columns: repeat(auto-fill, minmax(20em, 1fr)); gap: .6em 1.5em; }
.sheet .hand { break-inside: avoid; page-break-inside: avoid; }
.card { break-inside: avoid; page-break-inside: avoid; }
@page { margin: 12mm; }
@media screen and (max-width: 600px) { body { margin: .5em; } }
@media print {
  .scroll { overflow: visible; }
  body { margin: 0; font-size: 9.5pt; }
  nav { display: none; }
  .sheet { grid-template-columns: 1fr 1fr; gap: .3em 1em; }
  .sheet .hand:nth-child(8n) { break-after: page; page-break-after: always; }
}
"""

SUITS = (("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"))
DD_SEATS = (Seat.N, Seat.S, Seat.E, Seat.W)
DD_STRAINS = (("NT", "NT"), ("S", "♠"), ("H", "♥"), ("D", "♦"), ("C", "♣"))


def cell(text: object, left: bool = False) -> str:
    cls = ' class="l"' if left else ""
    return f"<td{cls}>{escape(str(text))}</td>"


def page(title: str, body: list[str], nav: str = "") -> bytes:
    """A whole page: UTF-8, the style sheet inline, no script."""
    parts = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
             '<meta name="viewport" content="width=device-width, initial-scale=1">',
             f"<title>{escape(title)}</title>", f"<style>{STYLE}</style></head><body>", nav, *body,
             "</body></html>"]
    return ("\n".join(p for p in parts if p) + "\n").encode("utf-8")


def _holding(rec: Board, seat: Seat) -> str:
    rows = []
    for (suit, symbol), cards in zip(SUITS, rec.deal.pbn_hand(seat).split(".")):
        red = ' class="red"' if suit in "HD" else ""
        rows.append(f"<span{red}>{symbol}</span> {escape(cards.replace('T', '10')) or '—'}")
    return "<br>".join(rows)


def diagram(rec: Board, corner: str = "") -> str:
    """The four hands in the compass layout, North at the top, the board's facts in the middle, and
    ``corner`` (the double-dummy grid) in the corner below East, as printed hand records have it."""
    centre = (f"Board {rec.number}<br>{escape(SEAT_NAMES[rec.dealer])} deals<br>"
              f"{escape(rec.vulnerability.words)}")
    return ('<div class="deal">' + "".join(f'<div class="{s.value.lower()}">{_holding(rec, s)}</div>'
                                            for s in (Seat.N, Seat.W, Seat.E, Seat.S))
            + f'<div class="c">{centre}</div>' + (f'<div class="x">{corner}</div>' if corner else "") + "</div>")


def dd_grid(a: Analysis | None) -> str:
    """The double-dummy tricks as a grid (declarer by row, strain by column) and the par below it."""
    if a is None:
        return '<p class="note">Double dummy: not analysed.</p>'
    head = "<tr><th></th>" + "".join(
        f'<th{" class=red" if s in "HD" else ""}>{sym}</th>' for s, sym in DD_STRAINS) + "</tr>"
    rows = "".join("<tr><th>" + seat.value + "</th>" + "".join(cell(a.tricks[seat][s]) for s, _ in DD_STRAINS)
                   + "</tr>" for seat in DD_SEATS)
    par = escape(a.optimum_score) + (f" ({escape(', '.join(a.par_contracts))})" if a.par_contracts else "")
    return (f'<div><table class="dd" aria-label="double-dummy tricks">{head}{rows}</table>'
            f'<p class="note">Par {par}</p></div>')


def ranking(data: ExportData, cards_page: str = "") -> list[str]:
    """Each field's ranking; a pair's label links to its scorecard (on ``cards_page``, or this page)."""
    imps = data.setup.method.at_imps
    out = []
    for r in ordered_rankings(data.result):
        out.append(f"<h3>{escape(FIELD_WORDS.get(r.field, r.field))}</h3>")
        head = '<tr><th>Place</th><th>Pair</th><th class="l">Players</th>'
        head += "<th>IMPs</th><th>Per board</th>" if imps else "<th>Matchpoints</th><th>Of</th><th>%</th>"
        out.append('<div class="scroll"><table>' + head + "<th>Boards</th></tr>")
        for s in r.standings:
            link = f'<a href="{escape(cards_page + scorecard_anchor(s.pair.label))}">{escape(s.pair.label)}</a>'
            row = cell(s.place) + f"<td>{link}</td>" + cell(data.names(s.pair.label), True)
            if imps:
                row += cell(present(s.total)) + cell(present(s.per_board))
            else:
                row += cell(present(s.total)) + cell(present(s.tops or 0)) + cell(present(s.percent or 0))
            out.append(f"<tr>{row}{cell(s.boards)}</tr>")
        out.append("</table></div>")
    return out


def score_text(ln: ScoredLine) -> str:
    """North-South's score; a split assigned score shows both sides' (North-South's view): 420/140."""
    if ln.ns_score is None:
        return ""
    if ln.ew_score is not None and ln.ew_score != ln.ns_score:
        return f"{ln.ns_score}/{ln.ew_score}"
    return str(ln.ns_score)


def line_note(data: ExportData, board: int, ln: ScoredLine) -> tuple[str, str]:
    """The contract's words and the line's note (adjusted, entered by hand, a fouled board's group)."""
    e = data.entry(board, ln.ns.label, ln.ew.label)
    note = ln.note or ("" if e is None or e.kind == "played" else e.kind)
    if e is not None and entered_by_hand(e):
        note = (note + "; " if note else "") + "entered by hand"
    if ln.group != "A" and "group" not in note:
        note = (note + "; " if note else "") + f"fouled board, group {ln.group}"
    contract = contract_words(ln.contract) or (
        "artificial " + "/".join(e.adjusted) if e and e.kind == "artificial" else "")
    return contract, note


def traveller(data: ExportData, board: ScoredBoard) -> str:
    unit = "IMPs" if data.setup.method.at_imps else "MP"
    out = ['<div class="scroll"><table><tr><th>NS</th><th>EW</th><th class="l">Contract</th><th>By</th><th>Tricks</th>'
           f'<th>Lead</th><th>Score</th><th>NS {unit}</th><th>EW {unit}</th><th class="l">Note</th></tr>']
    for ln in board.lines:
        contract, note = line_note(data, board.number, ln)
        row = (cell(ln.ns.label) + cell(ln.ew.label) + cell(contract, True) + cell(ln.declarer) +
               cell("" if ln.tricks is None or not ln.declarer else ln.tricks) + cell(card_words(ln.lead or "")) +
               cell(score_text(ln)) + cell(present(ln.ns_points)) + cell(present(ln.ew_points)) + cell(note, True))
        out.append(f"<tr>{row}</tr>")
    out.append("</table></div>")
    return "".join(out)


def board_block(data: ExportData, board: ScoredBoard, replay: str = "") -> str:
    """A board as the travellers show it: the diagram, its double-dummy grid, then its traveller; ``replay``,
    where given, the relative address of the board's replay page, linked under the traveller."""
    link = (f'<p class="replay"><a href="{escape(replay)}">Board {board.number} at every table, card by card</a></p>'
            if replay else "")
    return (f'<section class="board" id="board-{board.number}"><h3>Board {board.number}</h3>'
            f"{hands(data, board.number)}{traveller(data, board)}{link}"
            "</section>")


WITHHELD = "The hands are shown once every table has played this board."


def hands(data: ExportData, number: int) -> str:
    """A board's diagram and double-dummy grid, or, while a table has still to play it, the words why not."""
    if number in data.withheld:
        return f'<p class="withheld">Board {number}: {WITHHELD}</p>'
    return diagram(data.records[number], dd_grid(data.analysis.get(number)))


def hand_sheet(data: ExportData) -> str:
    """The hand-record sheet: each board's diagram and double-dummy grid, eight to a printed page."""
    played = [b.number for b in data.result.boards]
    items = [f'<div class="hand">{hands(data, n)}</div>' for n in played]
    return '<div class="sheet">' + "".join(items) + "</div>"


def scorecard_anchor(label: str) -> str:
    return "#pair-" + label.replace(" ", "")


def _pair_view(ln: ScoredLine, sat_ns: bool) -> tuple[str, str, str]:
    """The line from the pair's side: its score, its points, its percentage."""
    if sat_ns:
        score = "" if ln.ns_score is None else str(ln.ns_score)
        return score, present(ln.ns_points), "" if ln.ns_percent is None else present(ln.ns_percent)
    theirs = ln.ew_score if ln.ew_score is not None else ln.ns_score
    score = "" if theirs is None else str(-theirs)
    return score, present(ln.ew_points), "" if ln.ew_percent is None else present(ln.ew_percent)


def scorecard(data: ExportData, label: str) -> str:
    """One pair's personal scorecard: every board it played, from its own side of the table."""
    unit = "IMPs" if data.setup.method.at_imps else "MP"
    standing = next((s for r in data.result.rankings for s in r.standings if s.pair.label == label), None)
    summary = "" if standing is None else (
        f" · place {escape(standing.place)} · {escape(present(standing.total))} {unit}"
        + (f" · {escape(present(standing.percent))} %" if standing.percent is not None else ""))
    names = escape(data.names(label))
    out = [f'<section class="card" id="{scorecard_anchor(label)[1:]}"><h3>Pair {escape(label)}'
           f'{" · " + names if names else ""}{summary}</h3>',
           '<div class="scroll"><table><tr><th>Board</th><th>Round</th><th>Sat</th><th class="l">Against</th><th class="l">Contract</th>'
           f'<th>By</th><th>Tricks</th><th>Lead</th><th>Score</th><th>{unit}</th>'
           + ("" if data.setup.method.at_imps else "<th>%</th>") + '<th class="l">Note</th></tr>']
    for board in data.result.boards:
        for ln in board.lines:
            if label not in (ln.ns.label, ln.ew.label):
                continue
            sat_ns = ln.ns.label == label
            other = ln.ew.label if sat_ns else ln.ns.label
            e = data.entry(board.number, ln.ns.label, ln.ew.label)
            contract, note = line_note(data, board.number, ln)
            score, points, pct = _pair_view(ln, sat_ns)
            them = data.names_at(other, e.round if e else None)    # who sat against it then
            against = other + (f" ({them})" if them else "")
            row = (cell(board.number) + cell(e.round if e else "") + cell("NS" if sat_ns else "EW") +
                   cell(against, True) + cell(contract, True) + cell(ln.declarer) +
                   cell("" if ln.tricks is None or not ln.declarer else ln.tricks) +
                   cell(card_words(ln.lead or "")) + cell(score) + cell(points) +
                   ("" if data.setup.method.at_imps else cell(pct)) + cell(note, True))
            out.append(f"<tr>{row}</tr>")
    out.append("</table></div></section>")
    return "".join(out)


def scorecards(data: ExportData) -> list[str]:
    """Every pair's scorecard, in the rankings' order."""
    return [scorecard(data, s.pair.label) for r in ordered_rankings(data.result) for s in r.standings]
