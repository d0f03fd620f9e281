"""The hand records a club's session sends a duplicate table, checked before the table takes any of them.

The session's seating message for the table carries ``hand_records`` (``docs/mqtt.md``, "Hand records
sent to the tables"): the session's commitment, its index (every board's hash) and the deals of the boards
the table is to play. Each deal is checked alone (``laws.duplicate.deal.check_board``, the definition in
``docs/handrecords.md``): the index must hash to the commitment, the deal's board hash must be its
number's entry, and the commitment must be the one the table holds for the session: the one its
configuration pins (``[duplicate] commitment``: the session's, or the whole hand records file's, checked
against the file's index the message carries as ``file``), else the one the session's round message
names, else the seating's own. A record that fails is refused with its reason; the others are taken, and
the verdict says which commitment matched. Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from laws.duplicate.deal import Board, Deal, check_board, check_index, file_index

HEX64 = re.compile(r"^[0-9a-f]{64}$")


@dataclass(frozen=True)
class RecordsVerdict:
    """What became of one message's records: those taken (by board number) and those refused, each
    ``(board or None, why)``, and which commitment they were checked against (``matched``: ``session``,
    the session's, to the boards it plays, or ``file``, the whole hand records file's, which a table's
    ``[duplicate] commitment`` may pin as well)."""

    commitment: str
    taken: Mapping[int, Board] = field(default_factory=dict)
    refused: tuple[tuple[int | None, str], ...] = ()
    matched: str = "session"

    def said(self) -> str:
        """The refusals in one sentence for the director ("" when none)."""
        return "; ".join(f"board {b}: {why}" if b is not None else why for b, why in self.refused)

    def note(self) -> dict[str, Any]:
        """The journal note's body."""
        return {"hand_records": {"commitment": self.commitment, "matched": self.matched, "taken": sorted(self.taken),
                                 "refused": [{"board": b, "why": why} for b, why in self.refused]}}


def commitment_of(message: Mapping[str, Any]) -> str:
    """The commitment a round message names ("" when none or malformed)."""
    c = message.get("commitment")
    return c if isinstance(c, str) and HEX64.match(c) else ""


def _index(value: Any) -> tuple[tuple[int, str], ...] | None:
    try:
        return tuple((int(n), str(h)) for n, h in value) if isinstance(value, list) else None
    except (TypeError, ValueError):
        return None


def check_records(part: Any, pinned: str, *, configured: bool = False) -> RecordsVerdict:
    """The records of a seating's ``hand_records`` checked one by one against the commitment
    (``pinned``: the commitment the table holds for the session, "" when it holds none; ``configured``:
    it is the table's ``[duplicate] commitment``). A pin is of either commitment ``duplicate open`` and
    ``event open`` print: the session's (the boards it plays) or the whole file's, which the message
    carries as ``file`` (its commitment and the index entries of the boards not played) when the two
    differ; the verdict says which matched."""
    if not isinstance(part, Mapping):
        return RecordsVerdict("", refused=((None, "the hand records are not an object"),))
    commitment, index, deals = part.get("commitment"), part.get("index"), part.get("deals")
    if not isinstance(commitment, str) or not HEX64.match(commitment):
        return RecordsVerdict("", refused=((None, "the hand records name no commitment (64 hex digits)"),))
    whole = part.get("file")
    whole_c = whole.get("commitment") if isinstance(whole, Mapping) else None
    matched, pairs = "session", _index(index)
    if pinned and commitment != pinned:
        if configured and whole_c == pinned and isinstance(whole, Mapping):
            others = _index(whole.get("others"))
            matched, commitment = "file", pinned
            pairs = None if pairs is None or others is None else file_index(pairs, others)
        else:
            held = (f"the {pinned[:16]}... [duplicate] commitment pins, neither the session's nor the file's "
                    f"(records of another session)" if configured else
                    f"this session's {pinned[:16]}... (records of another session)")
            named = (f"{commitment[:16]}... (the session's)" + (f" and {whole_c[:16]}... (the file's)"
                                                                  if isinstance(whole_c, str) else ""))
            return RecordsVerdict(commitment, refused=((None, (
                f"the records are committed to {named}, not to {held}: none taken"),),))
    problem = "the index is not a list of [board, hash]" if pairs is None else check_index(pairs, commitment)
    if problem or pairs is None or not isinstance(deals, list):
        return RecordsVerdict(commitment, refused=((None, (problem or "no list of deals") + ": none taken"),),
                              matched=matched)
    taken: dict[int, Board] = {}
    refused: list[tuple[int | None, str]] = []
    for item in deals:
        number = item.get("board") if isinstance(item, Mapping) else None
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            refused.append((None, f"a deal without a board number ({str(item)[:60]})"))
            continue
        try:
            board = Board.numbered(number, Deal.from_pbn(str(item.get("deal"))))
        except ValueError as exc:
            refused.append((number, f"the deal cannot be read ({exc})"))
            continue
        why = check_board(board, pairs, commitment)
        if why:
            refused.append((number, why.replace(f"board {number}'s record", "the record")))
        else:
            taken[number] = board
    return RecordsVerdict(commitment, taken, tuple(refused), matched)
