"""From shoe messages to the law engine's events (``laws.events``).

Only what the laws care about crosses: a card dealt, the start and end of a deal, the turned-up trump.
Jams, an empty shoe, buttons, errors and replies stay shoe-level messages for the controller. A board
dealt from a hand record (protocol 1.2: ``BoardBegan``, its ``CardOut``s with ``board`` set,
``CardRejected``, ``BoardFinished``) gives law events only at a duplicate table (``boards=True``), whose
game checks each card against the record; elsewhere none (a dealing station follows a board with
``firmware_host.shoe.boards``).
"""

from __future__ import annotations

from firmware_host.shoe import messages as m
from laws.cards import full_pack
from laws.duplicate.boards import dealer
from laws.events import BoardShort, CardDealt, DamagedCardFound, DealEnded, DealStarted, Event, TrumpTurned

_PACK = full_pack()


def to_law_event(msg: m.ShoeEvent, *, pack: str | None = None, t: float | None = None,
                 boards: bool = False) -> Event | None:
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
    ``DealStarted(dealer, pack)``; ``DealFinished`` becomes ``DealEnded``, whatever its reason, with its
    ``left_in_shoe`` flag (a card still in the well: the laws of the game say what that means).

    With ``boards`` (a duplicate table, ``docs/events.md``): a board's first ``BoardBegan`` (nothing placed
    yet) becomes ``DealStarted`` with the board number's dealer (``DB-2``); one sent again to finish a
    board (cards ``placed`` already) gives nothing, the deal going on; a board's placed ``CardOut`` becomes
    ``CardDealt`` at its pocket's seat; ``BoardFinished`` whole becomes ``DealEnded`` with its
    ``left_in_shoe``, otherwise
    ``BoardShort`` with the cards not placed, or with none (``missing`` None) when the board is not whole
    and names no card missing (a reason other than 0: the pockets are not known, PROTOCOL.md 4.2 and
    7.2). A rejected card gives none: it never reached a pocket.
    """
    if boards:
        if isinstance(msg, m.BoardBegan):
            return None if msg.placed else DealStarted(dealer(msg.board), msg.pack or pack or "unknown", t=t)
        if isinstance(msg, m.CardOut) and msg.board and msg.index and msg.seat is not None:
            return CardDealt(msg.seat, msg.card, msg.orientation is m.Orientation.UP, msg.pack or None, t=t)
        if isinstance(msg, m.BoardFinished):
            if msg.reason == m.FinishReason.COMPLETE and not msg.missing:
                return DealEnded(left_in_shoe=msg.left_in_shoe, t=t)
            if not msg.missing:     # not whole, no card named: the pockets are not known (PROTOCOL.md 7.2)
                return BoardShort(None, t=t)
            return BoardShort(tuple(c for c in _PACK if c in msg.missing), t=t)
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
        return DealEnded(left_in_shoe=msg.left_in_shoe, t=t)
    return None
