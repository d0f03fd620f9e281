"""Bridge as it is played, for the director: what the table's status says is open in a bridge deal, and
the answers the director enters from the dashboard to settle it.

Pure functions over the engine's state (the controller calls them on its consumer thread).

- ``open_bridge``: the deal's auction and play for the status's ``bridge`` field (docs/mqtt.md): the
  calls, whose turn, the contract, the trick, the claim, the irregular call or card waiting for a ruling
  (``waiting``), the revokes that may still be corrected (``revokes``) and the bar the director was asked
  to judge (``bar``). The dashboard offers an answer only where these make it meaningful.
- ``director_answer``: the event for one of the director's answers (``ANSWERS``: ``accept``,
  ``withdraw``, ``spread``, ``bar``, ``correct_revoke``, ``claim``, ``claim_reply``, ``claim_ruled``), checked for the
  table's game and phase (the phases ``laws.engine.TRANSITIONS`` takes the event in) and only as far as
  the event format goes: who may accept, whether the card is the one waiting, whether a claim is open,
  is the engine's to judge, as for the same entry from ``cardtable run --events``. One thing is filled in:
  a ``withdraw`` that names no card takes back the card waiting from that seat (the dashboard does not
  know it: cards are held back from the club while the deal is open).

The command for a revoke's correction is ``correct_revoke`` (the event is ``correct``), because the
dashboard's ``correct`` command already means a deal's result corrected (``commands.correct``).
"""

from __future__ import annotations

from typing import Any

from firmware_host.devices.display_text import ANSWER_NAMES, SEAT_NAMES
from firmware_host.devices.table_view import RECORDS_AUCTION
from laws.bridge.tricks import RevokeStatus
from laws.engine import TRANSITIONS
from laws.events import Event, EventFormatError, event_from_dict
from laws.games.bridge_auction import bars_data
from laws.games.bridge_hand import hand
from laws.state import TableState

# The director's answers: command kind -> (the event it enters, the event's fields), in the order the
# dashboard offers them. The phases are the engine's own (``TRANSITIONS``).
ANSWERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "accept": ("accept", ("seat",)),
    "decline": ("decline", ("seat",)),
    "withdraw": ("withdraw", ("seat", "card")),
    "spread": ("spread", ("seat",)),
    "bar": ("bar", ("seat", "rounds")),
    "correct_revoke": ("correct", ("seat", "card")),
    "claim": ("claim", ("seat", "tricks")),
    "claim_reply": ("claim_reply", ("seat", "agree")),
    "claim_ruled": ("claim_ruled", ("tricks",)),
}
GAMES = RECORDS_AUCTION   # the tables that record the auction and the play (the panel says whose call it is)


class AnswerRefused(ValueError):
    """An answer the table will not enter; the text says why, for the dashboard."""


def phases(kind: str) -> tuple[str, ...]:
    """The table phases (their values, in the engine's order) that take answer ``kind``."""
    allowed = TRANSITIONS[ANSWERS[kind][0]][0]
    return tuple(p for p in ("auction", "play", "scoring") if any(x.value == p for x in allowed))


def open_bridge(state: TableState) -> dict[str, Any] | None:
    """A bridge deal's auction and play as the table recorded them, for the status (None: no auction
    recorded in this deal). The calls are public; the only card in it is one that waits for a ruling,
    face up on the table (the publisher hides it while the deal is open, as any card)."""
    d = state.deal
    h = d.bridge if d is not None and not d.void else None
    if h is None or not h.captured:
        return None
    a, p = h.auction, h.play
    out: dict[str, Any] = {"calls": [[c.seat.value, c.call.code] for c in a.calls],
                           "turn": a.turn.value if a.turn else None,
                           "contract": p.contract.code if p else None, "declarer": p.declarer.value if p else None,
                           "trick": None, "to_play": None, "tricks": None, "tricks_left": None, "claim": None,
                           "waiting": None, "revokes": [], "bar": None,
                           # what the table's own screen shows (docs/mqtt.md): the bars in force, the trick
                           # on the table (its cards are hidden off the table while the deal is open), the
                           # cards played, and the result the cards gave
                           "dealer": a.dealer.value, "bars": bars_data(tuple(a.bars.items())),
                           "leader": None, "trick_cards": [], "played": 0, "result": None}
    if p is not None:
        out.update(trick=min(p.trick_number, 13), to_play=p.turn.value if p.turn else None,
                   tricks={side.value: n for side, n in p.won.items()},
                   tricks_left=0 if p.ended else p.tricks_left,
                   leader=p.current.leader.value if p.current.cards else None,
                   trick_cards=[[st.value, c.code] for st, c in p.current.cards.items()],
                   played=len(p.played_by))
        if p.claim_state is not None:
            c = p.claim_state
            out["claim"] = {"seat": c.seat.value, "tricks": c.tricks, "remaining": c.remaining,
                            "status": c.status.value}
        out["revokes"] = [{"seat": r.seat.value, "trick": r.trick, "suit": r.suit} for r in p.revokes
                          if r.status is RevokeStatus.OPEN or (r.status is RevokeStatus.ESTABLISHED and r.trick == 12)]
    if h.scored is not None and not h.scored.get("passed_out"):
        out["result"] = {k: h.scored[k] for k in ("contract", "declarer", "tricks") if k in h.scored}
    w = h.pending
    if w is not None:
        out["waiting"] = {"clause": w.clause, "law": w.law, "seat": w.seat.value, "kind": w.kind,
                          "options": list(w.options), "accept_by": [x.value for x in w.accept_by],
                          "call": w.call.code if w.call else None, "card": w.card.code if w.card else None}
    if h.bar_asked is not None and h.irregular is not None and not a.closed:
        out["bar"] = {"clause": h.irregular[0], "law": h.irregular[1], "bars": bars_data(h.bar_asked)}
    return out


def director_answer(state: TableState, kind: str, body: dict[str, Any]) -> Event:
    """The event for the director's answer ``kind`` (``body`` holds its fields).

    Raises:
        AnswerRefused: not a bridge table, not a phase that takes it, a field that is wrong (named), or a
            ``withdraw`` naming no card when no card of that seat waits.
    """
    etype, fields = ANSWERS[kind]
    if state.game not in GAMES:
        raise AnswerRefused(f"{ANSWER_NAMES[kind]} is entered at a bridge table, and this table plays {state.game}")
    allowed = phases(kind)
    if state.phase.value not in allowed:
        raise AnswerRefused(f"{ANSWER_NAMES[kind]} is entered in the {' or '.join(allowed)} phase; the table is in its "
                            f"{state.phase.value} phase")
    given = {k: body[k] for k in fields if k in body and body[k] is not None and body[k] != ""}
    if kind == "withdraw" and "card" not in given and "seat" in given:
        given["card"] = _waiting_card(state, given["seat"])
    try:
        return event_from_dict({"type": etype, **given})
    except EventFormatError as exc:
        raise AnswerRefused(str(exc)) from None


def _waiting_card(state: TableState, seat: Any) -> str:
    """The code of the card waiting for a ruling from ``seat`` (a withdraw that names none)."""
    h = hand(state)
    w = h.pending if h is not None else None
    if w is not None and w.card is not None and w.seat.value == seat:
        return w.card.code
    if seat not in SEAT_NAMES:
        raise AnswerRefused(f"field 'seat': want N, E, S or W, got {str(seat)[:20]!r}")
    raise AnswerRefused(f"no card of {SEAT_NAMES[seat]}'s is waiting for a ruling; name the card to take back")
