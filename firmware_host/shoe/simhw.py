"""Simulated shoe hardware: a real shuffled pack, a dealer pulling cards, and the faults of issue 3.

``SimHardware`` implements the firmware's hardware layer (``hardware/shoe/firmware/shoefw/hal.py``):
the card-exit sensor sees each card for ``pass_ms``, the face reader decodes the card's printed code,
the back-side detector sees a face when the card is face up; with ``boards`` (protocol 1.2) a gate
sends each card to the pocket the firmware routes it to, or to the reject exit. It acts out physics;
it knows nothing of the protocol. ``Injection`` describes a fault for one deal (or board).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

from laws.cards import Card

PACK_KINDS = ("face_up", "duplicate", "surplus", "missing", "unreadable", "foreign", "stray", "jam")
STREAM_KINDS = ("garbage", "drop")
KINDS = PACK_KINDS + STREAM_KINDS


def payload(pack: str, card: Card) -> str:
    """The text printed in a card's code (card code version 1, ``vision/CARD_CODES.md``)."""
    from vision.codes import encode_payload

    return encode_payload(pack, card)


@dataclass(frozen=True)
class Injection:
    """A fault at card ``at`` (1-based, in dealing order) of one deal; ``at`` None: a seeded random card."""

    kind: str
    at: int | None = None

    @classmethod
    def parse(cls, spec: str) -> Injection:
        """``"face_up@7"``, ``"drop"``... Raises ValueError naming the faulty part."""
        kind, _, at = spec.strip().partition("@")
        if kind not in KINDS:
            raise ValueError(f"unknown injection {kind!r} in {spec!r} (want one of {', '.join(KINDS)})")
        if not at:
            return cls(kind)
        if not at.isdigit() or int(at) < 1:
            raise ValueError(f"injection {spec!r}: card number {at!r} is not a positive whole number")
        return cls(kind, int(at))

    def __str__(self) -> str:
        return self.kind if self.at is None else f"{self.kind}@{self.at}"


@dataclass
class PhysCard:
    """A card as the sensors meet it."""

    card: Card
    pack: str
    face_up: bool = False
    readable: bool = True
    jams: bool = False
    after: list[str] = field(default_factory=list)    # stream faults once it has left
    went: int | None = None                             # the pocket (0-3) or REJECT it went to, if routed


class SimHardware:
    """The hardware layer for the firmware, plus the dealer's hands.

    Args:
        clock_ms: the millisecond clock shared with the firmware.
        pass_ms: how long a card blocks the exit sensor; gap_ms: pause between cards.
        jam_ms: how long a jammed card blocks the exit (longer than the firmware's jam threshold).
        boards: the shoe has the pockets and reject exit that dealing boards needs (``CAP_BOARDS``).
    """

    def __init__(self, clock_ms: object, *, pass_ms: int = 5, gap_ms: int = 10, jam_ms: int = 400,
                 boards: bool = True) -> None:
        self.ticks_ms = clock_ms
        self.pass_ms = pass_ms
        self.gap_ms = gap_ms
        self.jam_ms = jam_ms
        self.well: list[PhysCard] = []
        self.slot: PhysCard | None = None
        self.slot_until = 0
        self.next_pull = 0
        self.code_pending = False
        self.buttons: deque[tuple[int, int]] = deque()
        self.lamps: dict[int, tuple[int, int]] = {}
        self.left: list[PhysCard] = []           # every card that left the shoe, in order
        self.boards = boards
        self.pockets: dict[int, list[PhysCard]] = {}     # where routed cards went (REJECT: the reject exit)
        self._gate: int | None = None

    # --- the hardware layer the firmware calls -------------------------------------------------

    def exit_blocked(self) -> bool:
        return self.slot is not None

    def read_code(self) -> tuple[str, int] | None:
        if self.slot is None or not self.code_pending:
            return None
        self.code_pending = False
        if not self.slot.readable:
            return None
        return payload(self.slot.pack, self.slot.card), 96

    def back_shows_face(self) -> bool | None:
        return None if self.slot is None else self.slot.face_up

    def pack_present(self) -> bool:
        return bool(self.well)

    def take_buttons(self) -> list[tuple[int, int]]:
        out = list(self.buttons)
        self.buttons.clear()
        return out

    def set_lamp(self, lamp: int, mode: int, colour: int) -> None:
        self.lamps[lamp] = (mode, colour)

    def route(self, dest: int) -> None:
        if not self.boards:
            raise RuntimeError("this shoe has no gate: the firmware routed a card it cannot route")
        self._gate = dest

    def capabilities(self) -> int:
        return 0x7F if self.boards else 0x3F

    # --- physics ------------------------------------------------------------------------------

    def load(self, cards: list[PhysCard]) -> None:
        """Put a pack in the well (top card first)."""
        self.well = list(cards)

    def gather(self) -> list[PhysCard]:
        """Take every card left in the well out (before a new pack goes in)."""
        rest, self.well = self.well, []
        return rest

    def step(self, now: int, dealing: bool) -> PhysCard | None:
        """Advance the dealer's hands by at most one change; returns the card that just left, if any."""
        if self.slot is not None:
            if now >= self.slot_until:
                card, self.slot = self.slot, None
                self.left.append(card)
                if self._gate is not None:
                    card.went = self._gate
                    self.pockets.setdefault(self._gate, []).append(card)
                    self._gate = None
                self.next_pull = now + self.gap_ms
                return card
            return None
        if dealing and self.well and now >= self.next_pull:
            self.slot = self.well.pop(0)
            self.code_pending = True
            self.slot_until = now + (self.jam_ms if self.slot.jams else self.pass_ms)
        return None

    def pace(self, now: int, gap_ms: int, first_ms: int | None = None) -> None:
        """The dealer's hands deal a card every ``gap_ms`` from now on, the next one ``first_ms`` from ``now``
        (``gap_ms`` when None; a long ``first_ms`` holds the dealing until paced again)."""
        self.gap_ms = gap_ms
        self.next_pull = now + (gap_ms if first_ms is None else first_ms)

    def next_change(self, now: int, dealing: bool) -> int | None:
        """Milliseconds until ``step`` may change something (None: nothing pending)."""
        if self.slot is not None:
            return max(0, self.slot_until - now)
        if dealing and self.well:
            return max(0, self.next_pull - now)
        return None


def shuffled_pack(cards: tuple[Card, ...], pack: str, rng: random.Random) -> list[PhysCard]:
    """A freshly shuffled pack, top card first."""
    order = list(cards)
    rng.shuffle(order)
    return [PhysCard(c, pack) for c in order]


def apply_faults(phys: list[PhysCard], faults: list[Injection], rng: random.Random, dealt: int) -> None:
    """Apply faults to a pack about to be dealt. Card numbers count dealing order (1 = top); faults
    without a number get a seeded random one among the first ``dealt`` cards."""
    for f in faults:
        if not phys:
            return
        at = f.at if f.at is not None else rng.randint(1, dealt)
        i = min(at, len(phys)) - 1
        if f.kind == "face_up":
            phys[i].face_up = True
        elif f.kind == "unreadable":
            phys[i].readable = False
        elif f.kind == "jam":
            phys[i].jams = True
        elif f.kind == "foreign":
            phys[i] = PhysCard(phys[i].card, "X9" if phys[i].pack != "X9" else "Y9")
        elif f.kind == "stray":         # a card of another pack slipped in; the pack is still whole
            other = rng.choice(phys)
            phys.insert(i, PhysCard(other.card, "X9" if other.pack != "X9" else "Y9"))
        elif f.kind == "duplicate":
            twin = rng.choice([p for p in phys if p is not phys[i]] or phys)
            phys.insert(i, PhysCard(twin.card, twin.pack))
        elif f.kind == "surplus":       # a second copy of the card under the pack: never dealt, left in the well
            phys.append(PhysCard(phys[i].card, phys[i].pack))
        elif f.kind == "missing":
            del phys[i]
        else:
            phys[i].after.append(f.kind)
