"""The one error of hand-record files, and the checks every format shares.

A :class:`HandRecordError`'s message names the file, the board (when there is one) and where in the
board (a PBN tag, a byte range), then what is wrong:
``boards.pbn: board 7 [Deal]: North holds 12 cards``. The CLI prints it as it is and exits 2.
"""

from __future__ import annotations

from collections.abc import Sequence

from laws.cards import Seat
from laws.duplicate.boards import LAW as DB2_LAW
from laws.duplicate.boards import Vulnerability, dealer, vulnerability
from laws.duplicate.deal import Board

DB6_LAW = "Duplicate Bridge, law 6"
MAX_BOARDS = 999            # a club's set is a few hundred boards at most (DUP's control has 3 digits)
MAX_BYTES = 8 * 1024 * 1024  # 8 MiB: a results PBN of 999 boards with every table's game fits easily
LIMIT_WORDS = (f"a hand-record file holds at most {MAX_BOARDS} boards and {MAX_BYTES // (1024 * 1024)} MiB "
               "(a club's set is a few hundred boards at most)")


class HandRecordError(ValueError):
    """A hand-record file that cannot be used as it is."""

    def __init__(self, file: str, problem: str, *, board: int | None = None, where: str | None = None,
                 sep: str = ": ") -> None:
        self.file, self.problem, self.board, self.where, self.sep = file, problem, board, where, sep
        head = file + (f": board {board}" if board is not None else "") + (f" {where}" if where else "")
        super().__init__(f"{head}{sep if board is not None or where else ': '}{problem}")


def check_db2(file: str, number: int, said_dealer: Seat | None, said_vul: Vulnerability | None,
              dealer_where: str = "[Dealer]", vul_where: str = "[Vulnerable]") -> None:
    """Refuse a dealer or vulnerability that is not the board number's (``DB-2``)."""
    if said_dealer is not None and said_dealer is not dealer(number):
        raise HandRecordError(file, f"says {said_dealer} but board {number} is dealt by {dealer(number)} "
                              f"({DB2_LAW})", board=number, where=dealer_where, sep=" ")
    if said_vul is not None and said_vul is not vulnerability(number):
        raise HandRecordError(file, f"says {said_vul.value} but board {number} has "
                              f"{vulnerability(number).words} ({DB2_LAW})", board=number, where=vul_where, sep=" ")


def too_many(file: str, number: int, where: str | None = None) -> HandRecordError:
    """The error for board ``number`` read when :data:`MAX_BOARDS` are read already (the reader stops
    there, whatever follows)."""
    return HandRecordError(file, f"one board more than {MAX_BOARDS}: {LIMIT_WORDS}; nothing after it was read",
                           board=number, where=where)


def check_boards(file: str, boards: Sequence[Board], where: Sequence[str] | None = None,
                 deal_where: str | None = None) -> list[Board]:
    """Refuse a board number given twice and a deal given for two boards (a dealing run that went
    wrong; ``DB-6``); ``where`` says where each board starts in the file (e.g. ``"line 12"``) and
    ``deal_where`` where a board's deal is (``"[Deal]"``)."""
    first_at: dict[int, int] = {}
    deal_of: dict[str, int] = {}
    for i, b in enumerate(boards):
        if b.number in first_at:
            places = f" ({where[first_at[b.number]]} and {where[i]})" if where else ""
            raise HandRecordError(file, f"appears twice{places}", board=b.number, sep=" ")
        first_at[b.number] = i
        if b.fingerprint in deal_of:
            raise HandRecordError(file, f"the same deal as board {deal_of[b.fingerprint]} (a repeated deal; "
                                  f"{DB6_LAW})", board=b.number, where=deal_where)
        deal_of[b.fingerprint] = b.number
    return list(boards)
