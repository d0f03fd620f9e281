"""docs/events.md's duplicate worked examples are a contract: each runs through a fresh duplicate-bridge
engine and gives exactly the rulings it lists, in order, with the fields it quotes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from laws.engine import LawEngine
from laws.events import event_from_dict

DOC = (Path(__file__).resolve().parent.parent.parent / "docs" / "events.md").read_text()
SECTION = DOC[DOC.index("### Duplicate: a board against its record"):DOC.index("### Bridge: the auction and the play\n\nEach")]
_PAIR = re.compile(r"`(\w+)` `((?:BP|DB)-[\w-]+)`")
_FIELD = re.compile(r'"(\w+)": ("[^"]*"|-?\d+|true|false|null)')


def examples() -> list[tuple[list[dict], str]]:
    out = []
    for m in re.finditer(r"```json\n(.*?)```\n(.*?)(?:\n\n|\Z)", SECTION, re.S):
        out.append(([json.loads(line) for line in m.group(1).splitlines() if line.strip()],
                    " ".join(m.group(2).split())))
    return out


def run(lines: list[dict]) -> list[dict]:
    eng = LawEngine("duplicate-bridge")
    out = []
    for e in (event_from_dict(o) for o in lines):
        out += [r.to_dict() for r in eng.feed(e)]
    return out


def test_there_are_examples_of_the_duplicate_rulings() -> None:
    clauses = {c for _, text in examples() for _, c in _PAIR.findall(text)}
    assert {"DB-87", "DB-7", "DB-77", "DB-14"} <= clauses and len(examples()) == 3


@pytest.mark.parametrize("lines,text", examples(), ids=lambda x: "" if isinstance(x, list) else x[:40])
def test_the_example_gives_what_it_says(lines: list[dict], text: str) -> None:
    rulings = run(lines)
    assert [(r["remedy"], r["clause"]) for r in rulings] == _PAIR.findall(text)
    said = json.dumps(rulings)
    for key, value in _FIELD.findall(text):
        assert f'"{key}": {value}' in said, (key, value)


def test_the_checker_fails_on_a_wrong_example() -> None:
    lines, text = examples()[0]
    swapped = [dict(o, card="KS") if o.get("type") == "card_played" else o for o in lines[:-1]]  # West's own
    assert [(r["remedy"], r["clause"]) for r in run(swapped)] != _PAIR.findall(text)
