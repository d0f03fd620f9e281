"""A duplicate table for the controller tests: records, a controller with its procedure, and players who
bid 3NT by the dealer and play legal cards of the hands as they hold them (the record's, or a misboarded
copy), worked out here from the hands and the cards played."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.table.controller import ButtonInput, LawInput, TableController
from firmware_host.table.duplicate import DuplicateProcedure, TableRound
from laws.cards import SEATS, Card, Seat, clockwise_from
from laws.duplicate.deal import Board, Deal
from laws.events import CallMade, CardPlayed
from laws.rulings import Ruling
from tests.table.test_controller import Clock


def records(count: int, seed: int = 1) -> dict[int, Board]:
    rng = random.Random(seed)
    out = {}
    for n in range(1, count + 1):
        seats = [SEATS[k % 4] for k in range(52)]
        rng.shuffle(seats)
        out[n] = Board.numbered(n, Deal(tuple(seats)))
    return out


def table(folder: Path, recs: dict[int, Board], seating: TableRound | None, how: str = "board",
          link: Any | None = None, source: str = "config") -> tuple[TableController, DuplicateProcedure, Journal]:
    j = Journal.open(folder)
    ctl = TableController(game="duplicate-bridge", journal=j, panel=None, clock=Clock())
    proc = DuplicateProcedure(ctl, recs, seating, how, link, source=source)
    proc.resume()
    ctl.drain()
    return ctl, proc, j


def run(ctl: TableController, item: Any) -> list[Ruling]:
    out = ctl.process(item)
    ctl.drain()                                          # what the procedure submitted in reply
    return out


def bid(ctl: TableController, board: Board, text: str = "3NT pass pass pass") -> list[Ruling]:
    seats = clockwise_from(board.dealer)
    out: list[Ruling] = []
    for i, c in enumerate(text.split()):
        out += run(ctl, LawInput(CallMade(seats[i % 4], c), "camera"))
    return out


def play(ctl: TableController, held: Deal, rng: random.Random, cards: int = 52) -> list[Ruling]:
    """``cards`` legal cards of the hands as held, each from the player whose turn the table says."""
    out: list[Ruling] = []
    for _ in range(cards):
        d = ctl.engine.state.deal
        p = d.bridge.play if d is not None and d.bridge is not None else None
        if p is None or p.turn is None:
            break
        seat = p.turn
        left = [c for c in held.hand(seat) if c not in p.played_by]
        led = p.current.suit_led
        options = [c for c in left if c.suit == led] or left
        out += run(ctl, LawInput(CardPlayed(seat, rng.choice(sorted(options))), "camera"))
    return out


def confirm(ctl: TableController, *seats: Seat) -> list[Ruling]:
    out: list[Ruling] = []
    for s in seats:
        out += run(ctl, ButtonInput(s.value, "attention"))
    return out


def swapped(deal: Deal, a: Seat, b: Seat) -> Deal:
    return Deal(tuple(b if s is a else a if s is b else s for s in deal.assignment()))


def moved(deal: Deal, one: Card, other: Card) -> Deal:
    from laws.duplicate.deal import card_index

    seats = list(deal.assignment())
    seats[card_index(one)], seats[card_index(other)] = seats[card_index(other)], seats[card_index(one)]
    return Deal(tuple(seats))
