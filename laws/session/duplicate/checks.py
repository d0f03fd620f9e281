"""The checks a record passes before the session takes it: one small function per kind of record, each
answering what is wrong ("" when nothing, ``"repeat"`` for a message seen before) and changing nothing.
The rules are in ``state``'s docstring; the messages are listed in ``docs/session.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, TypeGuard

from laws.cards import Card, Seat
from laws.duplicate.movement import Seating, board_span
from laws.scoring import ScoreInputError, board_score, parse_contract, passed_out_lead
from laws.session.duplicate.spec import label, pair_of_label
from laws.session.players import players_problem

# The state is ``state.SessionState`` (which imports this module: the checks read it, never the
# other way round, so it is typed loosely here).
SessionState = Any
Check = Callable[[SessionState, Mapping[str, Any]], str]



def source_seq(source: str) -> int:
    """The table's journal row of a message's ``source`` (``<table>:<seq>``; 0 when there is none)."""
    tail = source.rpartition(":")[2]
    return int(tail) if tail.isdigit() else 0

def _whole(v: Any) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def check(st: SessionState, rec: Mapping[str, Any]) -> str:
    """What is wrong with ``rec`` for the session as it stands."""
    kind = rec.get("type")
    rule = CHECKS.get(str(kind))
    return f"unknown record {kind!r}" if rule is None else rule(st, rec)


def _seating(st: SessionState, rec: Mapping[str, Any]) -> tuple[Seating | None, str]:
    table, rnd, board = rec.get("table_number"), rec.get("round"), rec.get("board")
    where = f"table {table}, round {rnd}"
    if not (_whole(table) and 1 <= table <= st.movement.tables):
        return None, f"table {table!r} is not one of the movement's tables (1-{st.movement.tables})"
    if not (_whole(rnd) and 1 <= rnd <= st.movement.rounds):
        return None, f"{where}: round {rnd!r} is not one of the movement's rounds (1-{st.movement.rounds})"
    s = st.movement.at(rnd, table)
    if s is None or not s.played:
        return None, f"{where}: the movement gives that table no boards then (a sit-out or an idle table)"
    boards = st.movement.boards_of(s.group)
    if board not in boards:
        return None, (f"{where}: a result for board {board}, but the movement gives that table boards "
                      f"{board_span(boards)} that round")
    return s, ""


def contract_code(contract: Any) -> Any:
    """A contract in its one spelling (``"4S"``, ``"3NTX"``, ``"Pass"``), as the session keeps, compares
    and exports it. A board message is refused unless it spells it so (``docs/mqtt.md``); a record
    journaled before that (``"4s"``, ``"3ntx"``) is kept in the one spelling too. What cannot be read
    as a contract is given back as it is, for ``_check_score`` to refuse."""
    if contract == "Pass":
        return contract
    try:
        return parse_contract(contract).code
    except (TypeError, ValueError, AttributeError):
        return contract


def result_content(rec: Mapping[str, Any]) -> tuple[Any, ...]:
    """What makes two result messages the same result: board, round, pairs, contract (in its one
    spelling), declarer, tricks, lead."""
    return (rec.get("board"), rec.get("round"), rec.get("ns"), rec.get("ew"), contract_code(rec.get("contract")),
            rec.get("declarer") or None, rec.get("tricks"), rec.get("lead") or None)


def _check_result(st: SessionState, rec: Mapping[str, Any]) -> str:
    source = str(rec.get("source", ""))
    if source and st.sources.get(source) == result_content(rec) and not _taken_off(st, rec, source):
        return "repeat"
    # the same number with another result: a table whose journal was replaced; checked as a new message
    # (``SessionState.reused``), never dropped as a repeat
    club = rec.get("table")
    if club is not None and st.number_of and club not in st.number_of:
        return f"a result from table {club!r}, which is not one of this session's tables"
    if club is not None and st.number_of and st.number_of[club] != rec.get("table_number"):
        return (f"table {club} is table {st.number_of[club]} of the movement, but its result says table "
                f"{rec.get('table_number')!r}")
    if rec.get("section", st.setup.section) != st.setup.section:
        return f"a result for section {rec.get('section')!r}; this session is section {st.setup.section}"
    s, problem = _seating(st, rec)
    if s is None:
        return problem
    where = f"table {rec['table_number']}, round {rec['round']}, board {rec['board']}"
    try:
        ns, ew = pair_of_label(rec.get("ns", "")), pair_of_label(rec.get("ew", ""))
    except ValueError as exc:
        return f"{where}: {exc}"
    if (ns, ew) != (s.ns, s.ew):
        return (f"{where}: the movement seats {label(s.ns)} and {label(s.ew)} there, the result names "
                f"{label(ns)} and {label(ew)}")
    key = f"{rec['board']}/{label(ns)}/{label(ew)}"
    hand = bool(rec.get("hand"))
    cancelled = st.cancelled.get((str(club or st.club_table_of.get(rec["table_number"], "")), rec["board"]))
    if cancelled is not None and source:
        words, seq, content = cancelled
        # the same result sent again (a resend, or the same result under a new number after a restart):
        # the director's decision stands. When he took the line off saying it is to be replayed, a later
        # row of the table's journal is the board replayed, and is taken whatever its result.
        if source_seq(source) <= seq or (content is not None and result_content(rec) == content):
            return (f"{where}: the director took this table's result of board {rec['board']} off ({words}); "
                    "a table's resend does not bring it back (the director enters a result if one is due)")
    for p in (ns, ew):
        earlier = st.by_pair.get((rec["board"], p))
        if earlier is not None:
            e = st.entries[earlier]
            if hand and e.kind != "played":     # the director's adjusted score: no table's result to correct
                return f"line {e.key} holds an adjusted score: adjust it again or cancel it"
            if e.kind != "played":  # a table's result: not "a second result ... from table 1", which it is not
                return (f"{where}: line {e.key} holds the director's adjusted score; the table's result is not "
                        "taken (the director may cancel the adjusted score and enter it)")
            if hand and e.hand and e.key == key and e.by == rec.get("by") and not e.corrected[0] and _same(e, rec):
                return "repeat"     # the same hand entry again, as it stands (a second press of the button)
            if hand:
                return (f"line {e.key} has a result already (from table {e.table} in round {e.round}"
                        f"{', entered by hand' if e.hand else ''}): correct it instead")
            held = st.conflicts.get(key)
            if held is not None and e.key == key and _same(held, rec):
                return "repeat"
            if e.hand and e.key == key and held is None:
                break   # held beside the hand-entered line for the director to choose (never both scored)
            if not e.hand and (_same(e, rec) or _same_as_taken(st, e, rec)):
                return "repeat"
            return (f"{where}: a second result for board {rec['board']} and pair {label(p)} (the first came "
                    f"from table {e.table} in round {e.round})")
    if not hand and st.taken_off.get(key) == "director":
        return (f"{where}: the director took line {key} off to score it; the table's result is not taken "
                f"(the director may enter it by hand)")
    fingerprint = st.fingerprints[rec["board"]]
    if rec.get("record") and rec["record"] != fingerprint:
        return (f"{where}: the table played from a record that is not this session's board {rec['board']} "
                f"(fingerprint {str(rec['record'])[:12]}..., the session's is {fingerprint[:12]}...)")
    if rec.get("verified") and rec.get("foul"):
        return f"{where}: a result cannot both verify against the record and call a fouled board"
    return _check_score(st, where, rec)


def _taken_off(st: SessionState, rec: Mapping[str, Any], source: str) -> bool:
    """Whether ``source`` is a message of the table's result the director took off, or an earlier one. Its
    delivery again (a restart resending from the start) is no repeat: a repeat tells the table the session
    holds its result, which it no longer does, so the table would stop sending and the line stay empty. It
    is refused with the director's decision instead (below)."""
    club = str(rec.get("table") or st.club_table_of.get(rec.get("table_number"), ""))
    cancelled = st.cancelled.get((club, rec.get("board")))
    return cancelled is not None and source_seq(source) <= cancelled[1]


def _same(e: Any, rec: Mapping[str, Any]) -> bool:
    """The same result from the same table (a resend under a new seq)."""
    return bool(e.club_table == rec.get("table") and (e.contract, e.declarer or None, e.tricks, e.lead or None) == (
        contract_code(rec.get("contract")), rec.get("declarer") or None, rec.get("tricks"), rec.get("lead") or None))


def _same_as_taken(st: SessionState, e: Any, rec: Mapping[str, Any]) -> bool:
    """The result the session took from this table, sent again after the director corrected the line:
    ``_same`` compares with the line as corrected, so a resend on the table's timer, crossing the
    correction, was refused as a second result and the players were shown that refusal of their own
    result. The correction stands; the resend changes nothing."""
    return bool(e.source and e.club_table == rec.get("table") and st.sources.get(e.source) == result_content(rec))


def _check_score(st: SessionState, where: str, rec: Mapping[str, Any]) -> str:
    contract, declarer, tricks = rec.get("contract"), rec.get("declarer"), rec.get("tricks")
    try:
        c = None if contract == "Pass" else parse_contract(str(contract))
        board_score(c, Seat(declarer) if declarer else None, tricks,  # type: ignore[arg-type]
                    st.records[rec["board"]].vulnerability)
    except (ScoreInputError, ValueError) as exc:
        return f"{where}: {exc}"
    lead = rec.get("lead")
    problem = passed_out_lead(contract, lead)   # the one rule a federation's line follows too
    if problem:
        return f"{where}: {problem}"
    if lead:
        try:
            Card.parse(str(lead))
        except ValueError as exc:
            return f"{where}: the lead: {exc}"
    return ""


def _check_round(st: SessionState, rec: Mapping[str, Any]) -> str:
    n = rec.get("round")
    if not (_whole(n) and 1 <= n <= st.movement.rounds):
        return f"round {n!r} is not one of the movement's rounds (1-{st.movement.rounds})"
    if n <= st.called:
        return f"round {n} has been called already (the round called is {st.called})"
    return ""


def _check_key(st: SessionState, rec: Mapping[str, Any]) -> str:
    key = rec.get("key")
    if isinstance(key, str) and key in st.entries:
        return ""
    if not isinstance(key, str) or key.count("/") != 2:
        return f"no traveller line {key!r} (a line is board/NS pair/EW pair, e.g. '5/3 NS/4 EW')"
    board, ns, ew = key.split("/")
    try:
        pairs = (pair_of_label(ns), pair_of_label(ew))
    except ValueError as exc:
        return f"no traveller line {key!r}: {exc}"
    meets = [s for s in st.movement.seatings if s.played and (s.ns, s.ew) == pairs
             and board.isdigit() and int(board) in st.movement.boards_of(s.group)]
    if not meets:
        return (f"no traveller line {key!r}: pairs {label(pairs[0])} and {label(pairs[1])} do not play board "
                f"{board} against each other in {st.movement.name}")
    s = meets[0]
    off = st.taken_off.get(key)
    state = (f"the line was taken off ({'to be replayed' if off == 'replay' else 'for the director to score'})"
             if off else "no result has reached the session for it yet")
    return (f"no traveller line {key} (table {s.table}, round {s.round}): {state}; enter the result by hand "
            f"(contract, declarer, lead, tricks) or give an adjusted score")


def _check_cancel(st: SessionState, rec: Mapping[str, Any]) -> str:
    problem = _check_key(st, rec)
    if not problem and rec["key"] in st.conflicts:
        problem = (f"line {rec['key']} has a result entered by hand and the table's own: choose one first "
                   f"(keep the table's or the hand-entered one)")
    if not problem and rec.get("then", "replay") not in ("replay", "director"):
        problem = f"a line taken off is to be replayed ('replay') or scored by the director ('director'), not {rec.get('then')!r}"
    return problem


def _check_uncall(st: SessionState, rec: Mapping[str, Any]) -> str:
    n = rec.get("round")
    if _whole(n) and n == st.called == 1:   # the true reason: round 1 is never called, so there is no call
        return "round 1 cannot be undone: it is in play from the start (no call of it to undo)"
    if not (_whole(n) and n == st.called and n > 1):
        return f"only the round called last can be undone (round {st.called} is called), not {n!r}"
    late = sorted((e for e in [*st.entries.values(), *st.conflicts.values()] if e.round >= n),
                  key=lambda e: e.order)
    if late:
        e = late[0]
        return (f"round {n} cannot be undone: a result of round {e.round} is in (table {e.table}, "
                f"board {e.board})")
    return ""


def _check_resolve(st: SessionState, rec: Mapping[str, Any]) -> str:
    key = rec.get("key")
    if not isinstance(key, str) or key not in st.conflicts:
        return f"line {key!r} has no conflict to settle (no table sent a result for a line entered by hand)"
    if rec.get("keep") not in ("table", "hand"):
        return f"keep the table's result ('table') or the one entered by hand ('hand'), not {rec.get('keep')!r}"
    return ""


def _check_correct(st: SessionState, rec: Mapping[str, Any]) -> str:
    problem = correction_problem(st, rec)
    if not problem and rec["key"] in st.conflicts:   # a correction of one would be lost if the other were kept
        problem = (f"line {rec['key']} has a result entered by hand and the table's own: choose one first "
                   f"(keep the table's or the hand-entered one), then correct it")
    return problem


def correction_problem(st: SessionState, rec: Mapping[str, Any]) -> str:
    """What is wrong with a correction of the line as it stands, conflict or not ("" when nothing): a
    journal written before a correction during a conflict was refused replays its corrections by this."""
    problem = _check_key(st, rec)
    if problem:
        return problem
    e = st.entries[str(rec["key"])]
    if e.kind != "played":
        return f"line {e.key} holds an adjusted score: adjust it again or cancel it"
    return _check_score(st, f"line {e.key}", {"board": e.board, **corrected(e, rec)})


def corrected(e: Any, rec: Mapping[str, Any]) -> dict[str, Any]:
    """A line's contract, declarer, tricks and lead once a ``correct`` record is applied: each the
    record's, else the line's, except that a correction to a pass-out (``"contract": "Pass"``) keeps
    none of the line's declarer, tricks and lead (a passed-out board has none: the form's "as entered"
    declarer would otherwise carry the played contract's over and be refused)."""
    passed = rec.get("contract") == "Pass"
    return {"contract": rec.get("contract", e.contract),
            "declarer": rec.get("declarer", "" if passed else e.declarer) or None,
            "tricks": rec.get("tricks", 0 if passed else e.tricks),
            "lead": rec.get("lead", None if passed else e.lead) or None}


def _check_adjust(st: SessionState, rec: Mapping[str, Any]) -> str:
    board = rec.get("board")
    try:
        ns, ew = pair_of_label(rec.get("ns", "")), pair_of_label(rec.get("ew", ""))
    except ValueError as exc:
        return f"an adjusted score: {exc}"
    meets = [s for s in st.movement.seatings
             if s.played and (s.ns, s.ew) == (ns, ew) and board in st.movement.boards_of(s.group)]
    if not meets:
        return (f"an adjusted score on a board not played: pairs {label(ns)} and {label(ew)} do not play board "
                f"{board!r} against each other in {st.movement.name}")
    kind, a, b = rec.get("kind"), adjusted_value(rec, "ns_value"), adjusted_value(rec, "ew_value")
    if kind == "artificial":
        try:
            pa, pb = Fraction(a), Fraction(b)
        except (ValueError, ZeroDivisionError):
            return f"board {board}: an artificial score is a percentage for each side (60, 50, 40), got {a!r}/{b!r}"
        if not (0 <= pa <= 100 and 0 <= pb <= 100):
            return f"board {board}: an artificial score is a percentage 0 to 100, got {a}/{b}"
        if st.setup.method.at_imps and {pa, pb} - {Fraction(60), Fraction(50), Fraction(40)}:
            return f"board {board}: at IMPs an artificial score is 60, 50 or 40 (+3, 0, -3 IMPs), got {a}/{b}"
        return ""
    if kind == "assigned":
        for v in (a, b) if b else (a,):
            if not v.lstrip("-").isdigit() or int(v) % 10:
                return f"board {board}: an assigned score is North-South's score, a multiple of 10, got {v!r}"
        return ""
    return f"board {board}: an adjusted score is 'artificial' or 'assigned', not {kind!r}"


def adjusted_value(rec: Mapping[str, Any], name: str) -> str:
    """An adjust record's value as text; absent or null is "" (an assigned score's ``ew_value``
    absent or null: the score is not split)."""
    value = rec.get(name)
    return "" if value is None else str(value)


def _check_regroup(st: SessionState, rec: Mapping[str, Any]) -> str:
    problem = _check_key(st, rec)
    group = rec.get("group")
    if not problem and not (isinstance(group, str) and len(group) == 1 and group.isalpha()):
        problem = f"a fouled-board group is one letter, not {group!r}"
    return problem


def _check_players(st: SessionState, rec: Mapping[str, Any]) -> str:
    """A pair's players named (``roster.players_problem``: a pair of the session, two players, no member
    at two tables, names without control characters), and the first round it names, when it has one
    (a table names who sits there from its round on), one of the movement's."""
    first = rec.get("round")
    if first is not None and (isinstance(first, bool) or not isinstance(first, int)
                              or not 1 <= first <= st.movement.rounds):
        return (f"pair {str(rec.get('pair'))[:20]}: the round the players sit from is one of the movement's rounds "
                f"(1-{st.movement.rounds}), not {repr(first)[:20]}")
    return players_problem([label(p) for p in st.movement.pairs()], st.players, rec)


CHECKS: dict[str, Check] = {"result": _check_result, "round": _check_round, "correct": _check_correct,
                            "cancel": _check_cancel, "adjust": _check_adjust, "regroup": _check_regroup,
                            "uncall": _check_uncall, "resolve": _check_resolve, "players": _check_players}
