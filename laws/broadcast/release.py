"""The release rule: which feed items a spectator may see, and from when (decided on the club's machine).

The director chooses one rule for the evening (:class:`Rule`):

* ``after-field`` (the default for a pairs night, where spectators may be players): nothing of a board,
  not even its hands, until **no table of the session still has it to play** (every table due to play
  it has its result in, or the director took it off the movement).
* ``delay``: everything of a board ``delay`` seconds after the table committed it (spectators outside
  the room).
* ``teams``: a board at a table of one room only once **the other room has finished it** (the same
  fact the teams scoring uses: :func:`laws.competition.teams.released_to`).

Whatever the rule, an audience that is a player (a table's login, or a page opened with a table's key)
never sees a board his own table has still to play, nor his own table's board while it is being played:
for him, an item also waits until his table has finished that board (or will never play it).

The rule is a pure function of the item, the audience and the facts (:class:`Facts`), answered as the
time from which the item may be shown (:func:`released_at`), or None while that is not yet known;
:func:`may_show` compares that with the time now. The hub that sends items holds each one back until
then; the page never decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from laws.broadcast.feed import Item


class Rule(StrEnum):
    AFTER_FIELD = "after-field"
    DELAY = "delay"
    TEAMS = "teams"


class ReleaseError(ValueError):
    """A release rule that cannot be used (a negative delay, an unknown rule)."""


@dataclass(frozen=True)
class Release:
    """The director's rule for the evening, and the delay (seconds) for ``delay``."""

    rule: Rule = Rule.AFTER_FIELD
    delay: float = 0.0

    def __post_init__(self) -> None:
        if not isinstance(self.rule, Rule):
            raise ReleaseError(f"a release rule is one of {', '.join(r.value for r in Rule)}, got {self.rule!r}")
        if isinstance(self.delay, bool) or not isinstance(self.delay, (int, float)) or not 0 <= self.delay <= 86400:
            raise ReleaseError(f"a delay is 0 to 86400 seconds, got {self.delay!r}")


@dataclass(frozen=True)
class Audience:
    """Who is looking: a spectator (``table`` None), or a player at ``table``."""

    table: int | None = None


@dataclass(frozen=True)
class Facts:
    """What the club's machine knows of the session when it decides.

    ``pending``: for each board, the tables that still have it to play (in play or not yet reached).
    ``done``: when each (table, board) was finished (its result committed), in the tables' clock.
    ``other_room``: for ``teams``, each table's counterpart in the other room.
    ``field_done``: when each board left ``pending`` for good (the last table's result).
    """

    pending: Mapping[int, frozenset[int]] = field(default_factory=dict)
    done: Mapping[tuple[int, int], float] = field(default_factory=dict)
    other_room: Mapping[int, int] = field(default_factory=dict)
    field_done: Mapping[int, float] = field(default_factory=dict)


def _own_table_clear(item: Item, audience: Audience, facts: Facts) -> float | None:
    """For a player: when his own table no longer stands in the way of this item (0: never did)."""
    if audience.table is None:
        return 0.0
    if audience.table in facts.pending.get(item.board, frozenset()):
        return None
    return facts.done.get((audience.table, item.board), 0.0)


def released_at(release: Release, item: Item, audience: Audience, facts: Facts) -> float | None:
    """The time from which ``item`` may be shown to ``audience`` (None: not yet known, so not now)."""
    own = _own_table_clear(item, audience, facts)
    if own is None:
        return None
    if release.rule is Rule.AFTER_FIELD:
        if facts.pending.get(item.board):
            return None
        when = facts.field_done.get(item.board, item.t)
    elif release.rule is Rule.DELAY:
        when = item.t + release.delay
    else:
        other = facts.other_room.get(item.table)
        if other is None or (other, item.board) not in facts.done:
            return None
        when = max(item.t, facts.done[(other, item.board)])
    return max(when, own, item.t)


def may_show(release: Release, item: Item, audience: Audience, facts: Facts, now: float) -> bool:
    """Whether ``item`` may be shown to ``audience`` at ``now``."""
    when = released_at(release, item, audience, facts)
    return when is not None and when <= now
