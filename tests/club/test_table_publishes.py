"""A real table built from its config publishes to the club's broker and obeys the dashboard's ack."""

from __future__ import annotations

import json
import random
from pathlib import Path

from firmware_host.config import load_config
from firmware_host.live import build_table
from firmware_host.table.controller import LawInput
from laws.cards import Seat
from tests.club.conftest import PASSWORDS, Watcher
from tests.laws.streams import E, prelude


def test_table_with_mqtt_publishes_rulings_and_clears_lamps_on_ack(tmp_path: Path, broker, watcher: Watcher) -> None:  # type: ignore[no-untyped-def]
    pw = tmp_path / "pw"
    pw.write_text(PASSWORDS["t1"] + "\n")
    cfg_text = (f'[table]\nid = "t1"\ngame = "contract-bridge"\ndata_dir = "{tmp_path / "data"}"\n'
                '[shoe]\ndriver = "none"\n[camera]\nsource = "none"\n[pins]\nfactory = "mock"\n'
                f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\nusername = "t1"\npassword_file = "{pw}"\n')
    (tmp_path / "t.toml").write_text(cfg_text)
    table = build_table(load_config(tmp_path / "t.toml", env={}))
    try:
        ctl = table.ctl
        ctl.engine.state.next_dealer = Seat.N
        for e in [*prelude(Seat.N), E("deal_start", dealer="N", pack="R1"),
                  E("card_dealt", seat="E", card="AS", face_up=True)]:
            ctl.process(LawInput(e, "shoe"))
        assert ctl.lamps["redeal"]
        assert watcher.wait_for(lambda msgs: any(b"CB-redeal-faced" in p for _, p in msgs))
        # no card identity went out in events, rulings or status (the voided deal's cards may be
        # released only by its `deal` message)
        assert not any(b'"AS"' in p for t, p in watcher.messages if not t.endswith("/deal"))
        # the director acknowledges on the dashboard: the command reaches the table through the broker
        watcher.client.publish("cardtable/t1/command/ack", json.dumps(
            {"table": "t1", "by": "director", "seq": ctl.seq, "t": 0, "id": "x1"}), qos=1)
        for _ in range(200):
            ctl.drain()
            if not ctl.lamps["redeal"]:
                break
            watcher.wait_for(lambda msgs: False, timeout=0.05)
        assert not ctl.lamps["redeal"]
        # the next deal is played out; the director enters its result on the dashboard, and the same
        # command delivered twice scores once
        from tests.laws.streams import BRIDGE_PACK, bridge_deal, shuffled
        for e in [*prelude(Seat.N)[-3:], *bridge_deal(Seat.N, shuffled(BRIDGE_PACK, random.Random(2)))]:
            ctl.process(LawInput(e, "shoe"))
        command = json.dumps({"table": "t1", "by": "director", "t": 0, "id": "r1",
                              "result": {"declarer": "N", "contract": "4S", "tricks": 10}})
        watcher.client.publish("cardtable/t1/command/result", command, qos=1)
        watcher.client.publish("cardtable/t1/command/result", command, qos=1)
        for _ in range(200):
            ctl.drain()
            if any(b"made 4" in p for _, p in watcher.messages):
                break
            watcher.wait_for(lambda msgs: False, timeout=0.05)
        scores = [json.loads(p) for t, p in watcher.messages if t.endswith("/ruling") and b'"score"' in p]
        assert [s["body"]["contract"] for s in scores] == ["4S"]
        assert scores[0]["body"]["reason"] == "North made 4\u2660: 120 below."
    finally:
        table.stop()


def test_a_restarted_table_tells_its_status_as_restored_before_anything_happens(tmp_path: Path) -> None:
    """Found restarting a real ``cardtable run`` that waited for its hand's result: it sent `online`, its
    packs and heartbeats, but no status until the next input, so the broker's retained status (and the
    director's page) stayed the one it left before the stop (a journal fault lit then, another journal's
    phase after a card was replaced). The status as restored is queued at start, sent on connecting."""
    pw = tmp_path / "pw"
    pw.write_text("x\n")
    (tmp_path / "t.toml").write_text(
        f'[table]\nid = "t1"\ngame = "contract-bridge"\ndata_dir = "{tmp_path / "data"}"\n'
        '[shoe]\ndriver = "none"\n[camera]\nsource = "none"\n[pins]\nfactory = "mock"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = 9\nusername = "t1"\npassword_file = "{pw}"\n')
    cfg = load_config(tmp_path / "t.toml", env={})
    table = build_table(cfg)
    try:
        ctl = table.ctl
        ctl.engine.state.next_dealer = Seat.N
        for e in prelude(Seat.N):
            ctl.process(LawInput(e, "shoe"))
        phase = ctl.snapshot()["phase"]
    finally:
        table.stop()
    again = build_table(cfg)   # the restart: nothing has happened yet
    try:
        assert again.publisher is not None
        text = again.publisher.delivery.status_text()
        assert text is not None, "no status to send on connecting"
        body = json.loads(text)["body"]
        assert body["phase"] == phase and body["seq"] == again.ctl.seq
    finally:
        again.stop()


def test_a_table_stopped_on_purpose_is_offline_on_the_club(tmp_path: Path, broker, watcher: Watcher) -> None:  # type: ignore[no-untyped-def]
    """Found stopping a real ``cardtable run`` with SIGTERM (as systemd does): the broker publishes the
    table's will (`online` false) only when a table vanishes, not when it disconnects cleanly, so the
    director's page showed a stopped table online and its commands pending as if it would take them now,
    not "table away: it gets it on return". The table disconnects asking the broker for its will."""
    pw = tmp_path / "pw"
    pw.write_text(PASSWORDS["t1"] + "\n")
    (tmp_path / "t.toml").write_text(
        f'[table]\nid = "t1"\ngame = "contract-bridge"\ndata_dir = "{tmp_path / "data"}"\n'
        '[shoe]\ndriver = "none"\n[camera]\nsource = "none"\n[pins]\nfactory = "mock"\n'
        f'[mqtt]\nhost = "127.0.0.1"\nport = {broker.port}\nusername = "t1"\npassword_file = "{pw}"\n')
    table = build_table(load_config(tmp_path / "t.toml", env={}))

    def online(msgs: list[tuple[str, bytes]]) -> list[bool]:
        return [json.loads(p)["online"] for t, p in msgs if t == "cardtable/t1/online"]

    try:
        assert watcher.wait_for(lambda msgs: online(msgs) == [True])
    finally:
        table.stop()
    assert watcher.wait_for(lambda msgs: online(msgs) == [True, False]), online(watcher.messages)
