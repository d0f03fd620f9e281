"""An event's results as USEBIO 1.2 XML: teams, Swiss pairs and individual event types
(``docs/competitions.md``, "Results files", lays it out element by element, with a worked example).

``EVENT EVENT_TYPE`` is ``TEAMS_OF_FOUR`` (round robin), ``KO`` (knock-out), ``SWISS_TEAMS``,
``SWISS_PAIRS`` or ``INDIVIDUAL``. Figures are written as ``laws.scoring.present`` writes them (two
decimals); elements whose value is not known are written empty, never left out. UTF-8, two spaces.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from laws.competition.event import EventState
from laws.competition.event_spec import EventKind
from laws.scoring.render import present

VERSION = "0.1.0"
EVENT_TYPES = {EventKind.ROUND_ROBIN: "TEAMS_OF_FOUR", EventKind.KNOCKOUT: "KO",
               EventKind.SWISS_TEAMS: "SWISS_TEAMS", EventKind.SWISS_PAIRS: "SWISS_PAIRS",
               EventKind.INDIVIDUAL: "INDIVIDUAL"}
BOARD_SCORING = {EventKind.SWISS_PAIRS: "BUTLER_IMPS", EventKind.INDIVIDUAL: "MATCH_POINTS"}
DOCTYPE = ('<!DOCTYPE USEBIO PUBLIC "-//EBU//DTD USEBIO 1.2//EN" '
           '"http://www.usebio.org/files/usebio_v1_2.dtd">')


def vp_scale(state: EventState) -> str:
    """The scale as the files name it: ``WBF_CONTINUOUS``, or ``DISCRETE`` then the total and each
    threshold from the draw up (``DISCRETE 20 0 1 3 5 8 11 14 17 20 24 28``); empty for an individual."""
    spec = state.spec
    if spec.kind is EventKind.INDIVIDUAL:
        return ""
    if spec.scale is None:
        return "WBF_CONTINUOUS"
    return " ".join(["DISCRETE", str(spec.scale.total), *map(str, spec.scale.thresholds)])


def team_name(state: EventState, team: int) -> str:
    """A team's name as the files write it: the director's, else ``Team N``."""
    return str((state.names.get(team) or {}).get("name") or f"Team {team}")


def players_of(state: EventState, competitor: int) -> str:
    """A competitor's players' names as the files write them: joined by `` - `` ("" when unnamed)."""
    return " - ".join(str(p.get("name", "")) for p in (state.names.get(competitor) or {}).get("players", ()))


def _sub(parent: ET.Element, tag: str, text: str | int | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, attrs)
    el.text = "" if text is None else str(text)
    return el


def _date(iso: str) -> str:
    y, m, d = (iso.split("-") + ["", "", ""])[:3]
    return f"{d}/{m}/{y}" if y and m and d else iso


def _line(parent: ET.Element, state: EventState, r: int, table: int, board: int) -> ET.Element:
    line = _sub(parent, "TRAVELLER_LINE")
    _sub(line, "ROUND_NUMBER", r)
    _sub(line, "TABLE_NUMBER", table)
    return line


def _played(line: ET.Element, state: EventState, r: int, table: int, board: int) -> None:
    res = state.results[(r, table, board)]
    contract = "" if res.assigned is not None or res.adjusted else ("PASS" if res.contract == "Pass" else res.contract)
    _sub(line, "CONTRACT", contract)
    _sub(line, "PLAYED_BY", res.declarer)
    _sub(line, "TRICKS", "" if res.assigned is not None or res.adjusted or res.contract == "Pass" else res.tricks)
    _sub(line, "SCORE", "" if res.adjusted else res.ns_score)
    if res.adjusted:
        _sub(line, "ADJUSTED_SCORE", res.adjusted)     # ours: North-South's and East-West's awards


def _teams(event: ET.Element, state: EventState) -> None:
    for r in sorted(state.draws):
        d = state.draws[r]
        for m, (home, away) in enumerate(d.matches, 1):
            match = state.team_match(r, m)
            el = _sub(event, "MATCH")
            for tag, text in (("ROUND_NUMBER", r), ("TEAM", home.number), ("OPPOSING_TEAM", away.number),
                              ("TEAM_SCORE", present(match.home_vp)), ("OPPOSING_TEAM_SCORE", present(match.away_vp)),
                              ("TEAM_IMPS", match.home_imps), ("OPPOSING_TEAM_IMPS", match.away_imps)):
                _sub(el, tag, text)
            for b in match.boards:
                board = _sub(el, "BOARD")
                _sub(board, "BOARD_NUMBER", b.board)
                _sub(board, "TEAM_IMPS", "" if b.home is None else b.home)
                _sub(board, "OPPOSING_TEAM_IMPS", "" if b.away is None else b.away)
                for table, direction, ns, ew in ((2 * m - 1, "NS", home, away), (2 * m, "EW", away, home)):
                    if (r, table, b.board) not in state.results:
                        continue
                    line = _line(board, state, r, table, b.board)
                    _sub(line, "DIRECTION", direction)
                    _sub(line, "NS_PAIR_NUMBER", ns.number)
                    _sub(line, "EW_PAIR_NUMBER", ew.number)
                    _played(line, state, r, table, b.board)


def _swiss_pairs(event: ET.Element, state: EventState) -> None:
    for r in sorted(state.draws):
        d = state.draws[r]
        butler = state.butler_imps(r)
        for m, t in zip(state.matches(r), d.tables):
            el = _sub(event, "MATCH")
            for tag, text in (("ROUND_NUMBER", r), ("NS_PAIR_NUMBER", m.first.number),
                              ("EW_PAIR_NUMBER", m.second.number),
                              ("NS_SCORE", present(m.first_vp)), ("EW_SCORE", present(m.second_vp))):
                _sub(el, tag, text)
            for b in d.boards:
                if (r, t.table, b) not in state.results:
                    continue
                board = _sub(el, "BOARD")
                _sub(board, "BOARD_NUMBER", b)
                line = _line(board, state, r, t.table, b)
                _sub(line, "NS_PAIR_NUMBER", t.north.number)
                _sub(line, "EW_PAIR_NUMBER", t.east.number)
                _played(line, state, r, t.table, b)
                won = butler.get((t.table, b))
                ns_imps, ew_imps = (won, -won) if won is not None else state.adjusted_imps(r)[(t.table, b)]
                _sub(line, "NS_IMPS", ns_imps)
                _sub(line, "EW_IMPS", ew_imps)


def _individual(event: ET.Element, state: EventState) -> None:
    points = state.individual_boards()
    by_board: dict[int, list[tuple[int, int]]] = {}
    for (r, table, board) in sorted(state.results):
        by_board.setdefault(board, []).append((r, table))
    for number in sorted(by_board):
        board = _sub(event, "BOARD")
        _sub(board, "BOARD_NUMBER", number)
        for r, table in by_board[number]:
            seat = next(t for t in state.draws[r].tables if t.table == table)
            line = _line(board, state, r, table, number)
            for tag, player in (("NORTH_PLAYER_NUMBER", seat.north), ("SOUTH_PLAYER_NUMBER", seat.south),
                                ("EAST_PLAYER_NUMBER", seat.east), ("WEST_PLAYER_NUMBER", seat.west)):
                _sub(line, tag, player.number)
            _played(line, state, r, table, number)
            ns, ew, _top = points[(r, table, number)]
            _sub(line, "NS_MATCH_POINTS", present(ns))
            _sub(line, "EW_MATCH_POINTS", present(ew))


def _participants(event: ET.Element, state: EventState) -> None:
    parts = _sub(event, "PARTICIPANTS")
    if state.spec.kind is EventKind.INDIVIDUAL:
        for p in state.player_standings():
            el = _sub(parts, "PLAYER")
            named = ((state.names.get(p.player.number) or {}).get("players") or [{}])[0]
            for tag, text in (("PLAYER_NUMBER", p.player.number), ("PLAYER_NAME", named.get("name")),
                              ("NATIONAL_ID_NUMBER", named.get("federation")),
                              ("BOARDS_PLAYED", p.boards), ("PLACE", p.place), ("TOTAL_SCORE", present(p.total)),
                              ("PERCENTAGE", "" if p.percent is None else present(p.percent))):
                _sub(el, tag, text)
        return
    for s in state.standings():
        number = s.competitor.number
        if state.spec.kind.teams:
            el = _sub(parts, "TEAM", TEAM_ID=str(number))
            _sub(el, "TEAM_NUMBER", number)
            _sub(el, "TEAM_NAME", team_name(state, number))
            for p in (state.names.get(number) or {}).get("players", ()):
                player = _sub(el, "PLAYER")
                _sub(player, "PLAYER_NAME", p.get("name"))
                _sub(player, "NATIONAL_ID_NUMBER", p.get("federation"))
        else:
            el = _sub(parts, "PAIR")
            _sub(el, "PAIR_NUMBER", number)
            named = list((state.names.get(number) or {}).get("players", ()))
            for k in range(2):
                p = named[k] if k < len(named) else {}
                player = _sub(el, "PLAYER")
                _sub(player, "PLAYER_NAME", p.get("name"))
                _sub(player, "NATIONAL_ID_NUMBER", p.get("federation"))
        for tag, text in (("PLACE", s.place), ("TOTAL_SCORE", present(s.vp)), ("NET_IMPS", s.net_imps),
                          ("BYES", s.byes)):
            _sub(el, tag, text)


def write(state: EventState, *, date: str, club: str = "", club_id: str = "") -> bytes:
    """The event's complete rounds as USEBIO 1.2 (the same state gives the same bytes)."""
    state = state.settled()
    spec = state.spec
    root = ET.Element("USEBIO", {"Version": "1.2"})
    c = _sub(root, "CLUB")
    _sub(c, "CLUB_NAME", club)
    _sub(c, "CLUB_ID_NUMBER", club_id)
    event = _sub(root, "EVENT", EVENT_TYPE=EVENT_TYPES[spec.kind])
    boards = sum(len(state.draws[r].boards) for r in state.draws if state.complete(r))
    scale = "VICTORY_POINTS" if spec.kind is not EventKind.INDIVIDUAL else ""
    for tag, text in (("PROGRAM_NAME", "cardtable"), ("PROGRAM_VERSION", VERSION),
                      ("EVENT_DESCRIPTION", spec.name), ("DATE", _date(date)), ("WINNER_TYPE", 1),
                      ("BOARD_SCORING_METHOD", BOARD_SCORING.get(spec.kind, "IMPS")),
                      ("MATCH_SCORING_METHOD", scale), ("VP_SCALE", vp_scale(state)), ("BYE_SCORE", present(spec.bye_score) if scale else ""),
                      ("BOARDS_PER_ROUND", spec.boards_per_round), ("BOARDS_PLAYED", boards),
                      ("ROUNDS", spec.rounds), ("SESSION_COUNT", 1), ("SECTION_COUNT", 1)):
        _sub(event, tag, text)
    _participants(event, state)
    if spec.kind.teams:
        _teams(event, state)
    elif spec.kind is EventKind.SWISS_PAIRS:
        _swiss_pairs(event, state)
    else:
        _individual(event, state)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + DOCTYPE + "\n" + body + "\n").encode("utf-8")
