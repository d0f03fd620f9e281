"""The shoe protocol's messages as frozen dataclasses (PROTOCOL.md section 4), plus link status.

Shoe messages carry ``seq``: their own sequence number for numbered messages, the last number used for
the link messages ``Hello``, ``Heartbeat`` and ``Pong``. Host commands carry ``cmd`` (0 for the
unnumbered link commands); ``ShoeLink.send`` fills it in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

from laws.cards import Card, Seat

PROTO_MAJOR = 1
PROTO_MINOR = 2


class MsgType(IntEnum):
    HELLO = 0x01
    HEARTBEAT = 0x02
    PONG = 0x03
    CARD_OUT = 0x10
    DEAL_STARTED = 0x11
    DEAL_FINISHED = 0x12
    PACK_LOADED = 0x13
    JAM = 0x14
    EMPTY = 0x15
    BUTTON = 0x16
    ERROR = 0x17
    REPLY = 0x18
    BOARD_STARTED = 0x19
    CARD_REJECTED = 0x1A
    BOARD_FINISHED = 0x1B
    HOST_HELLO = 0x80
    START_DEAL = 0x81
    PAUSE = 0x82
    RESUME = 0x83
    ABORT = 0x84
    SET_LAMP = 0x85
    PING = 0x86
    RESEND = 0x87
    ACK = 0x88
    DEAL_BOARD = 0x89


class Orientation(IntEnum):
    DOWN = 0
    UP = 1
    UNKNOWN = 2


class ShoeState(IntEnum):
    IDLE = 0
    LOADED = 1
    DEALING = 2
    PAUSED = 3
    JAMMED = 4


class FinishReason(IntEnum):
    COMPLETE = 0
    ABORTED = 1
    EMPTY = 2


class RejectReason(IntEnum):
    """Why a card of a board went to the reject exit (CARD_REJECTED, protocol 1.2)."""

    UNREADABLE = 1      # no code read, or a code that names no card (a back mark, a damaged code)
    OTHER_PACK = 2      # a card of another pack than the board's
    PLACED = 3          # this card of the board is already in its pocket (a duplicate)


class ButtonKind(IntEnum):
    CALL = 1
    DEMAND = 2
    CONFIRM = 3


class Status(IntEnum):
    OK = 0
    BUSY = 1
    BAD_STATE = 2
    BAD_ARGS = 3
    UNSUPPORTED = 4


class ErrorCode(IntEnum):
    """ERROR codes (PROTOCOL.md 4.2). Code 1 is reserved (never sent): like any unknown code it is passed
    on as a plain number, never as a named code."""

    UNKNOWN_COMMAND = 2
    VERSION = 3
    RING_OVERFLOW = 4
    HARDWARE = 5
    BAD_COMMAND = 6
    BAD_CODE = 7        # scanner driver: a line that is not a card code


class Cap(IntEnum):
    FACE_DETECT = 0x01
    CODE_READER = 0x02
    BUTTONS = 0x04
    LAMPS = 0x08
    JAM_DETECT = 0x10
    PACK_SENSOR = 0x20
    BOARDS = 0x40       # 1.2: pockets and a reject exit: the shoe deals boards (DEAL_BOARD)


SEAT_CODES: dict[int, Seat] = {0: Seat.N, 1: Seat.E, 2: Seat.S, 3: Seat.W}
SEAT_TABLE = 4
SEAT_NONE = 255


# --- shoe -> host --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShoeMessage:
    seq: int


@dataclass(frozen=True, slots=True)
class Skipped(ShoeMessage):
    """A numbered frame (type 0x10-0x7F) with a good CRC that this host cannot read: an unknown type
    from a newer minor version, or a malformed body. Its number is used up (so the stream does not
    stall); it is passed on as this, so that the host can journal that the message could not be read
    (and a table can count a card whose CARD_OUT it could not read as an unreadable card)."""

    mtype: int
    reason: str


@dataclass(frozen=True, slots=True)
class Hello(ShoeMessage):
    """The shoe introduces itself; ``oldest_held`` is the oldest unacknowledged number (0: none)."""

    major: int
    minor: int
    boot_id: int
    oldest_held: int
    caps: int
    ring_size: int
    shoe_id: str
    firmware: str


@dataclass(frozen=True, slots=True)
class Heartbeat(ShoeMessage):
    state: ShoeState | int
    paused: bool
    loaded: bool
    ring_used: int


@dataclass(frozen=True, slots=True)
class Pong(ShoeMessage):
    token: int


@dataclass(frozen=True, slots=True)
class CardOut(ShoeMessage):
    """A card left the shoe. ``seat`` None with ``turn_up`` False: outside a deal; ``turn_up``: the
    card went face up to the table (euchre's trump). ``card`` None: its code could not be read.
    ``board``: the number of the board whose record placed it in ``seat``'s pocket (protocol 1.2), 0
    in a deal; the session sets it from the board's start (not on the wire, not part of equality)."""

    index: int
    seat: Seat | None
    turn_up: bool
    card: Card | None
    orientation: Orientation | int
    quality: int
    pack: str
    board: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class DealBegan(ShoeMessage):
    """A deal began. ``answers``: the id of this host run's START_DEAL it answers, 0 for none (a deal an
    earlier run of the host asked for, replayed from the shoe's ring: PROTOCOL.md section 6.3). The
    session sets it; it is not on the wire and not part of the message's equality."""

    dealer: Seat
    turn_up: int
    pattern: tuple[int, ...]
    pack: str
    answers: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class DealFinished(ShoeMessage):
    """A deal ended; ``answers`` as the ``DealBegan`` of the same deal (0: not a deal of this run's)."""

    reason: FinishReason | int
    dealt: int
    left_in_shoe: bool
    answers: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class BoardBegan(ShoeMessage):
    """A board began (protocol 1.2): the DEAL_BOARD echoed. ``seats`` are the 52 seats in canonical
    card order (``laws.cards.full_pack``); ``placed`` the cards already in their pockets; ``answers`` as
    ``DealBegan``'s (the DEAL_BOARD of this host run it answers, 0 for none)."""

    board: int
    board_id: int
    seats: tuple[Seat, ...]
    placed: frozenset[Card]
    pack: str
    answers: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class CardRejected(ShoeMessage):
    """A card of a board went to the reject exit (protocol 1.2): ``number`` counts the board's rejected
    cards (1-based, 255 at most); ``card`` and ``pack`` as read (None / "" when unreadable)."""

    number: int
    reason: RejectReason | int
    card: Card | None
    orientation: Orientation | int
    quality: int
    pack: str


@dataclass(frozen=True, slots=True)
class BoardFinished(ShoeMessage):
    """A board ended (protocol 1.2). Whole only with ``reason`` COMPLETE (then ``missing`` is empty);
    ABORTED or EMPTY leave ``missing`` the cards not placed. ``pack`` is the board's pack."""

    board: int
    board_id: int
    reason: FinishReason | int
    rejected: int
    left_in_shoe: bool
    missing: frozenset[Card]
    pack: str
    answers: int = field(default=0, compare=False)

    @property
    def placed(self) -> int:
        """How many of the board's cards are in their pockets."""
        return 52 - len(self.missing)


@dataclass(frozen=True, slots=True)
class PackLoaded(ShoeMessage):
    pack: str


@dataclass(frozen=True, slots=True)
class Jam(ShoeMessage):
    index: int
    cleared: bool


@dataclass(frozen=True, slots=True)
class Empty(ShoeMessage):
    dealt: int


@dataclass(frozen=True, slots=True)
class ButtonPressed(ShoeMessage):
    seat: Seat
    kind: ButtonKind | int


@dataclass(frozen=True, slots=True)
class ShoeError(ShoeMessage):
    code: ErrorCode | int
    detail: str


@dataclass(frozen=True, slots=True)
class Reply(ShoeMessage):
    """The answer to command ``cmd``. ``stale``: numbered before that command was first sent, so an
    earlier host run's REPLY replayed from the ring, answering nothing of this run's (PROTOCOL.md
    section 6.3); the session sets it (not on the wire, not part of equality)."""

    cmd: int
    status: Status | int
    detail: str
    stale: bool = field(default=False, compare=False)


# --- host -> shoe ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    cmd: int = field(default=0, kw_only=True)


@dataclass(frozen=True, slots=True)
class HostHello(Command):
    """``next_cmd`` (protocol 1.1): the lowest command id still awaiting its REPLY, or the next id the
    host will use; a shoe meeting a new session does commands from there on. None: the field is absent
    (a 1.0 host's 6-byte body; a shoe reads any HOST_HELLO without it by the 1.0 rules, section 4.3)."""

    session: int
    major: int = PROTO_MAJOR
    minor: int = PROTO_MINOR
    next_cmd: int | None = 1


@dataclass(frozen=True, slots=True)
class StartDeal(Command):
    """Deal ``pattern`` (cards per seat in each round, clockwise from the dealer's left), then
    ``turn_up`` cards face up to the table. ``pack`` is the pack the host expects ("" if unknown)."""

    dealer: Seat
    pattern: tuple[int, ...]
    turn_up: int = 0
    pack: str = ""


@dataclass(frozen=True, slots=True)
class Pause(Command):
    pass


@dataclass(frozen=True, slots=True)
class Resume(Command):
    pass


@dataclass(frozen=True, slots=True)
class Abort(Command):
    pass


@dataclass(frozen=True, slots=True)
class SetLamp(Command):
    """Lamp 0 is the shoe's own, 1-4 are seats N, E, S, W. Mode 0 off, 1 on, 2 slow, 3 fast blink.
    Colour 0 white, 1 red, 2 green, 3 amber, 4 blue."""

    lamp: int
    mode: int
    colour: int = 0


@dataclass(frozen=True, slots=True)
class DealBoard(Command):
    """Deal a board from its hand record (protocol 1.2): ``seats[i]`` receives card ``i`` of
    ``laws.cards.full_pack()`` (spades ace first, clubs two last: Duplimate's 01-52). ``board_id`` names
    the record in every report (``firmware_host.shoe.boards.board_id_of`` of its fingerprint); ``pack``
    the pack the cards must carry ("" : the first card placed fixes it); ``placed`` the cards already in
    their pockets from an earlier attempt at this board. Build one with ``boards.deal_board``."""

    board: int
    seats: tuple[Seat, ...]
    board_id: int = 0
    pack: str = ""
    placed: frozenset[Card] = frozenset()


@dataclass(frozen=True, slots=True)
class Ping(Command):
    token: int


@dataclass(frozen=True, slots=True)
class Resend(Command):
    """Send again what is held from ``first`` on, up to ``last`` (1.1: the highest number the host
    still misses; 0 = up to the newest, and what a 1.0 host means)."""

    first: int
    last: int = 0


@dataclass(frozen=True, slots=True)
class Ack(Command):
    upto: int


NUMBERED_COMMANDS = (StartDeal, Pause, Resume, Abort, SetLamp, DealBoard)


# --- link status -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """The link went online or offline. ``refused``: the shoe speaks an incompatible protocol."""

    online: bool
    reason: str
    shoe: Hello | None = None
    refused: bool = False


@dataclass(frozen=True, slots=True)
class ShoeRestarted:
    """The shoe restarted (a HELLO with a new ``boot_id`` after boot ``old_boot``): it is dealing nothing
    (PROTOCOL.md 6.3), so a deal or board it was dealing will never get its end message. Passed on
    before any message of the new boot; not on the wire."""

    old_boot: int
    boot_id: int
    shoe: Hello


@dataclass(frozen=True, slots=True)
class MessagesLost:
    """Numbered messages ``first``-``last`` of shoe boot ``boot_id`` were gone from the shoe's ring
    before the host got them (its HELLO's ``oldest_held`` is past them; PROTOCOL.md 5, ERROR 4): their
    numbers are used up and what they said is not known. Passed on in their place; not on the wire."""

    boot_id: int
    first: int
    last: int


ShoeEvent = ShoeMessage | LinkStatus | ShoeRestarted | MessagesLost
