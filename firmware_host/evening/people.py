"""The people at one simulated duplicate table: four players and, when called, the director.

:meth:`People.next_input` looks at the table's engine state (read in the controller's thread, between two
inputs) and gives what the people there do next, as the table's sensors and buttons would deliver it:

* **The board's cards.** From a physical board's pockets nothing reaches the table: the players take their
  cards. A board the table's shoe deals comes from the shoe itself (``firmware_host.shoe``); the people
  only wait for its end.
* **The auction and the play** are the simulated players' (``firmware_host.players.plan_hand``, with the
  table's own ``random.Random`` so that tables holding the same cards differ), planned from the cards
  they hold: the record's, or a misboarded copy's (``boards.BoardRoom.held``). Each call and card is a
  law event the camera reports (source ``camera``): one call at a time, in the turn the table's own
  auction says; then the opening lead, dummy's hand as the camera sees it spread (a physical board: the
  table does not know the hands otherwise), and every card in the turn the table's own play says.
* **The director.** The table's first card against the record (the engine's ``DB-87``) calls him: he
  decides the board is fouled (``foul_ruled`` ``fouled``, source ``director``: play goes on, scored in
  a group of its own) and acknowledges the call with his button.
* **The confirms.** Once the table shows the result, one player of each side presses his seat's button.

The people never decide for the table: they take the turn, the board and the result from its state, and
a plan that disagrees with the table's turn is an error (:class:`PeopleError`), never a guess.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from firmware_host.players import HandPlan, plan_hand
from firmware_host.table.inputs import ButtonInput, LawInput
from laws.cards import SEATS, Seat
from laws.duplicate.deal import Deal
from laws.events import CallMade, CardPlayed, DummyFaced, FoulRuled
from laws.games.duplicate_board import BoardAtTable, board_of
from laws.state import Phase, TableState

Input = LawInput | ButtonInput
Held = Callable[[int, int], Deal]      # (board, round) -> the cards in the copy the table plays


class PeopleError(RuntimeError):
    """The table and the people's plan disagree (whose turn it is, or what is on the table)."""


@dataclass
class BoardAtHand:
    """What the people do with the board on the table: the hand they play, and what they have done."""

    number: int
    round: int | None
    held: Deal
    plan: HandPlan
    dummy_shown: bool = False
    director_acked: bool = False
    confirmers: dict[str, Seat] = field(default_factory=dict)


class People:
    """The four players and the director at one table.

    Args:
        held: the cards in the copy of a board the table plays in a round.
        rng: the players' choices (their straying, and who confirms for each side).
    """

    def __init__(self, held: Held, rng: random.Random) -> None:
        self.held = held
        self.rng = rng
        self.board: BoardAtHand | None = None
        self.boards: list[BoardAtHand] = []
        self.fouls_ruled = 0

    def _hand(self, b: BoardAtTable) -> BoardAtHand:
        if self.board is None or (self.board.number, self.board.round) != (b.number, b.round):
            held = self.held(b.number, b.round or 1)
            plan = plan_hand(b.record.dealer, {s: list(held.hand(s)) for s in SEATS}, self.rng)
            sides = {"ns": self.rng.choice((Seat.N, Seat.S)), "ew": self.rng.choice((Seat.E, Seat.W))}
            self.board = BoardAtHand(b.number, b.round, held, plan, confirmers=sides)
            self.boards.append(self.board)
        return self.board

    def next_input(self, state: TableState) -> Input | None:
        """What the people do now (None: nothing until the table moves: no board, the shoe dealing, the
        board done and the next not yet on the table).

        Raises:
            PeopleError: the table's turn is not the plan's.
        """
        b = board_of(state)
        if b is None or b.done:
            return None
        hand = self._hand(b)
        foul = b.played.foul if b.played is not None else None
        if foul is not None and b.decision is None:
            self.fouls_ruled += 1
            return LawInput(FoulRuled("fouled"), "director")
        if foul is not None and not hand.director_acked:
            hand.director_acked = True
            return ButtonInput("director", "attention")
        if b.result is not None:
            side = "ns" if "ns" not in b.confirmed else "ew"
            return ButtonInput(hand.confirmers[side].value, "attention")
        d = state.deal
        if d is None or d.void or d.number != b.deal or state.phase is Phase.DEALING or d.bridge is None:
            return None
        h = d.bridge
        if h.play is None:
            return self._call(hand, h.auction)
        return self._card(hand, b, h.play)

    def _call(self, hand: BoardAtHand, auction: Any) -> Input | None:
        done = len(auction.calls)
        if auction.turn is None or done >= len(hand.plan.calls):
            return None
        seat, call = hand.plan.calls[done]
        if seat is not auction.turn:
            raise PeopleError(f"board {hand.number}: the table waits for {auction.turn.value}'s call, the "
                              f"players' plan has {seat.value} call {call.code}")
        return LawInput(CallMade(seat, call.code), "camera")

    def _card(self, hand: BoardAtHand, b: BoardAtTable, play: Any) -> Input | None:
        done = len(play.played_by)
        if done == 1 and b.how == "board" and not hand.dummy_shown:
            hand.dummy_shown = True
            return LawInput(DummyFaced(tuple(hand.held.hand(play.dummy))), "camera")
        if play.turn is None or done >= len(hand.plan.plays):
            return None
        seat, card = hand.plan.plays[done]
        if seat is not play.turn:
            raise PeopleError(f"board {hand.number}: the table waits for {play.turn.value}'s card, the "
                              f"players' plan has {seat.value} play the {card.code}")
        return LawInput(CardPlayed(seat, card), "camera")
