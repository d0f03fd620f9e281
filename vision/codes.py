"""The card code, version 1, and the bidding code (``vision/CARD_CODES.md``): payload text, check
character, symbols.

A card's payload is six characters from ``0-9A-Z``: the code version ``1``, the two-character pack id,
the card in the event format's notation (``AS``, ``TD``) or ``ZZ`` for the pack mark on a card's back,
and an ISO 7064 MOD 37,36 check character over the first five. ``parse_payload`` turns decoded text back
into a ``CardCode`` or raises ``CodeRejected`` saying which rule the text broke.

A bidding card's payload (a card of a bidding box) is six characters of the same family: the kind ``B``
in the place of the version (so a card reader rejects it under its ``version`` rule, and a bidding card
can never be read as a playing card nor one as the other), the seat of the set it belongs to, the call
in two characters (``1C`` ... ``7N``, ``PA`` pass, ``DB`` double, ``RD`` redouble), the copy of that call
in the set, and the same check character. ``parse_call_payload`` reads one; ``parse_code`` reads either
kind by its first character.

A club member's card (``cardtable labels --members``) carries a third kind: ``M``, the member-code
version ``1``, the member number (1 to 16 of ``0-9A-Z``) and the same check character, 4 to 19
characters in a Micro QR symbol. Every card and bidding reader rejects it (``length``, or ``version`` for its
first character); ``parse_member_payload`` reads one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from laws.bridge.calls import DOUBLE, PASS, REDOUBLE, Call, CallError, bid
from laws.cards import Card, Seat

VERSION = "1"
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BACK = "ZZ"
_PACK_RE = re.compile(r"^[0-9A-Z]{2}$")


class Variant(StrEnum):
    """Which symbol carries the payload: Micro QR M2-L (default) or QR version 1 (for pyzbar)."""

    MICRO = "micro"
    QR = "qr"


class RejectReason(StrEnum):
    """Why a decoded text is not one of our card codes."""

    LENGTH = "length"  # not six characters: a foreign code
    CHARSET = "charset"  # characters outside 0-9A-Z: a foreign code
    VERSION = "version"  # a card code of another version
    CHECK = "check"  # the check character does not match
    CARD = "card"  # the card field is not a card nor the back mark
    SEAT = "seat"  # a bidding card's seat field is not N, E, S or W
    CALL = "call"  # a bidding card's call field is not a call


class CodeRejected(ValueError):
    """A decoded text that is not a valid card code; ``reason`` says which rule it broke."""

    def __init__(self, reason: RejectReason, text: str, detail: str) -> None:
        super().__init__(f"rejected code {text!r}: {detail}")
        self.reason = reason
        self.text = text


@dataclass(frozen=True)
class CardCode:
    """What a code says: the pack and the card (``None`` for the pack mark on a back)."""

    pack: str
    card: Card | None

    @property
    def is_back(self) -> bool:
        return self.card is None


def check_char(data: str) -> str:
    """The ISO 7064 MOD 37,36 check character for ``data`` (characters of ``ALPHABET``).

    It catches every single wrong character and nearly every swap of two neighbours (which swaps it
    misses, and why none matters at a table: CARD_CODES.md, under the worked example and "Why a call is
    never a card").
    """
    m = len(ALPHABET)
    p = m
    for ch in data:
        s = (p + ALPHABET.index(ch)) % m or m
        p = (2 * s) % (m + 1)
    return ALPHABET[(m + 1 - p) % m]


def validate_pack(pack: str) -> str:
    """Return ``pack`` if it is a valid pack id (two of ``0-9A-Z``), else raise ``ValueError``."""
    if not isinstance(pack, str) or not _PACK_RE.match(pack):
        raise ValueError(f"pack id {pack!r}: want two characters from 0-9 and A-Z, e.g. 'B7'")
    return pack


def encode_payload(pack: str, card: Card | None) -> str:
    """The payload text for ``card`` of ``pack`` (``card=None`` gives the back's pack mark)."""
    body = VERSION + validate_pack(pack) + (BACK if card is None else card.code)
    return body + check_char(body)


def parse_payload(text: str) -> CardCode:
    """Parse decoded text into a ``CardCode``.

    Raises:
        CodeRejected: the text is foreign, of another version, fails its check or names no card.
    """
    if len(text) != 6:
        raise CodeRejected(RejectReason.LENGTH, text, f"{len(text)} characters, a card code has 6")
    if any(ch not in ALPHABET for ch in text):
        raise CodeRejected(RejectReason.CHARSET, text, "characters outside 0-9 and A-Z")
    if text[0] != VERSION:
        raise CodeRejected(RejectReason.VERSION, text,
                           f"card-code version {text[0]}, this reader knows version {VERSION}")
    if check_char(text[:5]) != text[5]:
        raise CodeRejected(RejectReason.CHECK, text, "wrong check character")
    field = text[3:5]
    if field == BACK:
        return CardCode(text[1:3], None)
    try:
        card = Card.parse(field)
    except ValueError:
        raise CodeRejected(RejectReason.CARD, text, f"{field!r} is not a card") from None
    return CardCode(text[1:3], card)


CALL_KIND = "B"  # the first character of a bidding card's code (a card code's is its version, ``1``)
SEATS = "NESW"
_OTHER_CALLS = {"PA": PASS, "DB": DOUBLE, "RD": REDOUBLE}
_OTHER_FIELDS = {c: f for f, c in _OTHER_CALLS.items()}


@dataclass(frozen=True)
class CallCode:
    """What a bidding card's code says: the set's seat, the call, and which copy of it in the set."""

    seat: Seat
    call: Call
    copy: str = "1"


def call_field(call: Call) -> str:
    """The two characters a bidding card's code gives ``call``: ``1C`` ... ``7N``, ``PA``, ``DB``, ``RD``."""
    if call.is_bid:
        return f"{call.level}{'N' if call.strain == 'NT' else call.strain}"
    return _OTHER_FIELDS[call]


def encode_call_payload(seat: Seat | str, call: Call, copy: str = "1") -> str:
    """The payload text of copy ``copy`` of ``call`` in ``seat``'s set of bidding cards.

    Raises:
        ValueError: an unknown seat, or a copy that is not one character of ``0-9A-Z``.
    """
    s = Seat(seat)
    if not isinstance(copy, str) or len(copy) != 1 or copy not in ALPHABET:
        raise ValueError(f"copy {copy!r}: want one character from 0-9 and A-Z")
    body = CALL_KIND + s.value + call_field(call) + copy
    return body + check_char(body)


def parse_call_payload(text: str) -> CallCode:
    """Parse decoded text into a ``CallCode``.

    Raises:
        CodeRejected: the text is foreign, not a bidding card's code (``version``: its first character
            is not ``B``; every card code is refused so), fails its check, or names no seat or no call.
    """
    _common(text)
    if text[0] != CALL_KIND:
        raise CodeRejected(RejectReason.VERSION, text,
                           f"kind {text[0]}: a bidding card's code begins with {CALL_KIND}")
    return _call_code(text)


def _common(text: str) -> None:
    if len(text) != 6:
        raise CodeRejected(RejectReason.LENGTH, text, f"{len(text)} characters, a code has 6")
    if any(ch not in ALPHABET for ch in text):
        raise CodeRejected(RejectReason.CHARSET, text, "characters outside 0-9 and A-Z")


def _call_code(text: str) -> CallCode:
    if check_char(text[:5]) != text[5]:
        raise CodeRejected(RejectReason.CHECK, text, "wrong check character")
    if text[1] not in SEATS:
        raise CodeRejected(RejectReason.SEAT, text, f"{text[1]!r} is not a seat (N, E, S or W)")
    field = text[2:4]
    call = _OTHER_CALLS.get(field)
    if call is None:
        try:
            if field[0] not in "1234567" or field[1] not in "CDHSN":
                raise CallError(field)
            call = bid(int(field[0]), field[1])
        except CallError:
            raise CodeRejected(RejectReason.CALL, text, f"{field!r} is not a call") from None
    return CallCode(Seat(text[1]), call, text[4])


def parse_code(text: str) -> CardCode | CallCode:
    """Parse decoded text of either kind, told apart by its first character: ``1`` a card code (version
    1), ``B`` a bidding card's. The rules are checked in the document's order (length, charset,
    version, check, then card, or seat and call).

    Raises:
        CodeRejected: naming the rule the text broke.
    """
    _common(text)
    if text[0] == CALL_KIND:
        return _call_code(text)
    if text[0] != VERSION:
        raise CodeRejected(RejectReason.VERSION, text, f"kind {text[0]}: this reader knows card codes of "
                           f"version {VERSION} and bidding cards ({CALL_KIND})")
    return parse_payload(text)


MEMBER_KIND = "M"      # the first character of a member card's code
MEMBER_VERSION = "1"   # its second: the member-code version
_MEMBER_RE = re.compile(r"^[0-9A-Z]{1,16}$")


@dataclass(frozen=True)
class MemberCode:
    """What a member card's code says: the member number (as the club's roster has it)."""

    number: str


def encode_member_payload(number: str) -> str:
    """The payload of member ``number``'s card: ``M1`` + the number + the check character.

    Raises:
        ValueError: a number that is not 1 to 16 characters of ``0-9A-Z``.
    """
    if not isinstance(number, str) or not _MEMBER_RE.match(number):
        raise ValueError(f"member number {str(number)[:20]!r} cannot go on a member card: want 1 to 16 "
                         "characters of 0-9 and A-Z")
    body = MEMBER_KIND + MEMBER_VERSION + number
    return body + check_char(body)


def parse_member_payload(text: str) -> MemberCode:
    """Parse decoded text into a ``MemberCode``.

    Raises:
        CodeRejected: ``length`` (not 4 to 19 characters), ``charset``, ``version`` (not ``M1``: a card's
            or a bidding card's code, or another member-code version), ``check``.
    """
    if not 4 <= len(text) <= 19:
        raise CodeRejected(RejectReason.LENGTH, text, f"{len(text)} characters, a member code has 4 to 19")
    if any(ch not in ALPHABET for ch in text):
        raise CodeRejected(RejectReason.CHARSET, text, "characters outside 0-9 and A-Z")
    if text[:2] != MEMBER_KIND + MEMBER_VERSION:
        raise CodeRejected(RejectReason.VERSION, text,
                           f"kind {text[:2]}: a member card's code begins with {MEMBER_KIND}{MEMBER_VERSION}")
    if check_char(text[:-1]) != text[-1]:
        raise CodeRejected(RejectReason.CHECK, text, "wrong check character")
    return MemberCode(text[2:-1])


def member_symbol(payload: str) -> np.ndarray:
    """A member code's symbol: Micro QR, the smallest version that holds the payload at level L (M2, 13 x 13
    modules, up to 6 characters; M3, 15 x 15, up to 14; M4, 17 x 17, up to 19; more of digits), which
    zxing-cpp's writer then makes at level M when the payload fits that version at M too (``M11021E`` is
    M3-M; CARD_CODES.md, "Member cards"), so the decoder a table already runs reads it; 0 dark, 255 light,
    without quiet zone."""
    import zxingcpp

    barcode = zxingcpp.create_barcode(payload, zxingcpp.BarcodeFormat.MicroQRCode, options="ecLevel=L")
    return np.array(barcode.to_image(scale=1, add_quiet_zones=False), dtype=np.uint8)


def symbol_modules(payload: str, variant: Variant = Variant.MICRO) -> np.ndarray:
    """The symbol's modules as a uint8 array (0 dark, 255 light), without quiet zone.

    Micro QR comes out as M2-L (13x13 modules), QR as version 1 (21x21, level H).
    """
    import zxingcpp

    fmt = zxingcpp.BarcodeFormat.MicroQRCode if variant is Variant.MICRO else zxingcpp.BarcodeFormat.QRCode
    options = "ecLevel=L" if variant is Variant.MICRO else "ecLevel=H"
    barcode = zxingcpp.create_barcode(payload, fmt, options=options)
    modules = np.array(barcode.to_image(scale=1, add_quiet_zones=False), dtype=np.uint8)
    want = 13 if variant is Variant.MICRO else 21
    if modules.shape != (want, want):
        raise ValueError(f"payload {payload!r} does not fit the {variant} symbol ({modules.shape})")
    return modules


QUIET_MODULES = {Variant.MICRO: 2, Variant.QR: 4}
