"""One table of a simulated evening: a real duplicate table, as ``cardtable run`` starts it, with simulated
people at it.

The table is built from a configuration file of its own (``DIR/tables/<id>/table.toml``, checked by
``load_config``) by ``live.build_table``: a ``TableController`` of the game ``duplicate-bridge`` with its
journal in ``DIR/tables/<id>/``, gpiozero's mock pins for its panel, its ``MqttPublisher`` on the club's
broker (its login and password), ``DuplicateResults`` (the session's seating in, confirmed results out)
and ``DuplicateProcedure`` (each board of the round placed from the records the session sends it in its
seating, checked against the session's commitment: the configuration names no hand records file). A table whose
shoe deals the boards (``deal = "shoe"``, the barometer's) has the virtual shoe (the reference firmware
on a pseudo-terminal) on its serial port, so every card reaches the table as the shoe's own message.

The consumer of the controller's queue is this module's thread, as ``Table.run`` is in ``cardtable run``:
it takes every input queued (the session's messages from the broker, the shoe's cards, the procedure's
boards), then asks the people (``people.People``) what they do next and submits it with ``ctl.submit``,
one input at a time. An input the table takes and leaves the people asking the same again is an input
the table refused: the thread stops and says so (``failure``), as it does on any error.
"""

from __future__ import annotations

import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from firmware_host.evening.people import People
from firmware_host.table.inputs import ButtonInput, LawInput

log = logging.getLogger(__name__)
IDLE = 0.01    # seconds the thread waits when the people have nothing to do


@dataclass(frozen=True)
class ClubLink:
    """Where the club's broker is, and where a table's password file goes."""

    host: str
    port: int
    secrets: Path


@dataclass(frozen=True)
class TablePlace:
    """A table of the evening: its id (its login), number, folder and how its boards arrive."""

    tid: str
    number: int
    folder: Path
    records: Path
    deal: str = "boards"          # "boards" (physical boards) or "shoe"
    section: str = "A"


def write_config(place: TablePlace, link: ClubLink, password: str, shoe_port: str | None) -> Path:
    """The table's ``table.toml`` (and its password file under ``link.secrets``); returns its path."""
    secret = link.secrets / f"{place.tid}.password"
    secret.write_text(password + "\n", encoding="utf-8")
    secret.chmod(0o600)

    def q(value: object) -> str:
        return json.dumps(str(value))    # a TOML basic string

    text = f"""# A simulated table of `cardtable duplicate demo` (the broker and password were the demo's own).
[table]
id = {q(place.tid)}
name = {q(f"Table {place.number}")}
game = "duplicate-bridge"
data_dir = {q(place.folder)}

[shoe]
driver = "{'shoe' if shoe_port else 'none'}"
port = {q(shoe_port or '/dev/null')}

[camera]
source = "none"

[pins]
factory = "mock"

[mqtt]
host = {q(link.host)}
port = {link.port}
username = {q(place.tid)}
password_file = {q(secret)}

[duplicate]
deal = "{'shoe' if place.deal == 'shoe' else 'boards'}"
section = {q(place.section)}
table = {place.number}
session = true
"""
    path = place.folder / "table.toml"
    path.write_text(text, encoding="utf-8")
    return path


def describe(item: LawInput | ButtonInput) -> str:
    """An input in words for a message: ``card_played {"seat": "N", "card": "AS"} (camera)``."""
    if isinstance(item, ButtonInput):
        return f"{item.who}'s {item.kind} button"
    from laws.events import event_to_dict

    body = event_to_dict(item.event)
    kind = body.pop("type")
    return f"{kind} {json.dumps(body)} ({item.source})"


class DemoTable:
    """A real duplicate table with its people (see the module docstring).

    Args:
        place: the table.
        link: the club's broker.
        password: the table's login password.
        people: the people at it.
        shoe_seed: the virtual shoe's seed (its packs' shuffles), for a table whose shoe deals.
    """

    def __init__(self, place: TablePlace, link: ClubLink, password: str, people: People, shoe_seed: int = 0) -> None:
        self.place = place
        self.link = link
        self.password = password
        self.people = people
        self.shoe_seed = shoe_seed
        self.table: Any = None
        self.shoe: Any = None
        self.failure: str | None = None
        self.inputs = 0
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def tid(self) -> str:
        return self.place.tid

    def start(self) -> None:
        """Write the configuration, build the table as ``cardtable run`` does, and start its thread.

        Raises:
            firmware_host.config.ConfigError, ValueError, OSError: the table cannot be built (named).
        """
        from firmware_host.config import load_config
        from firmware_host.live import build_table

        self.place.folder.mkdir(parents=True, exist_ok=True)
        port = None
        if self.place.deal == "shoe":
            from firmware_host.shoe.virtual import VirtualShoe

            self.shoe = VirtualShoe("contract-bridge", self.shoe_seed, directory=str(self.place.folder),
                                    pass_ms=1, gap_ms=1)
            port = self.shoe.open()
        cfg = load_config(write_config(self.place, self.link, self.password, port), env={})
        self.table = build_table(cfg, synchronous="NORMAL")
        self._thread = threading.Thread(target=self._run, name=f"demo-{self.tid}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        ctl = self.table.ctl
        last: LawInput | ButtonInput | None = None
        try:
            while not self._stop.is_set():
                while ctl.drain():
                    pass
                item = self.people.next_input(ctl.engine.state)
                if item is None:
                    last = None
                    self._stop.wait(IDLE)
                    continue
                if item == last:
                    raise RuntimeError(f"the table did not take {describe(item)}: {self._last_note()}")
                last = item
                self.inputs += 1
                ctl.submit(item)
        except Exception as exc:      # noqa: BLE001 - the demo reports it (its words) and stops
            self.failure = f"{self.tid}: {exc}"
            log.debug("demo table %s stopped", self.tid, exc_info=True)

    def _last_note(self) -> str:
        """Why the table did not take it: its journal's last note, in its own words."""
        rows = [r for r in self.table.journal.rows() if r.kind == "note"]
        if not rows:
            return "the journal says nothing"
        body = rows[-1].body
        return str(body.get("error") or body.get("text") or json.dumps(body))[:300]

    def stop(self) -> None:
        """Stop the thread, then the table (its publisher, panel, shoe link and journal) and its shoe."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        try:
            if self.table is not None:
                self.table.stop()
        finally:
            if self.shoe is not None:
                self.shoe.close()
