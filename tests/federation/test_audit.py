"""The judge of the run at scale (``firmware_host.federation.audit``) on journals and views made broken on
purpose: a row doubled, a row dropped, a row changed, a ranking that is not the whole rescore's."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from firmware_host.federation.audit import audit_journal, view_problem
from firmware_host.federation.service import JOURNAL, EventSetup, create_event, field_view, open_event
from firmware_host.records.journal import Journal
from laws.cards import Seat
from laws.federation.messages import line_to_dict
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Line, Pair, Played


def _messages(club: str, tables: int = 3, boards: int = 2, bias: int = 0) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"op": "entry", "pairs": [[t, d] for t in range(1, tables + 1) for d in ("NS", "EW")],
                                  "due": tables}]
    for b in range(1, boards + 1):
        for t in range(1, tables + 1):
            line = Line(b, Pair(t, "NS"), Pair((t + b) % tables + 1, "EW"),
                        Played(parse_contract("4S"), Seat.N, 7 + (t * 3 + b + bias) % 6))
            out.append({"op": "line", "line": line_to_dict(line)})
            if (b, t) == (1, 1):    # a correction, before the club finishes the board (then its results are final)
                out.append({"op": "line", "line": line_to_dict(Line(1, Pair(1, "NS"), Pair(3, "EW"),
                                                                    Played(parse_contract("3NT"), Seat.S, 9)))})
    for n, m in enumerate(out, 1):
        m["number"], m["club"] = n, club
    return out


def _event(tmp_path: Path, rows: list[tuple[str, dict[str, Any]]]) -> Path:
    folder = tmp_path / "event"
    create_event(folder, EventSetup("t", (1, 2), ("c1", "c2")))
    with Journal.open(folder / JOURNAL) as journal:
        for club, m in rows:
            journal.append("event", {"type": "message", "club": club, "number": m["number"], "message": m}, 1.0)
    return folder


def _sent() -> dict[str, list[dict[str, Any]]]:
    return {"c1": _messages("c1"), "c2": _messages("c2", bias=2)}


def _rows(sent: dict[str, list[dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    return [(c, m) for c in sorted(sent) for m in sent[c]]


def test_a_whole_journal_passes(tmp_path: Path) -> None:
    sent = _sent()
    folder = _event(tmp_path, _rows(sent))
    audit = audit_journal(folder, sent)
    assert audit.ok and audit.rows == 16, audit.summary()
    journal, state = open_event(folder)
    journal.close()
    view = field_view(state, public=False)
    assert view["rankings"]["field NS"] and view_problem(folder, view) == ""


def test_a_row_doubled_is_taken_twice(tmp_path: Path) -> None:
    sent = _sent()
    rows = _rows(sent)
    folder = _event(tmp_path, rows[:5] + [rows[4]] + rows[5:])
    audit = audit_journal(folder, sent)
    assert not audit.ok and audit.twice == ("c1 #5 x2",) and not audit.lost


def test_a_row_dropped_is_lost(tmp_path: Path) -> None:
    sent = _sent()
    rows = _rows(sent)
    folder = _event(tmp_path, rows[:10] + rows[11:])
    audit = audit_journal(folder, sent)
    assert not audit.ok and audit.lost == ("c2 #3",) and "1 lost (c2 #3)" in audit.summary()


def test_a_row_changed_or_never_sent_is_found(tmp_path: Path) -> None:
    sent = _sent()
    rows = _rows(sent)
    other = copy.deepcopy(rows[2][1])
    other["line"]["result"]["played"]["tricks"] = 13
    extra = dict(rows[-1][1], number=99)
    audit = audit_journal(_event(tmp_path, rows[:2] + [("c1", other)] + rows[3:] + [("c2", extra)]), sent)
    assert audit.changed == ("c1 #3",) and audit.unexpected == ("c2 #99",)


def test_a_ranking_not_the_whole_rescore_is_named(tmp_path: Path) -> None:
    sent = _sent()
    folder = _event(tmp_path, _rows(sent))
    journal, state = open_event(folder)
    journal.close()
    view = field_view(state, public=False)
    swapped = copy.deepcopy(view)
    rows = swapped["rankings"]["field NS"]
    rows[0]["pair"], rows[1]["pair"] = rows[1]["pair"], rows[0]["pair"]
    assert "ranking 'field NS' row 1: published" in view_problem(folder, swapped)
    short = copy.deepcopy(view)
    short["rankings"]["c2 EW"].pop()
    assert "ranking 'c2 EW': published 2 rows, a whole rescore gives 3" == view_problem(folder, short)
    early = copy.deepcopy(view)               # a view that says fewer messages were taken than it shows
    early["taken"]["c1"] = 5
    assert view_problem(folder, early) != ""
