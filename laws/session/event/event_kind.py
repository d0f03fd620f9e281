"""An event as a kind of session (``laws.session.kind``): the journalled service
(``firmware_host/session/journalled.py``) runs it as it runs a duplicate pairs session.

* **Setup** (:class:`EventSetup`, the journal's opening row): the event's spec
  (``laws.competition.event_spec.EventSpec``) and the club's tables, club table ``k`` of the list being
  event table ``k``; ``to_dict`` is the spec's dict with ``tables`` added, and, when the club gave its
  hand records, ``boards`` (``[{number, deal}]``, every board given: those the event plays and any more of
  the club's file), their ``commitment`` (to the boards the event plays, as a pairs session's) and, when
  the file gives more, ``file_commitment`` (to every board given).
* **A record** is ``{"type": "result", "source": "<table>:<seq>", "result": {round, table, board,
  contract, declarer, tricks}}`` (``TableResult.to_dict``), with ``"foul": {card, played_by, record_seat,
  trick, seats}`` beside ``result`` when the table called the board fouled (the board is then held for
  the director: ``laws.competition.fouled``); the director's records are
  ``{"type": "names", "competitor": N, "name": "", "players": [{name, member, federation}, ...]}`` (who a
  team, pair or player is: :func:`names_problem`; the latest for a competitor stands; an event of
  sections adds ``"section": "A", "pair": "3NS"``, the pair the number stands for; an individual's side
  named by its two member cards is one record ``{"type": "names", "each": [two such], ...}``,
  :func:`each_problem`) and
  ``{"type": "correct", "by": "<login>", "why": "...", "result": {...}}`` (a corrected result, an
  assigned score or an adjusted one, ``EventState.correct``).
* **Its check** (:meth:`EventSessionState.check`): ``repeat`` for a source taken already, or for the same
  result of the same table and board under a new number; otherwise the event's own reason
  (``EventState.check``), or "" to take it. Taking a round's last result makes the next round's draw
  (``EventState.apply``); :attr:`EventSessionState.drawn` says which round was drawn last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laws.competition.event import EventState
from laws.competition.event_spec import EventError, EventKind, EventSpec, pair_id, section_pairs
from laws.competition.fouled import FoulCall
from laws.competition.table_result import TableResult
from laws.duplicate.deal import Board, Deal, commitment, file_part
from laws.duplicate.movement import records_problem
from laws.errors import as_typed
from laws.session.kind import REPEAT
from laws.session.players import name_problem, player_problem

TABLE_ID_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")
RESERVED = ("dashboard", "session")


def tables_needed(spec: EventSpec) -> int:
    """How many club tables a round of the event uses at most."""
    if spec.kind is EventKind.SECTIONS:
        return sum(sec.tables for sec in spec.sections)
    if spec.kind is EventKind.INDIVIDUAL:
        return spec.entrants // 4
    matches = spec.entrants // 2
    return 2 * matches if spec.kind.teams else matches


def check_tables(spec: EventSpec, tables: Sequence[object]) -> tuple[str, ...]:
    """The club's tables for the event, checked: ids as the wire allows, none twice, enough of them."""
    out = []
    for t in tables:
        if not isinstance(t, str) or not 1 <= len(t) <= 64 or not set(t) <= TABLE_ID_CHARS or t in RESERVED:
            raise EventError(f"a club table id is 1 to 64 letters, digits, '-' or '_', got {t!r}")
        out.append(t)
    if len(set(out)) != len(out):
        raise EventError("a club table is given twice")
    if len(out) < tables_needed(spec):
        raise EventError(f"the event needs {tables_needed(spec)} club tables a round, got {len(out)}")
    return tuple(out)


RECORDS_AT_MOST = 500   # boards: the index alone (about 72 bytes each) is 36 KB; `event open` measures the whole message


def check_boards(spec: EventSpec, boards: Sequence[Board]) -> tuple[Board, ...]:
    """The event's hand records, checked: none given twice, and every board the event plays (1 to rounds x
    boards a round: every kind plays those, a section its groups of them) among them. Boards beyond those
    may be there (the club's file of the night): the event commits to the boards it plays, and the file's
    commitment covers every board given (a table may pin either)."""
    out = tuple(boards)
    if not out:
        return out
    if not all(isinstance(b, Board) for b in out):
        raise EventError("the event's hand records are boards")
    if len(out) > RECORDS_AT_MOST:
        raise EventError(f"the hand records give {len(out)} boards; an event sends at most {RECORDS_AT_MOST} (each "
                         "table's seating carries every board's hash, and a message is at most 64 KiB)")
    problem = records_problem((b.number for b in out), range(1, spec.rounds * spec.boards_per_round + 1),
                              "the event")
    if problem:
        raise EventError(problem)
    return tuple(sorted(out, key=lambda b: b.number))


SETUP_FIELDS = ("tables", "boards", "commitment", "file_commitment")   # the setup's own fields beside the spec's


@dataclass(frozen=True)
class EventSetup:
    """The event, the club's tables and, when the club gave them, its hand records (see the module's
    docstring): the boards are sent to each table with its round (``hand_records``), and the event's
    files give each board's deal."""

    spec: EventSpec
    tables: tuple[str, ...]
    boards: tuple[Board, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tables", check_tables(self.spec, self.tables))
        object.__setattr__(self, "boards", check_boards(self.spec, self.boards))

    @property
    def played(self) -> tuple[Board, ...]:
        """The boards the event plays (1 to rounds x boards a round) of those given."""
        last = self.spec.rounds * self.spec.boards_per_round
        return tuple(b for b in self.boards if b.number <= last)

    @property
    def commitment(self) -> str:
        """The event's commitment, as a pairs session's: to the boards it plays
        (``laws.duplicate.deal.commitment``), "" without hand records."""
        return commitment(self.played) if self.boards else ""

    @property
    def file(self) -> dict[str, Any] | None:
        """The whole file's commitment and the index entries of the boards the event does not play
        (``laws.duplicate.deal.file_part``), when the club's file gives more boards; a table may pin
        either commitment."""
        return file_part(self.played, self.boards) if self.boards else None

    def to_dict(self) -> dict[str, Any]:
        out = {**self.spec.to_dict(), "tables": list(self.tables)}
        if self.boards:
            out["boards"] = [{"number": b.number, "deal": b.deal.pbn()} for b in self.boards]
            out["commitment"] = self.commitment
            if self.file:
                out["file_commitment"] = self.file["commitment"]
        return out

    @classmethod
    def from_dict(cls, d: Any) -> EventSetup:
        if not isinstance(d, Mapping):
            raise EventError(f"an event's setup is an object, got {type(d).__name__}")
        try:
            boards = tuple(Board.numbered(int(b["number"]), Deal.from_pbn(b["deal"])) for b in d.get("boards") or ())
        except (KeyError, TypeError, ValueError) as exc:
            raise EventError(f"the event's hand records cannot be read ({exc})") from None
        setup = cls(EventSpec.from_dict({k: v for k, v in d.items() if k not in SETUP_FIELDS}),
                    tuple(d.get("tables") or ()), boards)
        # an event opened before the session's and the file's commitments were told apart kept the file's
        whole = setup.file["commitment"] if setup.file else setup.commitment
        if "commitment" in d and d["commitment"] not in (setup.commitment, whole):
            raise EventError("the event's hand records are not those its commitment was made to")
        if "file_commitment" in d and d["file_commitment"] != whole:
            raise EventError("the event's hand records are not those its file commitment was made to")
        return setup


def players_at_most(kind: EventKind) -> int:
    """How many players a competitor of ``kind`` may be named with: a team 6 (four and two
    substitutes), a pair 2, an individual's player 1."""
    return 6 if kind.teams else 1 if kind is EventKind.INDIVIDUAL else 2


def _ranges(ids: list[str]) -> str:
    """A section's pair ids as runs: ``1NS-5NS, 1EW-5EW`` or ``1-6``."""
    runs: list[list[str]] = []
    for x in ids:
        if runs and x.lstrip("0123456789") == runs[-1][0].lstrip("0123456789"):
            runs[-1].append(x)
        else:
            runs.append([x])
    return ", ".join(r[0] if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def _quoted(value: object) -> str:
    """A section or pair as typed, in quotes (``'C'``), or ``nothing``."""
    shown = as_typed(value)
    return shown if value is None or value == "" else f"'{shown}'"


def section_problem(spec: EventSpec, rec: Mapping[str, Any]) -> str:
    """What is wrong with the ``section`` and ``pair`` of a ``names`` record of an event of sections
    ("" when nothing): the section is one of the event's, the pair (``3NS``, ``3EW``, or ``5`` for a
    Howell pair) one of its pairs, and ``competitor`` that pair's number
    (``laws.competition.event_spec.section_pairs``)."""
    section, pair, who = rec.get("section"), rec.get("pair"), rec.get("competitor")
    names = [sec.name for sec in spec.sections]
    if section not in names:
        return f"there is no section {_quoted(section)} (the sections are {', '.join(names)})"
    ids = [pair_id(p) for s, p in section_pairs(spec) if s == section]
    if pair not in ids:
        return f"section {section} has no pair {_quoted(pair)} (its pairs are {_ranges(ids)})"
    want = 1 + [f"{s} {pair_id(p)}" for s, p in section_pairs(spec)].index(f"{section} {pair}")
    if who != want:
        return f"pair {section} {pair} is competitor {want}, got {as_typed(who)}"
    return ""


def competitor_label(spec: EventSpec, competitor: int) -> str:
    """A competitor as a message names it: ``competitor 3``, or ``pair A 3NS`` in an event of sections."""
    if spec.kind is EventKind.SECTIONS and 1 <= competitor <= spec.entrants:
        section, pair = section_pairs(spec)[competitor - 1]
        return f"pair {section} {pair_id(pair)}"
    return f"competitor {competitor}"


def names_problem(spec: EventSpec, names: Mapping[int, Mapping[str, Any]], rec: Mapping[str, Any]) -> str:
    """What is wrong with a ``names`` record ("" when nothing): ``competitor`` a team, pair or player of
    the event (in an event of sections also ``section`` and ``pair``, :func:`section_problem`), ``name``
    a team's name ("" or a name; only teams have one), ``players`` at most :func:`players_at_most`
    players, no member twice nor named already for another competitor."""
    who, name, players = rec.get("competitor"), rec.get("name", ""), rec.get("players")
    if spec.kind is EventKind.SECTIONS:
        problem = section_problem(spec, rec)
        if problem:
            return problem
    if isinstance(who, bool) or not isinstance(who, int) or not 1 <= who <= spec.entrants:
        return f"competitor is a number from 1 to {spec.entrants}, got {as_typed(who)}"
    label = competitor_label(spec, who)
    if name != "" and (not spec.kind.teams or name_problem(name)):
        return (f"{label}: only a team has a name" if not spec.kind.teams
                else f"team {who}: {name_problem(name).replace('player', 'team')}")
    most = players_at_most(spec.kind)
    if not isinstance(players, list) or len(players) > most:
        return f"{label}: players is a list of at most {most}, got {as_typed(players, 60)}"
    for p in players:
        problem = player_problem(p)
        if problem:
            return f"{label}: {problem}"
    numbers = [p["member"] for p in players if p.get("member")]
    if len(set(numbers)) != len(numbers):
        return f"{label}: a member is named twice"
    for other, named in names.items():
        for p in named.get("players", ()) if other != who else ():
            if p.get("member") and p["member"] in numbers:
                plays = competitor_label(spec, other).removeprefix("competitor ").removeprefix("pair ")
                return f"{label}: member {p['member']} ({p['name']}) already plays for {plays}"
    return ""


def each_problem(spec: EventSpec, names: Mapping[int, Mapping[str, Any]], rec: Mapping[str, Any]) -> str:
    """What is wrong with a ``names`` record that names an individual's two players at once (``each``: a
    side's two member cards, North's or East's first): only an individual's, two different players, each
    as :func:`names_problem` would check it alone, the second with the first already named."""
    each = rec.get("each")
    if spec.kind is not EventKind.INDIVIDUAL:
        return "only an individual's players are named two at once (each)"
    if not isinstance(each, list) or len(each) != 2 or not all(isinstance(x, Mapping) for x in each):
        return f"each is a list of two players' names, got {as_typed(each, 60)}"
    if each[0].get("competitor") == each[1].get("competitor"):
        return f"each names player {as_typed(each[0].get('competitor'))} twice"
    so_far = dict(names)
    for one in each:
        problem = names_problem(spec, so_far, one)
        if problem:
            return problem
        so_far[one["competitor"]] = one
    return ""


def _missing(result: Mapping[str, Any]) -> str:
    """What a director's correction lacks ("" when nothing) once ``TableResult.from_dict`` has read it
    (which refuses a result without a contract, an assigned or an adjusted score, and a played contract
    without its declarer): a contract played (not ``Pass``) gives its tricks. A table's result always
    has them; read without them, a correction would score a blank as 0 tricks."""
    if "assigned" in result or "adjusted" in result or result.get("contract") == "Pass":
        return ""
    if "tricks" not in result:
        return "a corrected contract needs its tricks (how many declarer took, 0 to 13)"
    return ""


class EventSessionState:
    """The event's state as a kind of session's: the event and the sources taken."""

    def __init__(self, setup: EventSetup) -> None:
        self.setup = setup
        self.event = EventState.opened(setup.spec)
        self.sources: set[str] = set()
        self.drawn = 1

    def _result(self, rec: Mapping[str, Any]) -> TableResult:
        if rec.get("type") != "result" or not isinstance(rec.get("source"), str):
            raise EventError(f"an event takes result records, got {str(rec.get('type'))[:40]!r}")
        return TableResult.from_dict(rec.get("result"))  # type: ignore[arg-type]

    def check(self, rec: Mapping[str, Any]) -> str:
        if rec.get("type") == "names":
            if rec.get("source") is not None and rec["source"] in self.sources:
                return REPEAT                    # a table's member cards sent again
            if "each" in rec:
                return each_problem(self.setup.spec, self.event.names, rec)
            return names_problem(self.setup.spec, self.event.names, rec)
        if rec.get("type") == "correct":
            return self._correct_problem(rec)
        try:
            result = self._result(rec)
        except EventError as exc:
            return str(exc)
        if rec["source"] in self.sources or self.event.results.get(
                (result.round, result.table, result.board)) == result:
            return REPEAT
        if rec.get("foul") is not None:
            try:
                FoulCall.from_dict(rec["foul"])
            except ValueError as exc:
                return f"round {result.round}, table {result.table}, board {result.board}: {exc}"
        return self.event.check(result) or ""

    def _correct_problem(self, rec: Mapping[str, Any]) -> str:
        why, by = rec.get("why"), rec.get("by")
        if not isinstance(why, str) or not why.strip() or len(why) > 200:
            return "a correction says why (1 to 200 characters)"
        if not isinstance(by, str) or not by:
            return "a correction names the director who made it"
        try:
            result = TableResult.from_dict(rec.get("result"))  # type: ignore[arg-type]
        except EventError as exc:
            return str(exc)
        missing = _missing(rec["result"])
        if missing:
            return f"round {result.round}, table {result.table}, board {result.board}: {missing}"
        ev = self.event
        key = (result.round, result.table, result.board)
        if key in ev.results:
            if ev.results[key] == result and not ev.is_held(key):    # a held result may be kept as played
                return f"round {result.round}, table {result.table}: board {result.board} has that result already"
            return ev.award_problem(result) or ev.knockout_problem(result) or ""
        return ev.check(result) or ""

    def apply(self, rec: Mapping[str, Any]) -> None:
        if rec.get("type") == "names":
            for one in rec["each"] if "each" in rec else [rec]:
                self.event.names[int(one["competitor"])] = {"name": str(one.get("name", "")),
                                                            "players": [dict(p) for p in one["players"]]}
            if rec.get("source") is not None:     # a table's: its message taken once
                self.sources.add(str(rec["source"]))
            return
        if rec.get("type") == "correct":
            made = self.event.correct(TableResult.from_dict(rec["result"]))
            if made is not None:
                self.drawn = made.round
            return
        foul = None if rec.get("foul") is None else FoulCall.from_dict(rec["foul"])
        made = self.event.apply(self._result(rec), foul)
        self.sources.add(str(rec["source"]))
        if made is not None:
            self.drawn = made.round


class EventSessionKind:
    """The event as a ``laws.session.kind.Kind``."""

    name = "event"

    def setup_from_dict(self, d: Any) -> EventSetup:
        return EventSetup.from_dict(d)

    def start(self, setup: EventSetup) -> EventSessionState:
        return EventSessionState(setup)

    def replay(self, setup: EventSetup, records: Iterable[Mapping[str, Any]]) -> tuple[EventSessionState, list[str]]:
        state = EventSessionState(setup)
        skipped = []
        for rec in records:
            why = state.check(rec)
            if why == REPEAT:
                continue
            if why:
                skipped.append(why)
                continue
            state.apply(rec)
        return state, skipped


EVENT = EventSessionKind()
