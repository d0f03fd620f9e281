"""The calls rule is written once (``club/calls.py``) and docs/mqtt.md prints the same table: every remedy
is decided, and the document says what the code does (issue 21)."""

from __future__ import annotations

import re
from pathlib import Path

from firmware_host.club.calls import RULE, calls_director
from laws.rulings import Remedy

DOC = (Path(__file__).resolve().parents[2] / "docs" / "mqtt.md").read_text(encoding="utf-8")


def test_every_remedy_is_decided() -> None:
    assert set(RULE) == set(Remedy)


def test_the_document_prints_the_rule() -> None:
    section = DOC[DOC.index("**What calls the director.**"):]
    section = section[:section.index("\n\n", section.index("| remedy |"))]
    rows = dict(re.findall(r"^\| `([a-z_]+)` \| [^|]+ \| (\*\*yes\*\*|no) \|", section, re.M))
    assert rows, "docs/mqtt.md has no calls table"
    assert {r: v == "**yes**" for r, v in rows.items()} == {r.value: c for r, (c, _) in RULE.items()}


def test_what_players_settle_is_not_a_call() -> None:
    for remedy in ("new_shuffle_and_cut", "claim_option", "restore_pack", "redeal"):
        assert not calls_director({"remedy": remedy})
    for remedy in ("attention", "replace_pack", "penalty"):
        assert calls_director({"remedy": remedy})
    assert calls_director({"remedy": "something_new"})  # unknown: better a director walks over
    assert not calls_director(None)
