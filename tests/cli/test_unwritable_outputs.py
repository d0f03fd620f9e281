"""Commands given an output path they cannot write (a path under a file, a file where a folder is
wanted, a folder that cannot be made): one line naming the path, exit 2, no traceback (the house rule
for bad input, README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main


def _refused(capsys: pytest.CaptureFixture[str], argv: list[str], names: Path) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    assert str(names) in err, err
    return err


def test_config_init_under_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``config init FILE/table.toml`` printed NotADirectoryError's traceback (exit 1): the clean-up of
    the template it never wrote failed too."""
    (tmp_path / "notes.txt").write_text("x\n")
    target = tmp_path / "notes.txt" / "table.toml"
    err = _refused(capsys, ["config", "init", str(target)], target)
    assert err.startswith("cardtable config init: cannot write ")


@pytest.mark.parametrize("where", ["file", "under-file"])
def test_demo_out_that_cannot_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    """``demo --out`` naming a file, or a path under one, printed FileExistsError's or
    NotADirectoryError's traceback (exit 1) from the folder's mkdir."""
    (tmp_path / "notes.txt").write_text("x\n")
    out = tmp_path / "notes.txt" if where == "file" else tmp_path / "notes.txt" / "demo"
    err = _refused(capsys, ["demo", "--quick", "--out", str(out)], out)
    assert err.startswith(f"cardtable demo: --out {out}: cannot be the demo's folder (")
    assert (tmp_path / "notes.txt").read_text() == "x\n"


@pytest.mark.parametrize(("line", "made"), [
    (["euchre", "open", "--players", "{P}", "--format", "progressive", "--rounds", "2", "--dir", "{W}"],
     "session.sqlite3"),
    (["duplicate", "open", "--hand-records", "{B}", "--pairs", "8", "--movement", "mitchell",
      "--boards-per-round", "3", "--dir", "{W}"], "session.sqlite3"),
    (["euchre", "demo", "--tables", "1", "--rounds", "1", "--out", "{W}"], "night/session.sqlite3"),
])
def test_a_session_folder_under_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str], line: list[str],
                                       made: str) -> None:
    """A session's folder under a file: ``euchre open`` and ``euchre demo`` printed NotADirectoryError's
    traceback (exit 1) and ``duplicate open`` an errno's words naming a ``.part`` file the user never
    named: removing the half-made journal failed again outside the except. Now the folder is named,
    exit 2."""
    (tmp_path / "notes.txt").write_text("x\n")
    players = tmp_path / "players.txt"
    players.write_text("".join(f"Player {k}\n" for k in range(1, 9)))
    boards = tmp_path / "boards.pbn"
    assert main(["boards", "new", "--count", "12", "--out", str(boards)]) == 0
    capsys.readouterr()
    where = tmp_path / "notes.txt" / "night"
    argv = [a.replace("{W}", str(where)).replace("{P}", str(players)).replace("{B}", str(boards)) for a in line]
    folder = (where / made).parent
    err = _refused(capsys, argv, folder)
    assert f"{folder}: cannot be the session's folder (it lies under a file)" in err


@pytest.mark.parametrize("where", ["file", "under-file"])
def test_club_certs_dir_that_cannot_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                where: str) -> None:
    """``club certs --dir`` naming a file or a path under one printed FileExistsError's or
    NotADirectoryError's traceback (exit 1)."""
    (tmp_path / "notes.txt").write_text("x\n")
    d = tmp_path / "notes.txt" if where == "file" else tmp_path / "notes.txt" / "certs"
    err = _refused(capsys, ["club", "certs", "--dir", str(d), "--host", "club.local"], d)
    assert err.startswith(f"club certs: --dir {d}: cannot write the certificates there (")


def test_club_certs_without_a_host_makes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``club certs`` without ``--host`` was refused (exit 2) only after it had made the club's CA."""
    d = tmp_path / "certs"
    assert main(["club", "certs", "--dir", str(d)]) == 2
    assert "name at least one host name" in capsys.readouterr().err
    assert not d.exists()


@pytest.mark.parametrize("where", ["under-file", "password-is-a-folder", "password-not-text"])
def test_club_broker_dir_that_cannot_hold_the_passwords(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        where: str) -> None:
    """``club broker --dir`` under a file, or a table's password file that is a folder or not UTF-8,
    printed NotADirectoryError's, IsADirectoryError's or UnicodeDecodeError's traceback (exit 1)."""
    (tmp_path / "notes.txt").write_text("x\n")
    d = tmp_path / "notes.txt" / "broker" if where == "under-file" else tmp_path / "broker"
    bad = d / "passwords"
    if where != "under-file":
        bad = d / "passwords" / "table-01.password"
        if where == "password-is-a-folder":
            bad.mkdir(parents=True)
        else:
            bad.parent.mkdir(parents=True)
            bad.write_bytes(b"\xff\xfe secret\n")
    err = _refused(capsys, ["club", "broker", "--dir", str(d), "--tables", "2"], bad)
    assert err.startswith(f"club broker: {bad}: cannot be used (")


@pytest.mark.parametrize("tables", ["-1", "0", "501", "99999999999"])
def test_club_broker_refuses_a_number_of_tables_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                            tables: str) -> None:
    """``club broker --tables 99999999999`` wrote password files without end (a hang); ``--tables -1``
    was told to name the tables, as if none were given, and so was ``--tables 0`` (p6: docs/mqtt.md says 1
    to 500, and the line did not name the number)."""
    assert main(["club", "broker", "--dir", str(tmp_path / "b"), "--tables", tables]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"club broker: --tables {tables}: 1 to 500 tables") and not (tmp_path / "b").exists()


needs_proc = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="no /proc: a path no one can create")


@needs_proc
def test_boards_deal_refuses_a_report_it_cannot_write_before_the_first_board(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``boards deal --report /proc/x`` dealt every board, then put the report on standard error and
    exited 0: the folder's permissions say yes to root, so the report's file is now tried at the start."""
    boards = tmp_path / "b.pbn"
    assert main(["boards", "new", "--count", "2", "--out", str(boards)]) == 0
    capsys.readouterr()
    journal = tmp_path / "j.sqlite3"
    err = _refused(capsys, ["boards", "deal", "--records", str(boards), "--shoe", "virtual", "--auto",
                            "--journal", str(journal), "--report", "/proc/x"], Path("/proc/x"))
    assert "--report /proc/x: cannot be written (" in err and not journal.exists()


@needs_proc
def test_duplicate_export_refuses_an_out_it_cannot_write_before_the_session_is_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``duplicate export --out /proc/x`` read the session and analysed every board (16 s) before it
    found it could not write; the file is now tried first (here the session is not even there)."""
    err = _refused(capsys, ["duplicate", "export", "--session", str(tmp_path / "none"), "--format", "pbn",
                            "--out", "/proc/x"], Path("/proc/x"))
    assert err.strip() == "cardtable duplicate export: --out /proc/x: cannot be written (No such file or directory)"


def test_trying_an_output_leaves_no_file_behind(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The file an export is to write is tried by making it; a refusal after that leaves nothing."""
    out = tmp_path / "r.pbn"
    assert main(["duplicate", "export", "--session", str(tmp_path / "none"), "--format", "pbn",
                 "--out", str(out)]) == 2
    assert "no session here" in capsys.readouterr().err and not out.exists()


@pytest.mark.parametrize("duplicate", [False, True])
@pytest.mark.parametrize("where", ["file", "under-file"])
def test_soak_workdir_that_cannot_be_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str,
                                              duplicate: bool) -> None:
    """``soak --workdir table.toml`` printed NotADirectoryError's traceback (exit 1) from its first table,
    once the shoe had started; the folder is now made (or refused) before anything starts."""
    (tmp_path / "notes.txt").write_text("x\n")
    out = tmp_path / "notes.txt" if where == "file" else tmp_path / "notes.txt" / "soak"
    err = _refused(capsys, ["soak", *(["--duplicate"] if duplicate else []), "--workdir", str(out)], out)
    assert err.startswith(f"cardtable soak: --workdir {out}: ")
    assert (tmp_path / "notes.txt").read_text() == "x\n"


@pytest.mark.parametrize("name", ["Table\n3", "", "x" * 61, "Tab\x00le"])
def test_config_init_refuses_a_name_naming_the_option(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      name: str) -> None:
    """``config init t.toml --name $'Table\\n3'`` said "cannot write t.toml: t.toml.new: TOML syntax error:
    Illegal character '\\n'": a file the user never named, and not the option; 61 characters were
    "t.toml.new: table.name: ...". One line naming --name, exit 2, nothing written."""
    target = tmp_path / "t.toml"
    assert main(["config", "init", str(target), "--name", name]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardtable config init: --name {name[:40]!r}: a table's name is 1 to 60 printable"), err
    assert len(err.strip().splitlines()) == 1 and list(tmp_path.iterdir()) == []


def test_run_names_a_data_dir_it_cannot_make(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``run --data-dir /proc/dd`` said "cardtable: [Errno 2] No such file or directory: '/proc/dd'", and a
    data_dir under a file "[Errno 20] Not a directory": neither named the key or the option."""
    (tmp_path / "notes.txt").write_text("x\n")
    config = tmp_path / "table.toml"
    config.write_text('[shoe]\nport = "loop://"\n[camera]\nsource = "none"\n[pins]\nfactory = "mock"\n')
    data = tmp_path / "notes.txt" / "data"
    assert main(["run", "--config", str(config), "--no-display", "--data-dir", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardtable: table.data_dir {data}: cannot be made a folder for the journal ("), err
    assert len(err.strip().splitlines()) == 1 and (tmp_path / "notes.txt").read_text() == "x\n"


def test_run_refuses_a_data_dir_that_holds_a_club_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``run --data-dir SESSION`` (the club's session folder named by mistake) started the table and made
    its journal.sqlite3 beside the session's session.sqlite3: one folder of two kinds."""
    config = tmp_path / "table.toml"
    config.write_text('[shoe]\nport = "loop://"\n[camera]\nsource = "none"\n[pins]\nfactory = "mock"\n')
    session = tmp_path / "2026-12-02"
    session.mkdir()
    (session / "session.sqlite3").write_bytes(b"")
    assert main(["run", "--config", str(config), "--no-display", "--data-dir", str(session)]) == 2
    err = capsys.readouterr().err
    assert err == (f"cardtable: table.data_dir {session}: the folder holds a club's session (session.sqlite3), "
                   "not a table's journal; give the table a folder of its own\n")
    assert sorted(p.name for p in session.iterdir()) == ["session.sqlite3"]


@pytest.mark.parametrize("what", [[], ["--bidding", "--seats", "N"], ["--members", "ROSTER"]])
@pytest.mark.parametrize("where", ["under-file", "a-folder.pdf"])
def test_labels_out_that_cannot_be_written(tmp_path: Path, capsys: pytest.CaptureFixture[str], what: list[str],
                                           where: str) -> None:
    """p1: ``labels --out notes.txt/b7`` said "[Errno 17] File exists: '.../notes.txt'", errno's words and
    not the option or the path given (with --members, put after the roster's name as if the roster were
    wrong); the same for an --out FILE.pdf that is a folder."""
    (tmp_path / "notes.txt").write_text("x\n")
    (tmp_path / "a-folder.pdf").mkdir()
    roster = tmp_path / "roster.csv"
    roster.write_text("1021,Ann Example\n")
    out = tmp_path / "notes.txt" / "b7" if where == "under-file" else tmp_path / where
    argv = ["labels", *[str(roster) if a == "ROSTER" else a for a in what], "--out", str(out)]
    err = _refused(capsys, argv, out)
    assert err.startswith(f"cardtable labels: --out {out}: cannot write the sheet there ("), err


@pytest.mark.parametrize("what", [[], ["--bidding", "--seats", "N"], ["--members", "ROSTER"]])
def test_labels_out_in_a_missing_folder_is_refused_as_export_refuses_it(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str],
                                                                        what: list[str]) -> None:
    """``labels --out missing/dir/b7`` made the folders, with their parents, where ``export --out`` and the
    other commands refuse a missing folder ("the folder ... does not exist"): a slip of the pen left the
    sheet in a folder nobody looked in. No document says ``labels`` makes folders; it refuses, making none."""
    roster = tmp_path / "roster.csv"
    roster.write_text("1021,Ann Example\n")
    out = tmp_path / "missing" / "dir" / "b7"
    argv = ["labels", *[str(roster) if a == "ROSTER" else a for a in what], "--out", str(out)]
    err = _refused(capsys, argv, out)
    assert err == f"cardtable labels: --out {out}: the folder {out.parent} does not exist\n"
    assert not (tmp_path / "missing").exists()
