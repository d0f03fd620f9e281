"""The command line as a volunteer meets it (issue 21): ``--version``, a mistyped flag answered with the
right one, every ``club demo`` option with help and its default shown."""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[2]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"cardtable {version('cardtable')}"


@pytest.mark.parametrize(("argv", "wanted"), [
    (["doctor", "--skp", "clock"], "--skip"),
    (["club", "demo", "--table", "3"], "--tables"),
    (["export", "pbn", "--froce"], "--force"),
])
def test_a_mistyped_flag_suggests_the_right_one(argv: list[str], wanted: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert f"did you mean {wanted}?" in err, err
    assert "Traceback" not in err


def test_an_unknown_flag_with_nothing_close_says_only_that(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["doctor", "--zzzzzz"])
    assert "did you mean" not in capsys.readouterr().err


def test_every_club_demo_option_has_help_and_shows_its_default() -> None:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command").choices["club"]  # type: ignore[union-attr]
    demo = next(a for a in sub._actions if a.dest == "club_command").choices["demo"]  # type: ignore[union-attr]
    text = demo.format_help()
    for action in demo._actions:
        if action.dest == "help":
            continue
        assert action.help, f"{action.option_strings} has no help"
    options = " ".join(text[text.index("options:"):].split())
    for flag, default in (("--tables", "10"), ("--rate", "2.0"), ("--port", "8080"), ("--duration", "0.0")):
        words = options[options.index(flag + " "):].split(" --")[0]
        assert f"(default: {default})" in words, words


def test_version_from_a_real_process() -> None:
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "--version"], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("cardtable ")


def test_each_command_s_owner_registers_it_and_nothing_else_does() -> None:
    """``OWNERS`` (what a line naming a command registers) is what the whole registration says."""
    from firmware_host.cli import COMMANDS, OWNERS

    whole = build_parser()
    sub = next(a for a in whole._actions if a.dest == "command")
    assert set(sub.choices) == set(OWNERS)  # type: ignore[arg-type]
    assert set(OWNERS.values()) == set(COMMANDS)
    for name, owner in OWNERS.items():
        alone = build_parser(name)
        one = next(a for a in alone._actions if a.dest == "command")
        assert name in one.choices, (name, owner)  # type: ignore[operator]
        assert one.choices[name].format_help() == sub.choices[name].format_help()  # type: ignore[index]


def test_a_command_starts_without_what_other_commands_need() -> None:
    """``cardtable replay`` (what an outside checker runs for every log) imports neither the doctor's
    checks, the configuration's loader, another command nor the package's metadata."""
    code = ("import sys, runpy\n"
            "sys.argv = ['cardtable', 'replay', '-']\n"
            "sys.stdin = open('/dev/null')\n"
            "try:\n    runpy.run_module('firmware_host.cli', run_name='__main__')\n"
            "except SystemExit:\n    pass\n"
            "heavy = [m for m in ('firmware_host.doctor', 'firmware_host.doctor_club', 'firmware_host.config',"
            " 'firmware_host.commands.club', 'importlib.metadata') if m in sys.modules]\n"
            "print(heavy)\n")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert p.stdout.strip().splitlines()[-1] == "[]", (p.stdout, p.stderr)


def test_an_unknown_command_or_the_whole_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.cli import OWNERS

    with pytest.raises(SystemExit) as exc:
        main(["-v", "replayy"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert all(f"'{name}'" in err for name in OWNERS), err
    with pytest.raises(SystemExit):
        main(["--help", "replay"])
    out = capsys.readouterr().out
    assert all(name in out for name in OWNERS)


@pytest.mark.parametrize("argv", [
    ["duplicate", "export"],                       # a required option missing
    ["frob"],                                      # no such command
    ["boards", "new", "--count", "many"],          # a value of the wrong kind
    ["doctor", "--zzzzzz"],                        # an unknown flag
])
def test_a_usage_error_is_one_line_naming_the_command(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """Bad input gets one clear line and exit 2: argparse printed the whole usage block first, so the fault
    was the last of several lines."""
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("cardtable"), err
    assert "error:" in lines[0] and "--help" in lines[0], err


def _verbs_unnamed(summaries: dict[str, tuple[str, list[str]]]) -> dict[str, list[str]]:
    """For each command, the verbs of it that its line in `cardtable --help` does not name as a word."""
    out = {}
    for name, (summary, verbs) in summaries.items():
        missing = [v for v in verbs if not re.search(rf"(?<![\w-]){re.escape(v)}(?![\w-])", summary)]
        if missing:
            out[name] = missing
    return out


def _summaries() -> dict[str, tuple[str, list[str]]]:
    """Each command with verbs: its line in `cardtable --help` and its verbs."""
    whole = build_parser()
    sub = next(a for a in whole._actions if a.dest == "command")
    lines = {a.dest: a.help or "" for a in sub._choices_actions}  # type: ignore[attr-defined]
    out = {}
    for name, parser in sub.choices.items():  # type: ignore[union-attr]
        verbs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if verbs:
            out[name] = (lines[name], list(verbs[0].choices))
    return out


def test_the_whole_help_names_every_verb_of_a_command() -> None:
    """`cardtable --help` is where a newcomer finds what a command does: its line names every verb the
    command has (README.md's table names them all), so `federation close` and `export`, `broadcast live`,
    `boards new`, `club certs` and the rest are not found only by guessing."""
    summaries = _summaries()
    assert {"federation", "broadcast", "club", "boards", "journal"} <= set(summaries)
    assert _verbs_unnamed(summaries) == {}


def test_the_verb_check_fails_on_a_verb_left_out() -> None:
    assert _verbs_unnamed({"federation": ("a simultaneous across clubs: open, serve, show",
                                          ["open", "serve", "show", "close", "export"])}) == {
        "federation": ["close", "export"]}
    assert _verbs_unnamed({"x": ("deal-out, reshow", ["deal", "show"])}) == {"x": ["deal", "show"]}
