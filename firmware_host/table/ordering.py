"""The table's promises, in one place: what is acknowledged is committed, nothing is dropped, a restart
goes on where the table stopped.

Guarantees (the controller keeps them by calling only what is here):

1. **Commit before the engine.** An input's event row is committed to the journal before the law engine
   sees the event (``Ordering.commit``). If that commit fails, the engine and the table are untouched
   and the input stays first in line.
2. **Commit before pins, observers and acknowledgements.** The rulings and lamps an event gives are
   committed before a pin moves or anyone is told (``Ordering.commit_then``). If that commit fails, the
   rows are owed: they are written, and their effects carried out, before any later input is looked at.
3. **Acknowledge only what is committed.** Each message from the shoe is followed in the controller's
   queue by an ``AckPoint``; the shoe is acknowledged when the controller reaches it, i.e. after every
   input that message gave has been committed, and only up to the last message a journal row holds
   (``ack_upto``: a REPLY, which gives no row, waits for the next one that does, since a restart resumes
   after the journal's last mark). Until then the shoe keeps the message and sends it
   again to whoever asks (a restarted host included). A director's command from the club is followed
   the same way by a ``CommandAck``: the broker is acknowledged once the command is committed, and a
   command is done once by its id (``commands``).
4. **Hold on failure, in order.** When the journal refuses a commit (disk full, ``database is locked``
   past the busy timeout, an I/O error) every input waits in arrival order; the fault lamp lights, the
   display and the club status say so, and the commit is retried with exponential backoff on the
   injected clock (``BACKOFF``). When the journal works again the table goes on exactly where it
   stopped. No input is dropped on any exception path: an input that fails for another reason after
   its event was committed is in the journal, and is replayed at the next start.
5. **Restart.** Everything a restart needs is in the journal: the events (the engine is rebuilt from
   them, or from a checkpoint and the rows after it), the lamps (and with them which devices were
   offline), the director's commands answered since (rows with ``"command"``, told again in the
   status), the pack the shoe reported loaded and not yet dealt (a ``pack_loaded`` note), and the last
   shoe message committed (``"shoe": [boot, seq]`` on the row it gave), from which the shoe link resumes. An event whose rulings were not journaled
   before a stop gets them at the restart, once; an event the engine ignored gets its ``ignored`` note.
6. **No journaled input stops a start.** An event the engine refuses or fails on is set aside, live or at
   a restart: the engine goes on without it, a note says so, the display and the status report it
   (``setaside``). Only a journal of another game is refused.

The fault lamp (``journal_fault``) is the one lamp that is not journaled before it lights: it reports that
the journal cannot be written. The fault and its end are journaled as a note once the journal works.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.config import LAMPS
from firmware_host.records.journal import Journal, JournalError
from firmware_host.table import lamps as lamp_policy
from firmware_host.table import setaside
from firmware_host.table.choices import CHECKED
from firmware_host.table.facts import count_pack, shoe_mark
from laws.engine import LawEngine
from laws.events import Event, GameChosen
from laws.rulings import Ruling

log = logging.getLogger(__name__)

BACKOFF = (0.25, 8.0)  # first and longest wait between commit attempts, seconds
CHECKPOINT_ROWS = 2000  # rows between checkpoints (a bridge deal with its play is about 120)
Rows = list[tuple[str, dict[str, Any], float]]


class ControllerError(RuntimeError):
    """The controller cannot start (e.g. the journal belongs to another game)."""


@functools.cache
def laws_version() -> str:
    """A fingerprint of the law engine's source: a checkpoint is used only by the code that took it."""
    import laws

    root = Path(laws.__file__).resolve().parent
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        h.update(p.relative_to(root).as_posix().encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class AckPoint:
    """Every input from shoe message ``seq`` (of shoe boot ``boot``) is ahead of this in the queue."""

    boot: int | None
    seq: int


def ack_upto(journaled: tuple[int | None, int] | None, point: AckPoint) -> int | None:
    """How far the shoe may forget at ``point``: up to the last message the journal holds (``journaled``,
    the mark on its last row of the shoe), never further, None when the journal holds none of that boot.
    A message that gives no row (a REPLY to a command) is so acknowledged with the next one that does: had
    the shoe forgotten it at once, a restart, which resumes after the journal's last mark, would ask the
    shoe for it and hear that it was gone (a REPLY reported lost, and the deal under way ended as lost)."""
    if journaled is None or journaled[0] != point.boot or journaled[1] <= 0:
        return None
    return min(point.seq, journaled[1])


class JournalHeld(Exception):
    """The journal refused a commit; the input waits (raised through the controller to ``pump``)."""


class Ordering:
    """The controller's line of inputs and its gate to the journal.

    Args:
        journal: the journal.
        clock: seconds (injected; the retry times are read from it).
        on_fault: called with the journal's error text when commits start failing, with None when they
            work again (from the consumer thread).
        backoff: first and longest wait between commit attempts.
    """

    def __init__(self, journal: Journal, clock: Callable[[], float],
                 on_fault: Callable[[str | None], None], backoff: tuple[float, float] = BACKOFF) -> None:
        self.journal = journal
        self.clock = clock
        self.on_fault = on_fault
        self.backoff = backoff
        self.backlog: deque[Any] = deque()
        self.fault: str | None = None
        self.fault_since = 0.0
        self.retry_at = 0.0
        self._delay = backoff[0]
        self._owed: tuple[Rows, Callable[[list[int]], None]] | None = None
        self._failures = 0
        self._busy = False
        self.on_done: Callable[[Any], None] = lambda item: None  # an input left the line, completed

    @property
    def held(self) -> int:
        """Inputs waiting (the one whose rows are owed included; not the one being completed now)."""
        return len(self.backlog) - self._busy + (self._owed is not None)

    def commit(self, rows: Rows) -> list[int]:
        """Commit ``rows`` before anything else happens for this input.

        Raises:
            JournalHeld: the journal refused; nothing was written and nothing may change.
        """
        try:
            seqs = self.journal.append_many(rows)
        except JournalError as exc:
            self._failed(str(exc))
            raise JournalHeld(str(exc)) from None
        if self.fault is not None:
            self._recovered()
        return seqs

    def commit_then(self, rows: Rows, then: Callable[[list[int]], None]) -> None:
        """Commit the rows of an input the engine has taken, then call ``then(seqs)``; if the journal
        refuses, the rows and ``then`` are owed and done before any later input.

        Raises:
            JournalHeld: the rows are owed (the input counts as taken).
        """
        if not rows:
            then([])
            return
        try:
            seqs = self.commit(rows)
        except JournalHeld:
            self._owed = (rows, then)
            raise
        then(seqs)

    def pump(self, handle: Callable[[Any], object]) -> int:
        """Take inputs from the backlog to completion, in order, until it is empty or the journal fails
        (then wait for the next retry time). Returns how many inputs were completed."""
        done = 0
        while True:
            if self.fault is not None and self.clock() < self.retry_at:
                return done
            if self._owed is not None:
                rows, then = self._owed
                try:
                    seqs = self.commit(rows)
                except JournalHeld:
                    return done
                self._owed = None
                try:
                    then(seqs)
                except Exception as exc:  # as below: what was owed is committed; the table goes on
                    log.error("an owed step not completed: %s", type(exc).__name__)
            if not self.backlog:
                return done
            item = self.backlog[0]
            self._busy = True
            try:
                handle(item)
            except JournalHeld:
                if self._owed is None:
                    return done  # not taken: it stays first in line
            except Exception as exc:  # a bug must not stop the table; the input's event is journaled
                log.error("input from %s (%s) not completed: %s", getattr(item, "source", "device"),
                          type(getattr(item, "event", item)).__name__, type(exc).__name__)
                self._note_error(item, exc)
            finally:
                self._busy = False
            self.backlog.popleft()
            self.on_done(item)
            done += 1

    def _note_error(self, item: Any, exc: Exception) -> None:
        try:
            self.journal.append("note", {"error": f"{type(exc).__name__}: {exc}", "input": repr(item)},
                                self.clock())
        except (JournalError, ValueError):
            pass

    def _failed(self, text: str) -> None:
        now = self.clock()
        self._failures += 1
        if self.fault is None:
            self.fault, self.fault_since, self._delay = text, now, self.backoff[0]
            log.error("journal cannot be written (%s): holding every input until it can", text)
            self.on_fault(text)
        else:
            self._delay = min(self._delay * 2, self.backoff[1])
        self.retry_at = now + self._delay

    def _recovered(self) -> None:
        now = self.clock()
        since, failures = self.fault_since, self._failures
        self.fault, self._failures, self.retry_at = None, 0, 0.0
        log.warning("journal writable again after %.1f s and %d failed commits", now - since, failures)
        try:
            self.journal.append("note", {"journal": "recovered", "since": round(since, 6),
                                         "failed_commits": failures}, now)
        except JournalError as exc:  # failing again: the next commit says so
            log.debug("recovery note not written: %s", exc)
        self.on_fault(None)


# --- restart -----------------------------------------------------------------------------------------


def restore(ctl: Any) -> None:
    """Rebuild a controller's engine, lamps, loaded pack and shoe position from the journal; start a new
    journal with its game line.

    If the process died between journaling an event and journaling its rulings and lamps, the step is
    completed now: the engine gives the same rulings again, and they are journaled and lit.

    No journaled input stops the table from starting (``setaside``): the rows the journal notes as set
    aside are skipped, and a row the engine cannot take now is set aside (noted, shown, reported in the
    status) and the replay starts again without it.

    Raises:
        ControllerError: the journal is of another game.
    """
    found: list[setaside.SetAside] = []
    while True:
        since, carried = _from_checkpoint(ctl)
        _records(ctl, since, carried, found)
        try:
            replayed, owed, last_event, last_rulings, lamp_after_event, unnoted = _replay(ctl, since,
                                                                                          ctl.set_aside_rows)
            break
        except setaside.Failed as failed:  # set aside; the replay starts again without it
            found.append(failed.aside)
            ctl.engine, ctl.packs, ctl.last_ruling, ctl.loaded_pack, ctl.shoe_mark = LawEngine(ctl.game), {}, \
                None, None, None
            ctl.answers.clear()
    t = ctl.clock()
    rows: Rows = []  # what the journal still owes: the game line of a new journal, an interrupted step
    if replayed == 0 and ctl.seq == 0:
        rows.append(("event", {"type": "game", "game": ctl.game}, t))
    saved = ctl.journal.last_lamps()
    if saved:
        ctl.lamps = {name: bool(saved.get(name, False)) for name in LAMPS}
        # a device lamp follows its device (committed with its note): the journal says which were offline
        # when the table stopped, so a device that comes back is a change, journaled and put out
        for device, lamp in lamp_policy.DEVICE_LAMPS.items():
            ctl.online[device] = not ctl.lamps.get(lamp, False)
    lamps = ctl.lamps
    if last_event is not None and not lamp_after_event:
        deal = ctl.engine.state.deal.number if ctl.engine.state.deal else 0
        rows += [("ruling", r.to_dict() | {"deal": deal}, t) for r in owed]
        if owed:
            log.warning("completing %d ruling(s) interrupted by the last stop", len(owed))
        lamps = lamp_policy.after_event(ctl.lamps, last_event, last_rulings)
        if lamps != ctl.lamps:
            rows.append(("lamp", dict(lamps), t))
    ignored_text: tuple[int, str] | None = None
    if unnoted is not None:  # killed between an ignored event's row and its note: the note is owed too
        rows.append(("note", {"ignored": unnoted}, t))
        ignored_text = ignored_words(ctl.engine.state, str(unnoted.get("type")), str(unnoted.get("src")))
    rows += [("note", aside.note(), t) for aside in found]
    for aside in found:
        setaside.report(ctl, aside)

    def completed(seqs: list[int]) -> None:
        if seqs:
            ctl.seq = seqs[-1]
        for kind, body, _ in rows:
            if kind == "ruling":
                ctl.last_ruling = body
        ctl.lamps = lamps
        ctl._show_lamps()
        if ignored_text is not None:
            log.log(ignored_text[0], "%s (its note completed after the last stop)", ignored_text[1])

    try:  # a journal that cannot be written at boot is held like any other commit, not an exit
        ctl.order.commit_then(rows, completed)
    except JournalHeld:
        pass
    ctl._show_lamps()
    for aside in ctl.set_aside:  # said at every start until the director has acknowledged
        ctl.out.note(aside.text())
    if replayed or since:
        log.info("restored %d events from %s%s", replayed, ctl.journal.path,
                 f" after the checkpoint at row {since}" if since else "")


def ignored_words(state: Any, kind: str, source: str) -> tuple[int, str]:
    """The log level and text of an event the engine ignored (it does not fit the phase). The shoe's
    cards in flight and its deal_end after a ruling voided the deal are how a shoe stops
    (hardware/shoe/PROTOCOL.md, ABORT): expected, so INFO, not a warning."""
    stopping = source == "shoe" and state.deal is not None and state.deal.void
    return (logging.INFO if stopping else logging.WARNING,
            f"{kind} from {source} ignored: the table is in phase {state.phase.value}")


def check_chain(ctl: Any) -> None:
    """At a table's start: check the journal's hash chain, and when it is broken (a row edited or
    removed since it was written: ``cardtable journal verify`` exits 1, TAMPERED) say so in one WARNING
    line naming the row, on the display, and in a note ``{"journal": "tampered", "row": ROW, "why": ...}``.

    The table starts all the same and appends after the last row: refusing would leave a table dead in
    the middle of a session over rows the director can still read, and the note puts the fact in the
    record the director keeps. The chain's new rows follow on from the last row as it is."""
    try:
        result = ctl.journal.verify()
    except JournalError as exc:  # SQLite's own check failed: not proof of tampering, but said the same way
        why, row = f"cannot be verified: {exc}", None
    else:
        if result.ok:
            return
        why, row = result.message(), result.bad_seq
    text = (f"journal TAMPERED: {why}; the table starts all the same and appends after the last row "
            "(a note says so)")
    log.warning("%s", text)
    t = ctl.clock()

    def noted(seqs: list[int]) -> None:
        ctl.seq = seqs[-1]

    try:
        ctl.order.commit_then([("note", {"journal": "tampered", "row": row, "why": why}, t)], noted)
    except JournalHeld:
        pass
    ctl.out.note(text)


def _replay(ctl: Any, since: int,
            skip: set[int]) -> tuple[int, list[Ruling], Event | None, list[Ruling], bool, dict[str, Any] | None]:
    """Feed the journal's rows after row ``since`` (the checkpoint's) to the controller's engine, skipping
    ``skip``.

    Returns:
        (events replayed, the last event's rulings still owed, the last event, its rulings, whether a lamp
        row follows it, the last event's row when the engine ignored it and its ``{"ignored": ...}`` note
        is not in the journal: the process died between the two commits).

    Raises:
        setaside.Failed: a row the engine cannot take (not in ``skip``).
        ControllerError: the journal is of another game.
    """
    replayed = 0
    owed: list[Ruling] = []
    last_event: Event | None = None
    last_rulings: list[Ruling] = []
    lamp_after_event = False
    unnoted: dict[str, Any] | None = None
    ctl._checkpoint_seq = ctl.seq = since
    for row in ctl.journal.rows(since):
        ctl.seq = row.seq
        mark = shoe_mark(row.body)
        if mark is not None:
            ctl.shoe_mark = mark
        if row.kind == "note" and "ignored" in row.body:
            unnoted = None
        restarted = row.body.get("shoe_restarted") if row.kind == "note" else None
        if isinstance(restarted, list) and len(restarted) == 2 and isinstance(restarted[1], int):
            ctl.shoe_mark = (restarted[1], 0)  # the shoe's new boot, none of its messages committed yet
        if row.kind == "lamp":
            lamp_after_event = True
            continue
        if row.kind == "ruling":
            ctl.last_ruling = row.body
            if owed:
                owed.pop(0)
            continue
        command = row.body.get("command")
        if isinstance(command, dict) and isinstance(command.get("id"), str):  # a director's command
            refused = row.body.get("refused")
            kind = {"missing_card": "search", "demand": "choose", "correct": "correct_revoke"}.get(
                str(row.body.get("type")), row.body.get("type"))
            kind = str(command.get("kind", kind))
            if kind in CHECKED:  # told again in the status
                ctl._answer({"id": command["id"], "kind": kind, "ok": refused is None, "why": str(refused or "")})
        if row.kind == "note" and isinstance(row.body.get("pack_loaded"), str):
            ctl.loaded_pack = row.body["pack_loaded"]
        if row.kind != "event" or row.seq in skip:
            continue
        game = row.body.get("game") if row.body.get("type") == "game" else None
        if isinstance(game, str) and game != ctl.game:
            raise ControllerError(f"{ctl.journal.path} is the journal of a {game} table, "
                                  f"but this table plays {ctl.game}")
        ignored = ctl.engine.ignored
        event, rulings = setaside.feed_row(ctl.engine, row.seq, row.body)
        if isinstance(event, GameChosen):
            continue
        if event.TYPE == "deal_start":
            ctl.loaded_pack = None
        owed = rulings
        count_pack(ctl.packs, ctl.engine.state, event)
        # an ignored event lights nothing (live, only its note follows it), so no lamp row is owed for it
        unnoted = row.body if ctl.engine.ignored > ignored else None
        last_event, last_rulings, lamp_after_event = event, list(owed), unnoted is not None
        replayed += 1
    return replayed, owed, last_event, last_rulings, lamp_after_event, unnoted


def _records(ctl: Any, since: int, carried: dict[str, Any] | None, found: list[setaside.SetAside]) -> None:
    """What a restart knows beside the engine: the ids of every director's command the journal holds
    (each is done once, across restarts), the rows it notes as set aside and those still reported (since
    the director's last acknowledgement), and ``found``, set aside by this restart. From the checkpoint's
    copy and the rows after it, or, without one, from the whole journal (found by SQLite's text search,
    so only those rows are decoded)."""
    commands: set[str] = set()
    reported: list[setaside.SetAside] = []
    acked: float | None = None   # the director's latest acknowledgement: a replacement pack's (``lamps.new_pack``)
    if carried is not None:
        commands = {str(c) for c in carried.get("commands", []) if isinstance(c, str)}
        acked = carried["acked"] if isinstance(carried.get("acked"), (int, float)) else None
        reported = [a for a in map(setaside.SetAside.from_note, carried.get("set_aside", [])) if a is not None]
    rows: set[int] = set()
    for row in ctl.journal.rows_with(("command", "set_aside", "ack"), ("event", "note"), since if carried else 0):
        command = row.body.get("command")
        if isinstance(command, dict) and isinstance(command.get("id"), str) and command["id"]:
            commands.add(command["id"])
        if row.kind != "note":
            continue
        if "ack" in row.body:
            reported, acked = [], row.t
        aside = setaside.SetAside.from_note(row.body)
        if aside is not None:
            rows.add(aside.row)
            reported.append(aside)
    ctl.commands_seen = commands
    ctl.pack_in_at = acked
    ctl.set_aside_rows = rows | {a.row for a in found}
    ctl.set_aside = reported[-setaside.REPORTED:]


def _from_checkpoint(ctl: Any) -> tuple[int, dict[str, Any] | None]:
    """Take the engine, pack health, last ruling, loaded pack and shoe position from the journal's newest
    checkpoint taken by this code; returns its row (0: none, replay from the start) and what it carries
    for ``_records`` (None when it carries nothing: the whole journal is searched)."""
    ctl.engine = LawEngine(ctl.game)
    found = ctl.journal.checkpoint(laws_version()) if ctl.checkpoints else None
    if found is None:
        return 0, None
    seq, text = found
    try:
        data = json.loads(text)
        ctl.engine.restore(data["engine"])  # raises SnapshotError (a ValueError) if unusable
        ctl.packs = {str(p): {str(k): int(v) for k, v in c.items()} for p, c in data["packs"].items()}
        ctl.last_ruling = data["last_ruling"]
        loaded = data.get("loaded_pack")
        ctl.loaded_pack = loaded if isinstance(loaded, str) else None
        ctl.shoe_mark = shoe_mark(data)
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        log.warning("checkpoint at row %d of %s not used (%s); replaying the whole journal", seq,
                    ctl.journal.path, exc)
        ctl.engine = LawEngine(ctl.game)
        ctl.packs, ctl.last_ruling, ctl.loaded_pack, ctl.shoe_mark = {}, None, None, None
        return 0, None
    carried = data.get("records")
    return int(seq), carried if isinstance(carried, dict) else None


def checkpoint(ctl: Any, *, force: bool = False) -> None:
    """Save the state a restart starts from (see ``TableController.checkpoint``)."""
    if not ctl.checkpoints or ctl.seq == ctl._checkpoint_seq or \
            (not force and ctl.seq - ctl._checkpoint_seq < CHECKPOINT_ROWS):
        return
    state = json.dumps({"engine": ctl.engine.snapshot(), "packs": ctl.packs, "last_ruling": ctl.last_ruling,
                        "loaded_pack": ctl.loaded_pack,
                        "shoe": list(ctl.shoe_mark) if ctl.shoe_mark is not None else None,
                        # so that a restart need not search the rows before the checkpoint for them:
                        "records": {"commands": sorted(ctl.commands_seen), "acked": ctl.pack_in_at,
                                    "set_aside": [a.note() for a in ctl.set_aside]}})
    try:
        ctl.seq = ctl.journal.save_checkpoint(ctl.seq, laws_version(), state)  # its binding row
    except Exception as exc:  # a checkpoint only saves time at the next start
        log.warning("checkpoint not saved: %s", exc)
        return
    ctl._checkpoint_seq = ctl.seq
