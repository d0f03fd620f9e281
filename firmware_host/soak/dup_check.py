"""The duplicate soak's checker: the journals against what physically happened (no I/O).

**The station** (``check_station``): every board dealt and verified; the cards the journal says were
placed, since the pockets were last empty, are the 52 of the record, each once, at the record's seat; and
they are the cards the virtual shoe's pockets physically held when the station said the board was dealt
(a card in a pocket the journal does not name is lost, one named twice is counted twice).

**The tables** (``check_tables``): every board of each table's plan (the movement's) is played and
journaled, and no other; for each, from the people's record (every card they played, in order, the
contract they bid, their confirmations) and the table's journal:

* every card played is journaled once, in the order played (none lost, none twice);
* a board is misboarded exactly when a card was played by a seat its record does not give it to, decided
  here from the journal's cards and the record (``first_wrong``), never from a label: it then gets exactly
  one ``DB-87`` ruling at that first card (naming the card, its seat, the record's seat, the board, table
  and round), one director's decision and its ``DB-87`` ruling; a board played as its record says gets
  none (no false alarm), and no card played legally is ever ruled a revoke;
* a board the shoe dealt from a pack short of a card (the virtual shoe's own fault: ``short_pack``; the
  card is then found, by the people putting it in the shoe's well, ``short_back``, or in the next pack the
  dealer loads) gets one ``DB-14`` ruling, no other board does;
* ``DB-7`` is there whenever cards were played, and says verified exactly when all 52 were played from
  the record's seats;
* the auction closes in the people's contract; one score ruling and one confirmed score, both the
  duplicate score of that contract and the tricks the cards give (trick winners worked out here); the
  confirmation stands on a ``confirm`` journaled before it by the seat it names for each side;
* a board the table's shoe dealt has its 52 cards journaled once each at the record's seat.

Each check is a function of its inputs, so a journal broken on purpose makes it fail
(``tests/soak/test_dup_check.py``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from laws.cards import SEATS, Card, Seat
from laws.duplicate.deal import Board
from laws.scoring.bridge import parse_contract
from laws.scoring.duplicate import board_score

Rows = Sequence[tuple[int, str, Mapping[str, Any]]]
# The rulings a board of the duplicate soak may bring: the auction's close, the check against the record,
# the score, a misboarding's (only where the cards show one) and a short pack's (only where the shoe's pack
# was short); any other is a ruling on something that did not happen.
ORDINARY = frozenset({"BP-22", "DB-7", "DB-77", "DB-87", "DB-14"})


@dataclass
class StationFigures:
    boards: int = 0
    dealt: int = 0
    placed: int = 0
    lost: int = 0
    twice: int = 0
    rejected: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check_station(boards: Sequence[Board], pockets: Mapping[int, Mapping[int, Sequence[str]]],
                  rows: Rows) -> StationFigures:
    """The station's journal rows against the pockets the soak saw at each board's end."""
    from firmware_host.duplicate.station.station_log import fold

    log = fold((seq, 0.0, body) for seq, kind, body in rows if kind == "note")
    f = StationFigures(boards=len(boards))
    cards_rows: dict[int, list[str]] = {}
    fresh_at: dict[int, int] = {}
    for seq, kind, body in rows:
        if kind != "note":
            continue
        if body.get("station") == "send" and body.get("fresh"):
            fresh_at[int(body["board"])] = seq
            cards_rows[int(body["board"])] = []
        elif body.get("station") == "card":
            cards_rows.setdefault(int(body["board"]), []).append(f"{body['card']}@{body['seat']}")
    for b in boards:
        bl = log.board(b.number)
        f.rejected += bl.rejected
        if not bl.done:
            f.problems.append(f"board {b.number}: not dealt and verified ({bl.last.end if bl.last else 'never sent'})")
            continue
        f.dealt += 1
        named = cards_rows.get(b.number, [])
        f.placed += len(set(named))
        counts = Counter(named)
        twice = sum(n - 1 for n in counts.values() if n > 1)
        f.twice += twice
        if twice:
            f.problems.append(f"board {b.number}: {twice} card(s) journaled twice")
        wrong = [x for x in counts if b.deal.holder(Card.parse(x.split("@")[0])).value != x.split("@")[1]]
        if wrong:
            f.problems.append(f"board {b.number}: journaled at a seat the record does not give: {wrong[:3]}")
        held = pockets.get(b.number)
        if held is None:
            f.problems.append(f"board {b.number}: the soak never saw its pockets when the station said it dealt")
            continue
        physical = {f"{c}@{SEATS[d].value}" for d, cards in held.items() if d in range(4) for c in cards}
        lost = physical - set(named)
        f.lost += len(lost)
        if lost:
            f.problems.append(f"board {b.number}: in the pockets but not in the journal: {sorted(lost)[:3]}")
        if len(physical) != 52 or any(b.deal.holder(Card.parse(x.split("@")[0])).value != x.split("@")[1]
                                      for x in physical):
            f.problems.append(f"board {b.number}: taken as whole, but its pockets do not hold the record "
                              f"({len(physical)} cards)")
        extra = set(named) - physical
        if extra:
            f.problems.append(f"board {b.number}: journaled but not in the pockets: {sorted(extra)[:3]}")
    return f


# --- the tables -------------------------------------------------------------------------------------


@dataclass
class PlayedBoard:
    """What the soak knows of one board at one table: the record, the cards as held, how it was
    misboarded (None: as its record), and every card played, in order."""

    table: int
    round: int
    record: Board
    held: Any                                # laws.duplicate.deal.Deal as the players held it
    misboard: str | None
    how: str
    contract: str | None = None
    declarer: str | None = None
    play: list[tuple[str, str]] = field(default_factory=list)
    confirmed: bool = False                  # the soak saw the board finish (not every board: figures only)
    short_back: int = 0                      # cards the soak put back in the shoe's well
    short_pack: bool = False                 # the shoe dealt it from a pack short of a card (the shoe's fault)
    confirms: int = 0                        # confirmations the people entered (one a side)


@dataclass
class TableFigures:
    boards: int = 0
    cards: int = 0
    lost: int = 0
    twice: int = 0
    misboarded: int = 0
    caught_first: int = 0
    false_alarms: int = 0
    verified: int = 0
    scored: int = 0
    dealt_by_shoe: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def _segments(rows: Rows) -> list[tuple[Mapping[str, Any], list[tuple[int, str, Mapping[str, Any]]]]]:
    """The journal cut at each ``board`` event: (its body, the rows after it up to the next)."""
    out: list[tuple[Mapping[str, Any], list[tuple[int, str, Mapping[str, Any]]]]] = []
    for seq, kind, body in rows:
        if kind == "event" and body.get("type") == "board":
            out.append((body, []))
        elif out:
            out[-1][1].append((seq, kind, body))
    return out


def _tricks(play: Sequence[tuple[str, str]], declarer: Seat, strain: str) -> int:
    """Declarer's side's tricks from the cards as played (the winner of each trick worked out here)."""
    trump = None if strain == "NT" else strain
    won = 0
    for i in range(0, len(play) - len(play) % 4, 4):
        trick = [(Seat(s), Card.parse(c)) for s, c in play[i:i + 4]]
        led = trick[0][1].suit
        best = max(trick, key=lambda sc: (sc[1].suit == trump, sc[1].suit == led, "23456789TJQKA".index(sc[1].rank)))
        won += best[0].side is declarer.side
    return won


def check_tables(played: Iterable[PlayedBoard], journals: Mapping[int, Rows],
                 plan: Mapping[int, Sequence[int]] | None = None) -> TableFigures:
    """Every board each table played against that table's journal (see the module docstring).

    Args:
        played: the people's record of each board (the cards they played; not how it was misboarded).
        journals: each table's journal rows.
        plan: each table's boards, in the order it plays them (the movement's); every one must be played
            and journaled, and no other. None: the boards in ``played``.
    """
    f = TableFigures()
    by_table: dict[int, list[PlayedBoard]] = {}
    for p in played:
        by_table.setdefault(p.table, []).append(p)
    wanted = {t: list(b) for t, b in plan.items()} if plan is not None else \
        {t: [p.record.number for p in ps] for t, ps in by_table.items()}
    for table, numbers in sorted(wanted.items()):
        segs = _segments(journals.get(table, ()))
        boards = by_table.get(table, [])
        for number in sorted(set(numbers) - {p.record.number for p in boards}):
            f.problems.append(f"table {table} board {number}: the people never played it")
        journaled = {b.get("board") for b, _ in segs}
        for extra in sorted(journaled - set(numbers), key=str):
            f.problems.append(f"table {table}: board {extra} is in the journal, but not one of its boards")
        for p in boards:
            f.boards += 1
            where = f"table {table} round {p.round} board {p.record.number}"
            if p.record.number not in numbers:
                f.problems.append(f"{where}: played, but not one of the table's boards")
            mine = [(b, rs) for b, rs in segs if b.get("board") == p.record.number and b.get("round") == p.round]
            if not mine:
                f.problems.append(f"{where}: no board event in the journal")
                continue
            rows = [r for _, rs in mine for r in rs]
            _check_board(f, p, rows, where, p.short_pack or p.short_back > 0)
    return f


def first_wrong(record: Board, play: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    """The first card played (seat, card) by a seat the record does not give it to, or None."""
    return next(((s, c) for s, c in play if record.deal.holder(Card.parse(c)).value != s), None)


def _check_board(f: TableFigures, p: PlayedBoard, rows: list[tuple[int, str, Mapping[str, Any]]], where: str,
                 short: bool = False) -> None:
    played = [(str(b["seat"]), str(b["card"])) for _, k, b in rows if k == "event" and b.get("type") == "card_played"]
    f.cards += len(p.play)
    if played != p.play:
        lost = len(Counter(p.play) - Counter(played))
        twice = len(Counter(played) - Counter(p.play))
        f.lost += lost
        f.twice += twice
        f.problems.append(f"{where}: the journal's cards differ from those played ({lost} missing, {twice} extra or "
                          "out of order)")
    rulings = [b for _, k, b in rows if k == "ruling"]
    _fouls(f, p, played, rulings, rows, where)
    db14 = [r for r in rulings if r.get("clause") == "DB-14"]
    if len(db14) != int(short) or any(r.get("remedy") != "attention" for r in db14):
        f.problems.append(f"{where}: {len(db14)} DB-14 ruling(s); the shoe's pack was "
                          f"{'short of a card: want one' if short else 'whole: want none'}")
    others = [r for r in rulings if r.get("clause") not in ORDINARY]
    if others:
        f.false_alarms += len(others)
        f.problems.append(f"{where}: ruled {[r.get('clause') for r in others]}, which nothing that happened calls for "
                          "(legal play, no irregularity but the misboarding and the short pack)")
    want = first_wrong(p.record, played)
    checked = [r for r in rulings if r.get("clause") == "DB-7"]
    whole = want is None and len(played) == 52
    if len(checked) > 1 or (played and not checked) or (checked and bool(checked[0].get("verified")) != whole):
        f.problems.append(f"{where}: DB-7 says {[c.get('verified') for c in checked]} (verified), the cards say "
                          f"{whole}")
    f.verified += bool(checked and checked[0].get("verified"))
    _scores(f, p, played, rulings, where)
    _confirms(f, rows, where)
    if p.how == "shoe":
        dealt = [(str(b["seat"]), str(b["card"])) for _, k, b in rows if k == "event" and b.get("type") == "card_dealt"]
        good = len(dealt) == 52 and len({c for _, c in dealt}) == 52 and all(
            p.record.deal.holder(Card.parse(c)).value == s for s, c in dealt)
        f.dealt_by_shoe += good
        if not good:
            f.problems.append(f"{where}: the shoe's cards in the journal are not the record's 52 once each "
                              f"({len(dealt)} rows)")


def _fouls(f: TableFigures, p: PlayedBoard, played: Sequence[tuple[str, str]], rulings: list[Mapping[str, Any]],
           rows: list[tuple[int, str, Mapping[str, Any]]], where: str) -> None:
    """A board is misboarded exactly when a card was played from a seat its record does not give it to
    (decided here from the journal's cards and the record, never from a label): then one ``DB-87``
    attention ruling at that first card, the director's decision and its ``DB-87`` ruling; else none."""
    fouls = [r for r in rulings if r.get("clause") == "DB-87" and r.get("remedy") == "attention"]
    decided = [r for r in rulings if r.get("clause") == "DB-87" and r.get("remedy") != "attention"]
    entered = [b for _, k, b in rows if k == "event" and b.get("type") == "foul_ruled"]
    want = first_wrong(p.record, played)
    if want is not None:
        f.misboarded += 1
        if len(fouls) == 1 and (fouls[0].get("played_by"), fouls[0].get("card")) == want and \
                fouls[0].get("record_seat") == p.record.deal.holder(Card.parse(want[1])).value and \
                (fouls[0].get("table"), fouls[0].get("round"), fouls[0].get("board")) == \
                (p.table, p.round, p.record.number):
            f.caught_first += 1
        else:
            f.problems.append(f"{where}: misboarded; the first wrong card is {want[0]}'s {want[1]}, the journal has "
                              f"{[(r.get('played_by'), r.get('card'), r.get('table')) for r in fouls]}")
        if len(entered) != 1 or [r.get("remedy") for r in decided] != ["deal_stands"]:
            f.problems.append(f"{where}: misboarded; the director's decision entered {len(entered)} time(s), "
                              f"ruled {[r.get('remedy') for r in decided]} (want one, deal_stands)")
    elif fouls or decided or entered:
        f.false_alarms += len(fouls) + len(decided) + len(entered)
        f.problems.append(f"{where}: a DB-87 ruling or decision, but every card played was the record's")


SIDE = {"N": "ns", "S": "ns", "E": "ew", "W": "ew"}


def _confirms(f: TableFigures, rows: list[tuple[int, str, Mapping[str, Any]]], where: str) -> None:
    """A confirmation ruling stands on the people's presses: for each side, the seat it names journaled a
    ``confirm`` earlier in the board (docs/events.md, Confirmed). A ruling with no press behind it is a
    result nobody at the table agreed to, whatever its score says."""
    pressed: dict[str, set[str]] = {"ns": set(), "ew": set()}
    for _, k, b in rows:
        if k == "event" and b.get("type") == "confirm" and str(b.get("seat")) in SIDE:
            pressed[SIDE[str(b["seat"])]].add(str(b["seat"]))
        elif k == "ruling" and b.get("clause") == "DB-77" and b.get("confirmed"):
            named = b["confirmed"] if isinstance(b["confirmed"], Mapping) else {}
            missing = [side for side in ("ns", "ew") if str(named.get(side)) not in pressed[side]]
            if missing:
                f.problems.append(f"{where}: the result is ruled confirmed by {dict(named)}, but no `confirm` of "
                                  f"{' or '.join(missing)} is journaled before it (want one of each side)")


def board_result(p: PlayedBoard, played: Sequence[tuple[str, str]]) -> tuple[int, int] | None:
    """(tricks, North-South's score) the cards give for the people's contract (None: passed out)."""
    if p.contract in (None, "Pass"):
        return None
    declarer = Seat(str(p.declarer))
    contract = parse_contract(str(p.contract))
    tricks = _tricks(played, declarer, contract.strain)
    return tricks, board_score(contract, declarer, tricks, p.record.vulnerability)


def _scores(f: TableFigures, p: PlayedBoard, played: Sequence[tuple[str, str]], rulings: list[Mapping[str, Any]],
            where: str) -> None:
    """One score ruling and one confirmation, both the score the cards give for the contract bid (every
    board, whoever saw it finish)."""
    scores = [r for r in rulings if r.get("clause") == "DB-77" and not r.get("confirmed")]
    confirmed = [r for r in rulings if r.get("clause") == "DB-77" and r.get("confirmed")]
    if len(confirmed) != 1 or len(scores) != 1:
        f.problems.append(f"{where}: {len(scores)} score ruling(s), {len(confirmed)} confirmation(s); want one each")
    if p.confirms != 2:
        f.problems.append(f"{where}: the people entered {p.confirms} confirmation(s), one a side is two")
    closes = [r for r in rulings if r.get("clause") == "BP-22"]
    said = [("Pass", None) if r.get("passed_out") else (r.get("contract"), r.get("declarer")) for r in closes]
    if said != [(p.contract, p.declarer if p.contract != "Pass" else None)]:
        f.problems.append(f"{where}: the auction closed {said}, the people bid {p.contract} by {p.declarer}")
    result = board_result(p, played)
    good = True
    for s in scores + confirmed:
        if result is None:
            good = good and s.get("score") == 0
        else:
            good = good and (s.get("tricks"), s.get("score"), s.get("contract"), s.get("declarer")) == \
                (*result, p.contract, p.declarer)
    f.scored += bool(scores) and good
    if not good:
        f.problems.append(f"{where}: scored {[(s.get('contract'), s.get('tricks'), s.get('score')) for s in scores + confirmed]}"
                          f", the cards give {result} for {p.contract}")
