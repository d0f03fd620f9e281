"""One fact, one ruling: what the controller reconciles between sensors, and pack health counts.

Pure functions over the engine's state; the controller applies their results only once the event is
committed (``firmware_host.table.ordering``).
"""

from __future__ import annotations

from typing import Any

from laws.engine import UNKNOWN_PACKS
from laws.events import CardDealt, CardFaced, CardPlayed, DamagedCardFound, Event
from laws.state import TableState

Fact = tuple[int, str, str]
HELD = "unknown"  # where a deal's counts wait until its pack is named (never published)


def reconcile(facts: set[Fact], state: TableState, event: Event, source: str) -> tuple[bool, set[Fact]]:
    """Whether an event is news, and the facts it adds: a face-up card the shoe dealt and the camera
    then saw, a damaged card both devices report, a card the camera saw played, are kept once per deal.

    Returns:
        ``(keep, new_facts)``; ``facts`` is not changed.
    """
    e = event
    d = state.deal
    number = d.number if d else 0
    new: set[Fact] = set()
    if isinstance(e, CardDealt):
        if e.face_up and e.card is not None:
            new.add((number, "faced", e.card.code))
        if e.card is None:
            new.add((number, "damaged", "?"))
        return True, new
    if isinstance(e, CardFaced) and e.card is not None and d is not None and e.card == d.trump_card:
        return False, new  # the euchre turn-up lies face up by law; the camera seeing it is no exposure
    if isinstance(e, CardFaced) and e.card is not None and e.where in ("deal", "pack", "table"):
        key = (number, "faced", e.card.code)
        if key in facts:
            return False, new
        new.add(key)
    if isinstance(e, CardPlayed) and source == "camera" and d is not None and \
            any(c == e.card for _, c in d.plays):
        return False, new  # seen again after a hand hid it, or gathered and turned: played once only
    if isinstance(e, DamagedCardFound):
        key = (number, "damaged", e.card.code if e.card else "?")
        same_pack = d is not None and e.pack == d.pack
        if key in facts or (source == "camera" and same_pack and (number, "damaged", "?") in facts):
            return False, new
        new.add(key)
    return True, new


def count_pack(packs: dict[str, dict[str, int]], state: TableState, e: Event) -> str | None:
    """Pack health after ``e`` (the engine has taken it): deals, unreadable and damaged cards per pack.
    Updates ``packs``; returns the pack whose counts moved. A deal whose pack is not named yet (a shoe
    names it with its first card) is held under ``HELD`` and moved to its pack once named: never a
    phantom pack "unknown"."""
    d = state.deal
    key: str | None
    if e.TYPE == "deal_start" and d is not None:
        packs.pop(HELD, None)  # a deal that never named its pack: its counts cannot be placed
        pack, key = d.pack, "deals"
    elif isinstance(e, CardDealt) and e.card is None and d is not None:
        pack, key = d.pack, "unreadable"
    elif isinstance(e, DamagedCardFound):
        pack, key = e.pack, "damaged"
    elif isinstance(e, CardDealt) and d is not None and HELD in packs:
        pack, key = d.pack, None  # the first card may name the pack: what was held goes to it
    else:
        return None
    if pack in UNKNOWN_PACKS:
        if key is not None:
            packs.setdefault(HELD, {"unreadable": 0, "damaged": 0, "deals": 0})[key] += 1
        return None
    counts = packs.setdefault(pack, {"unreadable": 0, "damaged": 0, "deals": 0})
    for k, n in packs.pop(HELD, {}).items():
        counts[k] += n
    if key is not None:
        counts[key] += 1
    return pack


def shoe_mark(body: dict[str, Any]) -> tuple[int | None, int] | None:
    """The ``[boot, seq]`` of the shoe message a journal row came from, if any."""
    mark = body.get("shoe")
    if isinstance(mark, list) and len(mark) == 2 and isinstance(mark[1], int):
        return (mark[0] if isinstance(mark[0], int) else None, mark[1])
    return None
