"""A field too big for one MQTT packet: the views the federation publishes stay under the brokers'
``max_packet_size`` (65,536 bytes), so the service is not thrown off its broker for ever (each time it
reconnects it would send the refused packet again). The whole view stays on the page."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from firmware_host.federation.brokers import EventBroker
from firmware_host.federation.service import JOURNAL, EventSetup, FederationService, create_event
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from firmware_host.records.journal import Journal
from laws.cards import Seat
from laws.federation.messages import line_to_dict
from laws.scoring.bridge import parse_contract
from laws.scoring.session_values import Line, Pair, Played

TABLES = 150


def _club(club: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"op": "entry", "pairs": [[t, d] for t in range(1, TABLES + 1) for d in ("NS", "EW")],
                                  "due": TABLES}]
    for t in range(1, TABLES + 1):
        line = Line(1, Pair(t, "NS"), Pair(t, "EW"), Played(parse_contract("4S"), Seat.N, 6 + t % 7))
        out.append({"op": "line", "line": line_to_dict(line)})
    for n, m in enumerate(out, 1):
        m["number"], m["club"] = n, club
    return out


def _until(done: Callable[[], bool], deadline: float, say: Callable[[], str]) -> None:
    """Wait for ``done`` (a last-resort deadline of ``deadline`` seconds, then ``say`` what was reached)."""
    end = time.monotonic() + deadline
    while not done():
        assert time.monotonic() < end, say()
        time.sleep(0.05)


def test_a_big_fields_views_reach_the_clubs(tmp_path: Path) -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")
    import paho.mqtt.client as mqtt

    topics = EventTopics("big")
    fed = EventBroker(tmp_path / "fed", {"c1": "a", "c2": "b", SERVICE_USER: "f"}, topics.acl(["c1", "c2"]))
    fed.start()
    create_event(tmp_path / "event", EventSetup("big", (1,), ("c1", "c2")))
    c1, c2 = _club("c1"), _club("c2")
    with Journal.open(tmp_path / "event" / JOURNAL) as journal:
        journal.append_many([("event", {"type": "message", "club": m["club"], "number": m["number"], "message": m},
                              1.0) for m in c1 + c2[:-1]])
    got: dict[str, bytes] = {}
    both = threading.Event()

    def on_message(client: Any, userdata: Any, msg: Any) -> None:
        got[msg.topic] = bytes(msg.payload)
        views = {t: json.loads(v) for t, v in got.items()}
        if views.get(topics.standings, {}).get("boards") == [1] and views.get(topics.field("c1"), {}).get("rankings"):
            both.set()

    club = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="c1")
    club.username_pw_set("c1", "a")
    club.on_message = on_message
    # The club's network loop on a thread of the test's, ended by disconnect(): paho's loop_stop reads its
    # thread twice and raised AttributeError when the loop ended in between (seen on a loaded machine).
    network = threading.Thread(target=club.loop_forever, name="club-c1", daemon=True)
    service = None
    try:
        club.connect("127.0.0.1", fed.port)
        club.subscribe([(topics.standings, 1), (topics.field("c1"), 1)])
        network.start()
        service = FederationService(tmp_path / "event", "127.0.0.1", fed.port, "f").start()
        _until(service.client.is_connected, 60, lambda: "the service never connected to the federation's broker")
        service.receive(topics.result("c2"), json.dumps(c2[-1]).encode())   # the last result: board 1 public
        # a big field is ranked in seconds on a quiet machine; under load, as long as it takes
        assert both.wait(300), (f"the views never arrived: got {sorted(got)}; the service's view: boards "
                                f"{service.last_view.get('boards')}, taken {service.last_view.get('taken')}")
        page = json.dumps(service.last_view)
    finally:
        club.disconnect()
        if network.ident is not None:   # started: a connect that failed is the error to see
            network.join(10)
        if service is not None:
            service.stop()
        fed.stop()
    assert len(page) > 65536                                    # the whole view: too big for one packet
    public = json.loads(got[topics.standings])
    assert public["taken"] == {"c1": TABLES + 1, "c2": TABLES + 1} and len(public["leaders"]["field NS"]) == 10
    mine = json.loads(got[topics.field("c1")])
    assert all(len(v) <= 65536 for v in got.values())
    assert set(mine["rankings"]) == {"c1 NS", "c1 EW"} and len(mine["rankings"]["c1 NS"]) == TABLES
    assert mine["rankings"]["c1 NS"][0]["club"] == "c1"
