"""The publisher's delivery core without paho (issue 36): ordered messages go out in order through the
``send`` it is given, each naming the one before it; nothing goes while the broker is away; a message the
broker did not acknowledge is sent again after a restart, and one it acknowledged is not."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.tablelink.delivery import Delivery
from firmware_host.tablelink.secrecy import SecrecyFilter


class Wire:
    """What ``send`` reaches: it keeps each message and says when ``want`` ordered ones have come."""

    def __init__(self, want: int) -> None:
        self.sent: list[tuple[str, dict[str, Any], int, bool]] = []
        self.want = want
        self.done = threading.Event()
        self.mid = 0

    def send(self, topic: str, payload: str, qos: int, retain: bool) -> int:
        self.mid += 1
        self.sent.append((topic, json.loads(payload), qos, retain))
        if len(self.ordered()) >= self.want:
            self.done.set()
        return self.mid

    def ordered(self) -> list[dict[str, Any]]:
        return [m for t, m, q, r in self.sent if q == 1 and not r]


def _run(d: Delivery, wire: Wire) -> None:
    t = threading.Thread(target=d.run, daemon=True)
    t.start()
    assert wire.done.wait(20), wire.sent
    d.stop()
    t.join(10)


def test_the_core_holds_no_paho() -> None:
    import firmware_host.tablelink.delivery as core

    assert "paho" not in Path(core.__file__).read_text().replace("without paho", "").replace("of paho's", "")
    assert not any(name.startswith("paho") for name in vars(core))


def test_ordered_messages_go_in_order_only_while_connected_and_name_the_one_before(tmp_path: Path) -> None:
    j = Journal.open(tmp_path / "j", synchronous="NORMAL")
    wire = Wire(want=3)
    d = Delivery("table-01", j, SecrecyFilter(reveal=True), wire.send, lambda: 1.0, heartbeat=3600)
    for seq in (4, 7, 9):
        d.queue("event", 1, seq, {"n": seq})
    assert wire.sent == [] and d.pending() == 3              # no broker yet: nothing sent, all kept
    d.connected()
    _run(d, wire)
    got = wire.ordered()
    assert [(m["seq"], m["prev"]) for m in got] == [(4, 0), (7, 4), (9, 7)]
    assert all(t == "cardtable/table-01/event" for t, m, q, r in wire.sent if q == 1 and not r)
    d.close()
    j.close()


def test_what_the_broker_did_not_acknowledge_is_sent_again_after_a_restart(tmp_path: Path) -> None:
    j = Journal.open(tmp_path / "j", synchronous="NORMAL")
    wire = Wire(want=2)
    d = Delivery("table-01", j, SecrecyFilter(reveal=True), wire.send, lambda: 1.0, heartbeat=3600)
    d.connected()
    d.queue("ruling", 1, 5, {"a": 1})
    d.queue("ruling", 1, 6, {"a": 2})
    _run(d, wire)
    d.published(1)          # the broker acknowledged the first only
    d.close()
    again = Wire(want=1)
    d2 = Delivery("table-01", j, SecrecyFilter(reveal=True), again.send, lambda: 2.0, heartbeat=3600)
    assert d2.pending() == 1 and d2.last_seq == 6
    d2.connected()
    _run(d2, again)
    assert [m["seq"] for m in again.ordered()] == [6]
    d2.close()
    j.close()


def test_a_board_result_is_sent_secret_false_while_an_events_deal_is_held_back(tmp_path: Path) -> None:
    """docs/mqtt.md: a ``board`` message's envelope has ``secret`` false (the board's play is over, its body
    goes whole). The table wrote the deal's secrecy there, true when the confirmation came before the
    deal's play was marked over, so the message said one thing and its body another."""
    j = Journal.open(tmp_path / "j", synchronous="NORMAL")
    d = Delivery("table-01", j, SecrecyFilter(), Wire(want=1).send, lambda: 1.0, heartbeat=3600)
    assert d.envelope("event", 3, 10, {})["secret"] is True     # deal 3's cards are still held back
    assert d.envelope("board", 3, 11, {})["secret"] is False
    j.close()


def test_a_message_over_the_broker_s_packet_is_never_sent_and_said_once(tmp_path: Path, caplog: Any) -> None:
    """docs/mqtt.md, "The broker": Mosquitto disconnects a client whose packet is over 64 KiB. The table
    measured nothing: a message over it went into the outbox, the broker disconnected the table, and the
    outbox sent it again at every reconnect, for ever, with everything queued behind it. Now it is not
    queued: one ERROR names its kind, row and size, the table is told, and what follows goes as usual."""
    j = Journal.open(tmp_path / "j", synchronous="NORMAL")
    wire = Wire(want=2)
    d = Delivery("table-01", j, SecrecyFilter(reveal=True), wire.send, lambda: 1.0, heartbeat=3600)
    told: list[tuple[str, int, int]] = []
    getattr(d, "on_oversize", []).append(lambda kind, seq, size, body: told.append((kind, seq, size)))
    d.connected()
    d.queue("event", 1, 4, {"n": 4})
    with caplog.at_level("ERROR"):
        fits = d.queue("ruling", 1, 5, {"reason": "x" * 70000})
    d.queue("event", 1, 6, {"n": 6})
    _run(d, wire)
    assert [(m["seq"], m["prev"]) for m in wire.ordered()] == [(4, 0), (6, 4)] and fits is False
    assert d.pending() == 2 and d.oversize == 1                     # the big one is not in the outbox
    (kind, seq, size), = told
    assert (kind, seq) == ("ruling", 5) and size > 70000
    errors = [r for r in caplog.records if r.levelname == "ERROR"]
    assert len(errors) == 1 and "ruling" in errors[0].getMessage() and str(size) in errors[0].getMessage()
    d.close()
    j.close()


def test_a_status_over_the_broker_s_packet_is_not_sent_and_said_once(tmp_path: Path, caplog: Any) -> None:
    """A retained status over the packet would be sent again on every reconnection: the last one that fit
    stays on the broker, and the table says so once, not at every change."""
    j = Journal.open(tmp_path / "j", synchronous="NORMAL")
    wire = Wire(want=1)
    d = Delivery("table-01", j, SecrecyFilter(reveal=True), wire.send, lambda: 1.0, heartbeat=3600)
    d.connected()
    with caplog.at_level("ERROR"):
        for n in range(3):
            d.status(1, 7 + n, {"deal": 1, "players": {"N": "x" * 70000}})
            d._send_status()
            d._status_at = 0.0
    d.queue("event", 1, 10, {"n": 10})
    _run(d, wire)
    assert not [t for t, m, q, r in wire.sent if t.endswith("/status")]
    assert d.oversize == 1 and len([r for r in caplog.records if r.levelname == "ERROR"]) == 1
    d.close()
    j.close()
