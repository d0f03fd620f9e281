"""A scored session as one printable HTML page (``results.html``): the title and the session's facts,
the ranking of each field, each board (its hands in the compass layout, the double-dummy grid and par,
its traveller), then each pair's personal scorecard. The pieces are ``results_parts``; the folder a club
puts on its website is ``results_site``. No script, no outside resource; every value escaped.
"""

from __future__ import annotations

from html import escape

from firmware_host.duplicate.results import results_parts as parts
from firmware_host.duplicate.results.results_data import ExportData
from firmware_host.duplicate.views import METHOD_WORDS

score_text = parts.score_text


def title(data: ExportData) -> str:
    return f"{data.setup.name}, {data.setup.date}"


def facts(data: ExportData) -> str:
    """The line under the title: club, movement, pairs, method, the hand records' commitment."""
    s = data.setup
    return (f'<p class="note">{escape(s.club)} · {escape(data.movement.name)} · {s.pairs} pairs · scored by '
            f"{escape(METHOD_WORDS[s.method])} · hand records committed as "
            f"{escape(s.to_dict()['commitment'])}</p>")


def write(data: ExportData) -> bytes:
    body = [f"<h1>{escape(title(data))}</h1>", facts(data), "<h2>Ranking</h2>", *parts.ranking(data),
            "<h2>Boards</h2>", *(parts.board_block(data, b) for b in data.result.boards),
            "<h2>Personal scorecards</h2>", *parts.scorecards(data)]
    return parts.page(title(data), body)
