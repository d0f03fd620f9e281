"""The ``[duplicate]`` section of a table's configuration, checked with the rest before any device opens.

Only a table whose ``table.game`` is ``duplicate-bridge`` has it, and such a table must. A table that
plays alone needs its hand records file (``records``), which must exist here; its boards are read by
``check-config`` and when the table starts, by one function
(``firmware_host.duplicate.handrecords.table_records``, which this room may not import): a file that cannot be
used, or ``boards`` it does not hold, is one message naming the key, the file and the board;
a table in a club session (``session = true``) needs none: the session sends it the records of the boards
it plays, checked against the session's commitment (``commitment``, when given, pins the one published); ``deal = "shoe"`` needs a shoe (``shoe.driver = "shoe"``),
``session = true`` a broker (``[mqtt]``). ``boards`` is a list of board numbers or a text of numbers and
ranges, ``"1-3, 7"``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from firmware_host.config.schema import DUPLICATE_DEALS, ConfigError, DuplicateConfig

SCALARS = {"records": "path", "first": "int", "deal": "str", "session": "bool", "section": "str", "table": "int",
           "round": "int", "ns": "str", "ew": "str", "boards": "boards",
           "commitment": "text"}   # "text": may be empty (the default: the session's commitment)
_RANGE = re.compile(r"^\s*(\d{1,4})\s*(?:-\s*(\d{1,4})\s*)?$")


def parse_boards(value: Any, where: str) -> tuple[int, ...]:
    """``[1, 2, 3]`` or ``"1-3, 7"`` as board numbers (each 1 to 9999, none twice); ``""`` or ``[]``: none
    named, so every board of the records (what ``check-config`` prints for a key left out)."""
    if isinstance(value, str) and not value.strip():
        return ()
    if isinstance(value, str):
        out: list[int] = []
        for part in value.split(","):
            m = _RANGE.match(part)
            if not m:
                raise ConfigError(f"{where}: {part.strip()!r} is not a board number or a range such as 1-3")
            low, high = int(m.group(1)), int(m.group(2) or m.group(1))
            if high < low:
                raise ConfigError(f"{where}: the range {part.strip()} goes down")
            out += range(low, high + 1)
    elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        out = list(value)
    else:
        raise ConfigError(f"{where}: want a list of board numbers or a text such as \"1-3, 7\", got {value!r}")
    bad = [n for n in out if not 1 <= n <= 9999]
    if bad:
        raise ConfigError(f"{where}: board {bad[0]} is not a board number (1 to 9999)")
    twice = sorted({n for n in out if out.count(n) > 1})
    if twice:
        raise ConfigError(f"{where}: board {twice[0]} is named twice")
    return tuple(out)


def build_duplicate(data: Mapping[str, Any], values: Mapping[str, Any], loc: Callable[[str, str], str],
                    base_dir: Path, game: str, shoe_driver: str, has_mqtt: bool) -> DuplicateConfig | None:
    """The checked ``[duplicate]`` section, or None for a table of another game."""
    if game != "duplicate-bridge":
        if "duplicate" in data:
            raise ConfigError(f"{loc('duplicate', 'records')}: a [duplicate] section is for table.game = "
                              f"\"duplicate-bridge\"; this table plays {game}")
        return None
    raw = dict(values)
    if "duplicate" not in data or (raw.get("records") is None and not raw.get("session")):
        raise ConfigError(f"{loc('duplicate', 'records')}: a duplicate-bridge table that plays alone needs its "
                          "hand records: [duplicate] records = \"FILE.pbn\" (PBN, BRI or DUP), or session = true "
                          "(the club's session sends them)")
    if "boards" in raw:
        raw["boards"] = parse_boards(raw["boards"], loc("duplicate", "boards"))
    d = DuplicateConfig(**raw)
    commitment = str(d.commitment).strip().lower()
    if commitment and not re.fullmatch(r"[0-9a-f]{64}", commitment):
        raise ConfigError(f"{loc('duplicate', 'commitment')}: {d.commitment[:80]!r} is not a commitment "
                          "(64 hexadecimal digits, as 'cardtable duplicate open' prints it)")
    d = replace(d, commitment=commitment)
    if d.records is None:
        return _checked(d, loc, shoe_driver, has_mqtt)
    records = Path(d.records).expanduser()
    records = records if records.is_absolute() else base_dir / records
    if records.is_dir():
        raise ConfigError(f"{loc('duplicate', 'records')}: {records} is a folder; name the hand records file")
    if not records.is_file():
        raise ConfigError(f"{loc('duplicate', 'records')}: hand records file {records} does not exist")
    return replace(_checked(d, loc, shoe_driver, has_mqtt), records=records)


def _checked(d: DuplicateConfig, loc: Callable[[str, str], str], shoe_driver: str, has_mqtt: bool) -> DuplicateConfig:
    """The section's other values checked (the records file apart)."""
    if d.deal not in DUPLICATE_DEALS:
        raise ConfigError(f"{loc('duplicate', 'deal')}: unknown value {d.deal!r}; choose boards (physical "
                          "boards) or shoe (the table's shoe deals each board)")
    if d.deal == "shoe" and shoe_driver != "shoe":
        raise ConfigError(f"{loc('duplicate', 'deal')}: deal = \"shoe\" needs a shoe that deals boards "
                          f"(shoe.driver = \"shoe\"), not {shoe_driver!r}")
    if d.session and not has_mqtt:
        raise ConfigError(f"{loc('duplicate', 'session')}: a club session reaches the table through the "
                          "broker: add an [mqtt] section, or set session = false to play alone")
    for key, low, high in (("first", 1, 9999), ("table", 1, 999), ("round", 1, 999)):
        v = getattr(d, key)
        if not low <= v <= high:
            raise ConfigError(f"{loc('duplicate', key)}: want {low} to {high}, got {v}")
    for key, most in (("section", 8), ("ns", 16), ("ew", 16)):
        if len(getattr(d, key)) > most:
            raise ConfigError(f"{loc('duplicate', key)}: at most {most} characters, got {getattr(d, key)!r}")
        if not getattr(d, key).isprintable():   # written into the board's record: a line break split it
            raise ConfigError(f"{loc('duplicate', key)}: {getattr(d, key)!r} holds a line break or another "
                              "control character")
    if not d.session and d.ns == d.ew:   # the table played on, a pair against itself in its records
        raise ConfigError(f"{loc('duplicate', 'ew')}: the same pair as ns ({d.ns!r}): a pair cannot play "
                          "against itself")
    return d
