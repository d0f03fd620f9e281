"""An event's results out: USEBIO, PBN and the folder a club publishes (``cardtable event export``).

The folder (:func:`write_site`) holds ``index.html`` (the event, its standings and every round's matches
with their IMPs and VPs, or an individual's players), ``results.pbn`` (:mod:`files_pbn`) and
``results.xml`` (:mod:`files_usebio`). Links are relative; the pages need nothing from outside the
folder. A folder already holding any of these files is refused unless ``force`` (then only those files
are replaced); everything is rendered before the first file is written.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from html import escape
from pathlib import Path

from firmware_host.events import files_pbn, files_sections, files_usebio
from firmware_host.events.session import EventSession
from firmware_host.events.views import named
from laws.competition.event import EventState
from laws.competition.event_sections import score_sections
from laws.competition.event_spec import EventKind, section_numbers
from laws.scoring.render import present

FILES = ("index.html", "results.pbn", "results.xml")


class SiteError(RuntimeError):
    """The folder cannot be written as asked; the message names it."""


def event_date(session: EventSession) -> str:
    """The event's date (``YYYY-MM-DD``, UTC): the day its journal's first row was written."""
    first = next(session.journal.rows())
    return dt.datetime.fromtimestamp(first.t, dt.UTC).date().isoformat()


def index_html(state: EventState, date: str) -> str:
    spec = state.spec
    out = [f"<h1>{escape(spec.name)}</h1>",
           f"<p>{escape(spec.kind.value)}, {date}: {len(state.draws)} of {spec.rounds} rounds complete, "
           f"{spec.boards_per_round} boards a round</p>"]
    if spec.kind is EventKind.SECTIONS:
        numbers = section_numbers(spec)
        for field, table in (score_sections(state).rankings if state.results else ()):
            rows = "".join(f"<tr><td>{place}</td><td>{escape(sp.label)}</td>"
                           f"<td>{escape(named(state, numbers[(sp.section, sp.pair)]))}</td><td>{present(st.total)}</td>"
                           f"<td>{'' if st.percent is None else present(st.percent)}</td></tr>"
                           for place, sp, st in table)
            out.append(f"<h2>{escape(field)}</h2><table><tr><th>Place</th><th>Pair</th><th>Name</th>"
                       f"<th>Matchpoints</th><th>%</th></tr>{rows}</table>")
    elif spec.kind is EventKind.INDIVIDUAL:
        rows = "".join(f"<tr><td>{p.place}</td><td>{p.player.number}</td>"
                       f"<td>{escape(named(state, p.player.number))}</td>"
                       f"<td>{present(p.total)}</td><td>{'' if p.percent is None else present(p.percent)}</td></tr>"
                       for p in state.player_standings())
        out.append("<h2>Players</h2><table><tr><th>Place</th><th>Player</th><th>Name</th><th>Matchpoints</th>"
                   "<th>%</th></tr>"
                   f"{rows}</table>")
    else:
        who = "Team" if spec.kind.teams else "Pair"
        rows = "".join(f"<tr><td>{s.place}</td><td>{s.competitor.number}</td>"
                       f"<td>{escape(named(state, s.competitor.number))}</td>"
                       f"<td>{present(s.vp)}</td><td>{s.net_imps}</td></tr>" for s in state.standings())
        out.append(f"<h2>Standings</h2><table><tr><th>Place</th><th>{who}</th><th>Name</th><th>VPs</th>"
                   "<th>Net IMPs</th></tr>"
                   f"{rows}</table>")
        winner = state.knockout_winner()
        if winner is not None:
            out.append(f"<p>Winner: team {winner.number}</p>")
        for r in sorted(state.draws):
            matches = "".join(f"<tr><td>{m.first.number}</td><td>{m.second.number}</td>"
                              f"<td>{m.first_imps}-{m.second_imps}</td>"
                              f"<td>{present(m.first_vp)}-{present(m.second_vp)}</td></tr>" for m in state.matches(r))
            byes = "".join(f"<tr><td>{b.number}</td><td>bye</td><td></td><td></td></tr>" for b in state.draws[r].byes)
            out.append(f"<h2>Round {r}</h2><table><tr><th>{who}</th><th>v</th><th>IMPs</th><th>VPs</th></tr>"
                       f"{matches}{byes}</table>")
    out.append('<p><a href="results.pbn">results.pbn</a> (PBN 2.1) · <a href="results.xml">results.xml</a> '
               "(USEBIO 1.2)</p>")
    body = "\n".join(out)
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>{escape(spec.name)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"></head>\n<body>\n{body}\n'
            "</body></html>\n")


def render(state: EventState, date: str, *, club: str = "", club_id: str = "",
           deals: Mapping[int, str] | None = None) -> dict[str, bytes]:
    """Every file of the folder, by name: the complete rounds only (``EventState.settled``); ``deals``: each
    board's deal (PBN's ``[Deal]``) when the event was opened with hand records."""
    state = state.settled()
    if state.spec.kind is EventKind.SECTIONS:
        return {"index.html": index_html(state, date).encode("utf-8"),
                "results.pbn": files_sections.write_pbn(state, date=date, site=club, deals=deals),
                "results.xml": files_sections.write_usebio(state, date=date, club=club, club_id=club_id)}
    return {"index.html": index_html(state, date).encode("utf-8"),
            "results.pbn": files_pbn.write(state, date=date, site=club, deals=deals),
            "results.xml": files_usebio.write(state, date=date, club=club, club_id=club_id)}


def write_site(folder: str | Path, files: dict[str, bytes], *, force: bool = False) -> list[Path]:
    """Write the folder (see the module's docstring)."""
    root = Path(folder)
    if root.exists() and not root.is_dir():
        raise SiteError(f"{root}: is a file; name a folder")
    there = [name for name in FILES if (root / name).exists()]
    if there and not force:
        raise SiteError(f"{root}: already holds {there[0]}; not replaced (--force replaces them)")
    try:
        root.mkdir(parents=True, exist_ok=True)
        out = []
        for name in FILES:
            (root / name).write_bytes(files[name])
            out.append(root / name)
    except OSError as exc:
        raise SiteError(f"{root}: cannot write ({exc.strerror or exc})") from None
    return out
