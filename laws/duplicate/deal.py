"""Hand records as values: a deal (52 cards to four seats), a board's record, and the commitment a club
publishes before play.

A :class:`Deal` stores, for each card of :func:`laws.cards.full_pack` (ace of spades first, two of clubs
last: the same order as Duplimate's card numbers 01..52), the seat that holds it. Every comparison of a
card with a record goes through :meth:`Deal.holder` (STYLE.md: one function), which is a constant-time
look-up.

The canonical texts (``docs/handrecords.md`` gives them byte for byte with worked examples):

* **fingerprint** of a deal: SHA-256, in lower-case hex, of the ASCII bytes of :meth:`Deal.pbn` from
  North, e.g. ``N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 QT6543.AT.JT.T62 872.83.A542.QJ84`` (no newline).
* **board hash** of a board: SHA-256, in lower-case hex, of the ASCII bytes of its commitment line
  ``<number> <dealer> <vulnerability> <PBN deal from North>`` (no newline).
* **commitment** to a set of boards (version 2): SHA-256 of the ASCII text made of the line
  ``cardtable hand records 2`` and then one line per board in number order, ``<number> <board hash>``,
  every line ending in one line feed. The list of board hashes (the *index*) lets anyone check one board
  alone against the published commitment (:func:`check_board`): the index hashes to the commitment, and
  the board hashes to its entry.

Pure like the rest of ``laws/``: ``hashlib`` is the only import outside the package.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laws.cards import RANKS, SEATS, SUITS, Card, Seat, clockwise_from, full_pack
from laws.duplicate.boards import LAW as DB2_LAW
from laws.duplicate.boards import Vulnerability, dealer, vulnerability

SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
COMMITMENT_HEADER = "cardtable hand records 2"
_PACK = full_pack()


def card_index(card: Card) -> int:
    """The card's place in :func:`full_pack` order, 0 (ace of spades) to 51 (two of clubs).

    Duplimate's card number is this plus one.
    """
    return SUITS.index(card.suit) * 13 + RANKS.index(card.rank)


def _possessive(seats: Sequence[Seat]) -> str:
    names = [SEAT_NAMES[s] + "'s" for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


@dataclass(frozen=True)
class Deal:
    """Who holds each card: ``seats[i]`` holds card ``i`` of :func:`full_pack` (13 cards each).

    Build one with :meth:`from_hands`, :meth:`from_pbn` or :meth:`from_assignment`; each refuses
    anything but 52 distinct cards, 13 to a seat, with a ``ValueError`` that names the seat and the
    card ("North holds 12 cards", "the ace of spades is in North's and East's hands").
    """

    seats: tuple[Seat, ...]

    def __post_init__(self) -> None:
        seats = tuple(self.seats)
        if len(seats) != 52:
            raise ValueError(f"a deal assigns 52 cards, got {len(seats)}")
        if not all(isinstance(s, Seat) for s in seats):
            bad = next(s for s in seats if not isinstance(s, Seat))
            raise ValueError(f"{bad!r} is not a seat (want N, E, S or W)")
        counts = {seat: seats.count(seat) for seat in SEATS}
        wrong = [f"{SEAT_NAMES[s]} holds {c} cards" for s, c in counts.items() if c != 13]
        if wrong:
            raise ValueError("; ".join(wrong))
        object.__setattr__(self, "seats", seats)

    # -- building ----------------------------------------------------------------------------------

    @classmethod
    def from_assignment(cls, seats: Iterable[Seat | str]) -> Deal:
        """The deal whose ``i``-th seat holds card ``i`` of :func:`full_pack` (Duplimate's 01..52)."""
        out: list[Seat] = []
        for i, s in enumerate(seats):
            try:
                out.append(Seat(s))
            except ValueError:
                raise ValueError(f"card {i + 1} ({_PACK[i].name if i < 52 else '?'}): "
                                 f"{s!r} is not a seat (want N, E, S or W)") from None
        return cls(tuple(out))

    @classmethod
    def from_hands(cls, hands: Mapping[Seat, Iterable[Card]]) -> Deal:
        """The deal in which each seat holds the given cards; every problem is named in one message."""
        where: list[list[Seat]] = [[] for _ in range(52)]
        counts: dict[Seat, int] = {}
        for seat in SEATS:
            cards = list(hands.get(seat, ()))
            counts[seat] = len(cards)
            for card in cards:
                where[card_index(card)].append(seat)
        problems: list[str] = []
        for i, holders in enumerate(where):
            if len(holders) > 1:
                if len(set(holders)) == 1:
                    problems.append(f"the {_PACK[i].name} is {len(holders)} times in "
                                    f"{SEAT_NAMES[holders[0]]}'s hand")
                else:
                    problems.append(f"the {_PACK[i].name} is in {_possessive(sorted(set(holders), key=SEATS.index))} hands")
        problems += [f"{SEAT_NAMES[s]} holds {c} cards" for s, c in counts.items() if c != 13]
        missing = [_PACK[i].name for i, holders in enumerate(where) if not holders]
        if missing:
            shown = ", the ".join(missing[:4]) + (f" and {len(missing) - 4} more" if len(missing) > 4 else "")
            problems.append(f"the {shown} {'is' if len(missing) == 1 else 'are'} in no hand")
        if problems:
            raise ValueError("; ".join(problems))
        return cls(tuple(w[0] for w in where))

    @classmethod
    def from_pbn(cls, text: str, *, complete: bool = False) -> Deal:
        """Parse a PBN 2.1 deal, ``"N:AJ9.K9542.Q.AK93 K.QJ76.K98763.75 ..."``.

        The letter before the colon is the first hand's seat; the four hands follow clockwise, each as
        spades.hearts.diamonds.clubs with ranks ``AKQJT98765432``. A ``-`` (unknown hand) is refused: a
        hand record needs all four hands; with ``complete``, one ``-`` beside three whole hands is the
        rest of the pack (PBN allows it: three hands fix the fourth), and two or more are refused.
        """
        if not isinstance(text, str):
            raise ValueError(f"a PBN deal is text, got {type(text).__name__}")
        body = text.strip()
        if len(body) < 2 or body[1] != ":" or body[0].upper() not in "NESW":
            raise ValueError(f"{text!r} does not start with the first seat and a colon (e.g. 'N:')")
        first = Seat(body[0].upper())
        hands = body[2:].split()
        if len(hands) != 4:
            raise ValueError(f"{len(hands)} hands after '{body[:2]}', want 4 separated by spaces")
        unknown = [seat for seat, hand in zip(clockwise_from(first), hands) if hand == "-"]
        if complete and len(unknown) > 1:
            raise ValueError(f"{_possessive(unknown)} hands are '-' (unknown): a hand record gives at least "
                             "three hands (the fourth is the rest of the pack)")
        held: dict[Seat, list[Card]] = {}
        for seat, hand in zip(clockwise_from(first), hands):
            if not (complete and hand == "-"):
                held[seat] = _parse_hand(seat, hand)
        if complete and unknown:
            taken = {c for cards in held.values() for c in cards}
            held[unknown[0]] = [c for c in _PACK if c not in taken]
            try:
                return cls.from_hands(held)
            except ValueError as exc:
                raise ValueError(f"{SEAT_NAMES[unknown[0]]}'s hand is '-' (the rest of the pack), but the "
                                 f"other three are not 39 different cards: {exc}") from None
        return cls.from_hands(held)

    # -- reading -----------------------------------------------------------------------------------

    def holder(self, card: Card) -> Seat:
        """The seat that holds ``card``: the one place where a card is compared with a record."""
        return self.seats[card_index(card)]

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The seat's 13 cards, spades, hearts, diamonds, clubs, each from the ace down."""
        return tuple(card for card, s in zip(_PACK, self.seats) if s is seat)

    def assignment(self) -> tuple[Seat, ...]:
        """The 52 seats in :func:`full_pack` order (Duplimate's card numbers 01..52)."""
        return self.seats

    def pbn_hand(self, seat: Seat) -> str:
        """One hand in PBN: ``"AJ9.K9542.Q.AK93"`` (a void is an empty suit between the dots)."""
        return ".".join("".join(c.rank for c in self.hand(seat) if c.suit == suit) for suit in SUITS)

    def pbn(self, first: Seat = Seat.N) -> str:
        """The deal as PBN 2.1 writes it: the first seat, a colon, the four hands clockwise from it."""
        return f"{first}:" + " ".join(self.pbn_hand(s) for s in clockwise_from(first))

    @property
    def fingerprint(self) -> str:
        """SHA-256 (hex) of the ASCII bytes of ``self.pbn(Seat.N)``; see the module docstring."""
        return hashlib.sha256(self.pbn(Seat.N).encode("ascii")).hexdigest()

    def __str__(self) -> str:
        return self.pbn()


def _parse_hand(seat: Seat, hand: str) -> list[Card]:
    who = SEAT_NAMES[seat]
    if hand == "-":
        raise ValueError(f"{who}'s hand is '-' (unknown): a hand record needs all four hands")
    suits = hand.split(".")
    if len(suits) != 4:
        raise ValueError(f"{who}'s hand {hand!r} has {len(suits)} suits, want 4 "
                         "(spades.hearts.diamonds.clubs)")
    cards: list[Card] = []
    for suit, ranks in zip(SUITS, suits):
        for r in ranks.upper():
            if r not in RANKS:
                raise ValueError(f"{who}'s hand {hand!r}: {r!r} is not a rank (want AKQJT98765432)")
            cards.append(Card(r, suit))
    return cards


@dataclass(frozen=True)
class Board:
    """The hand record of one board: its number, dealer, vulnerability and deal.

    The dealer and vulnerability must be those of the board number (``DB-2``); the constructor says
    which one disagrees. :meth:`numbered` fills both in from the number.
    """

    number: int
    dealer: Seat
    vulnerability: Vulnerability
    deal: Deal

    def __post_init__(self) -> None:
        want_dealer, want_vul = dealer(self.number), vulnerability(self.number)  # checks the number
        try:
            got_dealer = Seat(self.dealer)
        except ValueError:
            raise ValueError(f"board {self.number}: {self.dealer!r} is not a seat") from None
        try:
            got_vul = Vulnerability(self.vulnerability)
        except ValueError:
            raise ValueError(f"board {self.number}: {self.vulnerability!r} is not a vulnerability "
                             "(want None, NS, EW or All)") from None
        if got_dealer is not want_dealer:
            raise ValueError(f"board {self.number} is dealt by {want_dealer} ({DB2_LAW}), "
                             f"not {got_dealer}")
        if got_vul is not want_vul:
            raise ValueError(f"board {self.number} has {want_vul.words} ({DB2_LAW}), not {got_vul.value}")
        if not isinstance(self.deal, Deal):
            raise ValueError(f"board {self.number}: the deal must be a Deal")
        object.__setattr__(self, "dealer", got_dealer)
        object.__setattr__(self, "vulnerability", got_vul)

    @classmethod
    def numbered(cls, number: int, deal: Deal) -> Board:
        """Board ``number`` with the dealer and vulnerability that its number gives it."""
        return cls(number, dealer(number), vulnerability(number), deal)

    @property
    def fingerprint(self) -> str:
        """The deal's fingerprint (the number, dealer and vulnerability are not part of it)."""
        return self.deal.fingerprint

    def commitment_line(self) -> str:
        """``"<number> <dealer> <vulnerability> <PBN from North>"``, one line of the commitment text."""
        return f"{self.number} {self.dealer} {self.vulnerability.value} {self.deal.pbn(Seat.N)}"


def board_hash(board: Board) -> str:
    """SHA-256 (hex) of the board's :meth:`Board.commitment_line`: its entry in the commitment's index."""
    return hashlib.sha256(board.commitment_line().encode("ascii")).hexdigest()


def board_index(boards: Iterable[Board]) -> tuple[tuple[int, str], ...]:
    """Each board's number and :func:`board_hash`, in number order (the commitment's index).

    Raises ``ValueError`` if two boards have the same number or there are none.
    """
    ordered = sorted(boards, key=lambda b: b.number)
    if not ordered:
        raise ValueError("no boards to commit to")
    for a, b in zip(ordered, ordered[1:]):
        if a.number == b.number:
            raise ValueError(f"board {a.number} appears twice")
    return tuple((b.number, board_hash(b)) for b in ordered)


def index_text(index: Iterable[tuple[int, str]]) -> str:
    """The canonical text a commitment hashes, from an index: the header line, then ``<number> <hash>``
    per board in the index's order, every line ending in a line feed."""
    return "".join(line + "\n" for line in [COMMITMENT_HEADER] + [f"{n} {h}" for n, h in index])


def commitment_text(boards: Iterable[Board]) -> str:
    """The canonical text a commitment hashes (:func:`index_text` of :func:`board_index`).

    Raises ``ValueError`` if two boards have the same number or there are none.
    """
    return index_text(board_index(boards))


def commitment(boards: Iterable[Board]) -> str:
    """SHA-256 (hex) of :func:`commitment_text`: what a club publishes before play."""
    return hashlib.sha256(commitment_text(boards).encode("ascii")).hexdigest()


def index_commitment(index: Iterable[tuple[int, str]]) -> str:
    """SHA-256 (hex) of :func:`index_text`: the commitment an index hashes to."""
    return hashlib.sha256(index_text(index).encode("ascii")).hexdigest()


def file_part(played: Iterable[Board], in_file: Iterable[Board]) -> dict[str, Any] | None:
    """What a session sends beside its own commitment when its hand records file holds boards it does not
    play: ``{"commitment": <the file's>, "others": [[number, hash], ...]}``, the index entries of those
    boards, so that a table holding the whole file's commitment can check a record against it
    (:func:`file_index`); None when the session plays every board of the file (the two commitments are
    one). A session commits to the boards it plays; a director may publish either commitment."""
    numbers = {b.number for b in played}
    every = board_index(in_file)
    others = [[n, h] for n, h in every if n not in numbers]
    if not others:
        return None
    return {"commitment": index_commitment(every), "others": others}


def file_index(index: Iterable[tuple[int, str]], others: Iterable[tuple[int, str]]) -> tuple[tuple[int, str], ...]:
    """The whole file's index from a session's index and the ``others`` of its :func:`file_part`, in
    board-number order (:func:`check_index` then refuses one whose numbers repeat)."""
    return tuple(sorted([*index, *others], key=lambda e: e[0]))


def verify_commitment(boards: Iterable[Board], digest: str) -> bool:
    """Whether ``digest`` (hex, any case, surrounding spaces ignored) is the commitment to ``boards``."""
    if not isinstance(digest, str):
        return False
    return commitment(boards) == digest.strip().lower()


def check_index(index: Sequence[tuple[int, str]], digest: str) -> str:
    """What is wrong with an index sent with the commitment ``digest`` ("" when it hashes to it): board
    numbers rising, each hash 64 lower-case hex digits, the whole hashing to ``digest``."""
    numbers = [n for n, _ in index]
    if not index or any(b <= a for a, b in zip(numbers, numbers[1:])):
        return "the index's board numbers do not rise"
    if any(len(h) != 64 or h.strip("0123456789abcdef") for _, h in index):
        return "an index entry is not a SHA-256 (64 lower-case hex digits)"
    if hashlib.sha256(index_text(index).encode("ascii")).hexdigest() != digest:
        return f"the index does not hash to the commitment {digest[:16]}..."
    return ""


def check_board(board: Board, index: Sequence[tuple[int, str]], digest: str) -> str:
    """Why ``board`` is not one of the boards committed to by ``digest`` ("" when it is), checked alone:
    ``index`` must hash to ``digest`` (:func:`check_index`) and the board's hash be its number's entry."""
    problem = check_index(index, digest)
    if problem:
        return problem
    entry = dict(index).get(board.number)
    if entry is None:
        return f"board {board.number} is not in the committed boards"
    if board_hash(board) != entry:
        return f"board {board.number}'s record does not match the commitment (its hash is not the index's)"
    return ""
