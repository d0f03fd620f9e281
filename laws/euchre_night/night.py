"""A euchre night as a pure model: what it was opened with, the records it took, who sits where each
round, when a round is over, and the standings (``docs/euchre.md``).

The session's journal holds records (JSON objects with a ``type``); :meth:`Night.check` says what is
wrong with one (``None``: it can be taken), :meth:`Night.apply` takes it. Replaying the records of a
journal into a fresh :class:`Night` gives the same night. Nothing here reads a clock or a file.

* ``hand``: a hand a table played and scored from its cards (:class:`HandRecord`).
* ``stop``: a table says it stopped after the director's call (the hand in play finished), with the
  number of hands it played in the round.
* ``call``: the director ends the round in play (each table finishes the hand in play, then stops).

A round is over when every table of it has played the night's hands, or has stopped after the call.
The next round's seats follow at once from the format (:func:`seat_round`): progressive from who won at
each table, Swiss from the partnerships' points so far, rotating and round robin from their schedules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from laws.cards import Seat, Side
from laws.competition import swiss
from laws.competition.teams import round_robin
from laws.competitors import Competitor, Pair, player
from laws.errors import as_typed
from laws.euchre_night import formats
from laws.euchre_night.form import hand_form_problem
from laws.euchre_night.formats import FormatError, Round
from laws.euchre_night.notation import plays_problem
from laws.euchre_night.scoring import (
    Hand,
    HandError,
    Penalty,
    Rules,
    rules_from_dict,
    rules_to_dict,
    seat_points,
)
from laws.euchre_night.standings import (
    HandPlayed,
    PlayerStanding,
    Tally,
    ranked,
    round_mean,
    seats_of,
    table_tally,
)
from laws.euchre_night.substitutes import Substitution, check_substitution, holders, substitution_of
from laws.session.kind import HOLD, REPEAT

SEATS = (Seat.N, Seat.S, Seat.E, Seat.W)   # the order of a table's tuple (north, south, east, west)


class Format(StrEnum):
    PROGRESSIVE = "progressive"
    ROTATING = "rotating"
    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"


FIXED = (Format.ROUND_ROBIN, Format.SWISS)


#: A player of the night is the one competitor type (``laws.competitors``) of kind ``player``: his number
#: (from 1), name and member number (``""`` for a visitor): ``Player(3, "Ann", "M12")``.
Player = player


@dataclass(frozen=True)
class NightSetup:
    """What a night is opened with."""

    name: str
    players: tuple[Competitor, ...]
    format: Format
    rounds: int
    hands: int
    tables: tuple[str, ...]
    rules: Rules = Rules()
    date: str = ""
    club: str = ""
    id: str = ""   # the night's identity on the wire (``night_id``), made at its opening: "" in a night of before

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "date": self.date, "club": self.club, "format": self.format.value,
                "rounds": self.rounds, "hands": self.hands, "tables": list(self.tables),
                "players": [{"number": p.number, "name": p.name, "member": p.member} for p in self.players],
                "scoring": rules_to_dict(self.rules), **({"id": self.id} if self.id else {})}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> NightSetup:
        try:
            players = tuple(Player(int(p["number"]), str(p["name"]), str(p.get("member", "")))
                            for p in d["players"])
            return cls(str(d["name"]), players, Format(d["format"]), int(d["rounds"]), int(d["hands"]),
                       tuple(str(t) for t in d["tables"]), rules_from_dict(d.get("scoring", {})),
                       str(d.get("date", "")), str(d.get("club", "")), str(d.get("id", "")))
        except (KeyError, TypeError, ValueError) as exc:
            raise FormatError(f"the night's setup cannot be read: {exc}") from None


CORRECTABLE = ("makers", "alone", "tricks", "penalties", "void")   # a hand's facts the director may correct


@dataclass(frozen=True)
class HandRecord:
    """A hand as the session keeps it: where it was played, its facts, and the table's record."""

    round: int
    table: int
    number: int
    hand: Hand
    source: str
    body: Mapping[str, Any] = field(compare=False, default_factory=dict)


def hand_from_body(b: Mapping[str, Any]) -> Hand:
    """The scoring facts of a ``hand`` record (``docs/euchre.md``, "The hand notation").

    Raises:
        HandError: a field that is missing or wrong, named (its form: ``form.hand_form_problem``).
    """
    if why := hand_form_problem(b):
        raise HandError(why)
    try:
        makers = Side(str(b.get("makers")))
    except ValueError:
        raise HandError(f"makers must be NS or EW, got {as_typed(b.get('makers'))}") from None
    alone_v = b.get("alone")
    try:
        alone = None if alone_v is None else Seat(alone_v)
    except ValueError:
        raise HandError(f"alone must be a seat (N, E, S, W) or null, got {as_typed(alone_v)}") from None
    pens = b.get("penalties", [])
    if not isinstance(pens, list):
        raise HandError("penalties must be a list")
    out = []
    for i, p in enumerate(pens):
        if not isinstance(p, dict):
            raise HandError(f"penalties[{i}] must be an object")
        try:
            side = Side(str(p.get("offending")))
        except ValueError:
            raise HandError(f"penalties[{i}].offending must be NS or EW, got {as_typed(p.get('offending'))}") from None
        try:
            out.append(Penalty(str(p.get("clause")), side, p.get("points")))  # type: ignore[arg-type]
        except HandError as exc:
            raise HandError(f"penalties[{i}]: {exc}") from None
    void = b.get("void", [])
    if not isinstance(void, list) or any(v not in ("NS", "EW") for v in void):
        raise HandError(f"void must be a list of NS and EW, got {as_typed(void, 60)}")
    return Hand(makers, alone, b.get("tricks"), tuple(out), frozenset(Side(v) for v in void))  # type: ignore[arg-type]


def check_setup(s: NightSetup) -> None:
    """Raise :class:`FormatError` when the night cannot be run as set up (the message says why)."""
    n = len(s.players)
    if [p.number for p in s.players] != list(range(1, n + 1)):
        raise FormatError("players are numbered 1, 2, ... in order")
    if n < 4:
        raise FormatError(f"a euchre night needs at least 4 players, got {n}")
    if not 1 <= s.hands <= 99:
        raise FormatError(f"hands a round is a whole number 1 to 99, got {s.hands}")
    if not 1 <= s.rounds <= 99:   # a progressive night has no end of its own: 10**20 rounds were taken
        raise FormatError(f"rounds is a whole number 1 to 99, got {s.rounds}")
    if len(set(s.tables)) != len(s.tables):
        raise FormatError("a club table is named twice")
    if s.format in FIXED and n % 2:   # first: "swiss with 13 players has at most 5 rounds" was untrue (audit m28)
        raise FormatError(f"fixed partnerships need an even number of players, got {n}")
    most = max_rounds(s.format, n)
    if most is not None and s.rounds > most:
        raise FormatError(f"{s.format.value} with {n} players has at most {most} rounds, not {s.rounds}")
    need = tables_needed(s.format, n)
    if need > len(s.tables):
        raise FormatError(f"{s.format.value} with {n} players needs {need} tables, the night has {len(s.tables)}")


def max_rounds(fmt: Format, n: int) -> int | None:
    """The most rounds a night of ``n`` players can have (None: no end of its own).

    A Swiss has as many as a round robin of its partnerships (one fewer than the partnerships, or as
    many when they are odd, each sitting out once): the director's choice up to there. Some results
    leave a later round with no draw that avoids every repeat (6 partnerships: round 4 of 5 in about a
    fifth of random nights); that round is drawn with the fewest repeats (``swiss.draw``) and the night
    goes on, its pages naming the repeated tables. The limit of half the partnerships, which made a
    repeat impossible, was only there because such a round used to stop the night.
    """
    if fmt is Format.ROTATING:
        return len(formats.rotating(n))
    if fmt is Format.ROUND_ROBIN:
        return len(round_robin(n // 2)) if n // 2 >= 2 else 0
    if fmt is Format.SWISS:
        pairs = n // 2
        return pairs - 1 if pairs % 2 == 0 else pairs
    return None


def tables_needed(fmt: Format, n: int) -> int:
    if fmt is Format.ROTATING:
        return max(len(r.tables) for r in formats.rotating(n))
    return n // 4


def _partners(p: int) -> tuple[int, int]:
    return (2 * p - 1, 2 * p)


def _fixed_round(number: int, matches: Sequence[tuple[int, int]], pairs: int,
                 repeats: Sequence[tuple[int, int]] = ()) -> Round:
    tables = tuple((*_partners(a), *_partners(b)) for a, b in matches)
    seated = {x for t in tables for x in t}
    out = tuple(p for p in range(1, 2 * pairs + 1) if p not in seated)
    return Round(number, tables, out, tuple(k for k, m in enumerate(matches, 1) if tuple(m) in repeats))


class Night:
    """The night's state from its records (see the module docstring)."""

    def __init__(self, setup: NightSetup) -> None:
        check_setup(setup)
        self.setup = setup
        self.rounds: list[Round] = []
        self.hands: dict[tuple[int, int, int], HandRecord] = {}
        self.sources: dict[str, tuple[int, int, int]] = {}
        self.stopped: dict[tuple[int, int], int] = {}
        self.called: set[int] = set()
        self.at: dict[tuple[int, int], list[HandRecord]] = {}      # (round, table) -> its hands, in order
        self._points: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self._seat_pts: dict[tuple[int, int, int], dict[Seat, int]] = {}
        self._standings: tuple[PlayerStanding, ...] | None = None
        self._tallies: dict[tuple[int, int], Tally] = {}
        self.subs: dict[int, list[Substitution]] = {}             # player -> his substitutes, in order
        self.rounds.append(self.seat_round(1))

    # -- seats ------------------------------------------------------------------------------------------

    @property
    def players(self) -> int:
        return len(self.setup.players)

    def seat_round(self, number: int) -> Round:
        """Round ``number``'s seats, from the format and (progressive, Swiss) the rounds before it."""
        s, n = self.setup, self.players
        if s.format is Format.ROTATING:
            return formats.rotating(n)[number - 1]
        if s.format is Format.ROUND_ROBIN:
            return _fixed_round(number, round_robin(n // 2)[number - 1], n // 2)
        if s.format is Format.SWISS:
            # never stops: a round no draw can make without a repeat has the fewest (swiss.draw)
            d = swiss.draw(number, self.pair_table())
            return _fixed_round(number, tuple((a.number, b.number) for a, b in d.matches), n // 2,
                                tuple((a.number, b.number) for a, b in d.repeats))
        if number == 1:
            return formats.progressive_first(n)
        prev = self.rounds[number - 2]
        sat: dict[int, int] = {}
        for r in self.rounds[:number - 1]:
            for p in r.out:
                sat[p] = sat.get(p, 0) + 1
        return formats.progressive_next(prev, {k: self.ns_won(number - 1, k) for k in range(1, len(prev.tables) + 1)},
                                        sat)

    def table_points(self, rnd: int, k: int) -> tuple[int, int, int, int]:
        """(NS points, EW points, NS hands won, EW hands won) at table ``k`` in round ``rnd``."""
        got = self._points.get((rnd, k))
        if got is not None:
            return got
        ns = ew = hn = he = 0
        for h in self.at.get((rnd, k), ()):
            pts = self.points(h)
            a, b = max(pts[Seat.N], pts[Seat.S]), max(pts[Seat.E], pts[Seat.W])
            ns, ew = ns + a, ew + b
            hn, he = hn + (a > 0), he + (b > 0)
        self._points[(rnd, k)] = (ns, ew, hn, he)
        return ns, ew, hn, he

    def points(self, h: HandRecord) -> dict[Seat, int]:
        """Each seat's points on a hand taken, by the night's rules (worked out once a hand)."""
        got = self._seat_pts.get((h.round, h.table, h.number))
        if got is None:
            got = self._seat_pts[(h.round, h.table, h.number)] = seat_points(h.hand, self.setup.rules)
        return dict(got)

    def ns_won(self, rnd: int, k: int) -> bool:
        """Did North-South win table ``k`` of round ``rnd``: more points, then more hands won, then NS."""
        ns, ew, hn, he = self.table_points(rnd, k)
        return (ns, hn) >= (ew, he)

    def pair_table(self) -> list[swiss.Standing]:
        """The partnerships' standings for a Swiss draw: points so far (the side's, hand by hand), then
        the partnership's number; partnership ``k`` (players ``2k - 1`` and ``2k``) is ``Pair(k)``."""
        pairs = self.players // 2
        pts = {p: Fraction(0) for p in range(1, pairs + 1)}
        met: dict[int, set[int]] = {p: set() for p in pts}
        byes = dict.fromkeys(pts, 0)
        for rnd in self.rounds:
            for k, t in enumerate(rnd.tables, 1):
                a, b = (t[0] + 1) // 2, (t[2] + 1) // 2
                met[a].add(b)
                met[b].add(a)
                ns, ew, _, _ = self.table_points(rnd.number, k)
                pts[a] += ns
                pts[b] += ew
            for p in {(x + 1) // 2 for x in rnd.out}:
                byes[p] += 1
        order = sorted(pts, key=lambda p: (-pts[p], p))
        return [swiss.Standing(Pair(p), pts[p], 0, frozenset(Pair(o) for o in met[p]), byes[p]) for p in order]

    # -- where things stand -----------------------------------------------------------------------------

    @property
    def current(self) -> int:
        """The round in play (the last seated one)."""
        return len(self.rounds)

    def round(self, number: int) -> Round:
        return self.rounds[number - 1]

    def played(self, rnd: int, k: int) -> int:
        return len(self.at.get((rnd, k), ()))

    def table_done(self, rnd: int, k: int) -> bool:
        return (rnd, k) in self.stopped or self.played(rnd, k) >= self.setup.hands

    def complete(self, rnd: int) -> bool:
        if rnd > len(self.rounds):
            return False
        return all(self.table_done(rnd, k) for k in range(1, len(self.round(rnd).tables) + 1))

    @property
    def finished(self) -> bool:
        return self.current == self.setup.rounds and self.complete(self.current)

    def where(self, table_id: str, rnd: int) -> tuple[int, tuple[int, int, int, int]] | None:
        """The number and the seats of club table ``table_id`` in round ``rnd`` (None: not in play)."""
        if table_id not in self.setup.tables or not 1 <= rnd <= len(self.rounds):
            return None
        k = self.setup.tables.index(table_id) + 1
        tables = self.round(rnd).tables
        return (k, tables[k - 1]) if k <= len(tables) else None

    def standings(self) -> tuple[PlayerStanding, ...]:
        """Every player's standing now (a sit-out is credited a round's mean once the round is over).

        Each table's part of each round is tallied once (``standings.table_tally``) and again only when a
        hand there is taken or corrected, so a hand costs the night its own table's tally and the ranking,
        not a pass over every hand of the night."""
        if self._standings is None:
            rounds = [r if self.complete(r.number) else Round(r.number, r.tables) for r in self.rounds]
            self._standings = ranked(self.players, rounds, {(r.number, k): self.tally(r.number, k)
                                                            for r in rounds for k in range(1, len(r.tables) + 1)})
        return self._standings

    def _playing(self, player: Any) -> int | None:
        """Hands played in the round in play at ``player``'s table (None: he sits out, or no such player)."""
        for k, t in enumerate(self.round(self.current).tables, 1):
            if player in t:
                return self.played(self.current, k)
        return None

    def name_in(self, player: int, rnd: int) -> str:
        """Who holds number ``player`` in round ``rnd``: the player, or his substitute from that round."""
        name = self.setup.players[player - 1].name
        for sub in self.subs.get(player, ()):
            if sub.from_round <= rnd:
                name = sub.name
        return name

    def round_points(self, player: int) -> dict[int, Fraction]:
        """Number ``player``'s points round by round (a sit-out's mean once the round is over)."""
        out: dict[int, Fraction] = {}
        for r in self.rounds:
            tallies = [self.tally(r.number, k) for k in range(1, len(r.tables) + 1)]
            for t in tallies:
                if player in t.points:
                    out[r.number] = Fraction(t.points[player])
            if player in r.out and self.complete(r.number):
                out[r.number] = round_mean(tallies)
        return out

    def played_by(self, player: int) -> list[dict[str, Any]]:
        """Who held number ``player`` (the house rule on substitutes): each person's name, member number,
        first and last round, and the points scored at the number in those rounds."""
        p = self.setup.players[player - 1]
        if not self.subs.get(player):      # nobody replaced: the line's points, without a pass over the rounds
            total = next(st.points for st in self.standings() if st.player == player)
            return [{"name": p.name, "member": p.member, "from_round": 1, "to_round": self.setup.rounds,
                     "points": total}]
        pts = self.round_points(player)
        return [{"name": n, "member": m, "from_round": a, "to_round": b,
                 "points": sum((v for r, v in pts.items() if a <= r <= b), Fraction(0))}
                for n, m, a, b in holders(p.name, p.member, self.subs.get(player, []), self.setup.rounds)]

    def tally(self, rnd: int, k: int) -> Tally:
        """Table ``k``'s tally in round ``rnd``, player by player (worked out once a change there)."""
        got = self._tallies.get((rnd, k))
        if got is None:
            got = self._tallies[(rnd, k)] = table_tally(
                seats_of(self.round(rnd), k),
                [HandPlayed(h.round, h.table, h.hand, self.points(h)) for h in self.at.get((rnd, k), ())])
        return got

    # -- records ----------------------------------------------------------------------------------------

    def check(self, rec: Mapping[str, Any], *, journaled: bool = False) -> str:
        """What is wrong with a record (``""``: it can be taken). A repeat is ``REPEAT``; a hand ahead of one
        still missing at its table is ``HOLD`` (neither taken nor refused) (``laws.session.kind``). ``journaled``:
        a record the journal holds (a replay): a check added later (``plays_problem``) does not unmake it."""
        typ = rec.get("type")
        if typ == "call":
            rnd = rec.get("round")
            if rnd != self.current:
                return f"the round in play is {self.current}, not {as_typed(rnd)}"
            if rnd in self.called:
                return f"round {rnd} has been called already"
            if self.complete(self.current):
                return f"round {rnd} is over already"
            return ""
        if typ == "correct":
            got = self._corrected(rec)
            return got if isinstance(got, str) else ""
        if typ == "substitute":
            p = rec.get("player")
            if self.finished:   # every round is over: nobody comes in any more, nor is a line rewritten
                return "the night is over: a substitute comes in for a round still to be played"
            return check_substitution(rec, self.players, self.setup.rounds, self.current, self._playing(p),
                                      self.subs.get(p, []) if isinstance(p, int) else [])
        if typ not in ("hand", "stop"):
            return f"a record of type {str(typ)[:20]!r} is not one of hand, stop, call, correct, substitute"
        table, rnd = rec.get("table"), rec.get("round")
        if table not in self.setup.tables:
            return f"a {typ} from table {str(table)[:64]!r}, which is not one of this night's tables"
        if rec.get("night_id", self.setup.id) != self.setup.id:   # a table's last night's (absent: a table of before)
            return (f"{table}: the {typ} is of another night (night_id {as_typed(rec.get('night_id'))}), "
                    f"not of this one ({as_typed(self.setup.id) if self.setup.id else 'which has none'})")
        if not isinstance(rnd, int) or isinstance(rnd, bool):
            return f"{table}: round must be a whole number, got {as_typed(rnd)}"
        where = self.where(str(table), rnd)
        if where is None:
            return f"{table}: round {rnd} is not in play (the round in play is {self.current})" \
                if rnd != self.current else f"{table} has no seats in round {rnd}"
        k, seats = where
        if rec.get("table_number") != k:
            return f"{table}: it is table {k} of the night, the {typ} says {as_typed(rec.get('table_number'))}"
        if typ == "stop":
            said = rec.get("hands")
            if (rnd, k) in self.stopped:
                if said == self.stopped[(rnd, k)]:
                    return REPEAT
                return f"{table}: round {rnd} was stopped already, after {self.stopped[(rnd, k)]} hands"
            if rnd not in self.called:
                return f"{table}: a stop in round {rnd} before the director called it"
            if isinstance(said, int) and not isinstance(said, bool) and self.played(rnd, k) < said <= self.setup.hands:
                return HOLD   # hands it played have not all arrived: the stop waits for them
            if said != self.played(rnd, k):
                return f"{table}: the stop says {as_typed(said)} hands in round {rnd}, the night has {self.played(rnd, k)} from it"
            return ""
        src = str(rec.get("source", ""))
        number = rec.get("hand")
        if src and src in self.sources:
            return REPEAT
        key = (rnd, k, number)
        if key in self.hands:
            old = self.hands[key].body
            sent = dict(old)      # as the table sent it: a director's corrections undone
            for c in reversed(old.get("corrections", [])):
                sent.update(c["was"])
            same = any(all(b.get(f) == rec.get(f) for f in ("makers", "alone", "tricks", "penalties", "plays"))
                       for b in (old, sent))
            return REPEAT if same else f"{table}, round {rnd}: hand {number} was taken already " \
                                         f"(from {self.hands[key].source}) with another result"
        if (rnd, k) in self.stopped:
            return f"{table}, round {rnd}: the table stopped after the director's call; hand {number} is not taken"
        if self.table_done(rnd, k):
            return f"{table}, round {rnd}: the table has played its {self.setup.hands} hands"
        if isinstance(number, int) and not isinstance(number, bool) and self.played(rnd, k) + 1 < number <= self.setup.hands:
            return HOLD   # ahead of a hand still missing: not answered, so the table sends it again after it
        if number != self.played(rnd, k) + 1:
            return f"{table}, round {rnd}: hand {as_typed(number)} arrives, the next hand there is {self.played(rnd, k) + 1}"
        players = rec.get("players")
        want = {s.value: p for s, p in zip(SEATS, seats)}
        if players != want:
            return f"{table}, round {rnd}: the hand names players {as_typed(players, 200)} at the seats, the round seats {as_typed(want, 200)}"
        if "corrections" in rec:     # only the director corrects a hand, on the night's own record
            return f"{table}, round {rnd}, hand {number}: a table's hand carries no corrections"
        try:
            hand_from_body(rec)
        except HandError as exc:
            return f"{table}, round {rnd}, hand {number}: {exc}"
        if not journaled and (why := plays_problem(rec)):   # a correction changes tricks, never plays
            return f"{table}, round {rnd}, hand {number}: {why}"
        return ""

    def _corrected(self, rec: Mapping[str, Any]) -> tuple[tuple[int, int, int], dict[str, Any]] | str:
        """The hand a correction names and its body corrected, or why it cannot be taken."""
        table, rnd, number = rec.get("table"), rec.get("round"), rec.get("hand")
        if table not in self.setup.tables:
            return f"a correction of table {str(table)[:64]!r}, which is not one of this night's tables"
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (rnd, number)):
            return f"{table}: a correction's round and hand are whole numbers, got {as_typed(rnd)} and {as_typed(number)}"
        k = self.setup.tables.index(str(table)) + 1
        key = (rnd, k, number)
        if key not in self.hands:
            return f"{table}: the night has no hand {as_typed(number)} of round {as_typed(rnd)} from it"
        why = rec.get("why")
        if not isinstance(why, str) or not why.strip():
            return f"{table}, round {rnd}, hand {number}: a correction says why"
        facts = rec.get("facts")
        if facts == {}:    # the page's form sent with every box "as taken" (audit m28: it read "got {}")
            return (f"{table}, round {rnd}, hand {number}: the correction changes none of the hand's facts: "
                    "choose the makers, tricks, lone player, void or penalties it corrects")
        if not isinstance(facts, dict) or any(f not in CORRECTABLE for f in facts):
            return (f"{table}, round {rnd}, hand {number}: facts must be an object of some of "
                    f"{', '.join(CORRECTABLE)}, got {as_typed(facts, 100)}")
        old = self.hands[key].body
        if all(old.get(f) == v for f, v in facts.items()):
            return f"{table}, round {rnd}, hand {number}: the correction changes nothing"
        body = {**old, **facts}
        try:
            hand_from_body(body)
        except HandError as exc:
            return f"{table}, round {rnd}, hand {number}: {exc}"
        body["corrections"] = [*old.get("corrections", []),
                               {"by": str(rec.get("by", "")), "why": why, "was": {f: old.get(f) for f in facts}}]
        return key, body

    def apply(self, rec: Mapping[str, Any]) -> None:
        """Take a record :meth:`check` passed; a round over seats the next at once (a correction changes
        a hand's points and the standings; rounds seated already stand)."""
        typ = rec["type"]
        if typ == "substitute":
            sub = substitution_of(rec)
            self.subs.setdefault(sub.player, []).append(sub)
            return
        if typ == "correct":
            got = self._corrected(rec)
            assert not isinstance(got, str), got
            key, body = got
            old = self.hands[key]
            new = HandRecord(old.round, old.table, old.number, hand_from_body(body), old.source, body)
            self.hands[key] = new
            at = self.at[(old.round, old.table)]
            at[at.index(old)] = new
            self._points.pop((old.round, old.table), None)
            self._tallies.pop((old.round, old.table), None)
            self._seat_pts.pop(key, None)
            self._standings = None
            return
        if typ == "call":
            self.called.add(int(rec["round"]))
        elif typ == "stop":
            where = self.where(rec["table"], rec["round"])
            assert where is not None
            self.stopped[(rec["round"], where[0])] = int(rec.get("hands", 0))
        else:
            k = rec["table_number"]
            key = (rec["round"], k, rec["hand"])
            self.hands[key] = HandRecord(rec["round"], k, rec["hand"], hand_from_body(rec), str(rec.get("source", "")),
                                         dict(rec))
            self.at.setdefault((rec["round"], k), []).append(self.hands[key])
            self._points.pop((rec["round"], k), None)
            self._tallies.pop((rec["round"], k), None)
            if rec.get("source"):
                self.sources[str(rec["source"])] = key
        self._standings = None
        while self.complete(self.current) and self.current < self.setup.rounds:
            self.rounds.append(self.seat_round(self.current + 1))


class EuchreKind:
    """A euchre night as a kind of session (``laws.session.kind.Kind``): its setup a :class:`NightSetup`,
    its state a :class:`Night`."""

    name = "euchre"

    def setup_from_dict(self, d: Any) -> NightSetup:
        if not isinstance(d, Mapping):
            raise ValueError("the night's setup is not an object")
        return NightSetup.from_dict(d)

    def start(self, setup: NightSetup) -> Night:
        return Night(setup)

    def replay(self, setup: NightSetup, records: Iterable[Mapping[str, Any]]) -> tuple[Night, list[str]]:
        night, skipped = Night(setup), []
        for rec in records:
            why = night.check(rec, journaled=True)
            if why:
                skipped.append(f"{rec.get('type')} from {rec.get('source') or rec.get('by') or '?'}: {why}")
                continue
            night.apply(rec)
        return night, skipped


EUCHRE = EuchreKind()
