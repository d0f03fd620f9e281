"""docs/laws.md is the project's own law reference: every clause id the law engine can cite has a row
there, and nothing shipped sends a reader outside the repository (a clone has no ``../shared/``).

The ids the engine can cite are found from the code itself: the ids of every game's registered clauses,
every string in ``laws/`` that is a clause id (rulings built with an id of another clause, ``BP-63``), and
the euchre ids made from a law number (``f"EU-{n}"``), which are every law of the book the table covers
(1 to 90, docs/laws.md, "Which code governs")."""

from __future__ import annotations

import ast
import re
import subprocess
from pathlib import Path

from laws.games import GAMES, get_game

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = ROOT / "docs" / "laws.md"
ID = re.compile(r"^(CB|EU|BP|DB)-[A-Za-z0-9-]+$")
EU_LAWS = range(1, 91)


def citable_ids() -> set[str]:
    """Every clause id the engine can put in a ruling (module docstring)."""
    ids = {c.id for g in GAMES for c in get_game(g).clauses}
    for path in (ROOT / "laws").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and ID.match(node.value):
                ids.add(node.value)
    return ids | {f"EU-{n}" for n in EU_LAWS}


def missing_rows(doc: str, ids: set[str]) -> list[str]:
    """The ids of ``ids`` with no row (a table line starting with the id in backquotes) in ``doc``."""
    rows = set(re.findall(r"^\| `([A-Za-z0-9-]+)` \|", doc, re.M))
    return sorted(ids - rows)


def test_every_citable_id_has_a_row_in_docs_laws_md() -> None:
    ids = citable_ids()
    assert {"BP-28-32", "DB-87", "EU-41", "CB-redeal-faced", "BP-bar", "EU-76"} <= ids   # the finder finds
    assert missing_rows(DOC.read_text(encoding="utf-8"), ids) == []


def test_the_check_fails_on_a_row_taken_out() -> None:
    doc = DOC.read_text(encoding="utf-8")
    broken = "\n".join(line for line in doc.splitlines() if not line.startswith("| `BP-64` |"))
    assert missing_rows(broken, citable_ids()) == ["BP-64"]
    assert missing_rows(doc.replace("| `EU-41` |", "| EU-41 |"), citable_ids()) == ["EU-41"]


def test_each_row_paraphrases_and_says_which_law() -> None:
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if re.match(r"^\| `[A-Za-z0-9-]+` \|", line):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            assert len(cells) == 3 and all(cells), line
            assert len(cells[2]) >= 20, line      # a sentence, not a placeholder


def _shipped() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / p for p in out.splitlines() if not p.startswith("tests/")]


def refers_outside(text: str) -> list[str]:
    """Lines that send a reader to the team's shared folder or to the team's own checkouts (``/work/...``),
    which a clone does not have: a command or a path a reader copies must work from the clone's root."""
    return [line for line in text.splitlines()
            if re.search(r"\.\./shared|shared/LAWS|(?<![\w/])LAWS\.md|(?<![\w.])/work/", line)]


def test_nothing_shipped_refers_to_the_shared_folder() -> None:
    bad = []
    for path in _shipped():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        bad += [f"{path.relative_to(ROOT)}: {line.strip()}" for line in refers_outside(text)]
    assert bad == []


def test_the_outside_reference_check_fails_on_one() -> None:
    assert refers_outside("see ../shared/LAWS.md for the ids") and refers_outside("LAWS.md's BP-64 row")
    assert refers_outside("the clause ids of shared/LAWS.md") and not refers_outside("docs/laws.md's BP-64 row")
    assert refers_outside("the remedy of ``/work/docs/laws.md``")
    assert refers_outside("    nice -n 10 /work/main/.venv/bin/python -m firmware_host.cli bench vision")
    assert not refers_outside("    nice -n 10 .venv/bin/python -m firmware_host.cli bench vision")
    assert not refers_outside("https://example.org/work/x and a_dir/work/y")
