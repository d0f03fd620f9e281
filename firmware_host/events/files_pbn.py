"""An event's results as PBN 2.1 score tables: teams, Swiss pairs and individual
(``docs/competitions.md``, "Results files", lays out each table, with a worked example).

One game per board played, in board order: the tags ``[Event]``, ``[Site]``, ``[Date]`` (``YYYY.MM.DD``),
``[Board]``, ``[West]``, ``[North]``, ``[East]``, ``[South]`` (empty), ``[Dealer]``, ``[Vulnerable]``,
``[Deal]`` (the board's deal when the event was opened with hand records, else ``"?"``), ``[Scoring]``, ``[Declarer]``, ``[Contract]``,
``[Result]`` (empty: the lines are in the table), ``[Competition]``, then the board's ``[ScoreTable]``.
The first game also has ``[EventType]`` (ours: USEBIO's ``EVENT_TYPE``), the ranking
(``[TotalScoreTable]``: a knock-out's ``Rank`` follows the bracket) and, for teams and Swiss pairs, every
match (``[MatchTable]``). A table's header lists ``Name\\<width><L|R>`` columns separated by ``;``; each row
is one line of values separated by spaces; an absent value is ``-``. CR LF line ends.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from firmware_host.events.files_usebio import EVENT_TYPES, players_of, team_name, vp_scale
from laws.competition.event import EventState
from laws.competition.event_spec import EventKind
from laws.competition.table_result import TableResult
from laws.duplicate.boards import dealer, vulnerability
from laws.scoring.render import present

COMPETITION = {EventKind.SWISS_PAIRS: "Pairs", EventKind.INDIVIDUAL: "Individuals"}
SCORING = {EventKind.SWISS_PAIRS: "Butler", EventKind.INDIVIDUAL: "MP"}


def _table(name: str, columns: Sequence[tuple[str, int, str]], rows: Sequence[Sequence[object]]) -> list[str]:
    header = ";".join(f"{c}\\{w}{'L' if a == 'S' else a}" for c, w, a in columns)
    out = [f'[{name} "{header}"]']
    for row in rows:
        cells = []
        for (_c, w, a), v in zip(columns, row):
            if a == "S":   # a string column: quoted, with PBN's escapes ("" when empty), padded like the rest
                cells.append(f'"{_quoted(str(v or ""))}"'.ljust(w))
                continue
            text = "-" if v is None or v == "" else str(v)
            cells.append(text.rjust(w) if a == "R" else text.ljust(w))
        out.append(" ".join(cells).rstrip())
    return out


def _quoted(text: str) -> str:
    """A tag's value with PBN's escapes (a backslash before ``"`` and ``\\``)."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def _date(iso: str) -> str:
    return iso.replace("-", ".")


def _result_cells(res: TableResult) -> tuple[object, object]:
    """``Score_NS`` and ``Score_EW`` of a result: its score's cells, or an adjusted result's awards
    (``A+``, ``A=``, ``A-``: North-South's in ``Score_NS``, East-West's in ``Score_EW``)."""
    if res.adjusted:
        return res.awards
    return _score_cells(res.ns_score)


def _score_cells(ns_score: int) -> tuple[object, object]:
    """``Score_NS`` and ``Score_EW``: the side that scored fills its own (``-`` the other), 0 fills both."""
    if ns_score == 0:
        return 0, 0
    return (ns_score, None) if ns_score > 0 else (None, -ns_score)


def _contract(state: EventState, key: tuple[int, int, int]) -> tuple[object, object, object]:
    res = state.results[key]
    if res.assigned is not None or res.adjusted:
        return None, None, None
    if res.contract == "Pass":
        return "Pass", None, None
    return res.contract, res.declarer, res.tricks


TEAM_COLUMNS = (("Round", 2, "R"), ("Table", 2, "R"), ("Room", 6, "L"), ("Team_NS", 3, "R"), ("Team_EW", 3, "R"),
                ("Contract", 5, "L"), ("Declarer", 1, "R"), ("Result", 2, "R"), ("Score_NS", 6, "R"),
                ("Score_EW", 6, "R"), ("IMP_NS", 3, "R"), ("IMP_EW", 3, "R"))
PAIR_COLUMNS = (("Round", 2, "R"), ("Table", 2, "R"), ("PairId_NS", 3, "R"), ("PairId_EW", 3, "R"),
                ("Contract", 5, "L"), ("Declarer", 1, "R"), ("Result", 2, "R"), ("Score_NS", 6, "R"),
                ("Score_EW", 6, "R"), ("IMP_NS", 3, "R"), ("IMP_EW", 3, "R"))
PLAYER_COLUMNS = (("Round", 2, "R"), ("Table", 2, "R"), ("North", 3, "R"), ("South", 3, "R"), ("East", 3, "R"),
                  ("West", 3, "R"), ("Contract", 5, "L"), ("Declarer", 1, "R"), ("Result", 2, "R"),
                  ("Score_NS", 6, "R"), ("Score_EW", 6, "R"), ("MP_NS", 6, "R"), ("MP_EW", 6, "R"))


def _board_rows(state: EventState, board: int) -> list[list[object]]:
    r = state.spec.round_of(board)
    d = state.draws[r]
    kind = state.spec.kind
    rows: list[list[object]] = []
    if kind.teams:
        for m, (home, away) in enumerate(d.matches, 1):
            imps = next(b for b in state.team_match(r, m).boards if b.board == board)
            for table, room, ns, ew in ((2 * m - 1, "Open", home, away), (2 * m, "Closed", away, home)):
                key = (r, table, board)
                if key not in state.results:
                    continue
                ns_imps = imps.home if room == "Open" else imps.away
                ew_imps = imps.away if room == "Open" else imps.home
                rows.append([r, table, room, ns.number, ew.number, *_contract(state, key),
                             *_result_cells(state.results[key]), ns_imps, ew_imps])
    elif kind is EventKind.SWISS_PAIRS:
        butler = state.butler_imps(r)
        adjusted = state.adjusted_imps(r)
        for t in d.tables:
            key = (r, t.table, board)
            if key in state.results:
                won = butler.get((t.table, board))
                imps = (won, -won) if won is not None else adjusted[(t.table, board)]
                rows.append([r, t.table, t.north.number, t.east.number, *_contract(state, key),
                             *_result_cells(state.results[key]), *imps])
    else:
        points = state.individual_boards()
        for t in d.tables:
            key = (r, t.table, board)
            if key in state.results:
                ns_mp, ew_mp, _top = points[key]
                rows.append([r, t.table, t.north.number, t.south.number, t.east.number, t.west.number,
                             *_contract(state, key),
                             *_result_cells(state.results[key]), present(ns_mp), present(ew_mp)])
    return rows


def _first_tables(state: EventState) -> list[str]:
    kind = state.spec.kind
    if kind is EventKind.INDIVIDUAL:
        rows = [[p.place, p.player.number, present(p.total), None if p.percent is None else present(p.percent),
                 p.boards, players_of(state, p.player.number)] for p in state.player_standings()]
        return _table("TotalScoreTable", (("Rank", 3, "R"), ("PlayerId", 3, "R"), ("TotalScoreMP", 7, "R"),
                                          ("TotalPercentage", 6, "R"), ("NrBoards", 2, "R"), ("Names", 20, "S")), rows)
    who = "TeamId" if kind.teams else "PairId"
    columns: tuple[tuple[str, int, str], ...] = (("Rank", 3, "R"), (who, 3, "R"), ("TotalScoreVP", 7, "R"),
                                                 ("TotalIMP", 5, "R"), ("Byes", 1, "R"))
    columns += (("TeamName", 20, "S"), ("Names", 40, "S")) if kind.teams else (("Names", 40, "S"),)
    out = _table("TotalScoreTable", columns,
                 [[s.place, s.competitor.number, present(s.vp), s.net_imps, s.byes,
                   *((team_name(state, s.competitor.number),) if kind.teams else ()),
                   players_of(state, s.competitor.number)]
                  for s in state.standings()])
    rows = []
    for r in sorted(state.draws):
        for m in state.matches(r):
            rows.append([r, m.first.number, m.second.number, m.first_imps, m.second_imps, present(m.first_vp),
                         present(m.second_vp)])
        rows += [[r, b.number, None, None, None, present(state.spec.bye_score), None] for b in state.draws[r].byes
                 if state.complete(r)]
    return out + _table("MatchTable", (("Round", 2, "R"), ("Home", 3, "R"), ("Away", 3, "R"), ("IMP_Home", 4, "R"),
                                       ("IMP_Away", 4, "R"), ("VP_Home", 6, "R"), ("VP_Away", 6, "R")), rows)


def write(state: EventState, *, date: str, site: str = "", deals: Mapping[int, str] | None = None) -> bytes:
    """The event's complete rounds as PBN 2.1 (the same state gives the same bytes); ``deals``: each board's
    deal as PBN's ``[Deal]`` spells it, when the event has hand records."""
    state = state.settled()
    kind = state.spec.kind
    columns = TEAM_COLUMNS if kind.teams else PAIR_COLUMNS if kind is EventKind.SWISS_PAIRS else PLAYER_COLUMNS
    boards = sorted({b for (_r, _t, b) in state.results})
    lines = ["% PBN 2.1", "% EXPORT", "% cardtable event results", ""]
    for i, board in enumerate(boards):
        game = [f'[Event "{_quoted(state.spec.name)}"]', f'[Site "{_quoted(site)}"]', f'[Date "{_date(date)}"]', f'[Board "{board}"]',
                '[West ""]', '[North ""]', '[East ""]', '[South ""]', f'[Dealer "{dealer(board).value}"]',
                f'[Vulnerable "{vulnerability(board).value}"]', f'[Deal "{(deals or {}).get(board, "?")}"]',
                f'[Scoring "{SCORING.get(kind, "IMP")}"]', '[Declarer ""]', '[Contract ""]', '[Result ""]',
                f'[Competition "{COMPETITION.get(kind, "Teams")}"]']
        if i == 0:
            # ours: the kind of event, as USEBIO's EVENT_TYPE names it, so a reader knows how the ranking
            # was given (a knock-out's Rank follows the bracket, not the VPs)
            game.append(f'[EventType "{EVENT_TYPES[kind]}"]')
            if kind is not EventKind.INDIVIDUAL:
                game += [f'[VPScale "{vp_scale(state)}"]', f'[ByeScore "{present(state.spec.bye_score)}"]']
            game += _first_tables(state)
        game += _table("ScoreTable", columns, _board_rows(state, board))
        lines += game + [""]
    return "\r\n".join(lines).encode("utf-8")
