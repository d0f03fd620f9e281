"""Calls of the bridge auction as values: a bid (one to seven, in a strain), pass, double, redouble.

Spellings. The event format writes ``1C`` … ``7NT``, ``pass``, ``double``, ``redouble``; PBN 2.1 writes
``1C`` … ``7NT``, ``Pass``, ``X``, ``XX`` (and readers meet ``1N``). :func:`parse_call` takes all of
these, in any letter case. PBN's ``AP`` ("all the others pass") is not one call but several, so it is read
by :func:`laws.bridge.pbn.read_auction`, not here.

A bid names a level and a strain; strains rank clubs, diamonds, hearts, spades, notrump (docs/laws.md
``BP-18``). A bid above seven cannot be made into a :class:`Call` (there is no such contract): the text
is refused with :class:`BidAboveSeven`, which :meth:`laws.bridge.auction.Auction.judge_text` turns into
the inadmissible-call verdict of ``BP-35-36``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from laws.scoring.bridge import STRAINS

LEVEL_WORDS = ("", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
STRAIN_WORDS = {"C": ("club", "clubs"), "D": ("diamond", "diamonds"), "H": ("heart", "hearts"),
                "S": ("spade", "spades"), "NT": ("notrump", "notrump")}
_BID_RE = re.compile(r"^(\d+)\s*(NT|N|C|D|H|S)$")


class CallError(ValueError):
    """A text that is not a call; the message says what is wrong in players' words."""


class BidAboveSeven(CallError):
    """A bid of more than seven tricks: there is no such contract (``BP-35-36``, Duplicate law 38).

    Attributes:
        level: the level named (8 or more).
        strain: the strain named.
    """

    def __init__(self, level: int, strain: str) -> None:
        word = LEVEL_WORDS[level] if level < len(LEVEL_WORDS) else str(level)
        super().__init__(f"there is no {word}-level contract: the highest bid is seven notrump")
        self.level = level
        self.strain = "NT" if strain.upper() == "N" else strain.upper()

    @property
    def code(self) -> str:
        """The bid in the event format's spelling: ``8S``, ``9NT``."""
        return f"{self.level}{self.strain}"

    @property
    def words(self) -> str:
        """The bid for people: "eight spades", "10 notrump"."""
        word = LEVEL_WORDS[self.level] if self.level < len(LEVEL_WORDS) else str(self.level)
        return f"{word} {STRAIN_WORDS[self.strain][1]}"


class CallKind(StrEnum):
    """What a call is. The values are the event format's words (a bid is written by its level)."""

    BID = "bid"
    PASS = "pass"
    DOUBLE = "double"
    REDOUBLE = "redouble"


@dataclass(frozen=True)
class Call:
    """One call. Build bids with :func:`bid`; the other three are :data:`PASS`, :data:`DOUBLE`,
    :data:`REDOUBLE`.

    Attributes:
        kind: bid, pass, double or redouble.
        level: 1 to 7 for a bid, 0 otherwise.
        strain: ``C``, ``D``, ``H``, ``S`` or ``NT`` for a bid, ``""`` otherwise.
    """

    kind: CallKind
    level: int = 0
    strain: str = ""

    def __post_init__(self) -> None:
        if self.kind is CallKind.BID:
            if self.strain not in STRAINS:
                raise CallError(f"unknown strain {self.strain!r}: a bid names clubs, diamonds, hearts, "
                                "spades or notrump")
            if isinstance(self.level, bool) or not isinstance(self.level, int) or self.level < 1:
                raise CallError("a bid names one to seven tricks over six")
            if self.level > 7:
                raise BidAboveSeven(self.level, self.strain)
        elif self.level != 0 or self.strain != "":
            raise CallError(f"a {self.kind.value} names no level or strain")

    @property
    def is_bid(self) -> bool:
        return self.kind is CallKind.BID

    @property
    def rank(self) -> int:
        """Order of bids, 0 (one club) to 34 (seven notrump); -1 for the other calls. A bid is
        sufficient over another exactly when its rank is greater (``BP-18``)."""
        if self.kind is not CallKind.BID:
            return -1
        return (self.level - 1) * len(STRAINS) + STRAINS.index(self.strain)

    @property
    def code(self) -> str:
        """The event-format spelling: ``1C`` … ``7NT``, ``pass``, ``double``, ``redouble``."""
        return f"{self.level}{self.strain}" if self.is_bid else self.kind.value

    @property
    def pbn(self) -> str:
        """PBN 2.1's spelling (section 3.5.1): ``1C`` … ``7NT``, ``Pass``, ``X``, ``XX``."""
        return {CallKind.BID: self.code, CallKind.PASS: "Pass", CallKind.DOUBLE: "X",
                CallKind.REDOUBLE: "XX"}[self.kind]

    @property
    def words(self) -> str:
        """For people: "one heart", "three notrump", "two clubs", "pass", "double", "redouble"."""
        if not self.is_bid:
            return self.kind.value
        one, many = STRAIN_WORDS[self.strain]
        return f"{LEVEL_WORDS[self.level]} {one if self.level == 1 else many}"

    @property
    def act(self) -> str:
        """The call as something done, for sentences: "bid one heart", "passed", "doubled", "redoubled"."""
        if self.is_bid:
            return f"bid {self.words}"
        return {CallKind.PASS: "passed", CallKind.DOUBLE: "doubled", CallKind.REDOUBLE: "redoubled"}[self.kind]

    def __str__(self) -> str:
        return self.code


def strain_name(strain: str) -> str:
    """"clubs", "diamonds", "hearts", "spades", "notrump"."""
    return STRAIN_WORDS[strain][1]


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)


def bid(level: int, strain: str) -> Call:
    """The bid of ``level`` (1-7) in ``strain`` (``C``, ``D``, ``H``, ``S``, ``NT``; ``N`` is read as
    notrump). Raises :class:`CallError` (:class:`BidAboveSeven` above seven)."""
    s = strain.upper()
    return Call(CallKind.BID, level, "NT" if s == "N" else s)


def bid_of_rank(rank: int) -> Call:
    """The bid whose :attr:`Call.rank` is ``rank`` (0 to 34)."""
    if not 0 <= rank < 7 * len(STRAINS):
        raise CallError(f"no bid has rank {rank}")
    return Call(CallKind.BID, rank // len(STRAINS) + 1, STRAINS[rank % len(STRAINS)])


def lowest_sufficient(strain: str, over: Call | None) -> Call | None:
    """The lowest bid in ``strain`` that is higher than ``over`` (any one-level bid when ``over`` is None);
    None when even seven is not enough (``BP-27`` names this bid to an insufficient bidder)."""
    if over is None:
        return bid(1, strain)
    level = over.level if STRAINS.index(strain) > STRAINS.index(over.strain) else over.level + 1
    return bid(level, strain) if level <= 7 else None


def parse_call(text: str) -> Call:
    """Read one call in the event format or PBN's spelling.

    Args:
        text: ``1C`` … ``7NT`` (``1N`` too), ``pass``/``Pass``, ``double``/``X``, ``redouble``/``XX``.

    Returns:
        The call.

    Raises:
        BidAboveSeven: a bid of eight or more ("there is no eight-level contract …").
        CallError: anything else that is not a call, said in players' words.
    """
    if not isinstance(text, str) or not text.strip():
        raise CallError("no call given: want a bid such as 1H or 3NT, pass, double or redouble")
    t = text.strip().upper()
    simple = {"PASS": PASS, "DOUBLE": DOUBLE, "X": DOUBLE, "REDOUBLE": REDOUBLE, "XX": REDOUBLE}
    if t in simple:
        return simple[t]
    if t == "AP":
        raise CallError("'AP' is PBN's 'all pass' (several passes), not one call: read it with the PBN "
                        "auction reader")
    m = _BID_RE.match(t)
    if m is None:
        raise CallError(f"{text.strip()!r} is not a call: want a bid such as 1H or 3NT, pass, double "
                        "or redouble")
    level = int(m.group(1))
    if level == 0:
        raise CallError("a bid names one to seven tricks over six; there is no zero-level bid")
    return bid(level, m.group(2))
