"""Bad input to ``cardtable boards`` and ``cardtable duplicate`` from an outsider's reading of
docs/handrecords.md and docs/session.md: one line naming what and where, exit 2, no traceback, and
nothing made (a refused ``duplicate open`` leaves no session behind)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.duplicate.handrecords.handfiles import read_hand_records

DEAL = "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"


def _cli(*argv: str | bytes, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real program, its arguments as the operating system gives them (bytes)."""
    args = [a if isinstance(a, bytes) else a.encode() for a in argv]
    return subprocess.run([sys.executable.encode(), b"-m", b"firmware_host.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})


def _refused(run: subprocess.CompletedProcess[str], *words: str) -> None:
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1, run.stderr
    for w in words:
        assert w in run.stderr, run.stderr


def test_a_board_number_of_5000_digits_is_named_not_pythons_limit(tmp_path: Path) -> None:
    (tmp_path / "b.pbn").write_text(f'[Board "{"9" * 5000}"]\n[Deal "{DEAL}"]\n')
    run = _cli("boards", "check", "b.pbn", cwd=tmp_path)
    _refused(run, "b.pbn", "[Board]", "not a board number")
    assert "sys.set_int_max_str_digits" not in run.stderr


@pytest.mark.parametrize("number", ["\uff11", "\u0661", "+1", " 1 2"])
def test_a_board_number_is_ascii_digits(tmp_path: Path, number: str) -> None:
    (tmp_path / "b.pbn").write_text(f'[Board "{number}"]\n[Deal "{DEAL}"]\n', encoding="utf-8")
    _refused(_cli("boards", "check", "b.pbn", cwd=tmp_path), "b.pbn", "[Board]", "not a board number")


def test_an_event_with_a_line_end_is_refused_before_a_broken_file_is_written(tmp_path: Path) -> None:
    run = _cli("boards", "new", "--count", "2", "--out", "n.pbn", "--event", 'a\nb"]', cwd=tmp_path)
    if run.returncode == 0:   # written: then it must read back
        read_hand_records(tmp_path / "n.pbn")
    else:
        _refused(run, "--event")
        assert not (tmp_path / "n.pbn").exists()


def test_a_count_beyond_any_set_of_boards_is_refused_at_once(tmp_path: Path) -> None:
    """The refusal names the count's limit (handrecords.md: 1 to 999); it once blamed a PBN [Board]'s nine
    digits, as if a shorter count past 999 would be dealt."""
    run = _cli("boards", "new", "--count", "99999999999", "--out", "n.pbn", cwd=tmp_path)
    _refused(run, "--count", "1 to 999, got 99999999999")
    assert "[Board]" not in run.stderr and not (tmp_path / "n.pbn").exists()


@pytest.mark.parametrize("argv", [
    ["boards", "new", "--count", "2", "--out", "n.pbn", "--event", b"Monday \xff"],
    ["duplicate", "open", "--dir", "s", "--hand-records", "b.pbn", "--pairs", "8", "--movement", "mitchell",
     "--boards-per-round", "2", "--name", b"Mon\xffday"],
    ["duplicate", "open", "--dir", "s", "--hand-records", "b.pbn", "--pairs", "8", "--movement", "mitchell",
     "--boards-per-round", "2", b"--club=Our \xed\xa0\x80 club"],
])
def test_command_line_text_that_is_not_utf8_is_named_and_nothing_is_made(tmp_path: Path,
                                                                        argv: list[str | bytes]) -> None:
    assert _cli("boards", "new", "--count", "8", "--out", "b.pbn", cwd=tmp_path).returncode == 0
    run = _cli(*argv, cwd=tmp_path)
    _refused(run, "not UTF-8")
    assert ("--event" in run.stderr) or ("--name" in run.stderr) or ("--club" in run.stderr)
    assert not (tmp_path / "s").exists() and not (tmp_path / "n.pbn").exists()


def test_the_not_utf8_message_is_the_documents_to_the_letter(tmp_path: Path) -> None:
    """docs/handrecords.md gives the message with the byte as one backslash escape; it came out doubled
    (``'Monday \\\\xff'``), the text's repr taken of a text already escaped."""
    run = _cli("boards", "new", "--count", "2", "--out", "n.pbn", "--event", b"Monday \xff", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip() == ("cardtable: --event 'Monday \\xff' is not UTF-8 text: every argument must be "
                                  "UTF-8 (a file name too: rename the file)")


def test_a_refused_open_leaves_no_half_made_session(tmp_path: Path) -> None:
    """Whatever stops ``open`` after the folder is made, the folder can be opened again."""
    assert _cli("boards", "new", "--count", "8", "--out", "b.pbn", cwd=tmp_path).returncode == 0
    from firmware_host.session.duplicate_session import Session, SessionFileError
    from tests.duplicate.sessionkit import make_setup
    setup = make_setup({"kind": "mitchell", "tables": 4, "boards_per_round": 2})
    bad = setup.__class__(**{**setup.__dict__, "name": "Mon\ud800day"})
    with pytest.raises(SessionFileError, match="cannot be made"):
        Session.create(tmp_path / "s", bad, analyse=False)
    assert not (tmp_path / "s" / "session.sqlite3").exists()


@pytest.mark.parametrize("report", ["nodir/r.txt", "adir"])
def test_a_report_that_cannot_be_written_is_refused_before_any_board_is_dealt(tmp_path: Path, report: str) -> None:
    (tmp_path / "adir").mkdir()
    assert _cli("boards", "new", "--count", "2", "--out", "b.pbn", cwd=tmp_path).returncode == 0
    run = _cli("boards", "deal", "--records", "b.pbn", "--shoe", "virtual", "--auto", "--journal", "j.sqlite3",
               "--report", report, cwd=tmp_path)
    _refused(run, "--report", report)
    assert "dealt" not in run.stdout and not (tmp_path / "j.sqlite3").exists()


@pytest.mark.parametrize("text", ["", "% PBN 2.1\r\n", '[Event "Monday"]\n[Site "club"]\n'])
def test_a_pbn_file_without_boards_is_named(tmp_path: Path, text: str) -> None:
    (tmp_path / "e.pbn").write_text(text)
    _refused(_cli("boards", "check", "e.pbn", cwd=tmp_path), "e.pbn: no boards in the file")


@pytest.mark.parametrize(("lines", "words"), [
    ('records = "adir"', "adir is a folder"),
])
def test_a_duplicate_section_that_cannot_be_played_is_named_by_check_config(tmp_path: Path, lines: str,
                                                                            words: str) -> None:
    (tmp_path / "adir").mkdir()
    assert _cli("boards", "new", "--count", "2", "--out", "b.pbn", cwd=tmp_path).returncode == 0
    (tmp_path / "t.toml").write_text(f'[table]\ngame = "duplicate-bridge"\n[duplicate]\n{lines}\n')
    _refused(_cli("check-config", "--config", "t.toml", "--no-devices", cwd=tmp_path), "t.toml", words)


def test_the_demo_refuses_more_boards_than_a_set_has_at_once(tmp_path: Path) -> None:
    run = _cli("duplicate", "demo", "--tables", "3", "--boards", "99999999", "--movement", "barometer",
               "--out", "d", cwd=tmp_path)
    _refused(run, "--boards", "999")
    assert not (tmp_path / "d").exists()


def test_the_demos_table_configurations_find_their_hand_records_when_out_is_relative() -> None:
    """``--out d`` (relative) wrote each table a configuration whose records path was relative to the
    table's own folder: every table refused to start and the half-written folder blocked the next run."""
    import tempfile

    from firmware_host.evening.duplicate_evening import DuplicateDemo
    with tempfile.TemporaryDirectory() as tmp:
        here = os.getcwd()
        os.chdir(tmp)
        try:
            demo = DuplicateDemo("d", 3, 6, "mitchell", seed=1)
            assert demo.out.is_absolute() and demo.out == Path(tmp).resolve() / "d"
        finally:
            os.chdir(here)


@pytest.mark.parametrize("argv, said", [
    (["new", "--count", "20", "--first", "990", "--out", "hi.dup"], "board 1009 cannot be written: a DUP file"),
    (["new", "--count", "3", "--first", "999999999", "--out", "hi.pbn"], "board 1000000001 cannot be written"),
    (["convert", "in.bri", "hi.dup", "--first", "1000"], "hi.dup: board 1019 cannot be written: a DUP file"),
])
def test_a_file_is_never_written_with_a_board_number_its_format_cannot_hold(tmp_path: Path, argv: list[str],
                                                                             said: str) -> None:
    """docs/handrecords.md: a DUP's duplication control has three digits, a PBN [Board] at most nine. ``boards
    new --first 990 --count 20`` wrote a DUP whose control overflowed (exit 0), which ``boards check`` then
    refused; the same for ``convert --first 1000`` and a PBN board of ten digits."""
    assert _cli("boards", "new", "--count", "20", "--out", "in.bri", cwd=tmp_path).returncode == 0
    _refused(_cli("boards", *argv, cwd=tmp_path), said)
    assert not (tmp_path / "hi.dup").exists() and not (tmp_path / "hi.pbn").exists()


def _closed_stdout(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real program writing to a pipe whose reader has gone (``cardtable ... | head`` once head ended)."""
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run([sys.executable, "-m", "firmware_host.cli", *argv], cwd=cwd, stdout=w,
                              stderr=subprocess.PIPE, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    finally:
        os.close(w)


def test_a_closed_output_ends_the_command_quietly(tmp_path: Path) -> None:
    """Audit 18: ``duplicate open ... | head`` said '[Errno 32] Broken pipe' and exit 2 though the session
    was made; ``boards check ... | head`` printed the same line."""
    made = _cli("boards", "new", "--count", "120", "--out", "b.pbn", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    run = _closed_stdout("boards", "check", "b.pbn", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (0, "")
    run = _closed_stdout("duplicate", "open", "--dir", "s", "--hand-records", "b.pbn", "--boards-per-round", "3",
                         "--pairs", "9", "--movement", "mitchell", "--name", "T", cwd=tmp_path)
    assert (run.returncode, run.stderr) == (0, "")
    shown = _cli("duplicate", "show", "--session", "s", cwd=tmp_path)     # the session stands
    assert shown.returncode == 0 and "round 1 of 5 called" in shown.stdout, shown.stderr
    # a bad file still says so, with the output closed
    (tmp_path / "z.pbn").write_text(f'[Board "0"]\n[Deal "{DEAL}"]\n')
    _refused(_closed_stdout("boards", "check", "z.pbn", cwd=tmp_path), "z.pbn", "not a board number")


def test_a_broken_pipe_that_is_not_the_output_is_still_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.commands.guard import guarded

    def run(args: object) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    assert guarded(lambda args: "cardtable x")(run)(None) == 2
    assert capsys.readouterr().err == "cardtable x: [Errno 32] Broken pipe\n"
