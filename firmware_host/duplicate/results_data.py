"""What every results export writes, gathered once from a session (``results.export`` uses it)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from firmware_host.duplicate.analysis import Analysis
from firmware_host.duplicate.session import Session
from firmware_host.duplicate.session_state import Entry
from firmware_host.duplicate.spec import SessionSetup, label
from laws.duplicate.deal import Board
from laws.duplicate.movement import Movement
from laws.scoring import SessionResult


@dataclass(frozen=True)
class ExportData:
    """Everything an export writes, gathered once from the session."""

    setup: SessionSetup
    movement: Movement
    result: SessionResult
    records: Mapping[int, Board]
    entries: Mapping[tuple[int, str, str], Entry]   # (board, NS label, EW label) -> the session's line
    analysis: Mapping[int, Analysis]

    def entry(self, board: int, ns: str, ew: str) -> Entry | None:
        return self.entries.get((board, ns, ew))


def gather(session: Session, analysis_timeout: float | None = 120.0) -> ExportData:
    st = session.state
    entries = {(e.board, label(e.ns), label(e.ew)): e for e in st.entries.values()}
    return ExportData(st.setup, st.movement, session.scored(), dict(st.records), entries,
                      session.all_analysis(analysis_timeout))
