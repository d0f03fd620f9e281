"""Results out: a scored session as PBN 2.1, USEBIO 1.2 or a printable HTML page.

:func:`export` gives the bytes of one format; the same session gives the same bytes every time (no
clock, no dictionary order: boards in number order, lines in pair order, pairs by field then place).
Each format's layout, with what we decided where a specification leaves room, is in
``docs/session.md``; the writers are ``results_pbn``, ``results_usebio`` and ``results_html``.

The double-dummy analysis is waited for (at most ``analysis_timeout`` seconds): an export carries
``[OptimumScore]`` and ``[DoubleDummyTricks]`` for every board the solver answered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware_host.duplicate.analysis import Analysis
from firmware_host.duplicate.session import Session
from firmware_host.duplicate.session_state import Entry
from firmware_host.duplicate.spec import SessionSetup, label
from laws.duplicate.deal import Board
from laws.duplicate.movement import Movement
from laws.scoring import SessionResult

FORMATS = ("pbn", "usebio", "html")
SUFFIX = {"pbn": ".pbn", "usebio": ".xml", "html": ".html"}


class ExportError(RuntimeError):
    """An export that cannot be written; the message names the file."""


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


def export(session: Session, fmt: str, analysis_timeout: float | None = 120.0) -> bytes:
    """The bytes of the session's results in ``fmt`` (``pbn``, ``usebio`` or ``html``)."""
    from firmware_host.duplicate import results_html, results_pbn, results_usebio

    data = gather(session, analysis_timeout)
    writers = {"pbn": results_pbn.write, "usebio": results_usebio.write, "html": results_html.write}
    if fmt not in writers:
        raise ExportError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    return writers[fmt](data)


def write_export(session: Session, fmt: str, out: str | Path, *, overwrite: bool = True,
                 analysis_timeout: float | None = 120.0) -> int:
    """Write the export to ``out``; returns the number of bytes written."""
    path = Path(out)
    data = export(session, fmt, analysis_timeout)
    if path.is_dir():
        raise ExportError(f"{path}: is a directory; name a file")
    if path.exists() and not overwrite:
        raise ExportError(f"{path}: already exists; not replaced")
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise ExportError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    return len(data)
