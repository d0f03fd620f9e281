"""A table's page never shows a pair a board it has still to play, whichever table's page it opens,
whenever (issue 28, item 2): decided on the server from the movement (``laws.duplicate.release``). A
7-table Mitchell played to round 4, checked for every pair that has ever sat at each table, through the
dashboard's own page route; and the rule shown to fail on a page that shows what suits the pairs seated
there now only."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.session.duplicate_session import Session, SessionDesk
from laws.duplicate.release import page_audience, released
from laws.session.duplicate.state import SessionState

from .sessionkit import all_results, make_setup

MITCHELL_7 = {"kind": "mitchell", "tables": 7, "boards_per_round": 4}


def _state_at_round(rnd: int) -> SessionState:
    setup = make_setup(MITCHELL_7)
    st = SessionState.start(setup)
    for rec in all_results(setup):
        if rec["round"] > rnd:
            break
        if rec["round"] > st.called:
            st.apply({"type": "round", "round": rec["round"]})
        st.apply(rec)
    return st


def leaks(st: SessionState, shown: Any) -> list[str]:
    """(table, pair, board) where ``shown(table)`` holds a board a pair that sat there still has to play."""
    out = []
    for t in range(1, st.movement.tables + 1):
        for p in sorted(page_audience(st.movement, t, st.called)):
            out += [f"table {t}, pair {p}, board {b}" for b in sorted(shown(t) & st.still_to_play(p))]
    return out


def test_no_pair_that_sat_at_a_table_sees_a_board_it_has_still_to_play_on_its_page() -> None:
    st = _state_at_round(4)
    assert leaks(st, st.visible_boards) == []
    assert st.called == 4


def test_the_check_finds_the_leak_of_a_page_for_the_pairs_seated_now_only() -> None:
    st = _state_at_round(4)

    def seated_now(t: int) -> set[int]:
        s = st.movement.at(st.table_round(t), t)
        return set(released(s.pairs if s else (), st.plays, st.still_to_play))

    found = leaks(st, seated_now)
    assert len(found) > 0, "the check would not see the leak the issue found"


def test_through_the_page_no_traveller_reaches_a_pair_that_has_still_to_play_it(tmp_path: Path) -> None:
    from starlette.testclient import TestClient

    from firmware_host.club.broker import free_port
    from firmware_host.club.dashboard import Dashboard
    from firmware_host.web.auth import hash_password

    setup = make_setup(MITCHELL_7)
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"))
    for rec in all_results(setup):
        if rec["round"] > 4:
            break
        if rec["round"] > desk.session.state.called:
            assert desk.director({"type": "round", "round": rec["round"], "by": "alice"}).taken
        assert desk.director({**rec, "by": ""}).taken
    st = desk.session.state
    d = Dashboard("127.0.0.1", free_port(), "dashboard", "pw", {"director": hash_password("pw-1")}, duplicate=desk)
    with TestClient(d.app, base_url="http://club.test") as client:
        def shown(t: int) -> set[int]:
            tid = st.club_table_of[t]
            view = client.get(f"/api/duplicate/table/{tid}", params={"key": desk.table_key(tid)}).json()
            return {tr["board"] for tr in view["travellers"]}

        pages = {t: shown(t) for t in range(1, 8)}
        assert leaks(st, lambda t: pages[t]) == []
    desk.session.close()
