"""A table's journal folded into the broadcast's feed items, in the order the table committed them.

The fold reads what a duplicate table journals (``docs/events.md``): the ``board`` event (number, deal,
section, table, round, pairs), ``call`` and ``card_played`` events, ``claim``/``claim_reply``/``claim_ruled``,
and the table's own rulings (``BP-22`` closes the auction and says which calls stand, ``DB-77`` scores,
any other ruling is an irregularity of the call or card before it). It never re-rules anything: a
spectator sees what the table journaled, with the law each ruling cites.

Each item is an allow-list: :meth:`Item.view` gives the fields a spectator may see and nothing else
(never a record fingerprint, a source, a password or a page key). Whether and when it may be seen is
the release rule's business (:mod:`laws.broadcast.release`), not the item's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from laws.cards import Seat, clockwise_from
from laws.duplicate.boards import dealer as board_dealer
from laws.duplicate.boards import vulnerability

KINDS = ("board", "call", "card", "claim", "ruling", "result", "deal", "hands", "turned", "bid", "trump", "discard")


@dataclass(frozen=True)
class Item:
    """One thing a spectator may be shown: what it is, where and when the table committed it.

    ``seq`` is the journal row it comes from, ``t`` the table's commit time (seconds), ``index`` its
    place in the board's feed (0 for the board itself), ``data`` the allow-listed fields.
    """

    kind: str
    table: int
    board: int
    index: int
    seq: int
    t: float
    data: Mapping[str, Any] = field(default_factory=dict)

    def view(self) -> dict[str, Any]:
        """What a spectator is sent: the item's place and its allow-listed fields."""
        return {"kind": self.kind, "table": self.table, "board": self.board, "index": self.index,
                **{k: self.data[k] for k in ALLOWED[self.kind] if k in self.data}}


ALLOWED: Mapping[str, tuple[str, ...]] = {
    "board": ("section", "round", "ns", "ew", "names", "dealer", "vulnerable", "hands"),
    "call": ("seat", "call"),
    "card": ("seat", "card", "trick"),
    "claim": ("seat", "tricks", "outcome"),
    "ruling": ("clause", "law", "reason"),
    "result": ("contract", "declarer", "tricks", "score", "lead", "auction", "confirmed", "makers", "alone"),
    # euchre's (laws.broadcast.euchre)
    "deal": ("dealer",),
    "hands": ("hands",),
    "turned": ("card",),
    "bid": ("seat", "call", "suit", "alone"),
    "trump": ("seat", "suit", "alone"),
    "discard": ("seat", "card"),
}


@dataclass
class BoardPlay:
    """One board at one table as the broadcast knows it: the items so far and what they add up to."""

    table: int
    board: int
    dealer: Seat
    vulnerable: str
    hands: dict[Seat, str]
    section: str | None = None
    round: int | None = None
    ns: str | None = None
    ew: str | None = None
    calls: list[tuple[Seat, str]] = field(default_factory=list)        # every call made, in order
    auction: list[str] | None = None                                    # the calls that stand (BP-22)
    cards: list[tuple[Seat, str]] = field(default_factory=list)
    claim: tuple[Seat, int] | None = None
    claim_tricks: int | None = None                                     # the claim's tricks, once it stands
    contract: str | None = None
    declarer: Seat | None = None
    tricks: int | None = None
    score: int | None = None
    confirmed: bool = False
    items: list[Item] = field(default_factory=list)

    @property
    def finished(self) -> bool:
        """The board's result is in (scored from the cards, or passed out)."""
        return self.score is not None


def _hands(deal: str) -> dict[Seat, str]:
    """PBN ``N:h h h h`` to each seat's hand text (``S.H.D.C``)."""
    first, _, rest = deal.partition(":")
    seats = clockwise_from(Seat(first.strip().upper()))
    return dict(zip(seats, rest.split()))


class _Unit(Protocol):
    """What a fold keeps one board (or euchre hand) in: where it is played and its items so far."""

    table: int
    board: int
    items: list[Item]


U = TypeVar("U", bound=_Unit)


class Fold(Generic[U]):
    """What every table's fold shares, bridge's (:class:`TableFeed`) and euchre's
    (:class:`laws.broadcast.euchre.EuchreFeed`): rows folded one by one, each item numbered in the board
    (or hand) it belongs to, the one in play (``current``)."""

    current: U | None

    def add(self, seq: int, kind: str, body: Mapping[str, Any], t: float) -> list[Item]:
        """Fold one journal row; the items it makes (none for rows a spectator never sees)."""
        raise NotImplementedError

    def add_all(self, rows: Iterable[tuple[int, str, Mapping[str, Any], float]]) -> list[Item]:
        """Fold rows in order; the items they make."""
        out: list[Item] = []
        for seq, kind, body, t in rows:
            out.extend(self.add(seq, kind, body, t))
        return out

    def _item(self, kind: str, seq: int, t: float, **data: Any) -> Item:
        """The next item of the board (or hand) in play, kept in it."""
        unit = self.current
        assert unit is not None
        item = Item(kind, unit.table, unit.board, len(unit.items), seq, t, data)
        unit.items.append(item)
        return item


class TableFeed(Fold[BoardPlay]):
    """Folds one table's journal rows into :class:`BoardPlay` values and :class:`Item` values.

    Args:
        table: the table's number (a row's own ``table`` field wins when it has one).
    """

    def __init__(self, table: int) -> None:
        self.table = table
        self.boards: list[BoardPlay] = []
        self.current: BoardPlay | None = None

    def add(self, seq: int, kind: str, body: Mapping[str, Any], t: float) -> list[Item]:
        """Fold one journal row; the items it makes (none for rows a spectator never sees)."""
        if kind == "event":
            return self._event(seq, body, t)
        if kind == "ruling" and self.current is not None:
            return self._ruling(seq, body, t)
        return []


    def _event(self, seq: int, body: Mapping[str, Any], t: float) -> list[Item]:
        kind = body.get("type")
        if kind == "board":
            number = int(body["board"])
            table = int(body.get("table") or self.table)
            self.current = BoardPlay(table, number, board_dealer(number), vulnerability(number).value,
                                     _hands(str(body["deal"])), body.get("section"), body.get("round"),
                                     body.get("ns"), body.get("ew"))
            self.boards.append(self.current)
            new = self.current
            return [self._item("board", seq, t, section=new.section, round=new.round, ns=new.ns, ew=new.ew,
                               dealer=new.dealer.value, vulnerable=new.vulnerable,
                               hands={s.value: h for s, h in new.hands.items()})]
        b = self.current
        if b is None:
            return []
        if kind == "call":
            seat = Seat(str(body["seat"]))
            b.calls.append((seat, str(body["call"])))
            return [self._item("call", seq, t, seat=seat.value, call=str(body["call"]))]
        if kind == "card_played":
            seat = Seat(str(body["seat"]))
            b.cards.append((seat, str(body["card"])))
            return [self._item("card", seq, t, seat=seat.value, card=str(body["card"]),
                               trick=(len(b.cards) - 1) // 4 + 1)]
        if kind == "claim":
            b.claim = (Seat(str(body["seat"])), int(body["tricks"]))
            return [self._item("claim", seq, t, seat=b.claim[0].value, tricks=b.claim[1], outcome="claimed")]
        if kind == "claim_reply" and b.claim is not None:
            outcome = "agreed" if body.get("agree") else "disputed"
            if body.get("agree"):
                b.claim_tricks = b.claim[1]
            return [self._item("claim", seq, t, seat=b.claim[0].value, tricks=b.claim[1], outcome=outcome)]
        if kind == "claim_ruled" and b.claim is not None:
            b.claim_tricks = int(body["tricks"])
            return [self._item("claim", seq, t, seat=b.claim[0].value, tricks=b.claim_tricks, outcome="ruled")]
        return []

    def _ruling(self, seq: int, body: Mapping[str, Any], t: float) -> list[Item]:
        b = self.current
        assert b is not None
        clause = str(body.get("clause", ""))
        if clause == "BP-22":
            b.auction = [str(c) for c in body.get("calls", [])]
            if body.get("passed_out"):
                b.contract = "Pass"
            else:
                b.contract = str(body.get("contract"))
                b.declarer = Seat(str(body["declarer"]))
            return [self._item("ruling", seq, t, clause=clause, law=body.get("law"), reason=body.get("reason"))]
        if clause == "DB-77" and body.get("remedy") == "score":
            first = b.score is None
            b.contract = str(body.get("contract"))
            b.declarer = Seat(str(body["declarer"])) if body.get("declarer") else None
            b.tricks = int(body.get("tricks") or 0)
            b.score = int(body.get("score") or 0)
            b.confirmed = bool(body.get("confirmed"))
            if not first and not b.confirmed:
                return []
            return [self._item("result", seq, t, contract=b.contract,
                               declarer=b.declarer.value if b.declarer else None, tricks=b.tricks, score=b.score,
                               lead=body.get("lead"), auction=body.get("auction"), confirmed=b.confirmed)]
        if clause in ("DB-7", "DB-78"):
            return []
        return [self._item("ruling", seq, t, clause=clause, law=body.get("law"), reason=body.get("reason"))]
