"""An event of pairs in sections as results files: PBN 2.1 and USEBIO 1.2 (``docs/competitions.md``,
"Sections in the files"). The complete rounds only; matchpoints within each section, or across the field
when the event is scored so."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from fractions import Fraction

from firmware_host.events.files_pbn import _contract, _date, _quoted, _result_cells, _table
from firmware_host.events.files_usebio import DOCTYPE, VERSION, _played, _sub, players_of
from firmware_host.events.files_usebio import _date as _usebio_date
from laws.competition.event import EventState
from laws.competition.event_sections import score_sections
from laws.competition.event_spec import section_numbers
from laws.competition.sections import SPAN
from laws.duplicate.boards import dealer, vulnerability
from laws.scoring.render import present

Row = tuple[int, int, int, str, int, str, str, Fraction, Fraction]   # round, event table, board, section,
#                                                                      section's table, NS label, EW label, MPs


def _rows(state: EventState) -> list[Row]:
    spec = state.spec
    movements = spec.movements()
    names = sorted(movements)
    offsets, first = {}, 0
    for sec in spec.sections:
        offsets[sec.name] = first
        first += sec.tables
    owner = {offsets[sec.name] + t: sec.name for sec in spec.sections for t in range(1, sec.tables + 1)}
    event = score_sections(state)
    points: dict[tuple[str, int, str], tuple[Fraction, Fraction]] = {}
    for key, session in event.sessions.items():
        for board in session.boards:
            for ln in board.lines:
                if key == "field":
                    k, number = divmod(ln.ns.number, SPAN)
                    section, label = names[k], f"{number} {ln.ns.direction.value}" if ln.ns.direction else str(number)
                else:
                    section, label = key, ln.ns.label
                points[(section, board.number, label)] = (ln.ns_points, ln.ew_points)
    out = []
    for (r, table, board) in sorted(state.results):
        section = owner[table]
        seat = movements[section].at(r, table - offsets[section])
        assert seat is not None and seat.ns is not None and seat.ew is not None
        ns, ew = str(seat.ns), str(seat.ew)
        mp_ns, mp_ew = points[(section, board, ns)]
        out.append((r, table, board, section, table - offsets[section], ns, ew, mp_ns, mp_ew))
    return out


def _pair_id(label: str) -> str:
    """``3 NS`` as PBN's ``3NS`` (a Howell pair's number alone)."""
    return label.replace(" ", "")


COLUMNS = (("Section", 2, "L"), ("Round", 2, "R"), ("Table", 2, "R"), ("PairId_NS", 5, "R"), ("PairId_EW", 5, "R"),
           ("Contract", 5, "L"), ("Declarer", 1, "R"), ("Result", 2, "R"), ("Score_NS", 6, "R"),
           ("Score_EW", 6, "R"), ("MP_NS", 6, "R"), ("MP_EW", 6, "R"))


def write_pbn(state: EventState, *, date: str, site: str = "", deals: Mapping[int, str] | None = None) -> bytes:
    """The event's complete rounds as PBN 2.1 (``deals``: as :func:`files_pbn.write` takes them)."""
    state = state.settled()
    rows = _rows(state)
    rankings = score_sections(state).rankings if rows else ()
    lines = ["% PBN 2.1", "% EXPORT", "% cardtable event results", ""]
    for i, board in enumerate(sorted({r[2] for r in rows})):
        game = [f'[Event "{_quoted(state.spec.name)}"]', f'[Site "{_quoted(site)}"]', f'[Date "{_date(date)}"]',
                f'[Board "{board}"]', '[West ""]', '[North ""]', '[East ""]', '[South ""]',
                f'[Dealer "{dealer(board).value}"]', f'[Vulnerable "{vulnerability(board).value}"]',
                f'[Deal "{(deals or {}).get(board, "?")}"]',
                '[Scoring "MP"]', '[Declarer ""]', '[Contract ""]', '[Result ""]', '[Competition "Pairs"]']
        if i == 0:
            game.append(f'[Across "{"Yes" if state.spec.across else "No"}"]')
            numbers = section_numbers(state.spec)
            ranking_rows = [[field.replace(" ", "_"), place, sp.section, _pair_id(sp.pair.label), present(st.total),
                             None if st.percent is None else present(st.percent), st.boards,
                             players_of(state, numbers[(sp.section, sp.pair)])]
                            for field, table in rankings for place, sp, st in table]
            game += _table("TotalScoreTable", (("Field", 14, "L"), ("Rank", 3, "R"), ("Section", 2, "L"),
                                               ("PairId", 5, "R"),
                                               ("TotalScoreMP", 7, "R"), ("TotalPercentage", 6, "R"),
                                               ("NrBoards", 2, "R"), ("Names", 40, "S")), ranking_rows)
        board_rows = []
        for r, table, b, section, local, ns, ew, mp_ns, mp_ew in rows:
            if b == board:
                board_rows.append([section, r, local, _pair_id(ns), _pair_id(ew), *_contract(state, (r, table, b)),
                                   *_result_cells(state.results[(r, table, b)]), present(mp_ns),
                                   present(mp_ew)])
        game += _table("ScoreTable", COLUMNS, board_rows)
        lines += game + [""]
    return "\r\n".join(lines).encode("utf-8")


def write_usebio(state: EventState, *, date: str, club: str = "", club_id: str = "") -> bytes:
    """The event's complete rounds as USEBIO 1.2: a ``SESSION`` with a ``SECTION`` per section."""
    state = state.settled()
    spec = state.spec
    rows = _rows(state)
    rankings = score_sections(state).rankings if rows else ()
    root = ET.Element("USEBIO", {"Version": "1.2"})
    c = _sub(root, "CLUB")
    _sub(c, "CLUB_NAME", club)
    _sub(c, "CLUB_ID_NUMBER", club_id)
    event = _sub(root, "EVENT", EVENT_TYPE="PAIRS")
    two = all(set(m.fields().values()) == {"NS", "EW"} for m in spec.movements().values())
    for tag, text in (("PROGRAM_NAME", "cardtable"), ("PROGRAM_VERSION", VERSION), ("EVENT_DESCRIPTION", spec.name),
                      ("DATE", _usebio_date(date)), ("WINNER_TYPE", 2 if two else 1),
                      ("BOARD_SCORING_METHOD", "MATCH_POINTS"), ("ACROSS_FIELD", "YES" if spec.across else "NO"),
                      ("BOARDS_PLAYED", len({r[2] for r in rows})), ("SESSION_COUNT", 1),
                      ("SECTION_COUNT", len(spec.sections))):
        _sub(event, tag, text)
    session = _sub(event, "SESSION", SESSION_ID="1")
    field_place = {(sp.section, sp.pair.label): place for field, table in rankings if field.startswith("field ")
                   for place, sp, _st in table}
    numbers = section_numbers(spec)
    for sec in spec.sections:
        section = _sub(session, "SECTION", SECTION_ID=sec.name)
        parts = _sub(section, "PARTICIPANTS")
        for field, table in rankings:
            if not field.startswith(f"{sec.name} "):
                continue
            for place, sp, st in table:
                pair = _sub(parts, "PAIR")
                _sub(pair, "PAIR_NUMBER", sp.pair.number)
                _sub(pair, "DIRECTION", "" if sp.pair.direction is None else sp.pair.direction.value)
                named = list((state.names.get(numbers[(sec.name, sp.pair)]) or {}).get("players", ()))
                for k in range(2):
                    p = named[k] if k < len(named) else {}
                    player = _sub(pair, "PLAYER")
                    _sub(player, "PLAYER_NAME", p.get("name"))
                    _sub(player, "NATIONAL_ID_NUMBER", p.get("federation"))
                _sub(pair, "BOARDS_PLAYED", st.boards)
                _sub(pair, "PLACE", place)
                _sub(pair, "TOTAL_SCORE", present(st.total))
                _sub(pair, "PERCENTAGE", "" if st.percent is None else present(st.percent))
                _sub(pair, "FIELD_PLACE", field_place.get((sec.name, sp.pair.label), ""))
        for board in sorted({r[2] for r in rows if r[3] == sec.name}):
            b = _sub(section, "BOARD")
            _sub(b, "BOARD_NUMBER", board)
            for r, table, bd, name, local, ns, ew, mp_ns, mp_ew in rows:
                if bd != board or name != sec.name:
                    continue
                line = _sub(b, "TRAVELLER_LINE")
                for tag, text in (("ROUND_NUMBER", r), ("TABLE_NUMBER", local), ("NS_PAIR_NUMBER", ns.split()[0]),
                                  ("NS_PAIR_DIRECTION", ns.split()[1] if " " in ns else ""),
                                  ("EW_PAIR_NUMBER", ew.split()[0]),
                                  ("EW_PAIR_DIRECTION", ew.split()[1] if " " in ew else "")):
                    _sub(line, tag, text)
                _played(line, state, r, table, bd)
                _sub(line, "NS_MATCH_POINTS", present(mp_ns))
                _sub(line, "EW_MATCH_POINTS", present(mp_ew))
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + DOCTYPE + "\n" + body + "\n").encode("utf-8")
