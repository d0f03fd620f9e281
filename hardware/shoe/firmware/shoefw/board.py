"""Dealing a board from a hand record (protocol 1.2, PROTOCOL.md section 7.1): which seat each of the
52 cards goes to, and which cards go to the reject exit instead.

Cards are numbered 0-51 in the canonical order: spades, hearts, diamonds, clubs, each from the ace down
(Duplimate's card numbers 01-52 are these plus one). On the wire a record is 13 bytes of 2-bit seat
codes (card 0 in the top two bits of the first byte) and a set of cards is 7 bytes of bits (card 0 the
top bit of the first byte; the last four bits unused, sent as 0 and ignored).
"""

RANKS = "AKQJT98765432"
SUITS = "SHDC"
SEATS_LEN = 13
CARDS_LEN = 7

# Where a card goes (the hardware layer's ``route``): seats 0-3 are the pockets, REJECT the reject exit.
REJECT = 5

# CARD_REJECTED reasons.
REJECT_UNREADABLE = 1      # no code read, or a code that names no card (a back mark, a damaged code)
REJECT_OTHER_PACK = 2      # a card of another pack than the board's
REJECT_PLACED = 3          # this card of the board is already in its pocket (a duplicate)


def card_number(card):
    """0-51 for a card text such as ``"TS"``; -1 when it is not a card."""
    if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
        return -1
    return SUITS.index(card[1]) * 13 + RANKS.index(card[0])


def card_text(k):
    return RANKS[k % 13] + SUITS[k // 13]


def pack_seats(seats):
    """52 seat codes (0-3) in card order -> 13 bytes."""
    out = bytearray(SEATS_LEN)
    for k in range(52):
        out[k >> 2] |= (seats[k] & 3) << (6 - 2 * (k & 3))
    return bytes(out)


def unpack_seats(data):
    """13 bytes -> 52 seat codes in card order."""
    return [(data[k >> 2] >> (6 - 2 * (k & 3))) & 3 for k in range(52)]


def pack_cards(cards):
    """Card texts -> the 7-byte set."""
    out = bytearray(CARDS_LEN)
    for card in cards:
        k = card_number(card)
        out[k >> 3] |= 0x80 >> (k & 7)
    return bytes(out)


def unpack_cards(data):
    """The 7-byte set -> its card texts in card order (the four unused bits ignored)."""
    return [card_text(k) for k in range(52) if data[k >> 3] & (0x80 >> (k & 7))]


def check_record(seats):
    """None when every seat gets 13 cards, else a sentence saying which do not."""
    counts = [0, 0, 0, 0]
    for s in seats:
        counts[s] += 1
    wrong = ["NESW"[s] + " " + str(counts[s]) for s in range(4) if counts[s] != 13]
    if wrong:
        return "a board gives 13 cards to each seat, this record gives " + ", ".join(wrong)
    return None


class Board:
    """A board being dealt: its record, the cards already in their pockets, its pack and counts."""

    def __init__(self, number, board_id, seats, placed, pack):
        self.number = number
        self.board_id = board_id
        self.seats = list(seats)
        self.placed = [False] * 52
        for card in placed:
            self.placed[card_number(card)] = True
        self.count = sum(1 for p in self.placed if p)
        self.named = pack                 # the pack the host named ("" : the first card placed fixes it)
        self.pack = pack
        self.rejected = 0

    def judge(self, card, pack):
        """(destination, reject reason or 0) for a card as read: ``card`` None when unreadable."""
        if card is None:
            return REJECT, REJECT_UNREADABLE
        k = card_number(card)
        if self.pack and pack != self.pack:
            return REJECT, REJECT_OTHER_PACK
        if self.placed[k]:
            return REJECT, REJECT_PLACED
        return self.seats[k], 0

    def place(self, card, pack):
        self.placed[card_number(card)] = True
        self.count += 1
        if not self.pack:
            self.pack = pack

    def reject(self):
        if self.rejected < 255:
            self.rejected += 1

    def missing(self):
        return [card_text(k) for k in range(52) if not self.placed[k]]

    def complete(self):
        return self.count == 52
