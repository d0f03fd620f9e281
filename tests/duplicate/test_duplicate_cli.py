"""``cardtable duplicate open|show|export|demo``: a session made from a movement and hand records, shown
and exported; bad input gets one line naming what and where, exit status 2, no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.session.duplicate_session import Session
from laws.duplicate.movement import mitchell, to_asc

from .sessionkit import all_results, make_setup


@pytest.fixture
def records(tmp_path: Path) -> Path:
    setup = make_setup({"kind": "mitchell", "tables": 4, "boards_per_round": 2})
    path = tmp_path / "tonight.pbn"
    write_hand_records(path, setup.boards)
    return path


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_open_show_and_export_a_session(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(records),
                         "--pairs", "8", "--movement", "mitchell", "--boards-per-round", "2", "--date", "2025-11-30",
                         "--name", "Monday pairs", "--club", "Our club"], capsys)
    assert rc == 0, err
    assert "Mitchell, 4 tables (skip): 8 pairs" in out and "commitment " in out
    assert "table-03: table 3, page /duplicate/table/table-03?key=" in out
    session = Session.open(tmp_path / "s", analyse=False)
    assert session.setup.name == "Monday pairs" and len(session.setup.boards) == 8
    session.submit(all_results(session.setup)[:4])
    session.close()
    rc, out, err = _run(["duplicate", "show", "--session", str(tmp_path / "s")], capsys)
    assert rc == 0 and "round 1 of 3 called" in out and "Field NS" in out
    rc, out, err = _run(["duplicate", "export", "--session", str(tmp_path / "s"), "--format", "usebio", "--out",
                         str(tmp_path / "r.xml")], capsys)
    assert rc == 0, err
    assert (tmp_path / "r.xml").read_bytes().startswith(b"<?xml")


def test_open_prints_a_dashboard_command_that_names_what_the_dashboard_cannot_start_without(
        tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It said `run it with: cardtable club dashboard ... --session DIR`: the dots hid the two options the
    dashboard refuses to start without (its users file and its broker password). The command printed, with
    its two placeholders filled, is one the dashboard's own parser takes."""
    from firmware_host.cli import build_parser

    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(records),
                         "--pairs", "8", "--movement", "mitchell", "--boards-per-round", "2"], capsys)
    assert rc == 0, err
    said = re.search(r"run it live with: (cardtable club dashboard [^(]*?) \(", out)
    assert said, out
    argv = said.group(1).replace("USERS", "u.txt").replace("FILE", "pw.txt").split()[1:]
    args = build_parser().parse_args(argv)
    assert (args.users, args.mqtt_password_file, args.session) == ("u.txt", "pw.txt", str(tmp_path / "s"))
    assert "--broker-host" in out and "cardtable club adduser" in out


@pytest.mark.parametrize(("extra", "words"), [
    (["--movement", "howell", "--tables", "4", "--pairs", "9"], "Howell, 4 tables seats 8 pairs (8 seats at 4 tables), not 9"),
    (["--movement", "mitchell", "--pairs", "20"], "plays boards 1-20 but the hand records have no boards 9-20"),
    (["--pairs", "8"], "give either --movement or --asc"),
    # --tables was silently ignored by a Mitchell (its tables follow from --pairs) and by an .ASC file
    (["--movement", "mitchell", "--pairs", "9", "--tables", "4"],
     "--tables 4: a Mitchell's tables follow from --pairs (9 pairs: 5 tables); leave --tables out"),
    (["--asc", "m.asc", "--pairs", "6", "--tables", "3"], "--tables 3: the movement file gives the tables"),
])
def test_open_refuses_what_cannot_be_played(tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str],
                                            extra: list[str], words: str) -> None:
    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(records),
                         "--boards-per-round", "2", *extra], capsys)
    assert rc == 2 and words in err and "Traceback" not in err, err
    assert not (tmp_path / "s").exists()


def test_open_of_a_file_numbered_from_another_board_says_which_boards_it_holds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A real BridgeComposer set is boards 16-30, a Duplimate half set 17-32: refused as having "no boards
    1-8" of an 8-board file, the director could not tell it from a file short of boards."""
    from laws.duplicate.deal import Board

    setup = make_setup({"kind": "mitchell", "tables": 4, "boards_per_round": 2})
    path = tmp_path / "second-half.pbn"
    write_hand_records(path, [Board.numbered(b.number + 16, b.deal) for b in setup.boards])
    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(path),
                         "--pairs", "8", "--movement", "mitchell", "--boards-per-round", "2"], capsys)
    assert rc == 2 and "Traceback" not in err, err
    assert err.strip().endswith("plays boards 1-8 but the hand records have no boards 1-8: their boards are 17-24 "
                                "(the boards played are numbered from 1)"), err
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("movement", [["--movement", "mitchell", "--pairs", "8"],
                                      ["--movement", "howell", "--tables", "4", "--pairs", "8"],
                                      ["--movement", "barometer", "--tables", "4", "--pairs", "8"]])
@pytest.mark.parametrize("boards", ["99999999999999999999", "1000"])
def test_open_refuses_more_boards_a_round_than_a_set_holds(tmp_path: Path, records: Path,
                                                           capsys: pytest.CaptureFixture[str],
                                                           movement: list[str], boards: str) -> None:
    """``--boards-per-round 99999999999999999999`` printed OverflowError's traceback (exit 1) from the
    board groups' range; a large one asked for millions of board numbers."""
    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(records),
                         "--boards-per-round", boards, *movement], capsys)
    assert rc == 2 and "a set of boards is at most 999" in err and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1 and not (tmp_path / "s").exists()


def test_the_documents_show_the_movement_is_required() -> None:
    """``open`` without ``--movement`` or ``--asc`` exits 2 (above); the README showed both as optional
    (``[--movement ... | --asc FILE]``) and docs/session.md read as if a Mitchell were the default."""
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text(encoding="utf-8")
    row = next(ln for ln in readme.splitlines() if "`cardtable duplicate open --dir" in ln)
    assert "(--movement mitchell\\|howell\\|barometer \\| --asc FILE)" in row and "[--movement" not in row, row
    doc = (root / "docs" / "session.md").read_text(encoding="utf-8")
    assert "there is no default" in doc and "| `give either --movement or --asc` |" in doc


def test_open_refuses_an_asc_with_a_pair_twice_in_a_round_naming_the_line(
        tmp_path: Path, records: Path, capsys: pytest.CaptureFixture[str]) -> None:
    asc = tmp_path / "m.asc"
    asc.write_text(to_asc(mitchell(3, 2)).replace("2- 5 B", "2- 4 B").replace("2-5 B", "2-4 B"))
    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(records),
                         "--boards-per-round", "2", "--pairs", "6", "--asc", str(asc)], capsys)
    assert rc == 2 and "m.asc: line 3: pair 4 is at tables 1 and 2 in round 1" in err, err


def test_export_without_a_session_and_a_demo_that_cannot_share_its_boards_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rc, _out, err = _run(["duplicate", "export", "--session", str(tmp_path / "none"), "--format", "pbn", "--out",
                          str(tmp_path / "r.pbn")], capsys)
    assert rc == 2 and "no session here" in err
    rc, _out, err = _run(["duplicate", "demo", "--tables", "8", "--boards", "25", "--out", str(tmp_path / "d")], capsys)
    assert rc == 2 and "25 boards do not share equally among the 8 board groups" in err
    rc, _out, err = _run(["duplicate", "demo", "--tables", "2", "--boards", "6", "--movement", "howell", "--out",
                          str(tmp_path / "d")], capsys)
    assert rc == 2 and "Howell movements here have 3 to 8 tables, not 2" in err


@pytest.mark.parametrize("where", ["--out", "--site"])
def test_export_checks_its_file_or_folder_before_the_session_is_read(tmp_path: Path, where: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """docs/session.md: an existing --out (or a --site holding the site's files) is refused before the session
    is read. It was read first, so a wrong --session (or a journal that does not verify) was reported instead,
    and a good one was analysed before the refusal."""
    target = tmp_path / ("results.pbn" if where == "--out" else "web")
    if where == "--out":
        target.write_bytes(b"last week's")
        argv = ["--format", "pbn", "--out", str(target)]
        says = f"{target}: already exists; not replaced (--force replaces it)"
    else:
        target.mkdir()
        (target / "ranking.html").write_text("last week's")
        argv = ["--site", str(target)]
        says = f"{target}: already holds ranking.html; not replaced (--force replaces them)"
    rc, _out, err = _run(["duplicate", "export", "--session", str(tmp_path / "no-session-here"), *argv], capsys)
    assert rc == 2 and err.strip() == f"cardtable duplicate export: {says}", err


def test_export_refuses_to_replace_a_file_without_force(tmp_path: Path, records: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """On main the second export replaced results.pbn silently (issue 29, item 4)."""
    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2})
    Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL").close()
    out = tmp_path / "results.pbn"
    out.write_bytes(b"the club's file of last week")
    argv = ["duplicate", "export", "--session", str(tmp_path / "s"), "--format", "html", "--out", str(out)]
    rc, _out, err = _run(argv, capsys)
    assert rc == 2 and err.strip() == f"cardtable duplicate export: {out}: already exists; not replaced " \
                                      "(--force replaces it)", err
    assert out.read_bytes() == b"the club's file of last week"
    rc, _out, err = _run([*argv, "--force"], capsys)
    assert rc == 0, err
    assert out.read_bytes().startswith(b"<!doctype html>")


def test_show_lists_lines_taken_off_and_conflicts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import random

    from firmware_host.duplicate import forms

    from .sessionkit import result

    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2})
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    s.take(forms.enter({"key": "1 1 1", "contract": "4s", "declarer": "S", "tricks": 10}, "td", s.state))
    for board in (1, 2):
        assert s.take(result(setup, 1, 1, board, random.Random(board))).taken
    assert s.take({"type": "cancel", "key": "2/1 NS/1 EW", "by": "td", "then": "director"}).taken
    s.close()
    rc, out, err = _run(["duplicate", "show", "--session", str(tmp_path / "s")], capsys)
    assert rc == 0, err
    assert "  table 1: round 1, 1 NS (A1 NS & B1 NS) v 1 EW (A1 EW & B1 EW), finished\n" \
           "    taken off, for the director to score: board 2\n" in out
    assert "two results for line 1/1 NS/1 EW: entered by hand, and the table's own" in out


@pytest.fixture
def five_tables(tmp_path: Path) -> Path:
    setup = make_setup({"kind": "mitchell", "tables": 5, "boards_per_round": 3})
    path = tmp_path / "mitchell.pbn"
    write_hand_records(path, setup.boards)
    return path


def test_open_a_mitchell_with_an_arrow_switch_and_score_it_as_one_field(
        tmp_path: Path, five_tables: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The audit's command (club night 65) was refused, ``unrecognized arguments: --arrow-switch 5``: a
    pairs session had no way to switch arrows, though the results files and docs/movements.md describe
    one. Opened with it, round 5 seats each East-West pair North-South, and the session ranks one field."""
    from firmware_host.duplicate.results.export import export
    from tests.duplicate.sessionkit import rounds_called

    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "asw"), "--hand-records", str(five_tables),
                         "--pairs", "10", "--movement", "mitchell", "--boards-per-round", "3",
                         "--arrow-switch", "5"], capsys)
    assert rc == 0, err
    assert "Mitchell, 5 tables, arrow switch in round 5: 10 pairs" in out and "fields: one field" in out
    assert "    5 2-1 13-15  3-2 1-3" in out and "(arrow switch)" in out
    session = Session.open(tmp_path / "asw", analyse=False)
    try:
        assert session.setup.movement["arrow_switch_rounds"] == [5]
        s = session.state.movement.at(5, 1)
        assert s is not None and (str(s.ns), str(s.ew)) == ("2 EW", "1 NS")
        results = all_results(session.setup)
        assert all(o.taken for o in session.submit(rounds_called(session.setup) + results)), \
            [o.why for o in session.submit([])]
        scored = session.scored()
        assert {r.field for r in scored.rankings} == {"one field"}
        assert len(scored.rankings) == 1 and len(scored.rankings[0].standings) == 10
        pbn = export(session, "pbn", analysis_timeout=0).decode("utf-8")
    finally:
        session.close()
    assert re.search(r"^ 1  5  2EW  1NS ", pbn, re.M), "table 1, round 5: 2 EW sat North-South against 1 NS"
    rc, out, err = _run(["duplicate", "show", "--session", str(tmp_path / "asw")], capsys)
    assert rc == 0 and "Field NS" not in out and "one field" in out, out


@pytest.mark.parametrize(("extra", "words"), [
    (["--movement", "mitchell", "--pairs", "10", "--arrow-switch", "6"],
     "--arrow-switch 6: arrow switch rounds [6] are not all among rounds 1-5"),
    (["--movement", "mitchell", "--pairs", "10", "--arrow-switch", "0"],
     "--arrow-switch 0: arrow switch rounds [0] are not all among rounds 1-5"),
    (["--movement", "mitchell", "--pairs", "10", "--arrow-switch", "5x"],
     "--arrow-switch '5x': the rounds to switch are whole numbers joined by '+' (5, or 6+7)"),
    (["--movement", "mitchell", "--pairs", "10", "--arrow-switch", "4,5"],
     "--arrow-switch '4,5': the rounds to switch are whole numbers joined by '+' (5, or 6+7)"),
    (["--movement", "howell", "--tables", "5", "--pairs", "10", "--arrow-switch", "5"],
     "--arrow-switch 5: only a Mitchell's pairs switch arrows (a Howell's pairs sit both ways already)"),
    (["--movement", "barometer", "--tables", "5", "--pairs", "10", "--arrow-switch", "5"],
     "--arrow-switch 5: only a Mitchell's pairs switch arrows (not offered for a barometer"),
    (["--asc", "m.asc", "--pairs", "10", "--arrow-switch", "5"],
     "--arrow-switch 5: only a Mitchell's pairs switch arrows (not offered for an .ASC movement)"),
])
def test_open_refuses_an_arrow_switch_it_cannot_make(tmp_path: Path, five_tables: Path,
                                                     capsys: pytest.CaptureFixture[str], extra: list[str],
                                                     words: str) -> None:
    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(five_tables),
                         "--boards-per-round", "3", *extra], capsys)
    assert rc == 2 and words in err and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("extra", [["--movement", "howell", "--tables", "5", "--pairs", "10"],
                                   ["--movement", "barometer", "--tables", "5", "--pairs", "10"],
                                   ["--asc", "m.asc", "--pairs", "10"]])
@pytest.mark.parametrize("even", ["relay", "skip"])
def test_open_refuses_even_for_a_movement_that_is_not_a_mitchell(tmp_path: Path, five_tables: Path,
                                                                 capsys: pytest.CaptureFixture[str],
                                                                 extra: list[str], even: str) -> None:
    """``--movement howell --even relay`` opened the session (exit 0), the relay asked for nowhere in it:
    the option was taken and left unused without a word, as ``--arrow-switch`` was before."""
    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(five_tables),
                         "--boards-per-round", "3", *extra, "--even", even], capsys)
    assert rc == 2 and len(err.splitlines()) == 1, err
    assert err.strip() == (f"cardtable duplicate open: --even {even}: only a Mitchell goes round by a skip or a "
                           "relay; leave --even out"), err
    assert not (tmp_path / "s").exists()


def test_show_says_how_many_refusals_it_leaves_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``duplicate show`` printed the latest 10 refusals and did not say that 2 more were in the journal."""
    s = Session.create(tmp_path / "s", make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2}),
                       analyse=False, synchronous="NORMAL")
    for n in range(12):
        assert s.take({"type": "round", "round": 40 + n, "by": "td"}).status == "refused"
    s.close()
    rc, out, err = _run(["duplicate", "show", "--session", str(tmp_path / "s")], capsys)
    assert rc == 0, err
    assert "  refusals: the latest 10 of 12 (2 earlier not shown: the director's page lists the latest 200, " \
           "the session's journal every one)\n" in out
    assert out.count("  refused: ") == 10 and "round 42 " in out and "round 41 " not in out


def test_open_prints_the_sessions_commitment_and_the_files_and_a_table_takes_a_pin_of_either(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Audit 70, F1, then one rule for both commitments: the session commits to the boards its movement
    plays, and a club's file often holds more (32 or 36, 24 or 27 played). ``open`` prints both, each
    labelled with the command that checks it, and a table may pin either: the seating carries the file's
    commitment and the index entries of the boards not played, so a table pinned to the file's (which
    ``boards commit`` prints, and which refused every record before) takes the records, saying so."""
    from firmware_host.duplicate.handrecords.handfiles import new_boards
    from firmware_host.session.duplicate_session import SessionDesk
    from firmware_host.table.session_records import check_records
    from firmware_host.wire.topics import TOPICS
    from laws.duplicate.deal import commitment

    played = make_setup({"kind": "mitchell", "tables": 4, "boards_per_round": 2}).boards   # boards 1-8
    extra = [b for b in new_boards(4, 9) if b.fingerprint not in {p.fingerprint for p in played}]
    path = tmp_path / "set.pbn"
    write_hand_records(path, [*played, *extra])
    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(path), "--pairs", "8",
                         "--movement", "mitchell", "--boards-per-round", "2"], capsys)
    assert rc == 0, err
    session, whole, n = commitment(played), commitment([*played, *extra]), 8 + len(extra)
    assert (f"hand records: 8 of the {n} boards of {path} are played (boards 1-8)\n"
            f"session commitment {session} (the boards played; check it with: cardtable boards verify {path} "
            f"--boards 1-8 --commitment {session})\n"
            f"file commitment {whole} (all {n} boards of the file, as 'cardtable boards commit' prints it; check "
            f"it with: cardtable boards verify {path} --commitment {whole})\n"
            "publish either before play, saying which it is: a table's [duplicate] commitment may pin either, and "
            "the table checks its records against the one it pins\n") in out
    opened = Session.open(tmp_path / "s", analyse=False, readonly=True)
    assert opened.state.commitment == session      # what the round message names and the journal keeps
    assert opened.setup.to_dict()["file"]["commitment"] == whole
    seating = dict(SessionDesk(opened).messages())[TOPICS.seating("table-02")]
    opened.close()
    for pin, matched in ((session, "session"), (whole, "file")):
        v = check_records(seating["hand_records"], pin, configured=True)
        assert (sorted(v.taken), v.refused, v.matched) == ([3, 4], (), matched), v.said()
    assert _run(["boards", "commit", str(path)], capsys)[1] == f"{whole}\n"
    assert _run(["boards", "commit", str(path), "--boards", "1-8"], capsys)[1] == f"{session}\n"
    rc, out, _ = _run(["boards", "verify", str(path), "--boards", "1-8", "--commitment", session], capsys)
    assert (rc, out) == (0, f"boards 1-8 of {path}: matches the commitment (8 boards)\n")
    assert _run(["boards", "verify", str(path), "--commitment", whole], capsys)[0] == 0
    rc, out, _ = _run(["boards", "verify", str(path), "--commitment", session], capsys)
    assert rc == 1 and "name them with --boards" in out
    rc, _, err = _run(["boards", "verify", str(path), "--boards", "1-20", "--commitment", session], capsys)
    assert (rc, err) == (2, f"cardtable boards: --boards 1-20: {path} has no boards {n + 1}-20\n")
    rc, _, err = _run(["boards", "verify", str(path), "--boards", "1-x", "--commitment", session], capsys)
    assert rc == 2 and err.startswith("cardtable boards: --boards '1-x': '1-x' is not a board number")


def test_open_prints_one_commitment_when_every_board_is_played(tmp_path: Path, records: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.duplicate.handrecords.handfiles import read_hand_records
    from laws.duplicate.deal import commitment

    rc, out, err = _run(["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", str(records),
                         "--pairs", "8", "--movement", "mitchell", "--boards-per-round", "2"], capsys)
    assert rc == 0, err
    assert (f"\nhand records: 8 boards, commitment {commitment(read_hand_records(records))} (publish it before "
            "play; the session's and the file's: every board of the file is played)\n") in out
