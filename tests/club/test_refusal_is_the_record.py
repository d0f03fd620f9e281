"""The refusal is the record (issue 25): the same bad inputs through every way text enters — the
director's FIFO, an MQTT command, a replay file, the dashboard's forms — and each is refused once, where
it enters, with a note naming why: in the table's journal for what reaches the table (the journal never
raises on the refusal itself, whatever the refused text held), on stderr (``FILE:LINE``) for replay, and
as the dashboard's answer and WARNING for a form the dashboard will not send on."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import LocalBroker
from firmware_host.config import MqttConfig
from firmware_host.live import ClubCommands
from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from firmware_host.table.director_input import EventReader
from firmware_host.tablelink.publisher import MqttPublisher
from laws.cards import Seat
from tests.club.conftest import PASSWORDS, Watcher, csrf, login
from tests.laws.streams import euchre_known_deal
from tests.table.test_choices import HANDS

ROOT = Path(__file__).resolve().parents[2]
# The bad values, as the raw JSON text of the ``seat`` of a euchre bid, and what each refusal says.
BAD: dict[str, tuple[bytes, str]] = {
    "lone surrogate": (b'"\\ud800"', "lone surrogate"),
    "not UTF-8": (b'"\xff\xfe"', "not UTF-8 text"),
    "a number of 4000 digits": (b"9" * 4000, "4000 digits"),  # within the 4 KiB a command may be
    "not JSON": (b'"N', "JSON"),
}


def _line(value: bytes) -> bytes:
    return b'{"type": "bid", "seat": ' + value + b', "call": "pass"}'


def _command(value: bytes, cid: str) -> bytes:
    return b'{"table": "t1", "by": "alice", "t": 0, "id": "' + cid.encode() + b'", "seat": ' + value + \
        b', "call": "pass"}'


def _auction(ctl: TableController) -> None:
    ctl.engine.state.next_dealer = Seat.N
    for e in euchre_known_deal(Seat.N, HANDS, "7S"):  # type: ignore[arg-type]
        ctl.process(LawInput(e, "script"))


def _until(what: Any, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not what():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_through_the_fifo_each_refusal_is_a_journal_note(tmp_path: Path) -> None:
    fifo = tmp_path / "director"
    os.mkfifo(fifo)
    j = Journal.open(tmp_path / "data", synchronous="NORMAL")
    ctl = TableController(game="euchre", journal=j, panel=None, clock=time.time)
    _auction(ctl)
    reader = EventReader(fifo, ctl.submit).start()
    try:
        with open(fifo, "wb") as w:
            w.write(b"\n".join(_line(v) for v, _ in BAD.values()) + b"\n")

        def notes() -> list[str]:
            ctl.drain()
            return [r.body["text"] for r in j.rows() if r.kind == "note" and r.body.get("device") == "director"]

        _until(lambda: len(notes()) == len(BAD))
        for (name, (_, says)), text in zip(BAD.items(), notes()):
            assert says in text and f"{fifo} line" in text, (name, text)
        assert not any(r.kind == "event" and r.body["type"] == "bid" for r in j.rows())
    finally:
        reader.stop()
        j.close()


def test_through_mqtt_each_refusal_is_a_journal_note(tmp_path: Path, broker: LocalBroker, watcher: Watcher) -> None:
    j = Journal.open(tmp_path / "data", synchronous="NORMAL")
    pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "t1", j, password=PASSWORDS["t1"])
    ctl = TableController(game="euchre", journal=j, panel=None, clock=time.time, table_id="t1", observers=[pub])
    pub.on_command(ClubCommands("euchre", ctl.submit), acknowledges=True)
    pub.start()
    try:
        assert pub.connected_event.wait(10)
        _auction(ctl)
        sent = {f"z{i}": _command(value, f"z{i}") for i, (value, _) in enumerate(BAD.values())}
        # the refusal of issue 25 that the journal could not hold: a lone surrogate in the director's name
        sent["zby"] = b'{"table": "t1", "by": "\\udc80lice", "t": 0, "id": "zby", "seat": "E", "call": "pass"}'
        for payload in sent.values():
            watcher.client.publish("cardtable/t1/command/bid", payload, qos=1)

        def refusals() -> list[dict[str, Any]]:
            ctl.drain()
            return [r.body for r in j.rows() if r.kind == "note" and "refused" in r.body]

        _until(lambda: len(refusals()) == len(sent))
        said = [r["refused"] for r in refusals()]
        for (name, (_, says)), why in zip([*BAD.items(), ("by", (b"", "lone surrogate"))], said):
            assert says in why, (name, why)
        assert not any(r.kind == "event" and r.body["type"] == "bid" for r in j.rows())
        assert j.verify().ok
    finally:
        pub.stop()
        j.close()


@pytest.mark.parametrize("name", list(BAD))
def test_through_a_replay_file_each_refusal_is_the_lines_message(tmp_path: Path, name: str) -> None:
    value, says = BAD[name]
    log = tmp_path / "log.jsonl"
    log.write_bytes(b'{"type": "game", "game": "euchre"}\n' + _line(value) + b"\n")
    proc = subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", str(log)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and proc.stderr.startswith(f"{log}:2: ") and says in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_through_the_dashboards_form_each_refusal_is_answered_and_logged(dash: Any, watcher: Watcher,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    d, client, clock = dash
    d.state.ingest("cardtable/t1/status", json.dumps({  # a euchre table in its auction, as its status says
        "table": "t1", "kind": "status", "seq": 1, "deal": 1, "t": 1.0,
        "body": {"phase": "auction", "game": "euchre", "deal": 1, "lamps": {}}}).encode(), 1.0)
    login(client)
    headers = {"X-CSRF-Token": csrf(client), "Origin": "http://club.test", "Content-Type": "application/json"}
    caplog.set_level(logging.WARNING, "firmware_host.club.dashboard")
    for name, (value, says) in BAD.items():
        r = client.post("/api/bid", content=_command(value, "form"), headers=headers)
        assert r.status_code in (400, 404, 409), (name, r.status_code)
        assert any(m.startswith("bid by director") and "refused" in m and (says in m or name == "not JSON")
                   for m in caplog.messages), (name, caplog.messages)
        caplog.clear()
    assert not any(t.endswith("/command/bid") for t, _ in watcher.messages)  # nothing was sent on
