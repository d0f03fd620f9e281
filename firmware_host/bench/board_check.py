"""What ``cardtable bench board`` measures of a board beyond the line (``board.py``): the dealing station's
host work per board with its journal, and the per-card check of a duplicate table, shown constant.

1. **The dealing station's CPU per board**: the frames of one whole board as the reference firmware
   writes them, fed to a fresh ``ShoeSession`` and a ``DealingStation``. Thread CPU time per board, median
   of repeats, twice side by side: with a journal that keeps rows in memory (the station's own work:
   target under 5 ms a board) and with its real journal (SQLite, ``synchronous`` NORMAL and FULL: one
   commit a shoe message, as the station acknowledges nothing uncommitted; FULL's fsync is counted in the
   thread's CPU time by the kernel).
2. **The per-card check**: ``RecordCheck.see`` (``Deal.holder`` and one count) timed at each position 1-52
   of a board, and a duplicate table's engine (``duplicate-bridge``: the record check before the play's
   clauses) timed for each card by trick: medians of the first and the last trick side by side, and their
   ratio (constant time: about 1).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from typing import Any

from firmware_host.bench.report import ChecksFailed
from laws.cards import SEATS, clockwise_from, full_pack
from laws.duplicate.check import RecordCheck
from laws.duplicate.deal import Board, Deal


def _board(seed: int, number: int = 1) -> Board:
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(seed).shuffle(seats)
    return Board.numbered(number, Deal(tuple(seats)))


class _MemoryJournal:
    """Rows kept in a list: the station's work without the disk's."""

    path = "memory"

    def __init__(self) -> None:
        self.kept: list[Any] = []

    def rows(self) -> Any:
        return iter(())

    def append_many(self, rows: list[Any]) -> list[int]:
        self.kept += rows
        return list(range(len(self.kept) - len(rows) + 1, len(self.kept) + 1))

    def __enter__(self) -> _MemoryJournal:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def station_cpu(board_frames: tuple[list[bytes], Any, bytes], reps: int, journal: str = "memory") -> dict[str, float]:
    """Thread CPU time for a dealing station to take one whole board in (session, tracker, its journal:
    ``memory``, or SQLite with ``NORMAL`` or ``FULL``); ``board_frames`` as ``board._board_frames``
    gives them (the frames, the command, what the shoe said first)."""
    from dataclasses import replace

    from firmware_host.duplicate.station.dealing import DealingStation
    from firmware_host.records.journal import Journal
    from firmware_host.shoe.session import ShoeSession

    frames, cmd, hello = board_frames
    board = Board.numbered(1, Deal(tuple(cmd.seats)))

    class _Link:
        online = caught_up = True
        can_deal_boards = True

        def __init__(self, session: ShoeSession) -> None:
            self.session = session

        @property
        def boot_id(self) -> int | None:
            return self.session.boot_id

        def send(self, c: Any) -> Any:
            return replace(cmd, cmd=1)

        def acknowledge(self, seq: int, boot: int | None = None) -> None:
            self.session.acknowledge(seq)

    per_board = []
    with tempfile.TemporaryDirectory(prefix="cardtable-bench-station-") as folder:
        for i in range(reps):
            s = ShoeSession(session_id=1, offline_after=1e9)
            s.connection_made(0.0)
            s.receive(hello, 0.0)
            s.command(cmd, 0.0)
            link = _Link(s)
            opened: Any = _MemoryJournal() if journal == "memory" else \
                Journal.open(f"{folder}/s{i}.sqlite3", synchronous=journal)
            with opened as j:
                st = DealingStation([board], j, link, time.time)
                st.command("")
                t0 = time.thread_time()
                for k, f in enumerate(frames):
                    events, _out = s.receive(f, 0.001 * (k + 1))
                    for ev in events:
                        st.feed(ev)
                per_board.append(time.thread_time() - t0)
                if not st.log.board(1).done:
                    raise ChecksFailed(f"the station did not finish board 1: {st.status()}")
    med = statistics.median(per_board)
    return {"per_board_ms_median": med * 1000, "per_board_ms_max": max(per_board) * 1000, "repeats": reps}


def check_per_card(reps: int) -> dict[str, float]:
    """``RecordCheck.see`` at card 1 and card 52 of a board, side by side."""
    pack = full_pack()
    first: list[float] = []
    last: list[float] = []
    for r in range(reps):
        board = _board(r)
        cards = [(board.deal.holder(c), c) for c in pack]
        random.Random(r).shuffle(cards)
        check = RecordCheck(board)
        times = []
        for seat, card in cards:
            t0 = time.perf_counter_ns()
            check.see(seat, card)
            times.append(time.perf_counter_ns() - t0)
        first.append(statistics.median(times[:4]))
        last.append(statistics.median(times[-4:]))
    a, b = statistics.median(first), statistics.median(last)
    return {"first_trick_ns_median": a, "last_trick_ns_median": b, "last_over_first": b / a, "boards": reps}


def engine_per_card(reps: int) -> dict[str, float]:
    """A duplicate table's engine, each card of a board played as its record says: CPU time per card by
    trick (the record check, then the auction and play's clauses)."""
    from laws.engine import LawEngine
    from laws.events import BoardPlaced, CallMade, CardPlayed

    by_trick: dict[int, list[float]] = {t: [] for t in range(1, 14)}
    for r in range(reps):
        board = _board(r, number=1 + r % 16)
        eng = LawEngine("duplicate-bridge")
        eng.feed(BoardPlaced(board.number, board.fingerprint, board.deal.pbn(), table=1, round=1))
        for i, call in enumerate(("1NT", "pass", "pass", "pass")):
            eng.feed(CallMade(clockwise_from(board.dealer)[i], call))
        rng = random.Random(r)
        for _ in range(52):
            play = eng.state.deal.bridge.play  # type: ignore[union-attr]
            seat = play.turn
            left = [c for c in board.deal.hand(seat) if c not in play.played_by]
            led = play.current.suit_led
            card = rng.choice([c for c in left if c.suit == led] or left)
            trick = play.trick_number
            t0 = time.perf_counter_ns()
            eng.feed(CardPlayed(seat, card))
            by_trick[trick].append(time.perf_counter_ns() - t0)
    a, b = statistics.median(by_trick[1]), statistics.median(by_trick[13])
    return {"trick_1_us_median": a / 1000, "trick_13_us_median": b / 1000, "trick_13_over_1": b / a,
            "boards": reps}
