"""The simultaneous end to end through real Mosquitto: the hand records go to each club over the bridge
with their commitment, each club's session plays them (its tables check every card against them; one
club fouls a board), the federation scores the field (the fouled board by group) and releases each board
to a club only once the club has finished it (tried with a club's login subscribing to everything), and
``federation close`` while the service runs makes it publish every board and write the field's files."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.duplicate.handrecords.handfiles import write_hand_records
from firmware_host.duplicate.handrecords.newdeals import new_boards
from firmware_host.federation.brokers import EventBroker
from firmware_host.federation.files import FINAL, close_event, export
from firmware_host.federation.service import EventSetup, FederationService, create_event, open_event
from firmware_host.federation.topics import SERVICE_USER, EventTopics
from firmware_host.federation.uplink import (
    ClubUplink,
    RecordsError,
    check_records_message,
    club_messages,
    fetch_records,
    read_session,
)
from firmware_host.federation.views import records_message
from firmware_host.wire.subscribed import stop_loop
from laws.duplicate.deal import commitment

EVENT = "sim2"


def _need_mosquitto() -> None:
    if shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists():
        pytest.skip("mosquitto is not installed (`make test` installs it)")


def _wait(what: Any, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if what():
            return
        time.sleep(0.05)
    raise AssertionError("timed out waiting")


def test_records_that_do_not_match_their_commitment_are_refused() -> None:
    boards = new_boards(3)
    good = records_message(EVENT, boards)
    assert [b.number for b in check_records_message(good, EVENT).boards] == [1, 2, 3]
    assert check_records_message(good, EVENT, good["commitment"].upper()).commitment == good["commitment"]
    tampered = dict(good, records=good["records"].replace(boards[1].deal.pbn().split(":")[1][:20],
                                                         "", 0))
    one = boards[0].deal.pbn()
    hands = one.split(":")[1].split()
    swapped = good["records"].replace(" ".join(hands), " ".join([hands[1], hands[0], *hands[2:]]))
    assert swapped != good["records"]
    for bad, words in ((dict(good, records=swapped), "not to the commitment they came with"),
                       (dict(good, commitment="0" * 64), "not to the commitment they came with"),
                       (dict(good, event="other"), "of event 'other'"),
                       ({"records": 1}, "not the federation's records message")):
        with pytest.raises(RecordsError, match=words):
            check_records_message(bad, EVENT)
    with pytest.raises(RecordsError, match="not to the commitment announced"):
        check_records_message(good, EVENT, "f" * 64)
    del tampered


def test_the_field_over_bridges_records_release_fouls_and_close(tmp_path: Path) -> None:
    _need_mosquitto()
    import paho.mqtt.client as mqtt

    from firmware_host.evening.duplicate_evening import DuplicateDemo

    topics = EventTopics(EVENT)
    clubs = ["c1", "c2"]
    boards = new_boards(3)
    event = tmp_path / "event"
    create_event(event, EventSetup(EVENT, (1, 2, 3), tuple(clubs), commitment=commitment(boards)))
    write_hand_records(event / "hand-records.pbn", boards, event=EVENT)
    passwords = {c: f"pw-{c}" for c in clubs} | {SERVICE_USER: "pw-fed"}
    fed = EventBroker(tmp_path / "fed", passwords, topics.acl(clubs), persistence=True)
    fed.start()
    club_brokers = {c: EventBroker(tmp_path / c, {"uplink": "up"}, topics.club_acl(c, "uplink"),
                                   extra=topics.bridge(c, "127.0.0.1", fed.port, passwords[c])) for c in clubs}
    for b in club_brokers.values():
        b.start()
    seen: dict[str, dict[str, Any]] = {c: {} for c in clubs}     # topic -> last payload, per club's login
    lock = threading.Lock()
    spies = []
    for c in clubs:                                               # each club's login asks for everything
        spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"{c}-spy")
        spy.username_pw_set(c, passwords[c])

        def on_message(client: Any, userdata: Any, msg: Any, _c: str = c) -> None:
            with lock:
                seen[_c][msg.topic] = json.loads(msg.payload)

        spy.on_message = on_message
        spy.on_connect = lambda client, *_: client.subscribe("#", qos=1)   # again after any reconnect
        spy.connect("127.0.0.1", fed.port)
        spy.loop_start()
        spies.append(spy)
    service = FederationService(event, "127.0.0.1", fed.port, "pw-fed").start()
    uplinks: list[ClubUplink] = []
    try:
        # the records reach each club over its bridge, checked against the commitment announced
        got = {c: fetch_records(topics, c, "127.0.0.1", club_brokers[c].port, "uplink", "up",
                                commitment=commitment(boards), timeout=30) for c in clubs}
        assert all(g.boards == tuple(boards) for g in got.values())
        # each club's session plays them; c1's tables find a fouled board
        played = {}
        for k, c in enumerate(clubs):
            demo = DuplicateDemo(tmp_path / f"s-{c}", 3, 3, "mitchell", seed=20 + k, analyse=False,
                                 records=got[c].boards, foul=1 if c == "c1" else 0)
            result = demo.run(timeout=240)
            assert not result.problems
            if c == "c1":
                assert result.found                               # the tables caught the foul
            played[c] = tmp_path / f"s-{c}" / "session" / "session.sqlite3"
            rows = read_session(played[c])
            assert rows[0]["setup"]["commitment"] == commitment(boards)   # the federation's records, played
        msgs = {c: club_messages(c, read_session(played[c])) for c in clubs}
        assert any(m["op"] == "line" and m["line"]["group"] != "A" for m in msgs["c1"])
        limit = {"c1": len(msgs["c1"]), "c2": 1}                  # c2 has sent only its entry so far
        for c in clubs:
            uplinks.append(ClubUplink(c, topics, lambda _c=c: msgs[_c][:limit[_c]], "127.0.0.1",
                                      club_brokers[c].port, "uplink", "up", resend=0.5, poll=0.1).start())
        board_topics = {c: {topics.board(c, b) for b in (1, 2, 3)} for c in clubs}
        _wait(lambda: board_topics["c1"] <= set(seen["c1"]))     # c1 finished every board: it sees them
        _wait(lambda: service.state.ledger.state() == {"c1": len(msgs["c1"]), "c2": 1})
        _wait(lambda: topics.field("c2") in seen["c2"] and topics.standings in seen["c2"])
        time.sleep(1.0)                                           # views after the last message went out
        with lock:
            early = dict(seen["c2"])
            mine = dict(seen["c1"])
        # c2, asking for everything, got nothing of the field: no board, no other club's topic, no ranking
        assert not [t for t in early if "/in/board/" in t or "/club/c1/" in t]
        assert early[topics.field("c2")] == {"boards": [], "rankings": {}}
        assert early[topics.standings]["boards"] == [] and early[topics.standings]["leaders"] == {}
        early[topics.standings].pop("taken")                      # how many messages each club sent, no more
        assert early.pop(topics.records("c2"))["commitment"] == commitment(boards)   # its own, to play
        assert set(early) <= {topics.answer("c2"), topics.field("c2"), topics.standings}
        assert '"c1' not in json.dumps(early)
        # c1 sees each board: the deal, the field's frequency, its own lines; the fouled board by group
        one = mine[topics.board("c1", 1)]
        assert one["deal"]["deal"] == boards[0].deal.pbn()
        assert sum(r["count"] for r in one["frequency"]) == one["results"] == 3
        groups = {r["group"] for b in (1, 2, 3) for r in mine[topics.board("c1", b)]["frequency"]}
        assert any(g.startswith("c1/") for g in groups) and "A" in groups
        limit["c2"] = len(msgs["c2"])                             # c2 plays on and finishes
        _wait(lambda: board_topics["c2"] <= set(seen["c2"]))
        _wait(lambda: service.last_view["boards"] == [1, 2, 3])
        with lock:
            late = seen["c2"][topics.board("c2", 2)]
            c2_boards = [seen["c2"][topics.board("c2", b)] for b in (1, 2, 3)]
        assert late["results"] == 6 and {ln["ns"] for ln in late["mine"]} == {1, 2, 3}
        # c1's fouled deal is c1's own: c2 gets group A of every board, nothing naming c1
        assert {r["group"] for b in c2_boards for r in b["frequency"]} == {"A"}
        assert '"c1' not in json.dumps(c2_boards) and "c1/" not in json.dumps(c2_boards)
        # the director closes the event while the service runs: it closes, publishes, writes the files
        assert close_event(event) == "closed by serve"
        _wait(lambda: service.last_view["closed"] and len(service.final_files) == 2)
    finally:
        for u in uplinks:
            u.stop()
        service.stop()
        for spy in spies:
            stop_loop(spy)
            spy.disconnect()
        for b in club_brokers.values():
            b.stop()
        fed.stop()
    journal, state = open_event(event)
    journal.close()
    assert state.closed and not (event / "close.request").exists()
    for fmt, name in FINAL.items():
        assert (event / name).read_bytes() == export(event, fmt, boards, "the kept records")
