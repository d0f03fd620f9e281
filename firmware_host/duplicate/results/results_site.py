"""The folder of results a club puts on its website as it is (``cardtable duplicate export --site DIR``).

``index.html`` (the title, the session's facts, the winners of each field and a link to every page),
``ranking.html``, ``travellers.html`` (each board: hands, double-dummy grid, traveller),
``scorecards.html`` (each pair's personal scorecard; the ranking links to them), ``hands.html`` (the
hand-record sheet, eight boards to a printed page), and the files for scorers: ``results.pbn`` and
``results.xml`` (USEBIO). Links are relative, pages need nothing from outside the folder.

Where the folder already holds the replay pages of the tables' journals (``replay/board-<b>.html``, written
by ``cardtable broadcast export --out`` the same folder, ``docs/broadcast.md``), each board's traveller
links to its replay (every table's play of it, card by card) and the index links to ``replay/index.html``.

The folder is made if it is not there. A folder that already holds any of these files is refused unless
``force`` (then those files are replaced; nothing else in the folder is touched); a path that is a
file is refused. Everything is rendered before the first file is written.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from firmware_host.duplicate.results import results_parts as parts
from firmware_host.duplicate.results import results_pbn, results_usebio
from firmware_host.duplicate.results.results_data import ExportData
from firmware_host.duplicate.results.results_html import facts, title
from firmware_host.duplicate.views import FIELD_WORDS, ordered_rankings

PAGES = (("index.html", "Results"), ("ranking.html", "Ranking"), ("travellers.html", "Travellers"),
         ("scorecards.html", "Scorecards"), ("hands.html", "Hand records"))
FILES = tuple(name for name, _ in PAGES) + ("results.pbn", "results.xml")


class SiteError(RuntimeError):
    """The folder cannot be written as asked; the message names it."""


def _nav() -> str:
    links = " ".join(f'<a href="{name}">{escape(words)}</a>' for name, words in PAGES)
    return f"<nav>{links} <a href=\"results.pbn\">PBN</a> <a href=\"results.xml\">USEBIO</a></nav>"


def replay_page(number: int) -> str:
    """A board's replay page, relative to the folder (``firmware_host/broadcast/archive.py`` names it so)."""
    return f"replay/board-{number:02d}.html"


def _index(data: ExportData, replay: bool = False) -> list[str]:
    winners = []
    for r in ordered_rankings(data.result):
        first = [s for s in r.standings if s.place.rstrip("=") == "1"]
        who = "; ".join(f"{s.pair.label}" + (f" ({data.names(s.pair.label)})" if data.names(s.pair.label) else "")
                        for s in first)
        winners.append(f"<li>{escape(FIELD_WORDS.get(r.field, r.field))}: {escape(who)}</li>")
    pages = "".join(f'<li><a href="{name}">{escape(words)}</a></li>' for name, words in PAGES[1:])
    return [f"<h1>{escape(title(data))}</h1>", facts(data), "<h2>Winners</h2>", f"<ul>{''.join(winners)}</ul>",
            "<h2>Pages</h2>", f"<ul>{pages}<li><a href=\"results.pbn\">results.pbn</a> (PBN 2.1, for scorers)</li>"
            "<li><a href=\"results.xml\">results.xml</a> (USEBIO 1.2, for the federation)</li>"
            + ('<li><a href="replay/index.html">Replay</a> (every board at every table, card by card)</li>'
               if replay else "") + "</ul>"]


def render(data: ExportData, replay: frozenset[int] = frozenset()) -> dict[str, bytes]:
    """Every file of the folder, by name; ``replay``: the boards whose replay page is in the folder."""
    head = f"<h1>{escape(title(data))}</h1>"
    nav = _nav()
    out = {
        "index.html": parts.page(title(data), _index(data, bool(replay)), nav),
        "ranking.html": parts.page(f"Ranking · {title(data)}", [head, "<h2>Ranking</h2>",
                                                                 *parts.ranking(data, "scorecards.html")], nav),
        "travellers.html": parts.page(f"Travellers · {title(data)}", [head, "<h2>Travellers</h2>", *(
            parts.board_block(data, b, replay_page(b.number) if b.number in replay else "")
            for b in data.result.boards)], nav),
        "scorecards.html": parts.page(f"Scorecards · {title(data)}", [head, "<h2>Personal scorecards</h2>",
                                                                       *parts.scorecards(data)], nav),
        "hands.html": parts.page(f"Hand records · {title(data)}", [head, "<h2>Hand records</h2>",
                                                                    parts.hand_sheet(data)], nav),
        "results.pbn": results_pbn.write(data),
        "results.xml": results_usebio.write(data),
    }
    return out


def check_folder(folder: str | Path, *, force: bool = False) -> None:
    """Refuse a folder the site cannot be written to as asked, before anything is rendered.

    Raises:
        SiteError: the path is a file, or a file of the folder exists already (without ``force``).
    """
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise SiteError(f"{out}: is a file; name a folder")
    there = [name for name in FILES if (out / name).exists()]
    if there and not force:
        raise SiteError(f"{out}: already holds {', '.join(there)}; not replaced (--force replaces them)")


def write_site(data: ExportData, folder: str | Path, *, force: bool = False) -> dict[str, int]:
    """Write the folder; returns each file's size in bytes.

    Raises:
        SiteError: as :func:`check_folder`, or the folder cannot be made or written.
    """
    out = Path(folder)
    check_folder(out, force=force)
    replay = frozenset(b.number for b in data.result.boards if (out / replay_page(b.number)).is_file())
    files = render(data, replay)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, body in files.items():
            if (out / name).is_dir():
                raise SiteError(f"{out / name}: is a folder; not replaced")
            (out / name).write_bytes(body)
    except OSError as exc:
        raise SiteError(f"{out}: cannot be written ({exc.strerror or exc})") from None
    return {name: len(body) for name, body in files.items()}
