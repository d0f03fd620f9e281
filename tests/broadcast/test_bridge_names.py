"""The broadcast names an event's sides from the event's journal as it stands when a board starts
(``firmware_host/broadcast/bridge_names.py``): a team named after the broadcast began is named from its next
board on; a folder with no event, or a journal that is not an event's, is refused naming the file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from firmware_host.broadcast.bridge_names import EventNames, EventNamesError
from firmware_host.broadcast.live import Releaser
from firmware_host.events.session import EventSession
from laws.broadcast.event_field import board_tables, event_rooms
from laws.broadcast.release import Release, Rule
from laws.competition.event_spec import EventKind, EventSpec

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
TABLES = ("table-01", "table-02", "table-03", "table-04")


def _msg(tid: str, seq: int, row: str, body: dict[str, object]) -> bytes:
    return json.dumps({"table": tid, "kind": "play", "seq": seq, "t": 10.0 + seq,
                       "body": {"row": row, "body": body}}).encode()


def test_a_team_named_after_the_broadcast_began_is_named_from_its_next_board(tmp_path: Path) -> None:
    spec = EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2)
    session = EventSession.create(tmp_path / "ev", spec, TABLES)
    names = EventNames(tmp_path / "ev")
    assert names.tables == TABLES and names.sides() == {}
    room, other = event_rooms(spec)
    r = Releaser(Release(Rule.DELAY, 0.0), {t: k for k, t in enumerate(TABLES, 1)}, board_tables(spec),
                 rooms=room, other_room=other, names=names.sides(), names_now=names.sides)

    def board(seq: int, number: int) -> dict[str, object]:
        out = r.offer("cardtable/table-01/play", _msg("table-01", seq, "event", {
            "type": "board", "board": number, "table": 1, "deal": DEAL, "ns": "1", "ew": "4"}), 100.0)
        body = json.loads(dict(out)[f"cardtable/spectate/table/1/board/{number}"])
        return body["items"][0].get("names", {})

    assert board(1, 1) == {}                                           # nobody named yet
    assert session.take({"type": "names", "competitor": 4, "name": "Hearts", "by": "director",
                         "players": []}).status == "taken"
    assert board(2, 2) == {"E": "Hearts", "W": "Hearts"}               # named from the next board on
    session.close()
    names.close()


def test_a_folder_without_an_event_is_named(tmp_path: Path) -> None:
    with pytest.raises(EventNamesError, match="no event there"):
        EventNames(tmp_path)
    from firmware_host.records.journal import Journal

    j = Journal.open(tmp_path / "session.sqlite3")
    j.append("event", {"type": "opened", "setup": {"kind": "nothing"}}, 1.0)
    j.close()
    with pytest.raises(EventNamesError, match="not an event"):
        EventNames(tmp_path)


def test_a_pairs_session_s_pair_named_later_is_named_from_its_next_board(tmp_path: Path) -> None:
    """The same for a duplicate pairs session (``SessionNames``): before, a pairs session's names were those
    of its setup, read once when the broadcast started."""
    from firmware_host.broadcast.bridge_names import SessionNames
    from firmware_host.session.duplicate_session import Session
    from tests.duplicate.sessionkit import make_setup

    session = Session.create(tmp_path / "s", make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 1},
                                                        names=False), analyse=False)
    names = SessionNames(tmp_path / "s")
    assert names.sides() == {}
    players = [{"name": "Ann Lee", "member": "", "federation": ""}, {"name": "Bo Kim", "member": "", "federation": ""}]
    assert session.take({"type": "players", "pair": "1 NS", "players": players, "by": "director"}).status == "taken"
    assert names.sides() == {"1 NS": ("Ann Lee", "Bo Kim")}
    names.close()
    session.close()
    with pytest.raises(EventNamesError, match="not a duplicate session"):
        SessionNames(_event_folder(tmp_path))


def _event_folder(tmp_path: Path) -> Path:
    EventSession.create(tmp_path / "ev", EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2), TABLES).close()
    return tmp_path / "ev"


def test_after_field_takes_the_session_s_word_for_a_result_the_table_never_sent(tmp_path: Path) -> None:
    """A table killed after its result was entered by hand at the club never sends its ``DB-77``: under
    ``after-field`` the board was never released at any table, though the session's journal held every line
    (docs/broadcast.md, "The session's word")."""
    import random

    from firmware_host.broadcast.bridge_names import SessionNames
    from firmware_host.broadcast.live import plays_of
    from firmware_host.broadcast.service import BroadcastService
    from firmware_host.session.duplicate_session import Session
    from laws.session.duplicate.spec import build_movement
    from tests.duplicate.sessionkit import make_setup, result

    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 1})
    movement = build_movement(setup.movement)
    plays = plays_of(movement)
    session = Session.create(tmp_path / "s", setup, analyse=False)
    names = SessionNames(tmp_path / "s")
    r = Releaser(Release(Rule.AFTER_FIELD), dict(setup.tables), plays, names_now=names.sides)
    tid = {n: t for t, n in setup.tables.items()}
    killed = max(plays[1])
    rng = random.Random(1)
    for s in sorted((s for s in movement.seatings if s.played and 1 in movement.boards_of(s.group)),
                    key=lambda s: s.round):
        board = {"type": "board", "board": 1, "deal": DEAL, "table": s.table, "ns": str(s.ns), "ew": str(s.ew)}
        assert r.offer(f"cardtable/{tid[s.table]}/play", _msg(tid[s.table], 1, "event", board), 20.0) == []
        rec = result(setup, s.round, s.table, 1, rng)
        if s.table == killed:   # its players entered it on their page: the table's own result never comes
            assert r.offer(f"cardtable/{tid[s.table]}/play", _msg(tid[s.table], 2, "event", {
                "type": "call", "seat": "N", "call": "1C"}), 20.0) == []
            rec = {k: v for k, v in rec.items() if k not in ("source", "record", "auction", "play")}
            rec.update(hand=True, by=f"{tid[s.table]}'s page", why="the table went dark")
        else:
            assert r.offer(f"cardtable/{tid[s.table]}/play", _msg(tid[s.table], 2, "ruling", {
                "clause": "DB-77", "remedy": "score", "contract": "3NT", "declarer": "S", "tricks": 9,
                "score": 400}), 20.0) == []
        assert session.take(rec).status == "taken", rec
    assert r.tick(1e12) == []                               # the tables' own results: one is missing
    assert set(names.done()) >= {(t, 1) for t in plays[1]}  # the session holds every line of board 1
    service = BroadcastService(r, "127.0.0.1", 1, "x", session_word=names.done)
    out = dict(service.step())
    assert sorted(out) == [f"cardtable/spectate/table/{t}/board/1" for t in sorted(plays[1])]
    shown = json.loads(out[f"cardtable/spectate/table/{killed}/board/1"])
    assert [i["kind"] for i in shown["items"]] == ["board", "call"] and not shown["finished"]
    assert all(json.loads(out[f"cardtable/spectate/table/{t}/board/1"])["finished"] for t in plays[1] if t != killed)
    names.close()
    session.close()
