"""Which boards' results a table's page may show, and to whom: a release rule, pure (``docs/session.md``,
"What a table's page may show").

A table's page is opened with a key given to that table (its seating message, its display). Whoever sat
at the table in any round so far has had the key and may open the page at any moment, from any seat in
the room; so the page's **audience** is every pair seated at the table in rounds 1 up to the round now
called (:func:`page_audience`), not only the pairs seated there now. A board is **released** to the page
(:func:`released`) only when no pair of that audience still has it to play, and at least one of them
has played it. So no pair ever sees a board it has still to play, whichever page it opens, whenever.

Example, a 7-table Mitchell with 4 boards a round, round 4 called, table 3: its audience is pair 3 NS
(who stays) and the East-West pairs who sat there in rounds 1 to 4. Board 9, played at table 3 in
round 1 by 3 NS against 3 EW, is not released while any of those East-West pairs still has it to play:
pair 3 EW, which sat there in round 1 and moved on, would otherwise read its result on table 3's page
before meeting it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from laws.duplicate.movement.model import Movement, Pair


def page_audience(movement: Movement, table: int, upto: int) -> frozenset[Pair]:
    """Every pair seated at ``table`` in rounds 1 to ``upto`` (the round called): all who have had the
    table's page key."""
    pairs: set[Pair] = set()
    for r in range(1, min(upto, movement.rounds) + 1):
        s = movement.at(r, table)
        if s is not None:
            pairs.update(s.pairs)
    return frozenset(pairs)


def released(audience: Iterable[Pair], plays: Callable[[Pair], set[int]],
             still_to_play: Callable[[Pair], set[int]]) -> frozenset[int]:
    """The boards a page whose audience is ``audience`` may show: played by at least one of them, still
    to play for none of them (``plays`` and ``still_to_play`` give each pair's boards of the movement,
    and those without a result yet)."""
    who = list(audience)
    played: set[int] = set()
    hidden: set[int] = set()
    for p in who:
        left = still_to_play(p)
        played |= plays(p) - left
        hidden |= left
    return frozenset(played - hidden)
