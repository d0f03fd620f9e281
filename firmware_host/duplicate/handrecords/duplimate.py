"""Duplimate's hand-record files, BRI and DUP (layouts as Duplimate's conversion note describes them;
``docs/handrecords.md`` has worked examples).

**BRI**: 78 ASCII digits a board, 39 two-digit card numbers: thirteen for North, thirteen for East,
thirteen for South, in any order; West has the other thirteen. Card 01 is the ace of spades, 13 the two
of spades, then hearts 14-26, diamonds 27-39, clubs 40-52 (the order of :func:`laws.cards.full_pack`).
There are no board numbers: the boards are the file's order, from 1 (or ``first``). Real files pad
each board to 128 bytes (32 spaces, 18 NUL bytes: Big Deal's and Dealer's output) or put boards on
lines; the reader skips spaces, NUL, CR, LF, tab and the DOS end-of-file byte (1A hex) between boards.
The writer pads to 128 bytes (``padded=False``: 78 bytes a board, nothing between). Both readers go
board by board and stop at the first error, and at a board beyond ``MAX_BOARDS`` (999).

**DUP**: 156 bytes a board: the 78-byte BRI part; 68 bytes of the four hands sorted for printing
(North, East, South, West, 17 bytes each: a suit symbol before each suit, 06 03 04 05 hex, the IBM PC
spade, heart, diamond and club, then the ranks ``AKQJT98765432``); and 10 bytes of duplication
control: ``Y``/``N`` random hands, ``Y``/``N`` counting backwards, the lowest board (3 bytes), the
copies of each board (2 bytes) and the highest board (3 bytes), each left-aligned and padded with
spaces (``YN1  1 32 ``). The sorted hands must agree with the card numbers. Boards are numbered from
the lowest board of the first control that is not blank (Big Deal 1.2 leaves later ones NUL) when it is
not 1, else from ``first`` (default 1): Big Deal writes a lowest board of 1 whatever boards it dealt.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from firmware_host.duplicate.handrecords.errors import MAX_BOARDS, HandRecordError, check_boards, too_many
from laws.cards import RANKS, SEATS, SUITS, Card, Seat
from laws.duplicate.deal import SEAT_NAMES, Board, Deal, card_index

BRI_BOARD = 78
BRI_RECORD = 128
DUP_RECORD = 156
DGE_SYMBOLS = {0x06: "S", 0x03: "H", 0x04: "D", 0x05: "C"}
_SYMBOL_OF = {s: b for b, s in DGE_SYMBOLS.items()}
_BETWEEN = b" \x00\r\n\t\x1a"


@dataclass(frozen=True)
class DupControl:
    """A DUP board's last 10 bytes: what the dealing machine is told about the set."""

    random: bool
    backwards: bool
    lowest: int
    copies: int
    highest: int

    def encode(self) -> bytes:
        yn = ("Y" if self.random else "N") + ("Y" if self.backwards else "N")
        return f"{yn}{self.lowest:<3}{self.copies:<2}{self.highest:<3}".encode("ascii")


def _bytes(first: int, last: int) -> str:
    return f"(bytes {first + 1}-{last})"


def deal_from_bri(part: bytes, file: str, board: int, offset: int) -> Deal:
    """The deal of one 78-byte BRI part starting at ``offset`` in the file."""
    held: dict[Seat, list[Card]] = {s: [] for s in SEATS}
    place: dict[int, Seat] = {}
    pack = [Card(r, s) for s in SUITS for r in RANKS]
    for k in range(39):
        text = part[2 * k: 2 * k + 2]
        seat = SEATS[k // 13]
        if len(text) < 2 or not text.isdigit() or not 1 <= int(text) <= 52:
            raise HandRecordError(file, f"{text.decode('latin-1')!r} is not a card number 01-52 "
                                  f"({SEAT_NAMES[seat]}'s cards are bytes {offset + 26 * SEATS.index(seat) + 1}-"
                                  f"{offset + 26 * SEATS.index(seat) + 26})", board=board,
                                  where=f"(byte {offset + 2 * k + 1})")
        n = int(text)
        if n in place:
            who = sorted({place[n], seat}, key=SEATS.index)
            where = (f"{SEAT_NAMES[who[0]]}'s and {SEAT_NAMES[who[1]]}'s hands" if len(who) == 2
                     else f"{SEAT_NAMES[seat]}'s hand twice")
            raise HandRecordError(file, f"card {text.decode()} (the {pack[n - 1].name}) is in {where}",
                                  board=board, where=f"(byte {offset + 2 * k + 1})")
        place[n] = seat
        held[seat].append(pack[n - 1])
    held[Seat.W] = [c for c in pack if card_index(c) + 1 not in place]
    try:
        return Deal.from_hands(held)
    except ValueError as exc:  # not reached: 39 distinct numbers always make a deal
        raise HandRecordError(file, str(exc), board=board, where=_bytes(offset, offset + BRI_BOARD)) from None


def bri_part(deal: Deal) -> bytes:
    """The 78 digits of a deal: North's, East's and South's card numbers, each hand in card order."""
    return "".join(f"{card_index(c) + 1:02d}" for seat in (Seat.N, Seat.E, Seat.S)
                   for c in deal.hand(seat)).encode("ascii")


def _records(data: bytes, size: int, file: str) -> tuple[list[tuple[int, bytes]], HandRecordError | None]:
    """Records of ``size`` bytes, each starting with a digit (what lies between them is skipped), and the
    error that ends them, if any (a record cut short, one board too many): given back, not raised, so that
    the boards before it are checked first, and a broken board 2 is named whatever follows it."""
    out, i = [], 0
    while True:
        while i < len(data) and data[i] in _BETWEEN:
            i += 1
        if i >= len(data):
            return out, None
        if len(out) == MAX_BOARDS:
            return out, too_many(file, len(out) + 1, f"(byte {i + 1})")
        record = data[i:i + size]
        if len(record) < size:
            return out, HandRecordError(file, f"{len(record)} bytes where a board needs {size}", board=len(out) + 1,
                                        where=_bytes(i, len(data)))
        out.append((i, record))
        i += size


def read_bri(data: bytes, file: str = "<bri>", first: int = 1) -> list[Board]:
    """The boards of a BRI file, numbered ``first``, ``first + 1``, ... in the file's order."""
    boards = []
    starts = []
    i = 0
    while True:
        while i < len(data) and data[i] in _BETWEEN:
            i += 1
        if i >= len(data):
            break
        number = first + len(boards)
        if len(boards) == MAX_BOARDS:
            raise too_many(file, number, f"(byte {i + 1})")
        end = i
        while end < len(data) and end - i < BRI_BOARD and data[end] not in _BETWEEN:
            end += 1
        part = data[i:end]
        if len(part) < BRI_BOARD:       # a lone byte's place is one byte, not a range
            raise HandRecordError(file, f"the board is cut short: {len(part)} byte{'s' if len(part) > 1 else ''} "
                                  f"where a board needs {BRI_BOARD} (39 card numbers, 13 each for North, East "
                                  "and South)", board=number, where=_bytes(i, end) if end - i > 1 else f"(byte {end})")
        boards.append(Board.numbered(number, deal_from_bri(part, file, number, i)))
        starts.append(_bytes(i, end))
        i = end
    if not boards:
        raise HandRecordError(file, "no boards in the file")
    return check_boards(file, boards, starts)


def _consecutive(boards: Sequence[Board], kind: str) -> list[Board]:
    ordered = sorted(boards, key=lambda b: b.number)
    if not ordered:
        raise HandRecordError(f"<{kind}>", "no boards to write")
    for a, b in zip(ordered, ordered[1:]):
        if b.number != a.number + 1:
            raise HandRecordError(f"<{kind}>", f"{kind.upper()} numbers boards by their place in the file: "
                                  f"boards must be consecutive, but board {b.number} follows board {a.number}")
    return ordered


def write_bri(boards: Iterable[Board], *, padded: bool = True) -> bytes:
    """A BRI file of ``boards`` (consecutive numbers, written in order); 128 bytes a board when
    ``padded`` (32 spaces and 18 NUL bytes after the 78 digits), else 78."""
    pad = b" " * 32 + b"\x00" * 18 if padded else b""
    return b"".join(bri_part(b.deal) + pad for b in _consecutive(list(boards), "bri"))


def dge_part(deal: Deal) -> bytes:
    """The 68 bytes of sorted hands: for N, E, S, W each suit's symbol and then its ranks."""
    out = bytearray()
    for seat in SEATS:
        for suit in SUITS:
            out.append(_SYMBOL_OF[suit])
            out += "".join(c.rank for c in deal.hand(seat) if c.suit == suit).encode("ascii")
    return bytes(out)


def dup_control(data: bytes) -> DupControl | None:
    """The first non-blank duplication control of a DUP file (``None`` if every one is blank)."""
    for i in range(0, len(data) - DUP_RECORD + 1, DUP_RECORD):
        control = _control(data[i + 146:i + 156], "<dup>", 1 + i // DUP_RECORD, i + 146)
        if control is not None:
            return control
    return None


def _control(raw: bytes, file: str, board: int, offset: int) -> DupControl | None:
    if not raw.strip(b" \x00"):
        return None
    text = raw.decode("latin-1")
    fields = text[0], text[1], text[2:5].strip(), text[5:7].strip(), text[7:10].strip()
    if fields[0] not in "YN" or fields[1] not in "YN" or not all(f.isdigit() for f in fields[2:]):
        raise HandRecordError(file, f"{text!r} is not duplication control (Y/N, Y/N, lowest board, copies, "
                              "highest board)", board=board, where=_bytes(offset, offset + 10))
    return DupControl(fields[0] == "Y", fields[1] == "Y", int(fields[2]), int(fields[3]), int(fields[4]))


def read_dup(data: bytes, file: str = "<dup>", first: int = 1) -> list[Board]:
    """The boards of a DUP file; the sorted hands and the duplication control are checked."""
    records, ends = _records(data, DUP_RECORD, file)
    if not records:
        raise ends or HandRecordError(file, "no boards in the file")
    control = None
    for k, (i, rec) in enumerate(records):
        control = control or _control(rec[146:156], file, first + k, i + 146)
    # a lowest board of 1 numbers nothing: Big Deal writes 1 for every set it deals (its source hard-codes
    # it), its boards 17-32 too, whose PBN of the same run says 17-32; so ``first`` numbers such a file, as
    # a BRI, and only a control naming another lowest board keeps its own numbers
    start = control.lowest if control is not None and control.lowest > 1 else first
    low = control.lowest if control is not None and control.lowest > 1 else 1
    if ends is None and control is not None and control.highest and control.highest - low + 1 != len(records):
        raise HandRecordError(file, f"the duplication control says boards {control.lowest}-{control.highest} "
                              f"but the file holds {len(records)}", board=start, where=_bytes(records[0][0] + 146, records[0][0] + 156))
    boards = []
    for k, (i, rec) in enumerate(records):
        number = start + k
        deal = deal_from_bri(rec[:BRI_BOARD], file, number, i)
        sorted_part = rec[BRI_BOARD:146]
        if sorted_part.strip(b" \x00") and sorted_part != dge_part(deal):
            raise HandRecordError(file, "the sorted hands do not match the card numbers: " +
                                  _dge_difference(sorted_part, deal), board=number, where=_bytes(i + 78, i + 146))
        boards.append(Board.numbered(number, deal))
    if ends is not None:
        raise ends
    return check_boards(file, boards, [_bytes(i, i + DUP_RECORD) for i, _ in records])


def _dge_difference(raw: bytes, deal: Deal) -> str:
    want = dge_part(deal)
    for k, seat in enumerate(SEATS):
        got, need = raw[17 * k:17 * k + 17], want[17 * k:17 * k + 17]
        if got != need:
            return f"{SEAT_NAMES[seat]}'s hand there is {_shown(got)}, the card numbers give {_shown(need)}"
    return "they differ"  # pragma: no cover - the caller only asks when they do


def _shown(raw: bytes) -> str:
    return "".join(f" {DGE_SYMBOLS[b]}:" if b in DGE_SYMBOLS else chr(b) if 32 <= b < 127 else f"<{b:02x}>"
                   for b in raw).strip()


def write_dup(boards: Iterable[Board], *, copies: int = 1) -> bytes:
    """A DUP file of ``boards`` (consecutive numbers), each with the same duplication control:
    random hands ``Y`` (as Duplimate's note and Big Deal write it), not backwards, ``copies``."""
    ordered = _consecutive(list(boards), "dup")
    control = DupControl(True, False, ordered[0].number, copies, ordered[-1].number).encode()
    return b"".join(bri_part(b.deal) + dge_part(b.deal) + control for b in ordered)
