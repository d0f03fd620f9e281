"""What the director's page and each table's page show of an event, as JSON-ready values (no I/O).

* :func:`director_view`: the round in play, its draw (matches, byes, the club table of each event
  table), how many results each table has of its due, every round's matches scored, the standings
  (teams and pairs: VPs, net IMPs, place; an individual: players' percentages) and the refusals.
Each standing carries ``name`` (:func:`named`: the team's name and its players, or the pair's or
player's names, "" when nobody was named); the director's view lists ``adjustments`` (the corrections)
and ``held`` (each board a table called fouled that the director has still to decide, in words:
:func:`held_boards`).

* :func:`table_view`: what one club table plays now: the section its ``board`` messages name, the
  round, the boards, who sits where (``names``:
  each competitor seated there by number, as :func:`named` says, when named), the match
  and room; and, for a teams match, the boards of the round whose results both rooms have (only those:
  ``laws.competition.teams.released_to``), with the IMPs each way; and ``held``, the boards this table
  has played that await the director (a fouled board: no figure for them until he decides).

When a round's last result is in, the next round's draw is already in the state, so both views show it
from that same change on.
"""

from __future__ import annotations

from typing import Any

from laws.competition.event import EventState
from laws.competition.event_sections import score_sections
from laws.competition.event_spec import EventKind, section_numbers
from laws.competition.fouled import held_text
from laws.competition.table_result import team_awards
from laws.competition.teams import released_to
from laws.scoring.render import present


def named(state: EventState, competitor: int) -> str:
    """Who competitor number ``competitor`` is (the number the journal's ``names`` records key the names
    by: a team's, a Swiss pair's or a player's own number, a section's pair's place in
    ``section_pairs``), as a person reads it: a team's name, then its players' names in brackets
    (``Hearts (Ann Lee, Bo Kim)``); a pair's or player's names; "" when the director named nobody."""
    entry = state.names.get(competitor) or {}
    players = ", ".join(str(p.get("name", "")) for p in entry.get("players", ()))
    name = str(entry.get("name", ""))
    if name and players:
        return f"{name} ({players})"
    return name or players


AWARD_WORDS = {"A+": "average-plus", "A=": "average", "A-": "average-minus"}


def adjustments(state: EventState) -> list[dict[str, Any]]:
    """The director's corrections, each with what it replaced and the result now, as the page lists them:
    each step in turn, a held board's result given again "kept as played" (not "3NT by S, 9 tricks
    corrected to 3NT by S, 9 tricks", which read as if nothing had been decided)."""
    out = []
    for (r, t, b), before in sorted(state.corrected.items()):
        now = state.results[(r, t, b)]
        chain = [*before, now]
        steps = ["kept as played" if nxt.to_dict() == prev.to_dict() else f"corrected to {_result_text(nxt)}"
                 for prev, nxt in zip(chain, chain[1:])]
        out.append({"round": r, "table": t, "board": b, "was": [x.to_dict() for x in before], "now": now.to_dict(),
                    "text": f"round {r}, table {t}, board {b}: {_result_text(chain[0])} " + ", then ".join(steps)})
    return out


def held_boards(state: EventState, tables: tuple[str, ...]) -> list[dict[str, Any]]:
    """Each board held for the director (``laws.competition.fouled``): where, the table's call, and one
    line he reads (``board 5, table t-b, round 2: fouled at the table (first card against the record: ♥7
    by East, trick 3); the director decides: a correction of the board``)."""
    return [{"round": h.round, "table": h.table, "club_table": tables[h.table - 1], "board": h.board,
             "foul": h.call.to_dict(), "text": held_text(h, tables[h.table - 1])} for h in state.held()]


def _held_in(state: EventState, r: int, m: int, held: frozenset[tuple[int, int, int]]) -> list[int]:
    """The boards of match ``m`` of round ``r`` held for the director, which its figures leave out: a
    teams match's two rooms (tables 2m - 1, 2m), a Swiss pairs match's table ``m``."""
    at = (2 * m - 1, 2 * m) if state.spec.kind.teams else (m,)
    return sorted({b for (rr, t, b) in held if rr == r and t in at})


def _result_text(res: Any) -> str:
    if res.adjusted:
        ns, ew = res.awards
        return f"adjusted: {AWARD_WORDS[ns]} to North-South, {AWARD_WORDS[ew]} to East-West"
    if res.assigned is not None:
        return f"assigned {res.assigned:+d} to North-South"
    if res.contract == "Pass":
        return "passed out"
    return f"{res.contract} by {res.declarer}, {res.tricks} tricks"


def _standings(state: EventState) -> list[dict[str, Any]]:
    if state.spec.kind is EventKind.SECTIONS:
        numbers = section_numbers(state.spec)
        return [{"field": field, "place": place, "pair": pair.label, "name": named(state, numbers[(pair.section, pair.pair)]),
                 "total": present(st.total),
                 "percent": None if st.percent is None else present(st.percent), "boards": st.boards}
                for field, rows in score_sections(state).rankings for place, pair, st in rows]
    if state.spec.kind is EventKind.INDIVIDUAL:
        return [{"player": p.player.number, "name": named(state, p.player.number), "place": p.place,
                 "total": present(p.total),
                 "percent": None if p.percent is None else present(p.percent), "boards": p.boards}
                for p in state.player_standings()]
    return [{"competitor": s.competitor.number, "name": named(state, s.competitor.number), "place": s.place,
             "vp": present(s.vp), "net_imps": s.net_imps, "byes": s.byes} for s in state.standings()]


def director_view(state: EventState, tables: tuple[str, ...], version: int = 0,
                  refusals: list[dict[str, str]] | None = None) -> dict[str, Any]:
    """The director's page (see the module's docstring)."""
    current = state.current
    held = state.held_keys()
    rounds = []
    for r in sorted(state.draws):
        d = state.draws[r]
        counts = {t.table: sum(1 for b in state.boards_at(r, t.table) if (r, t.table, b) in state.results)
                  for t in d.tables}
        rounds.append({
            **d.to_dict(),
            "club_tables": {str(t.table): tables[t.table - 1] for t in d.tables},
            "results": {str(k): v for k, v in counts.items()},
            "due": {str(t.table): len(state.boards_at(r, t.table)) for t in d.tables},
            "complete": state.complete(r),
            # a match with no board counted yet has no VPs: its scale's even split ("10.00"-"10.00") read
            # as a result (a draw) to a reader of /api/event/state
            "scored": [{"first": m.first.number, "second": m.second.number, "first_imps": m.first_imps,
                        "second_imps": m.second_imps, "first_vp": present(m.first_vp) if m.played else None,
                        "second_vp": present(m.second_vp) if m.played else None,
                        "held": _held_in(state, r, i, held)}
                       for i, m in enumerate(state.matches(r), 1)],
        })
    winner = state.knockout_winner()
    return {"event": state.spec.name, "kind": state.spec.kind.value, "version": version,
            "round": current, "rounds": state.spec.rounds, "finished": current > state.spec.rounds,
            "draws": rounds, "standings": _standings(state), "refusals": list(refusals or [])[-20:],
            "adjustments": adjustments(state), "held": held_boards(state, tables),
            "winner": None if winner is None else winner.number}


def table_view(state: EventState, tables: tuple[str, ...], club_table: str, version: int = 0) -> dict[str, Any]:
    """One club table's page: where it is in the round being played (or the last one, when finished)."""
    if club_table not in tables:
        return {"table": club_table, "plays": False, "version": version}
    number = tables.index(club_table) + 1
    r = min(state.current, state.spec.rounds)
    d = state.draws[r]
    seat = next((t for t in d.tables if t.table == number), None)
    out: dict[str, Any] = {"table": club_table, "number": number, "section": section_of(state, number),
                           "plays": seat is not None, "round": r,
                           "rounds": state.spec.rounds, "finished": state.current > state.spec.rounds,
                           "kind": state.spec.kind.value, "event": state.spec.name, "version": version,
                           "boards": list(state.boards_at(r, number))}
    if seat is None:
        out["bye"] = True
        return out
    out["seat"] = seat.to_dict()
    if d.repeated(seat.match):      # a Swiss round no draw could make without one: this match is a repeat
        out["repeat"] = True
    if seat.section:
        out["names"] = _section_names(state, r, number)
    else:
        seated = sorted({c.number for c in (seat.north, seat.south, seat.east, seat.west)})
        out["names"] = {str(c): named(state, c) for c in seated if named(state, c)}
    out["entered"] = [b for b in state.boards_at(r, number) if (r, number, b) in state.results]
    held = state.held_keys()
    # a board this table has played that a table called fouled: no figure until the director decides
    # (never the card called: the other room may not have played the board yet)
    if any((r, number, b) in held for b in out["entered"]):
        out["held"] = [b for b in out["entered"] if (r, number, b) in held]
    if state.spec.kind.teams:
        match = state.team_match(r, seat.match)
        out["released"] = [{"board": b.board, "home_imps": b.home, "away_imps": b.away}
                           for b, room in zip(match.boards, _rooms(state, r, seat.match))
                           if released_to(room)]
    return out


def section_of(state: EventState, table: int) -> str:
    """The ``section`` event table ``table`` names in its ``board`` messages: the wire's board body
    (``docs/mqtt.md``, shared with a pairs session) requires one, so the view gives it: its section's name
    in an event of sections, else ``A`` (the event reads it nowhere: the event table number says where)."""
    first = 0
    for sec in state.spec.sections:
        if table <= first + sec.tables:
            return sec.name
        first += sec.tables
    return "A"


def _section_names(state: EventState, r: int, table: int) -> dict[str, str]:
    """The names of the pairs at an event table of a section in round ``r``, by ``A 3 NS`` label."""
    spec, first = state.spec, 0
    numbers = section_numbers(spec)
    for sec in spec.sections:
        if table <= first + sec.tables:
            seating = spec.movements()[sec.name].at(r, table - first)
            pairs = seating.pairs if seating is not None else ()
            return {f"{sec.name} {p.label}": named(state, numbers[(sec.name, p)]) for p in pairs
                    if named(state, numbers[(sec.name, p)])}
        first += sec.tables
    return {}


def _rooms(state: EventState, r: int, m: int) -> list[Any]:
    from laws.competition.teams import RoomResults

    out = []
    scored = state.scored_results()     # a board held for the director is released to neither room
    for b in state.draws[r].boards:
        o, c = scored.get((r, 2 * m - 1, b)), scored.get((r, 2 * m, b))
        if o is not None and c is not None and (o.adjusted or c.adjusted):
            home, away = team_awards(o if o.adjusted else c)
            out.append(RoomResults(b, home_adjusted=home, away_adjusted=away))
            continue
        # an award at one room only is not released to the other before it has finished the board
        out.append(RoomResults(b, None if o is None or o.adjusted else o.ns_score,
                               None if c is None or c.adjusted else c.ns_score))
    return out
