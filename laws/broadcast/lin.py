"""A board as a LIN record: the format of BBO's hand viewer and of vugraph archives.

No LIN specification is published; we write the records its readers are known to take, one board a
line, in this order (``docs/broadcast.md`` says why each is there):

``pn|South,West,North,East|`` the players (names from the roster, else the pair's label; commas and
bars removed from names), ``qx|o<board>|`` (or ``c`` for the closed room of a teams match) the room and
board, ``md|<dealer><S>,<W>,<N>,<E>|`` the deal with the dealer as a digit (1 South, 2 West, 3 North,
4 East) and each hand as ``S<ranks>H<ranks>D<ranks>C<ranks>``, ``rh||`` and ``ah|Board <n>|`` the
heading, ``sv|o|`` the vulnerability (``o`` none, ``n`` North-South, ``e`` East-West, ``b`` both),
``mb|<call>|`` each call that stands (``1C``..``7N``, ``p``, ``d``, ``r``; a call followed by ``!`` and an
``an|<text>|`` when it was alerted: the writer takes them, but the event format records no alerts, so the broadcast passes none), ``pg||`` after the auction and after each complete trick,
``pc|<suit><rank>|`` each card played (``ST`` for the ten), and ``mc|<tricks>|`` when a claim (agreed or
ruled) ended the play, giving declarer's total tricks.

Calls that did not stand (a call out of rotation cancelled, a withdrawn insufficient bid) are not in the
``mb`` list: a LIN auction is a plain sequence from the dealer, so it holds the auction that stands
(the table's ``BP-22`` ruling lists it); the irregularities are in the broadcast's feed and the replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from laws.bridge.tricks import trick_winner
from laws.broadcast.feed import BoardPlay
from laws.cards import Card, Seat, Side

LIN_SEAT = {Seat.S: "1", Seat.W: "2", Seat.N: "3", Seat.E: "4"}
LIN_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)
LIN_VUL = {"None": "o", "NS": "n", "EW": "e", "All": "b"}
_CALLS = {"pass": "p", "double": "d", "redouble": "r", "Pass": "p", "X": "d", "XX": "r"}


class LinError(ValueError):
    """A board that cannot be written as LIN (no deal, an unknown call or card)."""


def _clean(name: str) -> str:
    return "".join(ch for ch in name if ch not in ",|\r\n").strip()


def lin_call(call: str) -> str:
    """A call in LIN: ``1S``, ``3N``, ``p``, ``d``, ``r``."""
    if call in _CALLS:
        return _CALLS[call]
    text = call.strip().upper()
    if len(text) >= 2 and text[0] in "1234567" and text[1:] in ("C", "D", "H", "S", "N", "NT"):
        return text[0] + text[1]
    raise LinError(f"no LIN form for the call {call!r}")


def lin_card(card: str) -> str:
    """A card in LIN: our ``KC`` (rank, suit) is ``CK`` (suit, rank)."""
    if len(card) != 2 or card[0] not in "AKQJT98765432" or card[1] not in "SHDC":
        raise LinError(f"no LIN form for the card {card!r}")
    return card[1] + card[0]


def lin_hand(hand: str) -> str:
    """A hand in PBN form (``S.H.D.C`` ranks) in LIN form (``S...H...D...C...``)."""
    parts = hand.split(".")
    if len(parts) != 4:
        raise LinError(f"a hand is four suits separated by dots, got {hand!r}")
    return "".join(suit + ranks for suit, ranks in zip("SHDC", parts))


def lin_record(board: BoardPlay, names: Mapping[Seat, str] | None = None, room: str = "o",
               alerts: Mapping[int, str] | None = None) -> str:
    """One board's LIN record (one line, no line end).

    Args:
        board: the board as the broadcast folded it (:class:`laws.broadcast.feed.BoardPlay`).
        names: each seat's player name (else the pair's label, else empty).
        room: ``o`` (open, the default for a pairs event) or ``c`` (closed room of a teams match).
        alerts: explanations of alerted calls, by their index in the auction that stands.
    """
    if room not in ("o", "c"):
        raise LinError(f"a room is o (open) or c (closed), got {room!r}")
    if set(board.hands) != set(Seat):
        raise LinError(f"board {board.board}: the deal has {len(board.hands)} hands, not 4")
    shown = dict(names or {})
    for seat in Seat:
        if not shown.get(seat):
            pair = board.ns if seat.side is Side.NS else board.ew
            shown[seat] = pair or ""
    out = [f"pn|{','.join(_clean(shown[s]) for s in LIN_ORDER)}|", f"qx|{room}{board.board}|",
           f"md|{LIN_SEAT[board.dealer]}{','.join(lin_hand(board.hands[s]) for s in LIN_ORDER)}|",
           "rh||", f"ah|Board {board.board}|", f"sv|{LIN_VUL[board.vulnerable]}|"]
    auction: Sequence[str] = board.auction if board.auction is not None else [c for _s, c in board.calls]
    for i, call in enumerate(auction):
        note = (alerts or {}).get(i)
        out.append(f"mb|{lin_call(call)}{'!' if note else ''}|")
        if note:
            out.append(f"an|{_clean(note)}|")
    out.append("pg||")
    for i, (_seat, card) in enumerate(board.cards, 1):
        out.append(f"pc|{lin_card(card)}|")
        if i % 4 == 0:
            out.append("pg||")
    if board.claim_tricks is not None and board.claim is not None and board.declarer is not None:
        out.append(f"mc|{claimed_total(board)}|")
    return "".join(out)


def claimed_total(board: BoardPlay) -> int:
    """Declarer's total tricks after a claim that stands: the tricks his side won before it and the
    claim's share of the rest (a defender's claim leaves declarer the rest of the remaining)."""
    assert board.claim is not None and board.claim_tricks is not None and board.declarer is not None
    trump = None if board.contract is None else _trump(board.contract)
    won = {Side.NS: 0, Side.EW: 0}
    complete = len(board.cards) // 4
    for k in range(complete):
        trick = board.cards[4 * k: 4 * k + 4]
        cards = {seat: Card(c[0], c[1]) for seat, c in trick}
        winner = trick_winner(cards, trick[0][0], trump)
        won[winner.side] += 1
    remaining = 13 - complete
    claimer, tricks = board.claim[0], board.claim_tricks
    ours = won[board.declarer.side]
    return ours + (tricks if claimer.side is board.declarer.side else remaining - tricks)


def _trump(contract: str) -> str | None:
    strain = contract.rstrip("X")[1:]
    return None if strain in ("N", "NT", "ass") else strain
