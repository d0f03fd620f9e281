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
