"""A euchre table's journal folded into the broadcast's feed items, hand by hand (no LIN for euchre: the
page and a JSON record).

The fold reads what a euchre table journals (``docs/events.md``): ``deal_start`` opens a hand (the
table's hands are numbered 1, 2, ... in the order dealt: the item's ``board``), ``card_dealt`` builds each
seat's hand (shown as one ``hands`` item when the deal ends, ``deal_end``, or at the turned card, whichever
comes first; an unreadable card is ``?``), ``trump_turned``, ``bid``, ``trump_made``, ``discard``,
``card_played``, ``result`` and the table's rulings. Like the bridge fold it never re-rules anything, and
each item is the same allow-list (:class:`laws.broadcast.feed.Item`): kinds ``deal`` (``dealer``),
``hands``, ``turned`` (``card``), ``bid`` (``seat``, ``call``, ``suit``, ``alone``), ``trump`` (``seat``,
``suit``, ``alone``), ``discard`` (``seat``, ``card``), ``card`` (``seat``, ``card``, ``trick``: three cards
a trick when a lone hand's partner sits out), ``ruling`` and ``result`` (``tricks``, ``makers``, ``alone``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from laws.broadcast.feed import Fold, Item
from laws.cards import Card, Seat
from laws.games.euchre_hands import effective_suit, power

SEATS = ("N", "E", "S", "W")


@dataclass
class EuchreHand:
    """One hand at one euchre table as the broadcast knows it."""

    table: int
    board: int                      # the table's hand number
    dealer: str
    hands: dict[str, list[str]] = field(default_factory=lambda: {s: [] for s in SEATS})
    hands_shown: bool = False
    turned: str | None = None
    trump: str | None = None
    maker: str | None = None
    alone: bool = False
    cards: list[tuple[str, str]] = field(default_factory=list)
    tricks: int | None = None
    makers: str | None = None
    items: list[Item] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        return self.tricks is not None

    def won(self) -> dict[str, int]:
        """Tricks each side has won so far (trump decides; the left bower is a trump)."""
        out = {"NS": 0, "EW": 0}
        if self.trump is None:
            return out
        size = 3 if self.alone else 4
        for k in range(len(self.cards) // size):
            trick = self.cards[k * size:(k + 1) * size]
            led = effective_suit(Card(trick[0][1][0], trick[0][1][1]), self.trump)
            seat = max(trick, key=lambda p: power(Card(p[1][0], p[1][1]), self.trump or "S", led))[0]
            out["NS" if seat in ("N", "S") else "EW"] += 1
        return out


class EuchreFeed(Fold[EuchreHand]):
    """Folds one euchre table's journal rows into :class:`EuchreHand` values and :class:`Item` values."""

    def __init__(self, table: int) -> None:
        self.table = table
        self.hands: list[EuchreHand] = []
        self.current: EuchreHand | None = None

    def add(self, seq: int, kind: str, body: Mapping[str, Any], t: float) -> list[Item]:
        """Fold one journal row; the items it makes."""
        if kind == "ruling" and self.current is not None:
            return [self._item("ruling", seq, t, clause=str(body.get("clause", "")), law=body.get("law"),
                               reason=body.get("reason"))]
        if kind != "event":
            return []
        etype = body.get("type")
        if etype == "deal_start":
            dealer = str(Seat(str(body["dealer"])).value)
            self.current = EuchreHand(self.table, len(self.hands) + 1, dealer)
            self.hands.append(self.current)
            return [self._item("deal", seq, t, dealer=dealer)]
        h = self.current
        if h is None:
            return []
        if etype == "card_dealt" and not h.hands_shown:
            seat = str(Seat(str(body["seat"])).value)
            h.hands[seat].append(_card(body.get("card")))
            return []
        out: list[Item] = []
        if etype in ("deal_end", "trump_turned") and not h.hands_shown:
            h.hands_shown = True
            out.append(self._item("hands", seq, t, hands={s: list(c) for s, c in h.hands.items()}))
        if etype == "trump_turned":
            h.turned = _card(body["card"])
            out.append(self._item("turned", seq, t, card=h.turned))
        elif etype == "bid":
            out.append(self._item("bid", seq, t, seat=str(Seat(str(body["seat"])).value), call=str(body["call"]),
                                  suit=body.get("suit"), alone=bool(body.get("alone"))))
        elif etype == "trump_made":
            h.trump, h.maker, h.alone = str(body["suit"]), str(Seat(str(body["seat"])).value), bool(body.get("alone"))
            out.append(self._item("trump", seq, t, seat=h.maker, suit=h.trump, alone=h.alone))
        elif etype == "discard":
            out.append(self._item("discard", seq, t, seat=str(Seat(str(body["seat"])).value),
                                  card=_card(body.get("card"))))
        elif etype == "card_played":
            seat, card = str(Seat(str(body["seat"])).value), _card(body["card"])
            h.cards.append((seat, card))
            size = 3 if h.alone else 4
            out.append(self._item("card", seq, t, seat=seat, card=card, trick=(len(h.cards) - 1) // size + 1))
        elif etype == "result" and h.tricks is None:
            h.tricks = int(body["tricks"])
            h.makers = None if body.get("makers") is None else str(body["makers"])
            out.append(self._item("result", seq, t, tricks=h.tricks, makers=h.makers, alone=bool(body.get("alone"))))
        return out



def _card(value: Any) -> str:
    """A card code as journaled (``TS``), or ``?`` when the camera could not read it."""
    text = str(value or "").upper()
    if len(text) == 3 and text.startswith("10"):
        text = "T" + text[2]
    return text if len(text) == 2 and text[0] in "AKQJT98765432" and text[1] in "SHDC" else "?"

