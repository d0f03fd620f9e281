"""A duplicate soak's folder: what the evening leaves on disk, written by the soak and read back alone.

The checker (``dup_judge``) reads nothing else, so ``cardtable soak --check DIR`` judges a folder long
after the run, and a test can judge broken copies of one. The folder:

* ``soak.json``: the soak's plan, written before anything runs (``{"soak": "duplicate", "version": 1,
  "seed", "session", "tables": [{"table", "how", "round", "ns", "ew", "boards", "journal"}], "short":
  {table: [the shoe's deal numbers dealt from a pack short of a card]}}``; ``journal`` is the table's
  journal, relative to the folder). Misboardings are not in it: the checker finds them in the cards.
* ``commitment.txt``: the hand records' commitment (``docs/handrecords.md``), published before the
  station deals.
* ``station/boards.pbn``, ``station/station.sqlite3``: the station's hand records and journal.
* ``station/pockets.json``: physical truth the station cannot write: the virtual shoe's pockets when the
  station said each board was dealt (``{board: {destination: [cards]}}``).
* ``played.json``: the people's own record: for each board each table played, the cards the players
  held and every card they played, in order, the contract they bid, their confirmations, and the cards
  they found missing from the shoe's pack and put in its well (``short_back``); and whether the shoe dealt
  the board from a pack short of a card (``short_pack``: the virtual shoe's fault, physical truth).
* each table's journal; with a session, ``club/session/session.sqlite3``, the session's journal.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.soak.dup_check import PlayedBoard
from firmware_host.soak.dup_schedule import DupSchedule
from laws.cards import Seat
from laws.duplicate.deal import Board, Deal

MANIFEST = "soak.json"
VERSION = 1


class NotASoak(ValueError):
    """The folder is not a duplicate soak's (one message naming what is missing or malformed, and where)."""


@dataclass(frozen=True)
class TableEntry:
    """One table of the plan: its number, how its boards are dealt, its boards in order, its journal."""

    table: int
    how: str
    boards: tuple[int, ...]
    journal: str


@dataclass(frozen=True)
class Manifest:
    seed: int
    session: bool
    tables: tuple[TableEntry, ...]
    short: Mapping[int, tuple[int, ...]]


def write_plan(folder: Path, schedule: DupSchedule, session: bool, journals: Mapping[int, str]) -> None:
    """``soak.json`` and ``commitment.txt``, before the station deals (``journals``: each table's journal,
    relative to the folder)."""
    from laws.duplicate.deal import commitment

    folder.mkdir(parents=True, exist_ok=True)
    body = {"soak": "duplicate", "version": VERSION, "seed": schedule.seed, "session": session,
            "tables": [{"table": p.table, "how": p.how, "round": p.round, "ns": p.ns, "ew": p.ew,
                        "boards": list(p.boards), "journal": journals[p.table]} for p in schedule.tables],
            "short": {str(t): list(v) for t, v in schedule.short.items()}}
    (folder / MANIFEST).write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    (folder / "commitment.txt").write_text(commitment(schedule.records.values()) + "\n", encoding="ascii")


def write_pockets(folder: Path, pockets: Mapping[int, Mapping[int, Sequence[str]]]) -> None:
    body = {str(b): {str(d): list(c) for d, c in held.items()} for b, held in pockets.items()}
    (folder / "station").mkdir(parents=True, exist_ok=True)
    (folder / "station" / "pockets.json").write_text(json.dumps(body) + "\n", encoding="utf-8")


def write_played(folder: Path, played: Iterable[PlayedBoard]) -> None:
    body = [{"table": p.table, "round": p.round, "board": p.record.number, "held": p.held.pbn(Seat.N),
             "how": p.how, "contract": p.contract, "declarer": p.declarer, "play": [list(x) for x in p.play],
             "confirmed": p.confirmed, "confirms": p.confirms, "short_back": p.short_back,
             "short_pack": p.short_pack} for p in played]
    (folder / "played.json").write_text(json.dumps(body) + "\n", encoding="utf-8")


def _json(path: Path, what: str, error: type[ValueError] = ValueError) -> Any:
    """A JSON file; ``error`` (``NotASoak`` for the plan, ``ValueError``: a broken soak) names what is wrong."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: no {what}" + (" (is this a duplicate soak's folder?)" if error is NotASoak else "")) \
            from None
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise error(f"{path}: {what} cannot be read ({str(exc)[:120]})") from None


def read_manifest(folder: Path) -> Manifest:
    """The plan; raises ``NotASoak`` naming the file and what is wrong."""
    if not folder.is_dir():
        raise NotASoak(f"{folder}: not a folder")
    path = folder / MANIFEST
    body = _json(path, "soak plan (soak.json)", NotASoak)
    try:
        if not isinstance(body, dict) or body.get("soak") != "duplicate":
            raise ValueError('it is not a duplicate soak\'s plan ("soak": "duplicate" missing)')
        if body.get("version") != VERSION:
            raise ValueError(f"version {body.get('version')!r}, this checker reads version {VERSION}")
        tables = tuple(TableEntry(int(t["table"]), str(t["how"]), tuple(int(b) for b in t["boards"]),
                                  str(t["journal"])) for t in body["tables"])
        short = {int(k): tuple(int(x) for x in v) for k, v in dict(body.get("short") or {}).items()}
        if not tables or any(t.how not in ("board", "shoe") or ".." in Path(t.journal).parts for t in tables):
            raise ValueError("its tables are missing, or one's \"how\" or \"journal\" is not the soak's")
        return Manifest(int(body["seed"]), bool(body["session"]), tables, short)
    except (KeyError, TypeError, ValueError) as exc:
        what = f"the field {exc} is missing" if isinstance(exc, KeyError) else str(exc)
        raise NotASoak(f"{path}: {what}") from None


def read_pockets(folder: Path) -> dict[int, dict[int, list[str]]]:
    """The virtual shoe's pockets; a malformed file is a ``ValueError`` (a broken soak, judged a failure)."""
    body = _json(folder / "station" / "pockets.json", "pockets of the station's shoe")
    try:
        return {int(b): {int(d): [str(c) for c in cards] for d, cards in held.items()} for b, held in body.items()}
    except (AttributeError, TypeError, ValueError) as exc:
        raise ValueError(f"{folder / 'station' / 'pockets.json'}: malformed ({exc})") from None


def read_played(folder: Path, records: Mapping[int, Board]) -> list[PlayedBoard]:
    """The people's record, each board tied to its hand record (``records``, from the station's file)."""
    body = _json(folder / "played.json", "record of the people's play (played.json)")
    out = []
    try:
        for p in body:
            record = records.get(int(p["board"]))
            if record is None:
                raise ValueError(f"board {p['board']} is not in the hand records")
            out.append(PlayedBoard(int(p["table"]), int(p["round"]), record, Deal.from_pbn(str(p["held"])), None,
                                   str(p["how"]), p["contract"], p["declarer"],
                                   [(str(s), str(c)) for s, c in p["play"]], bool(p["confirmed"]),
                                   short_back=int(p["short_back"]), confirms=int(p["confirms"]),
                                   short_pack=bool(p.get("short_pack", False))))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{folder / 'played.json'}: malformed ({exc})") from None
    return out
