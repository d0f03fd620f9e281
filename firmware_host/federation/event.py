"""The event's folder: its setup, its journal and the state rebuilt from it (``docs/federation.md``).

The event lives in a folder: ``federation.sqlite3``, a hash-chained journal (``records/journal.py``)
whose first row is the event's setup (``opened``: its name, boards, the clubs taking part, the scoring
method, the hand records' commitment, each club's results due per board when the organiser gave them), whose every later ``event`` row is one message taken (``{"type":
"message", "club", "number", "message"}``), and whose ``closed`` row ends the event. :func:`open_event`
rebuilds the ledger and the field from the journal alone; :func:`hold_event` marks the event as served
(one service an event).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.federation.topics import EventTopics
from firmware_host.records.journal import Journal, JournalError
from laws.federation.field import ClubEntry, Field, FieldError
from laws.federation.ledger import Ledger, Verdict
from laws.federation.messages import digest, entry_fields, field_key, line_from_dict
from laws.federation.release import club_may_see
from laws.scoring.session_values import Method, Pair

log = logging.getLogger(__name__)
JOURNAL = "federation.sqlite3"


class FederationError(RuntimeError):
    """An event folder that cannot be opened or made; the message says why."""


@dataclass
class EventSetup:
    """The event: its name, boards, clubs, method, the hand records' commitment, and each club's results
    due per board as the organiser set them (``federation open --due``; empty: each club's entry says)."""

    event: str
    boards: tuple[int, ...]
    clubs: tuple[str, ...]
    method: Method = Method.MATCHPOINTS
    commitment: str = ""
    due: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = {"event": self.event, "boards": list(self.boards), "clubs": list(self.clubs),
               "method": self.method.value, "commitment": self.commitment}
        if self.due:
            out["due"] = {c: self.due[c] for c in sorted(self.due)}
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> EventSetup:
        return cls(str(d["event"]), tuple(int(b) for b in d["boards"]), tuple(str(c) for c in d["clubs"]),
                   Method(d.get("method", "matchpoints")), str(d.get("commitment", "")),
                   {str(c): int(n) for c, n in d.get("due", {}).items()})


def create_event(folder: str | Path, setup: EventSetup, clock: Callable[[], float] = time.time) -> Path:
    """Make the event's folder and journal (refused if one is there)."""
    root = Path(folder)
    path = root / JOURNAL
    if path.exists():
        raise FederationError(f"{path}: an event is there already")
    EventTopics(setup.event)
    for club in setup.clubs:
        EventTopics(setup.event).club(club)
    root.mkdir(parents=True, exist_ok=True)
    tmp = root / (JOURNAL + ".new")
    tmp.unlink(missing_ok=True)
    with Journal.open(tmp) as journal:
        journal.append("event", {"type": "opened", "setup": setup.to_dict()}, clock())
    tmp.replace(path)
    return path


@dataclass
class EventState:
    """The ledger and the field, and each club's boards finished (rebuilt from the journal)."""

    setup: EventSetup
    ledger: Ledger
    entries: dict[str, ClubEntry] = field(default_factory=dict)
    pending: dict[str, list[tuple[int, Any]]] = field(default_factory=dict)
    scores: Field | None = None
    results: dict[str, dict[int, int]] = field(default_factory=dict)   # club -> board -> lines in
    closed: bool = False
    left_out: list[str] = field(default_factory=list)   # journaled lines the field cannot take, in words

    @classmethod
    def start(cls, setup: EventSetup) -> EventState:
        return cls(setup, Ledger(frozenset(setup.clubs)))

    def problem(self, club: str, message: Mapping[str, Any]) -> str:
        """What is wrong with a message that is next in line ("" when it can be taken), its form already
        checked (``message_problem``: its keys and the types of its values): an entry again, or whose ``due``
        is not the organiser's; a line before the entry, of a board or pair not the event's or the club's,
        or that would change the club's results of a board it may already see (they are final:
        ``docs/federation.md``)."""
        op = message["op"]
        if op == "entry":
            if club in self.entries:
                return "the club's entry was taken already"
            due = message["due"]
            fixed = self.setup.due.get(club)
            if fixed is not None and due != fixed:
                return f"the entry says {due} results due per board; the event was opened with {fixed} for the club"
            return _entry_problem(message, self.setup.boards)
        if club not in self.entries:
            return "the club's entry (message 1) must come first"
        line = line_from_dict(message["line"])      # read by the form check already: it reads
        assert self.scores is not None             # made by the club's entry
        # the board and pairs the club's, and for a line the scoring's refusals too: a line taken scores
        problem = self.scores.problem(club, line, seating=op == "line")
        if problem:
            return problem
        if self.may_see(club, line.board):
            # the club may have seen the field's results of the board: its own are final (a line as it
            # stands already changes nothing, and is taken)
            stands = self.scores.lines.get(club, {}).get((line.board, line.ns, line.ew)) if self.scores else None
            if op == "remove" or stands != line:
                if self.closed:
                    return f"board {line.board}: the event is closed and every club may see every board: " \
                           "the club's results are final"
                return f"board {line.board}: the club has finished it and may see the field's results of it: " \
                       "its results of the board are final"
        return ""

    def may_see(self, club: str, board: int) -> bool:
        """Whether the release rule lets ``club`` see ``board``'s field now (it has finished it, or the
        event is closed): what is published on its ``in/board/<n>`` (``laws.federation.release``)."""
        entry = self.entries.get(club)
        done = entry is not None and self.results.get(club, {}).get(board, 0) >= entry.due
        return club_may_see(club, board, {club: frozenset((board,) if done else ())}, self.closed)

    def apply(self, club: str, message: Mapping[str, Any]) -> None:
        if message.get("op") == "entry":
            self.entries[club] = ClubEntry(club, entry_fields(message), int(message["due"]),
                                           frozenset(int(b) for b in message.get("boards", [])))
            self.scores = Field(self.setup.boards, dict(self.entries), self.setup.method,
                                self.scores.lines if self.scores else {},
                                due_total=sum(self.setup.due.values()) if self.setup.due else None)
            return
        assert self.scores is not None
        line = line_from_dict(message["line"])
        per = self.results.setdefault(club, {})
        key = (line.board, line.ns, line.ew)
        had = key in self.scores.lines.get(club, {})
        if message["op"] == "remove":
            self.scores.apply(club, None, remove=key)
            if had:
                per[line.board] = per.get(line.board, 1) - 1
        else:
            self.scores.apply(club, line)
            if not had:
                per[line.board] = per.get(line.board, 0) + 1

    def finished(self) -> dict[str, frozenset[int]]:
        """Each club's boards with as many results as it is due."""
        return {c: frozenset(b for b, n in self.results.get(c, {}).items() if n >= e.due)
                for c, e in self.entries.items()}


def _entry_problem(message: Mapping[str, Any], boards: tuple[int, ...]) -> str:
    """What in an entry, its form already checked, the field could not use: a pair listed twice (its
    results would be two pairs' in one), a field given for a pair the entry does not list (the pair's
    field would be lost), a board the event does not have or listed twice."""
    seen: set[tuple[int, Any]] = set()
    for number, direction in message["pairs"]:
        if (number, direction) in seen:
            return f"an entry's pairs: pair {Pair(number, direction).label} is listed twice"
        seen.add((number, direction))
    keys = {field_key(Pair(number, direction)) for number, direction in message["pairs"]}
    for key in message.get("fields") or {}:
        if key not in keys:
            return (f"an entry's fields: {key!r} is not one of the entry's pairs (a pair's key is its number "
                    "then its direction, as in '1NS', '3EW', '5')")
    listed: set[int] = set()
    for b in message.get("boards", []):
        if b not in boards:
            return f"an entry's boards: board {b} is not one of the event's boards"
        if b in listed:
            return f"an entry's boards: board {b} is listed twice"
        listed.add(b)
    return ""


def hold_event(folder: str | Path) -> Any:
    """Mark the event as served (an exclusive lock on ``serve.lock``, let go when the process ends, even
    killed); :class:`FederationError` when another process serves it. The file object to close."""
    import fcntl

    path = Path(folder) / "serve.lock"
    handle = path.open("a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise FederationError(f"{path}: the event is being served by another process (stop it first)") from None
    return handle


def _cause(exc: Exception, path: Path) -> str:
    """An error's words without the file's name, which the caller's message gives first."""
    words = str(exc) if not isinstance(exc, KeyError) else f"no {exc} in it"
    return words.removeprefix(f"{path}: ") or type(exc).__name__


def open_event(folder: str | Path) -> tuple[Journal, EventState]:
    """The event's journal (open for appending) and its state rebuilt from it."""
    path = Path(folder) / JOURNAL
    if not path.is_file():
        raise FederationError(f"{path}: no event there (`cardtable federation open` makes one)")
    try:
        journal = Journal.open(path, create=False)
    except JournalError as exc:     # another file under the journal's name: not an event's
        raise FederationError(f"{path}: not an event's journal ({_cause(exc, path)})") from None
    try:
        rows = [r for r in journal.rows() if r.kind == "event"]
        if not rows or rows[0].body.get("type") != "opened":
            raise FederationError(f"{path}: not an event's journal (its first row is not the event's setup)")
        state = EventState.start(EventSetup.from_dict(rows[0].body["setup"]))
    except FederationError:
        journal.close()
        raise
    except JournalError as exc:
        journal.close()
        raise FederationError(f"{path}: not an event's journal ({_cause(exc, path)})") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        journal.close()
        raise FederationError(f"{path}: not an event's journal (its first row is not the event's setup: "
                              f"{_cause(exc, path)})") from None
    for r in rows[1:]:
        if r.body.get("type") == "message":
            club, number, message = r.body["club"], r.body["number"], r.body["message"]
            if state.ledger.offer(club, number, digest(message)).verdict is Verdict.TAKEN:
                try:
                    state.apply(club, message)
                except FieldError as exc:
                    # taken before the field checked what scoring refuses (a pair on both sides of a
                    # line, on two lines of a board): kept in the ledger, so the club's numbers go on,
                    # but left out of the field, which could not score its board with it
                    words = str(exc).removeprefix(f"club {club}: ")
                    state.left_out.append(f"{path} row {r.seq}: club {club}'s message {number} is left out of "
                                          f"the field: {words}")
            else:
                log.error("%s row %s: message %s of club %s is not the next one; left out", path, r.seq, number, club)
        elif r.body.get("type") == "closed":
            state.closed = True
    return journal, state
