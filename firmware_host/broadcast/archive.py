"""After the session: LIN records and replay pages from the tables' journals (``cardtable broadcast export``).

Each table's journal is opened read-only and its hash chain verified (a broken chain is refused: a replay
must show what the table committed, nothing else). Its rows are folded by
:class:`laws.broadcast.feed.TableFeed`; every board with at least one call or card becomes:

* ``lin/board-<b>-table-<t>.lin``: the board as one LIN record (``laws.broadcast.lin``), and
  ``lin/session.lin`` with every record, one a line, boards in order then tables;
* ``replay/index.html`` (every board, every table's contract and result) and ``replay/board-<b>.html``
  (every table's play of that board, card by card: ``replay_html.py``).

Names: the pairs' labels the tables journaled (``1 NS``), or the players' names when the session's or
event's names give them (``sides``, as the live broadcast names them); a teams event's closed room is
``c`` in ``qx`` (``rooms``), as the live LIN has it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_host.broadcast.replay_html import board_page, index_page, play_data
from firmware_host.records.journal import Journal, JournalError
from laws.broadcast.event_field import named_side
from laws.broadcast.feed import BoardPlay, TableFeed
from laws.broadcast.lin import lin_record
from laws.cards import Seat


class ArchiveError(ValueError):
    """A journal that cannot be archived, or an output that cannot be written; the message says which."""


@dataclass(frozen=True)
class Archive:
    """What was written: the boards per table, and the files."""

    boards: Mapping[int, tuple[BoardPlay, ...]]
    files: tuple[Path, ...]


def table_boards(journal_paths: Iterable[str | Path]) -> dict[int, list[BoardPlay]]:
    """Every played board of every journal, by board number (tables in order)."""
    out: dict[int, list[BoardPlay]] = {}
    for k, where in enumerate(journal_paths, 1):
        try:
            journal = Journal.open_readonly(where)
        except (OSError, ValueError) as exc:
            raise ArchiveError(f"{where}: {exc}") from None
        except JournalError as exc:  # not a journal, empty, corrupt: its message names the file already
            raise ArchiveError(f"{exc}; nothing archived") from None
        with journal:
            try:
                result = journal.verify()
                if result.bad_seq is not None:
                    raise ArchiveError(f"TAMPERED: {result.message()}; nothing archived")
                feed = TableFeed(k)
                feed.add_all((r.seq, r.kind, r.body, r.t) for r in journal.rows())
            except JournalError as exc:  # SQLite's own check failed: unreadable, not tampered with
                raise ArchiveError(f"{exc}; nothing archived") from None
        for b in feed.boards:
            if b.calls or b.cards or b.finished:
                out.setdefault(b.board, []).append(b)
    for plays in out.values():
        plays.sort(key=lambda b: b.table)
    return dict(sorted(out.items()))


def write_archive(journal_paths: Iterable[str | Path], out: str | Path, *, title: str = "",
                  names: Mapping[tuple[int, int], Mapping[Seat, str]] | None = None, force: bool = False,
                  sides: Mapping[str, tuple[str, str]] | None = None, rooms: Mapping[int, str] | None = None) -> Archive:
    """Write the LIN folder and the replay pages under ``out`` (which must be empty unless ``force``).

    ``names`` names the seats of a (table, board); else ``sides`` (a side's label, or its section's and
    label, -> its two names, North or East first: ``SessionNames.sides``) names them from the board's labels.
    ``rooms``: a teams event's table -> ``o`` or ``c`` (the others are ``o``)."""
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise ArchiveError(f"--out {root}: is a file; name a folder")
    if root.is_dir() and any(root.iterdir()) and not force:
        raise ArchiveError(f"--out {root}: the folder is not empty (--force writes over what is there)")
    boards = table_boards(journal_paths)
    if not boards:
        raise ArchiveError("no duplicate board with any call or card in the journals given")
    files: list[Path] = []
    try:
        (root / "lin").mkdir(parents=True, exist_ok=True)
        (root / "replay").mkdir(parents=True, exist_ok=True)
        records = []
        for number, plays in boards.items():
            for b in plays:
                rec = lin_record(b, (names or {}).get((b.table, number)) or _seat_names(b, sides or {}),
                                 (rooms or {}).get(b.table, "o"))
                records.append(rec)
                path = root / "lin" / f"board-{number:02d}-table-{b.table:02d}.lin"
                path.write_text(rec + "\n", encoding="utf-8")
                files.append(path)
            page = root / "replay" / f"board-{number:02d}.html"
            page.write_text(board_page(title, number, plays, sorted(boards)), encoding="utf-8")
            files.append(page)
        session = root / "lin" / "session.lin"
        session.write_text("".join(r + "\n" for r in records), encoding="utf-8")
        index = root / "replay" / "index.html"
        index.write_text(index_page(title, boards), encoding="utf-8")
        data = root / "replay" / "boards.json"
        data.write_text(json.dumps({str(n): [play_data(b) for b in plays] for n, plays in boards.items()},
                                   sort_keys=True), encoding="utf-8")
        files += [session, index, data]
    except OSError as exc:
        raise ArchiveError(f"--out {root}: {exc.strerror or exc}") from None
    return Archive({n: tuple(p) for n, p in boards.items()}, tuple(files))


def _seat_names(b: BoardPlay, sides: Mapping[str, tuple[str, str]]) -> dict[Seat, str]:
    """The seats' names from the sides' (``Releaser._seat_names`` does the same for the live LIN)."""
    out: dict[Seat, str] = {}
    for label, seats in ((b.ns, (Seat.N, Seat.S)), (b.ew, (Seat.E, Seat.W))):
        pair = named_side(sides, b.section, str(label)) if label is not None else None
        if pair:
            out.update(zip(seats, pair))
    return out
