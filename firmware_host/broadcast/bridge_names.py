"""The names at each side of a bridge table for the broadcast (``docs/broadcast.md``): a pairs session's or
an event's journal, read only, folded as the session stands (``session_journal.py``), and read again when
a board starts at a table, so a pair or team named after the broadcast began (the director's form, a
table's member cards) is named from its next board on.

* :class:`SessionNames`: a duplicate pairs session: each pair's label (``1 NS``, ``5``) -> its first two
  players (the roster's names the session holds for it, ``SessionState.players_of``);
* :class:`EventNames`: an event (teams, Swiss, individual, sections): ``laws/broadcast/event_field.py:
  side_names``; also the event's spec and club tables, which the broadcast is set up from.
"""

from __future__ import annotations

from pathlib import Path

from firmware_host.broadcast.session_journal import SessionFold
from laws.broadcast.event_field import side_names, two
from laws.competition.event_spec import EventSpec
from laws.session.duplicate.duplicate_kind import DUPLICATE
from laws.session.event.event_kind import EVENT


class EventNamesError(ValueError):
    """No event (or no pairs session) in the folder, or a journal that is not one; the message names the file."""


class EventNames(SessionFold):
    """An event's tables, spec and the names at each side now.

    Raises:
        EventNamesError: the folder holds no event.
    """

    def __init__(self, folder: str | Path) -> None:
        super().__init__(folder, EVENT, what="an event", hint="cardtable event open", error=EventNamesError)

    @property
    def spec(self) -> EventSpec:
        return self.state.setup.spec

    @property
    def tables(self) -> tuple[str, ...]:
        return tuple(self.state.setup.tables)

    def sides(self) -> dict[str, tuple[str, str]]:
        """Side label -> the names at its two seats, as the event stands now."""
        self.refresh()
        return side_names(self.spec, self.state.event.names)

    def _lines(self) -> set[tuple[int, int]]:
        """Every event table's board with a result (a table's, or the director's), by event table."""
        return {(table, board) for (_r, table, board) in self.state.event.results}


class SessionNames(SessionFold):
    """A duplicate pairs session's names at each side now.

    Raises:
        EventNamesError: the folder holds no duplicate session.
    """

    def __init__(self, folder: str | Path) -> None:
        super().__init__(folder, DUPLICATE, what="a duplicate session", hint="cardtable duplicate open",
                         error=EventNamesError)

    def sides(self) -> dict[str, tuple[str, str]]:
        """Pair label -> its first two players' names (North or East first), for every pair named."""
        self.refresh()
        st = self.state
        out: dict[str, tuple[str, str]] = {}
        for label in sorted(set(st.setup.names) | set(st.players)):
            people = [p["name"] for p in st.players_of(label) if p.get("name")]
            if people:
                out[label] = two(people)
        return out

    def _lines(self) -> set[tuple[int, int]]:
        """Every table's board whose pairs the movement seats there have their line (a table's result, one
        entered by hand, an adjusted score) or whose line the director took off to score it himself: the
        table has nothing left to play of it (``SessionState.still_to_play``)."""
        st = self.state
        left: dict[object, set[int]] = {}
        out: set[tuple[int, int]] = set()
        for s in st.movement.seatings:
            if not s.played or s.ns is None:
                continue
            if s.ns not in left:
                left[s.ns] = st.still_to_play(s.ns)
            out.update((s.table, b) for b in st.movement.boards_of(s.group) if b not in left[s.ns])
        return out
