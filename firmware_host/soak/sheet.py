"""The soak's own account of an evening, worked out from the driver's record alone, never from what the
table ruled: whose deal each deal is, which seats and pack each mistake concerns, the rulings the laws give
(``schedule.EXPECTED``), the score sheet, and which lamps must be lit and when they must be out.

* **Whose deal.** The draw's highest card deals first (``schedule.DRAW``: Ann, who sits North); then the
  deal passes to the left, except after a deal the laws void (``schedule.VOIDING``: a redeal, a pack
  replaced mid-deal), which the same dealer deals again.
* **The facts of a deal** (``Facts``): that dealer, the seat a mistake concerns (the faced, repeated,
  foreign card's seat as the shoe dealt it, the short hand, the button pressed, the hand counted first),
  and the pack the deal is taken to be of (the first card that names one before the fault).
* **The score sheet.** The results the driver entered, hand by hand, and the penalty points of law 90 for
  its wrong counts, scored with ``laws.scoring`` (the arithmetic only; its inputs are the driver's), a new
  rubber after each one won. A bridge hand played through the auction and the play scores the soak's own
  result (``bridge``: the tricks from its own trick winners, after BP-64's transfer or a ruled claim) with
  the honours the soak counted in the hands; a typed result too takes the honours of the hands where the shoe
  dealt the whole deal readable (as the table does), else its typed ones. A voided deal scores nothing; a hand whose penalty points won the rubber
  scores no more. A rubber won names who played for each side (``schedule.SIDES``, from the draw).
* **Lamps** (``lamp_problems``): a redeal lights ``redeal``, a pack replaced ``replace_pack``, an attention
  ruling for a seat that seat's ``attention_<seat>`` (at once: in the lamp row committed with it); every
  ruling lamp is out by the first card of the next deal and after the director's acknowledgement; a device
  lamp follows its device's journal note; at the end only the lamps of the last deal's rulings may be lit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from firmware_host.soak.record import DealRecord, Dealt, Record
from firmware_host.soak.schedule import (
    EXPECTED,
    FIRST_DEALER,
    SHEET_REMEDIES,
    SIDES,
    VOIDING,
    Want,
    first_fault,
)
from laws.cards import Seat, Side

RULING_LAMPS = ("redeal", "shuffle", "replace_pack", "attention_N", "attention_E", "attention_S", "attention_W")
DEVICE_LAMPS = {"shoe": "shoe_offline", "camera": "camera_offline"}
Row = tuple[int, str, dict[str, Any]]


@dataclass(frozen=True)
class Facts:
    """What the soak knows of one deal."""

    dealer: str
    fault: str | None = None        # the irregularity among the cards that left the shoe
    at: str | None = None           # the seat a mistake concerns
    pack: str = "unknown"           # the pack the deal is taken to be of when the fault shows
    more: tuple[tuple[str, str], ...] = ()  # the driver's other facts of the deal (``DealRecord.facts``)

    def value(self, name: str) -> str | None:
        if name == "at_side":
            return None if self.at is None else Seat(self.at).side.value
        if name in ("dealer", "at", "pack"):
            return {"dealer": self.dealer, "at": self.at, "pack": self.pack}[name]
        return dict(self.more).get(name)


def _short_seat(cards: Sequence[Dealt]) -> str | None:
    counts: dict[str, int] = {s.value: 0 for s in Seat}
    for c in cards:
        if c.seat in counts:
            counts[c.seat] += 1
    if not any(counts.values()):
        return None
    return min(counts, key=lambda s: (counts[s], "NESW".index(s)))


def deal_facts(record: Record) -> list[Facts]:
    """The facts of each deal, in order (the rotation worked out as it goes)."""
    out: list[Facts] = []
    dealer = FIRST_DEALER
    for d in record.deals:
        found = first_fault(record.game, d.cards, record.complete, d.pack_size)
        kind, at, pack = None, d.facts.get("at"), "unknown"
        if found is not None:
            kind, index = found
            named = [c.pack for c in (d.cards if index < 0 else d.cards[:index]) if c.readable]
            pack = named[0] if named else "unknown"
            at = None if index == -2 else _short_seat(d.cards) if index < 0 else d.cards[index].seat
        facts = Facts(dealer, kind, at, pack, tuple(sorted((k, v) for k, v in d.facts.items() if k != "at")))
        out.append(facts)
        wants = expected(record, d, facts)
        if not any(w.remedy in VOIDING and w.dealer == "dealer" for w in wants):
            dealer = Seat(dealer).left.value
    return out


def expected(record: Record, deal: DealRecord, facts: Facts) -> list[Want]:
    """The rulings the laws give for what happened in ``deal``, in order."""
    out: list[Want] = []
    if facts.fault is not None:
        out += EXPECTED[(record.game, facts.fault)]
    for kind in deal.mistakes:
        out += EXPECTED[(record.game, kind)]
    return out


def wrong_fields(want: Want, facts: Facts, ruling: dict[str, Any]) -> list[str]:
    """The fields of ``ruling`` that do not name what the facts say (``field: got X, want Y``)."""
    bad = []
    for name, fact in want.fields.items():
        value = facts.value(fact)
        if value is not None and ruling.get(name) != value and str(ruling.get(name)) != value:
            bad.append(f"{name} {ruling.get(name)!r}, want {value!r} ({fact})")
    return bad


def score_sheet(record: Record, facts: Sequence[Facts]) -> list[list[dict[str, Any]]]:
    """The score rulings each deal must bring (as ``Ruling.to_dict()``), from the driver's results."""
    from laws.scoring.bridge import RubberScore, parse_contract
    from laws.scoring.euchre import EuchreRubber

    bridge = record.game == "contract-bridge"
    players = {Side(k): v for k, v in SIDES[record.game].items()}   # a rubber_won names them
    scorer: Any = RubberScore() if bridge else EuchreRubber()
    sheet: list[list[dict[str, Any]]] = []
    for d, f in zip(record.deals, facts):
        rulings: list[Any] = []
        voided = any(w.remedy in VOIDING for w in expected(record, d, f))
        result = None if voided else d.result
        if not voided and not bridge and "wrong_count" in d.mistakes and d.facts.get("at"):
            rulings += scorer.wrong_count(Seat(d.facts["at"]).side, lone=False, players=players)
            if scorer.over:
                scorer, result = EuchreRubber(), None  # the penalty won the rubber: the hand scores no more
        if result is not None:
            if bridge:  # honours: the soak's own count from the hands, where the table knows the deal
                held = d.facts.get("honours", "") or _honours_dealt(d, result["contract"])
                rulings += scorer.record(Seat(result["declarer"]), parse_contract(result["contract"]),
                                         int(result["tricks"]),
                                         (Side(held.split(":")[0]), int(held.split(":")[1])) if held else None,
                                         players=players)
            else:
                rulings += scorer.record(Side(result["makers"]), bool(result.get("alone", False)),
                                         int(result["tricks"]), players=players)
            if any(r.remedy.value == "rubber_won" for r in rulings):
                scorer = RubberScore() if bridge else EuchreRubber()
        sheet.append([r.to_dict() for r in rulings])
    return sheet


def _honours_dealt(d: DealRecord, contract: str) -> str:
    """A typed result's honours by the soak's own count (``side:points``, or ""), where the shoe dealt the
    whole deal readable, thirteen different cards a seat: the table then takes them from the hands, never
    as typed (docs/scoring.md 15)."""
    from firmware_host.soak.bridge import honours
    from laws.cards import Card
    from laws.scoring.bridge import parse_contract

    cards = d.cards
    if len(cards) != 52 or len({c.card for c in cards}) != 52 or not all(c.readable for c in cards):
        return ""
    hands: dict[Seat, list[Card]] = {s: [] for s in Seat}
    for c in cards:
        if c.seat not in ("N", "E", "S", "W"):
            return ""
        hands[Seat(c.seat)].append(Card.parse(c.card))
    if any(len(h) != 13 for h in hands.values()):
        return ""
    found = honours(hands, parse_contract(contract).strain)
    return f"{found[0]}:{found[1]}" if found is not None else ""


def sheet_rows(rows: Iterable[Row]) -> list[list[dict[str, Any]]]:
    """The score rulings the journal holds for each deal (index 0: before the first deal), without the
    ``deal`` number the table adds."""
    out: list[list[dict[str, Any]]] = [[]]
    for _seq, kind, body in rows:
        if kind == "event" and body.get("type") == "deal_start":
            out.append([])
        elif kind == "ruling" and on_sheet(body):
            out[-1].append({k: v for k, v in body.items() if k != "deal"})
    return out


def on_sheet(ruling: dict[str, Any]) -> bool:
    """A ruling of the score sheet: a score, game or rubber, or a penalty of points (euchre law 90); a
    bridge penalty (a bar, a penalty card, tricks transferred) is a ruling on a mistake, not the sheet's."""
    remedy = ruling.get("remedy")
    return remedy in SHEET_REMEDIES and (remedy != "penalty" or "points" in ruling)


def lamp_problems(rows: Sequence[Row], *, limit: int = 20) -> list[str]:
    """Every moment the lamps in the journal break the soak's lamp rules (at most ``limit``)."""
    out: list[str] = []
    lamps: dict[str, bool] = {}
    online: dict[str, bool] = {}
    want_lit: set[str] = set()      # lamps the rulings just journaled must have lit
    lit_since: set[str] = set()     # ruling lamps rulings lit since the last deal start or acknowledgement
    clear_at_next = ""              # why every other ruling lamp must be out at the next event
    deal = 0

    def lit(name: str) -> bool:
        return bool(lamps.get(name))

    def check(seq: int) -> None:
        nonlocal want_lit, clear_at_next
        for name in sorted(want_lit):
            if not lit(name):
                out.append(f"row {seq}: lamp {name} not lit for the ruling before it")
        want_lit = set()
        if clear_at_next:
            stuck = [n for n in RULING_LAMPS if lit(n) and n not in lit_since]
            if stuck:
                out.append(f"row {seq}: lamp(s) {', '.join(stuck)} still lit {clear_at_next}")
            clear_at_next = ""
        for device, lamp in DEVICE_LAMPS.items():
            if device in online and lit(lamp) == online[device]:
                out.append(f"row {seq}: lamp {lamp} is {'lit' if lit(lamp) else 'out'} while the journal has "
                           f"the {device} {'online' if online[device] else 'offline'}")

    for seq, kind, body in rows:
        if kind == "lamp":  # a ruling lamp lit now was lit by this deal's rulings (a penalty lights the
            lit_since.update(n for n in RULING_LAMPS if body.get(n) and not lit(n))  # seat's too)
            lamps = dict(body)
            continue
        if kind == "ruling":
            name = _lamp_of(body)
            if name is not None:
                want_lit.add(name)
                lit_since.add(name)
            continue
        if kind == "note" and isinstance(body.get("device"), str) and "online" in body:
            check(seq)
            online[body["device"]] = bool(body["online"])
            continue
        if kind == "note" and body.get("ack") == "director":
            check(seq)
            lit_since = set()
            clear_at_next = "after the director's acknowledgement"
            continue
        if kind != "event":
            continue
        check(seq)
        if body.get("type") == "deal_start":
            deal += 1
            lit_since = set()
            clear_at_next = f"at deal {deal}'s first card, its ruling done when the deal started"
    end = rows[-1][0] + 1 if rows else 0
    check(end)
    stuck = [n for n in RULING_LAMPS if lit(n) and n not in lit_since]
    if stuck:
        out.append(f"the end: lamp(s) {', '.join(stuck)} lit with no ruling of the last deal for them")
    for lamp in DEVICE_LAMPS.values():
        if lit(lamp):
            out.append(f"the end: lamp {lamp} still lit")
    if lit("journal_fault"):
        out.append("the end: lamp journal_fault still lit")
    return out[:limit]


def _lamp_of(ruling: dict[str, Any]) -> str | None:
    """The lamp a ruling must light, by the soak's table (None: none it must)."""
    remedy = ruling.get("remedy")
    if remedy in ("redeal", "replace_pack"):
        return str(remedy)
    if remedy == "attention" and ruling.get("seat") in ("N", "E", "S", "W"):
        return f"attention_{ruling['seat']}"
    return None
