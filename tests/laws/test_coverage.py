"""Every detectable clause of docs/laws.md has an implementation and a test named after it.

The clause ids are listed here (and docs/laws.md must have a row for each, tests/laws/test_laws_doc.py)."""

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
    "CB-result-check",
]
# The BP- rows of docs/laws.md (bridge as it is played) the engine rules on; BP-18 and BP-19 are the auction
# model's own checks (an insufficient bid, an inadmissible double), ruled under BP-27 and BP-35-36.
BP_DETECTABLE = ["BP-17", "BP-22", "BP-27", "BP-28-32", "BP-35-36", "BP-39", "BP-41", "BP-44", "BP-53-56",
                 "BP-57", "BP-61", "BP-62", "BP-63", "BP-64", "BP-66-67", "BP-68-71"]
# The DB- rows of docs/laws.md a duplicate table rules on (DB-12 and DB-78 are the session's, DB-16 a note the
# table never rules on).
DB_DETECTABLE = ["DB-2", "DB-6", "DB-7", "DB-13", "DB-14", "DB-15", "DB-77", "DB-87"]
# The rows of the Euchre table in docs/laws.md (one per law) whose "detectable by" names a sensor, a button or
# "derived": each needs a clause citing that law and a test named test_EU_<law>_...
EU_DETECTABLE = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30,
                 31, 33, 34, 35, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55,
                 56, 57, 58, 59, 60, 61, 62, 63, 64, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 80,
                 82, 84, 86, 87, 88, 89, 90]
# Rows marked not detectable (or "should", with no penalty): docs/events.md lists how the table leaves
# them to the players.
EU_LEFT_TO_PLAYERS = [6, 23, 24, 25, 26, 32, 36, 65]
# Detectable rows the engine does not enforce yet (none now; a row put here must not be cited anywhere).
EU_NOT_YET: list[int] = []


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
    for cid in CB_DETECTABLE + BP_DETECTABLE:
        assert cid in registered, f"{cid} has no clause function"
        stem = "test_" + cid.replace("-", "_")
        assert any(t.startswith(stem) for t in tests), f"no test named after {cid}"


def test_every_duplicate_clause_is_registered_and_tested() -> None:
    registered = {c.id for c in LawEngine("duplicate-bridge").clauses}
    tests = _test_names()
    for cid in DB_DETECTABLE + BP_DETECTABLE:
        assert cid in registered, f"{cid} has no clause function in duplicate-bridge"
        stem = "test_" + cid.replace("-", "_") + "_"
        assert any(t.startswith(stem) for t in tests), f"no test named after {cid}"


def _cited_laws() -> set[int]:
    """Every euchre law number a clause or a ruling cites: the laws named by registered clauses ("law 40",
    "laws 62-64, 71 and 4") and the ids and citations written in the engine's source."""
    cited: set[int] = set()
    texts = [c.law for c in LawEngine("euchre").clauses]
    src = _law_sources()
    texts += re.findall(r'(?<!")"Euchre,? laws? [^"]*"', src)  # citations in rulings, not docstrings
    for text in texts:
        for lo, hi in re.findall(r"(\d+)(?:-(\d+))?", text.split("(")[0] + " " + " ".join(
                re.findall(r"law (\d+)", text))):
            cited.update(range(int(lo), int(hi or lo) + 1))
    cited.update(int(n) for n in re.findall(r"EU-(\d+)\b", src))
    cited.update(int(n) for n in re.findall(r"_(?:eu|law)\((\d+)\b", src))
    cited.update(int(n) for n in re.findall(r"_(?:eu|law)\(\d+ if [^)]* else (\d+)\)", src))
    return cited


def test_every_detectable_euchre_row_is_implemented_and_tested() -> None:
    cited = _cited_laws()
    tests = _test_names()
    for n in EU_DETECTABLE:
        if n in EU_NOT_YET:
            continue
        assert n in cited, f"Euchre law {n}: no clause cites it"
        assert any(t.startswith(f"test_EU_{n}_") for t in tests), f"Euchre law {n}: no test named after it"


def test_the_not_yet_list_is_honest() -> None:
    """A law taken off the list must be enforced; one still on it must not be cited as if it were."""
    cited = _cited_laws()
    assert not set(EU_NOT_YET) & cited, sorted(set(EU_NOT_YET) & cited)


def test_rows_left_to_the_players_are_listed_in_events_md() -> None:
    doc = (ROOT / "docs" / "events.md").read_text()
    section = doc[doc.index("### Euchre laws no sensor sees"):]
    listed = {int(n) for n in re.findall(r"^\| (\d+)", section, re.MULTILINE)}
    listed |= {int(n) for row in re.findall(r"^\| ([\d, ]+) \|", section, re.MULTILINE) for n in row.split(",")}
    assert set(EU_LEFT_TO_PLAYERS) <= listed, sorted(set(EU_LEFT_TO_PLAYERS) - listed)
    assert not set(EU_LEFT_TO_PLAYERS) & set(EU_DETECTABLE)
    assert sorted(EU_LEFT_TO_PLAYERS + EU_DETECTABLE) == sorted(
        [n for n in range(1, 91) if n not in (79, 81, 83, 85)]), "every row of the table is accounted for"
