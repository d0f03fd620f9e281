"""The card code, version 1 (``vision/CARD_CODES.md``): payload text, check character, symbols.

A payload is six characters from ``0-9A-Z``: the code version ``1``, the two-character pack id, the
card in the event format's notation (``AS``, ``TD``) or ``ZZ`` for the pack mark on a card's back, and
an ISO 7064 MOD 37,36 check character over the first five. ``parse_payload`` turns decoded text back
into a ``CardCode`` or raises ``CodeRejected`` saying which rule the text broke.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

import numpy as np

from laws.cards import Card

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

    It catches every single wrong character and every swap of two neighbours.
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
