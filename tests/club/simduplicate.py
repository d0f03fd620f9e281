"""Simulated duplicate tables for the tests of the session's side alone: each plays the boards its seating
gives it and publishes each confirmed result through a real journal and a real ``MqttPublisher`` (outbox,
at-least-once), without a table's controller or law engine: the results and fouls are made up here
(``duplicate.simplay``). The tests of the session's link and of the director's and tables' pages use them
to drive the session end to end through a real broker cheaply. ``cardtable duplicate demo`` no longer does:
its tables are real (``firmware_host.evening``).

:class:`DuplicateTable` is what such a test needs of a table (``start``, ``step``, ``stop``, ``table``).

The boards in the room are :class:`BoardRoom`: the copies the tables play from. A copy can be misboarded
from some round on (:meth:`BoardRoom.misboard`: two cards swapped between two pockets); a table playing
it bids and plays the cards as they are, checks every card against the record
(``duplicate.simplay.check_against_record``) and reports the first wrong card as a fouled-board call.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from firmware_host.duplicate.simplay import check_against_record, misboard, play_board
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.wire.duplicate import result_body
from laws.cards import Card
from laws.duplicate.deal import Board, Deal

log = logging.getLogger(__name__)

RESEND_AFTER = 3.0  # seconds a confirmed result may stay unanswered before the table sends it again


@dataclass(frozen=True)
class Misboarding:
    """A copy of ``board`` misboarded before ``from_round`` (``table``: that table's own copy, or 0: the
    one copy that travels), with ``moved`` and ``back`` in each other's pockets."""

    board: int
    from_round: int
    table: int
    moved: Card
    back: Card


class BoardRoom:
    """The boards the tables play from (``per_table``: every table has its own copy, as in a barometer
    dealt by each table's shoe)."""

    def __init__(self, records: Mapping[int, Board], per_table: bool = False) -> None:
        self.records = dict(records)
        self.per_table = per_table
        self.misboardings: list[Misboarding] = []
        self._fouled: dict[tuple[int, int], tuple[int, Deal]] = {}
        self._lock = threading.Lock()

    def misboard(self, board: int, from_round: int, table: int, rng: random.Random) -> Misboarding:
        deal, a, b = misboard(self.records[board].deal, rng)
        m = Misboarding(board, from_round, table if self.per_table else 0, a, b)
        with self._lock:
            self._fouled[(board, m.table)] = (from_round, deal)
            self.misboardings.append(m)
        return m

    def held(self, board: int, table: int, rnd: int) -> Deal:
        """The cards in the copy of ``board`` that ``table`` plays in round ``rnd``."""
        with self._lock:
            fouled = self._fouled.get((board, table if self.per_table else 0))
        if fouled is not None and rnd >= fouled[0]:
            return fouled[1]
        return self.records[board].deal


class DuplicateTable(Protocol):
    """What the demo needs of a table: the real controller will take this place."""

    table: str

    def start(self) -> None: ...

    def step(self) -> bool: ...

    def stop(self) -> None: ...


class SimDuplicateTable:
    """One simulated duplicate table.

    Args:
        table: its club id (and broker login).
        journal: its journal (the outbox is in the same file).
        publisher: its publisher (``on_session`` is wired here, before ``start``).
        room: the boards.
        rng: the simulation's choices (bids and cards).
        section: the section it plays in.
        clock: wall-clock seconds for the journal rows.
    """

    def __init__(self, table: str, journal: Journal, publisher: MqttPublisher, room: BoardRoom,
                 rng: random.Random, section: str = "A", clock: Callable[[], float] = time.time) -> None:
        self.table = table
        self.journal = journal
        self.publisher = publisher
        self.room = room
        self.rng = rng
        self.section = section
        self.clock = clock
        self.seating: dict[str, Any] | None = None
        self.played: set[tuple[int, int]] = set()   # (round, board) this table has confirmed
        self.unanswered: dict[tuple[int, int], tuple[dict[str, Any], float]] = {}
        self.sent = 0
        self.resent = 0
        self._lock = threading.Lock()
        publisher.on_session(self._on_session)

    def _on_session(self, msg: dict[str, Any]) -> None:
        if msg.get("kind") == "seating":
            with self._lock:
                self.seating = msg

    def start(self) -> None:
        self.publisher.start()

    def stop(self) -> None:
        self.publisher.stop()
        self.journal.close()

    def next_board(self) -> tuple[dict[str, Any], int] | None:
        """The seating and the next board this table has to play now, or None."""
        with self._lock:
            s = self.seating
        if s is None or s.get("sit_out"):
            return None
        for b in s.get("left", []):
            if (s["round"], b) not in self.played:
                return s, b
        return None

    def _answered(self) -> None:
        """Forget the results the session has answered (its seating no longer lists the board as left, or
        names it in its answers); send again any left unanswered for ``RESEND_AFTER`` seconds (the
        broker lost it: a restart without persistence)."""
        with self._lock:
            s = self.seating
        if s is None:
            return
        answered = {a.get("board") for a in s.get("answers", []) if a.get("status") in ("taken", "repeat", "refused")}
        now = time.monotonic()
        for (rnd, board), (body, at) in list(self.unanswered.items()):
            if board in answered or rnd < s["round"] or (rnd == s["round"] and board not in s.get("left", [])):
                del self.unanswered[(rnd, board)]
            elif now - at > RESEND_AFTER:
                seq = self.journal.append("note", {"board_result_again": body}, self.clock())
                self.publisher.board_result(body, seq)
                self.unanswered[(rnd, board)] = (body, now)
                self.resent += 1

    def step(self) -> bool:
        """Play and confirm one board if there is one to play; True when it did."""
        self._answered()
        found = self.next_board()
        if found is None:
            return False
        s, number = found
        record = self.room.records[number]
        played = play_board(record, self.room.held(number, s["table_number"], s["round"]), self.rng)
        verified, foul = check_against_record(record, played.play)
        body = result_body(
            section=self.section, table_number=s["table_number"], round=s["round"], board=number, ns=s["ns"],
            ew=s["ew"], contract=played.contract.code if played.contract else "Pass",
            declarer=played.declarer.value if played.declarer else None, tricks=played.tricks,
            lead=played.lead.code if played.lead else None, record=record.fingerprint, verified=verified,
            foul=foul, play=[c.code for _s, c in played.play], auction=list(played.auction),
            confirmed={"ns": "N", "ew": "E"})
        seq = self.journal.append("note", {"board_result": body}, self.clock())
        self.publisher.board_result(body, seq, deal=len(self.played) + 1)
        self.played.add((s["round"], number))
        self.unanswered[(s["round"], number)] = (body, time.monotonic())
        self.sent += 1
        return True
