"""Euchre broadcast the same way: a euchre table (the example hands through the real law engine, a real
journal and a real ``MqttPublisher``) on a real Mosquitto, the broadcast service releasing each hand,
a spectator's login judged against the journal, each hand's JSON record, and the page in headless
Chromium (screenshot at 390 px, looked at)."""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.bench.broadcast_run import Listener
from firmware_host.broadcast.audit import committed, judge
from firmware_host.broadcast.live import Releaser
from firmware_host.broadcast.page import SpectatorPage, serve
from firmware_host.broadcast.service import BroadcastService
from firmware_host.club.broker import LocalBroker, free_port
from firmware_host.club.simclub import SimTable, load_scenario
from firmware_host.config import MqttConfig
from firmware_host.records.journal import Journal
from firmware_host.tablelink.publisher import MqttPublisher
from laws.broadcast.euchre import EuchreFeed
from laws.broadcast.release import Release, Rule
from laws.cards import Seat
from tests.browser import missing

DATA = Path(__file__).resolve().parent.parent / "data" / "euchre-hands.jsonl"
USERS = {"broadcast": "b-pw", "spectator": "s-pw", "watch": "w-pw", "table-01": "t-pw"}
pytestmark = pytest.mark.skipif(shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists(),
                                reason="mosquitto is not installed (`make test` installs it)")


def _evening(tmp: Path, release: Release, *, page: bool = False, pace: float = 0.0,
             names: Any = None) -> dict[str, object]:
    out: dict[str, object] = {}
    with LocalBroker(tmp / "broker", USERS, spectators=("spectator", "watch")) as broker:
        watch = Listener(broker.port, "watch", "w-pw", "watch")
        assert watch.connected.wait(10) and not watch.refused
        releaser = Releaser(release, {"table-01": 1}, {}, games={"table-01": "euchre"}, records_dir=tmp / "euchre",
                            euchre_names=names)
        service = BroadcastService(releaser, "127.0.0.1", broker.port, "b-pw")
        service.start()
        assert service.connected.wait(10)
        driver = server = th = None
        if page:
            sp = SpectatorPage("127.0.0.1", broker.port, "s-pw", title="Euchre night")
            http = free_port()
            server = serve(sp, "127.0.0.1", http)
            th = threading.Thread(target=server.run, daemon=True)
            th.start()
            while not server.started:
                time.sleep(0.02)
            assert sp.connected.wait(10)
            from tests.browser import chromium
            driver = chromium(str(tmp / "chromium"))
            driver.set_window_size(390, 844)
            driver.get(f"http://127.0.0.1:{http}/")
        journal = Journal.open(tmp / "table-01", synchronous="NORMAL")
        pub = MqttPublisher(MqttConfig(host="127.0.0.1", port=broker.port), "table-01", journal, password="t-pw")
        pub.start()
        assert pub.connected_event.wait(10)
        table = SimTable("table-01", journal, pub, [load_scenario(DATA)])
        events = len(load_scenario(DATA))
        for k in range(events):
            table.step()
            if pace:
                time.sleep(pace)
            if driver is not None and k == events * 2 // 3:   # mid-evening, mid-hand
                time.sleep(0.5)
                driver.save_screenshot(str(tmp / "euchre-390.png"))
                out["dom"] = driver.find_element("css selector", "#one").text
                out["seats"] = " ".join(driver.find_element("css selector", f"#h{x}").text for x in "NESW")
        deadline = time.monotonic() + 20
        while (pub.pending() or len(releaser.done) < 6) and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(max(1.0, release.delay + 0.5))
        pub.stop()
        journal.close()
        if driver is not None:
            out["shown"] = driver.execute_script("return window.shown")
            driver.quit()
        if server is not None and th is not None:
            server.should_exit = True
            th.join(5)
        service.stop()
        watch.close()
        out["arrivals"] = watch.arrivals
        out["releaser"] = releaser
        out["journal"] = tmp / "table-01" / "journal.sqlite3"
    return out


@pytest.mark.parametrize("rule", [Release(Rule.AFTER_FIELD), Release(Rule.DELAY, 0.3)], ids=["after-hand", "delay"])
def test_euchre_hands_are_released_by_the_rule(tmp_path: Path, rule: Release) -> None:
    got = _evening(tmp_path, rule)
    facts = committed([got["journal"]], euchre=[1])  # type: ignore[list-item]
    v = judge(got["arrivals"], facts, rule, {}, euchre=[1])  # type: ignore[arg-type]
    assert v.early == [] and v.differ == [] and v.foreign == []
    assert v.shown == len(facts.items) and v.cards == 115
    hands = {b for _t, b, _i in facts.items}
    assert hands == {1, 2, 3, 4, 5, 6}
    # each hand's JSON record is the last message released for it, whole
    for h in hands:
        rec = json.loads((tmp_path / "euchre" / f"table-01-hand-{h:03d}.json").read_text())
        assert rec["game"] == "euchre" and rec["finished"] and rec["summary"]["result"] is not None
        assert [i["index"] for i in rec["items"]] == list(range(len(rec["items"])))
        assert rec["items"][1]["kind"] == "hands" and all(len(c) == 5 for c in rec["items"][1]["hands"].values())


def test_a_euchre_night_s_players_are_named_on_the_broadcast_as_the_night_seats_them(tmp_path: Path) -> None:
    from firmware_host.broadcast.euchre_names import NightNames
    from firmware_host.euchre_night.session import NightSession
    from laws.euchre_night.night import Format, NightSetup, Player
    from tests.euchre_night.test_session import hand, message

    roster = ("Ann Lee", "Bob Ray", "Cy Dunn", "Di Fox", "Ed Hall", "Flo Kim", "Gus Orr", "Hal Poe")
    setup = NightSetup("Thursday euchre", tuple(Player(i, n) for i, n in enumerate(roster, 1)), Format.PROGRESSIVE,
                       2, 1, ("table-01", "table-02"))
    night = NightSession.create(tmp_path / "night", setup)
    names = NightNames(tmp_path / "night")
    try:
        got = _evening(tmp_path, Release(Rule.AFTER_FIELD), names=names.seats)
        for h in range(1, 7):     # every hand at table 1 in round 1: its players, North first
            rec = json.loads((tmp_path / "euchre" / f"table-01-hand-{h:03d}.json").read_text())
            assert rec["items"][0]["kind"] == "deal"
            assert rec["items"][0]["names"] == {"N": "Ann Lee", "S": "Bob Ray", "E": "Cy Dunn", "W": "Di Fox"}
        facts = committed([got["journal"]], euchre=[1])  # type: ignore[list-item]
        v = judge(got["arrivals"], facts, Release(Rule.AFTER_FIELD), {}, euchre=[1])  # type: ignore[arg-type]
        assert v.differ == [] and v.early == []       # the names change nothing the tables committed
        n = night.night
        night.take([message(hand(n, 1, 1, tricks=5), 1), message(hand(n, 2, 1, makers="EW", tricks=5), 2)])
        assert n.current == 2
        north = n.round(2).tables[0][0]
        assert night.substitute(north, "Ivy Quinn", "", 2, "Ann left early", "director") == ""
        seats = names.seats(1)                        # the night's journal read again: round 2, the substitute
        assert seats[Seat.N] == "Ivy Quinn" and seats[Seat.S] == roster[n.round(2).tables[0][1] - 1]
        assert names.seats(3) == {}
    finally:
        names.close()
        night.close()


def test_the_euchre_fold_reads_the_example_hands() -> None:
    feed = EuchreFeed(4)
    rows = [(k, "event", ev, float(k)) for k, ev in enumerate(load_scenario(DATA), 1)]
    items = feed.add_all(rows)
    assert len(feed.hands) == 6 and all(h.finished for h in feed.hands)
    first = feed.hands[0]
    assert first.dealer == "N" and first.hands["E"] == ["TS", "TH", "AC", "8S", "KD"]
    assert sum(1 for i in items if i.kind == "card") == 115
    # the tricks each side won, from the cards and trump alone, agree with the table's result
    for h in feed.hands:
        won = h.won()
        makers = h.makers or ("NS" if h.maker in ("N", "S") else "EW")
        assert won[makers] == h.tricks, (h.board, won, h.tricks, makers)


@pytest.mark.skipif(bool(missing()), reason=missing() or "chromium is here")
def test_the_euchre_page(tmp_path: Path) -> None:
    seated = {Seat.N: "Ann Lee", Seat.S: "Bob Ray", Seat.E: "Cy Dunn", Seat.W: "Di Fox"}   # as NightNames gives them
    got = _evening(tmp_path, Release(Rule.DELAY, 0.1), page=True, pace=0.01, names=lambda k: seated)
    assert "Hand" in str(got["dom"])
    assert "Ann Lee" in str(got["seats"]) and "Di Fox" in str(got["seats"])   # the players named on the page
    shown = got["shown"]
    assert isinstance(shown, dict) and len(shown) > 100
    assert (tmp_path / "euchre-390.png").stat().st_size > 10_000
