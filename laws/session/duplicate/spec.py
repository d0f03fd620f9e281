"""What a session is made of, as the journal's first row keeps it: the movement (how to build it again),
the hand records, the scoring method, the pairs, and which club table is which table of the movement.

:class:`SessionSetup` is a plain value that goes to and from JSON (:meth:`SessionSetup.to_dict`,
:meth:`SessionSetup.from_dict`), so a restart builds the same movement and the same boards from the
journal alone. :func:`check_setup` refuses, with one message naming what and where, a setup that
cannot be played: a movement that does not seat the number of pairs, hand records that lack a board
the movement plays, a club table given twice. ``docs/session.md`` lists every message.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from laws.cards import Side
from laws.duplicate.deal import Board, Deal, board_index, check_index, commitment, file_index
from laws.duplicate.movement import (
    Movement,
    MovementError,
    Pair,
    barometer,
    check,
    from_asc,
    howell,
    mitchell,
    records_problem,
)
from laws.scoring import Method

KINDS = ("mitchell", "howell", "barometer", "asc")
TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
RESERVED_IDS = frozenset({"dashboard", "session", "spectate", "broadcast", "spectator"})


class SetupError(ValueError):
    """A session that cannot be set up as asked; the message names what and where."""


def build_movement(spec: Mapping[str, Any]) -> Movement:
    """The movement a spec describes: ``{"kind": "mitchell", "tables": 8, "boards_per_round": 3, ...}``.

    Kinds and their keys: ``mitchell`` (``tables``, ``boards_per_round``, optional ``rounds``, ``even``,
    ``half_table``, ``arrow_switch_rounds``), ``howell`` (``tables``, ``boards_per_round``), ``barometer``
    (``tables``, ``boards_per_round``, optional ``pairing``), ``asc`` (``text``, ``boards_per_round``,
    optional ``file`` for messages).

    Raises:
        SetupError: naming the kind and what is wrong (a movement the builders refuse, a bad .ASC line).
    """
    kind = spec.get("kind")
    try:
        if kind == "mitchell":
            return mitchell(spec["tables"], spec["boards_per_round"], spec.get("rounds"),
                            even=spec.get("even", "skip"), half_table=bool(spec.get("half_table", False)),
                            arrow_switch_rounds=tuple(spec.get("arrow_switch_rounds", ())))
        if kind == "howell":
            return howell(spec["tables"], spec["boards_per_round"])
        if kind == "barometer":
            return barometer(spec["tables"], spec["boards_per_round"], spec.get("pairing", "mitchell"))
        if kind == "asc":
            made = from_asc(spec["text"], boards_per_round=spec.get("boards_per_round", 1))
            unsound = check(made)   # whoever made it: no movement that cannot be played is handed out
            if unsound:
                raise MovementError("the movement cannot be played as it stands: " + "; ".join(unsound[:3]) +
                                    (f" (and {len(unsound) - 3} more)" if len(unsound) > 3 else ""))
            return made
    except KeyError as exc:
        raise SetupError(f"a {kind} movement needs {exc.args[0]!r}") from None
    except MovementError as exc:
        where = f"{spec.get('file') or 'the .ASC file'}: " if kind == "asc" else ""
        raise SetupError(f"{where}{exc}") from None
    raise SetupError(f"a movement is one of {', '.join(KINDS)}, not {kind!r}")


def mitchell_for(pairs: int, boards_per_round: int, **kw: Any) -> dict[str, Any]:
    """The spec of the Mitchell that seats ``pairs`` pairs: ``ceil(pairs / 2)`` tables, a half table when
    the number is odd."""
    if isinstance(pairs, bool) or not isinstance(pairs, int) or pairs < 2:
        raise SetupError(f"a Mitchell needs at least 2 pairs, not {pairs!r}")
    tables = (pairs + 1) // 2
    return {"kind": "mitchell", "tables": tables, "boards_per_round": boards_per_round,
            "half_table": pairs % 2 == 1, **kw}


@dataclass(frozen=True)
class SessionSetup:
    """Everything a session is built from.

    Attributes:
        name: the event's name (exports' ``[Event]`` and ``EVENT_DESCRIPTION``).
        date: the session's date, ``YYYY-MM-DD`` (exports; never the clock at export time).
        club: the club's name.
        movement: the movement's spec (:func:`build_movement`).
        pairs: how many pairs play; the movement must seat exactly that many.
        boards: the hand records (every board the movement plays).
        method: how it is scored.
        section: the section's letter (a club of one section has ``"A"``).
        tables: club table id (its MQTT id) -> the movement's table number.
        names: pair label (``"3 NS"``, ``"5"``) -> the players' names.
        secret: a random key the players' table pages are opened with (``table_key``).
        file: when the hand records file holds boards the session does not play, its commitment and those
            boards' index entries (``laws.duplicate.deal.file_part``): the session commits to the boards it
            plays, and a table may be pinned to either commitment (``docs/mqtt.md``); None otherwise.
    """

    name: str
    date: str
    club: str
    movement: Mapping[str, Any]
    pairs: int
    boards: tuple[Board, ...]
    method: Method
    section: str = "A"
    tables: Mapping[str, int] = field(default_factory=dict)
    names: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    secret: str = ""
    file: Mapping[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out = {"name": self.name, "date": self.date, "club": self.club, "movement": dict(self.movement),
               "pairs": self.pairs, "boards": [{"number": b.number, "deal": b.deal.pbn()} for b in self.boards],
               "method": self.method.value, "section": self.section, "tables": dict(self.tables),
               "names": {k: list(v) for k, v in self.names.items()}, "secret": self.secret,
               "commitment": commitment(self.boards)}
        if self.file:
            out["file"] = {"commitment": self.file["commitment"], "others": [list(e) for e in self.file["others"]]}
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> SessionSetup:
        try:
            boards = tuple(Board.numbered(int(b["number"]), Deal.from_pbn(b["deal"])) for b in d["boards"])
            return cls(str(d["name"]), str(d["date"]), str(d.get("club", "")), dict(d["movement"]), int(d["pairs"]),
                       boards, Method(d["method"]), str(d.get("section", "A")),
                       {str(k): int(v) for k, v in d.get("tables", {}).items()},
                       {str(k): (str(v[0]), str(v[1])) for k, v in d.get("names", {}).items()},
                       str(d.get("secret", "")), _file_of(d.get("file"), boards))
        except (KeyError, TypeError, ValueError) as exc:
            raise SetupError(f"the session's opening row cannot be read ({exc})") from None


def _file_of(value: Any, boards: Sequence[Board]) -> dict[str, Any] | None:
    """The opening row's ``file`` (None when absent), checked: its commitment must be the one the session's
    boards' index and the others' entries hash to, since a table pinned to it takes records by it."""
    if value is None:
        return None
    whole, others = value["commitment"], tuple((int(n), str(h)) for n, h in value["others"])
    problem = check_index(file_index(board_index(boards), others), str(whole))
    if problem:
        raise ValueError(f"file: {problem}")
    return {"commitment": str(whole), "others": others}


def default_tables(count: int) -> dict[str, int]:
    """``table-01`` ... ``table-NN`` -> 1 ... N (the ids ``cardtable club broker --tables`` makes)."""
    width = max(2, len(str(count)))
    return {f"table-{i:0{width}d}": i for i in range(1, count + 1)}


def check_setup(setup: SessionSetup) -> Movement:
    """The setup's movement, once everything about the setup is sound.

    Raises:
        SetupError: a movement that cannot be built or cannot seat ``pairs`` pairs, hand records missing a
            board the movement plays (or giving one twice), a club table id given twice or not an MQTT
            topic level, a table number the movement does not have, or a method that is not a ``Method``.
    """
    if not isinstance(setup.method, Method):
        raise SetupError(f"the method is one of {', '.join(m.value for m in Method)}, not {setup.method!r}")
    movement = build_movement(setup.movement)
    if isinstance(setup.pairs, bool) or not isinstance(setup.pairs, int) or setup.pairs < 2:
        raise SetupError(f"the number of pairs is a whole number from 2, not {setup.pairs!r}")
    if movement.contestants != setup.pairs:
        seats = movement.tables * 2
        raise SetupError(f"{movement.name} seats {movement.contestants} pairs ({seats} seats at "
                         f"{movement.tables} tables), not {setup.pairs}")
    problem = records_problem((b.number for b in setup.boards), movement.boards(), movement.name)
    if problem:
        raise SetupError(problem)
    seen: dict[int, str] = {}
    for tid, number in setup.tables.items():
        if not TABLE_ID.match(tid) or tid in RESERVED_IDS:
            raise SetupError(f"club table id {tid!r} cannot be an MQTT topic level (letters, digits, - or _; "
                             "not 'dashboard' or 'session')")
        if not 1 <= number <= movement.tables:
            raise SetupError(f"club table {tid} is given table {number}, but {movement.name} has tables "
                             f"1-{movement.tables}")
        if number in seen:
            raise SetupError(f"club tables {seen[number]} and {tid} are both given table {number}")
        seen[number] = tid
    unplaced = [t for t in range(1, movement.tables + 1) if t not in seen]
    if setup.tables and unplaced:
        raise SetupError(f"no club table is given table {unplaced[0]} of {movement.name}")
    return movement


def fields_of(movement: Movement) -> dict[Pair, str]:
    """Each pair's field for scoring: ``NS`` and ``EW`` in a Mitchell, one field otherwise (the movement's
    pair is the scoring's: one :class:`laws.competitors.Competitor`)."""
    return dict(movement.fields())


def label(p: Pair | None) -> str:
    """A pair's label on the link and the screens: ``"3 NS"``, or ``"5"`` without a direction."""
    return "" if p is None else str(p)


def pair_of_label(text: str) -> Pair:
    """The pair a label names (``"3 NS"``, ``"3NS"``, ``"5"``); ``ValueError`` when it names none."""
    m = re.fullmatch(r"\s*(\d+)\s*(NS|EW)?\s*", str(text))
    if not m:
        raise ValueError(f"{text!r} is not a pair (want a number, and NS or EW in a Mitchell: '3 NS')")
    return Pair(int(m.group(1)), Side(m.group(2)) if m.group(2) else None)


def boards_by_number(boards: Sequence[Board]) -> dict[int, Board]:
    return {b.number: b for b in boards}
