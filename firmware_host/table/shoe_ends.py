"""How a deal the shoe can no longer finish ends, as pure functions of the engine's state.

The shoe restarted (it is dealing nothing now, hardware/shoe/PROTOCOL.md 6.3), or messages of the deal
were lost on the link (PROTOCOL.md 5, ERROR 4). Whether a deal or a board was under way is the engine's
to say, not the shoe adapter's: a table restarted mid-deal rebuilt the engine from its journal (the deal's
``deal_start`` or the board's, with no end after it) before the shoe says anything of that deal, so it
ends it exactly as a table that saw it begin (docs/ordering.md). The controller journals what these return.
"""

from __future__ import annotations

from laws.cards import full_pack
from laws.events import BoardShort, DealEnded, Event
from laws.games.duplicate_board import BoardAtTable, board_of
from laws.state import DealState, Phase, TableState


def dealing(state: TableState) -> tuple[DealState | None, BoardAtTable | None]:
    """The deal the shoe is dealing (None: none, or one that ended or a ruling voided), and its board
    when the shoe deals that board from its record (None otherwise)."""
    d = state.deal
    if state.phase is not Phase.DEALING or d is None or d.void or d.ended:
        return None, None
    b = board_of(state)
    return d, (b if b is not None and b.how == "shoe" and b.deal == d.number else None)


def after_restart(state: TableState) -> Event | None:
    """What ends the deal a restarted shoe was dealing (None: it was dealing nothing): a deal as one the
    shoe stopped (``deal_end``: the laws rule on the cards dealt so far); a board dealt from its record as
    a ``board_short`` naming the cards not seen placed (PROTOCOL.md 7.1: finished with those placed)."""
    d, b = dealing(state)
    if d is None:
        return None
    if b is None:
        return DealEnded()
    placed = {card for _, card in d.dealt if card is not None}
    return BoardShort(tuple(c for c in full_pack() if c not in placed) or None)


def after_loss(state: TableState, first: int, last: int) -> tuple[str, Event | None]:
    """The note for shoe messages ``first``-``last`` lost on the link and what ends the deal under way
    (None: none was). Its cards, most likely: which went where is not known, so a deal ends as lost
    (``deal_end`` ``lost``) and a board dealt from its record is dealt again from empty pockets
    (``board_short`` ``lost``), never ruled short of cards the shoe did place."""
    which = f"message {first}" if first == last else f"messages {first}-{last}"
    text = f"{which} lost on the link: gone from the shoe before the host got them"
    d, b = dealing(state)
    if d is None:
        return text, None
    if b is not None:
        return f"{text}; board {b.number} ends after the {len(d.dealt)} cards the table saw placed", \
            BoardShort(None, lost=True)
    return f"{text}; the deal ends after the {len(d.dealt)} cards the table saw", DealEnded(lost=True)
