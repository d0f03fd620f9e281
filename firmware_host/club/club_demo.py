"""A whole simulated club in one process tree: a local broker, N simulated tables and the dashboard.

``ClubDemo`` is what ``cardtable club demo`` runs and what the tests and the benchmark build on.
"""

from __future__ import annotations

import logging
import secrets
import threading
from pathlib import Path
from typing import Any

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.club.simclub import SimClub, SimTable, default_scenarios, load_scenario
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from firmware_host.web.auth import hash_password

log = logging.getLogger(__name__)


def table_ids(n: int) -> list[str]:
    """``table-01`` ... (zero-padded so they sort)."""
    width = max(2, len(str(n)))
    return [f"table-{i:0{width}d}" for i in range(1, n + 1)]


def table_name(n: int) -> str:
    """What a club calls its table ``n`` ("Table 3"), as ``[table] name`` in its configuration."""
    return f"Table {n}"


class SimTables:
    """N simulated tables publishing to a broker (journals in ``workdir``)."""

    def __init__(self, workdir: Path, ids: list[str], passwords: dict[str, str], host: str, port: int,
                 rate: float, *, reveal_cards: bool = False, synchronous: str = "NORMAL",
                 varied: bool = True) -> None:
        files = default_scenarios()
        if not files:
            raise FileNotFoundError("no example event logs (tests/data/*.jsonl) to replay")
        scenarios = [load_scenario(f) for f in files]
        cfg = MqttConfig(host=host, port=port, reveal_cards=reveal_cards)
        self.journals: list[Journal] = []
        self.publishers: list[MqttPublisher] = []
        self.tables: list[SimTable] = []
        for i, tid in enumerate(ids):
            j = Journal.open(workdir / tid, synchronous=synchronous)
            pub = MqttPublisher(cfg, tid, j, password=passwords[tid], heartbeat=5.0)
            # varied: each table in its own order, after its own pause, with its own players (a club's
            # demo); the benchmark keeps every table busy from the first second instead
            table = SimTable(tid, j, pub, scenarios, start=i, seed=i + 1 if varied else None)
            table.name = table_name(i + 1)
            pub.on_command(table.acknowledge)
            self.journals.append(j)
            self.publishers.append(pub)
            self.tables.append(table)
        self.club = SimClub(self.tables, rate)

    def start(self) -> None:
        for p in self.publishers:
            p.start()
        self.club.start()

    def stop(self) -> None:
        self.club.stop()
        for p in self.publishers:
            p.stop()
        for j in self.journals:
            j.close()


class ClubDemo:
    """Broker + simulated tables + dashboard, with a director login.

    Args:
        workdir: where the broker files and the journals go.
        tables: how many tables.
        rate: events per second per table.
        http_port: the dashboard's port (0: a free one).
        director: (name, password) for the dashboard login; a random password when None.
    """

    def __init__(self, workdir: str | Path, tables: int, *, rate: float = 2.0, http_port: int = 0,
                 http_host: str = "127.0.0.1", director: tuple[str, str] | None = None,
                 session_ttl: float = 8 * 3600, reveal_cards: bool = False) -> None:
        self.workdir = Path(workdir)
        self.ids = table_ids(tables)
        self.passwords = {tid: secrets.token_urlsafe(12) for tid in self.ids}
        self.passwords[DASHBOARD_USER] = secrets.token_urlsafe(12)
        self.director = director or ("director", secrets.token_urlsafe(9))
        self.broker = LocalBroker(self.workdir / "broker", self.passwords)
        self.http_host = http_host
        self.http_port = http_port or free_port()
        self.rate = rate
        self.session_ttl = session_ttl
        self.reveal_cards = reveal_cards
        self.sim: SimTables | None = None
        self.dashboard: Any = None
        self._server: Any = None
        self._server_thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.http_host}:{self.http_port}/"

    def start(self, *, with_tables: bool = True) -> None:
        """Start the broker, the dashboard (in a thread) and, unless told not to, the tables."""
        from firmware_host.club.dashboard import Dashboard, serve

        self.broker.start()
        users = {self.director[0]: hash_password(self.director[1])}
        self.dashboard = Dashboard("127.0.0.1", self.broker.port, DASHBOARD_USER, self.passwords[DASHBOARD_USER],
                                   users, session_ttl=self.session_ttl)
        self._server = serve(self.dashboard, self.http_host, self.http_port)
        self._server_thread = threading.Thread(target=self._server.run, name="dashboard", daemon=True)
        self._server_thread.start()
        if with_tables:
            self.start_tables()

    def start_tables(self) -> None:
        self.sim = SimTables(self.workdir / "tables", self.ids, self.passwords, "127.0.0.1", self.broker.port,
                             self.rate, reveal_cards=self.reveal_cards)
        self.sim.start()

    def wait_ready(self, timeout: float = 10.0) -> bool:
        """True once the dashboard serves requests."""
        import time as _time
        deadline = _time.monotonic() + timeout
        while _time.monotonic() < deadline:
            if self._server is not None and self._server.started:
                return True
            if self._server_thread is not None and not self._server_thread.is_alive():
                return False
            threading.Event().wait(0.05)
        return False

    def stop(self) -> None:
        if self.sim is not None:
            self.sim.stop()
        if self._server is not None:
            self._server.should_exit = True
        if self._server_thread is not None:
            self._server_thread.join(5)
        self.broker.stop()
