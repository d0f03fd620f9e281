"""``/api/event/state``'s ``scored`` (docs/competitions.md, "The director's view"): a match no board of
which counts yet has no VPs (null). It gave "10.00"-"10.00", the scale's even split, which a reader of the
view outside the club took for a result (a draw); a match with a result keeps its figures, and so do the
results files (complete rounds only)."""

from __future__ import annotations

from pathlib import Path

from firmware_host.events.files import render
from firmware_host.events.session import EventSession
from firmware_host.events.views import director_view
from laws.competition.event_spec import EventKind, EventSpec
from laws.scoring.render import present
from tests.events.test_event_fouled import TEAMS, board, play


def test_a_teams_match_without_a_result_has_no_vps_and_one_with_a_result_keeps_them(tmp_path: Path) -> None:
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), TEAMS)
    play(session, [("t-a", 1, 1, "4S", "N", 10, None), ("t-b", 1, 1, "4S", "N", 8, None),
                   ("t-c", 1, 1, "3NT", "N", 9, None)])          # match 2's closed room has not played
    ev = session.event
    first, second = director_view(ev, TEAMS)["draws"][0]["scored"]
    m1 = ev.matches(1)[0]
    assert (first["first_imps"], first["second_imps"]) == (m1.first_imps, m1.second_imps) != (0, 0)
    assert (first["first_vp"], first["second_vp"]) == (present(m1.first_vp), present(m1.second_vp))
    assert (second["first_imps"], second["second_imps"], second["first_vp"], second["second_vp"]) == (0, 0, None, None)
    # the closed room plays match 2's board to the same result: a real 0-0, now shown as its VPs
    taken = session.offer("t-d", board("t-d", TEAMS, 9, 1, 1, "3NT", "N", 9))
    assert taken.status == "taken" and ev.complete(1)
    done = director_view(ev, TEAMS)["draws"][0]["scored"]
    assert [(m["first_vp"], m["second_vp"]) for m in done] == \
        [(present(m.first_vp), present(m.second_vp)) for m in ev.matches(1)]
    assert (done[1]["first_vp"], done[1]["second_vp"]) == ("10.00", "10.00")
    page = render(ev, "2026-12-06")["index.html"].decode()
    assert f"<td>{present(m1.first_vp)}-{present(m1.second_vp)}</td>" in page and "<td>10.00-10.00</td>" in page
    session.close()


def test_a_swiss_pairs_match_without_a_board_at_its_table_has_no_vps(tmp_path: Path) -> None:
    tables = ("p1", "p2", "p3")
    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_PAIRS, 6, 3, 2), tables)
    play(session, [("p1", 1, 1, "4S", "N", 10, None), ("p2", 1, 1, "4S", "N", 9, None)])
    scored = director_view(session.event, tables)["draws"][0]["scored"]
    assert [m["first_vp"] is None for m in scored] == [False, False, True]
    assert [(m["first_vp"], m["second_vp"]) for m in scored[:2]] == \
        [(present(m.first_vp), present(m.second_vp)) for m in session.event.matches(1)[:2]]
    session.close()
