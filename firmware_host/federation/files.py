"""The field's results as files, and the event's close (``docs/federation.md``, "The field's files").

:func:`close_event` ends the event: one ``closed`` row in its journal, after which the release rule
(:mod:`laws.federation.release`) lets every club see every board and the public ranking counts every
board. :func:`export` then writes the whole field, every board's traveller across the clubs, each pair
named by its club and its number, and the field's ranking, as PBN 2.1 (export format) or USEBIO 1.2;
the deals come from the event's hand records, checked against the commitment recorded at ``open``.
The same journal and records give the same bytes (no clock: the date is the day the event was opened).
"""

from __future__ import annotations

import logging
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

from firmware_host.duplicate.results.results_usebio import artificial_score
from firmware_host.federation.event import JOURNAL, EventState, FederationError, hold_event, open_event
from firmware_host.records.journal import Journal
from laws.competition.sections import SPAN
from laws.duplicate.deal import Board, commitment
from laws.scoring import present
from laws.scoring.session_values import Artificial, Method, Pair, Result, ScoredBoard, ScoredLine

log = logging.getLogger(__name__)
FORMATS = ("pbn", "usebio")
SCORING = {Method.MATCHPOINTS: "MP", Method.MATCHPOINTS_HALF: "MP", Method.BUTLER: "Butler",
           Method.CROSS_IMPS: "IMP"}
EVENT_TYPE = {Method.MATCHPOINTS: "MP_PAIRS", Method.MATCHPOINTS_HALF: "MP_PAIRS", Method.BUTLER: "BUTLER_PAIRS",
              Method.CROSS_IMPS: "CROSS_IMPS"}
TRAVELLER = (("Section", 8, "L"), ("PairId_NS", 4, "R"), ("PairId_EW", 4, "R"), ("Contract", 5, "L"),
             ("Declarer", 1, "R"), ("Result", 2, "R"), ("Lead", 3, "L"), ("Score_NS", 6, "R"),
             ("Score_EW", 6, "R"), ("MP_NS", 7, "R"), ("MP_EW", 7, "R"), ("Group", 8, "L"))
RANKING = (("Rank", 4, "R"), ("Section", 8, "L"), ("PairId", 4, "R"), ("Direction", 2, "L"),
           ("TotalScoreMP", 9, "R"), ("TotalPercentage", 6, "R"), ("NrBoards", 2, "R"))


CLOSE_REQUEST = "close.request"
FINAL = {"pbn": "field.pbn", "usebio": "field.usebio.xml"}


def close_event(folder: str | Path, clock: Callable[[], float] = time.time, *, wait: float = 30.0,
                sleep: Callable[[float], None] = time.sleep) -> str:
    """Close the event; refused when it is closed already. With no ``serve`` on it, one ``closed`` row is
    appended here (``"closed"``). While ``serve`` runs on it (it holds ``serve.lock``), the service is
    asked to (``close.request`` in the folder) and this waits up to ``wait`` seconds for the ``closed``
    row to be committed (``"closed by serve"``); the service then publishes every board and writes the
    field's files. A service that is stopped before it saw the request closes the event when it starts."""
    root = Path(folder)
    journal, state = open_event(root)
    journal.close()
    if state.closed:
        raise FederationError(f"{root / JOURNAL}: the event is closed already")
    try:
        lock = hold_event(root)
    except FederationError:
        lock = None
    if lock is not None:
        try:
            journal, state = open_event(root)
            with journal:
                if state.closed:
                    raise FederationError(f"{root / JOURNAL}: the event is closed already")
                journal.append("event", {"type": "closed"}, clock())
        finally:
            lock.close()
        return "closed"
    request = root / CLOSE_REQUEST
    tmp = root / (CLOSE_REQUEST + ".new")
    tmp.write_text("close\n", encoding="utf-8")
    tmp.replace(request)
    end = time.monotonic() + wait
    while time.monotonic() < end:
        if is_closed(root):
            return "closed by serve"
        sleep(0.2)
    raise FederationError(f"{root}: `serve` holds the event but did not close it within {wait:g} s; the request "
                          f"stays in {request} and `serve` closes the event when it sees it")


def is_closed(folder: str | Path) -> bool:
    """Whether the event's journal has its ``closed`` row (read-only: safe while ``serve`` writes)."""
    with Journal.open_readonly(Path(folder) / JOURNAL) as journal:
        return any(r.kind == "event" and r.body.get("type") == "closed" for r in journal.rows())


def close_requested(folder: str | Path, *, done: bool = False) -> bool:
    """Whether ``cardtable federation close`` asked the running service to close the event; ``done``: the
    service has committed the close, the request is taken away."""
    request = Path(folder) / CLOSE_REQUEST
    if done:
        request.unlink(missing_ok=True)
        return False
    return request.is_file()


def kept_records(folder: str | Path, state: EventState) -> dict[int, Board]:
    """The copy of the hand records ``open`` kept in the folder, by number, when they are the event's
    ({} when there is none; a copy whose commitment is not the event's is left out and logged)."""
    from firmware_host.duplicate.handrecords.handfiles import HandRecordError, read_hand_records

    kept = sorted(Path(folder).glob("hand-records.*"))
    if not kept:
        return {}
    try:
        return check_records(state, read_hand_records(kept[0]), str(kept[0]))
    except (HandRecordError, FederationError, OSError) as exc:
        log.error("the event's hand records cannot be used: %s", exc)
        return {}


def write_final(folder: str | Path, state: EventState, records: dict[int, Board], journal: Journal) -> list[Path]:
    """The closed event's field written in the folder as ``field.pbn`` and ``field.usebio.xml`` (each
    written beside and renamed over; the same bytes ``federation export`` gives)."""
    if not state.closed or state.scores is None or not records:
        return []
    opened = next(r.t for r in journal.rows() if r.kind == "event")
    date = datetime.fromtimestamp(opened, UTC).strftime("%Y.%m.%d")
    out = []
    for fmt, name in FINAL.items():
        data = (write_pbn if fmt == "pbn" else write_usebio)(state, records, date)
        path = Path(folder) / name
        tmp = path.with_name(path.name + ".new")
        tmp.write_bytes(data)
        tmp.replace(path)
        out.append(path)
    return out


def closed_state(folder: str | Path) -> tuple[EventState, str]:
    """The closed event's state and the day it was opened (``YYYY.MM.DD``)."""
    journal, state = open_event(folder)
    with journal:
        opened = next(r.t for r in journal.rows() if r.kind == "event")
    if not state.closed:
        raise FederationError(f"{Path(folder) / JOURNAL}: the event is not closed yet (`cardtable federation "
                              "close` first: before it, no one may see every board)")
    return state, datetime.fromtimestamp(opened, UTC).strftime("%Y.%m.%d")


def check_records(state: EventState, boards: Sequence[Board], where: str) -> dict[int, Board]:
    """The hand records by number, when they are the event's (their commitment is the one recorded)."""
    if state.setup.commitment and commitment(list(boards)) != state.setup.commitment:
        raise FederationError(f"{where}: these hand records are not the event's (their commitment differs)")
    by = {b.number: b for b in boards}
    missing = [n for n in state.setup.boards if n not in by]
    if missing:
        raise FederationError(f"{where}: no deal for board {missing[0]}")
    return by


def _q(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _table(name: str, cols: Sequence[tuple[str, int, str]], rows: list[list[str]]) -> list[str]:
    out = [f'[{name} "' + ";".join(f"{n}\\{w}{a}" for n, w, a in cols) + '"]']
    for cells in rows:
        parts = []
        for cell, (_n, w, a) in zip(cells, cols):
            text = (_q(cell) if " " in cell else cell) if cell else "-"
            parts.append(text.rjust(w) if a == "R" else text.ljust(w))
        out.append(" ".join(parts).rstrip())
    return out


def _local(state: EventState, number: int) -> tuple[str, str]:
    names = sorted(state.entries)
    k, n = divmod(number, SPAN)
    return names[k], str(n)


def _result(state: EventState, ln: ScoredLine) -> Result | None:
    """The result the club sent for a scored line (its pairs named by the club's own numbers)."""
    assert state.scores is not None
    club, ns = _local(state, ln.ns.number)
    _club, ew = _local(state, ln.ew.number)
    key = (ln.board, Pair(int(ns), ln.ns.direction), Pair(int(ew), ln.ew.direction))
    line = state.scores.lines.get(club, {}).get(key)
    return None if line is None else line.result


def _percent(value: Fraction | int) -> str:
    """An artificial score's percentage as the pairs session's files write it: ``60``, ``60.5``."""
    f = Fraction(value)
    if f.denominator == 1:
        return str(f.numerator)
    text = f"{float(f):.6f}".rstrip("0")
    return text if Fraction(text) == f else present(f)


def _artificial(state: EventState, ln: ScoredLine) -> tuple[str, str] | None:
    """An artificial score's two percentages (North-South's, East-West's); None for any other line."""
    r = _result(state, ln) if ln.ns_score is None else None
    return (_percent(r.ns), _percent(r.ew)) if isinstance(r, Artificial) else None


def _score_cells(ln: ScoredLine) -> tuple[str, str]:
    """``Score_NS`` North-South's own score, ``Score_EW`` East-West's own, as a club's session PBN has them
    (docs/session.md): the side that scored for a table result (both ``0`` for a pass-out), both for a
    split assigned score (each side's own), neither for an artificial score ("" is written ``-``)."""
    score = ln.ns_score
    if score is None:
        return "", ""
    if ln.ew_score is not None and ln.ew_score != score:
        return str(score), str(-ln.ew_score)
    return (str(score), "") if score > 0 else ("", str(-score)) if score < 0 else ("0", "0")


def _seated(cells: list[str], ln: ScoredLine) -> list[str]:
    """A PBN traveller's PairIds as a club's session writes them: a pair sitting the other way (an
    arrow-switched round: pair 3 EW at North-South) has its home direction after its number, ``3EW``,
    since a Mitchell's 3 NS and 3 EW are two pairs."""
    ns, ew = ln.ns.direction, ln.ew.direction
    return [cells[0], cells[1] + ("EW" if ns is not None and ns.value == "EW" else ""),
            cells[2] + ("NS" if ew is not None and ew.value == "NS" else ""), *cells[3:]]


def _cells(state: EventState, ln: ScoredLine) -> list[str]:
    club_ns, ns = _local(state, ln.ns.number)
    _club_ew, ew = _local(state, ln.ew.number)
    ns_cell, ew_cell = _score_cells(ln)
    percents = _artificial(state, ln)
    # PBN's Contract is "as in the Contract tag": a passed-out game is "Pass" (USEBIO's CONTRACT says PASS)
    contract = ("Pass" if ln.contract.upper() == "PASS" else ln.contract.upper()) if ln.contract \
        else "A" + "/".join(percents) if percents else ""
    return [club_ns, ns, ew, contract, ln.declarer,
            "" if ln.tricks is None or not ln.declarer else str(ln.tricks), (ln.lead[1] + ln.lead[0]) if ln.lead else "",
            ns_cell, ew_cell, present(ln.ns_points), present(ln.ew_points), ln.group]


def _scored(state: EventState) -> tuple[tuple[ScoredBoard, ...], list[tuple[str, str, str, str, object]]]:
    assert state.scores is not None
    result = state.scores.score()
    rows = []
    # North-South's field first, as docs/federation.md and a club's own session files have it (the scorer
    # gives its rankings by the field's name, EW before NS)
    for name, ranking in sorted(result.rankings, key=lambda r: (r[0] != "field NS", r[0])):
        if name.startswith("field "):
            # the pair's own direction, not its field's name: an arrow-switched Mitchell's pairs are all in
            # "one field", and its 2 NS and 2 EW were both written "2 one field", two pairs no reader could
            # tell apart; a club's session writes the direction too, and "" (written "-") for a Howell's
            for place, sp, st in ranking:
                direction = sp.pair.direction.value if sp.pair.direction is not None else ""
                rows.append((direction, place, sp.section, str(sp.pair.number), st))
    return result.sessions["field"].boards, rows  # type: ignore[return-value]


def write_pbn(state: EventState, records: dict[int, Board], date: str) -> bytes:
    """The field as PBN 2.1: one game a board (the hand record and the traveller of every club), the
    first also carrying the field's ranking."""
    if state.scores is None:
        raise FederationError("no club's entry was taken: there is nothing to export")
    boards, ranking = _scored(state)
    out = ["% PBN 2.1", "% EXPORT", "% cardtable federation export", ""]
    for k, board in enumerate(boards):
        rec = records[board.number]
        tags = [("Event", state.setup.event), ("Site", "the field"), ("Date", date), ("Board", str(board.number)),
                ("West", ""), ("North", ""), ("East", ""), ("South", ""), ("Dealer", rec.dealer.value),
                ("Vulnerable", rec.vulnerability.value), ("Deal", rec.deal.pbn(rec.dealer)),
                ("Scoring", SCORING[state.setup.method]), ("Declarer", ""), ("Contract", ""), ("Result", "")]
        out += [f"[{n} {_q(v)}]" for n, v in tags]
        out += _table("ScoreTable", TRAVELLER, [_seated(_cells(state, ln), ln) for ln in board.lines])
        if k == 0:
            rows = [[place, club, pair, field, present(st.total),  # type: ignore[attr-defined]
                     "" if st.percent is None else present(st.percent), str(st.boards)]  # type: ignore[attr-defined]
                    for field, place, club, pair, st in ranking]
            out += _table("TotalScoreTable", RANKING, rows)
        out.append("")
    return ("\r\n".join(out)).encode("utf-8")


def _sub(parent: ET.Element, tag: str, text: str | int | None = None, **attrs: str) -> ET.Element:
    el = ET.SubElement(parent, tag, attrs)
    if text is not None:
        el.text = str(text)
    return el


def write_usebio(state: EventState, records: dict[int, Board], date: str) -> bytes:
    """The field as USEBIO 1.2: one SESSION scored across its SECTIONs, a SECTION a club (its pairs with
    their places and percentages in the whole field, its travellers with the field's matchpoints)."""
    if state.scores is None:
        raise FederationError("no club's entry was taken: there is nothing to export")
    boards, ranking = _scored(state)
    root = ET.Element("USEBIO", {"Version": "1.2"})
    _sub(_sub(root, "CLUB"), "CLUB_NAME", "the field")
    event = _sub(root, "EVENT", EVENT_TYPE=EVENT_TYPE[state.setup.method])
    _sub(event, "EVENT_DESCRIPTION", state.setup.event)
    year, month, day = date.split(".")
    _sub(event, "DATE", f"{day}/{month}/{year}")
    _sub(event, "BOARDS_PLAYED", len(boards))
    session = _sub(event, "SESSION", SESSION_ID="1")
    for club in sorted(state.entries):
        section = _sub(session, "SECTION", SECTION_ID=club)
        participants = _sub(section, "PARTICIPANTS")
        for field, place, c, pair, st in ranking:
            if c != club:
                continue
            p = _sub(participants, "PAIR")
            _sub(p, "PAIR_NUMBER", pair)
            if field:
                _sub(p, "DIRECTION", field)
            _sub(p, "PLACE", place)
            _sub(p, "TOTAL_SCORE", present(st.total))  # type: ignore[attr-defined]
            if st.percent is not None:  # type: ignore[attr-defined]
                _sub(p, "PERCENTAGE", present(st.percent))  # type: ignore[attr-defined]
            _sub(p, "BOARDS_PLAYED", st.boards)  # type: ignore[attr-defined]
        for board in boards:
            mine = [ln for ln in board.lines if _local(state, ln.ns.number)[0] == club]
            b = _sub(section, "BOARD")
            _sub(b, "BOARD_NUMBER", board.number)
            for ln in mine:
                cells = _cells(state, ln)
                line = _sub(b, "TRAVELLER_LINE")
                _sub(line, "NS_PAIR_NUMBER", cells[1])
                _sub(line, "EW_PAIR_NUMBER", cells[2])
                percents = _artificial(state, ln)
                _sub(line, "CONTRACT", "PASS" if ln.contract == "Pass" else ln.contract)
                _sub(line, "PLAYED_BY", ln.declarer)
                _sub(line, "LEAD", cells[6])
                _sub(line, "TRICKS", cells[5])
                # never empty, as the pairs session writes it: North-South's score (a split score's
                # East-West value is in the PBN only), or an artificial score's ``A6040``
                _sub(line, "SCORE", artificial_score(*percents) if percents
                     else "" if ln.ns_score is None else ln.ns_score)
                _sub(line, "NS_MATCH_POINTS", present(ln.ns_points))
                _sub(line, "EW_MATCH_POINTS", present(ln.ew_points))
    handset = _sub(event, "HANDSET")
    words = {"N": "North", "E": "East", "S": "South", "W": "West"}
    for number in sorted(records):
        rec = records[number]
        hb = _sub(handset, "BOARD")
        _sub(hb, "BOARD_NUMBER", number)
        for seat, hand in zip("NESW", rec.deal.pbn().split(":")[1].split()):
            h = _sub(hb, "HAND")
            _sub(h, "DIRECTION", words[seat])
            for tag, cards in zip(("SPADES", "HEARTS", "DIAMONDS", "CLUBS"), hand.split(".")):
                _sub(h, tag, cards)
    ET.indent(root, space="  ")
    return (b'<?xml version="1.0" encoding="UTF-8"?>\n'
            + ET.tostring(root, encoding="unicode", short_empty_elements=True).encode("utf-8") + b"\n")


def export(folder: str | Path, fmt: str, boards: Sequence[Board], where: str,
           notes: list[str] | None = None) -> bytes:
    """The closed event's field in ``fmt`` (``pbn`` or ``usebio``); ``notes`` gets the journal's lines the
    field left out (``EventState.left_out``), for the caller to say."""
    if fmt not in FORMATS:
        raise FederationError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    state, date = closed_state(folder)
    if notes is not None:
        notes.extend(state.left_out)
    records = check_records(state, boards, where)
    return (write_pbn if fmt == "pbn" else write_usebio)(state, records, date)
