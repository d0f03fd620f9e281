"""Results out: a scored session as PBN 2.1, USEBIO 1.2 or a printable HTML page.

:func:`export` gives the bytes of one format; the same session gives the same bytes every time (no
clock, no dictionary order: boards in number order, lines in pair order, pairs by field then place).
Each format's layout, with what we decided where a specification leaves room, is in
``docs/session.md``; the writers are ``results_pbn``, ``results_usebio`` and ``results_html``.

The double-dummy analysis is waited for (at most ``analysis_timeout`` seconds): an export carries
``[OptimumScore]`` and ``[DoubleDummyTricks]`` for every board the solver answered.
"""

from __future__ import annotations

from pathlib import Path

from firmware_host.duplicate import results_html, results_pbn, results_usebio
from firmware_host.duplicate.results_data import ExportData, gather
from firmware_host.duplicate.session import Session

FORMATS = ("pbn", "usebio", "html")
SUFFIX = {"pbn": ".pbn", "usebio": ".xml", "html": ".html"}


__all__ = ["FORMATS", "SUFFIX", "ExportData", "ExportError", "export", "gather", "write_export"]


class ExportError(RuntimeError):
    """An export that cannot be written; the message names the file."""


WRITERS = {"pbn": results_pbn.write, "usebio": results_usebio.write, "html": results_html.write}


def export(session: Session, fmt: str, analysis_timeout: float | None = 120.0) -> bytes:
    """The bytes of the session's results in ``fmt`` (``pbn``, ``usebio`` or ``html``)."""
    data = gather(session, analysis_timeout)
    if fmt not in WRITERS:
        raise ExportError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    return WRITERS[fmt](data)


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
