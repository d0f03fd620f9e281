"""Journal heads kept by the club (issue 20, item 6): every table's heads from its heartbeat, append-only
on the club machine; the dashboard shows "journal verified up to row N, at time T"; ``cardtable club
verify TABLE`` checks a table's journal against them, and so catches a history edited and re-hashed on
the table's own disk (which ``cardtable journal verify`` alone passes)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main
from firmware_host.club.broker import LocalBroker
from firmware_host.club.heads import HeadBook, read_heads
from firmware_host.club.state import ClubState
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from tests.club.conftest import PASSWORDS, login
from tests.records.test_journal_tamper import _rehash_from


def _journal(path: Path, rows: int) -> Journal:
    j = Journal.open(path, synchronous="NORMAL")
    for k in range(rows):
        j.append("note", {"k": k}, 1000.0 + k)
    return j


def _head_kept(tmp_path: Path, rows: int) -> Path:
    """Table t1's journal of ``rows`` rows in ``tmp_path/data`` (returned), its head kept by the club in
    ``tmp_path/heads.jsonl``: what ``club verify`` checks, before a test spoils one or the other."""
    data = tmp_path / "data"
    j = _journal(data, rows)
    book = HeadBook(tmp_path / "heads.jsonl")
    book.record("t1", *j.head(), 5000.0)
    j.close()
    book.close()
    return data


def _beat(table: str, head: str) -> tuple[str, bytes]:
    return f"cardtable/{table}/heartbeat", json.dumps({"table": table, "t": 1.0, "seq": 0, "pending": 0,
                                                      "head": head}).encode()


def test_the_club_keeps_each_new_head_once_and_flags_one_that_does_not_follow(tmp_path: Path) -> None:
    book = HeadBook(tmp_path / "heads.jsonl")
    s = ClubState(book)
    g = "a" * 64
    for now, head in [(10.0, f"5:{g}"), (15.0, f"5:{g}"), (20.0, f"9:{'b' * 64}")]:
        s.ingest(*_beat("t1", head), now)
    view = s.tables["t1"].to_dict()
    assert view["journal"] == {"row": 9, "t": 20.0, "problem": ""}
    lines = (tmp_path / "heads.jsonl").read_text().splitlines()
    assert [json.loads(x)["row"] for x in lines] == [5, 9]  # the repeat of row 5 is not written again
    s.ingest(*_beat("t1", f"3:{'c' * 64}"), 30.0)  # the journal went back: cut or replaced
    assert "went back from row 9 to row 3" in s.tables["t1"].to_dict()["journal"]["problem"]
    s.ingest(*_beat("t1", "not a head"), 31.0)  # ignored, never an exception
    book.close()
    again = HeadBook(tmp_path / "heads.jsonl")  # the club machine restarts: it still knows
    assert again.last("t1").row == 3 and again.problem("t1") is not None  # type: ignore[union-attr]
    assert len((tmp_path / "heads.jsonl").read_text().splitlines()) == 3  # only ever appended
    again.close()


def test_a_head_after_a_line_torn_by_a_kill_is_kept_on_a_line_of_its_own(tmp_path: Path) -> None:
    """Audit m16: the dashboard killed (kill -9) while it wrote a head left a torn last line; the restarted
    dashboard appended its next head to that line, so the two read as one line that is not JSON and the
    new head was passed over with the torn one: the club lost the head it had just kept (row 67 of a
    session: `club verify` said it held heads up to row 66 only). The torn line is ended first."""
    path = tmp_path / "heads.jsonl"
    book = HeadBook(path)
    book.record("t1", 5, "a" * 64, 10.0)
    book.close()
    with open(path, "ab") as f:
        f.write(b'{"table":"t1","row":6')           # killed in the middle of the next line
    again = HeadBook(path)
    again.record("t1", 7, "b" * 64, 20.0)
    again.close()
    got = read_heads(path)
    assert [(h.table, h.row) for h in got.heads] == [("t1", 5), ("t1", 7)]
    assert got.bad == 1   # the torn line alone is passed over
    assert HeadBook(path).last("t1").row == 7  # type: ignore[union-attr]


def _club_verify(capsys: pytest.CaptureFixture[str], heads: Path, data: Path) -> tuple[int, str, str]:
    rc = main(["club", "verify", "t1", "--heads", str(heads), "--journal", str(data)])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_club_verify_catches_a_history_rehashed_on_the_table(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    j = _journal(data, 40)
    book = HeadBook(tmp_path / "heads.jsonl")
    for rows in (10, 20, 30):  # heartbeats as the journal grew
        while j.head()[0] < rows + 40:
            j.append("note", {"more": j.head()[0]}, 2000.0)
        row, h = j.head()
        book.record("t1", row, h, 3000.0 + rows)
    j.close()
    book.close()
    rc, out, err = _club_verify(capsys, tmp_path / "heads.jsonl", data)
    assert rc == 0 and "holds all 3 heads the club kept" in out, err
    _rehash_from(data / "journal.sqlite3", 15, {"k": "changed"})  # an edit, and every later hash redone
    assert main(["journal", "verify", "--data-dir", str(data)]) == 0  # the chain alone cannot tell
    capsys.readouterr()
    rc, out, err = _club_verify(capsys, tmp_path / "heads.jsonl", data)
    assert rc == 1 and err.count("TAMPERED") == 3 and "row 50 has hash" in err


def test_club_verify_catches_rows_cut_off_the_end_and_says_what_it_lacks(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    data = _head_kept(tmp_path, 30)
    conn = sqlite3.connect(data / "journal.sqlite3")
    conn.execute("DROP TRIGGER IF EXISTS journal_no_delete")
    conn.execute("DELETE FROM journal WHERE seq > 20")
    conn.commit()
    conn.close()
    rc, _, err = _club_verify(capsys, tmp_path / "heads.jsonl", data)
    assert rc == 1 and "ends at row 20, but the club kept a head for row 30" in err
    rc, _, err = main(["club", "verify", "t9", "--heads", str(tmp_path / "heads.jsonl"), "--journal",
                       str(data)]), "", capsys.readouterr().err
    assert rc == 2 and "no journal head of table 't9'" in err


def test_the_dashboard_keeps_the_heads_it_hears_and_shows_them(tmp_path: Path, broker: LocalBroker) -> None:
    from starlette.testclient import TestClient

    from firmware_host.club.dashboard import Dashboard
    from firmware_host.web.auth import hash_password

    book = HeadBook(tmp_path / "heads.jsonl")
    d = Dashboard("127.0.0.1", broker.port, "dashboard", PASSWORDS["dashboard"],
                  {"director": hash_password("right-horse-1")}, heads=book)
    journal = _journal(tmp_path / "t1", 7)
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", journal, password=PASSWORDS["t1"],
                        heartbeat=0.1)
    try:
        with TestClient(d.app, base_url="http://club.test") as client:
            login(client)
            pub.start()
            deadline = time.monotonic() + 15
            view: dict[str, Any] = {}
            while not (view.get("journal") or {}).get("row") == 7:
                assert time.monotonic() < deadline, view
                time.sleep(0.05)
                view = next((t for t in client.get("/api/state").json()["tables"] if t["table"] == "t1"), {})
            assert view["journal"]["problem"] == "" and view["journal"]["t"] > 0
    finally:
        pub.stop()
        journal.close()
        book.close()
    (line,) = (tmp_path / "heads.jsonl").read_text().splitlines()
    assert json.loads(line)["row"] == 7 and json.loads(line)["hash"] == journal_head(tmp_path / "t1")


def journal_head(path: Path) -> str:
    with Journal.open_readonly(path) as j:
        return j.head()[1]


def test_club_verify_with_a_heads_file_that_is_not_there_says_it_cannot_be_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A mistyped ``--heads`` path was answered "nosuch.jsonl holds no journal head of table 't1'", as if
    the club had kept nothing: docs/mqtt.md, "Journal heads": the heads cannot be read, exit 2."""
    data = tmp_path / "data"
    _journal(data, 5).close()
    rc, out, err = _club_verify(capsys, tmp_path / "nosuch.jsonl", data)
    assert rc == 2 and not out
    assert err.strip() == f"club verify: {tmp_path / 'nosuch.jsonl'}: cannot read the heads (no such file)", err
    rc, out, err = _club_verify(capsys, tmp_path, data)                   # a folder
    assert rc == 2 and "cannot read the heads" in err and "Traceback" not in err


def test_club_verify_of_a_file_that_is_not_heads_is_one_line_naming_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    """``--heads`` naming another file (a picture, the journal itself): one line naming the file and its
    first line, exit 2; it logged one warning per line of the file (thousands for a binary one) and then
    said only that the club held no head of the table."""
    data = tmp_path / "data"
    _journal(data, 5).close()
    junk = tmp_path / "photo.jpg"
    junk.write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 400)   # a JPEG: some 400 "lines"
    notes = tmp_path / "notes.txt"
    notes.write_text("\nheads of Monday\n" + "{\"table\": \"t1\"}\n" * 50, encoding="utf-8")
    for path, first, why in ((junk, 1, "not UTF-8 text"), (notes, 2, "not JSON"),
                             (data / "journal.sqlite3", 1, "not UTF-8 text")):
        caplog.clear()
        rc, out, err = _club_verify(capsys, path, data)
        assert (rc, out) == (2, "")
        assert err == f"club verify: {path}: not a heads file: line {first} is not a head ({why}); nothing read\n"
        assert not [r for r in caplog.records if r.levelname == "WARNING"]


def test_club_verify_counts_the_lines_of_a_heads_file_that_are_not_heads(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture) -> None:
    """A heads file with lines that are not heads (a torn last line after a power cut, a line an editor
    mangled) is still checked; its bad lines are counted in one line, not one warning each."""
    data = _head_kept(tmp_path, 12)
    with (tmp_path / "heads.jsonl").open("ab") as f:
        f.write(b"[1, 2]\n" + b'{"table": "t1", "row": "x", "hash": "h", "t": 1}\n' * 20 + b'{"table": "t1", "ro')
    rc, out, err = _club_verify(capsys, tmp_path / "heads.jsonl", data)
    assert rc == 0 and "it holds all 1 heads the club kept" in out
    assert err == (f"club verify: {tmp_path / 'heads.jsonl'}: 22 of 23 lines are not heads (the first: line 2, "
                   "not a JSON object); passed over\n")
    assert not [r for r in caplog.records if r.levelname == "WARNING"]
    caplog.clear()
    assert len(HeadBook.read(tmp_path / "heads.jsonl", "t1")) == 1   # the dashboard at start: one warning
    assert [r.getMessage() for r in caplog.records if r.levelname == "WARNING"] == [err[len("club verify: "):-1]]


def test_one_login_s_flood_of_new_heads_writes_a_bounded_number_of_lines(tmp_path: Path) -> None:
    """A live attack: a table login sent 20,000 heartbeats each with a new head in two seconds; the
    dashboard appended and fsynced a line for each (2.5 MB, without bound). A table's heads are kept at
    most one every HEADS_EVERY seconds after a burst of HEADS_BURST; the ones passed over are counted."""
    from firmware_host.club.state import HEADS_BURST, HEADS_EVERY

    book = HeadBook(tmp_path / "heads.jsonl")
    s = ClubState(book)
    for k in range(1, 2001):
        s.ingest(*_beat("t1", f"{k}:{k % 10:064d}"), 100.0)
    s.ingest(*_beat("t2", f"1:{'a' * 64}"), 100.0)   # another table's head is kept all the same
    lines = [json.loads(x) for x in (tmp_path / "heads.jsonl").read_text().splitlines()]
    assert len([x for x in lines if x["table"] == "t1"]) == HEADS_BURST and lines[-1]["table"] == "t2"
    assert s.tables["t1"].heads_passed_over == 2000 - HEADS_BURST
    # the view says the newest head it holds; once the budget allows, the next new head is kept
    assert s.tables["t1"].to_dict()["journal"]["row"] == HEADS_BURST
    s.ingest(*_beat("t1", f"3000:{'b' * 64}"), 100.0 + HEADS_EVERY)
    assert book.last("t1").row == 3000   # type: ignore[union-attr]
    # an honest table (a heartbeat every 5 s, a new head each time) never loses one
    for k in range(1, 200):
        s.ingest(*_beat("t3", f"{k}:{'c' * 64}"), 100.0 + 5.0 * k)
    assert len(HeadBook.read(tmp_path / "heads.jsonl", "t3")) == 199
    book.close()


def _envelope(kind: str, seq: int, prev: int | None, body: dict[str, Any]) -> tuple[str, bytes]:
    env: dict[str, Any] = {"table": "t1", "kind": kind, "seq": seq, "deal": 1, "t": 100.0, "body": body}
    if prev is not None:
        env["prev"] = prev
    return f"cardtable/t1/{kind}", json.dumps(env).encode()


def test_a_table_on_a_new_journal_is_shown_again_from_its_first_message(tmp_path: Path) -> None:
    """Found running a real ``cardtable run`` whose journal was replaced (a new card) while the dashboard
    ran: its heartbeat was flagged "went back", but the page kept the old journal's phase and lamps, and a
    player's attention (status seq 4, ruling seq 3) never reached the queue: the dashboard dropped every
    status below the old journal's newest seq (142) as older, and every event or ruling whose seq the old
    journal had used as a repeat. A head that goes back starts the table's numbers afresh."""
    s = ClubState(HeadBook(tmp_path / "heads.jsonl"))
    lamps = {"attention_E": False, "redeal": False}
    status = {"table": "t1", "phase": "play", "game": "contract-bridge", "deal": 2, "dealer": "N",
              "lamps": lamps, "score": {}}
    s.ingest(*_envelope("status", 142, None, status), 10.0)
    for seq in range(2, 142):
        s.ingest(*_envelope("event", seq, seq - 1, {"type": "shuffle", "seat": "S"}), 10.0)
        s.ingest(*_envelope("ruling", seq, seq - 1, {"remedy": "score", "law": "x", "clause": "x",
                                                      "reason": "A score."}), 10.0)
    s.ingest(*_beat("t1", f"142:{'a' * 64}"), 11.0)
    before = s.tables["t1"].events
    s.ingest(*_beat("t1", f"1:{'b' * 64}"), 20.0)   # the new card's journal: first heartbeat
    s.ingest(*_envelope("event", 2, 0, {"type": "demand", "seat": "E", "what": "attention"}), 20.0)
    s.ingest(*_envelope("ruling", 3, 2, {"remedy": "attention", "law": "Contract Bridge, Drawing Attention",
                                         "clause": "CB-attention", "reason": "East draws attention.",
                                         "seat": "E"}), 20.0)
    s.ingest(*_envelope("status", 4, None, {**status, "phase": "forming", "deal": 0,
                                            "lamps": {**lamps, "attention_E": True}}), 20.0)
    view = s.tables["t1"].to_dict()
    assert "went back from row 142 to row 1" in view["journal"]["problem"]
    assert view["phase"] == "forming" and view["deal"] == 0, view
    assert s.tables["t1"].events == before + 1 and view["last_event"] == "demand East"
    assert view["call"] is not None and "East draws attention." in view["call"]["reason"], view["call"]
