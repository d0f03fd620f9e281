"""A scored session as USEBIO 1.2 XML, laid out as the readers we checked take it (``docs/session.md``
names them and shows a worked example).

``USEBIO Version="1.2"`` holds ``CLUB`` (``CLUB_NAME``, ``CLUB_ID_NUMBER``), one ``EVENT
EVENT_TYPE="PAIRS"`` and, after it, ``HANDSET``. The event: ``PROGRAM_NAME``, ``PROGRAM_VERSION``,
``EVENT_DESCRIPTION``, ``DATE`` (dd/mm/yyyy), ``WINNER_TYPE`` (2 for a two-field Mitchell, else 1),
``BOARD_SCORING_METHOD`` (``MATCH_POINTS``, ``BUTLER_IMPS`` or ``CROSS_IMPS``), ``BOARDS_PLAYED``,
``SESSION_COUNT``, ``SECTION_COUNT``; then, straight under the event (one session of one section has no
``SESSION``/``SECTION`` wrapper), ``PARTICIPANTS`` with a ``PAIR`` per pair (``PAIR_NUMBER``,
``DIRECTION`` in a two-field Mitchell, ``BOARDS_PLAYED``, two ``PLAYER`` each with ``PLAYER_NAME`` and
``NATIONAL_ID_NUMBER``, ``PLACE``, ``TOTAL_SCORE``, ``PERCENTAGE`` at matchpoints)
and a ``BOARD`` per board (``BOARD_NUMBER``, a ``TRAVELLER_LINE`` per line: ``NS_PAIR_NUMBER``,
``EW_PAIR_NUMBER``, ``CONTRACT``, ``PLAYED_BY``, ``LEAD``, ``TRICKS``, ``SCORE``, ``NS_MATCH_POINTS``
and ``EW_MATCH_POINTS`` or ``NS_IMPS``/``EW_IMPS``).

``SCORE`` is always filled: North-South's score (``0`` passed out), an assigned score's North-South
value, or for an artificial score ``A`` and the two percentages (``A6040``). Elements whose value is
not known are written empty, never left out (readers index them). Figures as ``present`` writes them
(two decimals). UTF-8, indented two spaces, LF.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from firmware_host.duplicate.results.results_data import ExportData, entered_by_hand
from firmware_host.duplicate.results.results_pbn import card_pbn, pair_id
from firmware_host.duplicate.views import ordered_rankings
from laws.cards import SEATS
from laws.scoring import Method, ScoredLine, present

VERSION = "0.1.0"   # the program's version (pyproject.toml), as PROGRAM_VERSION
METHOD = {Method.MATCHPOINTS: "MATCH_POINTS", Method.MATCHPOINTS_HALF: "MATCH_POINTS",
          Method.BUTLER: "BUTLER_IMPS", Method.CROSS_IMPS: "CROSS_IMPS"}
EVENT_TYPE = "PAIRS"
DOCTYPE = ('<!DOCTYPE USEBIO PUBLIC "-//EBU//DTD USEBIO 1.2//EN" '
           '"http://www.usebio.org/files/usebio_v1_2.dtd">')


def _sub(parent: ET.Element, tag: str, text: str | int | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, attrs)
    el.text = "" if text is None else str(text)
    return el


def _date(iso: str) -> str:
    y, m, d = (iso.split("-") + ["", "", ""])[:3]
    return f"{d}/{m}/{y}" if y and m and d else iso


def artificial_score(ns: str, ew: str) -> str:
    """An artificial score's ``SCORE``: ``A`` and North-South's then East-West's percentage, run together
    when both are whole numbers of two digits (``A6040``, the NZ converter's form, split after two
    digits), else with a slash between them, as the PBN's ``Contract`` has them (``A60.5/39.5``,
    ``A100/0``, ``A5/95``): run together they could not be split (``A60.539.5``, ``A1000``). One
    writer for the session's file and the federation's."""
    if all(len(p) == 2 and p.isascii() and p.isdigit() for p in (ns, ew)):
        return f"A{ns}{ew}"
    return f"A{ns}/{ew}"


def _participants(event: ET.Element, data: ExportData) -> None:
    participants = _sub(event, "PARTICIPANTS")
    for ranking in ordered_rankings(data.result):
        for st in ranking.standings:
            pair = _sub(participants, "PAIR")
            _sub(pair, "PAIR_NUMBER", pair_id(st.pair.label))
            if st.pair.direction is not None:
                _sub(pair, "DIRECTION", st.pair.direction.value)
            _sub(pair, "BOARDS_PLAYED", st.boards)
            for player in data.everyone(st.pair.label):   # a substitute is a third PLAYER
                p = _sub(pair, "PLAYER")
                _sub(p, "PLAYER_NAME", player.name)
                _sub(p, "NATIONAL_ID_NUMBER", player.federation)
            _sub(pair, "PLACE", st.place)
            _sub(pair, "TOTAL_SCORE", present(st.total))
            if st.percent is not None:
                _sub(pair, "PERCENTAGE", present(st.percent))


def _line(b: ET.Element, data: ExportData, number: int, ln: ScoredLine) -> None:
    e = data.entry(number, ln.ns.label, ln.ew.label)
    line = _sub(b, "TRAVELLER_LINE")
    _sub(line, "NS_PAIR_NUMBER", pair_id(ln.ns.label))
    _sub(line, "EW_PAIR_NUMBER", pair_id(ln.ew.label))
    if e is not None and e.kind == "artificial":
        contract, declarer, lead, tricks = "", "", "", ""
        score = artificial_score(*e.adjusted)
    else:
        contract = "PASS" if ln.contract == "Pass" else ln.contract or ""
        declarer, lead = ln.declarer or "", card_pbn(ln.lead or "")
        tricks = "" if ln.tricks is None or not ln.declarer else str(ln.tricks)
        score = "" if ln.ns_score is None else str(ln.ns_score)
    for tag, text in (("CONTRACT", contract), ("PLAYED_BY", declarer), ("LEAD", lead), ("TRICKS", tricks),
                      ("SCORE", score)):
        _sub(line, tag, text)
    kind = "IMPS" if data.setup.method.at_imps else "MATCH_POINTS"
    _sub(line, f"NS_{kind}", present(ln.ns_points))
    _sub(line, f"EW_{kind}", present(ln.ew_points))
    if e is not None and entered_by_hand(e):   # USEBIO 1.2 has no element for it: a comment readers skip
        line.append(ET.Comment(" entered by hand "))


def _handset(root: ET.Element, data: ExportData) -> None:
    handset = _sub(root, "HANDSET")
    played = {bd.number for bd in data.result.boards}
    for number in sorted(n for n in data.records if n in played and n not in data.withheld):
        rec = data.records[number]
        hb = _sub(handset, "BOARD")
        _sub(hb, "BOARD_NUMBER", number)
        for seat in SEATS:
            hand = _sub(hb, "HAND")
            _sub(hand, "DIRECTION", seat.value)
            spades, hearts, diamonds, clubs = rec.deal.pbn_hand(seat).split(".")
            for tag, text in (("SPADES", spades), ("HEARTS", hearts), ("DIAMONDS", diamonds), ("CLUBS", clubs)):
                _sub(hand, tag, text)


def write(data: ExportData) -> bytes:
    s, result = data.setup, data.result
    root = ET.Element("USEBIO", {"Version": "1.2"})
    club = _sub(root, "CLUB")
    _sub(club, "CLUB_NAME", s.club)
    _sub(club, "CLUB_ID_NUMBER", data.club_id)
    event = _sub(root, "EVENT", EVENT_TYPE=EVENT_TYPE)
    for tag, text in (("PROGRAM_NAME", "cardtable"), ("PROGRAM_VERSION", VERSION), ("EVENT_DESCRIPTION", s.name),
                      ("DATE", _date(s.date)), ("WINNER_TYPE", 2 if len(result.rankings) > 1 else 1),
                      ("BOARD_SCORING_METHOD", METHOD[s.method]), ("BOARDS_PLAYED", len(result.boards)),
                      ("SESSION_COUNT", 1), ("SECTION_COUNT", 1)):
        _sub(event, tag, text)
    _participants(event, data)
    for board in result.boards:
        b = _sub(event, "BOARD")
        _sub(b, "BOARD_NUMBER", board.number)
        for ln in board.lines:
            _line(b, data, board.number, ln)
    _handset(root, data)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + DOCTYPE + "\n" + body + "\n").encode("utf-8")
