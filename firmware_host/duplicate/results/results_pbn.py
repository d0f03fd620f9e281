"""A scored session as PBN 2.1 (export format; ``docs/session.md`` shows a worked example).

For each board, in number order:

1. a game with the hand record (the fifteen tags of PBN's mandatory set, ``[Declarer]``, ``[Contract]``,
   ``[Result]`` left empty), ``[Competition "Pairs"]``, ``[OptimumScore]`` and ``[DoubleDummyTricks]``
   (BridgeComposer's 20 hex digits) when the analysis answered, and the board's traveller as a
   ``[ScoreTable]``; the first board's game also carries the ranking as a ``[TotalScoreTable]``;
2. then one game per traveller line played at a table: the table and round, the players' names, the
   result (``[Declarer]``, ``[Contract]``, ``[Result]`` = declarer's tricks, ``[Score "NS 420"]``), the
   ``[Auction]`` and the ``[Play]`` section (a line a trick, the cards in seat columns clockwise from the
   opening leader, ``-`` for a card not played, ``*`` when play stopped before 52 cards), the tokens
   separated by one space as PBN's export format asks (not padded into columns). A section that
   contradicts the result (the director corrected the contract, the declarer, the tricks or the lead)
   is left out (:func:`auction_agrees`, :func:`play_agrees`): the file never says two things.

The traveller has ``Names_NS``/``Names_EW`` columns when any name is known, ``Group`` on a fouled board
and ``Entry`` (``hand`` or ``-``) when a line on it was entered by hand.

A table's column header lists each column as ``Name\\<width><L|R>`` separated by ``;`` (PBN 2.1 section
5); a value that is absent is ``-``; text with spaces is quoted. Lines end in CR LF.
"""

from __future__ import annotations

from collections.abc import Sequence

from firmware_host.duplicate.handrecords.pbnfile import pbn_date
from firmware_host.duplicate.results.results_data import ExportData, entered_by_hand
from firmware_host.duplicate.views import ordered_rankings
from laws.bridge.auction import Auction
from laws.bridge.calls import parse_call
from laws.bridge.tricks import trick_winner
from laws.cards import Card, Seat, clockwise_from
from laws.scoring import Method, ScoredBoard, ScoredLine, present
from laws.session.duplicate.state import Entry

SCORE_TABLE = (("Table", 2, "R"), ("Round", 2, "R"), ("PairId_NS", 4, "R"), ("PairId_EW", 4, "R"),
               ("Contract", 5, "L"), ("Declarer", 1, "R"), ("Result", 2, "R"), ("Lead", 3, "L"),
               ("Score_NS", 6, "R"), ("Score_EW", 6, "R"))
SCORING = {Method.MATCHPOINTS: "MP", Method.MATCHPOINTS_HALF: "MP", Method.BUTLER: "Butler",
           Method.CROSS_IMPS: "IMP"}


def _q(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: str) -> str:
    return f"[{name} {_q(value)}]"


def _header(cols: Sequence[tuple[str, int, str]]) -> str:
    return ";".join(f"{n}\\{w}{a}" for n, w, a in cols)


def _row(cells: Sequence[str], cols: Sequence[tuple[str, int, str]]) -> str:
    out = []
    for cell, (_n, w, a) in zip(cells, cols):
        text = (_q(cell) if " " in cell or '"' in cell else cell) if cell else "-"
        out.append(text.rjust(w) if a == "R" else text.ljust(w))
    return " ".join(out).rstrip()


def pair_id(label: str) -> str:
    """A pair's PairId: its number (the Direction column of the ranking, or the traveller's column, says
    which direction a Mitchell pair is)."""
    return label.split()[0]


def seat_pair_id(label: str, seat: str) -> str:
    """A traveller's PairId for the pair sitting ``seat`` (``NS`` or ``EW``): its number, with its home
    direction after it when it sits the other way (an arrow-switched round: pair 3 EW at North-South
    is ``3EW``), since a Mitchell's 3 NS and 3 EW are two pairs."""
    parts = label.split()
    return parts[0] + parts[1] if len(parts) > 1 and parts[1] != seat else parts[0]


def card_pbn(code: str) -> str:
    """Our ``AS`` as PBN's ``SA`` (suit, then rank)."""
    return code[1] + code[0] if code else ""


def tricks_of(play: Sequence[str], strain: str, declarer: Seat) -> list[dict[Seat, str]]:
    """The cards played, in order, as tricks (seat -> PBN card); each trick led by the last one's winner."""
    trump = None if strain == "NT" else strain
    leader = declarer.left
    out: list[dict[Seat, str]] = []
    for start in range(0, len(play), 4):
        cards = {s: Card.parse(c) for s, c in zip(clockwise_from(leader), play[start:start + 4])}
        out.append({s: card_pbn(c.code) for s, c in cards.items()})
        if len(cards) == 4:
            leader = trick_winner(cards, leader, trump)
    return out


def auction_agrees(e: Entry, dealer: Seat) -> bool:
    """Whether the table's auction ends in the line's contract and declarer (a corrected line's may not)."""
    auction = Auction(dealer)
    try:
        for text in e.auction:
            turn = auction.turn
            if turn is None:
                return False
            auction.add(turn, parse_call(text))
        if not auction.closed:
            return False
        contract = auction.contract()
    except (ValueError, KeyError):
        return False
    if contract is None:
        return e.contract == "Pass"
    return contract.code == e.contract and auction.declarer is not None and auction.declarer.value == e.declarer


def play_agrees(e: Entry) -> bool:
    """Whether the cards played agree with the line: its lead, and declarer's tricks (all of them when
    the play is complete; no more than the line's, and the defenders' no more than theirs, when it
    stopped at a claim)."""
    if not e.play or not e.declarer or e.contract == "Pass":
        return False
    if e.lead and e.play[0] != e.lead:
        return False
    declarer = Seat(e.declarer)
    trump = None if e.contract.rstrip("X")[1:] == "NT" else e.contract.rstrip("X")[1:]
    leader, won, lost = declarer.left, 0, 0
    try:
        for start in range(0, len(e.play) - len(e.play) % 4, 4):
            cards = {s: Card.parse(c) for s, c in zip(clockwise_from(leader), e.play[start:start + 4])}
            leader = trick_winner(cards, leader, trump)
            won, lost = (won + 1, lost) if leader.side is declarer.side else (won, lost + 1)
    except (ValueError, KeyError):
        return False
    if len(e.play) == 52:
        return won == e.tricks
    return won <= e.tricks and lost <= 13 - e.tricks


def play_section(e: Entry) -> list[str]:
    if not e.play or not e.declarer or e.contract == "Pass":
        return []
    declarer = Seat(e.declarer)
    strain = e.contract.rstrip("X")[1:]
    first = declarer.left
    lines = [_tag("Play", first.value)]
    for trick in tricks_of(e.play, strain, declarer):
        lines.append(" ".join(trick.get(s, "-") for s in clockwise_from(first)))
    if len(e.play) < 52:
        lines.append("*")
    return lines


def auction_section(e: Entry, dealer: Seat) -> list[str]:
    if not e.auction:
        return []
    calls = list(e.auction)
    lines = [_tag("Auction", dealer.value)]
    for i in range(0, len(calls), 4):
        lines.append(" ".join(calls[i:i + 4]))
    return lines


def _mandatory(data: ExportData, number: int, *, declarer: str = "", contract: str = "", result: str = "",
               names: tuple[str, ...] = ("", "", "", "")) -> list[str]:
    rec = data.records[number]
    s = data.setup
    return [_tag("Event", s.name), _tag("Site", s.club), _tag("Date", pbn_date(s.date)),
            _tag("Board", str(number)), _tag("West", names[3]), _tag("North", names[0]),
            _tag("East", names[1]), _tag("South", names[2]), _tag("Dealer", rec.dealer.value),
            _tag("Vulnerable", rec.vulnerability.value),
            # a board some table has still to play: its hands unknown, as PBN writes an unknown hand ("-")
            _tag("Deal", f"{rec.dealer.value}:- - - -" if number in data.withheld else rec.deal.pbn(rec.dealer)),
            _tag("Scoring", SCORING[s.method]), _tag("Declarer", declarer), _tag("Contract", contract),
            _tag("Result", result)]


def _columns(data: ExportData) -> tuple[tuple[str, int, str], ...]:
    if data.setup.method.at_imps:
        return SCORE_TABLE + (("IMP_NS", 6, "R"), ("IMP_EW", 6, "R"))
    return SCORE_TABLE + (("MP_NS", 6, "R"), ("MP_EW", 6, "R"), ("Percentage_NS", 6, "R"),
                          ("Percentage_EW", 6, "R"))


def _score_cells(ln: ScoredLine) -> tuple[str, str]:
    """Score_NS is North-South's own score, Score_EW East-West's own; one of them for a table
    result (the side that scored), both for a split assigned score (each side's)."""
    if ln.ns_score is None:
        return "-", "-"
    score = ln.ns_score
    if ln.ew_score is not None and ln.ew_score != score:
        return str(score), str(-ln.ew_score)
    return (str(score), "-") if score > 0 else ("-", str(-score)) if score < 0 else ("0", "0")


def _named(data: ExportData) -> bool:
    return any(p.name for players in data.players.values() for p in players)


def _traveller(data: ExportData, board: ScoredBoard) -> list[str]:
    fouled = len({ln.group for ln in board.lines}) > 1
    entries = [data.entry(board.number, ln.ns.label, ln.ew.label) for ln in board.lines]
    by_hand = any(e is not None and entered_by_hand(e) for e in entries)
    named = _named(data)
    cols = _columns(data) + ((("Group", 1, "L"),) if fouled else ()) + ((("Entry", 4, "L"),) if by_hand else ())
    cols += (("Names_NS", 30, "L"), ("Names_EW", 30, "L")) if named else ()
    lines = [f'[ScoreTable "{_header(cols)}"]']
    for ln, e in zip(board.lines, entries):
        ns, ew = _score_cells(ln)
        contract = ln.contract if ln.contract else ("A" + "/".join(e.adjusted) if e and e.kind == "artificial" else "-")
        cells = [str(e.table) if e else "-", str(e.round) if e else "-", seat_pair_id(ln.ns.label, "NS"),
                 seat_pair_id(ln.ew.label, "EW"),
                 contract or "-", ln.declarer or "-", "-" if ln.tricks is None or not ln.declarer else str(ln.tricks),
                 card_pbn(ln.lead or "") or "-", ns, ew, present(ln.ns_points), present(ln.ew_points)]
        if not data.setup.method.at_imps:
            cells += ["-" if ln.ns_percent is None else present(ln.ns_percent),
                      "-" if ln.ew_percent is None else present(ln.ew_percent)]
        if fouled:
            cells.append(ln.group)
        if by_hand:
            cells.append("hand" if e is not None and entered_by_hand(e) else "-")
        if named:
            rnd = e.round if e else None     # the names of who sat in the line's round
            cells += [data.names_at(ln.ns.label, rnd), data.names_at(ln.ew.label, rnd)]
        lines.append(_row(cells, cols))
    return lines


def _ranking(data: ExportData) -> list[str]:
    imps = data.setup.method.at_imps
    cols = (("Rank", 3, "R"), ("PairId", 4, "R"), ("Direction", 3, "R"),
            ("TotalScoreIMP" if imps else "TotalScoreMP", 8, "R"),
            *(() if imps else (("TotalPercentage", 6, "R"),)), ("NrBoards", 2, "R"), ("Names", 30, "L"))
    lines = [f'[TotalScoreTable "{_header(cols)}"]']
    for ranking in ordered_rankings(data.result):
        for s in ranking.standings:
            d = s.pair.direction
            direction = "N-S" if d is not None and d.value == "NS" else "E-W" if d is not None else "-"
            names = data.names(s.pair.label)
            cells = [s.place, pair_id(s.pair.label), direction, present(s.total)]
            if not imps:
                cells.append("-" if s.percent is None else present(s.percent))
            cells += [str(s.boards), names]
            lines.append(_row(cells, cols))
    return lines


def _result_games(data: ExportData, board: ScoredBoard) -> list[list[str]]:
    rec = data.records[board.number]
    games = []
    for ln in board.lines:
        e = data.entry(board.number, ln.ns.label, ln.ew.label)
        if e is None or e.kind != "played":
            continue
        north, south = data.players_at(str(e.ns), e.round)   # who sat in that round, not who sits now
        east, west = data.players_at(str(e.ew), e.round)
        seat_names = (north.name, east.name, south.name, west.name)
        tricks = str(e.tricks) if e.contract != "Pass" else ""
        game = _mandatory(data, board.number, declarer=e.declarer, contract=e.contract, result=tricks,
                          names=seat_names)
        game += [_tag("Table", str(e.table)), _tag("Round", str(e.round)),
                 _tag("Score", f"NS {ln.ns_score}" if ln.ns_score is not None else "")]
        if entered_by_hand(e):
            game.append("{entered by hand}")
        if e.auction and auction_agrees(e, rec.dealer):
            game += auction_section(e, rec.dealer)
            if play_agrees(e):
                game += play_section(e)
        elif not e.auction and play_agrees(e):
            game += play_section(e)
        games.append(game)
    return games


def write(data: ExportData) -> bytes:
    games: list[list[str]] = []
    for i, board in enumerate(data.result.boards):
        game = _mandatory(data, board.number) + [_tag("Competition", "Pairs")]
        a = None if board.number in data.withheld else data.analysis.get(board.number)
        if a is not None:
            game += [_tag("OptimumScore", a.optimum_score), _tag("DoubleDummyTricks", a.dd_hex)]
        if i == 0:
            game += _ranking(data)
        game += _traveller(data, board)
        games.append(game)
        if board.number not in data.withheld:   # each result game's play shows the hands
            games += _result_games(data, board)
    text = "% PBN 2.1\r\n% EXPORT\r\n%Creator: cardtable\r\n\r\n" + "\r\n".join(
        "\r\n".join(g) + "\r\n" for g in games)
    return text.encode("utf-8")
