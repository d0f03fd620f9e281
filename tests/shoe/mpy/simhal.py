"""A simulated shoe in the subset of Python both MicroPython and CPython run: a millisecond clock the
caller advances, a well of cards (their printed codes), a dealer that pulls a card every ``gap_ms``
while the shoe deals and not paused, and a memory port. ``cardtable``'s own ``SimHardware`` does more
(faults, threads, pty); this one exists so the firmware can run byte for byte the same under both VMs.
"""

ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
RANKS = "AKQJT98765432"
SUITS = "SHDC"


def check_char(data):
    """ISO 7064 MOD 37,36 (a second, independent copy: the card code's check character)."""
    m = 36
    p = m
    for ch in data:
        s = (p + ALPHABET.index(ch)) % m or m
        p = (2 * s) % (m + 1)
    return ALPHABET[(m + 1 - p) % m]


def payload(pack, card):
    text = "1" + pack + card
    return text + check_char(text)


def shuffled(pack, seed):
    """A 52-card pack in an order fixed by ``seed`` (a 32-bit LCG: same on every VM)."""
    cards = [r + s for s in SUITS for r in RANKS]
    x = seed & 0xFFFFFFFF
    for i in range(len(cards) - 1, 0, -1):
        x = (x * 1103515245 + 12345) & 0x7FFFFFFF
        j = x % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return [payload(pack, c) for c in cards]


class MemPort:
    def __init__(self):
        self.inbox = bytearray()
        self.out = bytearray()

    def read(self):
        if not self.inbox:
            return None
        data = bytes(self.inbox)
        self.inbox = bytearray()
        return data

    def write(self, data):
        self.out.extend(data)

    def take(self):
        data = bytes(self.out)
        self.out = bytearray()
        return data


class SimHal:
    """The hardware layer. Each entry of ``well`` is a card's printed text, or "" for a card whose
    code cannot be read. ``face_up`` holds the numbers (1-based, in pulling order) of cards that
    leave face up; card number ``jam_at`` blocks the exit for ``jam_ms``."""

    def __init__(self, well, pass_ms=3, gap_ms=2, face_up=(), jam_at=0, jam_ms=0):
        self.ms = 0
        self.well = list(well)
        self.pulled = 0
        self.face_up = face_up
        self.jam_at = jam_at
        self.jam_ms = jam_ms
        self.pass_ms = pass_ms
        self.gap_ms = gap_ms
        self.slot = None
        self.slot_face = False
        self.slot_until = 0
        self.next_pull = 0
        self.pending = False
        self.lamps = {}
        self.buttons = []
        self.gate = 5                  # where the card in the exit goes (5: the reject exit)
        self.pockets = {}              # destination -> the texts of the cards that went there
        self.late = ()                 # numbers of cards whose code is decoded only once they have left
        self.late_code = None

    def step(self, dealing):
        """Advance the dealer's hands at the current millisecond."""
        if self.slot is not None:
            if self.ms >= self.slot_until:
                self.pockets.setdefault(self.gate, []).append(self.slot)
                if self.pulled in self.late and self.slot:
                    self.late_code = self.slot         # the reader answers after the card is gone
                self.slot = None
                self.gate = 5
                self.next_pull = self.ms + self.gap_ms
            return
        if dealing and self.well and self.ms >= self.next_pull:
            self.slot = self.well.pop(0)
            self.pulled += 1
            self.slot_face = self.pulled in self.face_up
            self.pending = True
            hold = self.jam_ms if self.pulled == self.jam_at else self.pass_ms
            self.slot_until = self.ms + hold

    def ticks_ms(self):
        return self.ms

    def exit_blocked(self):
        return self.slot is not None

    def read_code(self):
        if self.slot is None and self.late_code is not None:
            code, self.late_code = self.late_code, None
            return code, 96
        if self.slot is None or not self.pending or self.pulled in self.late:
            return None
        self.pending = False
        if not self.slot:
            return None
        return self.slot, 96

    def back_shows_face(self):
        return None if self.slot is None else self.slot_face

    def pack_present(self):
        return bool(self.well)

    def take_buttons(self):
        out = self.buttons
        self.buttons = []
        return out

    def set_lamp(self, lamp, mode, colour):
        self.lamps[lamp] = (mode, colour)

    def route(self, dest):
        self.gate = dest

    def capabilities(self):
        return 0x7F
