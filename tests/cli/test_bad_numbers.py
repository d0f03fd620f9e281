"""Numbers out of range on the command line: refused before anything starts, one line naming the
option, exit 2 (the house rule for bad input, README), never a traceback from deeper down."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from firmware_host.cli import main


def _usage_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("value", ["-1", "70000", "http"])
@pytest.mark.parametrize("line", [
    ["euchre", "serve", "--session", "night", "--password-file", "pw", "--port", "{V}"],
    ["euchre", "serve", "--session", "night", "--password-file", "pw", "--broker-port", "{V}"],
    ["club", "demo", "--tables", "1", "--port", "{V}"],
    ["club", "broker", "--tables", "2", "--port", "{V}"],
    ["club", "dashboard", "--mqtt-password-file", "pw", "--users", "u", "--port", "{V}"],
    ["club", "dashboard", "--mqtt-password-file", "pw", "--users", "u", "--broker-port", "{V}"],
    ["broadcast", "live", "--session", "s", "--spectator-password-file", "pw", "--port", "{V}"],
])
def test_a_port_out_of_range_is_refused_naming_the_option(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         line: list[str], value: str) -> None:
    """``euchre serve --port 70000`` printed OverflowError's traceback ("bind(): port must be 0-65535"),
    ``club demo --port -1`` a traceback after "the dashboard did not start", ``club broker --port -1``
    mosquitto's own five lines and exit 1."""
    argv = [a.replace("{V}", value) for a in line]
    option = argv[argv.index(value) - 1]
    err = _usage_error(capsys, argv)
    assert f"argument {option}: a port is " in err and repr(value) in err


@pytest.mark.parametrize(("option", "value"), [
    ("--rate", "0"), ("--rate", "-1"), ("--rate", "nan"), ("--rate", "inf"),
    ("--duration", "-1"), ("--duration", "nan"),
])
def test_club_demo_refuses_a_rate_or_duration_that_makes_no_sense(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path, option: str, value: str) -> None:
    """``club demo --rate 0`` printed ZeroDivisionError's traceback from a table's thread and ran on
    (exit 0); a negative, NaN or infinite rate and a negative duration (for ever) were taken."""
    assert main(["club", "demo", "--tables", "1", "--dir", str(tmp_path / "d"), option, value]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"club demo: {option} ") and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "d").exists()   # refused before the broker or any table started


@pytest.mark.parametrize(("tables", "boards"), [("31", "3"), ("99999999999", "3"), ("4", "1000")])
def test_soak_duplicate_refuses_a_mitchell_it_cannot_build(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          tables: str, boards: str) -> None:
    """``soak --duplicate --tables 99999999999`` printed SetupError's traceback (exit 1) once the
    evening had begun; the Mitchell's limits are now checked first."""
    work = tmp_path / "w"
    assert main(["soak", "--duplicate", "--tables", tables, "--boards", boards, "--workdir", str(work)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"cardtable soak: --tables {tables} --boards {boards}: ") and "Traceback" not in err, err
    assert len(err.strip().splitlines()) == 1 and not work.exists()


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--rounds", "100", "rounds is a whole number 1 to 99, got 100"),
    ("--rounds", "99999999999999999999", "rounds is a whole number 1 to 99"),
    ("--tables", "99999999999999999999", "--tables 99999999999999999999: 1 to 500 club tables"),
    ("--tables", "-1", "--tables -1: 1 to 500 club tables"),
    ("--tables", "0", "--tables 0: 1 to 500 club tables"),   # was taken as "not given", exit 0
])
def test_euchre_open_refuses_rounds_and_tables_out_of_range(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            option: str, value: str, says: str) -> None:
    """``euchre open --rounds 99999999999999999999`` made a night of that many rounds (exit 0);
    ``--tables 99999999999999999999`` hung naming the club's tables."""
    players = tmp_path / "players.txt"
    players.write_text("".join(f"Player {k}\n" for k in range(1, 9)))
    argv = ["euchre", "open", "--dir", str(tmp_path / "night"), "--players", str(players), "--format",
            "progressive", "--rounds", "2", option, value]
    if option == "--rounds":
        argv = argv[:-4] + [option, value]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert says in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "night").exists()


@pytest.mark.parametrize(("option", "value"), [("--tables", "501"), ("--players", "99999999999999999999"),
                                               ("--players", "3")])
def test_euchre_demo_refuses_tables_and_players_out_of_range(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                             option: str, value: str) -> None:
    """``euchre demo --players 99999999999999999999`` hung naming its players."""
    argv = ["euchre", "demo", "--tables", "1", "--rounds", "1", "--out", str(tmp_path / "d"), option, value]
    if option == "--tables":
        argv = ["euchre", "demo", "--rounds", "1", "--out", str(tmp_path / "d"), option, value]
    assert main(argv) == 2
    err = capsys.readouterr().err
    said = "1 to 500 club tables" if option == "--tables" else "4 to 2000 players"
    assert err.startswith(f"cardtable euchre: {option} ") and said in err and not (tmp_path / "d").exists(), err


@pytest.mark.parametrize(("line", "value"), [
    (["shoe-listen", "/dev/null", "--baud", "{V}"], "0"),
    (["shoe-listen", "/dev/null", "--baud", "{V}"], "-9600"),
    (["shoe-listen", "/dev/null", "--deals", "{V}"], "-1"),
    (["shoe-sim", "--pace", "{V}"], "-5"),
    (["camera-check", "--image", "x.png", "--frames", "{V}"], "99999999"),
    (["camera-check", "--image", "x.png", "--frames", "{V}"], "0"),
    (["boards", "deal", "--records", "set.pbn", "--baud", "{V}"], "0"),
])
def test_a_line_speed_or_a_count_below_its_range_is_refused(capsys: pytest.CaptureFixture[str],
                                                            line: list[str], value: str) -> None:
    """``shoe-listen --baud 0`` and ``--deals -1`` were taken and the command waited for ever; ``shoe-sim
    --pace -5`` was taken as no pause at all; ``camera-check --frames 99999999`` took frames for hours. Refused at the command line, naming the option and its range."""
    argv = [a.replace("{V}", value) for a in line]
    option = argv[argv.index(value) - 1]
    err = _usage_error(capsys, argv)
    assert f"argument {option}: a whole number from " in err and repr(value) in err


@pytest.mark.parametrize(("line", "says"), [
    (["bench", "vision", "--frames", "0"], "a whole number from 1 to 10000"),
    (["bench", "vision", "--frames", "-1"], "a whole number from 1 to 10000"),
    (["bench", "vision", "--outsider", "--repeats", "0"], "a whole number from 1 to 100"),
    (["bench", "vision", "--outsider", "--repeats", "-1"], "a whole number from 1 to 100"),
    (["camera-check", "--image", "x.png", "--gain", "nan"], "a number from 0 to 64"),
    (["camera-check", "--image", "x.png", "--gain", "inf"], "a number from 0 to 64"),
    (["camera-check", "--image", "x.png", "--exposure-us", "99999999999"], "a whole number from 0 to 1000000"),
    (["boards", "check", "x.pbn", "--first", "99999999999999999999"], "a whole number from 1 to 999999999"),
    (["boards", "deal", "--records", "x.pbn", "--first", "0"], "a whole number from 1 to 999999999"),
    (["duplicate", "open", "--dir", "d", "--hand-records", "x.pbn", "--pairs", "8", "--movement", "howell",
      "--tables", "0"], "a whole number from 1 to 500"),
    (["euchre", "demo", "--tables", "1", "--rounds", "1", "--timeout", "nan"], "a number above 0, at most 86400"),
    (["euchre", "demo", "--tables", "1", "--rounds", "1", "--timeout", "0"], "a number above 0, at most 86400"),
    (["euchre", "demo", "--tables", "1", "--rounds", "1", "--timeout", "-1"], "a number above 0, at most 86400"),
    (["federation", "close", "--dir", "fed", "--wait", "-1"], "a number from 0 to 3600"),
    (["federation", "close", "--dir", "fed", "--wait", "nan"], "a number from 0 to 3600"),
    (["federation", "close", "--dir", "fed", "--wait", "inf"], "a number from 0 to 3600"),
])
def test_a_count_or_measure_out_of_range_is_refused_at_the_command_line(capsys: pytest.CaptureFixture[str],
                                                                       line: list[str], says: str) -> None:
    """``bench --frames 0`` and ``--repeats -1`` ran without end, ``camera-check --gain nan`` and
    ``--exposure-us 99999999`` were given to the camera, ``boards check --first 10**20`` printed boards no
    file can number (exit 0), ``duplicate open --movement howell --tables 0`` opened a session as if no
    ``--tables`` were given, and ``euchre demo --timeout nan`` or ``0`` started a night it then called
    unfinished (exit 1); ``federation close --wait -1`` or ``nan`` closed the event (exit 0), and ``inf``
    would wait for ever on a serve that never answers."""
    err = _usage_error(capsys, line)
    assert f"argument {line[-2]}: {says}, not {line[-1]!r}" in err, err


@pytest.mark.parametrize("text", ["0", "64", "1.5"])
def test_a_gain_in_range_is_taken(text: str) -> None:
    """The ends of the range are numbers the configuration takes too (``[camera] gain``, 0 to 64)."""
    from firmware_host.commands.guard import number

    assert number(0, 64)(text) == float(text)


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--name", "Mon\nday", "1 to 80 printable characters"),
    ("--name", "", "1 to 80 printable characters"),
    ("--name", "x" * 81, "1 to 80 printable characters"),
    ("--club", 'Our "club"]\n[Site', "0 to 80 printable characters"),
    ("--date", "yesterday", "a date is YYYY-MM-DD"),
    ("--date", "2026-02-30", "is no date"),
    ("--date", "20261202", "a date is YYYY-MM-DD"),
])
@pytest.mark.parametrize("kind", ["duplicate", "euchre"])
def test_a_name_or_date_a_results_file_cannot_hold_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                              kind: str, option: str, value: str, says: str) -> None:
    """``duplicate open --name $'Mon\\nday' --date yesterday`` opened a session whose PBN export began
    ``[Event "Mon`` with ``day"]`` a line of its own and ``[Date "yesterday"]``; ``euchre open`` took the
    same. Refused at the command line, naming the option, before a folder is made."""
    if kind == "duplicate":
        argv = ["duplicate", "open", "--dir", str(tmp_path / "s"), "--hand-records", "x.pbn", "--pairs", "8",
                "--boards-per-round", "2", "--movement", "mitchell", option, value]
    else:
        argv = ["euchre", "open", "--dir", str(tmp_path / "s"), "--players", "p.txt", "--format", "progressive",
                "--rounds", "2", option, value]
    err = _usage_error(capsys, argv)
    assert f"argument {option}: " in err and says in err, err
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("text", ["", "2026-12-02"])
def test_a_date_the_docs_allow(text: str) -> None:
    from firmware_host.commands.guard import iso_date, line_of_text

    assert iso_date(text) == text and line_of_text(80)("Salle Émile-Zola") == "Salle Émile-Zola"


@pytest.mark.parametrize("value", ["-1", "0", "nan", "inf", "99999999"])
def test_dashboard_refuses_a_login_time_that_makes_no_sense(capsys: pytest.CaptureFixture[str], value: str) -> None:
    """``club dashboard --session-minutes -1`` (or ``nan``) was taken and the dashboard started: every
    login then expired as it was made."""
    err = _usage_error(capsys, ["club", "dashboard", "--mqtt-password-file", "pw", "--users", "u",
                                "--session-minutes", value])
    assert f"argument --session-minutes: a number above 0, at most 10080, not {value!r}" in err, err


@pytest.mark.parametrize(("argv", "says"), [
    (["export", "jsonl", "--journals", "a", "b"], "cardtable export: --journals goes with export board, not export jsonl"),
    (["export", "pbn", "--board", "3", "--json"], "cardtable export: --board and --json go with export board, not export pbn"),
    (["export", "board", "--force"], "cardtable export: --force goes with export jsonl or pbn, not export board"),
    (["export", "board", "--game", "euchre"], "cardtable export: --game goes with export jsonl or pbn, not export board"),
])
def test_export_refuses_an_option_of_another_format(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                    says: str) -> None:
    """``export jsonl --journals A B`` exported the configuration's journal (/var/lib/cardtable) and said
    so, not the journals named; ``export pbn --board 3`` wrote every board; ``export board --force`` still
    refused a broken chain: each option of another format was left unused without a word."""
    assert main(argv) == 2
    assert capsys.readouterr().err == says + "\n"


@pytest.mark.parametrize("value", ["0", "-3", "99999999999999999999"])
def test_export_board_refuses_a_number_no_board_has(capsys: pytest.CaptureFixture[str], value: str) -> None:
    """``export board --board -3`` read every journal and said "no duplicate board in board -3 of ..."."""
    err = _usage_error(capsys, ["export", "board", "--board", value])
    assert f"argument --board: a whole number from 1 to 999999999, not {value!r}" in err, err


@pytest.mark.parametrize(("line", "says"), [
    (["bench", "federation", "--scale", "0"], "argument --scale: a whole number from 1 to 10000, not '0'"),
    (["bench", "federation", "--scale", "-3"], "argument --scale: a whole number from 1 to 10000, not '-3'"),
    (["bench", "federation", "--scale", "--outages", "-1"], "argument --outages: a whole number from 0 to 1000, "
                                                             "not '-1'"),
])
def test_bench_scale_and_outages_out_of_range_are_refused(capsys: pytest.CaptureFixture[str], line: list[str],
                                                          says: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """README, ``cardtable bench``: ``--scale 0`` ran the federation's ordinary benchmark as if no
    ``--scale`` were given, and ``--outages`` was not checked at the command line."""
    from firmware_host import bench

    monkeypatch.setattr(bench, "run", lambda name, args: 0)   # what ran before: not the minutes of a benchmark
    assert says in _usage_error(capsys, line)


@pytest.mark.parametrize(("line", "says"), [
    (["bench", "club", "--scale", "5"], "--scale is for bench federation, not bench club: leave it out"),
    (["bench", "club", "--scale"], "--scale is for bench federation, not bench club: leave it out"),
    (["bench", "wire", "--outages", "3"], "--outages is for bench federation, not bench wire: leave it out"),
    (["bench", "table", "--frames", "5"], "--frames is for bench vision, not bench table: leave it out"),
    (["bench", "club", "--seed", "7"], "--seed is for bench vision, not bench club: leave it out"),
    (["bench", "vision", "--director-server"], "--director-server is for bench euchre, not bench vision: leave it out"),
    (["bench", "federation", "--outages", "3"], "--outages goes with --scale (the simultaneous at scale): give "
                                                "--scale or leave --outages out"),
])
def test_bench_refuses_an_option_its_benchmark_does_not_take(capsys: pytest.CaptureFixture[str], line: list[str],
                                                             says: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """README, ``cardtable bench``: ``bench club --scale 0`` ran the club's benchmark, the option ignored in
    silence; every option a benchmark does not take is refused in one line, exit 2, before anything runs."""
    from firmware_host import bench

    ran: list[str] = []
    monkeypatch.setattr(bench, "run", lambda name, args: ran.append(name) or 0)
    assert main(line) == 2
    assert capsys.readouterr().err == f"cardtable bench: {says}\n"
    assert ran == []


def test_bench_fills_in_the_values_of_the_options_not_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """The options a benchmark reads have their documented values when not given (seed 2026, 20 outages)."""
    from firmware_host import bench

    seen: list[Any] = []
    monkeypatch.setattr(bench, "run", lambda name, args: seen.append(args) or 0)
    assert main(["bench", "federation", "--scale"]) == 0
    assert (seen[0].scale, seen[0].outages, seen[0].seed, seen[0].against, seen[0].repeats) == (1000, 20, 2026,
                                                                                                "today", 1)
    assert main(["bench", "all", "--scale", "5", "--outages", "0", "--frames", "3"]) == 0
    assert len(seen) == 1 + len(bench.BENCHES) and (seen[-1].scale, seen[-1].outages, seen[-1].frames) == (5, 0, 3)
