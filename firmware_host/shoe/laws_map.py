"""From shoe messages to the law engine's events (``laws.events``).

Only what the laws care about crosses: a card dealt, the start and end of a deal, the turned-up trump.
Jams, an empty shoe, buttons, errors and replies stay shoe-level messages for the controller. A board
dealt from a hand record (protocol 1.2: ``BoardBegan``, its ``CardOut``s with ``board`` set,
``CardRejected``, ``BoardFinished``) gives no law event here: its cards go to seats by the record, not
by the rotation a deal's clauses check, so what they mean at a table is the duplicate session's to say
(``firmware_host.shoe.boards`` follows a board).
"""

from __future__ import annotations

from firmware_host.shoe import messages as m
from laws.events import CardDealt, DamagedCardFound, DealEnded, DealStarted, Event, TrumpTurned


def to_law_event(msg: m.ShoeEvent, *, pack: str | None = None, t: float | None = None) -> Event | None:
    """The law event for one shoe message, or None when the message is not one the laws read.

    Args:
        msg: a message from ``ShoeLink`` or ``ScannerLink``.
        pack: the pack the controller expects; used for ``DealStarted`` when the shoe did not say
            (a shoe reports ``""`` when the host's START_DEAL named none); ``"unknown"`` if neither.
        t: timestamp to put on the event.

    ``CardOut`` becomes ``CardDealt(seat, card, face_up, pack)`` (card None when unreadable, pack None
    when the code carried none); the turned-up card of a euchre deal becomes ``TrumpTurned`` when its
    code was read, else ``DamagedCardFound(None, pack)``: like an unreadable card dealt to a seat, it makes
    the pack imperfect (and without it the turn-up would later look like an exposed card); cards that
    left outside a deal give None. ``DealBegan`` becomes
    ``DealStarted(dealer, pack)``; ``DealFinished`` becomes ``DealEnded()``, whatever its reason.
    """
    if isinstance(msg, m.CardOut):
        if msg.turn_up:
            if msg.card is None:
                return DamagedCardFound(None, msg.pack or pack or "unknown", t=t)
            return TrumpTurned(msg.card, t=t)
        if msg.seat is None or msg.board:
            return None
        return CardDealt(msg.seat, msg.card, msg.orientation is m.Orientation.UP, msg.pack or None, t=t)
    if isinstance(msg, m.DealBegan):
        return DealStarted(msg.dealer, msg.pack or pack or "unknown", t=t)
    if isinstance(msg, m.DealFinished):
        return DealEnded(t=t)
    return None
