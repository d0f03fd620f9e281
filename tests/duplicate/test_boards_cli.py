"""``cardtable boards``: through ``firmware_host.cli.main``, its exit codes and its one-line messages."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.cli import main

GOOD = ("N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84",
        "N:AKQ984.KQT7..Q83 7.J63.AJT82.A754 532.854.Q43.KT62 JT6.A92.K9765.J9")


def _write(path: Path, *games: str) -> Path:
    path.write_text("% PBN 2.1\n\n" + "\n\n".join(games) + "\n", encoding="utf-8")
    return path


def _game(board: int, deal: str, extra: str = "") -> str:
    return f'[Board "{board}"]\n{extra}[Deal "{deal}"]'


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["boards", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_new_check_commit_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "monday.pbn"
    code, text, _ = _run(capsys, "new", "--count", "8", "--out", str(out), "--event", "Monday pairs")
    assert code == 0
    committed = text.split("commitment ")[1].split()[0]
    assert len(committed) == 64
    code, text, _ = _run(capsys, "check", str(out))
    assert code == 0
    lines = text.splitlines()
    assert len(lines) == 9 and lines[0].startswith("board   1  dealer N  None  ")
    assert lines[-1] == f"8 boards; commitment {committed}"
    assert _run(capsys, "commit", str(out))[1].strip() == committed
    code, text, _ = _run(capsys, "verify", str(out), "--commitment", committed.upper())
    assert code == 0 and "matches the commitment (8 boards)" in text
    code, text, _ = _run(capsys, "verify", str(out), "--commitment", "0" * 64)
    assert code == 1 and "does NOT match" in text
    code, _, err = _run(capsys, "verify", str(out), "--commitment", "abc")
    assert code == 2 and err == "cardtable boards: --commitment 'abc': a SHA-256 is 64 hexadecimal digits\n"


def test_what_new_writes_endplay_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from endplay.parsers import pbn as endplay_pbn

    out = tmp_path / "set.pbn"
    assert _run(capsys, "new", "--count", "4", "--first", "9", "--out", str(out))[0] == 0
    boards = endplay_pbn.loads(out.read_text(encoding="utf-8"))
    assert [b.board_num for b in boards] == [9, 10, 11, 12]
    assert all(len(h) == 13 for b in boards for _, h in b.deal)


def test_convert_keeps_the_commitment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _write(tmp_path / "in.pbn", _game(1, GOOD[0]), _game(2, GOOD[1]))
    committed = _run(capsys, "commit", str(src))[1].strip()
    for name in ("a.dup", "a.bri", "b.pbn"):
        prev = src
        code, text, _ = _run(capsys, "convert", str(prev), str(tmp_path / name))
        assert code == 0 and "wrote 2 boards" in text
        src = tmp_path / name
        assert _run(capsys, "commit", str(src))[1].strip() == committed
    code, _, err = _run(capsys, "convert", str(src), str(tmp_path / "a.dup"))
    assert code == 2 and err == f"cardtable boards: {tmp_path}/a.dup: already exists; not replaced (--force replaces it)\n"
    assert _run(capsys, "convert", str(src), str(tmp_path / "a.dup"), "--force")[0] == 0
    code, _, err = _run(capsys, "convert", str(src), str(src))
    assert code == 2 and "is the input file" in err


BAD = [
    ("twelve.pbn", [_game(7, GOOD[0].replace("AK93", "AK9"))], "twelve.pbn: board 7 [Deal]: North holds 12 cards"),
    ("twice.pbn", [_game(1, GOOD[0].replace(" K.QJ76", " A.QJ76"))],
     "twice.pbn: board 1 [Deal]: the ace of spades is in North's and East's hands"),
    ("board.pbn", [_game(3, GOOD[0]), _game(3, GOOD[1])], "board.pbn: board 3 appears twice"),
    ("dealer.pbn", [_game(6, GOOD[0], '[Dealer "S"]\n')],
     "dealer.pbn: board 6 [Dealer] says S but board 6 is dealt by E (Duplicate Bridge, law 2)"),
    ("vul.pbn", [_game(6, GOOD[0], '[Vulnerable "Sometimes"]\n')], "vul.pbn: board 6: unknown [Vulnerable] value 'Sometimes'"),
]


@pytest.mark.parametrize("name, games, message", BAD, ids=[b[0] for b in BAD])
@pytest.mark.parametrize("verb", ["check", "commit", "convert"])
def test_a_bad_file_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                           games: list[str], message: str, verb: str) -> None:
    path = _write(tmp_path / name, *games)
    argv = [verb, str(path)] + ([str(tmp_path / "out.dup")] if verb == "convert" else [])
    code, out, err = _run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"cardtable boards: {tmp_path}/{message}") and err.count("\n") == 1
    assert "Traceback" not in err
    assert not (tmp_path / "out.dup").exists()


def test_bad_bri_and_missing_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bri = tmp_path / "x.bri"
    bri.write_bytes(b"01" * 39)
    code, _, err = _run(capsys, "check", str(bri))
    assert code == 2 and err.startswith(f"cardtable boards: {bri}: board 1 (byte 3): card 01 (the ace of spades)")
    code, _, err = _run(capsys, "check", str(tmp_path / "none.pbn"))
    assert (code, err) == (2, f"cardtable boards: {tmp_path}/none.pbn: cannot be read (No such file or directory)\n")
    code, _, err = _run(capsys, "check", str(tmp_path / "x.txt"))
    assert code == 2 and "unknown extension '.txt'" in err
    code, _, err = _run(capsys, "new", "--count", "0", "--out", str(tmp_path / "n.pbn"))
    assert code == 2 and "whole number from 1" in err
    code, _, err = _run(capsys, "new", "--count", "2", "--out", str(tmp_path / "nowhere" / "n.pbn"))
    assert code == 2 and "does not exist" in err


def test_the_store_across_sessions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = tmp_path / "club"
    assert _run(capsys, "new", "--count", "3", "--out", str(tmp_path / "mon.pbn"), "--store", str(store))[0] == 0
    assert _run(capsys, "new", "--count", "3", "--out", str(tmp_path / "tue.bri"), "--store", str(store))[0] == 0
    lines = (store / "deal-fingerprints.txt").read_text().splitlines()
    assert len(lines) == 7 and " 1 mon.pbn " in lines[1] and " 3 tue.bri " in lines[6]
    # A hand record from elsewhere that repeats Monday's deals is refused, naming the session.
    monday = (tmp_path / "mon.pbn").read_text()
    bought = tmp_path / "bought.pbn"
    bought.write_text(monday)
    code, _, err = _run(capsys, "check", str(bought), "--store", str(store))
    assert code == 2 and f"{bought}: board 1: the deal of board 1 of session 'mon.pbn " in err
    assert "(a deal from another session; Duplicate Bridge, law 6)" in err
    fresh = _write(tmp_path / "fresh.pbn", _game(1, GOOD[0]), _game(2, GOOD[1]))
    code, text, _ = _run(capsys, "check", str(fresh), "--store", str(store), "--record")
    assert code == 0 and "recorded 2 deals" in text
    # Audit 70, F6: the same file checked again called its own deals "a deal from another session"; it
    # is still refused (the store cannot tell a file checked twice from a set played twice), saying so.
    code, out, err = _run(capsys, "check", str(fresh), "--store", str(store))
    assert (code, out) == (2, "")
    assert re.fullmatch(rf"cardtable boards: {re.escape(str(fresh))}: all 2 deals are in the store already, board for board, as "
                        r"session 'fresh\.pbn \d{4}-\d\d-\d\dT\d\d:\d\dZ', recorded from a file of this name: this "
                        r"file checked again after --record, or the same set played again \(Duplicate Bridge, law 6\); "
                        r"to read the file again, leave out --store\n", err), err
    assert _run(capsys, "check", str(fresh))[0] == 0
    assert _run(capsys, "check", str(fresh), "--record")[0] == 2


def test_bri_numbering_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "new", "--count", "2", "--first", "17", "--out", str(tmp_path / "s.bri"))
    assert code == 0 and "read" in err and "--first 17" in err
    code, text, _ = _run(capsys, "check", str(tmp_path / "s.bri"), "--first", "17")
    assert code == 0 and text.startswith("board  17  dealer N  None")


def test_check_notes_a_gap_in_the_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A stray '{' in board 2's game makes board 3 commentary up to the next '}' (faithful PBN): the
    file is read, but ``check`` says which numbers are missing (audit 70, F5: it printed 1, 2, 4, exit 0,
    and said nothing)."""
    from firmware_host.duplicate.handrecords.handfiles import new_boards
    from laws.cards import Seat

    deals = [b.deal.pbn(Seat.N) for b in new_boards(4)]
    games = [_game(n, deals[n - 1]) for n in range(1, 5)]
    whole = _write(tmp_path / "whole.pbn", *games)
    code, _, err = _run(capsys, "check", str(whole))
    assert (code, err) == (0, "")
    games[1] += "\n{ a stray note by the TD"
    games[2] += "\n}"
    code, out, err = _run(capsys, "check", str(_write(tmp_path / "stray.pbn", *games)))
    assert code == 0 and out.startswith("board   1") and "\nboard   4" in out and "board   3" not in out
    assert err == (f"note: {tmp_path}/stray.pbn has no board 3 (its boards run 1-4); in PBN a '{{' commentary left open "
                   "hides every game up to the next '}'\n")


def test_first_where_the_file_numbers_its_own_boards(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--first`` numbers a file without numbers; a PBN or a DUP whose duplication control numbers its
    boards keeps its own, and another ``--first`` is refused (audit 70, F2: it was silently ignored, so
    ``check --first 1`` printed boards from 17, exit 0, and ``duplicate open --first 1`` then found no
    board 1 without saying why)."""
    from firmware_host.duplicate.handrecords.handfiles import new_boards, write_hand_records

    boards = new_boards(2, 17)
    for name in ("s.pbn", "s.dup", "s.bri"):
        write_hand_records(tmp_path / name, boards)
    blank = bytearray((tmp_path / "s.dup").read_bytes())   # a DUP without duplication control
    blank[146:156] = blank[302:312] = b" " * 10
    (tmp_path / "blank.dup").write_bytes(bytes(blank))
    for name, how in (("s.pbn", "[Board]"), ("s.dup", "its duplication control")):
        code, out, err = _run(capsys, "check", str(tmp_path / name), "--first", "1")
        assert (code, out) == (2, "")
        assert err == (f"cardtable boards: {tmp_path}/{name}: numbers its own boards, from 17 ({how}): --first 1 cannot "
                       "apply; leave --first out\n")
        code, out, _ = _run(capsys, "check", str(tmp_path / name), "--first", "17")   # what it says: no harm
        assert code == 0 and out.startswith("board  17")
        code, out, _ = _run(capsys, "check", str(tmp_path / name))
        assert code == 0 and out.startswith("board  17")
    for name in ("s.bri", "blank.dup"):
        code, out, _ = _run(capsys, "check", str(tmp_path / name), "--first", "17")
        assert code == 0 and out.startswith("board  17")
        code, out, _ = _run(capsys, "check", str(tmp_path / name))
        assert code == 0 and out.startswith("board   1")
    code, _, err = main_err(capsys, "duplicate", "open", "--dir", str(tmp_path / "sess"), "--hand-records",
                            str(tmp_path / "s.dup"), "--first", "1", "--pairs", "4", "--movement", "mitchell",
                            "--boards-per-round", "1")
    assert code == 2 and err == (f"cardtable duplicate open: {tmp_path}/s.dup: numbers its own boards, from 17 (its "
                                 "duplication control): --first 1 cannot apply; leave --first out\n")
    assert not (tmp_path / "sess").exists()


def test_a_dup_whose_control_says_board_1_is_numbered_by_first(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Big Deal's DUP writer puts a lowest board of 1 in every board's duplication control whatever boards it
    dealt (``YN1  0 16 `` for boards 17-32, its PBN of the same run saying 17-32). Such a file was read as
    boards 1-16 and ``--first 17`` was refused ("numbers its own boards, from 1"): its commitment could never
    match the PBN's, nor a session or a table find its boards. A control of 1 numbers nothing, as a BRI."""
    from firmware_host.duplicate.handrecords.handfiles import new_boards, write_hand_records

    boards = new_boards(2, 17)
    write_hand_records(tmp_path / "set.pbn", boards)
    write_hand_records(tmp_path / "set.dup", boards)
    dup = bytearray((tmp_path / "set.dup").read_bytes())
    dup[146:156] = dup[302:312] = b"YN1  0 02 "          # as Big Deal writes it, on every board
    (tmp_path / "set.dup").write_bytes(bytes(dup))
    pbn_commitment = _run(capsys, "commit", str(tmp_path / "set.pbn"))[1].strip()
    code, out, err = _run(capsys, "check", str(tmp_path / "set.dup"), "--first", "17")
    assert code == 0 and out.startswith("board  17") and err == "", err
    code, out, _ = _run(capsys, "verify", str(tmp_path / "set.dup"), "--first", "17", "--commitment", pbn_commitment)
    assert code == 0 and "matches the commitment (2 boards)" in out
    code, out, _ = _run(capsys, "check", str(tmp_path / "set.dup"))      # no --first: from 1, as before
    assert code == 0 and out.startswith("board   1")
    dup[146:156] = dup[302:312] = b"YN1  0 03 "          # a control that disagrees with the file: refused
    (tmp_path / "bad.dup").write_bytes(bytes(dup))
    code, _, err = _run(capsys, "check", str(tmp_path / "bad.dup"), "--first", "17")
    assert code == 2 and err == (f"cardtable boards: {tmp_path}/bad.dup: board 17 (bytes 147-156): the duplication "
                                 "control says boards 1-3 but the file holds 2\n")


def main_err(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_message_names_the_file_as_typed_not_its_name(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files of one name in two folders: each refusal names the path the user typed (it named only
    ``boards.pbn``, so a director with Monday's and Tuesday's sets could not tell which was broken)."""
    monkeypatch.chdir(tmp_path)
    for week in ("mon", "tue"):
        (tmp_path / week).mkdir()
    _write(tmp_path / "mon" / "boards.pbn", _game(6, GOOD[0], '[Dealer "S"]\n'))
    _write(tmp_path / "tue" / "boards.pbn", _game(1, GOOD[0]), _game(2, GOOD[1]))
    code, _, err = _run(capsys, "check", "mon/boards.pbn")
    assert (code, err) == (2, "cardtable boards: mon/boards.pbn: board 6 [Dealer] says S but board 6 is dealt by E "
                              "(Duplicate Bridge, law 2)\n")
    code, _, err = _run(capsys, "check", "./tue/boards.pbn", "--first", "5")
    assert (code, err) == (2, "cardtable boards: ./tue/boards.pbn: numbers its own boards, from 1 ([Board]): --first 5 "
                              "cannot apply; leave --first out\n")
    code, _, err = _run(capsys, "commit", "tue/boards.pbn", "--boards", "1-3")
    assert (code, err) == (2, "cardtable boards: --boards 1-3: tue/boards.pbn has no board 3\n")
    code, _, err = _run(capsys, "convert", "tue/boards.pbn", "mon/boards.pbn")
    assert (code, err) == (2, "cardtable boards: mon/boards.pbn: already exists; not replaced (--force replaces it)\n")
    code, out, _ = _run(capsys, "verify", "tue/boards.pbn", "--commitment", "0" * 64)
    assert code == 1 and out.startswith("tue/boards.pbn: does NOT match the commitment")
    code, _, err = _run(capsys, "check", "wed/boards.pbn")
    assert (code, err) == (2, "cardtable boards: wed/boards.pbn: cannot be read (No such file or directory)\n")


def test_a_one_board_file_is_counted_as_one_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Single-deal PBN files (rpbridge.net's, a BridgeComposer column's) were checked as "1 boards"."""
    path = _write(tmp_path / "column.pbn", _game(1, "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 "
                                                   "872.83.A542.QJ84"))
    code, text, _ = _run(capsys, "check", str(path))
    committed = text.split("commitment ")[1].split()[0]
    assert code == 0 and text.splitlines()[-1] == f"1 board; commitment {committed}"
    code, text, _ = _run(capsys, "verify", str(path), "--commitment", committed)
    assert code == 0 and text.strip() == f"{path}: matches the commitment (1 board)"
