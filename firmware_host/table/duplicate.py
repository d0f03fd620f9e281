"""A duplicate table's procedure: which board is on the table, and (boards dealt by the table's shoe)
dealing it from its record.

The table knows where it is and what it plays from its :class:`TableRound`: its section and table number,
the round, the pairs and the round's boards, from the club's session (``docs/mqtt.md``, Duplicate: a
``SessionInput`` the controller journals first) or from its configuration when it plays alone. From it:

* **The hand records.** A table in a club session is sent the records of the boards it plays in its
  seating (``hand_records``); each is checked against the session's commitment before it is taken
  (``table.session_records``), the verdict journaled (a note ``{"hand_records": ...}``), and a refusal
  shown to the director as the table's ``records`` device offline with the reason. A table that plays
  alone reads its records from its configuration's file.
* **The next board.** When no board is on the table, or the board on it has its result confirmed by both
  sides, the next board of the round not yet played here goes on the table: a ``board`` law event
  (``docs/events.md``) with its record. A board the session names with a record that is not this
  table's (another file, another session) is never placed: a note says so; a session table waits for a
  board whose record it has not taken (the session sends it again with every seating).
* **A board the session has scored.** A board on the table, not confirmed here, whose result the session
  already holds (the director entered it by hand or scored it while the table was down, or the session
  moved the table's round on: its seating's round is later than the board's, or the board is of its round
  but no longer in ``left``) is abandoned (a ``board_abandoned`` law event, after a note on the display
  saying so), and the table goes on with the boards of its seating: it never refuses them because of it.
  A board the seating lists in ``replay`` (its line taken off to be replayed) is not the session's: the
  table plays it on.
* **After the round.** Once the round's boards all have results, the table says where each pair and the
  boards go (the seating's ``next``), once a round.
* **The shoe deals it** (``deal = "shoe"``): once the board is on the table and a pack is in the shoe's
  well, DEAL_BOARD with the board's record (protocol 1.2). Its cards come back as law events
  (``shoe.laws_map``, ``boards=True``) and are checked there against the record. A board that ended short
  (the engine's ``DB-14``) is finished with the cards in their pockets marked placed once the shoe reports
  a pack in its well again (the missing cards found); a board voided (``DB-6``, the wrong board ``DB-15``)
  while the shoe deals it is stopped (ABORT), and dealt again from empty pockets with the next pack; a
  board abandoned while the shoe deals it is stopped the same way before the next board is dealt. A
  table killed before that ABORT left sends it when it starts again (its journal's last deal void and not
  ended), once the link has caught up and unless the journal holds the shoe's end of that deal.

Its state lives in the journal (the engine's board, the results confirmed, the last seating), so a
restarted table carries on at the same step: :meth:`DuplicateProcedure.resume` after the controller is
built. It runs in the controller's thread (its listeners), and only submits law events and sends commands.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.table.inputs import DeviceNote, DeviceStatus, LawInput, SessionInput
from firmware_host.table.session_records import check_records, commitment_of
from firmware_host.wire.messages import DuplicateSeating, MessageError, is_seating
from laws.duplicate.deal import Board
from laws.events import BoardAbandoned, BoardPlaced
from laws.games.duplicate_board import BoardAtTable, board_of, played_here
from laws.state import Phase

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableRound:
    """Where the table is and what it plays this round."""

    section: str
    table: int
    round: int
    ns: str
    ew: str
    boards: tuple[int, ...]
    records: tuple[tuple[int, str], ...] = ()      # (board, fingerprint) the session named, when it did
    replay: tuple[tuple[int, int], ...] = ()       # (round, board) whose line the director took off to replay


def seating_from_session(msg: Mapping[str, Any]) -> TableRound:
    """A session's seating message (``wire.duplicate.seating_message``), or an event's table view
    (docs/competitions.md), read through the wire's typed message (``wire.messages.DuplicateSeating``), as the
    table's :class:`TableRound`: the boards of its round still without a result (``left``), in the round's
    order; none while its pair sits out (or, in an event, a bye or the event finished).

    Raises:
        ValueError: a field missing or of the wrong kind (named).
    """
    try:
        m = DuplicateSeating.from_any(dict(msg))
    except MessageError as exc:
        raise ValueError(f"a seating message without a usable {exc}") from None
    play = () if m.sit_out else tuple(n for n, _ in m.boards if n in m.left)
    # an event names no fingerprints: the table plays from the records the event sends, or its own
    named = () if msg.get("kind") != "seating" else m.boards
    return TableRound(m.section, m.table_number, m.round, m.ns, m.ew, play, named, m.replay)


def event_players(message: Mapping[str, Any]) -> list[str]:
    """Who sits here, from an event's seating message (its ``seat`` and ``names``: docs/competitions.md):
    ``North-South 4: Hearts (Ann Lee, Bo Kim)``; an individual's players one by one (``North 8: Ann
    Lee``); a section's pairs by their labels (``North-South A 2 NS: ...``). Those not named are left out."""
    seat, names = message.get("seat"), message.get("names")
    if not isinstance(seat, dict) or not isinstance(names, dict) or not names:
        return []

    def name(key: Any) -> str:
        value = names.get(str(key))
        return str(value)[:120] if isinstance(value, str) and value else ""

    if "ns_pair" in seat:
        places = [("North-South", f"{seat.get('section')} {seat.get('ns_pair')}"),
                  ("East-West", f"{seat.get('section')} {seat.get('ew_pair')}")]
    elif message.get("kind") == "individual":
        places = [(words, seat.get(key)) for words, key in (("North", "north"), ("South", "south"),
                                                             ("East", "east"), ("West", "west"))]
    else:
        places = [("North-South", seat.get("north")), ("East-West", seat.get("east"))]
    return [f"{words} {key}: {name(key)}" for words, key in places if name(key)]


class DuplicateProcedure:
    """Places each board of the round in turn and, with ``how`` ``shoe``, has the shoe deal it.

    Args:
        ctl: the controller.
        records: the table's hand records, by board number.
        seating: where the table is and the round's boards (None: wait for the session's).
        how: ``board`` (physical boards) or ``shoe`` (the table's shoe deals each board).
        link: the shoe link (needed for ``shoe``).
        source: the journal's ``src`` of the board events: ``config`` or ``session``.
        commitment: the commitment the session's records must match ("": the one the session names).
    """

    def __init__(self, ctl: Any, records: Mapping[int, Board], seating: TableRound | None, how: str = "board",
                 link: Any | None = None, source: str = "config", commitment: str = "") -> None:
        if how == "shoe" and link is None:
            raise ValueError("a table whose shoe deals the boards needs the shoe's link")
        self.ctl = ctl
        self.records = dict(records)
        self.seating = seating
        self.how = how
        self.link = link
        self.source = source
        self.placing: tuple[int, int] | None = None     # (round, board) submitted, not yet on the table
        self.abandoning: tuple[int, int] | None = None  # (round, board) whose board_abandoned is submitted
        self.asked_at = 0                                # the journal's row when the last of those was submitted
        self.stuck: tuple[Any, ...] | None = None        # what the engine refused, and the table as it was then
        self.sent: tuple[int, int, int] | None = None   # (board, deals started, cards placed) DEAL_BOARD was for
        self.aborted = 0                                 # the deal number an ABORT was sent for
        self.unstopped = 0                               # a void deal a restart found the shoe may be dealing
        self.refused: set[tuple[int, int]] = set()       # (round, board) the table will not place
        self.commitment = commitment                     # pinned by the configuration
        self.session_commitment = ""                     # the one the session's round message names
        self.sent_records = False                        # the session sends this table its records
        self.told_next: tuple[int, int] | None = None    # (round, table) whose next move was said
        self.told_players: str = ""                      # the players' names last said at the table
        self.told_move: tuple[int, int] | None = None    # (round, table) whose "Move for round N" was said
        ctl.on_phase(lambda phase, engine: self.step())
        ctl.on_pack_loaded(lambda pack: self.step())
        ctl.on_shoe_progress(self.step)
        ctl.on_session(self.on_session)
        ctl.board_after = self.board_after   # the status names the next board (controller thread)

    # -- the session -------------------------------------------------------------------------------

    def on_session(self, message: dict[str, Any]) -> None:
        """Controller thread: the session's seating for this table (already journaled)."""
        if message.get("kind") == "round":
            self.session_commitment = commitment_of(message) or self.session_commitment
            return
        if not is_seating(message):             # a duplicate session's seating, or an event's table view
            return
        try:
            seating = seating_from_session(message)
        except ValueError as exc:
            self.ctl.submit(DeviceNote("session", f"seating not used: {exc}"))
            return
        if "hand_records" in message:
            verdict = self._take_records(message)
            self.ctl.journal_note(verdict.note())
            if verdict.refused:
                why = "hand records refused: " + verdict.said()
                told = getattr(self.ctl, "offline", {}).get("records")
                if told is not None and told != why:       # a new reason: the director sees the newest
                    self.ctl.submit(DeviceStatus("records", True, "another message"))
                self.ctl.submit(DeviceStatus("records", False, why))
            elif "records" in getattr(self.ctl, "offline", {}):
                self.ctl.submit(DeviceStatus("records", True, "the session's records check"))
        self.seating = seating
        self._say_move(message)
        self._say_players(message)
        self._say_next(message)
        if not self._newer_seating_waiting():
            self.step()

    def _newer_seating_waiting(self) -> bool:
        """Whether a later seating is already in the controller's queue. A table that comes back gets every
        seating its broker kept for it at once; stepping on each in turn abandoned a board by a round the
        session had left and said a next board it never played ("next: board 6", then board 7 dealt). The
        newest one steps (it is journaled and taken like the others; only the step waits for it)."""
        waiting = getattr(self.ctl, "waiting", None)
        return waiting is not None and any(isinstance(i, SessionInput) and is_seating(i.message) for i in waiting())

    def _say_players(self, message: Mapping[str, Any]) -> None:
        """The names (and member numbers) of the players seated here, said at the table when they change:
        a pairs session's ``players``, or an event's ``names`` (:func:`event_players`)."""
        named = message.get("players")
        sides = []
        if isinstance(named, dict):
            for side, words in (("ns", "North-South"), ("ew", "East-West")):
                people = [p for p in named.get(side) or [] if isinstance(p, dict) and isinstance(p.get("name"), str)]
                if people:
                    sides.append(f"{words} {message.get(side)}: " + " & ".join(
                        str(p["name"])[:60] + (f" ({str(p['member'])[:16]})" if p.get("member") else "")
                        for p in people))
        else:
            sides = event_players(message)
        said = "; ".join(sides)
        if said and said != self.told_players:
            self.told_players = said
            self.ctl.submit(DeviceNote("session", f"Playing here: {said}", level=logging.INFO))

    def _take_records(self, message: Mapping[str, Any]) -> Any:
        """Check the seating's records against the session's commitment and take those that match."""
        pinned = self.commitment or self.session_commitment
        verdict = check_records(message.get("hand_records"), pinned, configured=bool(self.commitment))
        self.records.update(verdict.taken)
        self.sent_records = True
        return verdict

    def _say_next(self, message: Mapping[str, Any]) -> None:
        """Once the round's boards all have results: where the pairs and the boards go (once a round)."""
        said = (message.get("next") or {}).get("said") if isinstance(message.get("next"), dict) else None
        key = (self.seating.round, self.seating.table) if self.seating is not None else None
        if message.get("left") or message.get("sit_out") or not isinstance(said, list) or not said \
                or key is None or key == self.told_next:
            return
        self.told_next = key
        words = "; ".join(str(x)[:80] for x in said[:4])
        self.ctl.submit(DeviceNote("session", f"Round {message.get('round')} is over. {words}",
                                   level=logging.INFO))

    def _say_move(self, message: Mapping[str, Any]) -> None:
        """A table just moved on (the seating's ``move``): "Move for round N." on its display, once a round,
        before the players read its first board (docs/mqtt.md); only its page said it."""
        key = (self.seating.round, self.seating.table) if self.seating is not None else None
        if message.get("move") is True and key is not None and key != self.told_move:
            self.told_move = key
            self.ctl.submit(DeviceNote("session", f"Move for round {key[0]}.", level=logging.INFO))

    def last_seating(self) -> TableRound | None:
        """The newest seating the journal holds (a restarted table without its broker goes on with it)."""
        found: TableRound | None = None
        for row in self.ctl.journal.rows():
            msg = row.body.get("session") if row.kind == "note" else None
            if isinstance(msg, dict) and msg.get("kind") == "round":
                self.session_commitment = commitment_of(msg) or self.session_commitment
            if is_seating(msg):
                try:
                    found = seating_from_session(msg)
                except ValueError:
                    continue
                if "hand_records" in msg:
                    self._take_records(msg)      # the records it took before the restart, checked again
                self.told_next = None if msg.get("left") else (found.round, found.table)
                self.told_move = (found.round, found.table) if msg.get("move") is True else self.told_move
        return found

    # -- the steps ---------------------------------------------------------------------------------

    def resume(self) -> None:
        """Continue the step the journal says the table is at (a restarted host)."""
        if self.seating is None and self.source == "session":
            self.seating = self.last_seating()
        state = self.ctl.engine.state
        b = board_of(state)
        d = state.deal
        if b is not None and b.how == "shoe" and state.phase is Phase.DEALING and d is not None:
            self.sent = (b.number, state.deals_started, len(d.dealt))   # the shoe is dealing it
        elif self.how == "shoe" and d is not None and d.void and not d.ended:
            # killed between the void and its ABORT (or before the shoe said it stopped): stop it now
            self.unstopped = d.number
        self.step()

    def _unplayed(self) -> list[int]:
        """The boards of the round not yet played here, in order (none: the round is over, or no seating)."""
        s = self.seating
        if s is None:
            return []
        named = dict(s.records)
        done = {p[2] for p in played_here(self.ctl.engine.state) if (p[0], p[1]) == (s.section, s.round)
                and (len(p) < 4 or p[2] not in named or named[p[2]] == p[3])}   # this session's record only
        return [n for n in s.boards if n not in done and (s.round, n) not in self.refused]

    def next_board(self) -> int | None:
        """The first board of the round not yet played here (None: the round is over, or no seating)."""
        return next(iter(self._unplayed()), None)

    def board_after(self) -> int | None:
        """The board that comes to the table after the one on it, this round (None: none is left here, the
        round is over for this table). The status says it (its ``duplicate``'s ``next``) so the panel tells
        the players, once they confirmed the round's last board, to wait for the move: it said "the next
        board comes to the table" though none came."""
        b = board_of(self.ctl.engine.state)
        s = self.seating
        on_table = (b.round, b.number) if b is not None and s is not None else None
        return next((n for n in self._unplayed() if (s.round if s else None, n) != on_table), None)

    def step(self) -> None:
        """Controller thread: place the next board, or deal the one on the table."""
        state = self.ctl.engine.state
        b = board_of(state)
        s = self.seating
        if b is not None and self.placing == (b.round, b.number):
            self.placing = None                 # it is on the table
        if self.how == "shoe":
            self._stop_void_deal()
        if (self.placing or self.abandoning) and self._refused_since():
            # the engine refused it (set aside): ask again once the table has changed, not at once
            self.stuck = (self.placing or self.abandoning, self._situation())
            self.placing = self.abandoning = None
        if b is not None and s is not None and self._scored_by_session(b, s):
            self._abandon(b, s)
            return
        if s is not None and (b is None or b.done or (b.section, b.round) != (s.section, s.round) and not b.started):
            self._place(b)
            return
        if b is not None and self.how == "shoe" and b.how == "shoe" and not b.done:
            self._deal(b)

    def _refused_since(self) -> bool:
        """Whether a board or board_abandoned of ours was set aside since we submitted the last (the
        engine refused it: ``table.setaside``), so it will never be on the table and we may ask again."""
        return any(a.type in ("board", "board_abandoned") and a.source == self.source and a.row > self.asked_at
                   for a in getattr(self.ctl, "set_aside", ()))

    def _situation(self) -> tuple[Any, ...]:
        """The board on the table and the phase: what a refused request is tried again after a change of."""
        state = self.ctl.engine.state
        b = board_of(state)
        return (state.phase, None) if b is None else (state.phase, b.number, b.round, b.done)

    def _asking(self, key: tuple[int, int]) -> bool:
        """Whether to submit the request for ``key`` now: not while the same was refused and nothing changed."""
        if self.stuck is not None and self.stuck == (key, self._situation()):
            return False
        self.stuck = None
        self.asked_at = getattr(self.ctl, "seq", 0)
        return True

    def _scored_by_session(self, b: BoardAtTable, s: TableRound) -> bool:
        """The board on the table is not confirmed here, but the session holds its result: the seating's
        round is later than the board's (every board of the rounds before has a result, or was taken off),
        or the board is of the seating's round and no longer left to play. A board whose line the director
        took off to be replayed (the seating's ``replay``) is not: the session waits for its result, so the
        table plays it on (taken off while the table was down, it is still in play here)."""
        if self.source != "session" or b.done or b.round is None or b.section != s.section \
                or (b.round, b.number) in s.replay:
            return False
        return b.round < s.round or b.round == s.round and b.number not in s.boards

    def _abandon(self, b: BoardAtTable, s: TableRound) -> None:
        """Abandon the board the session has scored, saying so on the display and in the journal; the
        next step places the seating's next board."""
        key = (b.round or 0, b.number)
        if self.abandoning == key or not self._asking(key):
            return                              # submitted, not yet taken; or refused, and nothing changed
        self.abandoning = key
        n = self.next_board()
        then = f"next: board {n}" if n is not None else "no board is left to play here now"
        self.ctl.submit(DeviceNote("session", f"{b.place()[0].upper()}{b.place()[1:]} was scored by the director "
                                   "(the session holds its result): its play here is abandoned and nothing of it "
                                   f"is sent; {then}.", level=logging.INFO))
        self.ctl.submit(LawInput(BoardAbandoned(b.number, b.round), self.source))

    def _place(self, b: BoardAtTable | None) -> None:
        s = self.seating
        n = self.next_board()
        if s is None or n is None:
            return
        if b is not None and not b.done and (b.number, b.round) == (n, s.round):
            return
        if self.placing == (s.round, n):
            return
        rec = self.records.get(n)
        named = dict(s.records).get(n)
        if rec is None and self.sent_records:
            return                  # not taken (refused, the director sees why): the session sends it again
        why = ""
        if rec is None:
            why = f"board {n} is not in this table's hand records"
        elif named is not None and named != rec.fingerprint:
            why = (f"board {n}: the session's record ({named[:16]}...) is not this table's ({rec.fingerprint[:16]}...): "
                   "the table's hand records are another file")
        if why:
            self.refused.add((s.round, n))
            self.ctl.submit(DeviceNote("session", why + "; the board is not played here"))
            self.step()
            return
        assert rec is not None
        if not self._asking((s.round, n)):
            return
        self.placing = (s.round, n)
        self.ctl.submit(LawInput(BoardPlaced(n, rec.fingerprint, rec.deal.pbn(), how=self.how, section=s.section,
                                             table=s.table, round=s.round, ns=s.ns, ew=s.ew), self.source))

    def _stop_void_deal(self) -> None:
        """ABORT a deal the table has given up while the shoe may still be dealing it: voided (``DB-6``, the
        wrong board ``DB-15``) or its board abandoned (the session holds its result), so the shoe stops
        instead of filling four pockets nobody plays from. The deal is the one our last DEAL_BOARD began
        (sent when one deal fewer had started) or went on with (a restart mid-deal, a short board's
        finish). Once a deal, and before any DEAL_BOARD of the next board (the link keeps their order), so
        it never stops the next board; a shoe that had finished meanwhile answers status 2 and does
        nothing (hardware/shoe/PROTOCOL.md, ABORT)."""
        from firmware_host.shoe import messages as m

        state = self.ctl.engine.state
        d = state.deal
        if self.link is None or d is None or not d.void or state.phase is Phase.DEALING or self.aborted >= d.number:
            return
        if self.sent is not None and self.sent[1] in (d.number - 1, d.number):
            self.aborted = d.number
            self.link.send(m.Abort())
        elif self.unstopped == d.number and getattr(self.link, "caught_up", True):
            # after a restart, once the journal holds all the shoe sent while the table was down: if the
            # shoe said it finished the deal (its deal_end or board_short, journaled though the engine
            # ignored it) it is idle, and a deal it began since would be the journal's deal, not this one
            self.unstopped = 0
            if not self._shoe_finished_last_deal():
                self.aborted = d.number
                self.link.send(m.Abort())
                log.info("the shoe stopped: deal %d was void when the table stopped, and the shoe had not "
                         "said it finished it", d.number)

    def _shoe_finished_last_deal(self) -> bool:
        """Whether the journal holds the end of the last deal it holds the start of: a ``deal_end`` or
        ``board_short`` row after the last ``deal_start`` (the shoe's, or the table's own for a shoe that
        restarted mid-board). Rows of events the engine ignored count: a void deal's end is one. One
        ``lost`` does not: the table ended the deal for messages lost on the link, the shoe dealing on."""
        finished = False
        for row in self.ctl.journal.rows():
            kind = row.body.get("type") if row.kind == "event" else None
            if kind == "deal_start":
                finished = False
            elif kind in ("deal_end", "board_short") and row.body.get("lost") is not True:
                finished = True
        return finished

    def _deal(self, b: BoardAtTable) -> None:
        from firmware_host.shoe.boards import board_id_of, deal_board

        state = self.ctl.engine.state
        d = state.deal
        link = self.link
        assert link is not None
        if not getattr(link, "caught_up", True) or self.ctl.loaded_pack is None:
            return                              # the shoe has not told all it did, or has no pack
        fresh = b.deal == 0 or (d is not None and d.void and b.deal == d.number)
        short = d is not None and not d.void and not d.ended and b.deal == d.number and bool(b.short)
        if not (fresh or short):
            return
        placed = frozenset(c for _, c in d.dealt if c is not None) if short and d is not None else frozenset()
        if len(placed) == 52:
            return                              # the missing cards are placed: the shoe's DEAL_END follows
        key = (b.number, state.deals_started, len(placed))
        if self.sent == key:
            return
        self.sent = key
        if d is not None and d.void:
            self.aborted = max(self.aborted, d.number)   # done with: an ABORT now would stop this board
        rec = b.record
        link.send(deal_board(rec.number, rec.deal.assignment(), board_id_of(rec.fingerprint), placed=placed))
        log.info("board %d sent to the shoe%s", rec.number, f" ({len(placed)} cards placed)" if placed else "")


def fixed_seating(section: str, table: int, round_: int, ns: str, ew: str, boards: Sequence[int]) -> TableRound:
    """The seating of a table that plays alone (its configuration)."""
    return TableRound(section, table, round_, ns, ew, tuple(boards))
