"""A club's entry names each pair's field as its session ranks it (``docs/federation.md``, "Nothing lost,
nothing twice"): a pairs night opened with ``duplicate open --arrow-switch`` ranks every pair in one
field, and its uplink says so (``"fields": {"1NS": "one field", ...}``). The federation read only the
pairs' directions and split that club's pairs into a North-South and an East-West field, so the field's
and the club's rankings were not the ones the club's own session printed. Sent as the clubs' messages to
a service whose client is never connected (no broker: its publishes only queue)."""

from __future__ import annotations

from pathlib import Path

from firmware_host.federation.audit import view_problem
from firmware_host.federation.service import FederationService
from firmware_host.federation.uplink import club_messages
from tests.duplicate.sessionkit import make_setup

from .test_seating_refused import MITCHELL, _event, _journaled, _line, _send

ONE = {f"{n}{d}": "one field" for n, d in MITCHELL}


def test_the_uplink_of_an_arrow_switched_mitchell_names_one_field() -> None:
    setup = make_setup({"kind": "mitchell", "tables": 5, "boards_per_round": 2, "arrow_switch_rounds": [5]})
    entry = club_messages("c1", [{"type": "opened", "setup": setup.to_dict()}])[0]
    assert entry["op"] == "entry" and set(entry["fields"].values()) == {"one field"}
    assert len(entry["fields"]) == len(entry["pairs"]) == 10


def test_a_club_ranked_as_one_field_is_one_field_in_the_federation(tmp_path: Path) -> None:
    s = FederationService(_event(tmp_path, "--due", "c1=2,c2=2"), "127.0.0.1", 1, "unused")
    try:
        assert _send(s, "c1", {"op": "entry", "pairs": MITCHELL, "fields": ONE, "due": 2})["verdict"] == "taken"
        assert _send(s, "c2", {"op": "entry", "pairs": MITCHELL, "due": 2})["verdict"] == "taken"   # no fields
        for club in ("c1", "c2"):
            for ns, ew, tricks in ((1, 1, 9), (2, 2, 10)):
                line = _line(1, [ns, "NS"], [ew, "EW"], tricks)
                assert _send(s, club, {"op": "line", "line": line})["verdict"] == "taken"
        view = s.standings(public=False)
        ranked = {name: sorted((r["club"], r["pair"]) for r in rows) for name, rows in view["rankings"].items()}
        assert ranked["c1 one field"] == [("c1", "1 EW"), ("c1", "1 NS"), ("c1", "2 EW"), ("c1", "2 NS")]
        assert ranked["field one field"] == ranked["c1 one field"]
        assert ranked["c2 NS"] == [("c2", "1 NS"), ("c2", "2 NS")] and ranked["c2 EW"] == [("c2", "1 EW"), ("c2", "2 EW")]
        assert "c1 NS" not in ranked and "c1 EW" not in ranked
        assert view_problem(s.folder, view) == ""       # the audit's whole rescore ranks the same fields
    finally:
        s.stop()


def test_an_entry_giving_a_field_for_a_pair_it_does_not_list_is_refused(tmp_path: Path) -> None:
    s = FederationService(_event(tmp_path), "127.0.0.1", 1, "unused")
    try:
        assert _send(s, "c1", {"op": "entry", "pairs": MITCHELL, "fields": {"1NS": "NS", "2NS": "NS", "1EW": "EW", "9NS": "EW"},
                               "due": 2}) == {
            "verdict": "conflict", "number": 1, "expect": 1,
            "why": "an entry's fields: '9NS' is not one of the entry's pairs (a pair's key is its number then "
                   "its direction, as in '1NS', '3EW', '5')"}
        assert _journaled(s) == 0
    finally:
        s.stop()
