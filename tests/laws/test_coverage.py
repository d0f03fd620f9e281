"""Every detectable clause of shared/LAWS.md has an implementation and a test named after it.

The clause ids are listed here (not read from shared/, which a clone of the project need not have)."""

from __future__ import annotations

import re
from pathlib import Path

from laws.engine import LawEngine

ROOT = Path(__file__).resolve().parent.parent.parent
CB_DETECTABLE = [
    "CB-rubber", "CB-shuffle-demand", "CB-cut-faced", "CB-pack-damaged", "CB-pack-reclaim",
    "CB-redeal-out-of-turn", "CB-redeal-uncut", "CB-redeal-incorrect", "CB-redeal-faced",
    "CB-redeal-wrong-hand", "CB-redeal-miscount", "CB-missing-found", "CB-missing-other-hand",
    "CB-missing-trick", "CB-missing-not-found", "CB-surplus-deal", "CB-surplus-play", "CB-attention",
]
# The rows of the Euchre table in LAWS.md that the engine must enforce (46-61 may wait).
EU_ROWS = [(1, 1), (2, 2), (3, 3), (4, 6), (7, 7), (8, 10), (11, 12), (13, 14), (15, 21), (22, 27),
           (28, 32), (33, 33), (34, 34), (35, 37), (38, 38), (39, 39), (40, 40), (41, 45), (62, 71),
           (72, 72), (90, 90)]


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names.update(re.findall(r"^def (test_\w+)", path.read_text(), re.MULTILINE))
    return names


def _law_sources() -> str:
    return "\n".join(p.read_text() for p in (ROOT / "laws").rglob("*.py"))


def test_every_bridge_clause_is_registered_and_tested() -> None:
    registered = {c.id for c in LawEngine("contract-bridge").clauses}
    tests = _test_names()
    for cid in CB_DETECTABLE:
        assert cid in registered, f"{cid} has no clause function"
        stem = "test_" + cid.replace("-", "_")
        assert any(t.startswith(stem) for t in tests), f"no test named after {cid}"


def test_every_euchre_row_is_implemented_and_tested() -> None:
    src = _law_sources()
    tests = _test_names()
    for lo, hi in EU_ROWS:
        laws = range(lo, hi + 1)
        cited = any(re.search(rf"(\"EU-{n}[\"-]|_eu\({n}\b|_law\({n}\b)", src) for n in laws)
        assert cited, f"Euchre laws {lo}-{hi}: no clause cites them"
        assert any(t.startswith(f"test_EU_{n}_") for n in laws for t in tests), \
            f"Euchre laws {lo}-{hi}: no test named after them"
