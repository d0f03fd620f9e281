"""The views the federation publishes, as plain values (``docs/federation.md``, "The public view").

* :func:`view_from`: the field's rankings and the state they count (``boards``, ``taken``, ``closed``);
* :func:`public_summary`: what ``public/standings`` carries (the leaders of the field's rankings);
* :func:`fit`: a message cut to the brokers' packet limit;
* :func:`records_message`: the hand records a club is sent ahead of play, with their commitment.

The release rule's board message is :func:`laws.federation.release.board_release`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from firmware_host.duplicate.handrecords.handfiles import render_hand_records
from laws.competition.sections import EventResult, SectionPair, labelled
from laws.duplicate.deal import Board, board_index, commitment
from laws.federation.field import Scored
from laws.scoring.session_values import Pair, Ranking

MAX_PUBLISH = 60000     # a published view's bytes: under the brokers' max_packet_size (65,536) with room
LEADERS = 10            # rows of each of the field's rankings on the public topic


def records_message(event: str, boards: Sequence[Board]) -> dict[str, Any]:
    """``in/records``: the event's hand records as PBN text, their index and their commitment
    (``docs/handrecords.md``), so the club checks them before its session plays them."""
    ordered = sorted(boards, key=lambda b: b.number)
    return {"event": event, "commitment": commitment(ordered),
            "index": [[n, h] for n, h in board_index(ordered)], "format": "pbn",
            "records": render_hand_records(ordered, "pbn", event=event).decode("utf-8")}


def public_summary(view: Mapping[str, Any]) -> dict[str, Any]:
    """What ``public/standings`` carries: the view without the clubs' rankings and with the first
    ``LEADERS`` rows of each of the field's (the whole view is the page's, ``/standings.json``)."""
    return {"boards": view["boards"], "taken": view["taken"], "closed": view["closed"],
            "leaders": {name: rows[:LEADERS] for name, rows in view["rankings"].items() if name.startswith("field ")}}


def fit(value: dict[str, Any], limit: int = MAX_PUBLISH) -> str:
    """``value`` as JSON of at most ``limit`` bytes (a broker refuses a bigger packet, and a client whose
    packet was refused is disconnected and sends it again, for ever): the longest lists of rows are cut
    from the end, and ``"cut": true`` says so."""
    text = json.dumps(value, sort_keys=True)
    if len(text) <= limit:
        return text
    value = copy.deepcopy(value)
    value["cut"] = True
    rows = [v for v in (value.get("rankings") or value.get("leaders") or {}).values()]
    rows += [value[k] for k in ("mine", "frequency") if isinstance(value.get(k), list)]   # a board's release
    while len(text) > limit and any(rows):
        longest = max(rows, key=len)
        del longest[len(longest) * 3 // 4:]
        text = json.dumps(value, sort_keys=True)
    return text


def view_from(shown: tuple[int, ...], scored: Scored | None, taken: Mapping[str, int],
              closed: bool = False, rankings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The rankings as plain values: ``{"boards", "rankings": {name: [{"place", "club", "pair",
    "percent", "total"}]}, "taken": {club: n}, "closed"}`` (``docs/federation.md``); ``rankings``: the
    ones already made from the same figures (``scored.stamp``), used as they are."""
    out: dict[str, Any] = {"boards": list(shown), "rankings": {}, "taken": dict(taken), "closed": closed}
    if scored is None:
        return out
    out["rankings"] = rankings_dict(scored.rank()) if rankings is None else rankings
    return out


def rankings_dict(result: EventResult) -> dict[str, list[dict[str, Any]]]:
    """An event's rankings as plain values (the same for the live field and a whole rescore)."""
    return {name: [_row(place, sp, st) for place, sp, st in rows] for name, rows in result.rankings}


def own_dict(rankings: Sequence[Ranking], local: Callable[[Pair], SectionPair]) -> dict[str, list[dict[str, Any]]]:
    """A club's own rankings (:func:`laws.federation.own.own_rankings`, its pairs numbered in the field)
    as plain values, the rows as :func:`rankings_dict` writes them."""
    return {r.field: [_row(place, sp, st) for place, sp, st in labelled(r, local)] for r in rankings}


def _row(place: str, sp: SectionPair, st: Any) -> dict[str, Any]:
    return {"place": place, "club": sp.section, "pair": sp.pair.label,
            "percent": None if st.percent is None else float(st.percent), "total": str(st.total)}


