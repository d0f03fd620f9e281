"""Which lamps a ruling lights, and what puts them out: a pure policy the controller applies.

Lamps (see ``config.LAMPS``): ``redeal``, ``shuffle`` (new shuffle and cut), ``replace_pack``,
``shoe_offline``, ``camera_offline`` and ``attention_<seat>``. The table obeying a ruling puts its lamp
out (a new deal starting clears the redeal and shuffle lamps, a valid cut clears the shuffle lamp); the
director's acknowledge button puts out every ruling lamp. The offline lamps follow the devices alone.
``journal_fault`` follows the journal alone (``firmware_host.table.ordering``): lit while commits fail and inputs
are held, the only lamp that is not journaled before it lights.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from laws.cards import SEATS, Seat
from laws.events import Event
from laws.rulings import Remedy, Ruling
from laws.state import TableState

RULING_LAMPS = ("redeal", "shuffle", "replace_pack", "attention_N", "attention_E", "attention_S",
                "attention_W")
DEVICE_LAMPS = {"shoe": "shoe_offline", "camera": "camera_offline"}

_REMEDY_LAMP: dict[Remedy, str] = {
    Remedy.REDEAL: "redeal", Remedy.MISDEAL: "redeal", Remedy.LOSE_DEAL: "redeal",
    Remedy.NEW_SHUFFLE_AND_CUT: "shuffle", Remedy.NEW_CUT: "shuffle", Remedy.RESHUFFLE: "shuffle",
    Remedy.REPLACE_PACK: "replace_pack", Remedy.NEW_CARDS: "replace_pack",
    Remedy.RESTORE_PACK: "replace_pack",
}
# Remedies that call a seat's (or a side's) attention rather than the whole table's.
_ATTENTION = frozenset({Remedy.CLAIM_OPTION, Remedy.ATTENTION, Remedy.DEEMED_TO_BELONG,
                        Remedy.DEFECTIVE_TRICK, Remedy.PENALTY, Remedy.CUT_AGAIN})


def attention_seats(r: Ruling) -> tuple[Seat, ...]:
    """The seats whose attention lamps a ruling lights."""
    if r.remedy is Remedy.CLAIM_OPTION:
        return r.side.seats if r.side is not None else SEATS
    if r.seat is not None:
        return (r.seat,)
    if r.side is not None:
        return r.side.seats
    return SEATS


def after_event(lamps: dict[str, bool], event: Event, rulings: Iterable[Ruling]) -> dict[str, bool]:
    """The lamps after ``event`` and the rulings it caused."""
    out = dict(lamps)
    if event.TYPE == "deal_start":
        for name in ("redeal", "shuffle", "replace_pack", *(f"attention_{s.value}" for s in SEATS)):
            out[name] = False
    elif event.TYPE == "cut":
        out["shuffle"] = False
    for r in rulings:
        if r.remedy is Remedy.DEAL_STANDS or r.remedy is Remedy.REDEAL:
            for s in SEATS:  # a claim was decided one way or the other
                out[f"attention_{s.value}"] = False
        out.update(dict.fromkeys(lamps_for(r), True))
    return out


def lamps_for(r: Ruling) -> tuple[str, ...]:
    """The lamps one ruling lights (its remedy's lamp, then the attention lamps of its seats)."""
    name = _REMEDY_LAMP.get(r.remedy)
    seats = attention_seats(r) if r.remedy in _ATTENTION else ()
    return (*((name,) if name else ()), *(f"attention_{s.value}" for s in seats))


def after_ack(lamps: dict[str, bool]) -> dict[str, bool]:
    """The director acknowledged: every ruling lamp goes out; device lamps stay."""
    return {name: (on and name not in RULING_LAMPS) for name, on in lamps.items()}


def pack_owed(state: TableState, lamps: dict[str, bool]) -> bool:
    """The last deal stopped for a replacement pack (``replace_pack`` with a dealer: the fault stays in
    the pack) and the director has not acknowledged since: NEW PACK is still lit."""
    d = state.deal
    return d is not None and d.void and d.new_pack and bool(lamps.get("replace_pack"))


def new_pack(state: TableState, lamps: dict[str, bool], acknowledged: float | None) -> dict[str, Any] | None:
    """The status's ``new_pack`` (docs/mqtt.md): from a deal stopped for a replacement pack until the next
    deal starts, whether the table still waits for the director's replacement pack (``waits``) and, once
    he has acknowledged, when (``acknowledged``, the journal's time of his acknowledgement). The players
    read it on the panel (``table_view.status_line``): the shoe deals nothing meanwhile, and a log line
    out of their sight was all that said why. None otherwise."""
    d = state.deal
    if d is None or not (d.void and d.new_pack):
        return None
    if lamps.get("replace_pack"):
        return {"waits": True}
    return {"waits": False, "acknowledged": acknowledged}


def buzz_for(rulings: Iterable[Ruling]) -> bool:
    """Whether the rulings deserve the buzzer: anything that stops the deal or the play (a claim that
    carries ``otherwise``, euchre law 44's, has already ended the deal)."""
    return any(r.remedy in (Remedy.REDEAL, Remedy.MISDEAL, Remedy.LOSE_DEAL, Remedy.REPLACE_PACK,
                            Remedy.NEW_SHUFFLE_AND_CUT)
               or (r.remedy is Remedy.CLAIM_OPTION and "otherwise" in r.extra) for r in rulings)
