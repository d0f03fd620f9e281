"""docs/events.md is a contract: every example event in it decodes, and every event type and demand is
shown there."""

from __future__ import annotations

import json
import re
from pathlib import Path

from laws.events import DEMANDS, EVENT_TYPES, FACED_WHERE, SURPLUS_CAUSES, event_from_dict

DOC = (Path(__file__).resolve().parent.parent.parent / "docs" / "events.md").read_text()


def _examples() -> list[dict]:
    out = []
    for block in re.findall(r"```json\n(.*?)```", DOC, re.S):
        out += [json.loads(line) for line in block.splitlines() if line.strip()]
    return out


def test_every_example_event_decodes() -> None:
    examples = _examples()
    assert examples
    for obj in examples:
        event_from_dict(obj)


def test_every_event_type_and_option_has_an_example() -> None:
    examples = _examples()
    assert set(EVENT_TYPES) <= {o["type"] for o in examples}
    assert set(DEMANDS) - {"redeal", "new_deal", "new_cut", "restore_pack", "new_cards", "attention"} <= \
        {o["what"] for o in examples if o["type"] == "demand"}
    assert {"table", "hand"} <= {o["where"] for o in examples if o["type"] == "card_faced"}
    for word in (*FACED_WHERE, *SURPLUS_CAUSES):
        assert f"`{word}`" in DOC
