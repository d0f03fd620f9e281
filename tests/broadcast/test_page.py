"""The spectators' page: live in headless Chromium through a real session (screenshots at 390, 800 and
1920 px, looked at by the author and kept under the test's folder), every item it showed released and
equal to the journals; a private event's password; nothing but released topics ever reach it."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from firmware_host.bench.broadcast_run import LiveRun
from firmware_host.broadcast.audit import committed, judge
from firmware_host.broadcast.page import SpectatorPage, serve
from firmware_host.club.broker import LocalBroker, free_port

if TYPE_CHECKING:   # httpx is a test dependency: the Pi's hardware venv (SETUP step 6) must still collect this file
    import httpx
from firmware_host.wire.subscribed import stop_loop
from laws.broadcast.release import Release, Rule
from tests.browser import missing

NEEDS = shutil.which("mosquitto") is None and not Path("/usr/sbin/mosquitto").exists()
pytestmark = pytest.mark.skipif(NEEDS, reason="mosquitto is not installed (`make test` installs it)")


@pytest.mark.skipif(bool(missing()), reason=missing() or "chromium is here")
def test_the_page_live_in_chromium(tmp_path: Path) -> None:
    release = Release(Rule.DELAY, 0.2)
    live = LiveRun(tmp_path / "session", release, page=True, browsers=1, shots=(390, 800, 1920), shots_after=90,
                   pace=0.03,
                   private="quiet-club-7")
    res = live.run(timeout=240)
    facts = committed(res.journals)
    assert res.shown and res.shown[0], "the page showed nothing"
    shown = res.shown[0]
    # every item the page showed was released to the spectator login by then, and is the journal's
    v = judge(res.arrivals["spectator"], facts, release, res.plays)
    assert v.early == [] and v.differ == []
    for key, ms in shown.items():
        t, b, i = (int(x) for x in key.split("/"))
        assert (t, b, i) in facts.items, key
        assert ms / 1000 >= facts.items[(t, b, i)].t + release.delay - 0.05, f"{key} shown too soon"
    assert len(shown) == len(facts.items)    # and, in the end, everything
    assert set(res.shots) == {390, 800, 1920} and all(p.stat().st_size > 10_000 for p in res.shots.values())
    assert live.result_extra["scroll"][390] <= 0, "sideways scroll on a phone"


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[LocalBroker]:
    b = LocalBroker(tmp_path / "broker", {"spectator": "s-pw", "broadcast": "b-pw"})
    b.start()
    yield b
    b.stop()


@pytest.fixture
def page(broker: LocalBroker) -> Iterator[tuple[SpectatorPage, str]]:
    p = SpectatorPage("127.0.0.1", broker.port, "s-pw", title="Private <b>club</b>", password="quiet-club-7")
    port = free_port()
    server = serve(p, "127.0.0.1", port)
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    while not server.started:
        time.sleep(0.02)
    assert p.connected.wait(10)
    yield p, f"http://127.0.0.1:{port}"
    server.should_exit = True
    th.join(5)


def test_the_broadcast_clears_at_its_start_what_an_earlier_run_left_and_its_rule_does_not_release(
        broker: LocalBroker) -> None:
    """Restarted under after-field after a run under delay (or next week on the same broker), the earlier
    run's retained board, hands and all, stayed on the spectators' page. The service now reads the spectate
    tree at its start and clears (an empty retained message) what its rule does not release this session."""
    import paho.mqtt.client as mqtt

    from firmware_host.broadcast.live import Releaser
    from firmware_host.broadcast.service import BroadcastService

    def board(t: int, session: str, rule: str, delay: float) -> tuple[str, str]:
        body = {"game": "bridge", "table": t, "board": 1, "room": "o", "items": [{"kind": "board", "hands": {}}],
                "release": {"session": session, "rule": rule, "delay": delay}, "finished": False, "summary": {}}
        return f"cardtable/spectate/table/{t}/board/1", json.dumps(body)

    earlier = [board(1, "this", "delay", 2.0), board(2, "last-week", "after-field", 0.0),
               board(3, "this", "after-field", 0.0)]
    pub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="earlier-run", protocol=mqtt.MQTTv5)
    pub.username_pw_set("broadcast", "b-pw")
    pub.connect("127.0.0.1", broker.port)
    pub.loop_start()
    for topic, payload in earlier:
        pub.publish(topic, payload, qos=1, retain=True).wait_for_publish(10)
    pub.disconnect()
    stop_loop(pub)
    from starlette.testclient import TestClient

    page = SpectatorPage("127.0.0.1", broker.port, "s-pw", client_id="page-before")
    with TestClient(page.app):
        deadline = time.monotonic() + 20
        while len(page.latest) < 3:                        # the page, up first, holds the three
            assert time.monotonic() < deadline, sorted(page.latest)
            time.sleep(0.05)
        releaser = Releaser(Release(Rule.AFTER_FIELD), {"table-01": 1, "table-02": 2, "table-03": 3},
                            {1: frozenset({1, 2, 3})}, session="this")
        service = BroadcastService(releaser, "127.0.0.1", broker.port, "b-pw")
        service.start()
        try:
            while service.cleared < 2 or len(page.latest) != 2:   # board 3 and the event's are left
                assert time.monotonic() < deadline, (service.cleared, sorted(page.latest))
                time.sleep(0.05)
        finally:
            service.stop()
        assert sorted(page.latest) == ["cardtable/spectate/event", "cardtable/spectate/table/3/board/1"]
    got: dict[str, bytes] = {}
    acks: list[int] = []
    spy = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="spy", protocol=mqtt.MQTTv5)
    spy.username_pw_set("spectator", "s-pw")
    spy.on_message = lambda c, u, m: got.__setitem__(m.topic, m.payload) if m.retain else None
    spy.on_connect = lambda c, u, f, rc, p: c.subscribe("cardtable/spectate/#", qos=1)
    # a second subscription's answer comes after every retained message of the first (the broker's order)
    spy.on_subscribe = lambda c, u, mid, rc, p: (acks.append(mid), len(acks) == 1 and c.subscribe(
        "cardtable/spectate/nothing", qos=1))
    spy.connect("127.0.0.1", broker.port)
    spy.loop_start()
    deadline = time.monotonic() + 10
    while len(acks) < 2:
        assert time.monotonic() < deadline, "the spy's subscriptions were not answered"
        time.sleep(0.05)
    spy.disconnect()
    stop_loop(spy)
    assert sorted(t for t in got if "/board/" in t) == ["cardtable/spectate/table/3/board/1"], sorted(got)
    assert service.cleared == 2


def _first_event(client: httpx.Client, url: str) -> str:
    with client.stream("GET", url + "/events") as r:
        assert r.status_code == 200
        for line in r.iter_lines():
            if line.startswith("data:"):
                return line
    return ""


def test_guessing_the_spectator_password_is_throttled_like_the_director_s_login(broker: LocalBroker) -> None:
    """300 guesses took 0.2 s, every one answered. Now, as the director's login (docs/mqtt.md): three free
    failures from an address, then it waits 1, 2, 4 ... s (429, Retry-After) before a guess is even
    checked, the right password included; the right one clears the count."""
    from starlette.testclient import TestClient

    clock = [1000.0]
    p = SpectatorPage("127.0.0.1", broker.port, "s-pw", password="quiet-club-7", clock=lambda: clock[0])
    with TestClient(p.app, follow_redirects=False) as c:
        for i in range(3):
            r = c.post("/login", data={"password": f"guess{i}"})
            assert r.status_code == 303 and r.headers["location"] == "/?wrong"
        r = c.post("/login", data={"password": "guess3"})
        assert r.status_code == 303                      # the fourth is checked, and sets the first wait
        r = c.post("/login", data={"password": "quiet-club-7"})
        assert r.status_code == 429 and r.headers["retry-after"] == "1" and "set-cookie" not in r.headers
        assert "Too many attempts: try again in 1 s." in r.text and 'type="password"' in r.text
        clock[0] += 1.0
        r = c.post("/login", data={"password": "guess4"})
        assert r.status_code == 303 and r.headers["location"] == "/?wrong"
        assert c.post("/login", data={"password": "quiet-club-7"}).headers["retry-after"] == "2"
        clock[0] += 2.0
        r = c.post("/login", data={"password": "quiet-club-7"})
        assert r.status_code == 303 and "set-cookie" in r.headers
        assert c.post("/login", data={"password": "guess5"}).status_code == 303    # cleared: free again


def test_a_private_event_needs_the_spectator_password(page: tuple[SpectatorPage, Any], broker: LocalBroker) -> None:
    p, url = page
    import httpx

    with httpx.Client(follow_redirects=False, timeout=10) as c:
        r = c.get(url + "/")
        assert r.status_code == 200 and 'type="password"' in r.text and "<b>club</b>" not in r.text
        assert c.get(url + "/events").status_code == 401
        r = c.post(url + "/login", data={"password": "guess"})
        assert r.status_code == 303 and r.headers["location"] == "/?wrong" and "set-cookie" not in r.headers
        r = c.post(url + "/login", data={"password": "quiet-club-7"})
        assert r.status_code == 303 and "httponly" in r.headers["set-cookie"].lower()
        assert "/spectate.js" in c.get(url + "/").text
        # what the broadcast publishes reaches the page; what it cannot read never does
        import paho.mqtt.client as mqtt
        pub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="b")
        pub.username_pw_set("broadcast", "b-pw")
        pub.connect("127.0.0.1", broker.port)
        pub.loop_start()
        pub.publish("cardtable/spectate/table/1/board/1", '{"table":1,"board":1,"items":[]}', qos=1,
                    retain=True).wait_for_publish(5)
        deadline = time.monotonic() + 10
        while "cardtable/spectate/table/1/board/1" not in p.latest and time.monotonic() < deadline:
            time.sleep(0.02)
        first = _first_event(c, url)
        assert '"boards":[{"table":1,"board":1,"items":[]}]' in first
        stop_loop(pub)


def test_the_page_sends_a_browser_only_the_new_items() -> None:
    from firmware_host.broadcast.page import _delta

    one = {"table": 1, "board": 2, "finished": False, "items": [{"index": 0}]}
    two = {"table": 1, "board": 2, "finished": True, "items": [{"index": 0}, {"index": 1}]}
    assert _delta(None, one) == {"type": "board", "body": one}
    assert _delta(one, two) == {"type": "items", "body": {"table": 1, "board": 2, "finished": True, "from": 1,
                                                          "items": [{"index": 1}]}}
    again = {"table": 1, "board": 2, "finished": False, "items": [{"index": 0, "kind": "board"}]}
    assert _delta(two, again)["type"] == "board"      # played again: sent whole


def test_a_browser_never_gets_an_update_its_snapshot_holds() -> None:
    """The snapshot and the batches are made on the one event loop: what was pending when a browser
    came goes to the others first, and the new browser's next batch starts after its snapshot."""
    import asyncio
    import json as _json

    page = SpectatorPage("127.0.0.1", 1, "unused", title="t")
    topic = "cardtable/spectate/table/1/board/1"

    class Request:
        cookies: dict[str, str] = {}

    async def run() -> tuple[dict[str, object], dict[str, object]]:
        page._loop = asyncio.get_running_loop()
        page._take(topic, {"table": 1, "board": 1, "items": [{"index": 0}]})          # pending, not yet sent
        response = await page.events(Request())
        page._take(topic, {"table": 1, "board": 1, "items": [{"index": 0}, {"index": 1}]})
        page._flush()
        it = response.body_iterator
        first, second = await it.__anext__(), await it.__anext__()
        await it.aclose()
        return (_json.loads(bytes(first).decode()[len("data: "):]), _json.loads(bytes(second).decode()[len("data: "):]))

    snapshot, batch = asyncio.run(run())
    assert snapshot["type"] == "snapshot" and snapshot["boards"] == [{"table": 1, "board": 1, "items": [{"index": 0}]}]
    assert batch == {"type": "batch", "messages": [{"type": "items", "body": {"table": 1, "board": 1, "from": 1,
                                                                                "items": [{"index": 1}]}}]}


def test_a_spectator_cookie_of_any_bytes_is_not_let_in_and_never_a_server_error(monkeypatch: Any) -> None:
    """A private event's cookie of other bytes (``ct_spectator=\\xc3\\xa9x``) was a 500 on ``/`` and
    ``/events`` once anyone had logged in (``compare_digest`` refuses a str with a non-ASCII character).
    Now it is a browser without the password, as a device cookie of other bytes is on the director's
    login; a cookie ends with the evening (12 hours) on the server too, and a script logging in again and
    again keeps at most ``COOKIES_MOST`` cookies (the set grew without end, each compared in turn)."""
    from starlette.testclient import TestClient

    from firmware_host.broadcast import page as page_module

    clock = [1000.0]
    p = SpectatorPage("127.0.0.1", 1, "unused", password="quiet-club-7", clock=lambda: clock[0])
    ok = TestClient(p.app, follow_redirects=False, raise_server_exceptions=False)
    assert ok.post("/login", data={"password": "quiet-club-7"}).status_code == 303
    odd = TestClient(p.app, follow_redirects=False, raise_server_exceptions=False)
    for raw in (b"ct_spectator=\xc3\xa9x", b"ct_spectator=\xff", b"ct_spectator="):
        r = odd.get("/events", headers={"Cookie": raw})
        assert r.status_code == 401, (raw, r.status_code)
        r = odd.get("/", headers={"Cookie": raw})
        assert r.status_code == 200 and 'type="password"' in r.text, raw
    cookie = ok.cookies.get("ct_spectator")
    assert cookie and p._allowed(type("R", (), {"cookies": {"ct_spectator": cookie}})())
    clock[0] += page_module.COOKIE_SECONDS
    assert not p._allowed(type("R", (), {"cookies": {"ct_spectator": cookie}})())    # the evening is over

    monkeypatch.setattr(page_module, "COOKIES_MOST", 5)
    flood = TestClient(p.app, follow_redirects=False, raise_server_exceptions=False)
    for _ in range(40):
        flood.cookies.clear()
        assert flood.post("/login", data={"password": "quiet-club-7"}).status_code == 303
    assert len(p._tokens) == 5


@pytest.mark.skipif(bool(missing()), reason=missing() or "chromium is here")
def test_the_page_passes_axe_with_no_trick_on_the_table(broker: LocalBroker, tmp_path: Path) -> None:
    """The trick's box is a plain ``div`` with an ``aria-label``: axe's ``aria-prohibited-attr``
    (serious) while it is empty, that is the page every spectator first sees under ``after-field``
    (nothing released yet), a board still in its auction and a passed-out board."""
    import paho.mqtt.client as mqtt

    from tests.browser import chromium

    axe = Path(__file__).resolve().parents[2] / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
    if not axe.exists():
        pytest.fail(f"{axe} is missing: `make test` installs axe-core from npm")
    page = SpectatorPage("127.0.0.1", broker.port, "s-pw", title="Club night", client_id="page-axe")
    port = free_port()
    server = serve(page, "127.0.0.1", port)
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    driver = None
    try:
        while not server.started:
            time.sleep(0.02)
        assert page.connected.wait(10)
        driver = chromium(str(tmp_path / "profile"))
        driver.set_window_size(390, 900)

        def violations() -> list[Any]:
            driver.execute_script(axe.read_text(encoding="utf-8"))
            return list(driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map("
                "(v) => [v.id, v.impact, v.nodes.map((n) => n.target.join(' '))])));"))

        driver.get(f"http://127.0.0.1:{port}/")
        deadline = time.monotonic() + 20    # a bound on a hang: the stream's first message says "Live"
        while driver.find_element("id", "conn").text != "Live":
            assert time.monotonic() < deadline, "the page never connected"
            time.sleep(0.05)
        assert violations() == []                           # nothing released yet
        board = {"game": "bridge", "table": 1, "board": 1, "room": "o", "finished": False,
                 "release": {"session": "s", "rule": "delay", "delay": 1.0},
                 "summary": {"contract": None, "declarer": None, "tricks": {"NS": 0, "EW": 0}, "cards": 0,
                             "score": None},
                 "items": [{"kind": "board", "table": 1, "board": 1, "index": 0, "section": "A", "round": 1,
                            "ns": "1 NS", "ew": "1 EW", "dealer": "N", "vulnerable": "None",
                            "hands": {"N": "AKQJ.T98.765.432", "E": "T98.765.432.AKQJ",
                                      "S": "765.432.AKQJ.T98", "W": "432.AKQJ.T98.765"}},
                           {"kind": "call", "table": 1, "board": 1, "index": 1, "seat": "N", "call": "pass"}]}
        pub = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id="b")
        pub.username_pw_set("broadcast", "b-pw")
        pub.connect("127.0.0.1", broker.port)
        pub.loop_start()
        pub.publish("cardtable/spectate/table/1/board/1", json.dumps(board), qos=1, retain=True).wait_for_publish(5)
        pub.loop_stop()
        pub.disconnect()
        while "Board 1" not in driver.find_element("id", "one").text:
            assert time.monotonic() < deadline, "the board never came"
            time.sleep(0.05)
        assert violations() == []                           # a board in its auction: no card on the table
    finally:
        if driver is not None:
            driver.quit()
        server.should_exit = True
        th.join(5)


@pytest.mark.skipif(bool(missing()), reason=missing() or "chromium is here")
def test_a_private_event_s_password_form_passes_axe(page: tuple[SpectatorPage, str], tmp_path: Path) -> None:
    """The form a private event's spectator first sees had no ``main`` landmark: axe's
    ``landmark-one-main`` and ``region`` (its heading, sentence and field outside any landmark), on the
    form and after a wrong password (a throttled guess gets the same form)."""
    from tests.browser import chromium

    _p, url = page
    axe = Path(__file__).resolve().parents[2] / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
    if not axe.exists():
        pytest.fail(f"{axe} is missing: `make test` installs axe-core from npm")
    driver = chromium(str(tmp_path / "profile"))
    try:
        driver.set_window_size(390, 900)
        for where in ("/", "/?wrong"):
            driver.get(url + where)
            assert driver.find_elements("css selector", "input[type=password]")
            driver.execute_script(axe.read_text(encoding="utf-8"))
            found = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map("
                "(v) => [v.id, v.impact, v.nodes.map((n) => n.target.join(' '))])));")
            assert found == [], (where, found)
    finally:
        driver.quit()
