"""The dealing station: physical boards filled one after another from the hand records by a shoe that
deals boards (protocol 1.2), every card checked against the record, everything journaled.

What the station promises (``docs/handrecords.md``, "The dealing station", says it for the operator):

* **Nothing dealt is lost.** Every shoe message is journaled (a ``note`` row, ``station_log``) before the
  shoe is acknowledged; a station killed and started again resumes the link after the last row it holds,
  and the shoe, which keeps what is not acknowledged, sends the rest.
* **A board half dealt is never taken as whole.** A board counts as dealt only when the shoe said all 52
  are in their pockets *and* the station saw every one of them placed at the seat its record gives it
  (over every attempt since the pockets were empty). Anything else is a state the operator sees, with
  what to do: cards missing from the pack (``finish`` once they are in the well), the shoe unplugged
  (the board goes on when it is back), the shoe restarted mid-board (``finish`` or ``again``), a board
  the shoe reported wrongly or whose messages were lost on the link (``again``).
* **Boards in order.** The operator puts in the board the station asks for; another one is refused, with
  the reason, and journaled.

Sans-I/O over its inputs: :meth:`DealingStation.feed` takes each link event (from the link's thread, via
the caller's queue), :meth:`DealingStation.command` each line the operator types, :meth:`DealingStation.tick`
the passing of time; each returns the lines to show. The link (``shoe.link.ShoeLink`` made with
``auto_ack=False``) is only sent commands and acknowledgements.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from enum import Enum
from typing import Any

from firmware_host.duplicate.station.station_log import StationLog, apply, fold_journal, report_text
from firmware_host.shoe import messages as m
from firmware_host.shoe.boards import (
    CANNOT_DEAL_BOARDS,
    BoardCardRejected,
    BoardDealt,
    BoardEvent,
    BoardIncomplete,
    BoardMismatch,
    BoardRefused,
    BoardStarted,
    BoardState,
    BoardTracker,
    CardPlaced,
    board_id_of,
    deal_board,
    start_board,
)
from laws.cards import full_pack
from laws.duplicate.deal import Board, commitment

log = logging.getLogger(__name__)
_PACK = full_pack()
COMMANDS = ("<board number> or Enter: the board asked for is in the station", "finish: the missing cards "
            "are in the well", "again: the pockets are empty and a whole pack is in the well",
            "stop: abort the board under way", "status", "report", "quit")


class StationError(Exception):
    """A station that cannot start: its journal is for other hand records."""


class StationState(Enum):
    WAIT_SHOE = "waiting for the shoe"
    CANNOT = "this shoe cannot deal boards"
    INSERT = "put the next board in"
    WAIT_PACK = "put a pack in the well"
    DEALING = "dealing"
    INCOMPLETE = "not whole"
    UNVERIFIED = "not verified"
    DONE = "every board dealt"


class DealingStation:
    """One dealing station.

    Args:
        boards: the hand records to deal, in board-number order.
        journal: the station's journal (``records.journal.Journal``); its rows say where it stopped.
        link: the shoe link (``send``, ``acknowledge``, ``online``, ``caught_up``, ``can_deal_boards``,
            ``boot_id``); call :meth:`resume_link` before the link starts.
        clock: wall-clock seconds, for the journal's rows.
        file: the hand records' file name, for the report.

    Raises:
        StationError: the journal holds another set of hand records (another commitment).
    """

    def __init__(self, boards: Sequence[Board], journal: Any, link: Any, clock: Callable[[], float],
                 file: str = "", auto: bool = False) -> None:
        if not boards:
            raise StationError("no boards to deal")
        self.records = {b.number: b for b in sorted(boards, key=lambda b: b.number)}
        self.journal = journal
        self.link = link
        self.clock = clock
        # boards put in as they are asked for (``boards deal --auto``): nobody is asked to press Enter
        self.auto = auto
        self._pending: list[tuple[str, dict[str, Any], float]] | None = None   # a batch's rows (feed_many)
        self._acks: list[tuple[int, int | None]] = []
        self.commitment = commitment(boards)
        self.log: StationLog = fold_journal(journal)
        if self.log.commitment and self.log.commitment != self.commitment:
            raise StationError(f"{journal.path}: this journal is for other hand records ({self.log.file}, "
                               f"commitment {self.log.commitment[:16]}...); name another --journal")
        if not self.log.commitment:
            self._write([{"station": "open", "file": file, "commitment": self.commitment,
                          "boards": list(self.records),
                          "records": [[n, b.fingerprint] for n, b in self.records.items()]}])
        self.tracker: BoardTracker | None = None
        self.tracker_boot: int | None = self.log.mark[0] if self.log.mark else None
        self.waiting_pack = False
        self.cannot = False
        self.link_heard = False   # the link has said online or offline in this run (a restart starts unheard)
        self._restored = self._restore()

    # -- the journal -------------------------------------------------------------------------------

    def _write(self, bodies: list[dict[str, Any]], mark: tuple[int | None, int] | None = None, *,
               now: bool = False) -> None:
        """Journal rows (in :meth:`feed_many`, with the batch's others in one commit, unless ``now``: a row
        that must be committed before a command goes to the shoe)."""
        t = self.clock()
        if mark is not None:
            bodies = [b | {"shoe": list(mark)} for b in bodies]
        rows = [("note", b, t) for b in bodies]
        if self._pending is not None and not now:
            self._pending += rows
        else:
            self._flush(rows)
        for b in bodies:
            apply(self.log, t, b)

    def _flush(self, rows: list[tuple[str, dict[str, Any], float]] | None = None) -> None:
        """Commit what waits (and ``rows``), then acknowledge the shoe messages it holds."""
        pending = (self._pending or []) + (rows or [])
        if self._pending is not None:
            self._pending = []
        if pending:
            self.journal.append_many(pending)                 # committed before anything else
        acks, self._acks = self._acks, []
        for seq, boot in acks:
            self.link.acknowledge(seq, boot)

    def feed_many(self, events: Sequence[Any]) -> list[str]:
        """Several link events at once (what queued while the last was handled): their rows in one commit,
        the shoe acknowledged after it."""
        self._pending = []
        lines: list[str] = []
        try:
            for ev in events:
                lines += self.feed(ev)
        finally:
            self._flush()
            self._pending = None
        return lines

    def resume_link(self) -> None:
        """Before the link starts: resume after the last shoe message the journal holds."""
        if self.log.mark is not None:
            self.link.resume(*self.log.mark)

    def _restore(self) -> bool:
        """A board under way when the station stopped: follow it again (its start and end known by its
        number and id, its cards seen so far counted)."""
        under = self.log.under_way()
        if under is None:
            return False
        n, attempt = under
        cmd = self._command(n, attempt.placed_before, attempt.named)
        self.tracker = BoardTracker(replace(cmd, cmd=0), seen=self.log.board(n).seen(),
                                    started=attempt.started is not None)
        return True

    # -- what the operator sees --------------------------------------------------------------------

    @property
    def state(self) -> StationState:
        nxt = self.log.next_board()
        if nxt is None:
            return StationState.DONE
        if self.cannot:
            return StationState.CANNOT
        if self.tracker is not None:
            return StationState.DEALING
        if self.waiting_pack:
            return StationState.WAIT_PACK
        b = self.log.board(self.log.in_station) if self.log.in_station is not None else None
        a = b.last if b is not None else None
        if a is not None and a.end == "incomplete":
            return StationState.INCOMPLETE if a.pockets_known else StationState.UNVERIFIED
        if b is not None and a is not None and a.end == "dealt" and not b.done:
            return StationState.UNVERIFIED
        if not self.link.online:
            return StationState.WAIT_SHOE
        return StationState.INSERT

    def status(self) -> str:
        """One line: what the station is doing and what the operator does next."""
        st = self.state
        nxt = self.log.next_board()
        done = sum(1 for n in self.records if self.log.board(n).done)
        head = f"[{done}/{len(self.records)} dealt] "
        if st is StationState.DONE:
            return head + "every board is dealt and verified card by card"
        if st is StationState.CANNOT:
            return head + CANNOT_DEAL_BOARDS + ": connect a shoe with pockets (protocol 1.2)"
        if st is StationState.DEALING:
            assert self.tracker is not None
            n = self.tracker.board
            placed = len(self.tracker.command.placed | set(self.tracker.seen))
            if not self.link.online and not self.link_heard:
                # started again mid-board: the shoe has not answered yet, which says nothing of its cable
                return head + f"board {n}: waiting for the shoe to go on with it ({placed} of 52 placed)"
            if not self.link.online:
                return head + (f"board {n}: the shoe is offline mid-board ({placed} of 52 placed); plug it "
                               "back in: it goes on dealing and nothing is lost")
            return head + f"board {n}: dealing, {placed} of 52 placed"
        if st is StationState.WAIT_PACK:
            return head + f"board {self.log.in_station}: no pack in the shoe; put the pack in the well"
        if st is StationState.INCOMPLETE:
            n = self.log.in_station
            assert n is not None
            a = self.log.board(n).last
            assert a is not None
            return head + (f"board {n} is NOT whole: {a.why}. Put the missing cards in the well and type "
                           "'finish', or empty the four pockets, put a whole pack in the well and type 'again'")
        if st is StationState.UNVERIFIED:
            n = self.log.in_station
            a = self.log.board(n).last if n is not None else None
            if a is not None and a.end == "incomplete":
                return head + (f"board {n} is NOT whole and which cards are in its pockets is not known ({a.why}); "
                               "empty the four pockets, put a whole pack in the well and type 'again'")
            return head + (f"board {n} was NOT verified card by card; empty the four pockets, "
                           "put a whole pack in the well and type 'again'")
        if st is StationState.WAIT_SHOE:
            return head + f"waiting for the shoe (next: board {nxt})"
        if self.auto:
            return head + f"board {nxt} goes in the station next (--auto)"
        return head + f"put board {nxt} in the station and press Enter (or type {nxt})"

    # -- the shoe's side ---------------------------------------------------------------------------

    def feed(self, ev: Any) -> list[str]:
        """One link event (in the order the link delivered them); the lines to show."""
        if isinstance(ev, m.LinkStatus):
            return self._link_status(ev)
        if isinstance(ev, m.MessagesLost):
            return self._lost(ev)
        numbered = isinstance(ev, m.ShoeMessage) and not isinstance(ev, (m.Heartbeat, m.Pong)) and ev.seq > 0
        mark = (self.link.boot_id, ev.seq) if numbered else None
        lines = self._check_boot(mark[0]) if mark is not None else []
        said: list[BoardEvent] = self.tracker.feed(ev) if self.tracker is not None else []
        bodies = [self._body(x) for x in said]
        lines += [x.words for x in said if not isinstance(x, CardPlaced)]   # the cards go to the journal
        if isinstance(ev, m.PackLoaded):
            bodies.append({"station": "pack", "pack": ev.pack})
        elif isinstance(ev, (m.Jam, m.Empty, m.ShoeError)) or isinstance(ev, m.ButtonPressed):
            bodies.append({"station": "shoe", "why": type(ev).__name__})
        if not bodies and mark is not None:
            bodies.append({"station": "shoe", "why": type(ev).__name__})
        if bodies:
            self._write(bodies, mark)
        if mark is not None:
            self._acks.append((ev.seq, mark[0]))          # acknowledged once its rows are committed
            if self._pending is None:
                self._flush()
            if self.tracker is not None and self.tracker_boot is None:
                self.tracker_boot = mark[0]
        lines += self._after(said, ev)
        return lines

    def _body(self, x: BoardEvent) -> dict[str, Any]:
        n = x.board
        if isinstance(x, BoardStarted):
            return {"station": "started", "board": n, "pack": x.pack, "already": len(x.already)}
        if isinstance(x, CardPlaced):
            return {"station": "card", "board": n, "card": x.card.code, "seat": x.seat.value, "index": x.index,
                    "face_up": x.face_up, "pack": x.pack}
        if isinstance(x, BoardCardRejected):
            return {"station": "rejected", "board": n, "card": x.card.code if x.card else None,
                    "reason": int(x.reason), "why": x.words, "pack": x.pack}
        if isinstance(x, BoardMismatch):
            return {"station": "mismatch", "board": n, "why": x.words}
        if isinstance(x, BoardDealt):
            return {"station": "dealt", "board": n, "verified": x.verified, "rejected": x.rejected, "pack": x.pack}
        if isinstance(x, BoardIncomplete):
            return {"station": "incomplete", "board": n, "missing": [c.code for c in x.missing],
                    "reason": int(x.reason), "why": x.words.split(": ", 1)[-1], "known": x.known}
        return {"station": "refused", "board": n, "status": x.status, "why": x.words}

    def _after(self, said: list[BoardEvent], ev: Any) -> list[str]:
        lines: list[str] = []
        for x in said:
            if isinstance(x, (BoardDealt, BoardIncomplete, BoardRefused)):
                self.tracker = None
                self.tracker_boot = None
            if isinstance(x, BoardRefused):
                if x.status == m.Status.BAD_STATE:
                    self.waiting_pack = True
                elif x.status is None or x.status == m.Status.UNSUPPORTED:
                    self.cannot = True
            if isinstance(x, (BoardDealt, BoardIncomplete, BoardRefused)):
                lines.append(self.status())
        if isinstance(ev, m.PackLoaded) and self.waiting_pack and self.log.in_station is not None:
            self.waiting_pack = False
            lines += self._send(self.log.in_station, self.log.board(self.log.in_station).in_pockets())
        return lines

    def _link_status(self, ev: m.LinkStatus) -> list[str]:
        self.link_heard = True
        self._write([{"station": "device", "online": ev.online, "reason": ev.reason}])
        lines: list[str] = []
        if self.tracker is not None:
            said = self.tracker.feed(ev)
            if said:
                self._write([self._body(x) for x in said])
                lines += [x.words for x in said] + self._after(said, ev)
        if not ev.online:
            return lines + [self.status()]
        if self.link.can_deal_boards is False:
            self.cannot = True
        lines += self._check_boot(ev.shoe.boot_id if ev.shoe is not None else self.link.boot_id)
        return lines + [self.status()]

    def _check_boot(self, boot: int | None) -> list[str]:
        """A board under way in another boot of the shoe than the one now talking has ended unseen."""
        if self.tracker is None or self.tracker_boot is None or boot is None or boot == self.tracker_boot \
                or self.tracker.state is not BoardState.DEALING:
            return []
        return self._shoe_restarted()

    def _shoe_restarted(self) -> list[str]:
        """The shoe restarted mid-board: that board will never finish (PROTOCOL.md 7.1)."""
        assert self.tracker is not None
        n = self.tracker.board
        pockets = self.tracker.command.placed | set(self.tracker.seen)
        missing = [c for c in _PACK if c not in pockets]
        why = (f"the shoe restarted mid-board with {len(pockets)} card{'s' if len(pockets) != 1 else ''} in "
               f"the pockets and {len(missing)} not placed")
        self._write([{"station": "incomplete", "board": n, "missing": [c.code for c in missing], "reason": 255,
                      "why": why}])
        self.tracker = None
        self.tracker_boot = None
        return [f"board {n} is not whole: {why}", self.status()]      # what to do, at once

    def _lost(self, ev: m.MessagesLost) -> list[str]:
        """Messages gone from the shoe's ring before the station got them (PROTOCOL.md 5, ERROR 4): journaled
        by number with the last one's mark (used up: a restart resumes after them). A board under way may
        have lost its cards, its start or its end: which cards are in its pockets is not known, so it ends
        here not whole, to be dealt again from empty pockets, rather than blamed on the shoe's next card or
        waited on for an end that may never come."""
        mark = (ev.boot_id, ev.last)
        lines = self._check_boot(ev.boot_id)
        self._write([{"station": "lost", "first": ev.first, "last": ev.last}], mark)
        self._acks.append((ev.last, ev.boot_id))
        if self.tracker is not None:
            n = self.tracker.board
            pockets = self.tracker.command.placed | set(self.tracker.seen)
            which = f"message {ev.first}" if ev.first == ev.last else f"messages {ev.first}-{ev.last}"
            why = (f"{which} from the shoe {'was' if ev.first == ev.last else 'were'} lost on the link after "
                   f"{len(pockets)} card{'s were' if len(pockets) != 1 else ' was'} seen placed")
            self._write([{"station": "incomplete", "board": n, "missing": [c.code for c in _PACK if c not in pockets],
                          "reason": 255, "why": why, "known": False}])
            self.tracker = None
            self.tracker_boot = None
            lines += [f"board {n} is not whole: {why}", self.status()]
        if self._pending is None:
            self._flush()
        return lines

    def tick(self) -> list[str]:
        """Time passes: a board the journal had sent but the shoe never started (the station stopped
        before the shoe had it) is sent again once the link has caught up with what the shoe held."""
        lines = self._check_boot(self.link.boot_id) if self.link.online else []
        t = self.tracker
        if not (self._restored and t is not None and t.state is BoardState.WAITING and self.link.online
                and self.link.caught_up):
            return lines
        self._restored = False
        self.tracker = None
        n = t.board
        return lines + [f"board {n}: the shoe never started it; sending it again"] + self._send(n, t.command.placed)

    # -- the operator's side -----------------------------------------------------------------------

    def command(self, text: str) -> list[str]:
        """One line the operator typed; the lines to show."""
        word = text.strip().lower()
        st = self.state
        if word in ("status", "?"):
            return [self.status()]
        if word == "report":
            return report_text(self.log).splitlines()
        if word in ("help", "h"):
            return ["commands: " + "; ".join(COMMANDS)]
        if word == "stop":
            if st is not StationState.DEALING:
                return ["nothing is being dealt: nothing to stop"]
            self.link.send(m.Abort())
            return [f"board {self.tracker.board if self.tracker else '?'}: stopping; the cards placed stay in "
                    "their pockets"]
        if word in ("finish", "again"):
            return self._redo(word, st)
        if word in ("", "ok") or word.isdigit() or word.startswith("insert"):
            return self._insert(word.removeprefix("insert").strip(), st)
        return [f"{text.strip()[:40]!r} is not a command; " + "; ".join(COMMANDS)]

    def _insert(self, word: str, st: StationState) -> list[str]:
        nxt = self.log.next_board()
        if st is not StationState.INSERT:
            return [f"not now: {self.status()}"]
        assert nxt is not None
        n = int(word) if word else nxt
        why = ""
        if n not in self.records:
            why = (f"board {n} is not in the hand records (boards {min(self.records)}-{max(self.records)}); "
                   f"put board {nxt} in")
        elif self.log.board(n).done:
            why = f"board {n} is dealt already (every card checked); put board {nxt} in"
        elif n != nxt:
            why = f"board {n} is out of order: the next board is {nxt}; put board {nxt} in"
        if why:
            self._write([{"station": "insert", "board": n, "refused": True, "why": why}])
            return [why]
        self._write([{"station": "insert", "board": n}])
        return self._send(n, frozenset())

    def _redo(self, word: str, st: StationState) -> list[str]:
        n = self.log.in_station
        if n is None or st not in (StationState.INCOMPLETE, StationState.UNVERIFIED) or \
                word == "finish" and st is StationState.UNVERIFIED:
            return [f"not now: {self.status()}"]
        if word == "finish":
            if len(self.log.board(n).in_pockets()) == 52:      # never a DEAL_BOARD with nothing to deal
                return [f"not now: {self.status()}"]
            return self._send(n, self.log.board(n).in_pockets())
        return self._send(n, frozenset())

    def _command(self, n: int, placed: frozenset[Any], pack: str = "") -> m.DealBoard:
        rec = self.records[n]
        return deal_board(n, rec.deal.assignment(), board_id_of(rec.fingerprint), pack=pack, placed=placed)

    def _send(self, n: int, placed: frozenset[Any]) -> list[str]:
        """Journal the attempt, then send it (so a restart knows a board may be under way). A board
        finished from its pockets names their pack (PROTOCOL.md 4.3), so a card of another pack put back
        is rejected, not placed beside them."""
        pack = self.log.board(n).pack() if placed else ""
        cmd = self._command(n, placed, pack)
        rec = self.records[n]
        self._write([{"station": "send", "board": n, "record": rec.fingerprint,
                      "placed": sorted(c.code for c in placed), "fresh": not placed, "pack": pack}], now=True)
        tracker = start_board(self.link, cmd, seen=self.log.board(n).seen() if placed else {})
        self.tracker_boot = None
        self._restored = False
        if tracker.state is BoardState.REFUSED and tracker.result is not None:   # known from the HELLO
            said: list[BoardEvent] = [tracker.result]
            self._write([self._body(x) for x in said])
            return [x.words for x in said] + self._after(said, None)
        self.tracker = tracker
        more = f" ({len(placed)} already in their pockets)" if placed else ""
        return [f"board {n}: sent to the shoe{more}"]
