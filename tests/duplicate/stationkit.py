"""A dealing station in the test's thread: the virtual shoe on a real pty, a real ``ShoeLink`` (acknowledged
after the journal commits), a real journal, and the station fed from the link's queue."""

from __future__ import annotations

import queue
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from firmware_host.duplicate.station.dealing import DealingStation, StationState
from firmware_host.records.journal import Journal
from firmware_host.shoe.codec import PACK
from firmware_host.shoe.link import ShoeLink
from firmware_host.shoe.virtual import VirtualShoe
from laws.cards import SEATS
from laws.duplicate.deal import Board, Deal

REJECT = 5


def boards(count: int, seed: int = 1, first: int = 1) -> list[Board]:
    rng = random.Random(seed)
    out = []
    for n in range(first, first + count):
        seats = [SEATS[k % 4] for k in range(52)]
        rng.shuffle(seats)
        out.append(Board.numbered(n, Deal(tuple(seats))))
    return out


class Rig:
    """One station; ``pump`` until a condition holds (no sleeping on a guess: the queue says when)."""

    def __init__(self, folder: Path, records: list[Board], shoe: VirtualShoe | None = None,
                 journal: str = "station.sqlite3", **shoe_kw: Any) -> None:
        self.folder = folder
        self.records = records
        self.shoe = shoe or VirtualShoe("contract-bridge", 31, directory=str(folder), **shoe_kw)
        self.path = self.shoe.open() if shoe is None else self.shoe.path
        self.journal = Journal.open(folder / journal)
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.link = ShoeLink(self.path, self.inbox.put, backoff=(0.01, 0.1), auto_ack=False)
        self.station = DealingStation(records, self.journal, self.link, time.time, file="test.pbn")
        self.said: list[str] = []
        self.events: list[Any] = []
        self.pockets: dict[int, dict[int, list[Any]]] = {}

    def start(self) -> Rig:
        self.station.resume_link()
        self.link.start()
        return self

    def say(self, text: str) -> list[str]:
        out = self.station.command(text)
        self.said += out
        return out

    def pump(self, until: Callable[[], bool], timeout: float = 20.0) -> None:
        end = time.monotonic() + timeout
        while not until():
            assert time.monotonic() < end, f"timed out in state {self.station.state}; said {self.said[-4:]}"
            try:
                ev = self.inbox.get(timeout=0.05)
            except queue.Empty:
                ev = None
            if ev is not None:
                self.events.append(ev)
                self.said += self.station.feed(ev)
                n = self.station.log.in_station
                if n is not None:
                    self.pockets[n] = self.shoe.pockets
            self.said += self.station.tick()

    def state_is(self, *states: StationState) -> Callable[[], bool]:
        return lambda: self.station.state in states

    def close(self, shoe: bool = True) -> None:
        self.link.stop()
        if shoe:
            self.shoe.close()
        self.journal.close()


def hold_at(shoe: VirtualShoe, cards: int) -> None:
    """The dealer's hand stops the shoe once ``cards`` cards of the board are out (it deals on only after
    ten minutes), on the shoe's own thread: a test woken late still finds the board mid-way."""
    shoe.when(lambda: shoe.firmware.board is not None and shoe.firmware.board.count >= cards,
              lambda: shoe.hw.pace(shoe._ms(), 600_000))


def pockets_follow(pockets: dict[int, list[Any]], board: Board) -> bool:
    """Every card in a seat's pocket is the record's for that seat."""
    return all(board.deal.holder(p.card) is SEATS[dest] for dest, cards in pockets.items() if dest != REJECT
               for p in cards)


def in_pockets(pockets: dict[int, list[Any]]) -> set[Any]:
    return {p.card for dest, cards in pockets.items() if dest != REJECT for p in cards}


ALL = frozenset(PACK)
