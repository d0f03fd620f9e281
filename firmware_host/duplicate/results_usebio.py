"""A scored session as USEBIO 1.2 XML (the EBU's results format; ``docs/session.md`` has an example).

``USEBIO Version="1.2"`` holds ``CLUB`` (``CLUB_NAME``) and one ``EVENT``: ``PROGRAM_NAME``,
``PROGRAM_VERSION``, ``EVENT_DESCRIPTION``, ``DATE`` (dd/mm/yyyy), ``BOARD_SCORING_METHOD``
(``MATCH_POINTS``, ``BUTLER`` or ``CROSS_IMPS``), ``WINNER_TYPE`` (2 for a two-field Mitchell, else 1),
``SESSION_COUNT``, ``SECTION_COUNT``, ``BOARDS_PLAYED``; then ``SESSION`` > ``SECTION``:
``PARTICIPANTS`` with a ``PAIR`` per pair (``PAIR_NUMBER``, ``DIRECTION`` NS or EW in a two-field
Mitchell, ``PLACE``, ``TOTAL_SCORE``, ``PERCENTAGE`` at matchpoints, ``BOARDS_PLAYED``, two ``PLAYER``
with ``PLAYER_NAME``), and a ``BOARD`` per board (``BOARD_NUMBER``, a ``TRAVELLER_LINE`` per line:
``NS_PAIR_NUMBER``, ``EW_PAIR_NUMBER``, ``CONTRACT``, ``PLAYED_BY``, ``LEAD``, ``TRICKS``, ``SCORE``
(North-South's), ``NS_MATCH_POINTS`` and ``EW_MATCH_POINTS`` (or ``NS_IMPS``/``EW_IMPS``)); and, after
the session, ``HANDSET`` with a ``BOARD`` per board holding its four ``HAND``s (``DIRECTION``,
``SPADES``, ``HEARTS``, ``DIAMONDS``, ``CLUBS``).

Figures are written as ``present`` shows them (two decimals). UTF-8, indented two spaces, LF.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from firmware_host.duplicate.results_data import ExportData
from firmware_host.duplicate.results_pbn import card_pbn, pair_id
from firmware_host.duplicate.views import ordered_rankings
from laws.cards import SEATS
from laws.scoring import Method, present

VERSION = "0.1"
METHOD = {Method.MATCHPOINTS: "MATCH_POINTS", Method.MATCHPOINTS_HALF: "MATCH_POINTS",
          Method.BUTLER: "BUTLER", Method.CROSS_IMPS: "CROSS_IMPS"}
EVENT_TYPE = {Method.MATCHPOINTS: "MP_PAIRS", Method.MATCHPOINTS_HALF: "MP_PAIRS",
              Method.BUTLER: "BUTLER_PAIRS", Method.CROSS_IMPS: "CROSS_IMP_PAIRS"}
DIRECTION_WORDS = {"N": "N", "E": "E", "S": "S", "W": "W"}


def _sub(parent: ET.Element, tag: str, text: str | int | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, attrs)
    if text is not None:
        el.text = str(text)
    return el


def _date(iso: str) -> str:
    y, m, d = (iso.split("-") + ["", "", ""])[:3]
    return f"{d}/{m}/{y}" if y and m and d else iso


def write(data: ExportData) -> bytes:
    s, result = data.setup, data.result
    imps = s.method.at_imps
    two_fields = len(result.rankings) > 1
    root = ET.Element("USEBIO", {"Version": "1.2"})
    club = _sub(root, "CLUB")
    _sub(club, "CLUB_NAME", s.club)
    event = _sub(root, "EVENT", EVENT_TYPE=EVENT_TYPE[s.method])
    for tag, text in (("PROGRAM_NAME", "cardtable"), ("PROGRAM_VERSION", VERSION), ("EVENT_DESCRIPTION", s.name),
                      ("DATE", _date(s.date)), ("BOARD_SCORING_METHOD", METHOD[s.method]),
                      ("WINNER_TYPE", 2 if two_fields else 1), ("SESSION_COUNT", 1), ("SECTION_COUNT", 1),
                      ("BOARDS_PLAYED", len(result.boards))):
        _sub(event, tag, text)
    section = _sub(_sub(event, "SESSION", SESSION_ID="1"), "SECTION", SECTION_ID=s.section)
    participants = _sub(section, "PARTICIPANTS")
    for ranking in ordered_rankings(result):
        for st in ranking.standings:
            pair = _sub(participants, "PAIR")
            _sub(pair, "PAIR_NUMBER", pair_id(st.pair.label))
            if st.pair.direction is not None:
                _sub(pair, "DIRECTION", st.pair.direction.value)
            _sub(pair, "PLACE", st.place)
            _sub(pair, "TOTAL_SCORE", present(st.total))
            if st.percent is not None:
                _sub(pair, "PERCENTAGE", present(st.percent))
            _sub(pair, "BOARDS_PLAYED", st.boards)
            for name in s.names.get(st.pair.label, ("", "")):
                _sub(_sub(pair, "PLAYER"), "PLAYER_NAME", name)
    for board in result.boards:
        b = _sub(section, "BOARD")
        _sub(b, "BOARD_NUMBER", board.number)
        for ln in board.lines:
            e = data.entry(board.number, ln.ns.label, ln.ew.label)
            line = _sub(b, "TRAVELLER_LINE")
            _sub(line, "NS_PAIR_NUMBER", pair_id(ln.ns.label))
            _sub(line, "EW_PAIR_NUMBER", pair_id(ln.ew.label))
            if e is not None and e.kind == "artificial":
                _sub(line, "CONTRACT", "A" + "/".join(e.adjusted))
                _sub(line, "PLAYED_BY", "")
                _sub(line, "LEAD", "")
                _sub(line, "TRICKS", "")
                _sub(line, "SCORE", "")
            else:
                _sub(line, "CONTRACT", "PASS" if ln.contract == "Pass" else ln.contract)
                _sub(line, "PLAYED_BY", ln.declarer)
                _sub(line, "LEAD", card_pbn(ln.lead or ""))
                _sub(line, "TRICKS", "" if ln.tricks is None or not ln.declarer else ln.tricks)
                _sub(line, "SCORE", "" if ln.ns_score is None else ln.ns_score)
            kind = "IMPS" if imps else "MATCH_POINTS"
            _sub(line, f"NS_{kind}", present(ln.ns_points))
            _sub(line, f"EW_{kind}", present(ln.ew_points))
            if e is not None and e.hand:   # USEBIO 1.2 has no element for it: a comment readers skip
                line.append(ET.Comment(" entered by hand "))
    handset = _sub(event, "HANDSET")
    for number in sorted(data.records):
        if number not in {bd.number for bd in result.boards}:
            continue
        rec = data.records[number]
        hb = _sub(handset, "BOARD")
        _sub(hb, "BOARD_NUMBER", number)
        for seat in SEATS:
            hand = _sub(hb, "HAND")
            _sub(hand, "DIRECTION", DIRECTION_WORDS[seat.value])
            spades, hearts, diamonds, clubs = rec.deal.pbn_hand(seat).split(".")
            for tag, text in (("SPADES", spades), ("HEARTS", hearts), ("DIAMONDS", diamonds), ("CLUBS", clubs)):
                _sub(hand, tag, text)
    ET.indent(root, space="  ")
    body = ET.tostring(root, encoding="unicode", short_empty_elements=True)
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<!DOCTYPE USEBIO SYSTEM "http://www.ebu.co.uk/usebio/usebio_v1_2.dtd">\n')
    return (head + body + "\n").encode("utf-8")
