"""The hand records a duplicate table reads at start, checked once for ``cardtable run`` and
``cardtable check-config`` alike.

``check-config`` passed a ``[duplicate]`` section whose records file had a 12-card hand, was a ``.lin``
file, or had no board 28 for ``boards = "1-40"``, and ``run`` then refused it at start with exit 2: the
two read the records in different places. This is the one place; a problem is a :class:`ConfigError`
naming the configuration file and the key (``duplicate.records``, ``duplicate.boards``).
"""

from __future__ import annotations

from firmware_host.config.schema import ConfigError, DuplicateConfig
from firmware_host.duplicate.handrecords.handfiles import HandRecordError, read_hand_records
from laws.duplicate.deal import Board


def table_records(d: DuplicateConfig, source: str) -> tuple[dict[int, Board], tuple[int, ...]]:
    """The boards of ``[duplicate] records`` by number (none for a session table without a file) and the
    boards a table that plays alone plays (``boards``, else every board of the records; none for a
    session table, whose boards come from the session).

    Raises:
        ConfigError: the records cannot be used (the message names ``duplicate.records``, then the file,
            the board and what is wrong), or ``boards`` names a board they do not hold.
    """
    if d.records is None:
        return {}, ()
    try:   # the default first (1) names no first board: a PBN's numbers, a DUP control's lowest board stand
        boards = {b.number: b for b in read_hand_records(d.records, None if d.first == 1 else d.first,
                                                         option="duplicate.first")}
    except HandRecordError as exc:
        raise ConfigError(f"{source}: duplicate.records: {exc}") from None
    if d.session:
        return boards, ()
    wanted = d.boards or tuple(sorted(boards))
    missing = [n for n in wanted if n not in boards]
    if missing:
        raise ConfigError(f"{source}: duplicate.boards: board {missing[0]} is not in the hand records "
                          f"{d.records} (boards {min(boards)}-{max(boards)})")
    return boards, tuple(wanted)
