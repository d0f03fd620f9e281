"""A pair's players named on the club's pages: by the director (any pair) or at the table itself (the
pairs seated there this round), from what was typed: member numbers looked up in the session's roster
(``session.roster``, the copy in the session's folder), else a visitor's name.

The table's page asks twice: first without ``confirm`` (the names are shown back, nothing is journaled),
then with ``confirm`` true (the ``players`` record goes to the session, which journals it). Whatever is
refused (an unknown member number, one player at two tables, a name with a control character, a pair not
seated there) is answered 409 with one message, and journaled as a refusal when it was meant to be taken.
"""

from __future__ import annotations

import logging
from typing import Any

from firmware_host.session.duplicate_session import SessionDesk
from firmware_host.session.roster import Roster, RosterError, roster_of
from laws.session.duplicate.spec import label, pair_of_label

log = logging.getLogger(__name__)


def _pair(desk: SessionDesk, data: dict[str, Any], table: tuple[str, int] | None) -> tuple[str, Any]:
    """The pair named and the first round the naming is for: at a table, the pair seated on that side in
    the table's round, from that round on (a substitute does not replace who played the rounds before);
    the director's ``round`` when given (checked by the session), else none: the whole evening."""
    st = desk.session.state
    if table is None:
        typed = str(data.get("pair", ""))[:20]
        try:   # as people type it (docs/session.md, "The director's forms"): '2ns' and '3 ew' too
            return label(pair_of_label(typed.upper())), data.get("round")
        except ValueError:
            raise RosterError(f"{typed!r} is not a pair (want a number, and NS or EW in a Mitchell: '3 NS')") from None
    side = data.get("side")
    if side not in ("ns", "ew"):
        raise RosterError(f"side is 'ns' or 'ew', not {str(side)[:10]!r}")
    rnd = st.table_round(table[1])
    s = st.movement.at(rnd, table[1])
    pair = getattr(s, side) if s is not None else None
    if pair is None:
        raise RosterError(f"no pair sits {side.upper()} at table {table[1]} this round")
    return label(pair), rnd


def name_players(desk: SessionDesk, data: dict[str, Any], *, by: str | None = None,
                 table: tuple[str, int] | None = None) -> tuple[int, dict[str, Any]]:
    """Name a pair's players from a page's request; ``(HTTP status, answer)``.

    Args:
        desk: the session.
        data: ``{"pair" (director) or "side" (table), "players": [two entries], "confirm" (table), "round"
            (director, optional: the first round they sit for the pair)}``.
        by: the director's login (the director's form).
        table: ``(club table id, table number)`` (the table's page).
    """
    typed = data.get("players")
    who = by or (f"{table[0]} (the table's page)" if table else "?")
    try:
        pair, first = _pair(desk, data, table)
        if not isinstance(typed, list) or len(typed) != 2 or not all(isinstance(t, str) for t in typed):
            raise RosterError("give two players: a member number or a visitor's name each")
        roster = roster_of(desk.session.journal.path) or Roster((), "the session has no roster")
        players = [roster.player(t) for t in typed]
    except RosterError as exc:
        why = str(exc)
        log.warning("players named by %s refused: %s", who, why)
        if table is None or data.get("confirm"):
            why = desk.refuse_form({"type": "players", "typed": [str(t)[:80] for t in typed or []][:2],
                                    "pair": str(data.get("pair") or data.get("side") or "")[:20], "by": who}, why)
        return 409, {"error": why}
    if table is not None and not data.get("confirm"):
        return 200, {"pair": pair, "players": players, "confirm": "are these the players? send again with confirm"}
    rec = {"type": "players", "pair": pair, "players": players, "by": who}
    outcome = desk.director(rec if first is None else {**rec, "round": first})
    if not outcome.taken:
        return 409, {"error": outcome.why or "already named"}
    return 200, {"ok": True, "pair": pair, "players": players}
