"""The annotated board session of PROTOCOL.md section 12.1: the reference firmware (on the simulated
hardware of ``tests/shoe/mpy/simhal.py``) finishing a board against the reference host (``ShoeSession``
with a ``BoardTracker``), one millisecond at a time.

The board's first attempt placed all but five cards; the operator puts those five back in the well,
with a card of another pack among them, a second ace of spades and the four of diamonds whose code
got smudged; the two of clubs is not there. So the shoe places three, rejects three, runs empty and
reports the four of diamonds and the two of clubs missing. The operator then puts those two (cleaned)
in the well, the host sends the board again with the fifty placed cards marked, and the board is whole.

``board_session()`` builds it (``make_vectors`` stores it under ``board_session``); ``replay_host()``
feeds the stored shoe frames to a fresh host; ``render()`` gives the listing (``session_example``'s).
"""

from __future__ import annotations

import hashlib
from typing import Any

from firmware_host.shoe import codec
from firmware_host.shoe import messages as m
from firmware_host.shoe.boards import BoardTracker, board_id_of, deal_board
from firmware_host.shoe.firmware import load_firmware
from firmware_host.shoe.session import ShoeSession
from laws.cards import RANKS, SUITS, Card, Seat, clockwise_from
from tests.shoe.session_example import _frames, _simhal, describe

SESSION_ID = 0x01020305
BOOT_ID = 0x5EED0002
BOARD = 7
PACK = "B7"
# A deal written as PBN from North (PBN 2.1's [Deal] tag: four hands, each spades.hearts.diamonds.clubs).
PBN = "N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84"
FINGERPRINT = hashlib.sha256(PBN.encode("ascii")).hexdigest()     # docs/handrecords.md's definition
NOT_PLACED = ("AS", "TH", "QC", "4D", "2C")     # left after the first attempt
MS = 80
RELOAD_AT = 45                                  # the operator puts the two missing cards in


def record() -> tuple[Seat, ...]:
    """The 52 seats of ``PBN`` in canonical card order."""
    seat_of: dict[Card, Seat] = {}
    first, hands = PBN.split(":")
    for seat, hand in zip(clockwise_from(Seat(first)), hands.split()):
        for suit, ranks in zip(SUITS, hand.split(".")):
            for r in ranks:
                seat_of[Card(r, suit)] = seat
    return tuple(seat_of[Card(r, s)] for s in SUITS for r in RANKS)


def first_command() -> m.DealBoard:
    placed = [c for c in codec.PACK if c.code not in NOT_PLACED]
    return deal_board(BOARD, record(), FINGERPRINT, pack=PACK, placed=placed)


def well(sim: Any) -> list[str]:
    """What the operator puts in: AS, KH of pack A1, TH, AS again, 4D smudged (unreadable), QC."""
    return [sim.payload(PACK, "AS"), sim.payload("A1", "KH"), sim.payload(PACK, "TH"), sim.payload(PACK, "AS"),
            "", sim.payload(PACK, "QC")]


class _Host:
    """The reference host at a dealing station: sends the board once the pack is loaded, acknowledges
    each message as soon as it has it, and sends the board again (``BoardTracker.again``) when the pack
    it ran out of is put back."""

    def __init__(self) -> None:
        self.session = ShoeSession(session_id=SESSION_ID)
        self.board: BoardTracker | None = None
        self.results: list[Any] = []

    def receive(self, data: bytes, now: float) -> bytes:
        events, out = self.session.receive(data, now)
        out += self.session.acknowledge(self.session.expected - 1)
        for ev in events:
            if self.board is not None:
                self.results += self.board.feed(ev)
            if isinstance(ev, m.PackLoaded):
                if self.board is None:
                    cmd, data = self.session.command(first_command(), now)
                    self.board = BoardTracker(cmd)
                else:
                    cmd, data = self.session.command(self.board.again(), now)
                    self.board = BoardTracker(cmd, seen=self.board.seen)
                out += data
        return out


def board_session() -> dict[str, Any]:
    sim = _simhal()
    shoe_mod, _wire = load_firmware()
    hal = sim.SimHal(well(sim), pass_ms=3, gap_ms=2)
    writes: list[bytes] = []
    port = sim.MemPort()
    port.write = writes.append
    shoe = shoe_mod.Shoe(hal, port, BOOT_ID, shoe_id="station-1", heartbeat_ms=100_000)
    host = _Host()
    steps: list[dict[str, Any]] = []
    to_shoe = {1: host.session.connection_made(0.0)}
    steps += [dict(t=1, **{"from": "host"}, hex=f.hex()) for f in _frames(to_shoe[1])]
    reload = [sim.payload(PACK, "4D"), sim.payload(PACK, "2C")]
    for t in range(MS):
        hal.ms = t
        if t == RELOAD_AT:
            hal.well = list(reload)
        port.inbox.extend(to_shoe.pop(t, b""))
        hal.step(shoe.dealing and not shoe.paused)
        shoe.poll()
        out = b""
        for w in writes:
            steps.append(dict(t=t, **{"from": "shoe"}, hex=bytes(w).hex(), lost=False))
            out += host.receive(bytes(w), t / 1000)
        writes.clear()
        out += host.session.tick(t / 1000)[1]
        if out:
            to_shoe[t + 1] = to_shoe.get(t + 1, b"") + out
            steps += [dict(t=t + 1, **{"from": "host"}, hex=f.hex()) for f in _frames(out)]
    steps = sorted((s for s in steps if s["t"] < MS), key=lambda s: (s["t"], s["from"] == "shoe"))
    for s in steps:
        s["note"] = describe(bytes.fromhex(s["hex"]))
    return dict(well=well(sim), operator=[dict(t=RELOAD_AT, well=reload)], pass_ms=3, gap_ms=2,
                boot_id=BOOT_ID, shoe_id="station-1", heartbeat_ms=100_000, session_id=SESSION_ID, ms=MS,
                board=BOARD, board_id=board_id_of(FINGERPRINT), pbn=PBN, steps=steps,
                pockets={str(k): v for k, v in sorted(hal.pockets.items())})


def replay_host(doc: dict[str, Any]) -> tuple[list[dict[str, Any]], list[Any]]:
    """The host's frames (``t`` = when the shoe gets them) for the stored shoe frames of ``doc``, and
    what its board tracker reported."""
    host = _Host()
    got = [dict(t=1, hex=f.hex()) for f in _frames(host.session.connection_made(0.0))]
    shoe: dict[int, list[dict[str, Any]]] = {}
    for s in doc["steps"]:
        if s["from"] == "shoe":
            shoe.setdefault(s["t"], []).append(s)
    for t in range(doc["ms"]):
        out = b""
        for s in shoe.get(t, []):
            out += host.receive(bytes.fromhex(s["hex"]), t / 1000)
        out += host.session.tick(t / 1000)[1]
        got += [dict(t=t + 1, hex=f.hex()) for f in _frames(out) if t + 1 < doc["ms"]]
    return got, host.results
