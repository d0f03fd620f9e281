"""A Swiss event whose later round no draw can make without a repeat (docs/competitions.md, "The event"):
fed as the tables feed it (the wire's ``board`` message, journaled), it draws that round with the fewest
repeats, says which on the director's view and the tables' seating, goes on to its last round, and a
restart rebuilds the same draws from the journal.

Before: the event drew such a round in order of the standings (1 v 2, 3 v 4, ...), whatever it
repeated: eight teams, seed 12, round 6 had four repeated matches where one was enough, and the director's
page said nothing (only ``repeats: true`` in the view's JSON, naming no match)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from firmware_host.events.session import EventSession
from firmware_host.events.views import director_view, table_view
from laws.competition.event import EventState
from laws.competition.event_spec import EventKind, EventSpec
from tests.laws.test_events import two_triangles

TABLES = tuple(f"t-{k}" for k in range(1, 9))


def _message(session: EventSession, table: str, seq: int, tricks: int) -> bytes:
    number = TABLES.index(table) + 1
    state = session.event
    r = state.current
    seat = next(t for t in state.draws[r].tables if t.table == number)
    body = {"section": "A", "table_number": number, "round": r, "board": state.draws[r].boards[0],
            "ns": str(seat.north.number), "ew": str(seat.east.number), "contract": "3NT", "declarer": "N",
            "lead": None, "tricks": tricks, "record": "", "verified": False, "confirmed": {"ns": "N", "ew": "E"}}
    return json.dumps({"table": table, "kind": "board", "seq": seq, "t": 1.0, "body": body}).encode()


def _fewest(matches: list[tuple[int, int]], met: set[frozenset[int]]) -> int:
    """The fewest repeats any pairing of the round's teams has (every pairing tried)."""
    def go(free: list[int]) -> int:
        if not free:
            return 0
        return min(int(frozenset((free[0], o)) in met) + go([x for x in free[1:] if x != o]) for o in free[1:])
    return go(sorted(c for m in matches for c in m))


def _every_round(state: EventState) -> list[tuple[int, list[tuple[int, int]], list[tuple[int, int]]]]:
    return [(r, [(a.number, b.number) for a, b in d.matches], [(a.number, b.number) for a, b in d.repeats])
            for r, d in sorted(state.draws.items())]


def test_a_swiss_event_with_no_draw_left_draws_the_fewest_repeats_says_so_and_ends(tmp_path: Path) -> None:
    spec = EventSpec(EventKind.SWISS_TEAMS, 8, 7, 1, name="Autumn Swiss")
    session = EventSession.create(tmp_path / "event", spec, TABLES, synchronous="NORMAL")
    rng = random.Random(12)
    seq = 0
    try:
        while session.event.current <= spec.rounds:
            for table in TABLES:
                seq += 1
                taken = session.offer(table, _message(session, table, seq, rng.randint(6, 12)))
                assert taken.status == "taken", taken
        state = session.event
        assert state.current == spec.rounds + 1 and all(state.complete(r) for r in range(1, 8))
        drawn = _every_round(state)
        met: set[frozenset[int]] = set()
        marked = []
        for r, matches, repeats in drawn:
            assert repeats == [m for m in matches if frozenset(m) in met]
            assert len(repeats) == _fewest(matches, met), (r, matches, repeats)
            if repeats:
                marked.append(r)
            met |= {frozenset(m) for m in matches}
        assert marked == [6, 7]                  # seed 12: rounds 6 and 7 have one repeat each, no more
        assert [len(repeats) for r, _m, repeats in drawn if r in marked] == [1, 1]
        # the director's view names the repeated match; the two tables playing it are told so
        view = director_view(state, TABLES)
        six = view["draws"][5]
        assert six["repeats"] == [list(m) for m in drawn[5][2]] and view["draws"][0]["repeats"] == []
        (a, b), = drawn[6][2]
        match = [tuple(m) for m in view["draws"][6]["matches"]].index((a, b)) + 1
        for k, table in enumerate(TABLES, 1):
            seen = table_view(state, TABLES, table)
            assert seen.get("repeat", False) is ((k + 1) // 2 == match), (table, seen)
            assert seen["finished"] is True
    finally:
        session.close()
    again = EventSession.open(tmp_path / "event")     # a restart: the same draws, repeats and all
    try:
        assert _every_round(again.event) == drawn
    finally:
        again.close()


STATIC = Path(__file__).resolve().parents[2] / "firmware_host" / "club" / "static"
PAGE_JS = STATIC / "event.js"
# the page's scripts run under node, in the page's order (formcheck.js, then event.js), with a stand-in
# document and stream: the HTML it writes for a view
RUN_PAGE = """
const els = {};
const el = (id) => els[id] || (els[id] = {textContent: "", innerHTML: "", addEventListener() {}});
global.document = {getElementById: el, querySelector: () => null, querySelectorAll: () => [], body: {dataset: {stream: "/s"}}};
global.window = {location: {assign() {}}};
let stream = null;
global.EventSource = class { constructor() { stream = this; } addEventListener() {} close() {} };
require(process.argv[3]);
require(process.argv[1]);
stream.onmessage({data: process.argv[2]});
process.stdout.write(el("view").innerHTML);
"""


def _page(view: dict[str, object]) -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, "-e", RUN_PAGE, str(PAGE_JS), json.dumps(view), str(STATIC / "formcheck.js")], capture_output=True,
                          text=True, timeout=60, check=True)
    return done.stdout


def test_the_director_s_and_the_table_s_page_say_which_match_is_a_repeat() -> None:
    # the two triangles (docs/scoring.md section 11's worked example): round 4 is 1 v 2, 3 v 4, 5 v 6
    state, made = two_triangles(lambda table: 9)
    assert made is not None                                     # round 3's last result: round 4
    tables = TABLES[:6]
    director = _page(director_view(state, tables))
    assert "<li>1 v 2<ul>" in director and "<li>3 v 4 (repeat)<ul>" in director and "<li>5 v 6<ul>" in director
    assert "A repeat: these two have met before" in _page(table_view(state, tables, "t-3"))    # match 2
    assert "repeat" not in _page(table_view(state, tables, "t-1"))


def test_the_table_pages_repeat_sentence_is_the_one_the_document_quotes() -> None:
    """docs/competitions.md quotes the sentence a table's page (``club/static/event.js``) shows for a
    repeated match: an outside tester matches it word for word, so the quote is the whole sentence."""
    root = Path(__file__).resolve().parents[2]
    page = (root / "firmware_host/club/static/event.js").read_text(encoding="utf-8")
    shown = page.split('<p id="repeat">', 1)[1].split("</p>", 1)[0]
    doc = " ".join((root / "docs/competitions.md").read_text(encoding="utf-8").split())
    quoted = [q.split("`", 1)[0] for q in doc.split("`A repeat: ")[1:]]
    assert quoted and all("A repeat: " + q == shown for q in quoted), (shown, quoted)
