"""A whole euchre night without a club: ``cardtable euchre demo --tables N --rounds R``.

A local Mosquitto; the night's session (journal in ``OUT/night/``) on the broker (``service``) with its
pages (``pages``); and one real euchre table for each club table (a ``TableController`` of the game
``euchre`` built by ``live.build_table`` from its own configuration, journal in ``OUT/tables/<id>/``,
which attaches ``tablelink.euchre_night.NightTable``). At each table simulated players
(``players.deal_hand``) shuffle, cut, deal, make trump and play every card, with reneges, wrong counts,
misdeals and lone hands made on purpose; the table counts the tricks from the cards, its engine rules the
irregularities, and it sends each hand to the session when it is scored. The session seats the next
round the moment a round ends. The demo plays the director too: it calls the last round once every
table of it has played a hand (each table finishes the hand in play and stops).

At the end it writes ``OUT/standings.json``, ``OUT/hands.json`` and ``OUT/sheet.html``.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker
from firmware_host.euchre_night.pages import NightPages
from firmware_host.euchre_night.players import deal_hand, misdeal
from firmware_host.euchre_night.service import NightService
from firmware_host.euchre_night.session import NightSession
from firmware_host.euchre_night.views import hands_export, sheet_html, standings_export
from firmware_host.table.inputs import LawInput
from laws.cards import Seat
from laws.euchre_night.night import Format, NightSetup, Player
from laws.euchre_night.scoring import Rules
from laws.events import event_from_dict

log = logging.getLogger(__name__)
IDLE = 0.01
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Ned", "Oda",
         "Pam", "Quin", "Ray", "Sue", "Tom", "Una", "Val", "Wes", "Xia", "Yves", "Zoe")


def player_names(n: int) -> list[str]:
    return [f"{NAMES[i % len(NAMES)]}{'' if i < len(NAMES) else i // len(NAMES) + 1}" for i in range(n)]


@dataclass
class DemoResult:
    out: Path
    hands: int
    reneges: int
    penalties: int
    made: dict[str, int]
    seconds: float
    files: dict[str, Path] = field(default_factory=dict)


def write_config(folder: Path, tid: str, number: int, host: str, port: int, password: str) -> Path:
    # absolute: the configuration reads a relative path from its own folder, so a relative --out
    # (``--out night``) named night/tables/t/night/tables/t/mqtt.password and the demo stopped (audit m28)
    folder = folder.resolve()
    secret = folder / "mqtt.password"
    secret.write_text(password + "\n", encoding="utf-8")
    secret.chmod(0o600)

    def q(v: object) -> str:
        return json.dumps(str(v))

    text = f"""# A simulated table of `cardtable euchre demo`.
[table]
id = {q(tid)}
name = {q(f"Table {number}")}
game = "euchre"
data_dir = {q(folder)}

[shoe]
driver = "none"
port = "/dev/null"

[camera]
source = "none"

[pins]
factory = "mock"

[mqtt]
host = {q(host)}
port = {port}
username = {q(tid)}
password_file = {q(secret)}
"""
    path = folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


class DemoTable:
    """A real euchre table (built as ``cardtable run`` builds one) and its four simulated players.

    The players deal a hand only when none is in play, and play it to its end from the plan they made
    when they dealt it. So a table started on a journal whose last hand is still in play (stopped
    mid-hand) cannot go on: its players never made that hand's plan. They say so (``failure``) at once
    rather than sit there; stop a table between hands.

    Args:
        hold_at: the players deal no new hand once the table has sent this many (a break at the table,
            until :meth:`go_on`): something can then happen between two hands at a known point, whatever
            the machine's speed (a test stops the night there). None: no break.
    """

    def __init__(self, tid: str, number: int, folder: Path, host: str, port: int, password: str,
                 rng: random.Random, rates: dict[str, float], *, hold_at: int | None = None) -> None:
        self.tid, self.number, self.folder = tid, number, folder
        self.host, self.port, self.password = host, port, password
        self.rng, self.rates = rng, rates
        self.table: Any = None
        self.failure: str | None = None
        self.made: list[str] = []
        self._hold_at = hold_at
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def go_on(self) -> None:
        """End the break (``hold_at``): the players deal again."""
        self._hold_at = None

    def holding(self) -> bool:
        """The players are at their break (``hold_at`` hands sent, waiting for :meth:`go_on`)."""
        hold = self._hold_at
        return hold is not None and self.table is not None and sum(self.table.results.sent_in.values()) >= hold

    def start(self) -> None:
        from firmware_host.config import load_config
        from firmware_host.live import build_table

        self.folder.mkdir(parents=True, exist_ok=True)
        cfg = load_config(write_config(self.folder, self.tid, self.number, self.host, self.port, self.password), env={})
        self.table = build_table(cfg, synchronous="NORMAL")
        self._thread = threading.Thread(target=self._run, name=f"euchre-{self.tid}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        ctl = self.table.ctl
        night = self.table.results
        pending: deque[dict[str, Any]] = deque()
        dealer = Seat.N
        try:
            while ctl.drain():
                pass
            if night.in_play():
                raise RuntimeError(f"deal {ctl.engine.state.deal.number} was in play when the table started; "
                                   "the simulated players play only the hands they dealt (stop a table between hands)")
            while not self._stop.is_set():
                while ctl.drain():
                    pass
                if pending:
                    ctl.submit(LawInput(event_from_dict(pending.popleft()), "camera"))
                    continue
                if night.may_deal() and not night.in_play() and not self.holding():
                    nxt = getattr(ctl.engine.state, "next_dealer", None)
                    dealer = nxt if isinstance(nxt, Seat) else dealer.left
                    if self.rng.random() < self.rates.get("misdeal", 0.0):
                        plan = misdeal(dealer, self.rng)
                    else:
                        plan = deal_hand(dealer, self.rng, renege=self.rates["renege"],
                                         wrong_count=self.rates["wrong_count"], alone=self.rates["alone"])
                    self.made += plan.made
                    pending.extend(plan.events)
                    continue
                self._stop.wait(IDLE)
        except Exception as exc:  # noqa: BLE001 - the demo reports it (its words) and stops
            self.failure = f"{self.tid}: {exc}"
            log.debug("demo table %s stopped", self.tid, exc_info=True)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        if self.table is not None:
            if getattr(self.table, "results", None) is not None:
                self.table.results.close()
            self.table.stop()


class EuchreDemo:
    """The whole night (see the module docstring)."""

    def __init__(self, out: str | Path, tables: int, rounds: int, *, hands: int = 4, fmt: str = "progressive",
                 players: int | None = None, seed: int = 1, renege: float = 0.15, wrong_count: float = 0.05,
                 misdeal: float = 0.05,
                 alone: float = 0.7, call_last: bool = True, rules: Rules | None = None) -> None:
        self.out = Path(out)
        self.tables = tables
        self.rounds = rounds
        self.hands = hands
        self.format = Format(fmt)
        self.players = players if players is not None else 4 * tables
        self.seed = seed
        self.rates = {"renege": renege, "wrong_count": wrong_count, "alone": alone, "misdeal": misdeal}
        self.call_last = call_last
        self.rules = rules or Rules()
        self.pages_address = ""

    def setup(self) -> NightSetup:
        names = player_names(self.players)
        return NightSetup("Demo euchre night", tuple(Player(i + 1, n) for i, n in enumerate(names)), self.format,
                          self.rounds, self.hands, tuple(f"table-{k:02d}" for k in range(1, self.tables + 1)),
                          self.rules, time.strftime("%Y-%m-%d"), "Demo club")

    def run(self, timeout: float = 900.0) -> DemoResult:
        """Play the night and write the files.

        Raises:
            RuntimeError: a table stopped (its words), or the broker could not start.
            TimeoutError: the night did not finish within ``timeout`` seconds.
            laws.euchre_night.formats.FormatError: the night cannot be run as asked.
        """
        t0 = time.monotonic()
        setup = self.setup()
        if (self.out / "night").exists():
            raise FileExistsError(f"{self.out / 'night'}: a night is there already (choose another --out)")
        session = NightSession.create(self.out / "night", setup)
        users = {DASHBOARD_USER: secrets.token_hex(8)} | {t: secrets.token_hex(8) for t in setup.tables}
        broker = LocalBroker(self.out / "broker", users)
        rng = random.Random(self.seed)
        tables: list[DemoTable] = []
        service = pages = None
        try:
            broker.start()
            service = NightService(session, "127.0.0.1", broker.port, DASHBOARD_USER, users[DASHBOARD_USER])
            pages = NightPages(service)
            pages.start()
            self.pages_address = pages.address
            service.page = pages.address
            service.start()
            if not service.connected.wait(15):
                raise RuntimeError("the session could not log in to the demo's broker")
            for k, tid in enumerate(setup.tables, 1):
                t = DemoTable(tid, k, self.out / "tables" / tid, "127.0.0.1", broker.port, users[tid],
                              random.Random(rng.random()), self.rates)
                t.start()
                tables.append(t)
            self._direct(service, tables, time.monotonic() + timeout)
            files = self.write(session)
            night = session.night
            reneges = sum(len(h.body.get("reneges", [])) for h in night.hands.values())
            penalties = sum(len(h.hand.penalties) for h in night.hands.values())
            made: dict[str, int] = {}
            for t in tables:
                for m in t.made:
                    made[m.split()[0]] = made.get(m.split()[0], 0) + 1
            return DemoResult(self.out, len(night.hands), reneges, penalties, made, time.monotonic() - t0, files)
        finally:
            for t in tables:
                t.stop()
            if pages is not None:
                pages.stop()
            if service is not None:
                service.stop()
            broker.stop()
            session.close()

    def _direct(self, service: NightService, tables: list[DemoTable], deadline: float) -> None:
        night = service.session
        called = False
        while True:
            failed = [t.failure for t in tables if t.failure]
            if failed:
                raise RuntimeError("a table stopped: " + "; ".join(failed))
            with night.lock:
                n = night.night
                if n.finished:
                    return
                last = n.current == n.setup.rounds
                started = all(n.played(n.current, k) >= 1 for k in range(1, len(n.round(n.current).tables) + 1))
            if self.call_last and last and started and not called and self.hands > 1:
                why = service.call("demo director")
                if why and "over already" not in why:
                    raise RuntimeError(f"calling the last round: {why}")
                called = True
            if time.monotonic() > deadline:
                with night.lock:
                    n = night.night
                    late = [f"table {k} round {n.current}: {n.played(n.current, k)} hands"
                            for k in range(1, len(n.round(n.current).tables) + 1) if not n.table_done(n.current, k)]
                raise TimeoutError("the night did not finish in time: " + "; ".join(late[:5]))
            time.sleep(0.05)

    def write(self, session: NightSession) -> dict[str, Path]:
        head = session.head()
        files = {"standings": self.out / "standings.json", "hands": self.out / "hands.json",
                 "sheet": self.out / "sheet.html"}
        files["standings"].write_text(json.dumps(standings_export(session.night, head), indent=1) + "\n", "utf-8")
        files["hands"].write_text(json.dumps(hands_export(session.night, head), indent=1) + "\n", "utf-8")
        files["sheet"].write_text(sheet_html(session.night, head), "utf-8")
        return files
