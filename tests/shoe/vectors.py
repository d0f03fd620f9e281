"""Reading ``hardware/shoe/test_vectors.json``: wire-level meanings to host messages and back.

The meanings use the wire's own numbers (seat 0-3, orientation 0-2...) and PROTOCOL.md's field names
(which the firmware's functions use too), so the firmware's tests can use them without this module.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from firmware_host.shoe import messages as m
from laws.cards import Card, Seat

VECTORS = Path(__file__).resolve().parents[2] / "hardware" / "shoe" / "test_vectors.json"
_SEATS = (Seat.N, Seat.E, Seat.S, Seat.W)


def load() -> dict[str, Any]:
    return json.loads(VECTORS.read_text())


def to_message(v: dict[str, Any]) -> m.ShoeMessage | m.Command:
    """The host message a valid vector means."""
    t, seq, f = v["type"], v["seq"], v["fields"]
    if t == "HELLO":
        return m.Hello(seq, f["major"], f["minor"], f["boot_id"], f["oldest_held"], f["caps"], f["ring_size"],
                       f["shoe_id"], f["firmware"])
    if t == "HEARTBEAT":
        return m.Heartbeat(seq, m.ShoeState(f["state"]), bool(f["flags"] & 1), bool(f["flags"] & 2), f["ring_used"])
    if t == "PONG":
        return m.Pong(seq, f["token"])
    if t == "CARD_OUT":
        seat = f["seat"]
        return m.CardOut(seq, f["index"], _SEATS[seat] if seat < 4 else None, seat == 4,
                         None if f["card"] is None else Card.parse(f["card"]), m.Orientation(f["orientation"]),
                         f["quality"], f["pack"])
    if t == "DEAL_STARTED":
        return m.DealBegan(seq, _SEATS[f["dealer"]], f["turn_up"], tuple(f["sizes"]), f["pack"])
    if t == "DEAL_FINISHED":
        return m.DealFinished(seq, m.FinishReason(f["reason"]), f["dealt"], bool(f["left_in_shoe"]))
    if t == "PACK_LOADED":
        return m.PackLoaded(seq, f["pack"])
    if t == "JAM":
        return m.Jam(seq, f["index"], bool(f["cleared"]))
    if t == "EMPTY":
        return m.Empty(seq, f["dealt"])
    if t == "BUTTON":
        return m.ButtonPressed(seq, _SEATS[f["seat"]], _enum(m.ButtonKind, f["kind"]))
    if t == "ERROR":
        return m.ShoeError(seq, _enum(m.ErrorCode, f["code"]), f["detail"])
    if t == "REPLY":
        return m.Reply(seq, f["cmd"], _enum(m.Status, f["status"]), f["detail"])
    if t == "HOST_HELLO":
        return m.HostHello(f["session"], f["major"], f["minor"], f.get("next_cmd"), cmd=seq)
    if t == "START_DEAL":
        return m.StartDeal(_SEATS[f["dealer"]], tuple(f["sizes"]), f["turn_up"], f["pack"], cmd=seq)
    if t == "PAUSE":
        return m.Pause(cmd=seq)
    if t == "RESUME":
        return m.Resume(cmd=seq)
    if t == "ABORT":
        return m.Abort(cmd=seq)
    if t == "SET_LAMP":
        return m.SetLamp(f["lamp"], f["mode"], f["colour"], cmd=seq)
    if t == "PING":
        return m.Ping(f["token"], cmd=seq)
    if t == "RESEND":
        return m.Resend(f["first"], f.get("last", 0), cmd=seq)
    if t == "ACK":
        return m.Ack(f["upto"], cmd=seq)
    if t == "DEAL_BOARD":
        return m.DealBoard(f["board"], tuple(_SEATS[x] for x in f["seats"]), f["board_id"], f["pack"],
                           cards(f["placed"]), cmd=seq)
    if t == "BOARD_STARTED":
        return m.BoardBegan(seq, f["board"], f["board_id"], tuple(_SEATS[x] for x in f["seats"]),
                            cards(f["placed"]), f["pack"])
    if t == "CARD_REJECTED":
        return m.CardRejected(seq, f["rejected"], _enum(m.RejectReason, f["reason"]),
                              None if f["card"] is None else Card.parse(f["card"]),
                              _enum(m.Orientation, f["orientation"]), f["quality"], f["pack"])
    if t == "BOARD_FINISHED":
        return m.BoardFinished(seq, f["board"], f["board_id"], _enum(m.FinishReason, f["reason"]), f["rejected"],
                               bool(f["left_in_shoe"]), cards(f["missing"]), f["pack"])
    raise ValueError(f"vector {v['name']}: unknown type {t}")


def cards(texts: list[str]) -> frozenset[Card]:
    return frozenset(Card.parse(t) for t in texts)


def _enum(cls: Any, value: int) -> Any:
    try:
        return cls(value)
    except ValueError:
        return value
