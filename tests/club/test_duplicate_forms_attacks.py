"""Hostile forms on the director's duplicate page (docs/session.md, "Screens"; issue 25: text from outside
is checked where it enters, every refusal is journaled): a lone surrogate, NaN, a key that is a list or an
object, nesting too deep. Each is answered 400 or 409 with the reason, never a 500, and the session's
journal holds a note for it."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from firmware_host.session.duplicate_session import Session, SessionDesk
from tests.duplicate.sessionkit import make_setup, result

from .conftest import csrf, login
from .test_duplicate_screens_http import _post, dup  # noqa: F401  (the fixture)

KEY = "3/2 NS/2 EW"
HOSTILE = [
    ("/api/duplicate/round", b'{"round": "\\ud800"}'),
    ("/api/duplicate/cancel", b'{"key": "3/2 NS/2 EW", "why": "\\udfff"}'),
    ("/api/duplicate/correct", b'{"key": "3/2 NS/2 EW", "tricks": 8, "why": NaN}'),
    ("/api/duplicate/correct", b'{"key": ["3/2 NS/2 EW"], "tricks": 8}'),
    ("/api/duplicate/cancel", b'{"key": {"a": 1}}'),
    ("/api/duplicate/regroup", b'{"key": [], "group": "B"}'),
    ("/api/duplicate/adjust", b'{"board": 1, "ns": "1 NS", "ew": "1 EW", "kind": "artificial", '
                              b'"ns_value": "60", "ew_value": "40", "why": Infinity}'),
    ("/api/duplicate/round", b'{"round": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
]


@pytest.mark.parametrize(("path", "body"), HOSTILE, ids=[f"{p.rsplit('/', 1)[1]}-{i}" for i, (p, _b) in enumerate(HOSTILE)])
def test_a_hostile_form_is_refused_with_its_reason_and_journaled(dup: Any, path: str, body: bytes) -> None:  # noqa: F811
    _d, desk, client = dup
    login(client)
    token = csrf(client)
    setup = desk.session.setup
    desk.session.take(result(setup, 1, 2, 3, random.Random(5)))
    before = len(list(desk.session.journal.rows()))
    r = client.post(path, content=body, headers={"X-CSRF-Token": token, "Origin": "http://club.test",
                                                 "Content-Type": "application/json"})
    assert r.status_code in (400, 409), (r.status_code, r.text)
    assert r.json()["error"]
    rows = list(desk.session.journal.rows())
    assert len(rows) == before + 1 and rows[-1].kind == "note" and "refused" in rows[-1].body
    assert rows[-1].body["refused"]["why"] == r.json()["error"]


def test_a_record_the_journal_could_not_hold_is_refused_with_a_note(tmp_path: Path) -> None:
    """The session's own guard, whatever the source: a record whose text or numbers the journal cannot
    write (a lone surrogate, NaN) is refused with a note, and the rest of its batch is taken."""
    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2})
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    good = result(setup, 1, 2, 3, random.Random(5))
    out = s.submit([{"type": "round", "round": 2, "by": "d\ud800"}, {"type": "round", "round": float("nan")}, good])
    assert [o.status for o in out] == ["refused", "refused", "taken"]
    notes = [r.body["refused"] for r in s.journal.rows() if r.kind == "note"]
    assert len(notes) == 2 and "cannot be journaled" in notes[0]["why"]
    s.close()
    assert len(Session.open(tmp_path / "s", analyse=False).state.entries) == 1


def test_the_directors_refused_entries_are_listed_as_the_directors(tmp_path: Path) -> None:
    """docs/session.md: two lists of refusals, the tables' and the director's own. A refused players form of
    the director's, and a record of his the journal could not hold (kept with its type quoted, "'adjust'",
    and without its ``by``), were listed as the tables'."""
    from firmware_host.duplicate.views import refusal_rows

    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2})
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    s.submit([{"type": "adjust", "board": 1, "ns": "1 NS", "ew": "1 EW", "kind": "artificial", "ns_value": 60,
               "ew_value": 40, "by": "alice", "why": float("nan")},
              {"type": "players", "pair": "9 NS", "players": [], "by": "alice"},
              {"type": "players", "pair": "9 NS", "players": [], "by": "table-03 (the table's page)"}])
    tables, mine = refusal_rows(s)
    assert [(r["what"], r["by"]) for r in mine] == [("players", "alice"), ("adjust", "alice")]
    assert [(r["what"], r["by"]) for r in tables] == [("players", "table-03 (the table's page)")]
    s.close()


def test_a_tables_member_cards_refused_are_listed_as_the_tables_and_labelled(tmp_path: Path) -> None:
    """docs/session.md: a table's member cards refused by the naming rules were listed among the
    director's own refusals ("Your entries refused"), a ``players`` record as his forms are; they are the
    table's, labelled ``member cards``, as are member cards the link could not read."""
    from firmware_host.duplicate.views import refusal_rows

    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2})
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    s.submit([{"type": "players", "pair": "9 NS", "players": [], "by": "alice"},
              {"type": "message", "table": "table-02", "topic": "cardtable/table-02/players", "payload": "{",
               "why_link": "bad JSON"},
              {"type": "players", "pair": "9 NS", "players": [], "by": "table-03 (member cards)", "round": 1,
               "table": "table-03", "source": "table-03:57"}])
    tables, mine = refusal_rows(s)
    assert [(r["what"], r["by"]) for r in mine] == [("players", "alice")]
    assert [(r["what"], r["club_table"], r["table"]) for r in tables] == [
        ("member cards", "table-03", 3), ("member cards", "table-02", 2)]
    s.close()


def test_the_desk_answers_a_record_of_the_wrong_shape(tmp_path: Path) -> None:
    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2})
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"), lambda *a: None)
    for key in ([KEY], {"k": 1}, 3, None):
        for kind in ("correct", "cancel", "regroup"):
            o = desk.director({"type": kind, "key": key, "group": "B", "tricks": 8, "by": "d"})
            assert o.status == "refused" and "traveller line" in o.why
    desk.session.close()


def test_a_csrf_token_with_a_non_ascii_byte_is_a_403_not_a_500(dup: Any) -> None:  # noqa: F811
    """Header values reach the server as Latin-1 text; ``hmac.compare_digest`` refuses str with
    non-ASCII characters, so ``X-CSRF-Token: \\xe9`` was a TypeError (a 500) for a logged-in director."""
    _d, desk, client = dup
    login(client)
    csrf(client)
    r = client.post("/api/duplicate/round", content=b'{"round": 2}',
                    headers=[(b"X-CSRF-Token", b"\xe9t\xe9"), (b"Origin", b"http://club.test"),
                             (b"Content-Type", b"application/json")])
    assert r.status_code == 403 and r.json() == {"error": "bad CSRF token"}
    assert desk.session.state.called == 1


def test_a_device_cookie_with_a_non_ascii_mac_is_not_known_not_an_error() -> None:
    from firmware_host.web.throttle import Devices

    devices = Devices(b"k" * 32)
    good = devices.make("director")
    assert devices.check(good, "director") is not None
    assert devices.check(good[:-1] + "\xe9", "director") is None   # was a TypeError from compare_digest
