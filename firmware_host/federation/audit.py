"""The judge of a run: did the federation take every club message exactly once, and is the ranking it
published the ranking a whole rescore gives?

Two checks, each reading the federation's journal (``federation.sqlite3``) read-only, so they may run
while the service is writing it:

* :func:`audit_journal` counts the journal's message rows by (club, number) against the messages each
  club sent: a number missing is **lost**, a number with two rows is **taken twice**, a row whose
  content is not what the club sent is **changed**, a row the club never sent is **unexpected**.
* :func:`rescore` scores the field again from nothing but the journal's rows (the first ``taken[club]``
  of each club, as a published view names them), with :func:`laws.competition.sections.score_event`
  rather than the service's incremental :class:`laws.federation.field.Field`; :func:`view_problem` says
  where a published view differs from it.

Used by ``cardtable bench federation --scale``; the tests show each check failing on a broken journal
or view.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from firmware_host.federation.service import JOURNAL, EventSetup
from firmware_host.federation.views import rankings_dict
from firmware_host.records.journal import Journal
from laws.competition.sections import Across, SectionLine, score_event
from laws.federation.field import field_group
from laws.federation.messages import digest, entry_fields, line_from_dict
from laws.scoring.session_values import Line, Pair


@dataclass(frozen=True)
class Audit:
    """What the journal holds against what the clubs sent (each problem as a short phrase)."""

    rows: int
    lost: tuple[str, ...]
    twice: tuple[str, ...]
    changed: tuple[str, ...]
    unexpected: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not (self.lost or self.twice or self.changed or self.unexpected)

    def summary(self) -> str:
        parts = [f"{self.rows} message rows"]
        for name, items in (("lost", self.lost), ("taken twice", self.twice), ("changed", self.changed),
                            ("unexpected", self.unexpected)):
            parts.append(f"{len(items)} {name}" + (f" ({', '.join(items[:5])})" if items else ""))
        return "; ".join(parts)


def _rows(folder: str | Path) -> tuple[EventSetup, list[dict[str, Any]]]:
    with Journal.open_readonly(Path(folder) / JOURNAL) as journal:
        bodies = [r.body for r in journal.rows() if r.kind == "event"]
    if not bodies or bodies[0].get("type") != "opened":
        raise ValueError(f"{Path(folder) / JOURNAL}: the first row is not the event's setup")
    return EventSetup.from_dict(bodies[0]["setup"]), [b for b in bodies[1:] if b.get("type") == "message"]


def audit_journal(folder: str | Path, sent: Mapping[str, Sequence[Mapping[str, Any]]]) -> Audit:
    """The journal's message rows against ``sent`` (each club's messages, numbered 1, 2, 3 ...)."""
    _setup, rows = _rows(folder)
    seen: dict[tuple[str, int], list[str]] = {}
    for body in rows:
        seen.setdefault((str(body["club"]), int(body["number"])), []).append(digest(body["message"]))
    lost, twice, changed, unexpected = [], [], [], []
    for club, messages in sorted(sent.items()):
        for m in messages:
            key = (club, int(m["number"]))
            got = seen.get(key, [])
            if not got:
                lost.append(f"{club} #{key[1]}")
                continue
            if len(got) > 1:
                twice.append(f"{club} #{key[1]} x{len(got)}")
            if any(d != digest(m) for d in got):
                changed.append(f"{club} #{key[1]}")
    wanted = {(c, int(m["number"])) for c, ms in sent.items() for m in ms}
    unexpected = [f"{c} #{n}" for (c, n) in sorted(seen) if (c, n) not in wanted]
    return Audit(len(rows), tuple(lost), tuple(twice), tuple(changed), tuple(unexpected))


def rescore(folder: str | Path, boards: Sequence[int], taken: Mapping[str, int]) -> dict[str, Any]:
    """The rankings on ``boards`` from the first ``taken[club]`` messages of each club in the journal,
    scored whole (every board from its lines, no cache)."""
    _setup, rows = _rows(folder)
    fields: dict[str, tuple[dict[Pair, str], int]] = {}
    lines: dict[str, dict[tuple[int, Any, Any], Line]] = {}
    for body in rows:
        club, number, message = str(body["club"]), int(body["number"]), body["message"]
        if number > taken.get(club, 0):
            continue
        if message["op"] == "entry":
            fields[club] = (entry_fields(message), int(message["due"]))
            continue
        line = line_from_dict(message["line"])
        key = (line.board, line.ns.key, line.ew.key)
        if message["op"] == "remove":
            lines.get(club, {}).pop(key, None)
        else:
            lines.setdefault(club, {})[key] = line
    if not boards or not fields:
        return {}
    shown = set(boards)
    every = [SectionLine(c, replace(ln, group=field_group(c, ln.group)))     # a club's own fouled groups apart
             for c, per in sorted(lines.items()) for ln in per.values() if ln.board in shown]
    result = score_event({c: (tuple(boards), due, f) for c, (f, due) in fields.items()}, every,
                         _setup.method, Across.YES)
    return rankings_dict(result)


def view_problem(folder: str | Path, view: Mapping[str, Any]) -> str:
    """Where a published view's rankings differ from a whole rescore ("" when they are equal)."""
    whole = rescore(folder, [int(b) for b in view.get("boards", [])], {str(c): int(n) for c, n in
                                                                      view.get("taken", {}).items()})
    mine = view.get("rankings", {})
    if mine == whole:
        return ""
    for name in sorted(set(mine) | set(whole)):
        a, b = mine.get(name, []), whole.get(name, [])
        if a != b:
            for k, (x, y) in enumerate(zip(a, b)):
                if x != y:
                    return f"ranking {name!r} row {k + 1}: published {x}, a whole rescore gives {y}"
            return f"ranking {name!r}: published {len(a)} rows, a whole rescore gives {len(b)}"
    return "the rankings differ"
