"""A whole duplicate evening without a club: ``cardtable duplicate demo``.

A local Mosquitto, a session (journal in ``OUT/session/``) on its own client (``duplicate_service``), and
simulated tables (``simduplicate``) that bid and play every board their seating gives them and publish
each result through a real journal, outbox and publisher. The demo plays the director: once every table
has finished a round it calls the next ("move for round N"). At the end it writes ``OUT/results.pbn``,
``OUT/results.xml`` (USEBIO) and ``OUT/results.html``.

``foul=K`` misboards K boards: a travelling board from some round after its first on (a barometer's:
one table's own copy), two cards swapped between two pockets. The tables catch each at its first wrong
card and the scoring splits the board into groups.

The tables are one replaceable part: ``table_factory(table_id, journal, publisher, room, rng)`` makes
each (by default a ``SimDuplicateTable``); the real duplicate table's controller can stand in.
"""

from __future__ import annotations

import logging
import random
import secrets
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.club.duplicate_service import SessionService
from firmware_host.club.publisher import MqttPublisher
from firmware_host.club.simduplicate import BoardRoom, Misboarding, SimDuplicateTable, TablePacer
from firmware_host.config import MqttConfig
from firmware_host.duplicate.desk import SessionDesk
from firmware_host.duplicate.newdeals import new_boards
from firmware_host.duplicate.results import SUFFIX, write_export
from firmware_host.duplicate.session import Session
from firmware_host.duplicate.session_state import progress
from firmware_host.duplicate.spec import SessionSetup, SetupError, build_movement, default_tables
from firmware_host.records.journal import Journal
from laws.scoring import Method

log = logging.getLogger(__name__)

MOVEMENTS = ("mitchell", "howell", "barometer")
FILES = {"pbn": "results.pbn", "usebio": "results.xml", "html": "results.html"}
TableFactory = Callable[[str, Journal, MqttPublisher, BoardRoom, random.Random], Any]


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
    seconds: float
    seed: int
    notes: list[str] = field(default_factory=list)


class DuplicateDemo:
    """One simulated session (see the module docstring).

    Args:
        out: the folder for the session's journal and the three result files.
        tables, boards, movement: the session's size and movement.
        foul: how many boards to misboard.
        seed: the simulation's choices, and the deals (None: deals from the system's randomness and a
            random seed for the choices, printed so a run can be repeated).
        method: how it is scored.
        table_factory: makes each table (default: ``SimDuplicateTable``).
        pause: seconds a table waits between two boards.
    """

    def __init__(self, out: str | Path, tables: int, boards: int, movement: str = "mitchell", *, foul: int = 0,
                 seed: int | None = None, method: Method = Method.MATCHPOINTS,
                 table_factory: TableFactory | None = None, pause: float = 0.0, analyse: bool = True) -> None:
        self.out = Path(out)
        self.spec = demo_movement(movement, tables, boards)
        self.movement = build_movement(self.spec)
        if isinstance(foul, bool) or not isinstance(foul, int) or not 0 <= foul <= len(self.movement.boards()):
            raise SetupError(f"--foul is a number of boards, 0 to {len(self.movement.boards())}, not {foul!r}")
        self.foul = foul
        self.seed = secrets.randbelow(2**31) if seed is None else seed
        self.seeded_deals = seed is not None
        self.method = method
        self.table_factory = table_factory or self._sim_table
        self.pause = pause
        self.analyse = analyse
        self.rng = random.Random(self.seed)

    def _sim_table(self, tid: str, journal: Journal, pub: MqttPublisher, room: BoardRoom,
                   rng: random.Random) -> SimDuplicateTable:
        return SimDuplicateTable(tid, journal, pub, room, rng)

    def setup(self) -> SessionSetup:
        count = len(self.movement.boards())
        boards = new_boards(count, shuffle=self.rng.shuffle) if self.seeded_deals else new_boards(count)
        names = {str(p): (f"Player {p.number}{p.direction or ''} A", f"Player {p.number}{p.direction or ''} B")
                 for p in self.movement.pairs()}
        return SessionSetup("cardtable demo", "2025-11-30", "cardtable demo club", self.spec, self.movement.contestants,
                            tuple(boards), self.method, "A", default_tables(self.movement.tables), names,
                            secrets.token_hex(16))

    def _misboard(self, room: BoardRoom) -> None:
        m = self.movement
        for board in self.rng.sample(list(m.boards()), self.foul):
            plays = sorted((s.round, s.table) for s in m.seatings if s.played and board in m.boards_of(s.group))
            if room.per_table:
                rnd, table = self.rng.choice(plays)
            else:
                rnd, table = self.rng.choice(plays[1:] or plays)
            room.misboard(board, rnd, table, self.rng)

    def run(self, timeout: float = 900.0) -> DemoResult:
        """Play the session and write the result files (see the module docstring)."""
        t0 = time.monotonic()
        setup = self.setup()
        self.out.mkdir(parents=True, exist_ok=True)
        session = Session.create(self.out / "session", setup, analyse=self.analyse)
        desk = SessionDesk(session)
        room = BoardRoom({b.number: b for b in setup.boards}, per_table=self.movement.copies > 1)
        self._misboard(room)
        with tempfile.TemporaryDirectory(prefix="cardtable-duplicate-demo-") as tmp:
            ids = list(setup.tables)
            passwords = {tid: secrets.token_urlsafe(12) for tid in ids}
            passwords[DASHBOARD_USER] = secrets.token_urlsafe(12)
            broker = LocalBroker(Path(tmp) / "broker", passwords)
            broker.start()
            service = SessionService(desk, "127.0.0.1", broker.port, DASHBOARD_USER, passwords[DASHBOARD_USER])
            tables: list[Any] = []
            pacer = TablePacer(tables, self.pause)
            try:
                service.start()
                if not service.connected.wait(20):
                    raise RuntimeError("the session could not connect to the local broker")
                for i, tid in enumerate(ids):
                    journal = Journal.open(Path(tmp) / "tables" / tid, synchronous="NORMAL")
                    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), tid, journal,
                                        password=passwords[tid])
                    tables.append(self.table_factory(tid, journal, pub, room, random.Random(self.seed * 1000 + i)))
                for t in tables:
                    t.start()
                pacer.start()
                self._direct(desk, time.monotonic() + timeout)
            finally:
                pacer.stop()
                for t in tables:
                    t.stop()
                service.stop()
                broker.stop()
        files = {}
        for fmt, name in FILES.items():
            assert SUFFIX[fmt] == Path(name).suffix
            write_export(session, fmt, self.out / name)
            files[fmt] = self.out / name
        result = DemoResult(self.out, files, desk.taken, desk.refused, list(room.misboardings),
                            time.monotonic() - t0, self.seed)
        session.close()
        return result

    def _direct(self, desk: SessionDesk, deadline: float) -> None:
        """Play the director: call each round once every table has finished the one before."""
        st = desk.session.state
        for r in range(1, st.movement.rounds + 1):
            if r > 1:
                outcome = desk.director({"type": "round", "round": r, "by": "demo"})
                if not outcome.taken:
                    raise RuntimeError(f"calling round {r}: {outcome.why}")
            self._wait(desk, deadline, lambda r=r: self._round_done(desk, r))
        due = sum(st.due().values())
        self._wait(desk, deadline, lambda: len(st.entries) >= due)

    @staticmethod
    def _round_done(desk: SessionDesk, r: int) -> bool:
        with desk.lock:
            p = progress(desk.session.state)
        return all(t["round"] >= r and not t["left"] for t in p.tables)

    @staticmethod
    def _wait(desk: SessionDesk, deadline: float, done: Callable[[], bool]) -> None:
        while not done():
            if time.monotonic() > deadline:
                with desk.lock:
                    p = progress(desk.session.state)
                late = [f"table {t['table']} round {t['round']} left {t['left']}" for t in p.tables if t["left"]]
                raise TimeoutError("the demo did not finish in time: " + "; ".join(late[:5]))
            time.sleep(0.05)
