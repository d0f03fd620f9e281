"""A duplicate session on the club's machine: its records journaled, its state rebuilt on restart, its
results scored at once.

Every change is a row of a hash-chained journal of the session's own (``firmware_host.records.journal``,
the file ``session.sqlite3`` in the session's folder), committed before anything is shown:

* row 1, an ``event`` ``{"type": "opened", "setup": {...}}``: the movement's spec, the hand records and
  their commitment, the method, the pairs, the club's tables;
* then one ``event`` per record that was taken (``session_state`` lists them) and one ``note``
  ``{"refused": {"record": ..., "why": ...}}`` per record that was not, so nothing that came in is lost
  and the director sees every refusal with its reason.

:meth:`Session.open` replays the rows into the same state. :meth:`Session.submit` takes records (from
the tables or the director), checks each against the state as it stands after the ones before it,
journals them all in one transaction, and applies them; a refused record changes nothing.
:meth:`Session.scored` is the whole session scored by ``laws.scoring.score_session`` (recomputed after
each change, at most once per change).
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.duplicate.analysis import Analyser, Analysis
from firmware_host.duplicate.session_state import SessionState, replay
from firmware_host.duplicate.spec import SessionSetup, SetupError
from firmware_host.records.journal import Journal, JournalError
from laws.scoring import Pair, ScoredBoard, SessionResult, Tally, rank_tallies, score_boards, score_session
from laws.scoring.session import NO_TALLY

log = logging.getLogger(__name__)

SESSION_FILE = "session.sqlite3"
PART = ".part"   # a session's journal being made (renamed into place once its first row is committed)
REFUSALS_KEPT = 200


class SessionFileError(RuntimeError):
    """The session's journal cannot be created, read or written; the message names the file."""


@dataclass(frozen=True)
class Outcome:
    """What became of one submitted record: ``taken``, ``repeat`` (dropped, seen before) or ``refused``."""

    status: str
    why: str = ""
    record: Mapping[str, Any] | None = None

    @property
    def taken(self) -> bool:
        return self.status == "taken"


def _unjournalable(rec: Mapping[str, Any]) -> str:
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


class Session:
    """A journaled session. Build one with :meth:`create` or :meth:`open`."""

    def __init__(self, journal: Journal, state: SessionState, clock: Callable[[], float],
                 refusals: list[dict[str, Any]], *, analyse: bool = True) -> None:
        self.journal = journal
        self.state = state
        self.clock = clock
        self.refusals = refusals[-REFUSALS_KEPT:]
        self.version = 0              # goes up with every change (the screens compare it)
        self.fault: str | None = None  # why the journal cannot be written now (``session_ordering``), or None
        self.changed_boards: set[int] = set()
        self._scored: SessionResult | None = None
        self._scored_version = -1
        self._boards: dict[int, ScoredBoard] = {}
        self._tallies: dict[Pair, Tally] = {}
        self._stale: set[int] = set(state.movement.boards())
        self.analyser: Analyser | None = Analyser(state.setup.boards).start() if analyse else None

    @property
    def setup(self) -> SessionSetup:
        return self.state.setup

    # -- opening ------------------------------------------------------------------------------------

    @classmethod
    def create(cls, folder: str | Path, setup: SessionSetup, *, clock: Callable[[], float] = time.time,
               analyse: bool = True, synchronous: str = "FULL") -> Session:
        """A new session in ``folder`` (refused if the folder already holds one).

        Raises:
            SetupError: the setup cannot be played (``spec.check_setup``).
            SessionFileError: the journal cannot be made, or a session is already there.
        """
        state = SessionState.start(setup)
        path = session_path(folder)
        if path.exists() and path.stat().st_size:
            raise SessionFileError(f"{path}: a session is already there (open it, or choose another folder)")
        # All or nothing, whenever it is stopped (a kill, a power cut): the journal is made and its first
        # row committed under another name, then renamed into place in one step. A folder holds a session
        # that opens, or none at all (a ``.part`` left by a stop is made again).
        part = path.with_name(path.name + PART)
        journal = None
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            for leftover in _files_of(part):
                leftover.unlink(missing_ok=True)
            journal = Journal.open(part, synchronous=synchronous)
            journal.append("event", {"type": "opened", "setup": setup.to_dict()}, clock())
            journal.close()
            journal = None
            _fsync(part)
            os.replace(part, path)
            _fsync(path.parent)
            journal = Journal.open(path, synchronous=synchronous, create=False)
        except (OSError, JournalError, ValueError) as exc:
            if journal is not None:
                journal.close()
            for leftover in _files_of(part):  # nothing is made: the folder is as it was
                leftover.unlink(missing_ok=True)
            raise SessionFileError(f"{path}: the session's journal cannot be made ({exc})") from None
        return cls(journal, state, clock, [], analyse=analyse)

    @classmethod
    def open(cls, folder: str | Path, *, clock: Callable[[], float] = time.time, analyse: bool = True,
             readonly: bool = False, synchronous: str = "FULL") -> Session:
        """The session in ``folder``, rebuilt from its journal.

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
            setup = SessionSetup.from_dict(rows[0].body["setup"])
        except SetupError as exc:
            raise SessionFileError(f"{path}: {exc}") from None
        records = [r.body for r in rows[1:] if r.kind == "event"]
        state, skipped = replay(setup, records)
        for problem in skipped:
            log.warning("%s: a journaled record no longer applies and is skipped: %s", path, problem)
        refusals = [dict(r.body["refused"], t=r.t) if isinstance(r.body.get("refused"), dict) else
                    {"record": {"type": "result", "source": r.body["reused_number"].get("source")},
                     "why": "taken, but " + str(r.body["reused_number"].get("why")), "t": r.t}
                    for r in rows[1:] if r.kind == "note" and (isinstance(r.body.get("refused"), dict)
                                                             or isinstance(r.body.get("reused_number"), dict))]
        session = cls(journal, state, clock, refusals, analyse=analyse)
        session.changed_boards = set(state.movement.boards())
        return session

    def close(self) -> None:
        self.journal.close()

    # -- changing -----------------------------------------------------------------------------------

    def submit(self, records: Iterable[Mapping[str, Any]]) -> list[Outcome]:
        """Check, journal (one transaction) and apply records, in order.

        Raises:
            SessionFileError: the journal cannot be written; nothing is applied (the state is rebuilt from
                the journal).
        """
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
            unwritable = _unjournalable(rec)
            if unwritable:  # refused with the record as ASCII text: the refusal itself can be journaled
                safe = {"type": ascii(rec.get("type"))[:40], "text": ascii(dict(rec))[:4000]}
                rows.append(("note", {"refused": {"record": safe, "why": unwritable}}, now))
                outcomes.append(Outcome("refused", unwritable, safe))
                continue
            why = self.state.check(rec)
            if why == "repeat":
                outcomes.append(Outcome("repeat", record=rec))
                continue
            if why:
                rows.append(("note", {"refused": {"record": dict(rec), "why": why}}, now))
                outcomes.append(Outcome("refused", why, rec))
                continue
            reused = self.state.reused(rec) if rec.get("type") == "result" else ""
            self.state.apply(rec)
            applied.append(rec)
            rows.append(("event", dict(rec), now))
            if reused:  # the table and the director are told: a result is never taken or dropped unsaid
                rows.append(("note", {"reused_number": {"source": rec.get("source"), "board": rec.get("board"),
                                                        "why": reused}}, now))
            outcomes.append(Outcome("taken", reused, rec))
        if not rows:
            return outcomes
        try:
            self.journal.append_many(rows)
        except (JournalError, ValueError) as exc:
            log.error("session journal %s cannot be written (%s); nothing of this batch is taken", self.journal.path, exc)
            self.state, _ = replay(self.setup, [r.body for r in self.journal.rows() if r.kind == "event"][1:])
            self._stale = set(self.state.movement.boards())
            self._boards, self._tallies = {}, {}
            self.version += 1
            raise SessionFileError(f"{self.journal.path}: cannot be written ({exc}); nothing was taken") from None
        for o in outcomes:
            if o.status == "taken" and o.why:
                self.refusals = [*self.refusals, {"record": dict(o.record or {}), "why": "taken, but " + o.why,
                                                  "t": now}][-REFUSALS_KEPT:]
                log.warning("session: %s", o.why)
            if o.status == "refused":
                self.refusals = [*self.refusals, {"record": dict(o.record or {}), "why": o.why, "t": now}][-REFUSALS_KEPT:]
                log.warning("session: refused %s: %s", (o.record or {}).get("type"), o.why)
        if applied:
            self.version += 1
            for rec in applied:
                boards = self._boards_of(rec)
                self.changed_boards |= boards
                self._stale |= boards
        return outcomes

    def _boards_of(self, rec: Mapping[str, Any]) -> set[int]:
        if "board" in rec:
            return {int(rec["board"])}
        key = rec.get("key")
        if isinstance(key, str) and "/" in key:
            return {int(key.split("/")[0])}
        return set()

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

    # -- reading ------------------------------------------------------------------------------------

    def scored(self) -> SessionResult:
        """The session scored as it stands (``laws.scoring``). Only the boards that changed since the last
        call are scored again (``score_boards``: each on its own lines and due count); each pair's running
        figures lose the board's old points and take its new ones (exact fractions), and the fields are
        ranked from them (``rank_tallies``): what ``score_session`` gives for the whole session at once
        (``rescore_all``; a test compares the two)."""
        if self._scored is None or self._scored_version != self.version or self._stale:
            st = self.state
            due = st.due()
            stale = sorted(self._stale)
            if stale:
                part = score_boards(stale, [ln for b in stale for ln in st.board_lines(b)],
                                    {b: due[b] for b in stale}, st.setup.method, st.fields)
                for bd in part:
                    old = self._boards.get(bd.number)
                    if old is not None:
                        self._count(old, -1)
                    self._count(bd, +1)
                    self._boards[bd.number] = bd
            self._stale.clear()
            boards = tuple(self._boards[b] for b in st.movement.boards())
            self._scored = SessionResult(st.setup.method, boards,
                                         rank_tallies(self._tallies, st.setup.method, st.fields))
            self._scored_version = self.version
        return self._scored

    def _count(self, board: ScoredBoard, sign: int) -> None:
        for ln in board.lines:
            for pair, pts in ((ln.ns, ln.ns_points), (ln.ew, ln.ew_points)):
                t = self._tallies.get(pair, NO_TALLY)
                self._tallies[pair] = t.add(pts, board.top) if sign > 0 else t.remove(pts, board.top)

    def rescore_all(self) -> SessionResult:
        """The whole session scored at once (``score_session``), for checking and measuring."""
        st = self.state
        return score_session(st.movement.boards(), st.lines(), st.due(), st.setup.method, st.fields)

    def analysis(self, board: int) -> Analysis | None:
        """The board's double-dummy analysis when it is ready (never waits)."""
        return None if self.analyser is None else self.analyser.get(board, timeout=0.0)

    def all_analysis(self, timeout: float | None = None) -> dict[int, Analysis]:
        """Every board's analysis, waiting for it (exports)."""
        return {} if self.analyser is None else self.analyser.all(timeout)
