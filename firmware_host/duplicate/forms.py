"""What the director's page and a table's page send, read as people type it, into the session's records.

Pure: a function of the form's fields and the session's state, no I/O. Each reader either gives the
record the session journals (canonical: the key ``5/3 NS/4 EW``, percentages ``60``, scores from
North-South's view, as ``docs/session.md`` lists the records) or raises :class:`FormError` with one
sentence naming the field and what is wrong. Decisions (``docs/session.md``, "The director's forms"):

* **A line** is typed ``5/3 NS/4 EW``, ``5/3NS/4EW``, ``5 3NS 4EW``, ``5, 3 ns, 4 ew`` or, in a Mitchell,
  ``5 3 4`` (the first pair North-South, the second East-West). A Howell's pairs have no direction: one
  typed is ignored.
* **A pair** of the adjusted score's "NS pair" and "EW pair" fields is read as a line's pairs are: in a
  Mitchell a bare number is the field's direction (``3`` in "EW pair" is ``3 EW``), a direction typed
  stands (a pair sitting the other way in a switched round); in a Howell a direction typed is ignored.
  Before, a bare ``3`` was journaled as ``3`` and refused as a board the pairs do not play.
* **An artificial score** is a percentage for each side or a word: ``A+`` (average plus, 60), ``A=`` or
  ``A`` (average, 50), ``A-`` (average minus, 40), as ``average plus`` … too.
* **A split assigned score** is typed as each side's own score (North-South +420, East-West -140, as on
  their own scorecards); the record keeps East-West's as North-South's view (+140), as before.
* **A fouled board's group** (``regroup``) is one letter, read as a capital: ``b`` is group ``B``, the
  group the pages show (before, ``b`` was journaled as a group of its own beside ``B`` and the board was
  scored in both).
* **A result entered by hand** (``enter``): the line, contract (``4S``, ``3NTx``, ``4♠``, ``pass``),
  declarer (N, E, S, W), lead (``SA``, ``AS``, ``♠A``) and declarer's tricks; the round and table are the
  movement's for that line. A pass-out (``pass``) has no declarer, no tricks and no lead: one typed with it
  is refused, in the words "Correct" refuses it with, not dropped. A table's page may enter only lines of
  its own table up to the round called.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from laws.duplicate.movement import Pair
from laws.errors import as_typed
from laws.session.duplicate.spec import label, pair_of_label

PAIR = re.compile(r"\s*(\d+)\s*(ns|ew)?\s*", re.IGNORECASE)
KEY = re.compile(r"\s*(\d+)\s*[/,;\s]\s*(\d+)\s*(ns|ew)?\s*[/,;\s]\s*(\d+)\s*(ns|ew)?\s*", re.IGNORECASE)
AVERAGES = {"a+": "60", "average plus": "60", "average+": "60", "a=": "50", "a": "50", "average": "50",
            "a-": "40", "average minus": "40", "average-": "40"}
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "n": "NT", "nt": "NT"}


class FormError(ValueError):
    """A form's field cannot be read; the message names the field."""


def read_key(text: Any, mitchell: bool) -> str:
    """The canonical line key of what was typed (see the module docstring)."""
    if not isinstance(text, str):
        raise FormError(f"the line {as_typed(text)} is not text (type it as board/NS pair/EW pair, e.g. 5/3 NS/4 EW)")
    m = KEY.fullmatch(text)
    if not m:
        if text.count("/") == 2:   # a key as the session writes it, whatever it names: the checks answer
            return text.strip()
        raise FormError(f"the line {text[:60]!r} is not board/NS pair/EW pair (e.g. 5/3 NS/4 EW, 5/3NS/4EW or "
                        f"5 3NS 4EW)")
    board, ns, ns_dir, ew, ew_dir = m.groups()
    if mitchell:
        a = Pair(int(ns), (ns_dir or "NS").upper())
        b = Pair(int(ew), (ew_dir or "EW").upper())
    else:
        a, b = Pair(int(ns), None), Pair(int(ew), None)
    return f"{int(board)}/{label(a)}/{label(b)}"


def read_pair(text: Any, mitchell: bool, side: str) -> Any:
    """The pair's label of what was typed in a pair's field (``side`` ``"NS"`` or ``"EW"``, the field's
    direction); what does not read as a pair is given back as it is, for the session's checks to name."""
    m = PAIR.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        return text
    number, typed = int(m.group(1)), m.group(2)
    return label(Pair(number, (typed or side).upper() if mitchell else None))


def artificial(text: Any) -> str:
    """A side's artificial score as the record's percentage (``A+`` -> ``60``)."""
    t = str("" if text is None else text).strip()
    return AVERAGES.get(t.lower(), t.rstrip("%").strip())


def _points(text: Any, who: str) -> int:
    t = str("" if text is None else text).strip().replace("−", "-").lstrip("+")
    if not re.fullmatch(r"-?\d{1,5}", t) or int(t) % 10:
        raise FormError(f"{who}'s own score must be a whole number of points, a multiple of 10, got {as_typed(text)}")
    return int(t)


def adjust(data: Mapping[str, Any], user: str, mitchell: bool) -> dict[str, Any]:
    """An ``adjust`` record from the form (``ns_value``/``ew_value``, or for a split assigned score
    ``ns_own``/``ew_own``: each side's own score); the pairs read as a line's (``read_pair``)."""
    rec: dict[str, Any] = {"type": "adjust", "by": user,
                           **{k: data[k] for k in ("board", "ns", "ew", "kind", "why") if k in data}}
    for side in ("ns", "ew"):
        if side in rec:
            rec[side] = read_pair(rec[side], mitchell, side.upper())
    if isinstance(rec.get("board"), str) and rec["board"].strip().isdigit():
        rec["board"] = int(rec["board"])
    if rec.get("kind") == "artificial":
        rec["ns_value"], rec["ew_value"] = artificial(data.get("ns_value")), artificial(data.get("ew_value"))
    elif rec.get("kind") == "assigned" and data.get("ew_own") not in (None, ""):
        ns = _points(data.get("ns_own", data.get("ns_value")), "North-South")
        rec["ns_value"], rec["ew_value"] = str(ns), str(-_points(data["ew_own"], "East-West"))
    elif rec.get("kind") == "assigned":
        rec["ns_value"] = data.get("ns_own", data.get("ns_value"))
        rec["ew_value"] = data.get("ew_value")
    else:
        rec.update({k: data[k] for k in ("ns_value", "ew_value") if k in data})
    return rec


def correct(data: Mapping[str, Any], user: str, mitchell: bool) -> dict[str, Any]:
    """A ``correct`` record: the line read as typed, the contract and lead as the record writes them;
    a field left empty is not changed."""
    rec: dict[str, Any] = {"type": "correct", "by": user, "key": data.get("key")}
    if isinstance(rec["key"], str):
        rec["key"] = read_key(rec["key"], mitchell)
    if data.get("contract") not in (None, ""):
        rec["contract"] = contract(data["contract"])
    if data.get("declarer") not in (None, ""):
        rec["declarer"] = str(data["declarer"]).strip().upper()[:2]
    if data.get("lead") not in (None, ""):
        rec["lead"] = lead(data["lead"])
    if "tricks" in data:
        t = data["tricks"]
        rec["tricks"] = int(t) if isinstance(t, str) and t.strip().isdigit() else t
    if data.get("why") not in (None, ""):
        rec["why"] = data["why"]
    return rec


def regroup(data: Mapping[str, Any], user: str, mitchell: bool) -> dict[str, Any]:
    """A ``regroup`` record: the line read as typed, the group a capital letter A-Z (see the module
    docstring); what is not a letter is left for the session's checks to name."""
    rec: dict[str, Any] = {"type": "regroup", "by": user, **{k: data[k] for k in ("key", "group") if k in data}}
    if isinstance(rec.get("key"), str):
        rec["key"] = read_key(rec["key"], mitchell)
    group = rec.get("group")
    if isinstance(group, str) and re.fullmatch(r"\s*[A-Za-z]\s*", group):
        rec["group"] = group.strip().upper()
    return rec


def contract(text: Any) -> str:
    """``4s``, ``3ntx``, ``4♠``, ``pass`` as the record's ``4S``, ``3NTX``, ``4S``, ``Pass``."""
    t = str("" if text is None else text).strip()
    if t.lower() in ("pass", "passed out", "p", "-"):
        return "Pass"
    m = re.fullmatch(r"([1-7])\s*(nt|n|s|h|d|c|♠|♥|♦|♣)\s*(x{0,2})", t, re.IGNORECASE)
    if not m:
        raise FormError(f"the contract {t[:20]!r} is a level 1-7 and a strain (4S, 3NT, 2Hx), or pass")
    strain = m.group(2).lower()
    return f"{m.group(1)}{SUITS.get(strain, strain.upper())}{m.group(3).upper()}"


def lead(text: Any) -> str | None:
    """``SA``, ``AS``, ``♠A``, ``s10`` as the card code ``AS`` (``TS`` for the ten); empty: None."""
    t = str("" if text is None else text).strip().upper().replace("10", "T")
    if not t:
        return None
    for sym, suit in (("♠", "S"), ("♥", "H"), ("♦", "D"), ("♣", "C")):
        t = t.replace(sym, suit)
    if len(t) == 2 and t[0] in "SHDC" and t[1] in "AKQJT98765432":
        t = t[1] + t[0]
    if not (len(t) == 2 and t[0] in "AKQJT98765432" and t[1] in "SHDC"):
        raise FormError(f"the lead {str(text)[:10]!r} is a card: rank and suit (AS, TD, 7C) or suit and rank (SA)")
    return t


def _lead_shown(text: Any) -> str:
    """A lead as a refusal quotes it: the card code the session would keep (``SA`` is ``AS``, as the
    session's own refusal of a correction says it), or as typed when it reads as no card."""
    try:
        return lead(text) or as_typed(text, 10)
    except FormError:
        return as_typed(text, 10)


def enter(data: Mapping[str, Any], user: str, state: Any, *, table: str | None = None) -> dict[str, Any]:
    """A ``result`` record entered by hand (``hand``: true) for the line the form names.

    Args:
        data: the form's ``key``, ``contract``, ``declarer``, ``lead``, ``tricks``, ``why``.
        user: who enters it (the director's login, or ``"<table>'s page"``).
        state: the session's state (``laws.session.duplicate.state.SessionState``), for the movement.
        table: the club table whose page sends it (None: the director), which may enter only its own lines.
    """
    mitchell = any(p.direction for p in state.movement.pairs())
    key = read_key(data.get("key"), mitchell)
    parts = key.split("/")
    try:
        board, ns, ew = int(parts[0]), pair_of_label(parts[1]), pair_of_label(parts[2])
    except ValueError:
        raise FormError(f"the line {key[:60]!r} is not board/NS pair/EW pair (e.g. 5/3 NS/4 EW)") from None
    seating = next((s for s in state.movement.seatings if s.played and (s.ns, s.ew) == (ns, ew)
                    and board in state.movement.boards_of(s.group)), None)
    if seating is None:
        raise FormError(f"pairs {label(ns)} and {label(ew)} do not play board {board} against each other in "
                        f"{state.movement.name}")
    club = state.club_table_of.get(seating.table, "")
    if table is not None and (club != table or seating.round > state.called):
        raise FormError(f"this page is table {table}'s: it can enter only its own boards up to the round called "
                        f"(line {key} is table {seating.table}'s in round {seating.round})")
    if table is not None and state.taken_off.get(key) == "director":
        raise FormError(f"the director took line {key} off to score it: ask the director")
    declarer = str(data.get("declarer") or "").strip().upper()[:1]
    c = contract(data.get("contract"))
    tricks = data.get("tricks")
    if isinstance(tricks, str) and tricks.strip().isdigit():
        tricks = int(tricks)
    if c == "Pass":   # refused as "Correct" refuses it, never dropped unsaid (audit a11 #6)
        if declarer:
            raise FormError(f"line {key}: a passed-out board has no declarer, got {declarer}")
        if tricks not in (None, "", 0):
            raise FormError(f"line {key}: a passed-out board has no tricks, got {as_typed(tricks, 10)}")
        if str(data.get("lead") or "").strip():   # nor a lead: it was dropped unsaid before
            raise FormError(f"line {key}: a passed-out board has no lead, got {_lead_shown(data['lead'])}")
        tricks = 0
    elif declarer not in ("N", "E", "S", "W"):
        raise FormError(f"the declarer is N, E, S or W, got {as_typed(data.get('declarer'), 10)}")
    rec: dict[str, Any] = {"type": "result", "hand": True, "by": user, "table": club, "section": state.setup.section,
                           "table_number": seating.table, "round": seating.round, "board": board,
                           "ns": label(ns), "ew": label(ew), "contract": c, "declarer": declarer or None,
                           "lead": None if c == "Pass" else lead(data.get("lead")), "tricks": tricks,
                           "verified": False, "foul": None, "why": str(data.get("why") or "")[:200]}
    return rec
