"""From sightings to law-engine events: ``TableWatcher``.

A card counts as seen only when its code is decoded in ``k`` of the last ``n`` frames, and as gone
after ``m`` frames without it, so a single misread never becomes a ruling. What a newly seen card
means depends on the table phase, which the controller sets:

| phase   | a face-up card newly seen ...      | event                                   |
|---------|------------------------------------|-----------------------------------------|
| draw    | in a candidate's zone              | ``CardsDrawn`` once every zone has one  |
| shuffle | anywhere                           | ``CardFaced(where="pack")``             |
| cut     | anywhere                           | ``CardFaced(where="cut")``              |
| deal    | anywhere                           | ``CardFaced(where="deal")``             |
| play    | in the centre                      | ``CardPlayed`` by the nearest seat      |
| play    | in a seat's zone (not dummy's)     | ``CardFaced(where="table", by=seat)``   |
| auction | in the centre (the opening lead)   | ``CardPlayed`` by the nearest seat      |
| auction | in a seat's zone                   | ``CardFaced(where="table", by=seat)``   |
| idle    | anywhere                           | nothing                                 |

Bidding cards (``vision.calls_seen``) mean something in the auction alone:

| phase   | a bidding card newly seen ...                       | event                              |
|---------|-----------------------------------------------------|------------------------------------|
| auction | in the zone of the seat its code names              | ``call`` by that seat              |
| auction | in another seat's zone, or in no seat's zone        | none: a note (``take_notes``)      |
| other   | anywhere                                            | nothing                            |

The bidding cards of earlier calls stay on the table until the auction is over and are not new calls;
those already there when the auction begins are not calls either. A misplaced one moved into its own
seat's zone during the auction is that seat's call then.

A card announced once stays announced until the phase changes: a hand held over a card for more than
``m`` frames makes it "gone", and when the hand moves it is seen again, but it is the same card on the
table, not a second play or a second exposure. In play, a card already on the table (dummy's, or one
exposed in a hand's zone) is played when it is moved into the centre.

In every phase a code that reads only with heavy error correction in each of the last ``n`` reads,
or a card shape in which no code reads for ``n`` frames running while other cards read, gives
``DamagedCardFound`` (not for a shape where a bidding card was read this phase: a stack or fan of them with
every code covered in a frame is shaped like a card). Every card event carries the pack id its code names; codes of packs outside
``packs`` are logged as foreign and counted in ``foreign_packs``.
"""

from __future__ import annotations

import logging
import math
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

from laws.cards import Card, Seat
from laws.events import CardFaced, CardPlayed, CardsDrawn, DamagedCardFound, Event
from vision.calls_seen import CallWatch
from vision.codes import CardCode
from vision.decode import CallSighting, Decoder, FrameError, Sighting, _area
from vision.members_seen import MemberWatch
from vision.zones import (
    CENTRE,
    SEAT_ZONES,
    ConfigError,
    VisionConfig,
    Zones,
    default_homography,
    parse_vision_sections,
    to_table,
)

log = logging.getLogger(__name__)


class WatchPhase(StrEnum):
    """Where the watcher thinks the deal is, from what the camera sees (the engine's own is ``laws.state.Phase``)."""
    DRAW = "draw"
    SHUFFLE = "shuffle"
    CUT = "cut"
    DEAL = "deal"
    PLAY = "play"
    AUCTION = "auction"  # bridge: after the deal, until the play
    IDLE = "idle"


_PLAYING = (WatchPhase.PLAY, WatchPhase.AUCTION)  # a card in the centre is played; one in a seat's zone exposed


# Where a card faced in each phase lies, in the event format's words.
FACED_WHERE = {WatchPhase.SHUFFLE: "pack", WatchPhase.CUT: "cut", WatchPhase.DEAL: "deal"}


@dataclass
class _Track:
    seen: deque[bool]
    heavy: deque[bool]
    missing: int = 0
    confirmed: bool = False
    damage_reported: bool = False
    last: Sighting | None = None
    zone: str | None = None  # in play, the zone it was last seen in
    first: int = 0  # the frame it was first read in: cards confirmed together are told in this order


@dataclass
class _Blob:
    x: float
    y: float
    seen: deque[bool]
    missing: int = 0
    reported: bool = False


@dataclass(frozen=True)
class CardOnTable:
    """A confirmed card: where it is (frame px and table mm), its zone, face up or not."""

    pack: str
    card: Card | None
    x: float
    y: float
    table_x: float
    table_y: float
    zone: str | None


@dataclass
class WatcherStats:
    frames: int = 0
    corrupt_frames: int = 0
    rejected: Counter[str] = field(default_factory=Counter)
    misplaced_calls: int = 0  # bidding cards confirmed outside their own seat's zone in the auction


class TableWatcher:
    """Turns camera frames into law-engine events (see the module docstring)."""

    def __init__(self, decoder: Decoder, zones: Zones | None = None, k: int = 2, n: int = 3, m: int = 5,
                 clock: Callable[[], float] = time.monotonic, *, homography: np.ndarray | None = None,
                 table_mm: tuple[float, float] = (800.0, 450.0), packs: Iterable[str] = ()) -> None:
        """Args:
            decoder: a backend from ``vision.decode.make_decoder``.
            zones: the table's zones (default ``vision.zones.DEFAULT_ZONES``).
            k, n, m: confirm after k reads in the last n frames; gone after m frames unseen.
            clock: gives each event's ``t``.
            homography: frame px -> table mm; default fits the frame to ``table_mm``.
            packs: the pack ids in play; other packs are flagged as foreign.
        """
        if not 1 <= k <= n or m < 1:
            raise ValueError(f"want 1 <= k <= n and m >= 1, got k={k} n={n} m={m}")
        self.decoder = decoder
        self.zones = zones or Zones()
        self.k, self.n, self.m = k, n, m
        self.clock = clock
        self.homography = homography
        self.table_mm = table_mm
        self.packs = set(packs)
        self.phase = WatchPhase.IDLE
        self.seats: dict[Seat, str] = {Seat(z): z for z in SEAT_ZONES}
        self.names: dict[str, str] = {z: z for z in SEAT_ZONES}
        self.dummy: Seat | None = None
        self.stats = WatcherStats()
        self.foreign_packs: Counter[str] = Counter()
        self.face_down: int = 0
        self._tracks: dict[CardCode, _Track] = {}
        self._blobs: list[_Blob] = []
        self._draw: dict[str, Card] = {}
        self._drawn = False
        self._recent_packs: deque[str] = deque(maxlen=64)
        self._announced: set[tuple[object, str]] = set()  # (card or call code, event type) told this phase
        self._call_spots: dict[object, tuple[float, float, float]] = {}  # bidding codes read this phase: x, y, side
        self._calls = CallWatch(k, n, m)
        self._members = MemberWatch(k, n, m)

    def set_phase(self, phase: WatchPhase | str, *, seats: Mapping[Seat, str] | None = None,
                  names: Mapping[str, str] | None = None, packs: Iterable[str] | None = None,
                  dummy: Seat | None = None) -> None:
        """Tell the watcher what the table is doing now.

        Args:
            phase: ``draw``, ``shuffle``, ``cut``, ``deal``, ``auction``, ``play`` or ``idle``.
            seats: seat -> zone name of that seat's area (default each seat's own zone).
            names: in the draw, zone name -> candidate's name (default the four seat zones).
            packs: the pack ids in play (others are foreign).
            dummy: in play, the seat whose exposed hand lies in its zone.
        """
        self.phase = WatchPhase(phase)
        if seats is not None:
            self.seats = dict(seats)
        if names is not None:
            self.names = dict(names)
        if packs is not None:
            self.packs = set(packs)
        self.dummy = dummy
        self._announced.clear()
        self._call_spots.clear()
        self._calls.begin()
        self._draw.clear()
        self._drawn = False

    def visible(self) -> list[CardOnTable]:
        """The confirmed cards now on the table."""
        out = []
        for code, tr in self._tracks.items():
            if tr.confirmed and tr.last is not None:
                tx, ty, zone = self._where(tr.last.x, tr.last.y)
                out.append(CardOnTable(code.pack, code.card, tr.last.x, tr.last.y, tx, ty, zone))
        return out

    def visible_calls(self) -> list[CallSighting]:
        """The confirmed bidding cards now on the table."""
        return self._calls.visible()

    def take_notes(self) -> list[str]:
        """What the watcher saw that is no event but a person should read (a bidding card in the wrong
        zone), oldest first; each note is given once."""
        return self._calls.take_notes()

    def take_members(self) -> list[tuple[Seat, str]]:
        """The member cards newly seen at a seat, ``(seat, member number)``, oldest first; each once."""
        return self._members.take()

    def _where(self, x: float, y: float) -> tuple[float, float, str | None]:
        assert self.homography is not None
        tx, ty = to_table(self.homography, x, y)
        return tx, ty, self.zones.zone_at(tx, ty)

    def feed(self, frame: np.ndarray) -> list[Event]:
        """Decode one frame and return the events it completes (often none).

        A frame that is not an image is counted in ``stats.corrupt_frames`` and logged, never raised.
        """
        self.stats.frames += 1
        try:
            reading = self.decoder.read(frame)
        except FrameError as exc:
            self.stats.corrupt_frames += 1
            log.warning("frame %d skipped: %s", self.stats.frames, exc)
            return []
        if self.homography is None:
            h, w = frame.shape[:2]
            self.homography = default_homography((w, h), self.table_mm)
        for r in reading.rejections:
            self.stats.rejected[r.reason] += 1
        now = self.clock()
        events: list[Event] = []
        seen: dict[CardCode, Sighting] = {}
        backs = 0
        for s in reading.sightings:
            self._recent_packs.append(s.code.pack)
            if self.packs and s.code.pack not in self.packs:
                if self.foreign_packs[s.code.pack] == 0:
                    log.warning("a card of foreign pack %s seen", s.code.pack)  # never which card: hands are secret
                self.foreign_packs[s.code.pack] += 1
            if s.code.is_back:
                backs += 1
                continue
            seen.setdefault(s.code, s)
        self.face_down = backs
        for code in set(seen) - set(self._tracks):
            self._tracks[code] = _Track(deque(maxlen=self.n), deque(maxlen=self.n), first=self.stats.frames)
        for code in sorted(self._tracks, key=lambda c: (self._tracks[c].first, c.pack, c.card)):
            tr = self._tracks[code]
            s = seen.get(code)
            tr.seen.append(s is not None)
            if s is not None:
                tr.last = s
                tr.missing = 0
                tr.heavy.append(s.heavy_ec)
            else:
                tr.missing += 1
            if not tr.confirmed and sum(tr.seen) >= self.k:
                tr.confirmed = True
                events.extend(self._on_seen(code, tr, now))
            elif tr.confirmed and s is not None and self.phase in _PLAYING:
                events.extend(self._moved(code, tr, now))
            if tr.confirmed and not tr.damage_reported and len(tr.heavy) == self.n and all(tr.heavy):
                tr.damage_reported = True
                assert code.card is not None
                log.info("a card of pack %s reads only with heavy error correction", code.pack)
                events.append(DamagedCardFound(code.card, code.pack, t=now))
            if tr.missing >= self.m or (not tr.confirmed and not any(tr.seen)):
                del self._tracks[code]
        unread = reading.unreadable
        for c in reading.calls:
            self._call_spots[(c.code.seat, c.code.call, c.code.copy)] = (c.x, c.y, math.sqrt(_area(c.corners)))
        if self._call_spots:
            # Bidding cards laid over each other or fanned, whose codes all happen to be covered in a frame,
            # are shaped like a card: a shape within two and a half of a bidding code's sides of where one
            # was read is those bidding cards, never a damaged card of the pack (CARD_CODES.md).
            unread = tuple(u for u in unread if all(math.dist(u, (x, y)) > 2.5 * side
                                                   for x, y, side in self._call_spots.values()))
        events.extend(self._unreadable(unread, bool(reading.sightings or reading.calls), now))
        events.extend(self._calls.feed(reading.calls, self.phase is WatchPhase.AUCTION,
                                       lambda x, y: self._where(x, y)[2], self.seats, self._announced, now))
        self.stats.misplaced_calls = self._calls.misplaced
        self._members.feed(reading.rejections, lambda x, y: self._where(x, y)[2], self.seats)
        return events

    def _pack_in_play(self) -> str:
        if len(self.packs) == 1:
            return next(iter(self.packs))
        if self._recent_packs:
            return Counter(self._recent_packs).most_common(1)[0][0]
        return "?"

    def _unreadable(self, centres: Iterable[tuple[float, float]], others_read: bool, now: float) -> list[Event]:
        events: list[Event] = []
        matched: set[int] = set()
        for x, y in centres:
            best = min(range(len(self._blobs)), default=None,
                       key=lambda i: math.dist((self._blobs[i].x, self._blobs[i].y), (x, y)))
            if best is not None and best not in matched and \
                    math.dist((self._blobs[best].x, self._blobs[best].y), (x, y)) < 40:
                b = self._blobs[best]
                b.x, b.y = x, y
            else:
                b = _Blob(x, y, deque(maxlen=self.n))
                self._blobs.append(b)
                best = len(self._blobs) - 1
            matched.add(best)
            b.seen.append(others_read)
            b.missing = 0
        for i, b in enumerate(self._blobs):
            if i not in matched:
                b.seen.append(False)
                b.missing += 1
            if not b.reported and len(b.seen) == self.n and all(b.seen):
                b.reported = True
                tx, ty, zone = self._where(b.x, b.y)
                log.info("card at (%.0f, %.0f) px, zone %s: its code does not read", b.x, b.y, zone)
                events.append(DamagedCardFound(None, self._pack_in_play(), t=now))
        self._blobs = [b for b in self._blobs if b.missing < self.m]
        return events

    def _on_seen(self, code: CardCode, tr: _Track, now: float) -> list[Event]:
        """The events a newly confirmed card gives, less those already told this phase."""
        fresh = []
        for e in self._meaning(code, tr, now):
            key = (code, e.TYPE)
            if key in self._announced:
                log.debug("a card of %s seen again after it was hidden; already told", code.pack)
                continue
            self._announced.add(key)
            fresh.append(e)
        return fresh

    def _moved(self, code: CardCode, tr: _Track, now: float) -> list[Event]:
        """In play, a card already on the table (dummy's, or one exposed in a hand's zone) that is
        moved into the centre is played then."""
        assert tr.last is not None
        zone = self._where(tr.last.x, tr.last.y)[2]
        before, tr.zone = tr.zone, zone
        if zone == CENTRE and before != CENTRE:
            return self._on_seen(code, tr, now)
        return []

    def _meaning(self, code: CardCode, tr: _Track, now: float) -> list[Event]:
        assert tr.last is not None and code.card is not None
        card, pack = code.card, code.pack
        tx, ty, zone = self._where(tr.last.x, tr.last.y)
        tr.zone = zone
        seat_of_zone = {z: s for s, z in self.seats.items()}
        log.debug("seen a card of %s in zone %s during %s", pack, zone, self.phase)
        if self.phase in FACED_WHERE:
            return [CardFaced(card, FACED_WHERE[self.phase], pack=pack, t=now)]
        if self.phase is WatchPhase.DRAW:
            if zone in self.names and zone not in self._draw and not self._drawn:
                self._draw[zone] = card
                if len(self._draw) == len(self.names):
                    self._drawn = True
                    return [CardsDrawn(tuple((self.names[z], c) for z, c in self._draw.items()), t=now)]
            return []
        if self.phase in _PLAYING:
            if zone == CENTRE:
                nearest = self.zones.nearest_seat(tx, ty, among=tuple(self.seats.values()))
                if nearest is None:
                    return []
                return [CardPlayed(seat_of_zone[nearest], card, pack=pack, t=now)]
            if zone in seat_of_zone and seat_of_zone[zone] != self.dummy:
                return [CardFaced(card, "table", by=seat_of_zone[zone], pack=pack, t=now)]
        return []

def build_watcher(cfg: VisionConfig, clock: Callable[[], float] = time.monotonic,
                  packs: Iterable[str] = ()) -> TableWatcher:
    """A watcher set up from validated configuration (decoder, k/n/m, zones, stored homography).

    Raises:
        vision.calibrate.CalibrationError: the homography file named in the config cannot be used.
    """
    from vision.calibrate import load_homography
    from vision.decode import make_decoder

    hom = load_homography(cfg.homography_file) if cfg.homography_file else None
    return TableWatcher(make_decoder(cfg.decoder, cfg.heavy_ec_below, cfg.variants,
                                     cfg.remedies if cfg.decoder == "zxing" else None, cfg.table_mm), cfg.zones, cfg.confirm_k, cfg.confirm_n,
                        cfg.gone_m, clock, homography=hom, table_mm=cfg.table_mm, packs=packs)


def from_sections(vision: Mapping[str, Any], zones: Mapping[str, Any] | None, origin: str,
                  camera_decoder: str | None = None) -> VisionConfig:
    """``vision.zones.parse_vision_sections``, and the homography file it names read: what a table checks of
    its ``[vision]`` and ``[zones]`` at start.

    Raises:
        ConfigError: naming ``origin`` and the key (or the homography file) that is wrong.
    """
    from vision.calibrate import CalibrationError, load_homography

    cfg = parse_vision_sections(vision, zones, origin, camera_decoder)
    if cfg.homography_file:
        try:
            load_homography(cfg.homography_file)
        except CalibrationError as exc:
            raise ConfigError(f"{origin}: vision.homography_file: {exc}") from None
    return cfg
