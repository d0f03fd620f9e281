"""Portable Bridge Notation: every completed bridge deal as a PBN record.

``pbn_record`` writes the tags Event, Site, Date, Board, West, North, East, South, Dealer, Vulnerable,
Deal and Scoring ("Rubber"), then Declarer, Contract and Result: every tag of PBN's mandatory set, as the
file's ``% EXPORT`` line promises (``?`` where a value is unknown; a passed-out board has Contract
``Pass`` and an empty Declarer and Result). Where the table recorded them, the auction and the play
follow (PBN 2.1 sections 3.5 and 3.6: ``[Auction "<dealer>"]`` with the calls in rotation from the
dealer, four a line; ``[Play "<opening leader>"]`` with one line a trick in seat columns from the opening
leader, ``*`` after the last line when a claim ended play), as ``laws.bridge`` writes them.

``deals_from_events`` rebuilds the deals from the journal's event dicts (``laws.events`` format): a deal
is ``deal_start``, the ``card_dealt`` events and ``deal_end``; it is a board when it ended with 13 known
cards in each hand and its hand is finished: a ``result`` event before the next ``deal_start``, or the
table's own end of the hand from the cards (the last trick, a claim agreed or ruled, four passes). The
events are also fed to a law engine, which rules the auction and the play exactly as the table did; when
the table recorded them, the contract, declarer and result are the cards' (as the table scored them), not
a typed result's. A deal dealt one card short whose card turned up and was ruled to belong to the short
hand (``CB-missing-found``) is written as it stood once the card was restored, as the table played it.
A hand still in the auction or in play is left out (it becomes a board once it ends), and so is a deal
dealt again (redeal) or set aside, and one the journal cannot give whole (a card not read); boards are
numbered 1, 2, ... over the hands written, so ``boards_from_events`` also says, for each deal of the
table left out, its number (the table's, as its rulings give it) and why, and ``cardtable export pbn``
says it on standard error.

Vulnerability follows rubber scoring: a side that has won a game of the current rubber is vulnerable.
Games are worked out from each ``result`` (contract, declarer, and ``tricks`` = tricks won by declarer):
only contracted tricks count towards game (see docs/laws.md, rubber scoring).
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from laws.cards import RANKS, SUITS, Card, Seat, Side, clockwise_from
from laws.rulings import Remedy, Ruling

VULNERABILITIES = ("None", "NS", "EW", "All")
_CONTRACT = re.compile(r"^([1-7])(C|D|H|S|NT|N)(XX|X)?$")
_TRICK_VALUE = {"C": 20, "D": 20, "H": 30, "S": 30}


@dataclass(frozen=True)
class PbnDeal:
    """One board. ``hands`` holds 13 cards per seat; ``result`` is the tricks won by declarer."""

    board: int
    dealer: Seat
    vulnerable: str
    hands: dict[Seat, list[Card]]
    players: dict[Seat, str] = field(default_factory=dict)
    event: str = ""
    site: str = ""
    date: str = ""
    contract: str | None = None
    declarer: Seat | None = None
    result: int | None = None
    unverified: bool = False  # exported with --force from rows the hash chain does not vouch for
    auction: tuple[str, ...] = ()  # the [Auction] section's lines, tag first, when the table recorded it
    play: tuple[str, ...] = ()     # the [Play] section's lines, tag first, when the table recorded it


def normalise_contract(text: str) -> str:
    """A contract in PBN form (``"4HX"``, ``"3NT"``, ``"Pass"``); raises ``ValueError`` if unknown."""
    t = text.strip().upper().replace(" ", "")
    if t in ("PASS", "P", "AP", "PASSED"):
        return "Pass"
    m = _CONTRACT.match(t)
    if not m:
        raise ValueError(f"unknown contract {text!r} (want e.g. 4H, 3NT, 2SX, Pass)")
    level, strain, dbl = m.groups()
    return f"{level}{'NT' if strain in ('N', 'NT') else strain}{dbl or ''}"


def _hand_text(cards: Sequence[Card]) -> str:
    return ".".join("".join(r for r in RANKS if Card(r, s) in cards) for s in SUITS)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def pbn_record(deal: PbnDeal) -> str:
    """The PBN tags of one board, one ``[Tag "value"]`` per line, ending with a newline.

    Raises:
        ValueError: a hand without 13 cards, a card dealt twice, or an unknown vulnerability/contract.
    """
    if deal.vulnerable not in VULNERABILITIES:
        raise ValueError(f"board {deal.board}: vulnerability {deal.vulnerable!r} is not one of "
                         f"{', '.join(VULNERABILITIES)}")
    seen: set[Card] = set()
    for seat in Seat:
        cards = deal.hands.get(seat, [])
        if len(cards) != 13:
            raise ValueError(f"board {deal.board}: {seat} holds {len(cards)} cards, not 13")
        dup = seen.intersection(cards)
        if dup or len(set(cards)) != 13:
            raise ValueError(f"board {deal.board}: card {sorted(dup or cards)[0]} appears twice")
        seen.update(cards)
    order = clockwise_from(deal.dealer)
    tags: list[tuple[str, str]] = [
        ("Event", deal.event or "?"), ("Site", deal.site or "?"), ("Date", deal.date or "?"),
        ("Board", str(deal.board)),
        *((name, deal.players.get(seat) or "?") for name, seat in
          (("West", Seat.W), ("North", Seat.N), ("East", Seat.E), ("South", Seat.S))),
        ("Dealer", deal.dealer.value), ("Vulnerable", deal.vulnerable),
        ("Deal", f"{deal.dealer.value}:" + " ".join(_hand_text(deal.hands[s]) for s in order)),
        ("Scoring", "Rubber"),
    ]
    contract = normalise_contract(deal.contract) if deal.contract is not None else "?"
    passed = contract == "Pass"
    tags.append(("Declarer", "" if passed else deal.declarer.value if deal.declarer is not None else "?"))
    tags.append(("Contract", contract))
    tags.append(("Result", "" if passed else str(deal.result) if deal.result is not None else "?"))
    text = "".join(f'[{k} "{_escape(v)}"]\n' for k, v in tags)
    text += "".join(line + "\n" for line in (*deal.auction, *deal.play))
    if deal.unverified:
        text += "{Not verified: the journal's hash chain was broken before this board's rows.}\n"
    return text


HEADER = "% PBN 2.1\n% EXPORT\n"


def pbn_text(deals: Iterable[PbnDeal]) -> str:
    """A whole PBN file: the two header lines, then each board followed by one blank line (the last too).

    The first board follows the header at once: a blank line there would be an empty game to a reader
    that splits the file at blank lines (bridgebots reports it as a "Malformed record"), and a last board
    without its blank line is lost to it."""
    return HEADER + "".join(pbn_record(d) + "\n" for d in deals)


def session_tags(table_name: str) -> dict[str, str]:
    """The Event and Site tags of a table's boards, for ``deals_from_events(..., **session_tags(name))``:
    one source for the demo's file and ``cardtable export pbn`` alike."""
    return {"event": f"{table_name} rubber bridge", "site": table_name}


def write_pbn(path: str | Path, deals: Iterable[PbnDeal]) -> int:
    """Write the boards to a PBN file (``pbn_text``); returns how many."""
    deals = list(deals)
    Path(path).write_text(pbn_text(deals), encoding="utf-8")
    return len(deals)


def trick_score(contract: str, tricks: int) -> int:
    """Points below the line for declarer's side (0 if the contract failed or was passed)."""
    c = normalise_contract(contract)
    if c == "Pass":
        return 0
    m = _CONTRACT.match(c)
    assert m is not None
    level, strain, dbl = int(m.group(1)), m.group(2), m.group(3) or ""
    if tricks < 6 + level:
        return 0
    points = 40 + 30 * (level - 1) if strain == "NT" else _TRICK_VALUE[strain] * level
    return points * {"": 1, "X": 2, "XX": 4}[dbl]


class RubberState:
    """Games won in the current rubber, and part scores towards the current game."""

    def __init__(self) -> None:
        self.games = {Side.NS: 0, Side.EW: 0}
        self.below = {Side.NS: 0, Side.EW: 0}

    def vulnerable(self) -> str:
        """``None``, ``NS``, ``EW`` or ``All`` for the next deal."""
        ns, ew = self.games[Side.NS] > 0, self.games[Side.EW] > 0
        return {(False, False): "None", (True, False): "NS", (False, True): "EW", (True, True): "All"}[(ns, ew)]

    def record(self, contract: str, declarer: Seat, tricks: int) -> None:
        side = declarer.side
        self.below[side] += trick_score(contract, tricks)
        if self.below[side] >= 100:
            self.games[side] += 1
            self.below = {Side.NS: 0, Side.EW: 0}
            if self.games[side] == 2:
                self.games = {Side.NS: 0, Side.EW: 0}


@dataclass(frozen=True)
class LeftOut:
    """A deal of the table that is no board of the PBN: ``deal`` is its number at the table (the ``deal``
    of its rulings; None if the table did not take its start) and ``why`` says why, in words."""

    deal: int | None
    why: str

    def message(self) -> str:
        """``deal 8: left out of the PBN: ...`` (one line, for standard error)."""
        which = f"deal {self.deal}" if self.deal is not None else "a deal the table did not start"
        return f"{which}: left out of the PBN: {self.why}"


@dataclass
class _Open:
    dealer: Seat
    date: str
    number: int | None = None
    hands: dict[Seat, list[Card]] = field(default_factory=lambda: {s: [] for s in Seat})
    unknown: bool = False
    ended: bool = False
    result: dict[str, Any] | None = None
    unverified: bool = False
    auction: tuple[str, ...] = ()
    play: tuple[str, ...] = ()


class _Table:
    """A law engine fed the same events, for the auction and the play as the table ruled them."""

    def __init__(self) -> None:
        from laws.engine import LawEngine
        self.engine = LawEngine("contract-bridge")
        self.voided_by: Ruling | None = None   # the ruling that voided the current deal

    def feed(self, ev: dict[str, Any]) -> None:
        from laws.events import EventFormatError, event_from_dict
        d = self.engine.state.deal
        void = d is not None and d.void
        try:
            rulings = self.engine.feed(event_from_dict(ev))
        except (EventFormatError, ValueError):  # refused at the table too (journaled as not applied)
            return
        d = self.engine.state.deal
        if ev.get("type") == "deal_start":
            self.voided_by = None
        elif d is not None and d.void and not void and rulings:
            self.voided_by = rulings[-1]

    def started(self) -> int | None:
        """The number of the deal the last ``deal_start`` began (None: the engine did not take it)."""
        d = self.engine.state.deal
        return d.number if d is not None and not d.ended and not d.dealt else None

    def void(self) -> bool:
        d = self.engine.state.deal
        return d is not None and d.void

    def whole_hands(self, hands: dict[Seat, list[Card]]) -> dict[Seat, list[Card]]:
        """``hands`` as dealt, or the engine's when they hold a card the table restored to a short hand
        (``CB-missing-found``: found loose or with that hand, it is deemed to belong there): 13 a seat."""
        d = self.engine.state.deal
        if d is None or d.void or all(len(h) == 13 for h in hands.values()):
            return hands
        mine = {s: list(d.hands[s]) for s in Seat}
        if any(len(h) != 13 for h in mine.values()) or any(not set(hands[s]) <= set(mine[s]) for s in Seat):
            return hands
        return mine

    def hand(self) -> tuple[dict[str, Any] | None, tuple[str, ...], tuple[str, ...]]:
        """The deal's result from the cards (or None), and its auction and play sections."""
        from laws.bridge.pbn import play_lines
        d = self.engine.state.deal
        h = d.bridge if d is not None and not d.void else None
        if h is None or not h.captured:
            return None, (), ()
        auction = tuple(h.auction.pbn_lines())
        play = tuple(play_lines(h.play)) if h.play is not None and (h.play.tricks or h.play.current.cards
                                                                     or h.play.claim_state) else ()
        got = h.scored
        if got is not None and got.get("passed_out"):
            got = {"contract": "Pass"}
        return got, auction, play


def _date_of(ev: dict[str, Any], default: str) -> str:
    t = ev.get("t")
    if isinstance(t, (int, float)) and t > 1e9:  # a wall-clock timestamp, not a monotonic clock
        return time.strftime("%Y.%m.%d", time.localtime(t))
    return default


def _seats_from_draw(ev: dict[str, Any]) -> dict[Seat, str]:
    """Who sits where after a bridge draw: the seats it names, else the law engine's formation."""
    from laws.events import CardsDrawn, EventFormatError, event_from_dict
    from laws.formation import bridge_draw
    from laws.rulings import Remedy

    try:
        draw = event_from_dict(ev)
        assert isinstance(draw, CardsDrawn)
        rulings = bridge_draw(draw.cuts, seats=draw.seats)
    except (EventFormatError, ValueError, AssertionError):
        return {}
    for r in rulings:
        if r.remedy is Remedy.FORMATION:
            return {Seat(seat): name for name, seat in r.extra["seats"].items()}
    return {}


def deals_from_events(events: Iterable[dict[str, Any]], *, event: str = "", site: str = "",
                      date: str | None = None) -> list[PbnDeal]:
    """The completed bridge deals in a history of event dicts, numbered 1, 2, ... in order
    (``boards_from_events`` without the deals left out)."""
    return boards_from_events(events, event=event, site=site, date=date)[0]


def boards_from_events(events: Iterable[dict[str, Any]], *, event: str = "", site: str = "",
                       date: str | None = None) -> tuple[list[PbnDeal], list[LeftOut]]:
    """The completed bridge deals in a history of event dicts, numbered 1, 2, ... in order, and the
    bridge deals left out, each with why (a board number then belongs to the next hand written).

    Args:
        events: event dicts in ``laws.events`` format (``Journal.events()``).
        event: the PBN Event tag (e.g. the club's session name).
        site: the PBN Site tag (e.g. the table's name).
        date: ``YYYY.MM.DD`` used when an event carries no wall-clock ``t`` (default: today).

    Raises:
        ValueError: an event that is not in the event format (``event_from_dict`` first), or a result
            whose contract PBN cannot write.

    Returns:
        The boards, and the deals left out; deals of a euchre game (``{"type": "game", "game":
        "euchre"}``) are skipped without a word.
    """
    default_date = date or time.strftime("%Y.%m.%d")
    players: dict[Seat, str] = {}
    rubber = RubberState()
    bridge = True
    out: list[PbnDeal] = []
    left_out: list[LeftOut] = []
    current: _Open | None = None

    table = _Table()

    def close(last: bool = False) -> None:
        nonlocal current
        d, current = current, None
        if d is None or not bridge:
            return
        got, d.auction, d.play = table.hand()
        d.result = got or d.result
        d.hands = table.whole_hands(d.hands)
        why = _why_left_out(d, table, last)
        r = d.result
        if why or r is None:
            left_out.append(LeftOut(d.number, why))
            return
        declarer = Seat(r["declarer"]) if r.get("declarer") else None
        try:
            contract = normalise_contract(r["contract"]) if r.get("contract") else None
        except ValueError as exc:
            raise ValueError(f"board {len(out) + 1}: {exc}") from None
        tricks = r.get("tricks") if declarer is not None else None
        out.append(PbnDeal(len(out) + 1, d.dealer, rubber.vulnerable(), d.hands, dict(players), event,
                           site, d.date, contract, declarer, tricks, d.unverified, d.auction, d.play))
        if contract and declarer is not None and isinstance(tricks, int):
            rubber.record(contract, declarer, tricks)

    for ev in events:
        kind = ev.get("type")
        if kind in ("deal_start", "game"):
            close()  # before the engine moves on to the next deal
        if kind == "game":
            table = _Table()
        elif bridge:
            table.feed(ev)
        if current is not None and ev.get("unverified"):
            current.unverified = True
        if kind == "game":
            close()
            bridge = ev.get("game") == "contract-bridge"
            rubber = RubberState()
        elif kind == "draw" and bridge:
            players = _seats_from_draw(ev) or players
        elif kind == "leave" and ev.get("substitute"):
            for seat, name in list(players.items()):
                if name == ev.get("name"):
                    players[seat] = ev["substitute"]
        elif kind == "deal_start":
            close()
            current = _Open(Seat(ev["dealer"]), _date_of(ev, default_date), unverified=bool(ev.get("unverified")),
                            number=table.started() if bridge else None)
        elif current is not None and kind == "card_dealt":
            if ev.get("card") is None:
                current.unknown = True
            else:
                current.hands[Seat(ev["seat"])].append(Card.parse(ev["card"]))
        elif current is not None and kind == "deal_end":
            current.ended = True
        elif current is not None and kind == "result":
            current.result = ev
            close()
    close(last=True)
    return out, left_out


def _why_left_out(d: _Open, table: _Table, last: bool) -> str:
    """Why deal ``d`` is no board ("" when it is one), in words for standard error; ``last``: no event
    follows it in the history (its hand may still be under way)."""
    if table.void():
        r = table.voided_by
        if r is not None and r.remedy is Remedy.FORMATION:
            return f"the draw that formed the table after it was dealt set it aside unscored ({r.clause})"
        return f"a ruling{f' ({r.clause})' if r is not None else ''} voided it: it was not played"
    if d.unknown:
        return "a card of it was not read (the shoe named no card), so its hands are not known"
    if not d.ended:
        return "its dealing never ended"
    counts = {s: len(h) for s, h in d.hands.items()}
    if any(n != 13 for n in counts.values()):
        return ("its hands were never whole (" + ", ".join(f"{s.value} {n}" for s, n in counts.items()) +
                " cards) and no ruling restored them")
    if len({c for h in d.hands.values() for c in h}) != 52:
        return "a card of it was dealt twice"
    if d.result is None and last:
        return "its hand has not ended (it becomes a board once it ends)"
    if d.result is None:
        return "no result was recorded for it before the next deal began"
    return ""
