"""Dealing boards from hand records with the shoe (protocol 1.2, PROTOCOL.md sections 4 and 7.1): the
command, and a follower of one board that checks every card against the record.

Usage::

    from firmware_host.shoe.boards import BoardState, board_id_of, deal_board, start_board

    board = start_board(link, deal_board(7, deal.assignment(), board_id_of(deal.fingerprint), pack="B7"))
    ...
    def on_event(ev):                        # the link's callback, in order
        for out in board.feed(ev):           # BoardStarted, CardPlaced, BoardCardRejected, BoardMismatch,
            show(out.words)                  # BoardDealt, BoardIncomplete or BoardRefused
    ...
    if board.state is BoardState.INCOMPLETE:     # the operator puts the missing cards in the well
        board = start_board(link, board.again(), seen=board.seen)

A record is 52 ``Seat``s in canonical card order (``laws.cards.full_pack()``: spades ace first, clubs two
last, Duplimate's card numbers 01-52): ``Deal.assignment()`` of a hand record gives exactly that. Sans-I/O
like the session, and free of duplicate-session logic (which board, which table, what the result is).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from firmware_host.shoe import messages as m
from firmware_host.shoe.codec import PACK
from laws.cards import SEATS, Card, Seat

CANNOT_DEAL_BOARDS = "this shoe cannot deal boards"
_PACK_ID = re.compile(r"^[0-9A-Z]{2}$")
_SEAT_WORDS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def board_id_of(fingerprint: str) -> int:
    """A record's ``board_id``: the first four bytes (8 hex digits) of its SHA-256 fingerprint
    (``docs/handrecords.md``); raises ValueError for anything but hex text of 8 digits or more."""
    if not isinstance(fingerprint, str) or not re.fullmatch(r"[0-9a-fA-F]{8,}", fingerprint):
        raise ValueError(f"fingerprint {fingerprint!r}: want its hex text (8 digits or more)")
    return int(fingerprint[:8], 16)


def deal_board(board: int, seats: Sequence[Seat | str], board_id: int | str = 0, *, pack: str = "",
               placed: Iterable[Card] = ()) -> m.DealBoard:
    """The DEAL_BOARD command for board ``board`` whose record is ``seats`` (52, canonical card order).

    Args:
        board: the board number, 1-65535.
        seats: the seat of each card, ``Seat`` or its letter; 13 cards to each seat.
        board_id: a number (0 to 2**32 - 1) or the record's fingerprint (its first 8 hex digits are
            taken), echoed in every report of the board.
        pack: the pack id the cards must carry ("" : the first card placed fixes it).
        placed: cards already in their pockets from an earlier attempt at this board.

    Raises:
        ValueError: naming what is wrong (a seat's count, a bad number, a pack id, every card placed).
    """
    if isinstance(board, bool) or not isinstance(board, int) or not 1 <= board <= 0xFFFF:
        raise ValueError(f"board {board!r}: want a board number from 1 to 65535")
    record_list: list[Seat] = []
    for k, s in enumerate(seats):
        try:
            record_list.append(Seat(s))
        except ValueError:
            what = f"card {k + 1} ({PACK[k].name})" if k < 52 else f"card {k + 1}"
            raise ValueError(f"board {board}: {what}: {s!r} is not a seat (a record's seats are N, E, S "
                             "or W)") from None
    record = tuple(record_list)
    if len(record) != 52:
        raise ValueError(f"board {board}: a record gives a seat to each of 52 cards, got {len(record)}")
    wrong = [f"{_SEAT_WORDS[s]} {record.count(s)}" for s in SEATS if record.count(s) != 13]
    if wrong:
        raise ValueError(f"board {board}: a board gives 13 cards to each seat, this record gives " + ", ".join(wrong))
    if isinstance(board_id, str):
        board_id = board_id_of(board_id)
    if isinstance(board_id, bool) or not isinstance(board_id, int) or not 0 <= board_id <= 0xFFFFFFFF:
        raise ValueError(f"board {board}: board_id {board_id!r} is not a number of 32 bits")
    if pack and not _PACK_ID.match(pack):
        raise ValueError(f"board {board}: pack {pack!r} is not a card code's pack id (two of 0-9, A-Z)")
    done = frozenset(placed)
    if len(done) == 52:
        raise ValueError(f"board {board}: every card is placed already; nothing to deal")
    return m.DealBoard(board, record, board_id, pack, done)


def can_deal_boards(hello: m.Hello | None) -> bool | None:
    """Whether the shoe that said ``hello`` deals boards (protocol 1.2 and the ``BOARDS`` capability);
    None while no HELLO is known."""
    if hello is None:
        return None
    return hello.minor >= 2 and bool(hello.caps & m.Cap.BOARDS)


# --- what a board's follower reports ---------------------------------------------------------------


class BoardState(Enum):
    WAITING = "waiting"             # DEAL_BOARD sent, no answer yet
    DEALING = "dealing"
    DEALT = "dealt"                 # all 52 in their pockets
    INCOMPLETE = "incomplete"       # ended without all 52: what was placed is known
    REFUSED = "refused"             # the shoe did not start it (nothing was dealt)


@dataclass(frozen=True)
class BoardRefused:
    board: int
    status: int | None          # the REPLY's status, None when the HELLO already said so
    words: str


@dataclass(frozen=True)
class BoardStarted:
    board: int
    board_id: int
    pack: str
    already: frozenset[Card]    # in their pockets before this attempt

    @property
    def words(self) -> str:
        more = f", {len(self.already)} cards already placed" if self.already else ""
        return f"board {self.board}: dealing" + (f" from pack {self.pack}" if self.pack else "") + more


@dataclass(frozen=True)
class CardPlaced:
    board: int
    index: int                  # among the board's placed cards, 1-52
    card: Card
    seat: Seat
    face_up: bool
    pack: str

    @property
    def words(self) -> str:
        return f"board {self.board}: {self.card.name} to {_SEAT_WORDS[self.seat]}"


@dataclass(frozen=True)
class BoardCardRejected:
    board: int
    number: int
    reason: m.RejectReason | int
    card: Card | None
    pack: str
    words: str


@dataclass(frozen=True)
class BoardMismatch:
    """The shoe reported a card where the record does not put it (a shoe that is wrong, never a
    player's fault): the board is not verified."""

    board: int
    card: Card | None
    record: Seat | None         # where the record puts it (None: the card was not read)
    reported: Seat | None
    words: str


@dataclass(frozen=True)
class BoardDealt:
    board: int
    board_id: int
    pack: str
    rejected: int
    verified: bool              # every card seen placed once, at the record's seat (earlier attempts too)

    @property
    def words(self) -> str:
        check = "every card checked" if self.verified else "NOT verified card by card"
        return f"board {self.board} dealt ({check}; {self.rejected} rejected)"


@dataclass(frozen=True)
class BoardIncomplete:
    """The board ended without all 52 placed; never a whole board. ``placed`` are in their pockets
    (re-insert ``missing`` and send ``BoardTracker.again()``, or deal the board again)."""

    board: int
    board_id: int
    reason: m.FinishReason | int
    placed: frozenset[Card]
    missing: tuple[Card, ...]   # canonical card order
    rejected: int
    words: str
    known: bool = True          # the pockets are known: every report of the board agreed (else deal it again)


BoardEvent = BoardRefused | BoardStarted | CardPlaced | BoardCardRejected | BoardMismatch | BoardDealt | BoardIncomplete


def _names(cards: Sequence[Card], most: int = 4) -> str:
    names = [c.name for c in cards[:most]]
    if len(cards) > most:
        return ", ".join(names) + f" and {len(cards) - most} more"
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]


def refusal_words(board: int, status: int, detail: str) -> str:
    """What the operator reads when the shoe does not start board ``board``."""
    if status == m.Status.UNSUPPORTED:
        if detail.startswith(CANNOT_DEAL_BOARDS):
            return detail
        return CANNOT_DEAL_BOARDS + (f" ({detail})" if detail else "")
    if status == m.Status.BUSY:
        return f"board {board} not started: the shoe is busy with a deal"
    if status == m.Status.BAD_STATE:
        return f"board {board} not started: no pack in the shoe"
    if status == m.Status.BAD_ARGS:
        return f"board {board} not started: the shoe refused its record ({detail})"
    return f"board {board} not started: the shoe answered status {int(status)} ({detail})"


class BoardTracker:
    """Follows one board from its DEAL_BOARD to its end; ``feed`` each link event, in order.

    Args:
        command: the DEAL_BOARD as ``link.send`` returned it (its ``cmd`` numbered). A command with
            ``cmd`` 0 follows a board an earlier run of the host started (after a restart): its start
            and end are then known by board number and ``board_id``.
        seen: cards the host already saw placed at their seats (an earlier attempt, or what a journal
            held before a restart); they count for ``verified``.
        started: the board is known to be under way already (a restart mid-board whose start was
            acknowledged before): follow its cards without waiting for its start. The session then
            never saw the start either, so it cannot mark the cards with the board's number: every
            placed card (``index`` 1-52 with a seat) up to the board's end is taken as this board's.
    """

    def __init__(self, command: m.Command, *, seen: Mapping[Card, Seat] | None = None,
                 started: bool = False) -> None:
        if not isinstance(command, m.DealBoard):
            raise TypeError(f"a BoardTracker follows a DealBoard, not a {type(command).__name__}")
        self.command = command
        self.record = dict(zip(PACK, command.seats))
        self.seen: dict[Card, Seat] = dict(seen or {})
        self.state = BoardState.DEALING if started else BoardState.WAITING
        self._unmarked = started            # cards may come without the board's number (see ``started``)
        self.pack = command.pack
        self.rejected = 0
        self.mismatches = 0
        self.placed: frozenset[Card] = frozenset(command.placed)
        self.missing: tuple[Card, ...] = tuple(c for c in PACK if c not in command.placed)
        self.count = len(self.placed | set(self.seen))     # cards in their pockets: the last index given
        self.reported: set[Card] = set()                   # every card a CARD_OUT of this attempt named
        self.result: BoardEvent | None = None

    @property
    def board(self) -> int:
        return self.command.board

    def _ours(self, answers: int, board: int, board_id: int) -> bool:
        if self.command.cmd:
            return answers == self.command.cmd
        return (board, board_id) == (self.command.board, self.command.board_id)

    def feed(self, ev: object) -> list[BoardEvent]:
        """What ``ev`` (a link event) means for this board; [] when it is not about it."""
        if self.state in (BoardState.DEALT, BoardState.INCOMPLETE, BoardState.REFUSED):
            return []
        if isinstance(ev, m.LinkStatus):
            if ev.online and self.state is BoardState.WAITING and can_deal_boards(ev.shoe) is False:
                return self._end(BoardRefused(self.board, None, CANNOT_DEAL_BOARDS))
            return []
        if isinstance(ev, m.Reply):
            if self.command.cmd and ev.cmd == self.command.cmd and not ev.stale and ev.status != m.Status.OK \
                    and self.state is BoardState.WAITING:
                return self._end(BoardRefused(self.board, int(ev.status), refusal_words(self.board, ev.status, ev.detail)))
            return []
        if isinstance(ev, m.BoardBegan):
            if not self._ours(ev.answers, ev.board, ev.board_id):
                return []
            self.state = BoardState.DEALING
            self._unmarked = False
            self.pack = ev.pack
            out: list[BoardEvent] = [BoardStarted(ev.board, ev.board_id, ev.pack, ev.placed)]
            c = self.command        # the echo, compared by value (PROTOCOL.md 4.2 and 7.2)
            if (ev.board, ev.board_id, ev.seats, ev.placed, ev.pack) != (c.board, c.board_id, c.seats, c.placed, c.pack):
                self.mismatches += 1
                out.append(BoardMismatch(self.board, None, None, None,
                                         f"board {self.board}: the shoe is dealing another record than the one sent"))
            return out
        if self.state is not BoardState.DEALING:
            return []
        if isinstance(ev, m.CardOut) and ev.index and (ev.board == self.board or self._unmarked and not ev.board):
            return self._placed(ev)
        if isinstance(ev, m.CardRejected):
            return [self._rejected(ev)]
        if isinstance(ev, m.BoardFinished) and self._ours(ev.answers, ev.board, ev.board_id):
            return self._finished(ev)
        return []

    def _placed(self, ev: m.CardOut) -> list[BoardEvent]:
        """A placed card, checked as PROTOCOL.md section 7.2 asks: the record's seat, not placed before,
        the board's pack, and the next index."""
        card, seat = ev.card, ev.seat
        want = self.record.get(card) if card is not None else None
        self.count += 1
        if card is not None:
            self.reported.add(card)
        index_ok = ev.index == self.count
        pack_ok = not self.pack or ev.pack == self.pack
        again = card is not None and (card in self.seen or card in self.placed)   # in the pockets already
        if card is None or seat is None or seat != want or again or not pack_ok or not index_ok:
            self.mismatches += 1
            if card is None:
                why = "a card it could not read"
            elif again:
                why = f"the {card.name} a second time" if card in self.seen else \
                    f"the {card.name}, which the DEAL_BOARD said was in its pocket already"
            elif seat != want:
                why = f"the {card.name} to {_SEAT_WORDS[seat] if seat else 'no seat'}; the record gives it to {_SEAT_WORDS[want]}" \
                    if want is not None else f"the {card.name}"
            elif not pack_ok:
                why = f"the {card.name} of pack {ev.pack or '(none)'}, not of the board's pack {self.pack}"
            else:
                why = f"the {card.name} as card {ev.index} of the board; it is card {self.count}"
            if not index_ok:
                self.count = max(self.count, ev.index)
            return [BoardMismatch(self.board, card, want, seat, f"board {self.board}: the shoe placed {why}")]
        self.seen[card] = seat
        if not self.pack:
            self.pack = ev.pack
        return [CardPlaced(self.board, ev.index, card, seat, ev.orientation is m.Orientation.UP, ev.pack)]

    def _rejected(self, ev: m.CardRejected) -> BoardEvent:
        self.rejected += 1
        if ev.reason == m.RejectReason.UNREADABLE or ev.card is None:
            what = "an unreadable card" + (f" (pack {ev.pack})" if ev.pack else "")
        elif ev.reason == m.RejectReason.OTHER_PACK:
            what = f"the {ev.card.name} of pack {ev.pack or '?'}, not of the board's pack {self.pack or '?'}"
        elif ev.reason == m.RejectReason.PLACED:
            what = f"the {ev.card.name} again: it is in {_SEAT_WORDS[self.record[ev.card]]}'s pocket already"
        else:
            what = f"the {ev.card.name} (reason {int(ev.reason)})"
        return BoardCardRejected(self.board, ev.number, ev.reason, ev.card, ev.pack,
                                 f"board {self.board}: rejected {what}")

    def _finished(self, ev: m.BoardFinished) -> list[BoardEvent]:
        self.pack = ev.pack or self.pack
        self.placed = frozenset(c for c in PACK if c not in ev.missing)
        self.missing = tuple(c for c in PACK if c in ev.missing)
        out: list[BoardEvent] = []
        unseen = [c for c in PACK if c not in ev.missing and c not in self.seen]
        expected = frozenset(c for c in PACK if c not in self.command.placed and c not in self.seen
                             and c not in self.reported)
        if (ev.board, ev.board_id) != (self.command.board, self.command.board_id):
            self.mismatches += 1
            out.append(BoardMismatch(self.board, None, None, None, f"board {self.board}: the shoe ended board "
                                     f"{ev.board} (id {ev.board_id:08x}), not the one it was sent"))
        if ev.missing != expected:      # PROTOCOL.md 7.2: `missing` against the cards seen placed
            self.mismatches += 1
            out.append(BoardMismatch(self.board, None, None, None, f"board {self.board}: the shoe says "
                                     f"{len(ev.missing)} card{'s' if len(ev.missing) != 1 else ''} are not placed, "
                                     f"but {len(expected)} were not seen placed: which cards are in the pockets "
                                     "is not known"))
        if ev.reason == m.FinishReason.COMPLETE and not ev.missing:
            verified = not unseen and self.mismatches == 0
            out.append(BoardDealt(self.board, ev.board_id, self.pack, ev.rejected, verified))
            self.state = BoardState.DEALT
        else:
            n = len(self.missing)
            count = f"{n} card{'s' if n != 1 else ''} not placed"
            if ev.reason == m.FinishReason.EMPTY:
                how = f"the pack ran out with {count}"
            elif ev.reason == m.FinishReason.ABORTED:
                how = f"stopped with {count}"
            else:
                how = f"ended (reason {int(ev.reason)}) with {count}"
            words = f"board {self.board} is not whole: {how}: the {_names(self.missing)}" if self.missing else \
                f"board {self.board} is not whole: {how}"
            if ev.missing != expected:
                words += f", but {len(expected)} were not seen placed"
            out.append(BoardIncomplete(self.board, ev.board_id, ev.reason, self.placed, self.missing,
                                       ev.rejected, words, known=self.mismatches == 0))
            self.state = BoardState.INCOMPLETE
        self.result = out[-1]
        return out

    def _end(self, result: BoardEvent) -> list[BoardEvent]:
        self.state = BoardState.REFUSED
        self.result = result
        return [result]

    def again(self, pack: str | None = None) -> m.DealBoard:
        """The DEAL_BOARD that finishes this board: the same record and pack, with the cards in their
        pockets marked placed (after the operator put the missing ones in the well).

        Raises:
            ValueError: the pockets are not known (a report that disagreed with the cards seen, a
                board not whole that names no card missing): it must be dealt again from empty pockets.
        """
        if isinstance(self.result, BoardIncomplete) and not self.result.known:
            raise ValueError(f"board {self.board}: which cards are in the pockets is not known; empty them and "
                             "deal it again")
        return deal_board(self.board, self.command.seats, self.command.board_id,
                          pack=self.pack if pack is None else pack, placed=self.placed)


def start_board(link: Any, command: m.DealBoard, *, seen: Mapping[Card, Seat] | None = None) -> BoardTracker:
    """Send ``command`` on ``link`` (a ``ShoeLink``) and return its follower; feed it the link's events.

    A shoe whose HELLO says it cannot deal boards (PROTOCOL.md section 9) is not sent the command: the
    follower is refused at once ("this shoe cannot deal boards"). While no HELLO is known the command
    waits in the link for the handshake, and the HELLO or the shoe's REPLY decides.
    """
    if getattr(link, "can_deal_boards", None) is False:
        tracker = BoardTracker(command, seen=seen)
        tracker._end(BoardRefused(command.board, None, CANNOT_DEAL_BOARDS))
        return tracker
    return BoardTracker(link.send(command), seen=seen)
