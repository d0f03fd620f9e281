"""One room for the wire (issue 36, item 1): no shipped module but ``firmware_host/wire/topics.py`` writes
a topic string, and none but the wire's reader calls ``json.loads`` on text from outside (modules that
read back our own files are listed below, each with why). Both checks are shown to find what they look
for in a module written wrong on purpose."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from firmware_host.wire.topics import TOPICS, Topics

ROOT = Path(__file__).resolve().parent.parent.parent
PACKAGES = ("laws", "firmware_host", "vision")
TOPIC_HOME = "firmware_host/wire/topics.py"
TOPIC_TEXT = re.compile(r"^cardtable/")
# json.loads on text that is ours, not a message from outside: the wire's own reader, and files this
# program wrote itself (read back, hashed, replayed).
OWN_TEXT = {
    "firmware_host/wire/reader.py": "the one checked reader",
    "firmware_host/broadcast/received.py": "the broadcast's own file of the messages it took (each payload is read again by the wire's reader)",
    "firmware_host/records/chain.py": "journal rows: hashed as read back",
    "firmware_host/records/journal.py": "journal rows this program wrote",
    "firmware_host/table/ordering.py": "the table's own checkpoints",
    "firmware_host/table/setaside.py": "the table's own checkpoints",
    "firmware_host/commands/export.py": "journal rows this program wrote",
    "firmware_host/club/heads.py": "the club's own file of journal heads",
    "firmware_host/club/simclub.py": "the simulated club's recorded events, shipped with it",
    "firmware_host/soak/rig.py": "the soak's own journals, read back",
    "firmware_host/soak/checker.py": "the soak's own journals, read back",
    "firmware_host/soak/dup_club.py": "the club's own state API, read back by the soak's checks",
    "firmware_host/soak/dup_disk.py": "the soak's own files, read back",
    "firmware_host/soak/dup_judge.py": "the soak's own files, read back",
    "laws/snapshot.py": "the engine's own snapshots",
    "firmware_host/bench/wire.py": "its own payloads, json.loads timed beside the reader",
    "vision/calibrate.py": "the camera's calibration file, written by `cardtable calibrate`",
}


def _shipped() -> list[Path]:
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py"))


def _quick(text: str, needle: str) -> bool:
    """Only a module whose text holds ``needle`` is parsed (the check stays quick)."""
    return needle in text


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def topic_literals(source: str) -> list[str]:
    """The string literals (f-strings by their first text) of ``source`` that spell a topic."""
    tree = ast.parse(source)
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            first = node.values[0] if node.values else None
            if isinstance(first, ast.Constant) and isinstance(first.value, str) and TOPIC_TEXT.match(first.value):
                found.append(first.value)
            skip.update(id(v) for v in node.values)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip \
                and TOPIC_TEXT.match(node.value):
            found.append(node.value)
    return found


def json_loads_calls(source: str) -> int:
    """How many times ``source`` calls ``json.loads`` (or ``loads`` imported from ``json``)."""
    tree = ast.parse(source)
    bare = any(isinstance(n, ast.ImportFrom) and n.module == "json" and any(a.name == "loads" for a in n.names)
               for n in ast.walk(tree))
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr == "loads" and isinstance(f.value, ast.Name) and f.value.id == "json":
                count += 1
            elif bare and isinstance(f, ast.Name) and f.id == "loads":
                count += 1
    return count


def test_no_topic_string_outside_the_wire() -> None:
    bad = {str(p.relative_to(ROOT)): lits for p in _shipped() if str(p.relative_to(ROOT)) != TOPIC_HOME
           and _quick(text := p.read_text(), "cardtable/") and (lits := topic_literals(text))}
    assert not bad, f"topic strings outside {TOPIC_HOME} (use wire.topics.TOPICS): {bad}"


def test_no_json_loads_of_outside_text_outside_the_wire() -> None:
    bad = [str(p.relative_to(ROOT)) for p in _shipped()
           if str(p.relative_to(ROOT)) not in OWN_TEXT and _quick(text := p.read_text(), "loads")
           and json_loads_calls(text)]
    assert not bad, f"json.loads outside the wire's reader (use wire.reader.read_json): {bad}"
    stale = [f for f in OWN_TEXT if not (ROOT / f).exists()]
    assert not stale, f"listed but gone: {stale}"


def test_both_checks_find_what_they_look_for() -> None:
    wrong = '''"""A docstring may say cardtable/<table>/board."""
import json
from json import loads
T = "cardtable/session/round"

def f(table, payload):
    """cardtable/x/status in a docstring is words."""
    client.publish(f"cardtable/{table}/command/ack", payload)
    return json.loads(payload), loads(payload)
'''
    assert topic_literals(wrong) == ["cardtable/session/round", "cardtable/"]
    assert json_loads_calls(wrong) == 2
    assert topic_literals('x = "/etc/cardtable/table.toml"\n') == []
    assert json_loads_calls("import json\njson.dumps({})\n") == 0


def test_a_federation_remaps_every_topic_and_the_acl_under_its_prefix() -> None:
    fed = Topics("fed/club-7/cardtable")
    assert fed.board("table-01") == "fed/club-7/cardtable/table-01/board"
    assert fed.seating("table-01") == "fed/club-7/cardtable/session/table/table-01"
    assert fed.parse(fed.command("table-01", "ack")).kind == "ack"
    assert fed.parse(TOPICS.board("table-01")) is None and TOPICS.parse(fed.round) is None
    acl = fed.acl(("dashboard",))
    assert "pattern write fed/club-7/cardtable/%u/board" in acl and "cardtable/#" not in acl.replace(
        "fed/club-7/cardtable/#", "")
    for name in ("status", "event", "ruling", "deal", "heartbeat", "online", "board"):
        parsed = TOPICS.parse(TOPICS.table("t1", name))
        assert parsed is not None and (parsed.family, parsed.table, parsed.kind) == ("table", "t1", name)
    assert TOPICS.parse("cardtable/t1/pack") is None and TOPICS.parse("cardtable/t1/pack/A1").sub == "A1"
    assert TOPICS.parse("cardtable/session/table/t1").family == "seating" and TOPICS.parse("cardtable/t 1/x") is None


def test_the_shipped_acl_is_the_one_the_topics_make() -> None:
    shipped = [ln.strip() for ln in (ROOT / "config" / "mosquitto.acl").read_text().splitlines()
               if ln.strip() and not ln.lstrip().startswith("#")]
    made = [ln for ln in TOPICS.acl(("dashboard",)).splitlines() if ln]
    assert sorted(shipped) == sorted(made)
