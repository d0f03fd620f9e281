"""What a club may see of the field, and when (``docs/federation.md``, "Secrecy across time zones").

A club receives the field's results of a board, and the board's deal, only once **the club itself has
finished that board** (every one of its tables due to play it has sent its result), or once the event is
closed. Before that, nothing of the board: not the other clubs' results, not their scores, not the deal.
The federation's own page shows the field's ranking only from boards every club has finished, until the
event closes.
"""

from __future__ import annotations

from collections.abc import Mapping


def club_may_see(club: str, board: int, finished: Mapping[str, frozenset[int]], closed: bool) -> bool:
    """Whether ``club`` may see the field's results and deal of ``board``."""
    return closed or board in finished.get(club, frozenset())


def public_boards(boards: tuple[int, ...], finished: Mapping[str, frozenset[int]], clubs: frozenset[str],
                  closed: bool) -> tuple[int, ...]:
    """The boards the public page may show: every club has finished them (all of them once closed)."""
    if closed:
        return boards
    return tuple(b for b in boards if all(b in finished.get(c, frozenset()) for c in clubs))
