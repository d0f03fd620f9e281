"""What the screens show of a session, as JSON-ready values: the director's view (progress, every
traveller, the rankings, the fouled-board calls and their groups, refusals) and a table's view (its
seating, its pairs' standing, and only the travellers it may see).

Figures are shown as ``laws.scoring.render.present`` writes them (two decimals; the one place figures
are rounded). Words only: no code names. A traveller carries, for each line, ``t`` (when its table
confirmed it) so a page can measure how long it took to appear.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from firmware_host.session.duplicate_session import Session
from firmware_host.wire.reader import read_json
from firmware_host.wire.topics import TOPICS
from laws.cards import Card, Seat
from laws.duplicate.boards import dealer
from laws.duplicate.deal import SEAT_NAMES
from laws.duplicate.movement import move_words, next_moves
from laws.scoring import Method, Ranking, ScoredBoard, ScoredLine, SessionResult, present
from laws.scoring.bridge import STRAIN_SYMBOLS
from laws.session.duplicate.spec import label
from laws.session.duplicate.state import Entry, line_key, progress

METHOD_WORDS = {Method.MATCHPOINTS: "matchpoints", Method.MATCHPOINTS_HALF: "matchpoints (½-point scale)",
                Method.BUTLER: "Butler IMPs", Method.CROSS_IMPS: "cross-IMPs"}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
FIELD_WORDS = {"NS": "North-South", "EW": "East-West", "one field": "All pairs"}


def ordered_rankings(result: SessionResult) -> list[Ranking]:
    """The fields North-South first, then East-West, then one field (the scoring gives them by name)."""
    return sorted(result.rankings, key=lambda r: ({"NS": 0, "EW": 1}.get(r.field, 2), r.field))


def contract_words(code: str) -> str:
    """``4SX`` as ``4♠x``, ``Pass`` as ``Passed out``."""
    if not code:
        return ""
    if code == "Pass":
        return "Passed out"
    doubled = len(code) - len(code.rstrip("X"))
    body = code.rstrip("X")
    strain = body[1:]
    return f"{body[0]}{STRAIN_SYMBOLS.get(strain, strain)}{'x' * doubled}"


def card_words(code: str) -> str:
    """``AS`` as ``♠A``."""
    return f"{SUIT_SYMBOLS[code[1]]}{code[0]}" if code else ""


def _opt(v: Any) -> str:
    return "" if v is None else present(v)


def _line(ln: ScoredLine, e: Entry | None, at_imps: bool) -> dict[str, Any]:
    score = "" if ln.ns_score is None else str(ln.ns_score)
    note = ln.note
    if ln.ns_score is not None and ln.ew_score is not None and ln.ew_score != ln.ns_score:
        score += f"/{-ln.ew_score}"     # a split score: each side's own, as the note says
        note = f"{note}: each side's own score, North-South {ln.ns_score:+d}, East-West {-ln.ew_score:+d}"
    if e is not None and e.kind != "played":
        note = note or e.kind
        if e.why:
            note += f" ({e.why})"
    elif e is not None and e.hand:
        note = f"entered by hand by {e.by}" + (f" ({e.why})" if e.why else "")
        if e.corrected[0]:
            note += f"; corrected by {e.corrected[0]}" + (f" ({e.corrected[1]})" if e.corrected[1] else "")
    elif e is not None and e.by:
        note = f"corrected by {e.by}" + (f" ({e.why})" if e.why else "")
    return {"key": e.key if e else "", "round": e.round if e else 0, "table": e.table if e else 0,
            "ns": ln.ns.label, "ew": ln.ew.label, "contract": contract_words(ln.contract),
            "by": SEAT_NAMES[Seat(ln.declarer)] if ln.declarer else "", "declarer": ln.declarer,
            "tricks": "" if ln.tricks is None else ln.tricks, "lead": card_words(ln.lead or ""), "score": score,
            "ns_points": present(ln.ns_points), "ew_points": present(ln.ew_points),
            "ns_pct": "" if at_imps else _opt(ln.ns_percent), "ew_pct": "" if at_imps else _opt(ln.ew_percent),
            "group": ln.group, "note": note, "verified": bool(e and e.verified), "hand": bool(e and e.hand),
            "fouled": bool(e and e.foul), "t": e.t if e else 0.0}


def who(session: Session, pair: str, rnd: int | None = None, *, everyone: bool = False) -> str:
    """A pair's players in words with their member numbers: ``Ann Smith (1021) & Jane Visitor``; those
    who sat in round ``rnd`` (a traveller line's), everyone who sat for it with ``everyone`` (a
    ranking's, as the files list them), else those named last (who sits now)."""
    st = session.state
    players = st.players_in(pair, rnd) if rnd else st.everyone_of(pair) if everyone else st.players_of(pair)
    return " & ".join(p["name"] + (f" ({p['member']})" if p["member"] else "") for p in players)


def seated_names(ns: str, ns_names: str, ew: str, ew_names: str) -> str:
    """The names line under a table's pairs on the director's page. Both sides named: ``A & B v C & D``,
    as the pairs line above reads. One side only: that side names its pair, since a bare ``Kay Lamb &
    Lou Moss`` under ``4 NS v 4 EW`` read as North-South's when it was East-West's, and the other is said
    to be not named yet, which the director can put right with the Players form."""
    if ns_names and ew_names:
        return f"{ns_names} v {ew_names}"
    for pair, names, other in ((ns, ns_names, ew), (ew, ew_names, ns)):
        if names:
            return f"{pair}: {names}" + (f"; {other} not named yet" if other else "")
    return ""


def traveller(session: Session, board: ScoredBoard) -> dict[str, Any]:
    """One board's traveller in words, with its double-dummy par once the analysis is ready."""
    mine = session.state.by_board.get(board.number, {})
    at_imps = session.setup.method.at_imps
    a = session.analysis(board.number)
    lines = [_line(ln, mine.get(f"{board.number}/{ln.ns.label}/{ln.ew.label}"), at_imps) for ln in board.lines]
    for ln in lines:
        ln["ns_names"], ln["ew_names"] = who(session, ln["ns"], ln["round"]), who(session, ln["ew"], ln["round"])
    return {"board": board.number, "dealer": SEAT_NAMES[dealer(board.number)],
            "vulnerability": board.vulnerability.words, "due": board.due, "played": len(lines),
            "top": _opt(board.top), "par": a.optimum_score if a else "",
            "par_contracts": list(a.par_contracts) if a else [],
            "dd": {s.value: dict(v) for s, v in a.tricks.items()} if a else None,
            "groups": sorted({ln["group"] for ln in lines}), "lines": lines}


def rankings(session: Session, names: bool = True) -> list[dict[str, Any]]:
    result = session.scored()
    out = []
    for r in ordered_rankings(result):
        rows = []
        for s in r.standings:
            named = who(session, s.pair.label, everyone=True) if names else ""   # as the files: docs/session.md
            rows.append({"place": s.place, "pair": s.pair.label, "names": named,
                         "total": present(s.total), "tops": _opt(s.tops), "percent": _opt(s.percent),
                         "per_board": present(s.per_board), "boards": s.boards})
        out.append({"field": FIELD_WORDS.get(r.field, r.field), "rows": rows})
    return out


def fouls(session: Session) -> list[dict[str, Any]]:
    """Every fouled-board call with the group its result is in, and every line the director put in a
    group (``regroup``) that no table called fouled: a regroup splits the board's scoring as a call does,
    so "Fouled boards" lists it too (before, board 1 regrouped to C was scored in two groups and the list
    said nothing of it). The director may regroup a board no camera saw fouled (a table without one)."""
    st = session.state
    out = []
    for board in st.movement.boards():
        lines = st.lines_of(board)
        called = [e for e in lines if e.foul or (e.original is not None and e.original.foul)]
        moved = [e for e in lines if e.key in st.regroups and e not in called]
        groups = st.board_groups(board) if called or moved else {}
        for e in lines:
            if e in called:
                out.append(_foul_words(e, groups.get(e.key, "A")))
            elif e in moved:
                out.append(_regroup_words(e, groups.get(e.key, "A")))
    return out


def _regroup_words(e: Entry, group: str) -> dict[str, Any]:
    return {"board": e.board, "table": e.table, "round": e.round, "key": e.key, "group": group,
            "said": f"No table called it fouled; the director put line {e.key} in group {group}.",
            "seats": "not found (no card was played against the record)"}


def _foul_words(e: Entry, group: str) -> dict[str, Any]:
    f = e.foul or (e.original.foul if e.original is not None else None)
    assert f is not None
    card = Card.parse(f["card"])
    return {"board": e.board, "table": e.table, "round": e.round, "key": e.key, "group": group,
            "said": (f"The {card.name} was played by {SEAT_NAMES[Seat(f['played_by'])]}; the record gives it to "
                     f"{SEAT_NAMES[Seat(f['record_seat'])]} (trick {f['trick']})."),
            "seats": ", ".join(SEAT_NAMES[Seat(s)] for s in f["seats"])}


DIRECTOR_RECORDS = {"round", "uncall", "adjust", "correct", "cancel", "regroup", "resolve", "form"}


def _result_words(e: Entry) -> str:
    if e.contract == "Pass":
        return "passed out"
    return (f"{contract_words(e.contract)} by {SEAT_NAMES[Seat(e.declarer)] if e.declarer else '?'}, "
            f"{e.tricks} tricks" + (f", lead {card_words(e.lead)}" if e.lead else ""))


def _foul_call_words(f: Mapping[str, Any]) -> str:
    """A table's fouled-board call in words: "North played the three of clubs, which the record gives to
    South (trick 1)"."""
    return (f"{SEAT_NAMES[Seat(f['played_by'])]} played the {Card.parse(f['card']).name}, which the record gives "
            f"to {SEAT_NAMES[Seat(f['record_seat'])]} (trick {f['trick']})")


def conflicts(session: Session) -> list[dict[str, Any]]:
    """Each line entered by hand for which the table's own result came too: both, for the director to
    choose one (neither is scored twice: the hand-entered one stands until then). A table's result that
    called a fouled board says so (``foul``, and in ``table_result``): keeping it keeps the call, which
    scores the board's copy in a fouled group (docs/session.md), so the director must see it."""
    st = session.state
    out = []
    for key, theirs in sorted(st.conflicts.items(), key=lambda kv: kv[1].order):
        mine = st.entries[key]
        foul = _foul_call_words(theirs.foul) if theirs.foul else ""
        same = _result_words(mine) == _result_words(theirs) and not foul
        out.append({"key": key, "board": theirs.board, "table": theirs.table, "round": theirs.round,
                    "hand": _result_words(mine), "hand_by": mine.by,
                    "table_result": _result_words(theirs) + (f", with a fouled-board call: {foul}" if foul else ""),
                    "foul": foul, "same": same})
    return out


def _sent_from(session: Session, rec: Mapping[str, Any]) -> dict[str, Any]:
    """Where a refused record came from, as far as it says: ``table`` (the movement's number, 0 when the
    record does not give one), ``club_table`` (the club table's id, "" when none) and ``board`` (0 when
    none). A message the link could not read keeps only its club table and the text it came as: its
    board is read from that text when it is a board message's JSON (``{"body": {"board": 5}}``). A
    record with a line (``key``) and a form that could not be read (its ``payload`` the form's fields)
    give the board their line or board field names (``3/3 NS/1 EW``, ``3 3 1``: board 3): before, a table
    page's refused entry said no board although its line named one."""
    club = rec.get("table")
    club = club if isinstance(club, str) and club.isprintable() and len(club) <= 64 else ""
    number, board = rec.get("table_number"), rec.get("board")
    payload = rec.get("payload")
    if board is None and isinstance(payload, str):
        msg = read_json(payload, max_bytes=65536).value   # the wire's one reader: None when not JSON
        body = msg.get("body") if isinstance(msg, Mapping) else None
        if isinstance(body, Mapping):
            board = body.get("board")
            number = number if number is not None else body.get("table_number")
        elif isinstance(msg, Mapping) and rec.get("type") == "form":   # the form's fields, as typed
            board = _board_typed(msg.get("key")) or _board_typed(msg.get("board"))
    if board is None:
        board = _board_typed(rec.get("key"))

    def whole(v: Any) -> int:
        return v if isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 9999 else 0

    number = session.state.number_of.get(club, whole(number)) if club else whole(number)
    return {"table": number, "club_table": club, "board": whole(board)}


def _board_typed(text: Any) -> int | None:
    """The board a typed line (``3/3 NS/1 EW``, ``3 3 1``) or board field (``"5"``) begins with."""
    m = re.match(r"\s*(\d{1,4})(?!\d)", text) if isinstance(text, str) else None
    return int(m.group(1)) if m else None


def _names_board(why: str, board: int) -> bool:
    """Whether a reason begins by naming its board (``board 2: ...``, ``line 2/1 NS/1 EW: ...``, ``no
    traveller line 2/...``), so the list does not name it again before it (``alice, board 2: board 2:
    ...`` before)."""
    return re.match(rf"(board {board}\b|(no traveller )?line '?{board}/)", why) is not None


def _member_cards(rec: Mapping[str, Any]) -> bool:
    """Whether a refused record came from a table's member cards (its ``players`` message): the ``players``
    record the naming rules refused (it carries the message's ``source``; the director's and a table
    page's do not), or the message the link could not take, by its topic."""
    if rec.get("type") == "players":
        return bool(rec.get("source"))
    name = TOPICS.parse(str(rec.get("topic") or "")) if rec.get("type") in ("message", "quiet") else None
    return name is not None and name.kind == "players"


def refusal_rows(session: Session) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The latest refusals, newest first: the tables' (their results, what their pages entered, their
    member cards: ``what`` ``member cards``) and the director's own (a form of the director's page the
    session did not take). A table's member cards refused by the naming rules were listed as the
    director's, being a ``players`` record as his are."""
    tables: list[dict[str, Any]] = []
    mine: list[dict[str, Any]] = []
    for r in reversed(session.refusals):
        rec = r.get("record", {})
        cards = _member_cards(rec)
        what = "member cards" if cards else str(rec.get("type", ""))
        row = {"t": r.get("t", 0.0), "why": r["why"], "what": str(rec.get("form", what)), "by": str(rec.get("by", "")),
               **_sent_from(session, rec)}
        if _names_board(str(r["why"]), row["board"]):
            row["board"] = 0     # the board the list names before the reason: the reason names it already
        by = str(rec.get("by", ""))
        page = rec.get("page") or by.endswith("'s page") or by.endswith("(the table's page)")
        director = (what in DIRECTOR_RECORDS or what == "players" or (what == "result" and rec.get("hand"))) \
            and not page and not cards
        (mine if director else tables).append(row)
    return tables[:20], mine[:20]


def session_words(session: Session) -> dict[str, Any]:
    s = session.setup
    m = session.state.movement
    return {"name": s.name, "date": s.date, "club": s.club, "section": s.section, "movement": m.name,
            "method": METHOD_WORDS[s.method], "pairs": s.pairs, "tables": m.tables, "rounds": m.rounds,
            "commitment": session.state.commitment, "head": session.journal.read_head()}


def director_view(session: Session, boards: Iterable[int] | None = None) -> dict[str, Any]:
    """The director's view; ``boards``: only those travellers (None: every board)."""
    result = session.scored()
    wanted = None if boards is None else set(boards)
    p = progress(session.state)
    for row in p.tables:
        row["ns_names"], row["ew_names"] = who(session, row["ns"]), who(session, row["ew"])
        row["names"] = seated_names(row["ns"], row["ns_names"], row["ew"], row["ew_names"])
    tables_refused, mine = refusal_rows(session)
    return {"session": session_words(session), "called": p.called, "rounds": p.rounds, "progress": p.tables,
            "slow": [t["table"] for t in p.tables if t["slow"]],
            "boards": [traveller(session, b) for b in result.boards if wanted is None or b.number in wanted],
            "rankings": rankings(session), "fouls": fouls(session),
            "players": [{"pair": label(p), "players": session.state.players_of(label(p))}
                        for p in session.state.movement.pairs()],
            "refusals": ([{"t": 0.0, "what": "journal", "why": f"the session's journal cannot be written ({session.fault}): "
                           "the tables' results wait, held, and are taken once it can"}] if session.fault else [])
                        + tables_refused,
            "mine": mine, "journal_fault": session.fault,
            "conflicts": conflicts(session), "finished": session.state.finished(),
            "undo": session.state.check({"type": "uncall", "round": p.called}) == "",
            "version": session.version}


def table_view(session: Session, table: int) -> dict[str, Any]:
    """What table ``table``'s page shows: its seating, its seated pairs' standing, and the travellers of the
    boards both its pairs may see (never one a pair seated there has still to play)."""
    st = session.state
    r = st.table_round(table)
    s = st.movement.at(r, table)
    visible = st.visible_boards(table)
    result = session.scored()
    seated = {label(p) for p in (s.pairs if s else ())}
    standing = []
    for ranking in ordered_rankings(result):
        for row in ranking.standings:
            if row.pair.label in seated:
                standing.append({"pair": row.pair.label, "place": row.place, "field": FIELD_WORDS.get(ranking.field),
                                 "percent": _opt(row.percent), "total": present(row.total), "boards": row.boards})
    enterable = [k for rr in range(1, st.called + 1)   # its own lines not in (a line taken off to replay too)
                 if (ss := st.movement.at(rr, table)) is not None and ss.played and ss.ns is not None
                 and ss.ew is not None for b in st.movement.boards_of(ss.group)
                 if (k := line_key(b, ss.ns, ss.ew)) not in st.entries and st.taken_off.get(k) != "director"]
    move = r > 1 and s is not None and s.played and st.unplayed_at(s) == list(st.movement.boards_of(s.group))
    return {"table": table, "round": r, "called": st.called, "rounds": st.movement.rounds,
            "ns": label(s.ns) if s else "", "ew": label(s.ew) if s else "",
            "ns_names": who(session, label(s.ns)) if s and s.ns else "",
            "ew_names": who(session, label(s.ew)) if s and s.ew else "",
            "boards": list(st.movement.boards_of(s.group)) if s and s.played else [],
            "left": st.unplayed_at(s) if s and s.played else [], "move": f"Move for round {r}" if move else "",
            "next": move_words(next_moves(st.movement, r, table)),
            "standing": standing, "session": session_words(session), "enterable": enterable,
            "finished": st.finished(),
            "travellers": [traveller(session, b) for b in result.boards if b.number in visible],
            "version": session.version}
