"""The command line and its documents agree (an outside tester ran every command of README.md and docs/
word for word): every flag any ``--help`` shows, and every value a flag or argument takes from a fixed
list, is in README.md, docs/, hardware/ or vision/ (``matchpoints-half`` was accepted but nowhere; 27 flags
were in ``--help`` only); each command line README's "Everyday commands" shows names the options its
command requires and no option it does not have, and lists a fixed list of values whole (``duplicate
export`` without ``--session``; ``bench`` without five of its areas); and no document names a Markdown file
the repository does not hold (``docs/duplicate.md``, ``DUPLICATE.md``)."""

from __future__ import annotations

import argparse
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

from firmware_host.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]

# Flags no document need name, each with why. Keep it short: a flag a user may type belongs in a document.
INTERNAL: dict[str, str] = {}


def documents() -> list[Path]:
    """What a user reads: README.md, docs/, hardware/ (every level) and vision/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "hardware").rglob("*.md")),
            *sorted((ROOT / "vision").glob("*.md"))]


def corpus() -> str:
    return "\n".join(p.read_text(encoding="utf-8") for p in documents())


def commands(parser: argparse.ArgumentParser, name: str = "cardtable") -> Iterator[tuple[str, argparse.ArgumentParser]]:
    """Every parser of the command line, by its command (``cardtable club demo``)."""
    yield name, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for verb, sub in action.choices.items():
                yield from commands(sub, f"{name} {verb}")


def _named(word: str, text: str) -> bool:
    """``word`` in ``text`` as a whole word: ``--set`` is not in ``--session``, ``all`` not in ``small``."""
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text) is not None


def undocumented(parser: argparse.ArgumentParser, text: str, top: str = "cardtable") -> list[str]:
    """``command: --flag`` and ``command: --flag value`` for every flag, and every value from a fixed
    list, that ``text`` never names."""
    out = []
    for name, p in commands(parser, top):
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                continue
            flags = [o for o in action.option_strings if o.startswith("--") and o not in ("--help",)]
            out += [f"{name}: {o}" for o in flags if o not in INTERNAL and not _named(o, text)]
            for choice in action.choices or ():
                if not _named(str(choice), text):
                    out.append(f"{name}: {(flags or [action.dest])[0]} {choice}")
    return out


def test_every_flag_and_every_fixed_value_of_every_command_is_in_a_document() -> None:
    missing = undocumented(build_parser(), corpus())
    assert missing == [], "in --help but in no document (README.md, docs/, hardware/, vision/): " + "; ".join(missing)


def test_the_flag_check_sees_one_missing() -> None:
    parser = build_parser("replay")
    text = corpus()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["replay"]
    assert undocumented(sub, text, "cardtable replay") == []
    sub.add_argument("--zzz-not-documented")
    sub.add_argument("--colour", choices=("red", "zzz-not-a-word"))
    assert undocumented(sub, text, "cardtable replay") == [
        "cardtable replay: --zzz-not-documented", "cardtable replay: --colour",
        "cardtable replay: --colour zzz-not-a-word"]


def test_every_internal_flag_still_exists() -> None:
    flags = {o for _, p in commands(build_parser()) for a in p._actions for o in a.option_strings}
    assert set(INTERNAL) <= flags


# -- README's "Everyday commands" ----------------------------------------------------------------------

def _rows() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Everyday commands")
    end = text.index("\n## ", start + 1)
    return [line for line in text[start:end].splitlines() if line.startswith("| `")]


def _command_lines(row: str) -> list[str]:
    """The command lines of a row's first cell, ``\\|`` read as ``|``; a line that does not start with
    ``cardtable`` goes on from the one before (``/ duplicate show|export ...``)."""
    cell = row[1:].replace("\\|", "\0").split("|")[0].replace("\0", "|")
    return ["cardtable " + s.removeprefix("cardtable ") for s in re.findall(r"`([^`]+)`", cell)]


def _resolve(parser: argparse.ArgumentParser, words: list[str]) -> tuple[list[argparse.ArgumentParser], list[str]]:
    """The parsers a line names (``show|export``: both) and the words after the command."""
    level = [parser]
    i = 0
    while True:
        subs = [a for p in level for a in p._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or i >= len(words):
            return level, words[i:]
        names = words[i].split("|")
        found = [s.choices[n] for s in subs for n in names if n in s.choices]
        if not found:
            return level, words[i:]
        level, i = found, i + 1


def readme_problems(parser: argparse.ArgumentParser, rows: list[str]) -> list[str]:
    """For each command line of ``rows`` that shows any option: a required option it leaves out (one of a
    required group), an option its command does not have, a fixed list of values given in part."""
    out = []
    listed: dict[tuple[str, str], tuple[str, set[str], set[str]]] = {}   # a positional's values, every line
    for row in rows:
        for line in _command_lines(row):
            words = line.split()[1:]
            parsers, rest = _resolve(parser, words)
            tail = " ".join(rest)
            shown = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", tail))
            actions = [a for p in parsers for a in p._actions]
            known = {o for a in actions for o in a.option_strings}
            out += [f"`{line}`: {flag} is no option of it" for flag in sorted(shown - known)]
            for p in parsers:
                for action in p._actions:
                    if not action.option_strings and action.choices and \
                            not isinstance(action, argparse._SubParsersAction):
                        first, seen, every = listed.setdefault((p.prog, action.dest), (line, set(), set(action.choices)))
                        seen |= {w for token in rest for w in token.strip("[]()").split("|")} & every
            for flag, values in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*) ([\w.-]+(?:\|[\w.-]+)+)", tail):
                action = next((a for a in actions if flag in a.option_strings and a.choices), None)
                if action is not None and set(values.split("|")) != set(action.choices):
                    out.append(f"`{line}`: {flag} {values}: its values are {'|'.join(action.choices)}")
            if not shown:
                continue                     # a command named bare: its own row or document gives the options
            for p in parsers:
                for action in p._actions:
                    if action.required and action.option_strings and not set(action.option_strings) & shown:
                        out.append(f"`{line}`: leaves out {action.option_strings[0]}, which "
                                   f"{p.prog.removeprefix('cardtable ')} requires")
                for group in p._mutually_exclusive_groups:
                    names = {o for a in group._group_actions for o in a.option_strings}
                    if group.required and not names & shown:
                        out.append(f"`{line}`: leaves out one of {' '.join(sorted(names))}")
    for (_prog, dest), (first, seen, every) in listed.items():     # ``bench table|e2e``: listed in part
        if len(seen) > 1 and seen != every:
            out.append(f"`{first}`: lists {dest} without {sorted(every - seen)}")
    return out


def test_readmes_command_lines_name_what_their_commands_require() -> None:
    problems = readme_problems(build_parser(), _rows())
    assert problems == [], "README.md, Everyday commands: " + "; ".join(problems)


def test_the_readme_check_sees_what_a_line_leaves_out() -> None:
    parser = build_parser()
    rows = ["| `cardtable duplicate export --format pbn --out FILE` / `duplicate show\\|export --session DIR` | x |",
            "| `cardtable bench table\\|e2e` | x |",
            "| `cardtable calibrate --out FILE [--table-mm W H] [--zzz]` | x |",
            "| `cardtable duplicate open --dir D --hand-records F --pairs N --boards-per-round B --movement "
            "mitchell [--method matchpoints\\|butler]` | x |",
            "| `cardtable shoe-sim` | x |"]
    bench = next(p for n, p in commands(parser) if n == "cardtable bench")
    areas = next(a for a in bench._actions if not a.option_strings and a.choices)
    problems = readme_problems(parser, rows)
    assert problems == [
        "`cardtable duplicate export --format pbn --out FILE`: leaves out --session, which duplicate export requires",
        "`cardtable calibrate --out FILE [--table-mm W H] [--zzz]`: --zzz is no option of it",
        "`cardtable calibrate --out FILE [--table-mm W H] [--zzz]`: leaves out one of --camera --image",
        "`cardtable duplicate open --dir D --hand-records F --pairs N --boards-per-round B --movement mitchell "
        "[--method matchpoints|butler]`: --method matchpoints|butler: its values are "
        "matchpoints|matchpoints-half|butler|cross-imps",
        f"`cardtable bench table|e2e`: lists {areas.dest} without {sorted(set(areas.choices) - {'table', 'e2e'})}",
    ], problems
    assert readme_problems(parser, ["| `cardtable export jsonl\\|pbn` | x |", "| `cardtable export board` | x |"]) == []


# -- Markdown files named --------------------------------------------------------------------------------

def dangling(doc: Path, text: str, tracked: set[str]) -> list[str]:
    """The ``*.md`` files ``text`` (of ``doc``) names that the repository does not hold: a path from the
    repository's top or from the document's folder, or a bare name some tracked file has."""
    names = {p.rsplit("/", 1)[-1] for p in tracked}
    here = doc.parent.relative_to(ROOT)
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        for ref in re.findall(r"(?<![\w./-])([\w./-]*[A-Za-z_]\.md)\b", line):
            inside = (here / ref).as_posix()
            if ref in tracked or inside in tracked or ("/" not in ref and ref in names):
                continue
            out.append(f"{doc.relative_to(ROOT)}:{n}: {ref}")
    return out


def _tracked() -> set[str]:
    return set(subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.split())


def test_every_markdown_file_a_document_names_is_in_the_repository() -> None:
    tracked = _tracked()
    bad = [d for doc in documents() for d in dangling(doc, doc.read_text(encoding="utf-8"), tracked)]
    assert bad == [], "named but not in the repository: " + "; ".join(bad)


def test_the_markdown_check_sees_a_file_that_is_not_there() -> None:
    tracked = _tracked()
    doc = ROOT / "docs" / "federation.md"
    assert dangling(doc, "see `docs/session.md` and `PROTOCOL.md`, `mqtt.md`", tracked) == []
    assert dangling(doc, "as in any session (`docs/duplicate.md`)\nfrom `DUPLICATE.md`", tracked) == [
        "docs/federation.md:1: docs/duplicate.md", "docs/federation.md:2: DUPLICATE.md"]
