"""docs/events.md's bridge worked examples are a contract: each runs through the engine after the table
and deal the section names (the play's after its auction too), and gives exactly the rulings it lists, in
order, with the fields it quotes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import event_from_dict
from tests.laws.bridge_table import MIXED, calls, table

DOC = (Path(__file__).resolve().parent.parent.parent / "docs" / "events.md").read_text()
SECTION = DOC[DOC.index("### Bridge: the auction and the play"):DOC.index("## Entering events")]
AUCTION = "1D pass 1H pass 2C pass 4H pass pass pass"
_PAIR = re.compile(r"`(\w+)` `((?:BP|CB)-[\w-]+)`")
_FIELD = re.compile(r'"(\w+)": ("[^"]*"|-?\d+|true|false|null)')


def examples() -> list[tuple[list[dict], str]]:
    out = []
    for m in re.finditer(r"```json\n(.*?)```\n(.*?)(?:\n\n|\Z)", SECTION, re.S):
        out.append(([json.loads(line) for line in m.group(1).splitlines() if line.strip()],
                    " ".join(m.group(2).split())))
    return out


def run(lines: list[dict]) -> list[dict]:
    eng: LawEngine = table(MIXED)
    events = [event_from_dict(o) for o in lines]
    if not any(e.TYPE == "call" for e in events):
        for e in calls(Seat.N, AUCTION):
            eng.feed(e)
    out = []
    for e in events:
        out += [r.to_dict() for r in eng.feed(e)]
    return out


def test_there_are_examples_of_every_new_bridge_ruling() -> None:
    clauses = {c for _, text in examples() for _, c in _PAIR.findall(text)}
    assert {"BP-22", "BP-27", "BP-28-32", "BP-35-36", "BP-39", "BP-53-56", "BP-57", "BP-61", "BP-62",
            "BP-63", "BP-64", "BP-66-67", "BP-68-71", "CB-result-check"} <= clauses


@pytest.mark.parametrize("lines,text", examples(), ids=lambda x: "" if isinstance(x, list) else x[:40])
def test_the_example_gives_what_it_says(lines: list[dict], text: str) -> None:
    rulings = run(lines)
    assert [(r["remedy"], r["clause"]) for r in rulings] == _PAIR.findall(text)
    said = json.dumps(rulings)
    for key, value in _FIELD.findall(text):
        assert f'"{key}": {value}' in said, (key, value)


def test_the_checker_fails_on_a_wrong_example() -> None:
    lines, text = examples()[0]
    assert [(r["remedy"], r["clause"]) for r in run(lines[:2])] != _PAIR.findall(text)
