"""The calls rule: which rulings call the director, and which the players settle at the table themselves.

A **call** is what needs a director: someone from outside the table (a fresh pack), or a judgement the
laws leave to a director (a penalty, a defective trick, a card found after a revoke, a choice the laws
put to the director, a player drawing attention to an irregularity). What the table's own lamps tell the
players to do — shuffle and cut again, deal again, let the side choose whether to redeal, take back their
own pack — they do themselves: it shows on the table's card, lit, with its reason, but it is not a call.

``RULE`` is the rule as data (remedy -> calls the director?, why); ``docs/mqtt.md`` prints the same table
and ``tests/club/test_calls_rule.py`` checks that they agree and that every remedy is decided.
Pure: no I/O.
"""

from __future__ import annotations

from typing import Any

from laws.rulings import Remedy

# remedy -> (calls the director, why), in the order docs/mqtt.md lists them
RULE: dict[Remedy, tuple[bool, str]] = {
    Remedy.ATTENTION: (True, "a player drew attention to an irregularity, or the laws leave the choice "
                             "(or the missing-card search) to the director"),
    Remedy.PENALTY: (True, "a penalty is assessed: the director sees it applied"),
    Remedy.DEFECTIVE_TRICK: (True, "a trick with the wrong number of cards: the director puts it right"),
    Remedy.DEEMED_TO_BELONG: (True, "a missing card found: the director settles revokes it caused"),
    Remedy.REPLACE_PACK: (True, "the pack is imperfect: a fresh pack comes from the director"),
    Remedy.NEW_CARDS: (True, "fresh cards were asked for: they come from the director"),
    Remedy.NEW_SHUFFLE_AND_CUT: (False, "the players shuffle and cut again (the table's lamp says so)"),
    Remedy.NEW_CUT: (False, "the players cut again"),
    Remedy.RESHUFFLE: (False, "the dealer shuffles again"),
    Remedy.CUT_AGAIN: (False, "the players cut again for the table"),
    Remedy.REDEAL: (False, "the table deals again; its display says who deals"),
    Remedy.MISDEAL: (False, "the deal passes to the next dealer"),
    Remedy.LOSE_DEAL: (False, "the deal is lost and passes"),
    Remedy.CLAIM_OPTION: (False, "the side not at fault chooses (a redeal may be claimed)"),
    Remedy.RESTORE_PACK: (False, "the players take back their own pack"),
    Remedy.DEAL_STANDS: (False, "play goes on"),
    Remedy.FORMATION: (False, "the ordinary course: the table is formed"),
    Remedy.CUT_OUT: (False, "the ordinary course: a player cuts out"),
    Remedy.ENTRY: (False, "the ordinary course: a player enters"),
    Remedy.SCORE: (False, "the ordinary course: a score"),
    Remedy.GAME_WON: (False, "the ordinary course: a game"),
    Remedy.RUBBER_WON: (False, "the ordinary course: a rubber"),
    Remedy.CONTRACT: (False, "the ordinary course: the auction ended in a contract"),
    Remedy.CHECKED: (False, "the ordinary course: a duplicate board checked card by card against its record"),
}


def calls_director(body: Any) -> bool:
    """Whether a ruling (``Ruling.to_dict()`` as a table publishes it) calls the director. A remedy this
    dashboard does not know calls: better a director walks over than a table waits unseen."""
    if not isinstance(body, dict):
        return False
    try:
        remedy = Remedy(str(body.get("remedy")))
    except ValueError:
        return True
    return RULE.get(remedy, (True, ""))[0]
