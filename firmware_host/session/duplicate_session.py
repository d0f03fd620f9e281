"""A duplicate session on the club's machine: the first kind of session on the journalled service
(``journalled.JournalledService``; the seam is ``laws/session/kind.py``), its model the duplicate's
pure state (``laws/session/duplicate/``), its results scored at once.

The journal (``session.sqlite3`` in the session's folder) holds, after the opening row, one ``event`` per
record taken (``laws.session.duplicate.state`` lists them), one ``note`` ``{"refused": ...}`` per record
not taken, and one ``note`` ``{"reused_number": ...}`` when a table's result is taken under a number it
had used for another (the table and the director are told).

:meth:`Session.open` replays the rows into the same state. :meth:`Session.submit` takes records (from
the tables or the director), checks each against the state as it stands after the ones before it,
journals them all in one transaction, and applies them; a refused record changes nothing.
:meth:`Session.scored` is the whole session scored by ``laws.scoring.score_session`` (recomputed after
each change, at most once per change).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.session.analysis import Analyser, Analysis
from firmware_host.session.journalled import (
    PART,
    REFUSALS_KEPT,
    SESSION_FILE,
    JournalledService,
    Outcome,
    SessionFileError,
    session_path,
)
from laws.scoring import Pair, ScoredBoard, SessionResult, Tally, rank_tallies, score_boards, score_session
from laws.scoring.session import NO_TALLY
from laws.session.duplicate.duplicate_kind import DUPLICATE
from laws.session.duplicate.spec import SessionSetup
from laws.session.duplicate.state import SessionState

__all__ = ["PART", "REFUSALS_KEPT", "SESSION_FILE", "Outcome", "Session", "SessionFileError", "session_path"]

log = logging.getLogger(__name__)


class Session(JournalledService):
    """A journaled duplicate session. Build one with :meth:`create` or :meth:`open`."""

    KIND = DUPLICATE
    state: SessionState

    def __init__(self, journal: Journal, state: SessionState, clock: Callable[[], float],
                 refusals: list[dict[str, Any]], *, analyse: bool = True) -> None:
        super().__init__(journal, state, clock, refusals)
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
        """A new session in ``folder`` (refused if the folder already holds one), all or nothing
        (``journalled.make_journal``).

        Raises:
            SetupError: the setup cannot be played (``spec.check_setup``).
            SessionFileError: the journal cannot be made, or a session is already there.
        """
        journal, state = cls._journal_of(folder, setup, clock, synchronous)
        return cls(journal, state, clock, [], analyse=analyse)

    @classmethod
    def open(cls, folder: str | Path, *, clock: Callable[[], float] = time.time, analyse: bool = True,
             readonly: bool = False, synchronous: str = "FULL") -> Session:
        """The session in ``folder``, rebuilt from its journal.

        Raises:
            SessionFileError: no session there, a journal that is not one, or a chain that does not verify.
        """
        journal, setup, rows = cls._read(folder, readonly=readonly, synchronous=synchronous)
        state, refusals = cls._replayed(session_path(folder), setup, rows)
        session = cls(journal, state, clock, refusals, analyse=analyse)
        session.changed_boards = set(state.movement.boards())
        return session

    @classmethod
    def _note_refusal(cls, body: Mapping[str, Any], t: float) -> dict[str, Any] | None:
        reused = body.get("reused_number")
        if isinstance(body.get("refused"), dict) or not isinstance(reused, dict):
            return super()._note_refusal(body, t)
        return {"record": {"type": "result", "source": reused.get("source")},
                "why": "taken, but " + str(reused.get("why")), "t": t}

    # -- the kind's hooks ---------------------------------------------------------------------------

    def _caveat(self, rec: Mapping[str, Any]) -> tuple[str, dict[str, Any] | None]:
        reused = self.state.reused(rec) if rec.get("type") == "result" else ""
        if not reused:
            return "", None
        return reused, {"reused_number": {"source": rec.get("source"), "board": rec.get("board"), "why": reused}}

    def _applied(self, applied: list[Mapping[str, Any]]) -> None:
        for rec in applied:
            boards = self._boards_of(rec)
            self.changed_boards |= boards
            self._stale |= boards

    def _rebuilt(self) -> None:
        self._stale = set(self.state.movement.boards())
        self._boards, self._tallies = {}, {}

    def _boards_of(self, rec: Mapping[str, Any]) -> set[int]:
        if "board" in rec:
            return {int(rec["board"])}
        key = rec.get("key")
        if isinstance(key, str) and "/" in key:
            return {int(key.split("/")[0])}
        return set()

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
