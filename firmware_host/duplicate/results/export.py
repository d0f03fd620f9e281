"""Results out: a scored session as PBN 2.1, USEBIO 1.2, a printable HTML page, or a folder of pages a
club puts on its website.

:func:`export` gives the bytes of one format; the same session gives the same bytes every time (no
clock, no dictionary order: boards in number order, lines in pair order, pairs by field then place).
Each format's layout, with what we decided where a specification leaves room, is in
``docs/session.md``; the writers are ``results_pbn``, ``results_usebio``, ``results_html`` and
``results_site`` (the folder).

The players' names and numbers come from the session's names unless the caller passes a mapping pair
label -> players (``results_data.pair_player``, the one competitor type); ``club_id`` is the club's number with its federation.

The double-dummy analysis is waited for (at most ``analysis_timeout`` seconds): an export carries
``[OptimumScore]`` and ``[DoubleDummyTricks]`` for every board the solver answered.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from firmware_host.duplicate.results import results_html, results_pbn, results_usebio
from firmware_host.duplicate.results.results_data import ExportData, Player, gather
from firmware_host.duplicate.results.results_site import SiteError, check_folder, write_site
from firmware_host.session.duplicate_session import Session
from laws.competitors import Competitor

FORMATS = ("pbn", "usebio", "html")
SUFFIX = {"pbn": ".pbn", "usebio": ".xml", "html": ".html"}


__all__ = ["FORMATS", "SUFFIX", "ExportData", "ExportError", "Player", "export", "export_site", "gather",
           "write_export"]


class ExportError(RuntimeError):
    """An export that cannot be written; the message names the file."""


WRITERS = {"pbn": results_pbn.write, "usebio": results_usebio.write, "html": results_html.write}


def export(session: Session, fmt: str, analysis_timeout: float | None = 120.0, *,
           players: Mapping[str, tuple[Competitor, ...]] | None = None, club_id: str = "") -> bytes:
    """The bytes of the session's results in ``fmt`` (``pbn``, ``usebio`` or ``html``)."""
    if fmt not in WRITERS:
        raise ExportError(f"the format is one of {', '.join(FORMATS)}, not {fmt!r}")
    data = gather(session, analysis_timeout, players=players, club_id=club_id, withhold=fmt == "html")
    return WRITERS[fmt](data)


def check_out(out: str | Path, *, overwrite: bool = True) -> Path:
    """Refuse an export's file before anything is read or analysed: a folder, or a file that exists
    (without ``overwrite``).

    Raises:
        ExportError: naming the path.
    """
    path = Path(out)
    if path.is_dir():
        raise ExportError(f"{path}: is a directory; name a file")
    if path.exists() and not overwrite:
        raise ExportError(f"{path}: already exists; not replaced (--force replaces it)")
    return path


def check_site(folder: str | Path, *, force: bool = False) -> None:
    """``results_site.check_folder`` with its refusal as an ``ExportError``, before anything is read."""
    try:
        check_folder(folder, force=force)
    except SiteError as exc:
        raise ExportError(str(exc)) from None


def write_export(session: Session, fmt: str, out: str | Path, *, overwrite: bool = True,
                 analysis_timeout: float | None = 120.0, players: Mapping[str, tuple[Competitor, ...]] | None = None,
                 club_id: str = "") -> int:
    """Write the export to ``out``; returns the number of bytes written. An existing file is replaced
    only when ``overwrite``."""
    path = check_out(out, overwrite=overwrite)
    data = export(session, fmt, analysis_timeout, players=players, club_id=club_id)
    try:
        path.write_bytes(data)
    except OSError as exc:
        raise ExportError(f"{path}: cannot be written ({exc.strerror or exc})") from None
    return len(data)


def export_site(session: Session, folder: str | Path, *, force: bool = False,
                analysis_timeout: float | None = 120.0, players: Mapping[str, tuple[Competitor, ...]] | None = None,
                club_id: str = "") -> dict[str, int]:
    """Write the published folder (``results_site``); returns each file's size."""
    try:
        check_folder(folder, force=force)
        data = gather(session, analysis_timeout, players=players, club_id=club_id, withhold=True)
        return write_site(data, folder, force=force)
    except SiteError as exc:
        raise ExportError(str(exc)) from None
