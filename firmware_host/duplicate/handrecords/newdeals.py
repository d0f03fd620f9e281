"""New deals from the operating system's randomness, and the club's record of every deal it has used.

:func:`new_boards` shuffles a full pack with :class:`secrets.SystemRandom` (the operating system's
randomness: every one of the 5.36 x 10^28 deals is equally likely; never a seeded generator) and deals
it thirteen a seat. A deal whose fingerprint is in ``seen`` (the club's earlier sessions) or repeats
one already drawn is put aside and drawn again, and the returned list's ``notes`` say so (``DB-6``: a
result cannot stand from another session's deal).

:class:`FingerprintStore` is that record: an append-only text file, ``deal-fingerprints.txt`` in a data
folder, one line per board dealt, ``<fingerprint> <board> <session>``, after a ``#`` header line.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable, Iterable
from pathlib import Path

from firmware_host.duplicate.handrecords.errors import DB6_LAW, HandRecordError
from laws.cards import SEATS, Card, full_pack
from laws.duplicate.deal import Board, Deal

Shuffle = Callable[[list[Card]], None]
STORE_FILE = "deal-fingerprints.txt"
STORE_HEADER = "# cardtable deal fingerprints 1: <sha-256 of the deal> <board> <session>"


class NewBoards(list[Board]):
    """The boards drawn, in number order, and ``notes``: every deal drawn again and why."""

    notes: list[str]

    def __init__(self, boards: Iterable[Board] = (), notes: Iterable[str] = ()) -> None:
        super().__init__(boards)
        self.notes = list(notes)


def deal_of(pack: list[Card]) -> Deal:
    """The deal of a pack in dealing order: cards 1-13 to North, 14-26 East, 27-39 South, 40-52 West."""
    return Deal.from_hands({seat: pack[13 * k:13 * k + 13] for k, seat in enumerate(SEATS)})


MAX_BOARDS = 999  # a set of boards: DUP's duplication control has three digits for its board numbers


def new_boards(count: int, first: int = 1, *, seen: Iterable[str] = frozenset(),
               shuffle: Shuffle | None = None, attempts: int = 100) -> NewBoards:
    """``count`` new boards numbered from ``first``.

    ``shuffle`` is for tests only (a scripted shuffle that repeats a deal on purpose); the default is
    ``secrets.SystemRandom().shuffle``. ``attempts`` bounds the redraws of one board.
    """
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_BOARDS:
        raise ValueError(f"the number of boards (--count) is a whole number from 1 to {MAX_BOARDS}, got {count!r}")
    if isinstance(first, bool) or not isinstance(first, int) or first < 1:
        raise ValueError(f"the first board number is a whole number from 1, got {first!r}")
    mix = shuffle or secrets.SystemRandom().shuffle
    earlier = frozenset(seen)
    drawn: dict[str, int] = {}
    out = NewBoards()
    for number in range(first, first + count):
        for _ in range(attempts):
            pack = list(full_pack())
            mix(pack)
            deal = deal_of(pack)
            fp = deal.fingerprint
            if fp in earlier:
                out.notes.append(f"board {number}: drew a deal the club has used before ({fp[:12]}...); "
                                 f"drew again ({DB6_LAW})")
            elif fp in drawn:
                out.notes.append(f"board {number}: drew the deal of board {drawn[fp]} again; drew again ({DB6_LAW})")
            else:
                break
        else:
            raise RuntimeError(f"board {number}: {attempts} draws all repeated an earlier deal; "
                               "the shuffle is not random")
        drawn[fp] = number
        out.append(Board.numbered(number, deal))
    return out


class FingerprintStore:
    """The fingerprints of every deal the club has used, in ``folder/deal-fingerprints.txt``.

    Lines are only ever appended (and flushed to the disk before :meth:`record` returns), so a
    session's check covers every earlier session.
    """

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / STORE_FILE

    def entries(self) -> dict[str, str]:
        """Fingerprint -> where it was used (``"board 7 of session S"``); empty if there is no file yet."""
        return {fp: f"board {board} of session {session!r}" for fp, (board, session) in self.recorded().items()}

    def recorded(self) -> dict[str, tuple[str, str]]:
        """Fingerprint -> the board number and the session it was first recorded under."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise HandRecordError(str(self.path), f"cannot be read ({exc.strerror or exc})") from None
        out: dict[str, tuple[str, str]] = {}
        for lineno, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split(" ", 2)
            if len(parts) < 3 or len(parts[0]) != 64 or not all(c in "0123456789abcdef" for c in parts[0]):
                raise HandRecordError(str(self.path), f"not '<fingerprint> <board> <session>': {line[:60]!r}",
                                      where=f"line {lineno}")
            out.setdefault(parts[0], (parts[1], parts[2]))
        return out

    def fingerprints(self) -> frozenset[str]:
        """Every fingerprint in the store."""
        return frozenset(self.entries())

    def record(self, boards: Iterable[Board], session: str) -> int:
        """Append the boards' fingerprints under ``session`` (one line, no line breaks); returns how many."""
        label = " ".join(session.split())
        if not label:
            raise ValueError("a session needs a name")
        lines = [f"{b.fingerprint} {b.number} {label}\n" for b in boards]
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists()
        try:
            with self.path.open("a", encoding="utf-8") as f:
                if new:
                    f.write(STORE_HEADER + "\n")
                f.writelines(lines)
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            raise HandRecordError(str(self.path), f"cannot be written ({exc.strerror or exc})") from None
        return len(lines)
