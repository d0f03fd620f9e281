"""What the people at a table are told of a message too large for the club's broker (docs/mqtt.md, "The
broker": ``max_packet_size 65536``).

The publisher never sends such a message (``delivery.Delivery.too_large``: the broker would disconnect the
table for it, and the outbox would send it again at every reconnect, for ever). The table journals a note
and shows it on its display, so the director learns what the club did not get: a board's result is to be
entered by hand at the director's desk; anything else stays in the table's journal
(``cardtable journal`` reads it). Wired in one visible place, :func:`connect`, by ``live.build_table``.
"""

from __future__ import annotations

import logging
from typing import Any

from firmware_host.table.inputs import DeviceNote

DEVICE = "club"


def words(kind: str, seq: int, size: int, body: dict[str, Any]) -> str:
    """The sentence the table's display and journal get (no card: the body is not quoted)."""
    if kind == "board":
        return (f"board {body.get('board', '?')}'s result ({size:,} bytes) is too large for the club's broker "
                "and was not sent: enter it by hand at the director's desk")
    return (f"the {kind} message of row {seq} ({size:,} bytes) is too large for the club's broker and was not "
            "sent; the table's journal keeps it")


def note(kind: str, seq: int, size: int, body: dict[str, Any]) -> DeviceNote:
    """The note the controller journals and shows (logged at INFO: the publisher logged the ERROR)."""
    return DeviceNote(DEVICE, words(kind, seq, size, body), level=logging.INFO)


def connect(publisher: Any, ctl: Any) -> None:
    """Each message the publisher does not send for its size becomes a note in the controller's queue
    (journaled and shown in its turn; ``submit`` may be called from any thread)."""
    publisher.on_oversize(lambda kind, seq, size, body: ctl.submit(note(kind, seq, size, body)))
