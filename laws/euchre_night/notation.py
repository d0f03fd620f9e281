"""A euchre hand in our JSON notation (``docs/euchre.md``, "The hand notation"), made from what the table
saw: the cards dealt, the turn-up, the trump made, every card played, and the rulings of the hand.

The tricks are counted from the cards (:func:`tricks_won`), never typed; a renege is named by the table's
``EU-64`` ruling (who, which trick) and its penalty by the ``EU-63`` ruling; the penalties of laws 90 and
50 likewise (:func:`penalties_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from laws.cards import Card, Seat, Side
from laws.euchre_night.form import NOTATION
from laws.games.euchre_hands import active, effective_suit, power, tricks
from laws.state import DealState

PENALTY_CLAUSES = ("EU-63", "EU-90", "EU-50")


def tricks_won(d: DealState) -> dict[Side, int] | None:
    """Tricks each side took, from the cards played (None: five tricks were not played out)."""
    if d.trump_suit is None or d.makers is None:
        return None
    size = len(active(d))
    groups = [g for g in tricks(d, d.plays) if len(g) == size]
    if len(groups) != 5:
        return None
    won = dict.fromkeys(Side, 0)
    for g in groups:
        led = effective_suit(g[0][1], d.trump_suit)
        winner = max(g, key=lambda p: power(p[1], d.trump_suit or "S", led))[0]
        won[winner.side] += 1
    return won


def plays_problem(b: Mapping[str, Any]) -> str:
    """What is wrong with a table's hand whose ``plays`` disagree with its ``tricks`` (``""``: nothing).

    The night scores a hand on its ``tricks``; a table counts them from the cards (``tricks_won``), so a
    hand that gives its ``plays`` must hold five whole tricks (four cards each, three in a lone hand) and
    the makers' tricks among them must be ``tricks``. An outside table once sent a march (``tricks`` 5)
    whose cards showed the makers euchred, and the night scored the march. ``plays`` ``[]`` (a hand sent
    without its cards) is scored on ``tricks`` alone. The form of each play is ``form``'s to check first.
    """
    plays = b.get("plays")
    if not plays:
        return ""
    size = 3 if b.get("alone") is not None else 4
    if len(plays) != 5 * size:
        return (f"plays must be five tricks of {size} cards ({5 * size} plays"
                f"{', a lone hand' if size == 3 else ''}), got {len(plays)} plays")
    trump = str(b.get("trump"))
    won = dict.fromkeys(("NS", "EW"), 0)
    for i in range(0, len(plays), size):
        trick = [(Seat(seat), Card.parse(code)) for seat, code in plays[i:i + size]]
        led = effective_suit(trick[0][1], trump)
        winner = max(trick, key=lambda p: power(p[1], trump, led))[0]
        won[winner.side.value] += 1
    counted = won.get(str(b.get("makers")))
    if counted is not None and counted != b.get("tricks"):
        return f"tricks must be the makers' tricks counted from plays ({counted}), got {b.get('tricks')!r}"
    return ""


def penalties_of(rulings: Iterable[Mapping[str, Any]]) -> tuple[list[dict[str, Any]], list[str], list[dict[str, Any]]]:
    """From a hand's rulings (``Ruling.to_dict`` form): the penalties scored (clause, law, offending side,
    points), the sides the law lets score nothing on the hand, and the reneges named (seat, trick)."""
    pens: list[dict[str, Any]] = []
    void: set[str] = set()
    reneges: list[dict[str, Any]] = []
    for r in rulings:
        clause = r.get("clause")
        if clause == "EU-64" and r.get("seat") and r.get("trick") is not None:
            reneges.append({"seat": r["seat"], "trick": r["trick"], "clause": "EU-64", "law": r.get("law", "")})
        if r.get("remedy") == "penalty" and clause in PENALTY_CLAUSES:
            pens.append({"clause": clause, "law": r.get("law", ""), "offending": r.get("offending") or r.get("side"),
                         "points": r.get("points"), "text": r.get("reason", "")})
            if clause == "EU-90":
                void.add(str(r.get("offending") or r.get("side")))
            if clause == "EU-50":
                void.update(("NS", "EW"))
    return pens, sorted(void), reneges


def hand_body(d: DealState, rulings: Iterable[Mapping[str, Any]], *, round: int, table: str, table_number: int,
              hand: int, players: Mapping[str, int]) -> dict[str, Any]:
    """A played hand in the notation (without ``source``, which the table adds).

    Raises:
        ValueError: the hand was not played out to five tricks with trump made.
    """
    won = tricks_won(d)
    if won is None or d.makers is None:
        raise ValueError("the hand was not played out (trump made and five tricks)")
    rulings = list(rulings)
    pens, void, reneges = penalties_of(rulings)
    return {
        "type": "hand", "notation": NOTATION, "table": table, "table_number": table_number, "round": round,
        "hand": hand, "deal": d.number, "players": dict(players), "dealer": d.dealer.value,
        "turn_up": d.trump_card.code if d.trump_card else None, "trump": d.trump_suit,
        "makers": d.makers.value, "alone": d.alone_seat.value if d.alone_seat else None,
        "hands": {s.value: [c.code for c in d.hands.get(s, [])] for s in Seat},
        "discard": d.discarded.code if d.discarded else None,
        "plays": [[s.value, c.code] for s, c in d.plays],
        "tricks": won[d.makers], "penalties": pens, "void": void, "reneges": reneges,
        "rulings": [{"clause": r.get("clause"), "law": r.get("law"), "remedy": r.get("remedy"),
                     "text": r.get("reason", "")} for r in rulings if r.get("remedy") not in ("score", "game_won",
                                                                                                  "rubber_won")],
    }
