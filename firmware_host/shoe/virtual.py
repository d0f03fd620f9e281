"""The virtual shoe: the reference firmware on CPython behind a real pseudo-terminal.

``VirtualShoe`` runs ``shoefw.shoe.Shoe`` (the firmware's own logic, loaded from
``hardware/shoe/firmware``) with ``SimHardware`` in a thread, and serves it on a pty. The path it returns
is a symlink that stays valid across simulated unplugs, like ``/dev/serial/by-id/...``. The host's
START_DEAL makes it deal; a DEAL_BOARD (protocol 1.2) makes it deal the real shuffled pack in the well to
the hand record the host sent, each card to its seat's pocket or to the reject exit (``pockets``); the
faults of ``inject`` apply to boards as to deals (a card of another pack, a duplicate, an unreadable
one, a missing one, a surplus one left in the well). After each deal or board the simulated dealer gathers the cards and loads the
next shuffled pack (unless ``reload`` is False; ``put`` loads chosen cards). Packs alternate between
the ids in ``packs``. Its shuffles and faults are deterministic for a given seed; its boot id is not (each
power-up is a new boot, as on the board).
"""

from __future__ import annotations

import logging
import os
import random
import select
import tempfile
import threading
import time
import tty
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

from firmware_host.shoe.firmware import load_firmware
from firmware_host.shoe.games import deal_plan
from firmware_host.shoe.simhw import Injection, PhysCard, SimHardware, apply_faults, shuffled_pack
from laws.cards import Seat

T = TypeVar("T")

log = logging.getLogger(__name__)
_SEAT_CODES = {Seat.N: 0, Seat.E: 1, Seat.S: 2, Seat.W: 3}


class _PtyPort:
    """The firmware's serial port: non-blocking writes into the pty master; bytes that do not fit or
    arrive while the cable is out are lost, as on a real line. With ``baud``, the line runs at that
    speed (10 bits a byte): like a UART with a small transmit FIFO, ``write`` blocks while more than
    ``fifo`` bytes wait for the line."""

    def __init__(self, baud: int | None = None, fifo: int = 32) -> None:
        self.master: int | None = None
        self.inbox = bytearray()
        self.lost = 0
        self.written = 0
        self.baud = baud
        self.fifo = fifo
        self._line_free = 0.0

    def read(self) -> bytes | None:
        if not self.inbox:
            return None
        data = bytes(self.inbox)
        self.inbox.clear()
        return data

    def write(self, data: bytes) -> None:
        if self.master is None:
            self.lost += len(data)
            return
        try:
            n = os.write(self.master, data)
        except (BlockingIOError, OSError):
            n = 0
        self.lost += len(data) - n
        self.written += n
        if self.baud:
            now = time.monotonic()
            self._line_free = max(now, self._line_free) + 10 * len(data) / self.baud
            ahead = self._line_free - now - 10 * self.fifo / self.baud
            if ahead > 0:
                time.sleep(ahead)           # the UART's FIFO is full: the firmware waits, as on the board


class VirtualShoe:
    """A shoe on a pty.

    Args:
        game: ``contract-bridge`` or ``euchre`` (which cards are in the pack).
        seed: shuffles, random fault positions and noise all follow it.
        inject: faults for the first deal, as ``Injection``s or strings like ``"face_up@7"``.
        packs: pack ids used in turn, one per deal.
        pass_ms, gap_ms: how long a card blocks the exit, and the pause between cards.
        jam_ms: the firmware's jam threshold (a jammed card blocks the exit twice as long).
        down_ms: how long a dropped connection stays down.
        directory: where the stable symlink goes (a temporary folder when None).
        protocol: the (major, minor) version the firmware claims (to try hosts against other versions;
            (1, 1) acts as a 1.1 shoe: DEAL_BOARD is a command it does not know).
        baud: run the shoe's side of the line at this speed (None: as fast as the pty goes).
        boards: the shoe has pockets and a reject exit (the board capability of protocol 1.2).
        reload: gather and load the next pack after each deal or board by itself.
    """

    def __init__(self, game: str = "contract-bridge", seed: int = 0, inject: list[Injection | str] | tuple = (),
                 *, packs: tuple[str, ...] = ("A1", "B1"), pass_ms: int = 4, gap_ms: int = 8, jam_ms: int = 200,
                 down_ms: int = 60, heartbeat_ms: int = 500, directory: str | None = None,
                 protocol: tuple[int, int] = (1, 2), baud: int | None = None, boards: bool = True,
                 reload: bool = True) -> None:
        self.plan = deal_plan(game)
        self.rng = random.Random(seed)
        self.packs = packs
        self.down_ms = down_ms
        self._lock = threading.Lock()
        self._schedule: dict[int, list[Injection]] = defaultdict(list)
        for spec in inject:
            self.inject(spec, deal=1)
        self._t0 = time.monotonic()
        self.hw = SimHardware(self._ms, pass_ms=pass_ms, gap_ms=gap_ms, jam_ms=2 * jam_ms, boards=boards)
        self.reload = reload
        self.port = _PtyPort(baud)
        shoe_mod, self.wire = load_firmware()
        self.firmware = shoe_mod.Shoe(self.hw, self.port, self._boot_id(), shoe_id="virtual-shoe",
                                      heartbeat_ms=heartbeat_ms, jam_ms=jam_ms, major=protocol[0],
                                      minor=protocol[1])
        self._own_dir = directory is None
        self._dir = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="cardtable-shoe-"))
        self.path = str(self._dir / "shoe")
        self.tty: str | None = None
        self._slave: int | None = None
        self._down_until: float | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._gather_due = False              # a deal ended: gather and reload once the exit is clear
        self.deals = 0                        # deals started so far
        self.short_boards: set[int] = set()   # boards dealt from a pack a ``missing`` fault made short
        self.drops = 0
        self.garbage_bytes = 0
        self._garble: int | None = None
        self._hooks: list[Callable[[], bool]] = []     # ``when``'s, tried after each of the shoe's steps

    # --- public -----------------------------------------------------------------------------------

    def open(self) -> str:
        """Create the pty, load the first pack, start the firmware; returns the stable port path."""
        self._plug()
        self._load_next_pack()
        self._thread = threading.Thread(target=self._run, name="virtual-shoe", daemon=True)
        self._thread.start()
        return self.path

    def close(self) -> None:
        """Stop the firmware and remove the pty."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        self._unplug()
        if self._own_dir and self._dir.exists():
            self._dir.rmdir()

    def __enter__(self) -> VirtualShoe:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def inject(self, spec: Injection | str, deal: int | None = None) -> Injection:
        """Schedule a fault for deal number ``deal`` (1-based; None: the next deal to start)."""
        inj = spec if isinstance(spec, Injection) else Injection.parse(spec)
        with self._lock:
            self._schedule[deal if deal is not None else self.deals + 1].append(inj)
        return inj

    def press(self, seat: Seat, kind: int = 1) -> None:
        """A player presses the seat button (kind 1 call, 2 demand, 3 confirm)."""
        with self._lock:
            self.hw.buttons.append((_SEAT_CODES[Seat(seat)], kind))

    def drop(self) -> None:
        """Pull the cable now; it comes back after ``down_ms``."""
        with self._lock:
            self._drop()

    def unplug(self, when: Callable[[], bool] | None = None, timeout: float = 30.0) -> int:
        """Pull the cable until ``replug``; the shoe goes on working (and numbering) meanwhile.

        ``when``: pulled at the first moment this holds (``when``), so nothing the shoe does can come between
        the check and the pull. Returns the number of the last message the shoe numbered before the cable
        went: every later one waits in its ring."""
        def pull() -> int:
            self._drop()
            self._down_until = float("inf")
            return int(self.firmware.seq)

        return self.when(when or (lambda: True), pull, timeout)

    def when(self, condition: Callable[[], bool], action: Callable[[], T], timeout: float = 30.0) -> T:
        """Do ``action`` at the first moment ``condition`` holds, on the shoe's own thread between two of its
        steps (or at once, if it holds now), and give its result: a test's or a benchmark's thread, however
        late the machine's scheduler wakes it, cannot let the shoe take a step in between. Both are called
        with the shoe's state locked.

        Raises RuntimeError when ``condition`` does not hold within ``timeout`` s; what ``action`` raises."""
        done = threading.Event()
        out: list[Any] = []

        def hook() -> bool:
            if not condition():
                return False
            try:
                out.append((True, action()))
            except Exception as exc:       # raised in the caller's thread, not the shoe's
                out.append((False, exc))
            done.set()
            return True

        with self._lock:
            if not hook():
                self._hooks.append(hook)
        if not done.wait(timeout):
            with self._lock:
                if hook in self._hooks:
                    self._hooks.remove(hook)
            if not done.is_set():
                raise RuntimeError(f"the virtual shoe: the moment waited for never came within {timeout:g} s")
        ok, value = out[0]
        if not ok:
            raise value
        return cast(T, value)

    def replug(self) -> None:
        """Put the cable back (a new pty behind the same path)."""
        with self._lock:
            self._down_until = time.monotonic()

    def reflash(self, protocol: tuple[int, int]) -> None:
        """New firmware speaking ``protocol``: the shoe restarts (new boot id, empty ring) on the same
        port, with the pack that is in the well."""
        with self._lock:
            old = self.firmware
            self.firmware = type(old)(self.hw, self.port, self._boot_id(), shoe_id=old.shoe_id,
                                      heartbeat_ms=old.heartbeat_ms, jam_ms=old.jam_ms, major=protocol[0],
                                      minor=protocol[1])

    def _boot_id(self) -> int:
        """A boot id no earlier power-up had (PROTOCOL.md 4.1: random at every power-up, or a host
        takes the new boot's messages, numbered from 1 again, for repeats of the old one's and drops them).
        Not from the seed alone: ``cardtable shoe-sim --seed 7`` started again after a crash or an unplug is
        a new power-up of the same shoe. The seed's bits are still drawn, so the shuffles stay the seed's."""
        return self.rng.getrandbits(32) ^ int.from_bytes(os.urandom(4), "big")

    def garble_next(self, mtype: int) -> None:
        """Line noise destroys the next frame of type ``mtype`` the host sends (its CRC fails)."""
        with self._lock:
            self._garble = mtype

    def load_pack(self, pack: str | None = None) -> None:
        """The dealer gathers every card, shuffles and loads a fresh pack (``pack`` names its id; by
        default the next of ``packs``). The shoe does this by itself after every deal.

        A card still in the exit (one feeding when a deal was aborted) leaves first, as a card outside a
        deal, before the dealer gathers: a real dealer cannot gather a card the exit holds, and one left
        there would leave as the next deal's first card.

        Raises:
            RuntimeError: during a deal (finish or abort it first), or the exit not clear within 5 s.
        """
        end = time.monotonic() + 5.0
        while True:
            with self._lock:
                if self.firmware.dealing:
                    raise RuntimeError("the virtual shoe is dealing; abort the deal before reloading")
                if self._exit_clear():
                    self._reload(pack)
                    return
            if time.monotonic() > end:
                raise RuntimeError("a card stays in the virtual shoe's exit; it cannot be reloaded")
            time.sleep(0.002)

    def put(self, cards: list[PhysCard]) -> None:
        """The dealer puts ``cards`` (top first) on whatever is in the well (e.g. a board's missing cards
        back after its pack ran out). Raises RuntimeError during a deal or board."""
        with self._lock:
            if self.firmware.dealing:
                raise RuntimeError("the virtual shoe is dealing; let it finish or abort it first")
            self._gather_due = False
            self.hw.well[:0] = list(cards)

    @property
    def dealt(self) -> list[PhysCard]:
        """Every card that physically left the shoe, in order."""
        return list(self.hw.left)

    @property
    def pockets(self) -> dict[int, list[PhysCard]]:
        """Where the cards of the last board went: seat codes 0-3 (N, E, S, W) and 5, the reject exit
        (a card in the exit when the board ended lands there too). A board sent again with cards
        ``placed`` adds to the pockets; a fresh one starts with them empty."""
        with self._lock:
            return {k: list(v) for k, v in self.hw.pockets.items()}

    # --- the pty ----------------------------------------------------------------------------------

    def _ms(self) -> int:
        return int((time.monotonic() - self._t0) * 1000)

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._slave = slave
        self.port.master = master
        self.tty = os.ttyname(slave)
        tmp = self.path + ".new"
        if os.path.lexists(tmp):
            os.unlink(tmp)
        os.symlink(self.tty, tmp)
        os.replace(tmp, self.path)
        self._down_until = None

    def _unplug(self) -> None:
        if os.path.lexists(self.path):
            os.unlink(self.path)
        for fd in (self.port.master, self._slave):
            if fd is not None:
                os.close(fd)
        self.port.master = None
        self._slave = None

    def _drop(self) -> None:
        if self.port.master is None:
            return
        self.drops += 1
        self._unplug()
        self._down_until = time.monotonic() + self.down_ms / 1000

    def _noise_in(self) -> None:
        with self._lock:
            if self._garble is None:
                return
            at = self.port.inbox.find(bytes((1, self._garble)))
            if at >= 0:
                self.port.inbox[at + 2] ^= 0x55
                self._garble = None

    def _garbage(self) -> None:
        noise = bytes(self.rng.getrandbits(8) for _ in range(self.rng.randint(8, 64)))
        self.garbage_bytes += len(noise)
        self.port.write(noise)

    # --- the dealer's side ------------------------------------------------------------------------

    def _exit_clear(self) -> bool:
        """No card in the exit, as the hardware and the firmware see it."""
        return self.hw.slot is None and not self.firmware.in_slot

    def _reload(self, pack: str | None = None) -> None:
        """The dealer gathers and loads the next pack (``pack``, or the next of ``packs``), once the exit is
        clear: a card still in it (a deal stopped mid-card) leaves first, else the firmware would keep its
        pack flag and never announce the next pack, and the card would leave as the next deal's first."""
        self._gather_due = False
        self.hw.gather()
        self.firmware.poll()                 # the firmware sees the empty well before the next pack
        self._load_next_pack(pack)

    def _load_next_pack(self, pack: str | None = None) -> None:
        pack = pack or self.packs[self.deals % len(self.packs)]
        self.hw.load(shuffled_pack(self.plan.pack, pack, self.rng))

    def _run(self) -> None:
        while not self._stop.is_set():
            fw = self.firmware                  # (``reflash`` replaces it)
            now_ms = self._ms()
            wait = self.hw.next_change(now_ms, fw.dealing and not fw.paused)
            timeout = 0.05 if wait is None else min(wait / 1000, 0.05)
            if fw.resend_next:
                timeout = 0.001         # a resend pass goes on at every poll, as on the board (1 ms loop)
            master = self.port.master
            if master is not None:
                try:
                    ready, _, _ = select.select([master], [], [], timeout)
                    if ready:
                        self.port.inbox += os.read(master, 4096)
                        self._noise_in()
                except OSError:
                    pass
            else:
                self._stop.wait(timeout)
            with self._lock:
                self._cycle()

    def _cycle(self) -> None:
        fw = self.firmware
        if self._down_until is not None and time.monotonic() >= self._down_until:
            self._plug()
        was_dealing = fw.dealing
        gone = self.hw.step(self._ms(), fw.dealing and not fw.paused)
        fw.poll()
        if gone is not None:
            for kind in gone.after:
                if kind == "garbage":
                    self._garbage()
                elif kind == "drop":
                    self._drop()
        if fw.dealing and not was_dealing:
            self.deals += 1
            if fw.board is not None and fw.board.count == 0:
                self.hw.pockets = {}          # a fresh board: empty pockets (one sent again continues)
            faults = self._schedule.pop(self.deals, [])
            if faults:
                log.info("virtual shoe: deal %d with %s", self.deals, ", ".join(map(str, faults)))
            if fw.board is not None and any(f.kind == "missing" for f in faults):
                self.short_boards.add(fw.board.number)
            apply_faults(self.hw.well, faults, self.rng, self.plan.cards_dealt)
        elif was_dealing and not fw.dealing:
            self._gather_due = self.reload
        if self._gather_due and self._exit_clear():
            self._reload()
        if self._hooks:
            self._hooks = [hook for hook in self._hooks if not hook()]
