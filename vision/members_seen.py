"""Member cards the camera sees (``vision/CARD_CODES.md``, "Member cards"): which member was laid at
which seat.

The decoder reports a member code among its rejected texts (no card or bidding reader takes it); this
tracker reads them with ``codes.parse_member_payload`` and confirms a member at a seat once the code is
seen there in ``k`` of the last ``n`` frames, as cards are. Each member is told once at a seat; laid there
again after ``m`` frames away, told again. Pure: frames' readings in, ``(seat, member number)`` out.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from laws.cards import Seat
from vision.codes import CodeRejected, parse_member_payload


@dataclass
class _Track:
    seen: deque[bool]
    missing: int = 0
    told: bool = False
    zones: list[str] = field(default_factory=list)


class MemberWatch:
    """Member cards confirmed at the seats (see the module docstring)."""

    def __init__(self, k: int = 2, n: int = 3, m: int = 5) -> None:
        self.k, self.n, self.m = k, n, m
        self._tracks: dict[tuple[str, str], _Track] = {}
        self._new: list[tuple[Seat, str]] = []

    def feed(self, rejections: Iterable[object], zone_of: Callable[[float, float], str | None],
             seats: Mapping[Seat, str]) -> None:
        """One frame's rejected texts (``FrameReading.rejections``: ``text``, ``x``, ``y``)."""
        seat_of = {zone: seat for seat, zone in seats.items()}
        here: set[tuple[str, str]] = set()
        for r in rejections:
            try:
                number = parse_member_payload(str(getattr(r, "text", ""))).number
            except CodeRejected:
                continue
            zone = zone_of(float(getattr(r, "x", 0.0)), float(getattr(r, "y", 0.0)))
            if zone in seat_of:
                here.add((number, zone))
        for key in here - set(self._tracks):
            self._tracks[key] = _Track(deque(maxlen=self.n))
        for key, tr in list(self._tracks.items()):
            tr.seen.append(key in here)
            tr.missing = 0 if key in here else tr.missing + 1
            if not tr.told and sum(tr.seen) >= self.k:
                tr.told = True
                self._new.append((seat_of[key[1]], key[0]))
            if tr.missing >= self.m or (not tr.told and not any(tr.seen)):
                del self._tracks[key]

    def take(self) -> list[tuple[Seat, str]]:
        """The members newly confirmed at a seat, oldest first; each given once."""
        out, self._new = self._new, []
        return out
