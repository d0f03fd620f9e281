"""A whole duplicate evening without a club: ``cardtable duplicate demo``.

A local Mosquitto; the session (journal in ``OUT/session/``) on its own client (``session.broker_client``);
and one real duplicate table for each table of the movement (``table.DemoTable``: a ``TableController``
of the game ``duplicate-bridge`` built by ``live.build_table`` from its own configuration, journal in
``OUT/tables/<id>/``), with simulated people at it (``people.People``). The hand records the session
publishes are ``OUT/boards.pbn``; every table reads them, takes its seating from the session over the
broker, places each board, and sends each result its players confirm. Mitchell and Howell tables play
physical boards (one copy of each travels); a barometer's tables have their shoe deal each board from the
record (the virtual shoe), every table its own copy.

The demo plays the director too: once every table has finished a round it calls the next ("move for
round N"); at a table, the director answers the engine's call on a card against the record. At the end it
writes ``OUT/results.pbn``, ``OUT/results.xml`` (USEBIO) and ``OUT/results.html``.

``foul=K`` misboards K boards (``boards.choose_misboardings``): a travelling copy from a round after its
first on, or a barometer's table's own copy. Nobody tells the tables: their engines find each at its first
card against the record, the director rules it fouled, and the session scores the board by group from the
results the tables send. :class:`DemoResult` says where each was found (``fouls.fouls_in``) and what
``fouls.check_fouls`` makes of it.

The tables are one replaceable part: ``table_factory(place, link, password, room, rng)`` makes each (by
default a ``DemoTable`` with its ``People``); it needs ``start``, ``stop``, ``failure`` and ``people``.
"""

from __future__ import annotations

import functools
import logging
import random
import secrets
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.duplicate.handrecords.newdeals import MAX_BOARDS, new_boards
from firmware_host.duplicate.results.export import SUFFIX, write_export
from firmware_host.evening.boards import KINDS, BoardRoom, Misboarding, choose_misboardings
from firmware_host.evening.fouls import FoulFound, check_fouls, fouls_in
from firmware_host.evening.people import People
from firmware_host.evening.table import ClubLink, DemoTable, TablePlace
from firmware_host.records.journal import Journal
from firmware_host.session.broker_client import SessionService
from firmware_host.session.duplicate_session import Session, SessionDesk
from laws.duplicate.deal import Board
from laws.scoring import Method
from laws.session.duplicate.spec import SessionSetup, SetupError, build_movement, default_tables
from laws.session.duplicate.state import progress

log = logging.getLogger(__name__)

MOVEMENTS = ("mitchell", "howell", "barometer")
FILES = {"pbn": "results.pbn", "usebio": "results.xml", "html": "results.html"}
TableFactory = Callable[[TablePlace, ClubLink, str, BoardRoom, random.Random], Any]


def demo_movement(kind: str, tables: int, boards: int) -> dict[str, Any]:
    """The spec of the demo's movement: ``boards`` shared equally among the movement's board groups.

    Raises:
        SetupError: an unknown movement, or boards that do not divide among its groups.
    """
    if kind not in MOVEMENTS:
        raise SetupError(f"the movement is one of {', '.join(MOVEMENTS)}, not {kind!r}")
    if isinstance(tables, bool) or not isinstance(tables, int) or tables < 1:
        raise SetupError(f"the number of tables is a whole number from 1, not {tables!r}")
    groups = 2 * tables - 1 if kind == "howell" else tables
    if isinstance(boards, int) and not isinstance(boards, bool) and boards > MAX_BOARDS:
        raise SetupError(f"--boards {boards}: a set of boards is at most {MAX_BOARDS}")
    if isinstance(boards, bool) or not isinstance(boards, int) or boards < groups or boards % groups:
        raise SetupError(f"{boards} boards do not share equally among the {groups} board groups of the {kind} for "
                         f"{tables} tables: give a multiple of {groups}")
    spec = {"kind": kind, "tables": tables, "boards_per_round": boards // groups}
    build_movement(spec)  # refuses a movement the builders cannot make (a 2-table Howell)
    return spec


@dataclass
class DemoResult:
    """What a demo did."""

    out: Path
    files: dict[str, Path]
    results: int
    refused: int
    misboardings: list[Misboarding]
    found: list[FoulFound]
    problems: list[str]
    seconds: float
    seed: int
    inputs: int = 0
    phases: dict[str, float] = field(default_factory=dict)    # seconds of each part of the run, in order


def real_table(place: TablePlace, link: ClubLink, password: str, room: BoardRoom, rng: random.Random) -> DemoTable:
    """The default table: a real duplicate table with people holding the room's copies."""
    people = People(lambda board, rnd: room.held(board, place.number, rnd), rng)
    return DemoTable(place, link, password, people, shoe_seed=rng.randrange(2**31))


def _stop_all(tables: list[Any]) -> None:
    """Stop every table, each in a thread of its own (a table's publisher and panel take a moment), all of
    them even when one fails to."""
    def stop(t: Any) -> None:
        try:
            t.stop()
        except Exception as exc:           # noqa: BLE001 - the others are still stopped
            log.warning("%s did not stop cleanly: %s", getattr(t, "tid", "a demo table"), exc)
            log.debug("the table's stop", exc_info=True)

    threads = [threading.Thread(target=stop, args=(t,), name="demo-stop", daemon=True) for t in tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)


class DuplicateDemo:
    """One simulated session (see the module docstring).

    Args:
        out: the folder for the session's and the tables' journals, the hand records and the result files.
        tables, boards, movement: the session's size and movement.
        foul: how many boards to misboard.
        seed: the simulation's choices, and the deals (None: deals from the system's randomness and a
            random seed for the choices, printed so a run can be repeated).
        method: how it is scored.
        table_factory: makes each table (default: ``real_table``).
        analyse: double-dummy analysis of the boards for the exports.
        records: hand records to play (a federation's, ``cardtable club records``) instead of new deals:
            one for each of the movement's boards.
        extra_users: more broker logins (name -> password), e.g. the broadcast's and a spectator's.
        spectators: the broker logins with a spectator's rights (``docs/broadcast.md``).
        on_broker: called once the broker and the session are up, before any table starts, with the
            broker and every login's password; what it returns is called before the broker stops (the
            broadcast's tests and benchmark run their service and listeners so).
    """

    def __init__(self, out: str | Path, tables: int, boards: int, movement: str = "mitchell", *, foul: int = 0,
                 seed: int | None = None, method: Method = Method.MATCHPOINTS,
                 table_factory: TableFactory | None = None, analyse: bool = True,
                 records: Sequence[Board] | None = None,
                 extra_users: dict[str, str] | None = None, spectators: tuple[str, ...] = ("spectator",),
                 on_broker: Callable[[LocalBroker, dict[str, str]], Callable[[], None]] | None = None) -> None:
        self.out = Path(out).resolve()  # the tables' configurations name files in it from their own folders
        self.spec = demo_movement(movement, tables, boards)
        self.movement = build_movement(self.spec)
        if isinstance(foul, bool) or not isinstance(foul, int) or not 0 <= foul <= len(self.movement.boards()):
            raise SetupError(f"--foul is a number of boards, 0 to {len(self.movement.boards())}, not {foul!r}")
        self.foul = foul
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.seeded_deals = seed is not None
        self.method = method
        self.table_factory = table_factory or real_table
        self.analyse = analyse
        self.extra_users = dict(extra_users or {})
        self.spectators = spectators
        self.on_broker = on_broker
        self.rng = random.Random(self.seed)
        self.deal = "shoe" if self.movement.copies > 1 else "boards"
        self.records = None if records is None else tuple(sorted(records, key=lambda b: b.number))
        if self.records is not None and [b.number for b in self.records] != list(self.movement.boards()):
            raise SetupError(f"the hand records hold boards {[b.number for b in self.records]}, the movement plays "
                             f"{list(self.movement.boards())}")
        self.check_out()

    def check_out(self) -> None:
        """Refuse a folder that holds what a demo writes (an earlier demo's session, tables, hand records
        or results): nothing there is replaced, and no table carries on from an earlier journal.

        Raises:
            SetupError: naming what is there.
        """
        if self.out.exists() and not self.out.is_dir():
            raise SetupError(f"{self.out} is a file; --out names a folder")
        for name in ("session", "tables", "boards.pbn", *FILES.values()):
            path = self.out / name
            if path.exists() and (not path.is_dir() or any(path.iterdir())):
                raise SetupError(f"{path} is already there (an earlier demo's?): choose another --out folder; "
                                 "nothing was changed")

    def setup(self) -> SessionSetup:
        count = len(self.movement.boards())
        if self.records is not None:
            boards = list(self.records)
        else:
            boards = new_boards(count, shuffle=self.rng.shuffle) if self.seeded_deals else new_boards(count)
        names = {str(p): (f"Player {p.number}{p.direction or ''} A", f"Player {p.number}{p.direction or ''} B")
                 for p in self.movement.pairs()}
        return SessionSetup("cardtable demo", "2025-11-30", "cardtable demo club", self.spec, self.movement.contestants,
                            tuple(boards), self.method, "A", default_tables(self.movement.tables), names,
                            secrets.token_hex(16))

    def run(self, timeout: float = 900.0) -> DemoResult:
        """Play the session and write the result files (see the module docstring).

        Raises:
            RuntimeError: a table stopped (its words), or the broker or session could not start.
            TimeoutError: the session did not finish within ``timeout`` seconds.
            ValueError: ``foul`` more than the boards that are played out.
        """
        t0 = time.monotonic()
        phases: dict[str, float] = {}
        self.check_out()
        setup = self.setup()
        room = BoardRoom({b.number: b for b in setup.boards}, per_table=self.movement.copies > 1)
        misboardings = choose_misboardings(room, self.movement, self.foul, self.rng,
                                           kinds=("swapped",) if self.deal == "shoe" else KINDS)
        self.out.mkdir(parents=True, exist_ok=True)
        records = self.out / "boards.pbn"
        write_hand_records(records, setup.boards, event=setup.name, date=setup.date)
        session = Session.create(self.out / "session", setup, analyse=self.analyse)
        try:
            desk = SessionDesk(session)
            tables = self._play(desk, room, records, timeout, phases, t0)
            files = {}
            for fmt, name in FILES.items():
                assert SUFFIX[fmt] == Path(name).suffix
                write_export(session, fmt, self.out / name)
                files[fmt] = self.out / name
            found = self._found(tables)
            problems = check_fouls({n: b.deal for n, b in room.records.items()}, self._plays(tables), found)
            phases["results written and checked"] = time.monotonic() - t0 - sum(phases.values())
            return DemoResult(self.out, files, desk.taken, desk.refused, misboardings, found, problems,
                              time.monotonic() - t0, self.seed, sum(getattr(t, "inputs", 0) for t in tables), phases)
        finally:
            session.close()

    def _play(self, desk: SessionDesk, room: BoardRoom, records: Path, timeout: float, phases: dict[str, float],
              t0: float) -> list[Any]:
        """The broker, the session on it, the tables: the evening played; every table stopped, whatever
        happens. Returns the tables."""
        setup = desk.session.state.setup
        tables: list[Any] = []
        with tempfile.TemporaryDirectory(prefix="cardtable-duplicate-demo-") as tmp:
            passwords = {tid: secrets.token_urlsafe(12) for tid in setup.tables}
            passwords[DASHBOARD_USER] = secrets.token_urlsafe(12)
            passwords.update(self.extra_users)
            broker = LocalBroker(Path(tmp) / "broker", passwords, spectators=self.spectators)
            broker.start()
            service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER])
            link = ClubLink("127.0.0.1", broker.port, Path(tmp))
            after: Callable[[], None] | None = None
            try:
                service.start()
                if not service.connected.wait(20):
                    raise RuntimeError("the session could not connect to the local broker")
                if self.on_broker is not None:
                    after = self.on_broker(broker, dict(passwords))
                for i, (tid, number) in enumerate(setup.tables.items()):
                    place = TablePlace(tid, number, self.out / "tables" / tid, records, self.deal)
                    t = self.table_factory(place, link, passwords[tid], room, random.Random(self.seed * 1000 + i))
                    tables.append(t)
                    t.start()
                phases["setup and tables started"] = time.monotonic() - t0
                self._direct(desk, tables, time.monotonic() + timeout)
                phases["played"] = time.monotonic() - t0 - sum(phases.values())
            finally:
                _stop_all(tables)
                service.stop()
                if after is not None:
                    after()
                broker.stop()
        phases["tables stopped"] = time.monotonic() - t0 - sum(phases.values())
        return tables

    def _found(self, tables: list[Any]) -> list[FoulFound]:
        out: list[FoulFound] = []
        for t in tables:
            place = getattr(t, "place", None)
            path = place.folder if place is not None else None
            if path is None or not (path / "journal.sqlite3").exists():
                continue
            with Journal.open_readonly(path) as j:
                out += fouls_in(r.body for r in j.rows() if r.kind == "ruling")
        return sorted(out, key=lambda f: (f.board, f.round, f.table))

    @staticmethod
    def _plays(tables: list[Any]) -> dict[tuple[int, int, int], Any]:
        return {(h.number, t.place.number, h.round or 1): h.plan.plays for t in tables for h in t.people.boards}

    def _direct(self, desk: SessionDesk, tables: list[Any], deadline: float) -> None:
        """Play the director: call each round once every table has finished the one before."""
        st = desk.session.state
        for r in range(1, st.movement.rounds + 1):
            if r > 1:
                outcome = desk.director({"type": "round", "round": r, "by": "demo"})
                if not outcome.taken:
                    raise RuntimeError(f"calling round {r}: {outcome.why}")
            self._wait(desk, tables, deadline, functools.partial(self._round_done, desk, r))
        due = sum(st.due().values())
        self._wait(desk, tables, deadline, lambda: len(st.entries) >= due)

    @staticmethod
    def _round_done(desk: SessionDesk, r: int) -> bool:
        with desk.lock:
            p = progress(desk.session.state)
        return all(t["round"] >= r and not t["left"] for t in p.tables)

    @staticmethod
    def _wait(desk: SessionDesk, tables: list[Any], deadline: float, done: Callable[[], bool]) -> None:
        while not done():
            failed = [t.failure for t in tables if getattr(t, "failure", None)]
            if failed:
                raise RuntimeError("a table stopped: " + "; ".join(failed))
            if time.monotonic() > deadline:
                with desk.lock:
                    p = progress(desk.session.state)
                late = [f"table {t['table']} round {t['round']} left {t['left']}" for t in p.tables if t["left"]]
                raise TimeoutError("the demo did not finish in time: " + "; ".join(late[:5]))
            time.sleep(0.05)
