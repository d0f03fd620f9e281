"""After a round: where each pair at a table goes next, and where the table's boards go (a movement's
data read forward one round; pure).

:func:`next_moves` gives the moves as values, :func:`move_words` the sentences a table and its page show
(one source of words for both):

* a pair goes to (or stays at) the table where the movement seats it in the next round, in the direction it sits there
  (a Howell pair changes direction); it *sits out* when the movement seats it nowhere that round;
* the boards played at the table go to the table that plays their group in the next round; when several
  tables share them then, to the first of them (the others share from it); when no table plays them in the
  next round, to the relay until the first later round that does (that table named), or, in a movement
  with a bye stand (a relay Mitchell), to the bye stand, named by the tables it stands between; when every table has
  its own copy (a barometer), or no later round plays them, to the director;
* the boards set out at a sit-out table (a half table's first round) go the same way: they are still
  there when no table played or held their group before and none plays it this round (later sit-outs
  hold nothing: the boards played before went past them, to the relay);
* after the last round nobody moves: the boards go to the director.
"""

from __future__ import annotations

from dataclasses import dataclass

from laws.duplicate.movement.model import Movement, Pair, Seating, board_span

DIRECTION_WORDS = {"NS": "North-South", "EW": "East-West"}


@dataclass(frozen=True)
class Move:
    """One thing to move after ``round``: a pair (``pair`` set) or the table's boards (``boards`` set).

    ``to_table`` is where it goes (None: a pair sits out, boards go to the director); ``in_round`` the
    round it is played there (the next round, or later for boards put on the relay); ``direction`` the
    side a pair sits (``NS``/``EW``); ``bye_stand`` the tables the bye stand stands between when the boards
    rest there on their way (a relay Mitchell's: "the relay" there would send them to tables 1 and n).
    """

    round: int
    table: int
    pair: Pair | None = None
    boards: tuple[int, ...] = ()
    to_table: int | None = None
    in_round: int = 0
    direction: str = ""
    bye_stand: tuple[int, int] | None = None


def next_moves(m: Movement, round: int, table: int) -> tuple[Move, ...]:
    """The moves after ``round`` at ``table`` (empty when the table is not used that round)."""
    s = m.at(round, table)
    if s is None:
        return ()
    boards = m.boards_of(s.group) if s.played or _set_out_here(m, s) else ()
    if round >= m.rounds:
        return (Move(round, table, boards=boards),) if boards else ()
    out = []
    for p in s.pairs:
        there = m.where(p, round + 1)
        if there is None or not there.played:
            out.append(Move(round, table, pair=p, in_round=round + 1))
        else:
            out.append(Move(round, table, pair=p, to_table=there.table, in_round=round + 1,
                            direction="NS" if there.ns == p else "EW"))
    if boards:
        out.append(_boards_move(m, round, table, s.group, boards))
    return tuple(out)


def _set_out_here(m: Movement, s: Seating) -> bool:
    """Whether the boards of sit-out ``s``'s group lie at its table: no earlier round seats the group (its
    boards would have been sent on past the sit-out), no table plays it this round (that table holds and
    sends them) and no lower-numbered sit-out holds it this round."""
    if not m.boards_of(s.group):
        return False
    return not any(x.group == s.group and (x.round < s.round or (x.round == s.round and (x.played or x.table < s.table)))
                   for x in m.seatings)


def _boards_move(m: Movement, round: int, table: int, group: int, boards: tuple[int, ...]) -> Move:
    if m.copies > 1:                     # each table its own copy: the director collects them
        return Move(round, table, boards=boards)
    for later in range(round + 1, m.rounds + 1):
        tables = sorted(x.table for x in m.seatings if x.round == later and x.played and x.group == group)
        if tables:
            resting = m.bye_stand is not None and not any(x.round == round + 1 and x.group == group for x in m.seatings)
            return Move(round, table, boards=boards, to_table=tables[0], in_round=later,
                        bye_stand=m.bye_stand if resting and later > round + 1 else None)
    return Move(round, table, boards=boards)


def move_words(moves: tuple[Move, ...]) -> list[str]:
    """The moves as sentences: ``Pair 3 NS: to table 4, North-South``, ``Boards 7-9: to table 3``."""
    out = []
    for mv in moves:
        if mv.pair is not None:
            if mv.to_table is None:
                out.append(f"Pair {mv.pair}: sits out round {mv.in_round}")
            else:
                where = "stays at" if mv.to_table == mv.table else "to"
                out.append(f"Pair {mv.pair}: {where} table {mv.to_table}, {DIRECTION_WORDS[mv.direction]}")
        else:
            what = f"Board{'s' if len(mv.boards) > 1 else ''} {board_span(mv.boards)}"
            if mv.to_table is None:
                out.append(f"{what}: to the director")
            elif mv.in_round == mv.round + 1:
                out.append(f"{what}: to table {mv.to_table}")
            elif mv.bye_stand is not None:
                a, b = mv.bye_stand
                out.append(f"{what}: to the bye stand between tables {a} and {b} "
                           f"(table {mv.to_table} plays them in round {mv.in_round})")
            else:
                out.append(f"{what}: to the relay (table {mv.to_table} plays them in round {mv.in_round})")
    return out


def move_dicts(moves: tuple[Move, ...]) -> list[dict[str, object]]:
    """The moves as JSON values (the seating message's ``next``, ``docs/mqtt.md``)."""
    return [{"pair": None if mv.pair is None else str(mv.pair), "boards": list(mv.boards),
             "to_table": mv.to_table, "round": mv.in_round, "direction": mv.direction or None}
            for mv in moves]
