"""Bidding cards seen by the camera during the auction: which of them are calls (``CallWatch``).

The ``TableWatcher`` hands each frame's bidding-card sightings (``FrameReading.calls``) to its
``CallWatch``, which confirms them as playing cards are confirmed (decoded in ``k`` of the last ``n``
frames; gone after ``m`` frames unseen) and decides what each one means:

* In the auction, a bidding card newly confirmed in the zone of the seat its code names is that seat's
  call: one ``call`` event (``{"type": "call", "seat": ..., "call": ...}``, built through
  ``laws.events.event_from_dict``).
* Players leave their calls on the table until the auction is over, so a card already confirmed is not a
  new call, however long it lies there; hidden (a hand over it) and seen again in the same auction, it is
  still the same call.
* A bidding card confirmed in another seat's zone, or in no seat's zone (the centre, the cut area), is not
  a call: the watcher says so once in a note (``take_notes``) and counts it (``misplaced``). If it is
  then moved into its own seat's zone during the auction, it is that seat's call then.
* Bidding cards already confirmed when the auction begins (the last deal's, not yet put away, or laid out
  early) are not calls; nor is any bidding card outside the auction phase.

Calls are public (every player sees the auction), so notes name the call and the seat.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from laws.cards import Seat
from laws.events import Event, event_from_dict
from vision.codes import SEATS, CallCode
from vision.decode import CallSighting

SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}


@dataclass
class _CallTrack:
    seen: deque[bool]
    first: int
    missing: int = 0
    confirmed: bool = False
    taken: bool = False  # a call already (or not news: on the table before the auction began)
    noted: bool = False  # the note about where it lies was given
    last: CallSighting | None = None


@dataclass
class CallWatch:
    """Confirms bidding cards and says which are calls (see the module docstring).

    Args:
        k, n, m: confirm after ``k`` reads in the last ``n`` frames; gone after ``m`` frames unseen.
    """

    k: int
    n: int
    m: int
    misplaced: int = 0
    notes: list[str] = field(default_factory=list)
    _tracks: dict[CallCode, _CallTrack] = field(default_factory=dict)
    _frame: int = 0

    def begin(self) -> None:
        """A new phase: the bidding cards already confirmed are not news in it (not calls)."""
        for tr in self._tracks.values():
            if tr.confirmed:
                tr.taken = True
            tr.noted = False

    def visible(self) -> list[CallSighting]:
        """The confirmed bidding cards on the table, where last seen."""
        return [tr.last for tr in self._tracks.values() if tr.confirmed and tr.last is not None]

    def take_notes(self) -> list[str]:
        """The notes since the last call, oldest first (and forget them)."""
        out, self.notes = self.notes, []
        return out

    def feed(self, sightings: Iterable[CallSighting], auction: bool, zone_of: Callable[[float, float], str | None],
             seats: Mapping[Seat, str], told: set[tuple[object, str]], now: float) -> list[Event]:
        """One frame's bidding cards; the ``call`` events they complete.

        Args:
            sightings: the frame's ``FrameReading.calls``.
            auction: whether the table is in the auction.
            zone_of: frame px -> the table zone there (or None).
            seats: seat -> the zone of that seat's area.
            told: the watcher's (code, event type) pairs told this phase; a call is told once a phase.
            now: the events' time.
        """
        self._frame += 1
        seen: dict[CallCode, CallSighting] = {}
        for s in sightings:
            seen.setdefault(s.code, s)
        for code in set(seen) - set(self._tracks):
            self._tracks[code] = _CallTrack(deque(maxlen=self.n), self._frame)
        events: list[Event] = []
        order = sorted(self._tracks, key=lambda c: (self._tracks[c].first, SEATS.index(c.seat.value),
                                                    c.call.rank, c.call.kind.value, c.copy))
        for code in order:
            tr = self._tracks[code]
            s = seen.get(code)
            tr.seen.append(s is not None)
            if s is not None:
                tr.last, tr.missing = s, 0
            else:
                tr.missing += 1
            news = not tr.confirmed and sum(tr.seen) >= self.k
            if news:
                tr.confirmed = True
                tr.taken = not auction  # outside the auction a bidding card is never a call, now or later
            if tr.confirmed and not tr.taken and s is not None:
                events.extend(self._call(code, tr, zone_of(s.x, s.y), seats, told, now))
            if tr.missing >= self.m or (not tr.confirmed and not any(tr.seen)):
                del self._tracks[code]
        return events

    def _call(self, code: CallCode, tr: _CallTrack, zone: str | None, seats: Mapping[Seat, str],
              told: set[tuple[object, str]], now: float) -> list[Event]:
        owner = {z: s for s, z in seats.items()}.get(zone) if zone is not None else None
        if owner is not code.seat:
            if not tr.noted:
                tr.noted = True
                self.misplaced += 1
                where = f"in {SEAT_WORDS[owner.value]}'s zone" if owner is not None else \
                    f"outside every seat's zone ({zone or 'off the zones'})"
                self.notes.append(f"{SEAT_WORDS[code.seat.value]}'s bidding card {code.call.pbn} lies {where}: "
                                  "not taken as a call (the director enters the call if it was made)")
            return []
        tr.taken = True
        if (code, "call") in told:
            return []  # this auction's call already, hidden a while and seen again
        told.add((code, "call"))
        return [event_from_dict({"type": "call", "seat": code.seat.value, "call": code.call.code, "t": now})]
