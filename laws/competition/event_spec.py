"""What an event beyond one pairs field is made of, and where everyone sits in a round (pure values).

An :class:`EventSpec` is a plain value that goes to and from JSON (:meth:`EventSpec.to_dict`,
:meth:`EventSpec.from_dict`): the kind of event, the number of entrants (teams, pairs or players,
numbered from 1), the rounds, the boards a round, the VP scale and the bye's VPs. Entrant ``n`` is a
:class:`~laws.competitors.Competitor` (:meth:`EventSpec.entrant`): ``team(n)`` in a teams event,
``Pair(n)`` in Swiss pairs, ``player(n)`` in an individual; a section's pair is its movement's own
``Pair`` (number and direction within its section).

**Boards.** Round ``r`` plays boards ``(r - 1) * b + 1 .. r * b`` (``b`` boards a round), at every
table of the round, one copy a table (duplicated, as a barometer or a teams match needs).

**Tables of a round** (:func:`tables_of`), from the round's draw (its matches, higher-placed first):

* teams (round robin, knock-out, Swiss teams): match ``m`` (from 1) is played at tables ``2m - 1``
  (the open room: the first-named team North-South, the other East-West) and ``2m`` (the closed room:
  the other way round);
* Swiss pairs: match ``m`` is table ``m``, the first-named pair North-South;
* individual: the individual movement's tables (``laws.competition.individual``), four players a table;
* pairs in sections: each section's movement (a Mitchell or a Howell of ``laws.duplicate.movement``)
  on its own tables, section after section (section A's tables first); each table plays its own board
  group (``Seat4.boards``), pair numbers are the section's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any

from laws.competition.individual import (
    STARTING_ROUNDS,
    IndividualError,
    IndividualMovement,
    individual_movement,
)
from laws.competition.swiss import BYE_VP
from laws.competition.vp import DiscreteScale, ScaleError
from laws.competitors import Competitor, player, team
from laws.duplicate.movement import (
    Movement,
    MovementError,
    Pair,
    barometer,
    check,
    from_asc,
    howell,
    mitchell,
)
from laws.errors import as_typed

TEAMS_AT_MOST = 200


class EventError(ValueError):
    """An event or a result that cannot be used; the message names what and where."""


class EventKind(StrEnum):
    """The kinds of event the club runs beside a pairs session."""

    ROUND_ROBIN = "teams-round-robin"
    KNOCKOUT = "teams-knockout"
    SWISS_TEAMS = "swiss-teams"
    SWISS_PAIRS = "swiss-pairs"
    INDIVIDUAL = "individual"
    SECTIONS = "pairs-sections"

    @property
    def teams(self) -> bool:
        return self in (EventKind.ROUND_ROBIN, EventKind.KNOCKOUT, EventKind.SWISS_TEAMS)


@dataclass(frozen=True)
class Seat4:
    """One table of one round: who sits North, South, East and West (the teams, pairs or players, as
    :class:`~laws.competitors.Competitor` values: a team or a pair fills both seats of its side) and
    the match it belongs to (teams and Swiss pairs; 0 for an individual). ``to_dict`` writes their
    numbers."""

    table: int
    north: Competitor
    south: Competitor
    east: Competitor
    west: Competitor
    match: int = 0
    room: str = ""
    section: str = ""
    boards: tuple[int, ...] = ()
    pairs: tuple[str, str] = ("", "")     # sections: the pairs North-South and East-West (``3 NS``, ``1 EW``)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"table": self.table, "north": self.north.number, "south": self.south.number,
                               "east": self.east.number, "west": self.west.number, "match": self.match,
                               "room": self.room}
        if self.section:
            out["section"] = self.section
            out["boards"] = list(self.boards)
            out["ns_pair"], out["ew_pair"] = self.pairs
        return out


MOVEMENTS = ("mitchell", "howell", "barometer", "barometer-howell", "asc")


@dataclass(frozen=True)
class SectionSpec:
    """One section of a pairs event: its name (1 to 8 letters or digits), tables and movement (a
    Mitchell, a Howell, a barometer with the Mitchell's or the Howell's pairing: every table plays the
    round's board group, or ``asc``: the ``.ASC`` movement file whose text is ``asc``, kept in the setup so
    the journal needs no other file), and the rounds in which a Mitchell's pairs switch arrows (play the
    boards in the other direction: the section is then one field, ``docs/movements.md``)."""

    name: str
    tables: int
    movement: str = "mitchell"
    arrow_switch: tuple[int, ...] = ()
    asc: str = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "tables": self.tables, "movement": self.movement}
        if self.arrow_switch:
            out["arrow_switch"] = list(self.arrow_switch)
        if self.movement == "asc":
            out["asc"] = self.asc
        return out


def section_movement(section: SectionSpec, boards_per_round: int) -> Movement:
    """The section's movement (``laws.duplicate.movement``), or :class:`EventError` naming the section."""
    name = section.name
    if not isinstance(name, str) or not 1 <= len(name) <= 8 or not name.isascii() or not name.isalnum():
        raise EventError(f"a section's name is 1 to 8 letters or digits, got {name!r}")
    if section.movement not in MOVEMENTS:
        raise EventError(f"section {name}: the movement is one of {', '.join(MOVEMENTS)}, got {section.movement!r}")
    switched = section.arrow_switch
    if not isinstance(switched, tuple) or not all(isinstance(r, int) and not isinstance(r, bool) for r in switched):
        raise EventError(f"section {name}: the arrow switch rounds are whole numbers, got {switched!r}")
    if switched and section.movement != "mitchell":
        raise EventError(f"section {name}: only a Mitchell's pairs switch arrows " + (
            "(a Howell's pairs sit both ways already)" if section.movement == "howell" else
            "(not offered for an .ASC movement)" if section.movement == "asc" else
            "(a barometer's are not offered: every table plays the round's boards already)"))
    try:
        if section.movement == "mitchell":
            return mitchell(section.tables, boards_per_round, arrow_switch_rounds=switched)
        if section.movement == "asc":
            if not isinstance(section.asc, str) or not section.asc.strip():
                raise EventError(f"section {name}: an asc section needs its .ASC movement's text")
            made = from_asc(section.asc, boards_per_round=boards_per_round)
            unsound = check(made)   # whoever made it: no movement that cannot be played is handed out
            if unsound:
                raise EventError(f"section {name}: its .ASC movement cannot be played as it stands: "
                                 + "; ".join(unsound[:3]))
            if made.tables != section.tables:
                raise EventError(f"section {name}: its .ASC movement has {made.tables} tables, the section "
                                 f"{section.tables}")
            return made
        if section.asc:
            raise EventError(f"section {name}: only an asc section carries an .ASC movement's text")
        if section.movement.startswith("barometer"):     # every table the round's group: "-howell" its pairing
            return barometer(section.tables, boards_per_round,
                             "howell" if section.movement == "barometer-howell" else "mitchell")
        return howell(section.tables, boards_per_round)
    except MovementError as exc:
        raise EventError(f"section {name}: {exc}") from None


def _whole(name: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise EventError(f"{name} is a whole number from {low} to {high}, got {value!r}")
    return value


def knockout_rounds(entrants: int) -> int:
    """The rounds of a knock-out of ``entrants`` teams (the bracket's size is the next power of two)."""
    size, rounds = 1, 0
    while size < entrants:
        size, rounds = size * 2, rounds + 1
    return rounds


@dataclass(frozen=True)
class EventSpec:
    """An event: kind, entrants (numbered 1..n), rounds, boards a round, scale (None: WBF continuous), bye."""

    kind: EventKind
    entrants: int
    rounds: int
    boards_per_round: int
    scale: DiscreteScale | None = None
    bye_vp: Fraction = BYE_VP
    name: str = "Event"
    sections: tuple[SectionSpec, ...] = ()
    across: bool = False
    individual: str = "balanced"    # an individual's table: "balanced" or "published" (laws.competition.individual)

    def __post_init__(self) -> None:
        if not isinstance(self.kind, EventKind):
            raise EventError(f"an event's kind is one of {', '.join(k.value for k in EventKind)}, got {self.kind!r}")
        _whole("an event's entrants", self.entrants, 2, TEAMS_AT_MOST)
        _whole("an event's boards a round", self.boards_per_round, 1, 36)
        _whole("an event's rounds", self.rounds, 1, 99)
        if not isinstance(self.name, str) or not 1 <= len(self.name) <= 80 or not self.name.isprintable():
            raise EventError(f"an event's name is 1 to 80 printable characters, got {self.name!r}")
        n, r = self.entrants, self.rounds
        if (self.kind is EventKind.SECTIONS) != bool(self.sections):
            raise EventError("an event of sections (and only one) lists its sections")
        if self.across and self.kind is not EventKind.SECTIONS:
            raise EventError("only an event of sections is scored across the field (across), "
                             f"not {self.kind.value}")
        if self.kind is EventKind.SECTIONS:
            self._check_sections()
        elif self.kind is EventKind.INDIVIDUAL:
            if self.boards_per_round > 8:
                raise EventError(f"an individual plays 1 to 8 boards a round, got {self.boards_per_round}")
            if n not in STARTING_ROUNDS:
                raise EventError(f"an individual is for {', '.join(map(str, STARTING_ROUNDS))} players, got {n}")
            rounds = self.individual_schedule().rounds   # refuses a table not balanced or published
            if r != rounds:
                raise EventError(f"the {self.individual} individual for {n} players has {rounds} rounds, got {r}")
        elif self.individual != "balanced":
            raise EventError("only an individual chooses its table (balanced or published)")
        elif self.kind is EventKind.ROUND_ROBIN:
            if r != n - 1 + n % 2:
                raise EventError(f"a round robin of {n} teams has {n - 1 + n % 2} rounds, got {r}")
        elif self.kind is EventKind.KNOCKOUT:
            if r != knockout_rounds(n):
                raise EventError(f"a knock-out of {n} teams has {knockout_rounds(n)} rounds, got {r}")
        elif r > n - 1 + n % 2:
            raise EventError(f"a Swiss of {n} entrants has at most {n - 1 + n % 2} rounds, got {r}")
        if not isinstance(self.bye_vp, Fraction) or not 0 <= self.bye_vp <= self.total:
            got = self.bye_vp if not isinstance(self.bye_vp, Fraction) else (
                self.bye_vp.numerator if self.bye_vp.denominator == 1 else float(self.bye_vp))
            raise EventError(f"a bye's VPs are from 0 to {self.total}, got {as_typed(got)}")

    def _check_sections(self) -> None:
        names = [sec.name for sec in self.sections]
        if len(set(names)) != len(names):
            raise EventError("a section's name is given twice")
        movements = self.movements()
        pairs = sum(len(m.pairs()) for m in movements.values())
        for name, m in movements.items():
            if m.rounds != self.rounds:
                raise EventError(f"section {name} plays {m.rounds} rounds, the event {self.rounds}: every "
                                 f"section plays the event's rounds")
            if len({m.due(b) for b in m.boards()}) != 1:
                raise EventError(f"section {name}: its boards are not all played the same number of times")
        if pairs != self.entrants:
            raise EventError(f"the sections seat {pairs} pairs, the event has {self.entrants} entrants")
        if self.across and len({m.boards() for m in movements.values()}) != 1:
            raise EventError("sections scored across the field play the same boards")
        if self.across and any(sec.arrow_switch for sec in self.sections):
            raise EventError("sections scored across the field switch no arrows (each direction is one field "
                             "across the sections)")

    def movements(self) -> dict[str, Movement]:
        """Each section's movement, by name (an event of sections only). Built once a spec (building and
        checking a 25-table Mitchell is tens of milliseconds, and every view and file asks for them); the
        movements are frozen values, the dict a fresh copy each call."""
        made = self.__dict__.get("_movements")
        if made is None:
            made = {sec.name: section_movement(sec, self.boards_per_round) for sec in self.sections}
            object.__setattr__(self, "_movements", made)
        return dict(made)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without the movements made once (a movement's board groups do not pickle)."""
        return {k: v for k, v in self.__dict__.items() if k not in ("_movements", "_numbers", "_entrants", "_schedule")}

    def individual_schedule(self) -> IndividualMovement:
        """An individual's movement (:func:`~laws.competition.individual.individual_movement` with this
        event's players, boards a round and table), made once a spec."""
        made = self.__dict__.get("_schedule")
        if made is None:
            try:
                made = individual_movement(self.entrants, self.boards_per_round, self.individual)
            except IndividualError as exc:
                raise EventError(str(exc)) from None
            object.__setattr__(self, "_schedule", made)
        return made

    def entrant(self, number: int) -> Competitor:
        """Entrant ``number`` (from 1) as who competes: ``team(n)`` in a teams event, ``player(n)`` in an
        individual, ``Pair(n)`` in Swiss pairs. An event of sections has no such numbering of its pairs
        (a pair is its section's ``Pair``, :func:`section_pairs`): :class:`EventError`."""
        if self.kind is EventKind.SECTIONS:
            raise EventError("an event of sections names its pairs by section and pair, not by entrant number")
        if self.kind.teams:
            return team(number)
        return player(number) if self.kind is EventKind.INDIVIDUAL else Pair(number)

    def competitors(self) -> tuple[Competitor, ...]:
        """Every entrant, 1 to ``entrants`` (:meth:`entrant`), made once a spec (the standings ask for
        them at every draw)."""
        made = self.__dict__.get("_entrants")
        if made is None:
            made = tuple(self.entrant(n) for n in range(1, self.entrants + 1))
            object.__setattr__(self, "_entrants", made)
        return made

    @property
    def bye_score(self) -> Fraction:
        """What a bye scores: the event's bye VPs; nothing in a knock-out, where a bye just goes through."""
        return Fraction(0) if self.kind is EventKind.KNOCKOUT else self.bye_vp

    @property
    def total(self) -> int:
        """What a match's two sides' VPs add up to."""
        return self.scale.total if self.scale is not None else 20

    def boards(self, round_number: int) -> tuple[int, ...]:
        """The boards of ``round_number``."""
        b = self.boards_per_round
        return tuple(range((round_number - 1) * b + 1, round_number * b + 1))

    def round_of(self, board: int) -> int:
        """The round a board is played in."""
        return (board - 1) // self.boards_per_round + 1

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind.value, "entrants": self.entrants, "rounds": self.rounds,
                               "boards_per_round": self.boards_per_round, "bye_vp": str(self.bye_vp),
                               "name": self.name}
        if self.scale is not None:
            out["scale"] = {"name": self.scale.name, "total": self.scale.total,
                            "thresholds": list(self.scale.thresholds)}
        if self.sections:
            out["sections"] = [sec.to_dict() for sec in self.sections]
            out["across"] = self.across
        if self.individual != "balanced":
            out["individual"] = self.individual
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventSpec:
        """The spec from its JSON form; :class:`EventError` names the first thing wrong."""
        if not isinstance(data, Mapping):
            raise EventError(f"an event's setup is an object, got {type(data).__name__}")
        unknown = set(data) - {"kind", "entrants", "rounds", "boards_per_round", "bye_vp", "name", "scale",
                               "sections", "across", "individual"}
        if unknown:
            raise EventError(f"an event's setup has no field {sorted(unknown)[0]!r}")
        try:
            kind = EventKind(str(data.get("kind")))
        except ValueError:
            raise EventError(f"an event's kind is one of {', '.join(k.value for k in EventKind)}, "
                             f"got {data.get('kind')!r}") from None
        scale = None
        raw = data.get("scale")
        if raw is not None:
            if not isinstance(raw, Mapping) or set(raw) != {"name", "total", "thresholds"}:
                raise EventError("an event's scale is {name, total, thresholds}")
            try:
                scale = DiscreteScale(str(raw["name"]), raw["total"], raw["total"] // 2 if isinstance(
                    raw["total"], int) else 0, tuple(raw["thresholds"]) if isinstance(raw["thresholds"], list) else ())
            except (ScaleError, TypeError) as exc:
                raise EventError(f"an event's scale: {exc}") from None
        bye = data.get("bye_vp", str(BYE_VP))
        try:
            bye_vp = Fraction(bye) if isinstance(bye, str) and len(bye) <= 12 else None
        except (ValueError, ZeroDivisionError):
            bye_vp = None
        if bye_vp is None:
            raise EventError(f"a bye's VPs are a number written as text, got {bye!r}")
        raw_sections = data.get("sections", [])
        if not isinstance(raw_sections, list) or not all(
                isinstance(x, Mapping) and {"name", "tables", "movement"} <= set(x)
                <= {"name", "tables", "movement", "arrow_switch", "asc"}
                and isinstance(x.get("arrow_switch", []), list) and isinstance(x.get("asc", ""), str)
                for x in raw_sections):
            raise EventError("an event's sections are a list of {name, tables, movement[, arrow_switch][, asc]}")
        sections = tuple(SectionSpec(x["name"], x["tables"], x["movement"], tuple(x.get("arrow_switch", [])),
                                     x.get("asc", "")) for x in raw_sections)
        across = data.get("across", False)
        if not isinstance(across, bool):
            raise EventError(f"an event's across is true or false, got {across!r}")
        return cls(kind, data.get("entrants"), data.get("rounds"), data.get("boards_per_round"),  # type: ignore[arg-type]
                   scale, bye_vp, data.get("name", "Event"), sections, across,
                   data.get("individual", "balanced"))


def pair_id(pair: Pair) -> str:
    """A section's pair as the names file, PBN and the outsider write it: ``3NS``, ``3EW``, or ``5`` for a
    Howell pair."""
    return f"{pair.number}{pair.direction.value if pair.direction is not None else ''}"


def section_pairs(spec: EventSpec) -> tuple[tuple[str, Pair], ...]:
    """Every pair of an event of sections as ``(section, pair)``, section after section, each section's
    pairs in its movement's order (North-South before East-West, then by number). A pair's place in this
    list, from 1, is its competitor number in the event's ``names`` (empty for other events)."""
    return tuple((name, p) for name, m in spec.movements().items() for p in m.pairs())


def section_numbers(spec: EventSpec) -> dict[tuple[str, Pair], int]:
    """Each section's pair's competitor number (:func:`section_pairs`), by ``(section, pair)`` (made once a
    spec, a fresh copy each call)."""
    made = spec.__dict__.get("_numbers")
    if made is None:
        made = {key: k for k, key in enumerate(section_pairs(spec), 1)}
        object.__setattr__(spec, "_numbers", made)
    return dict(made)


def tables_of(spec: EventSpec, round_number: int,
              matches: tuple[tuple[Competitor, Competitor], ...]) -> tuple[Seat4, ...]:
    """The tables of a round from its draw (see the module's docstring)."""
    if spec.kind is EventKind.SECTIONS:
        out4, offset = [], 0
        for sec in spec.sections:
            movement = section_movement(sec, spec.boards_per_round)
            for t in range(1, sec.tables + 1):
                seat = movement.at(round_number, t)
                if seat is not None and seat.ns is not None and seat.ew is not None:
                    out4.append(Seat4(offset + t, seat.ns, seat.ns, seat.ew, seat.ew,
                                      section=sec.name, boards=movement.boards_of(seat.group),
                                      pairs=(seat.ns.label, seat.ew.label)))
            offset += sec.tables
        return tuple(out4)
    if spec.kind is EventKind.INDIVIDUAL:
        schedule = spec.individual_schedule()
        players = spec.competitors()
        return tuple(Seat4(t.table, players[t.north - 1], players[t.south - 1], players[t.east - 1],
                           players[t.west - 1])
                     for t in schedule.tables if t.round == round_number)
    out = []
    for m, (a, b) in enumerate(matches, 1):
        if spec.kind.teams:
            out.append(Seat4(2 * m - 1, a, a, b, b, m, "open"))
            out.append(Seat4(2 * m, b, b, a, a, m, "closed"))
        else:
            out.append(Seat4(m, a, a, b, b, m))
    return tuple(out)
