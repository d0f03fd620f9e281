"""The journal as evidence: `journal verify`, `journal head` and `export` against tampered, empty,
foreign and read-only files. Each test is one way the record could be doubted."""

from __future__ import annotations

import hashlib
import json
import os
import random
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.cli import main
from firmware_host.records.journal import Journal, row_hash
from laws.cards import Seat, clockwise_from, full_pack
from laws.events import CardDealt, DealEnded, DealStarted, PlayEnded, ResultRecorded, event_to_dict
from tests.records.test_journal_commands import make_journal


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out = capsys.readouterr()
    return rc, out.out, out.err


def _another_programs_database(folder: Path) -> Path:
    """A SQLite file where the journal would be, holding another program's table and no journal."""
    db = folder / "journal.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE photos (id INTEGER)")
    conn.commit()
    conn.close()
    return db


def _rehash_from(db: Path, seq: int, body: dict[str, object]) -> None:
    """Replace row ``seq``'s body and recompute every hash from it on: a chain that verifies on its own."""
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER journal_no_update")
    rows = conn.execute("SELECT seq, t, kind, body, prev_hash FROM journal WHERE seq >= ? ORDER BY seq",
                        (seq,)).fetchall()
    prev = rows[0][4]
    for s, t, kind, text, _ in rows:
        b = body if s == seq else json.loads(text)
        h = row_hash(prev, s, t, kind, b)
        conn.execute("UPDATE journal SET body = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                     (json.dumps(b, sort_keys=True, separators=(",", ":")), prev, h, s))
        prev = h
    conn.commit()
    conn.close()


def _edit_row(db: Path, seq: int, body: dict[str, object]) -> None:
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER journal_no_update")
    conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (json.dumps(body), seq))
    conn.commit()
    conn.close()


def test_an_empty_file_is_not_a_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "journal.sqlite3"
    db.touch()
    for argv in (["journal", "verify"], ["journal", "head"], ["export", "jsonl"], ["export", "pbn"]):
        rc, out, err = _run(capsys, *argv, "--data-dir", str(tmp_path))
        assert rc == 2 and "intact" not in out, argv
        assert "empty" in err and str(db) in err and len(err.strip().splitlines()) == 1
    assert db.stat().st_size == 0 and sorted(os.listdir(tmp_path)) == ["journal.sqlite3"]


def test_a_database_without_the_journal_table_is_not_a_journal(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    db = _another_programs_database(tmp_path)
    before = db.read_bytes()
    rc, out, err = _run(capsys, "journal", "verify", "--data-dir", str(tmp_path))
    assert rc == 2 and "not a cardtable journal" in err and "no table 'journal'" in err
    assert db.read_bytes() == before


def test_a_history_edited_and_rehashed_fails_against_the_head_kept_elsewhere(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    make_journal(data, with_game=True)
    rc, kept, _ = _run(capsys, "journal", "head", "--data-dir", str(data))
    assert rc == 0
    row, h = kept.strip().split(":")
    assert row == "59" and len(h) == 64
    rc, out, _ = _run(capsys, "journal", "verify", "--data-dir", str(data), "--head", kept.strip())
    assert rc == 0 and "holds head 59:" in out
    # a result changed, and every hash after it recomputed: the chain alone cannot tell
    _rehash_from(data / "journal.sqlite3", 59, {"type": "result", "tricks": 13, "declarer": "N", "contract": "3NT"})
    rc, out, _ = _run(capsys, "journal", "verify", "--data-dir", str(data))
    assert rc == 0 and "intact" in out
    rc, out, err = _run(capsys, "journal", "verify", "--data-dir", str(data), "--head", kept.strip())
    assert rc == 1 and "does not hold head 59:" in err and "rewritten" in err
    # rows cut off the end
    rc, _, err = _run(capsys, "journal", "verify", "--data-dir", str(data), "--head", f"60:{h}")
    assert rc == 1 and "ends at row 59" in err


@pytest.mark.parametrize("head", ["59", "x:ab", "59:xyz", f"-1:{'a' * 64}", f"5:{'g' * 64}"])
def test_a_malformed_head_is_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str], head: str) -> None:
    make_journal(tmp_path, with_game=True)
    rc, _, err = _run(capsys, "journal", "verify", "--data-dir", str(tmp_path), f"--head={head}")
    assert rc == 2 and "ROW:HASH" in err and len(err.strip().splitlines()) == 1


def test_verify_reports_an_edited_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_journal(tmp_path, with_game=True)
    with Journal.open(tmp_path) as j:
        seq = j.save_checkpoint(j.head()[0], "v1", json.dumps({"deal": 1, "unreadable": 0}))
    assert _run(capsys, "journal", "verify", "--data-dir", str(tmp_path))[0] == 0
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    conn.execute("UPDATE checkpoint SET state = ?", (json.dumps({"deal": 9, "unreadable": 4}),))
    conn.commit()
    conn.close()
    rc, _, err = _run(capsys, "journal", "verify", "--data-dir", str(tmp_path))
    assert rc == 1 and f"checkpoint at row {seq}" in err and "edited" in err
    # the rows are intact, so the record still exports; the edited checkpoint is said on stderr
    rc, out, err = _run(capsys, "export", "jsonl", "--data-dir", str(tmp_path))
    assert rc == 0 and len(out.splitlines()) == 57 and f"checkpoint at row {seq}" in err and "warning" in err


@pytest.mark.parametrize("column, value", [("state", b"\xff\x00"), ("version", 5), ("hash", 7)])
def test_a_malformed_checkpoint_is_named_as_such(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                 column: str, value: object) -> None:
    """A checkpoint field of another type than the journal writes (an edited file; a flipped byte in the
    schema can even leave a NULL, which gave a TypeError): verify names it malformed and the restart
    ignores it."""
    make_journal(tmp_path, with_game=True)
    with Journal.open(tmp_path) as j:
        j.save_checkpoint(j.head()[0], "v1", json.dumps({"deal": 1}))
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    conn.execute(f"UPDATE checkpoint SET {column} = ?", (value,))
    conn.commit()
    conn.close()
    rc, _, err = _run(capsys, "journal", "verify", "--data-dir", str(tmp_path))
    assert rc == 1 and "malformed" in err and "Traceback" not in err
    with Journal.open(tmp_path) as j:
        assert j.checkpoint("v1" if column != "version" else "5") is None


@pytest.fixture
def read_only_copy(tmp_path: Path) -> Iterator[Path]:
    """A journal copied off the table (VACUUM INTO: no WAL, as on a backup medium), made read-only."""
    make_journal(tmp_path / "live", with_game=True)
    copy = tmp_path / "copy"
    copy.mkdir()
    conn = sqlite3.connect(tmp_path / "live" / "journal.sqlite3")
    conn.execute("VACUUM INTO ?", (str(copy / "journal.sqlite3"),))
    conn.close()
    (copy / "journal.sqlite3").chmod(stat.S_IRUSR | stat.S_IRGRP)
    copy.chmod(stat.S_IRUSR | stat.S_IXUSR)
    yield copy
    copy.chmod(stat.S_IRWXU)


def test_readers_never_change_the_file(read_only_copy: Path, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    db = read_only_copy / "journal.sqlite3"
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    runs = [["journal", "verify"], ["journal", "head"], ["export", "jsonl", "--out", str(tmp_path / "h.jsonl")],
            ["export", "pbn", "--out", str(tmp_path / "h.pbn")]]
    for argv in runs:
        rc, _, err = _run(capsys, *argv, "--data-dir", str(read_only_copy))
        assert rc == 0, (argv, err)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(os.listdir(read_only_copy)) == ["journal.sqlite3"]  # no -wal, no -shm left behind
    assert len((tmp_path / "h.jsonl").read_text().splitlines()) == 57


def test_export_refuses_a_broken_chain_and_force_marks_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_journal(tmp_path, with_game=True)
    db = tmp_path / "journal.sqlite3"
    body = json.loads(sqlite3.connect(db).execute("SELECT body FROM journal WHERE seq = 30").fetchone()[0])
    # the same card, now said to have come from the director (a card said dealt face up would void the deal:
    # a redeal, no board to mark)
    _edit_row(db, 30, dict(body, src="director"))
    for fmt in ("jsonl", "pbn"):
        out = tmp_path / f"x.{fmt}"
        rc, _, err = _run(capsys, "export", fmt, "--data-dir", str(tmp_path), "--out", str(out))
        assert rc == 1 and "TAMPERED" in err and "journal row 30" in err and "--force" in err
        assert not out.exists()
    out = tmp_path / "x.jsonl"
    rc, _, err = _run(capsys, "export", "jsonl", "--data-dir", str(tmp_path), "--out", str(out), "--force")
    assert rc == 0 and "not verified" in err
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    # rows 1..29 are verified (the game line, the deal start, 25 cards, a ruling and a lamp); from row 30 on not
    marked = [k for k, e in enumerate(lines) if e.get("unverified")]
    assert marked == list(range(27, len(lines))) and not any(e.get("unverified") for e in lines[:27])
    rc, _, _ = _run(capsys, "export", "pbn", "--data-dir", str(tmp_path), "--out", str(tmp_path / "x.pbn"), "--force")
    text = (tmp_path / "x.pbn").read_text()
    assert rc == 0 and "{Not verified:" in text


def test_export_force_leaves_out_a_row_that_is_not_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_journal(tmp_path, with_game=True)
    conn = sqlite3.connect(tmp_path / "journal.sqlite3")
    conn.execute("DROP TRIGGER journal_no_update")
    conn.execute("UPDATE journal SET body = ? WHERE seq = 12", ("[" * 100_000,))
    conn.commit()
    conn.close()
    rc, out, err = _run(capsys, "export", "jsonl", "--data-dir", str(tmp_path), "--force")
    assert rc == 0 and "journal row 12" in err and "left out" in err
    assert len(out.splitlines()) == 56


@pytest.mark.parametrize("odd", [{"type": "deal_start", "dealer": "Q", "pack": "A"}, {"type": "deal_start"},
                                 {"type": "card_dealt", "seat": "Z", "card": "AS"},
                                 {"type": "card_dealt", "seat": "N", "card": "ZZ"}])
def test_an_event_row_not_in_the_event_format_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       odd: dict[str, object]) -> None:
    """Rows the chain vouches for but that are not events (another writer): one message, no traceback."""
    make_journal(tmp_path, with_game=True)
    with Journal.open(tmp_path) as j:
        j.append("event", odd, t=99.0)
    for fmt in ("jsonl", "pbn"):
        rc, _, err = _run(capsys, "export", fmt, "--data-dir", str(tmp_path))
        assert rc == 2 and "journal row 60: not an event" in err and len(err.strip().splitlines()) == 1
    rc, out, err = _run(capsys, "export", "pbn", "--data-dir", str(tmp_path), "--force")
    assert rc == 0 and "journal row 60" in err and "[Board \"1\"]" in out


def test_export_into_a_missing_folder_is_one_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_journal(tmp_path / "data", with_game=True)
    for fmt in ("jsonl", "pbn"):
        rc, _, err = _run(capsys, "export", fmt, "--data-dir", str(tmp_path / "data"),
                          "--out", str(tmp_path / "nowhere" / f"x.{fmt}"))
        assert rc == 2 and "does not exist" in err and str(tmp_path / "nowhere") in err
        assert len(err.strip().splitlines()) == 1
    rc, _, err = _run(capsys, "export", "pbn", "--data-dir", str(tmp_path / "data"), "--out", str(tmp_path))
    assert rc == 2 and "is a directory" in err


def test_export_pbn_leaves_out_a_hand_still_in_the_auction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_journal(tmp_path, with_game=True)
    pack = list(full_pack())
    random.Random(9).shuffle(pack)
    evs = [DealStarted(Seat.N, "B")]
    evs += [CardDealt(seat, pack[k * 4 + i]) for k in range(13) for i, seat in enumerate(clockwise_from(Seat.E))]
    evs.append(DealEnded())  # the auction is on: no contract, no play, no result
    with Journal.open(tmp_path) as j:
        for e in evs:
            j.append("event", event_to_dict(e), t=100.0)
    rc, out, err = _run(capsys, "export", "pbn", "--data-dir", str(tmp_path))
    assert rc == 0 and out.count("[Board ") == 1 and '[Contract "3NT"]' in out and '[Dealer "W"]' in out
    # not silently: the deal is named on stderr, with why (audit 69)
    assert err == (f"cardtable: {tmp_path / 'journal.sqlite3'}: deal 2: left out of the PBN: its hand has not "
                   "ended (it becomes a board once it ends)\n")
    with Journal.open(tmp_path) as j:
        for e in (PlayEnded(), ResultRecorded(8, declarer=Seat.E, contract="2S")):
            j.append("event", event_to_dict(e), t=101.0)
    rc, out, err = _run(capsys, "export", "pbn", "--data-dir", str(tmp_path))
    assert rc == 0 and out.count("[Board ") == 2 and '[Contract "2S"]' in out and err == ""


def test_export_never_writes_over_the_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_journal(tmp_path, with_game=True)
    db = tmp_path / "journal.sqlite3"
    before = db.read_bytes()
    rc, _, err = _run(capsys, "export", "jsonl", "--data-dir", str(tmp_path), "--out", str(db))
    assert rc == 2 and "the journal itself" in err and db.read_bytes() == before


_ORIGINAL: dict[str, bytes] = {}


def _original(tmp: Path) -> bytes:
    if "db" not in _ORIGINAL:
        make_journal(tmp, with_game=True)
        with Journal.open(tmp) as j:
            j.save_checkpoint(j.head()[0], "v1", json.dumps({"deal": 1}))
        _ORIGINAL["db"] = (tmp / "journal.sqlite3").read_bytes()
        with Journal.open_readonly(tmp) as j:
            _ORIGINAL["jsonl"] = "".join(json.dumps(e) + "\n" for e in j.events()).encode()
    return _ORIGINAL["db"]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_flipped_byte_is_caught_or_harmless(tmp_path_factory: pytest.TempPathFactory,
                                              capsys: pytest.CaptureFixture[str], data: st.DataObject) -> None:
    """Any one byte of the file changed: verify says tampered (1) or unreadable (2), or the change was in
    space SQLite does not use and the export is the original history. Never a traceback."""
    original = _original(tmp_path_factory.mktemp("orig"))
    where = data.draw(st.integers(0, len(original) - 1))
    flip = data.draw(st.integers(1, 255))
    d = tmp_path_factory.mktemp("flip")
    changed = bytearray(original)
    changed[where] ^= flip
    (d / "journal.sqlite3").write_bytes(bytes(changed))
    rc, _, _ = _run(capsys, "journal", "verify", "--data-dir", str(d))
    assert rc in (0, 1, 2)
    erc, out, _ = _run(capsys, "export", "jsonl", "--data-dir", str(d))
    assert erc in (0, 1, 2)
    if rc == 0:
        events = "".join(json.dumps(json.loads(line)) + "\n" for line in out.splitlines()).encode()
        assert erc == 0 and events == _ORIGINAL["jsonl"]


def test_a_table_starting_during_a_verify_is_not_taken_for_tampering(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader of a stopped table's file reads it as immutable; if the table starts meanwhile (its WAL
    appears) a failed check is made again through the WAL, and only that second answer counts."""
    from firmware_host.records.journal import JournalError

    make_journal(tmp_path, with_game=True)
    reader = Journal.open_readonly(tmp_path)
    first = Journal._verify
    calls = []

    def torn(self: Journal, head: object) -> object:  # what a read torn by the writer's checkpoint looks like
        calls.append(1)
        if len(calls) == 1:
            raise JournalError(f"{self.path}: the database is corrupt (database disk image is malformed)")
        return first(self, head)  # type: ignore[arg-type]

    monkeypatch.setattr(Journal, "_verify", torn)
    with Journal.open(tmp_path) as writer:  # the table starts: its WAL appears
        writer.append("note", {"started": True}, 100.0)
        result = reader.verify()
        assert result.ok and result.rows == 60 and len(calls) == 2
    reader.close()
    # with no writer, the failure stands
    calls.clear()
    reader = Journal.open_readonly(tmp_path)
    with pytest.raises(JournalError, match="malformed"):
        reader.verify()
    reader.close()


def test_the_table_never_writes_into_another_programs_database(tmp_path: Path) -> None:
    from firmware_host.records.journal import JournalError

    db = _another_programs_database(tmp_path)
    before = db.read_bytes()
    with pytest.raises(JournalError, match="something else.*photos"):
        Journal.open(tmp_path)
    assert db.read_bytes() == before


def test_a_body_with_a_key_twice_is_an_edit_though_it_hashes_the_same(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """A stored body rewritten as {"card": "QS", ..., "card": <its own card>} hashed as the row did (the hash
    covers the parsed JSON, whose last value wins), so `journal verify` passed it, while SQLite's own
    json_extract, which a club's other tools may use, reads the first: QS. The journal never writes a key
    twice, so such a body is an edit."""
    make_journal(tmp_path, with_game=True)
    db = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(db)
    seq, text = conn.execute("SELECT seq, body FROM journal WHERE body LIKE '%card_dealt%' ORDER BY seq LIMIT 1").fetchone()
    body = json.loads(text)
    forged = '{"card": "QS", ' + text[1:]          # the same row's own "card" comes later, and wins in Python
    assert json.loads(forged) == body
    conn.execute("DROP TRIGGER journal_no_update")
    conn.execute("UPDATE journal SET body = ? WHERE seq = ?", (forged, seq))
    conn.commit()
    assert conn.execute("SELECT json_extract(body, '$.card') FROM journal WHERE seq = ?", (seq,)).fetchone()[0] == "QS"
    conn.close()
    rc, out, err = _run(capsys, "journal", "verify", "--data-dir", str(tmp_path))
    assert rc == 1 and "given twice" in (out + err)


def test_a_row_whose_number_is_not_a_number_is_named_not_a_traceback() -> None:
    """Found by the flipped-byte property above (a byte flip that made a row's seq NULL): verify raised
    a TypeError ('NoneType' - 'int') instead of naming the row."""
    from firmware_host.records.chain import row_problem

    said = row_problem(None, 1.0, "event", "{}", "x", "y", "x", 7)  # type: ignore[arg-type]
    assert said == "expected row 7 here: the row's number is not a whole number (None)"
