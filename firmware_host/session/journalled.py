"""The journalled service every kind of session runs on (``laws/session/kind.py`` is the seam): its
records in a hash-chained journal of its own (``firmware_host.records.journal``, ``session.sqlite3`` in the
session's folder), its state a pure fold rebuilt from that journal on a restart.

* row 1, an ``event`` ``{"type": "opened", "setup": {...}}`` (the kind's setup);
* then one ``event`` per record taken and one ``note`` ``{"refused": {"record": ..., "why": ...}}`` per
  record not taken, so nothing that came in is lost and the director sees every refusal with its reason.

:meth:`JournalledService.submit` checks records against the state as it stands after the ones before
them, journals them all in one transaction, and only then applies them and answers; when the commit
fails nothing is applied (the state is rebuilt from the journal) and :class:`SessionFileError` says so.
:class:`SessionOrdering` (below) holds what it could not commit and answers a source only after the commit.

A kind of session subclasses :class:`JournalledService` with its ``KIND`` and, if it needs them, the hooks
``_caveat`` (taken, with a word for the source), ``_applied`` (what changed) and ``_note_refusal`` (a
note of its own read back as a refusal). ``duplicate_session.Session`` is the first.

**The intake** (:class:`SessionOrdering`): what the club's session promises the tables, in one place
(``docs/ordering.md``, "The session"): the table's promises (``firmware_host/table/ordering.py``) kept one
level up.

1. **Every message from outside is read by the one checked reader** (``wire.reader`` through
   ``wire.duplicate.parse_result``): a payload too large, not UTF-8, nested too deeply, not JSON or malformed
   becomes a refusal (data), never an exception, and **no message stops the ones after it**.
2. **Answered only once committed.** A table's ``board`` message is answered (``taken``, ``repeat`` or
   ``refused`` in its seating's ``answers``) only after its record, or the note of its refusal, is
   committed in the session's journal. The table sends a result again until it is answered
   (``tablelink/duplicate_results.py``), so a session killed between receiving and committing loses nothing.
3. **A batch whose commit fails is held, not dropped**: it stays first in line, with everything that
   arrives after it, in order; the commit is tried again after 0.25 s, then 0.5, 1, 2, 4, 8, 8 ... s;
   meanwhile nothing is answered and the fault is shown (:attr:`SessionOrdering.fault`). When a commit
   works the held messages are taken exactly as if nothing had happened. At most ``HELD_MOST`` messages
   are held; past that a message is let go **unanswered**, so its table sends it again (memory stays
   bounded, and nothing a table confirmed is lost: it is in the table's journal and resent until answered).
4. **A director's decision stands** over any resend of the same board by the same table, and **a
   reused message number is never a silent drop** (``laws/session/duplicate/state.py``: both are checks of the pure model).
5. **One login cannot make the club's machine write without bound**: every refusal is a note, but each
   table's login has a budget of ``BURST`` notes, given back at one every ``REFILL`` seconds; past it a
   refused message is counted, not written, and the count is journaled as one note
   ``{"refusals_not_written": {table, count, bytes, why}}`` when the budget allows again (at most one such
   note per ``REFILL`` seconds per login), at the first take after that, whether or not a message came
   (the desk takes every tick, so a login that went quiet still has its count written). A table's own results are never counted against it unless
   the session refuses them.

The intake serves any kind of session (a :class:`JournalledService`; the kind's reader is ``read``, the
duplicate's ``wire.duplicate.parse_result`` by default). It owns no client and no thread: the kind's desk
gives it messages (:meth:`SessionOrdering.offer`, any thread) and calls :meth:`SessionOrdering.take` (one
thread at a time, the session's lock held) off the asyncio loop, since a commit waits for the disk.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from firmware_host.records.journal import Journal, JournalError
from firmware_host.wire.duplicate import LinkError, parse_result
from firmware_host.wire.topics import TOPICS
from laws.session.kind import HOLD, REPEAT, Kind

log = logging.getLogger(__name__)

SESSION_FILE = "session.sqlite3"
PART = ".part"   # a session's journal being made (renamed into place once its first row is committed)
REFUSALS_KEPT = 200
S = TypeVar("S", bound="JournalledService")


class SessionFileError(RuntimeError):
    """The session's journal cannot be created, read or written; the message names the file."""


#: each kind of session (``Kind.name``) in a user's words, and the command that reads its folder
KIND_WORDS = {"duplicate": ("a duplicate pairs session", "cardtable duplicate"),
              "event": ("a teams, Swiss, individual or sections event", "cardtable event"),
              "euchre": ("a euchre night", "cardtable euchre")}


def other_kind(kind: Kind, setup: Any) -> str:
    """The name of the kind of session whose setup ``setup`` is, when it is not ``kind``'s ("" when no
    kind reads it): so that a folder given to the wrong command is named for what it holds rather than
    for the first field the wrong kind's reader missed (``an event's setup has no field 'club'``)."""
    from laws.euchre_night.night import EUCHRE
    from laws.session.duplicate.duplicate_kind import DUPLICATE
    from laws.session.event.event_kind import EVENT

    for other in (DUPLICATE, EVENT, EUCHRE):
        if other.name == kind.name:
            continue
        try:
            other.setup_from_dict(setup)
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
        return other.name
    return ""


@dataclass(frozen=True)
class Outcome:
    """What became of one submitted record: ``taken``, ``repeat`` (dropped, seen before), ``refused``, or
    ``held`` (not yet: the kind's ``check`` said ``HOLD``; nothing journaled, nothing to answer)."""

    status: str
    why: str = ""
    record: Mapping[str, Any] | None = None

    @property
    def taken(self) -> bool:
        return self.status == "taken"


def unjournalable(rec: Mapping[str, Any]) -> str:
    """Why ``rec`` cannot be written to the journal ("" when it can): a lone surrogate in its text
    (``"\\ud800"``) or a number JSON has not (``NaN``, ``Infinity``), wherever it comes from."""
    try:
        json.dumps(rec, allow_nan=False, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return "the record cannot be journaled: its text holds a lone surrogate (such as \\ud800), which is not text"
    except (TypeError, ValueError) as exc:
        return f"the record cannot be journaled ({exc})"
    return ""


def _files_of(db: Path) -> tuple[Path, ...]:
    return (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm"), db.with_name(db.name + "-journal"))


def _fsync(path: Path) -> None:
    """Flush a file, or a folder's entries, to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def session_path(folder: str | Path) -> Path:
    p = Path(folder)
    return p if p.suffix == ".sqlite3" else p / SESSION_FILE


def make_journal(folder: str | Path, setup: Any, clock: Callable[[], float], synchronous: str) -> Journal:
    """A new session's journal in ``folder`` with its opening row, all or nothing whenever it is stopped
    (a kill, a power cut): made and its first row committed under another name, then renamed into place
    in one step. A folder holds a session that opens, or none at all (a ``.part`` left by a stop is made
    again).

    Raises:
        SessionFileError: the journal cannot be made, or a session is already there.
    """
    path = session_path(folder)
    if path.exists() and path.stat().st_size:
        raise SessionFileError(f"{path}: a session is already there (open it, or choose another folder)")
    part = path.with_name(path.name + PART)
    journal = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:   # the folder is a file, or lies under one, or cannot be made: nothing is made
        why = ("a file is there, not a folder" if isinstance(exc, FileExistsError) else
               "it lies under a file" if isinstance(exc, NotADirectoryError) else exc.strerror or exc)
        raise SessionFileError(f"{path.parent}: cannot be the session's folder ({why})") from None
    try:
        for leftover in _files_of(part):
            leftover.unlink(missing_ok=True)
        journal = Journal.open(part, synchronous=synchronous)
        journal.append("event", {"type": "opened", "setup": setup.to_dict()}, clock())
        journal.close()
        journal = None
        _fsync(part)
        os.replace(part, path)
        _fsync(path.parent)
        return Journal.open(path, synchronous=synchronous, create=False)
    except (OSError, JournalError, ValueError) as exc:
        if journal is not None:
            journal.close()
        for leftover in _files_of(part):  # nothing is made: the folder is as it was
            try:
                leftover.unlink(missing_ok=True)
            except OSError:               # no folder to hold it (a path under a file): nothing was made
                pass
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise SessionFileError(f"{path}: the session's journal cannot be made ({why})") from None


class JournalledService:
    """A journalled session of one kind (see the module docstring). Build one with :meth:`create` or
    :meth:`open` (a subclass's ``KIND`` says which kind)."""

    KIND: ClassVar[Kind]

    def __init__(self, journal: Journal, state: Any, clock: Callable[[], float],
                 refusals: list[dict[str, Any]]) -> None:
        self.journal = journal
        self.state = state
        self.clock = clock
        self.refusals = refusals[-REFUSALS_KEPT:]
        self.refusals_seen = len(refusals)   # every refusal of the journal, kept or not (``duplicate show``)
        self.version = 0              # goes up with every change (the screens compare it)
        self.fault: str | None = None  # why the journal cannot be written now (``SessionOrdering``), or None
        self._needs_rebuild = False    # a failed commit whose rebuild from the journal failed too

    @property
    def setup(self) -> Any:
        return self.state.setup

    # -- opening ------------------------------------------------------------------------------------

    @classmethod
    def _journal_of(cls, folder: str | Path, setup: Any, clock: Callable[[], float],
                    synchronous: str) -> tuple[Journal, Any]:
        """A new session's journal and its starting state (the setup refused first, nothing made)."""
        state = cls.KIND.start(setup)
        return make_journal(folder, setup, clock, synchronous), state

    @classmethod
    def _read(cls, folder: str | Path, *, readonly: bool, synchronous: str) -> tuple[Journal, Any, list[Any]]:
        """The journal in ``folder``, verified, its setup and its rows after the opening one.

        Raises:
            SessionFileError: no session there, a journal that is not one, or a chain that does not verify.
        """
        path = session_path(folder)
        if not path.exists():
            raise SessionFileError(f"{path}: no session here (make one with 'cardtable duplicate open')")
        try:
            journal = Journal.open_readonly(path) if readonly else Journal.open(path, synchronous=synchronous,
                                                                                   create=False)
            check = journal.verify()
            if not check.ok:
                raise SessionFileError(f"{path}: the journal does not verify (row {check.bad_seq}: {check.reason})")
            rows = list(journal.rows())
        except JournalError as exc:
            raise SessionFileError(str(exc)) from None
        if not rows or rows[0].kind != "event" or rows[0].body.get("type") != "opened":
            raise SessionFileError(f"{path}: the first row is not a session's opening row")
        try:
            setup = cls.KIND.setup_from_dict(rows[0].body["setup"])
        except ValueError as exc:
            journal.close()
            other = other_kind(cls.KIND, rows[0].body.get("setup"))
            if other:
                (held, command), (wanted, _) = KIND_WORDS[other], KIND_WORDS[cls.KIND.name]
                raise SessionFileError(f"{path}: the folder holds {held}, not {wanted}; {command} reads it") from None
            raise SessionFileError(f"{path}: {exc}") from None
        return journal, setup, rows[1:]

    @classmethod
    def _replayed(cls, path: Path, setup: Any, rows: list[Any]) -> tuple[Any, list[dict[str, Any]]]:
        """The state from the taken records and the refusals from the notes."""
        state, skipped = cls.KIND.replay(setup, [r.body for r in rows if r.kind == "event"])
        for problem in skipped:
            log.warning("%s: a journaled record no longer applies and is skipped: %s", path, problem)
        refusals = []
        taken: Mapping[str, Any] | None = None   # the record just before a note: the one a caveat is about
        for r in rows:
            if r.kind == "event":
                taken = r.body
            elif r.kind == "note":
                found = cls._note_refusal(r.body, r.t, taken)
                if found is not None:
                    refusals.append(found)
        return state, refusals

    @classmethod
    def _note_refusal(cls, body: Mapping[str, Any], t: float,
                      taken: Mapping[str, Any] | None = None) -> dict[str, Any] | None:
        """A note read back as a refusal the director sees (a kind may add notes of its own); ``taken`` is
        the record journaled just before it (a ``_caveat``'s note follows the record it is about), so the
        entry read back is the one the director saw before the restart."""
        if isinstance(body.get("refused"), dict):
            return dict(body["refused"], t=t)
        return None

    def close(self) -> None:
        self.journal.close()

    # -- the kind's hooks ---------------------------------------------------------------------------

    def _caveat(self, rec: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
        """A record about to be taken: a word for its source ("" none) and a note to journal with it."""
        return "", None

    def _applied(self, applied: list[Mapping[str, Any]]) -> None:
        """After a commit: the records that were taken (a kind marks what changed)."""

    def _rebuilt(self) -> None:
        """After a failed commit rebuilt the state from the journal."""

    def _rebuild_state(self, why: str) -> None:
        """The state again from the journal, after a failed commit applied a batch it did not write. A read
        that fails too leaves ``_needs_rebuild`` set, and the caller is told nothing was taken (its messages
        stay held, so no table's resend is answered as a repeat of a result in no journal).

        Raises:
            SessionFileError: the journal cannot be read either.
        """
        try:
            self.state, _ = self.KIND.replay(self.setup, [r.body for r in self.journal.rows() if r.kind == "event"][1:])
        except JournalError as exc:
            raise SessionFileError(f"{self.journal.path}: {why}; nor read ({exc}); nothing was taken") from None
        self._needs_rebuild = False
        self._rebuilt()
        self.version += 1

    # -- changing -----------------------------------------------------------------------------------

    def submit(self, records: Iterable[Mapping[str, Any]]) -> list[Outcome]:
        """Check, journal (one transaction) and apply records, in order.

        Raises:
            SessionFileError: the journal cannot be written; nothing is applied (the state is rebuilt from
                the journal).
        """
        if self._needs_rebuild:     # the state still holds a batch no journal has: put right before anything
            self._rebuild_state("the journal could not be read after a failed commit")
        outcomes: list[Outcome] = []
        rows: list[tuple[str, dict[str, Any], float]] = []
        now = self.clock()
        applied: list[Mapping[str, Any]] = []
        for rec in records:
            if rec.get("type") == "message":  # a message the link could not read: its refusal is the record
                why = str(rec.get("why_link") or "the message could not be read")
                kept = {k: v for k, v in rec.items() if k != "why_link"}
                rows.append(("note", {"refused": {"record": kept, "why": why}}, now))
                outcomes.append(Outcome("refused", why, kept))
                continue
            if rec.get("type") == "unwritten":  # refusals past a login's bound: counted in one note
                rows.append(("note", {"refusals_not_written": {k: v for k, v in rec.items() if k != "type"}}, now))
                continue
            unwritable = unjournalable(rec)
            if unwritable:  # refused with the record as ASCII text: the refusal itself can be journaled
                kind, by = rec.get("type"), rec.get("by")
                plain = [isinstance(v, str) and v.isascii() and v.isprintable() and len(v) <= 80 for v in (kind, by)]
                safe = {"type": kind if plain[0] else ascii(kind)[:40], "text": ascii(dict(rec))[:4000]}
                if plain[1]:
                    safe["by"] = by          # whose record it was: the director's list, or the tables'
                for key in ("table", "source"):   # which table's message it was, so that its answer names it
                    v = rec.get(key)
                    if isinstance(v, str) and v.isascii() and v.isprintable() and len(v) <= 90:
                        safe[key] = v
                if isinstance(rec.get("hand"), int):   # a euchre hand's number (or a bool), never a LongNumber
                    safe["hand"] = rec["hand"]
                rows.append(("note", {"refused": {"record": safe, "why": unwritable}}, now))
                outcomes.append(Outcome("refused", unwritable, safe))
                continue
            why = self.state.check(rec)
            if why == REPEAT:
                outcomes.append(Outcome("repeat", record=rec))
                continue
            if why == HOLD:   # not yet: neither journaled nor answered (the source sends it again)
                outcomes.append(Outcome("held", record=rec))
                continue
            if why:
                rows.append(("note", {"refused": {"record": dict(rec), "why": why}}, now))
                outcomes.append(Outcome("refused", why, rec))
                continue
            caveat, note = self._caveat(rec)
            self.state.apply(rec)
            applied.append(rec)
            rows.append(("event", dict(rec), now))
            if note is not None:  # the source and the director are told: never taken or dropped unsaid
                rows.append(("note", note, now))
            outcomes.append(Outcome("taken", caveat, rec))
        if not rows:
            return outcomes
        try:
            self.journal.append_many(rows)
        except (JournalError, ValueError) as exc:
            log.error("session journal %s cannot be written (%s); nothing of this batch is taken", self.journal.path, exc)
            self._needs_rebuild = True
            self._rebuild_state(f"cannot be written ({exc})")
            raise SessionFileError(f"{self.journal.path}: cannot be written ({exc}); nothing was taken") from None
        for o in outcomes:
            if o.status == "taken" and o.why:
                self.refusals_seen += 1
                self.refusals = [*self.refusals, {"record": dict(o.record or {}), "why": "taken, but " + o.why,
                                                  "t": now}][-REFUSALS_KEPT:]
                log.warning("session: %s", o.why)
            if o.status == "refused":
                self.refusals_seen += 1
                self.refusals = [*self.refusals, {"record": dict(o.record or {}), "why": o.why, "t": now}][-REFUSALS_KEPT:]
                log.warning("session: refused %s: %s", (o.record or {}).get("type"), o.why)
        if applied:
            self.version += 1
            self._applied(applied)
        return outcomes

    def refuse(self, items: Iterable[tuple[Mapping[str, Any], str]]) -> None:
        """Journal records refused before they reached the checks (a message the link could not read)."""
        now = self.clock()
        rows = [("note", {"refused": {"record": dict(rec), "why": why}}, now) for rec, why in items]
        if not rows:
            return
        try:
            self.journal.append_many(rows)
        except (JournalError, ValueError) as exc:
            raise SessionFileError(f"{self.journal.path}: cannot be written ({exc})") from None
        for _kind, body, _t in rows:
            self.refusals_seen += 1
            self.refusals = [*self.refusals, {**body["refused"], "t": now}][-REFUSALS_KEPT:]
            log.warning("session: refused a message: %s", body["refused"]["why"])

    def journal_recovered(self, failed_commits: int) -> None:
        """Note that the journal is writable again after ``failed_commits`` failed commits (best effort:
        the records themselves are already committed)."""
        try:
            self.journal.append("note", {"journal": "recovered", "failed_commits": failed_commits}, self.clock())
        except (JournalError, ValueError) as exc:
            log.warning("session: the recovery note could not be written (%s)", exc)

    def take(self, rec: Mapping[str, Any]) -> Outcome:
        """One record (``submit`` of one)."""
        return self.submit([rec])[0]


# -- the intake: what the session promises its sources -----------------------------------------------

BACKOFF = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0)
BURST = 100          # refusal notes a login may cause at once
REFILL = 6.0         # seconds to give one back (10 a minute)
PAYLOAD_KEPT = 2000  # bytes of a refused payload kept in its note
HELD_MOST = 5000     # messages held while the journal cannot be written (at most 64 KiB each)


@dataclass
class _Budget:
    tokens: float
    at: float
    unwritten: int = 0
    unwritten_bytes: int = 0
    why: str = ""


class SessionOrdering:
    """The session's intake (see the module docstring).

    Args:
        session: the open session.
        clock: monotonic seconds (the retry delays and the budgets).
        read: a message to its record (``wire.duplicate.parse_result``; the desk's reads a table's member cards too),
            raising ``LinkError`` naming what is wrong.
        says: what a message ``read`` refused still says plainly (``wire.duplicate.refused_says``: its
            ``source`` and ``board``), so its ``refused`` answer names it; None: nothing.
    """

    def __init__(self, session: JournalledService, clock: Callable[[], float] = time.monotonic, *,
                 read: Callable[[str, bytes], dict[str, Any]] = parse_result,
                 says: Callable[[str, bytes], dict[str, Any]] | None = None) -> None:
        self.session = session
        self.clock = clock
        self.read = read
        self.says = says
        self.inbox: deque[tuple[str, bytes]] = deque()
        self.held: list[tuple[str, bytes]] = []
        self.fault: str | None = None
        self.failed_commits = 0
        self.let_go = 0      # messages not held (past HELD_MOST): unanswered, so sent again
        self._next_try = 0.0
        self._budgets: dict[str, _Budget] = {}
        self._spent: list[tuple[str, int]] = []   # this batch's refusals: (login, -1 a note, or bytes counted)

    def offer(self, topic: str, payload: bytes) -> None:
        """A table's ``board`` (or ``players``) message (any thread)."""
        self.inbox.append((topic, bytes(payload)))

    @property
    def waiting(self) -> int:
        """Messages not yet committed (held after a failed commit, or just arrived)."""
        return len(self.held) + len(self.inbox)

    def take(self) -> list[Outcome] | None:
        """Read, check and commit what has arrived (held messages first). Returns the outcomes, each
        committed (so each may be answered), or None when nothing was committed (nothing came, or the
        journal cannot be written: everything stays held)."""
        now = self.clock()
        if self.held and now < self._next_try:
            while self.inbox:  # in order behind the held ones, up to HELD_MOST
                item = self.inbox.popleft()
                if len(self.held) < HELD_MOST:
                    self.held.append(item)
                else:  # not answered, so its table sends it again: memory stays bounded, nothing is lost
                    self.let_go += 1
                    if self.let_go == 1:
                        log.error("session: %d messages held; more are let go unanswered (their tables send "
                                  "them again)", HELD_MOST)
            return None
        batch = self.held
        while self.inbox:
            batch.append(self.inbox.popleft())
        self.held = []
        if not batch and not any(b.unwritten for b in self._budgets.values()):
            return None
        self._spent = []
        records = [self._record(topic, payload, now) for topic, payload in batch]
        counts = self._unwritten_notes(now)   # on a quiet tick too: written when the budget allows again
        if not batch and not counts:
            return None
        try:
            outcomes = self.session.submit([r for r in records + counts if r.get("type") != "quiet"])
        except SessionFileError as exc:
            for note in counts:  # the counts were not written: they stay to be written next time
                b = self._budgets[note["table"]]
                b.unwritten += note["count"]
                b.unwritten_bytes += note["bytes"]
            # nothing of the batch was written: what its refusals took of their logins' budgets is given back,
            # so the same messages, tried again, are noted as the first try would have noted them
            for table, size in self._spent:
                b = self._budgets[table]
                if size < 0:
                    b.tokens = min(float(BURST), b.tokens + 1.0)
                else:
                    b.unwritten -= 1
                    b.unwritten_bytes -= size
            self.held = batch
            delay = BACKOFF[min(self.failed_commits, len(BACKOFF) - 1)]
            self.failed_commits += 1
            self._next_try = now + delay
            if self.fault is None:
                log.error("session: %s; %d message(s) held, tried again in %.2f s", exc, len(batch), delay)
            self.fault = self.session.fault = str(exc)
            return None
        if self.fault is not None:
            log.warning("session: the journal is writable again after %d failed commit(s); %d message(s) taken",
                        self.failed_commits, len(batch))
            self.session.journal_recovered(self.failed_commits)
        self.fault, self.failed_commits = None, 0
        self.session.fault = None
        return outcomes + [Outcome("refused", r["why"], r) for r in records if r.get("type") == "quiet"]

    # -- reading one message ------------------------------------------------------------------------

    def _record(self, topic: str, payload: bytes, now: float) -> dict[str, Any]:
        """The record a message makes: a ``result``, a ``message`` refused by the link, or a ``quiet``
        refusal when the login is past its budget and the session would refuse it (counted, not written;
        answered all the same)."""
        try:
            rec = self.read(topic, payload)
        except LinkError as exc:
            name = TOPICS.parse(topic)
            table = name.table if name is not None and name.table else "?"
            rec = {"type": "message", "table": table, "topic": topic[:200],
                   "payload": payload[:PAYLOAD_KEPT].decode("utf-8", "replace"), "why_link": str(exc)}
            if self.says is not None:   # what it still says plainly (its number, its board) names its answer
                rec.update({k: v for k, v in self.says(topic, payload).items() if k in ("source", "board")})
            why = str(exc)
        else:
            name = TOPICS.parse(topic)
            table = str(rec.get("table") or (name.table if name is not None else "?"))
            why = self.session.state.check(rec)
            if why in ("", REPEAT, HOLD):   # taken, a repeat, or held for later: never a refusal's note
                return rec
        if self._spend(table, now):
            self._spent.append((table, -1))          # a refusal's note, written with the batch
            return rec
        b = self._budgets[table]
        b.unwritten += 1
        b.unwritten_bytes += len(payload)
        self._spent.append((table, len(payload)))    # counted, to be written in a later note
        b.why = why
        # the topic says which message it answers (a board's or member cards'); a quiet record is never journaled
        return {"type": "quiet", "table": table, "topic": topic[:200], "source": rec.get("source", ""),
                "board": rec.get("board"),
                "why": f"refused and not journaled (this login is past its {BURST} refusal notes): {why}"}

    def _spend(self, table: str, now: float) -> bool:
        b = self._budgets.setdefault(table, _Budget(float(BURST), now))
        b.tokens = min(float(BURST), b.tokens + (now - b.at) / REFILL)
        b.at = now
        if b.tokens >= 1.0:
            b.tokens -= 1.0
            return True
        return False

    def _unwritten_notes(self, now: float) -> list[dict[str, Any]]:
        out = []
        for table, b in self._budgets.items():
            if b.unwritten and self._spend(table, now):
                out.append({"type": "unwritten", "table": table, "count": b.unwritten, "bytes": b.unwritten_bytes,
                            "why": b.why[:300]})
                b.unwritten = b.unwritten_bytes = 0
        return out
