"""A euchre night on the club's director's server (``cardtable club dashboard --euchre``), real Mosquitto
and real headless Chromium: the standings on the director's page (behind the dashboard's login) and on a
table's page (opened with the key its retained seating gives it) change when a table's hand is
committed; the next round's seats are there the moment a round ends; the call goes through the one
guard; a request without a login (or with a wrong key) gets nothing of the night."""

from __future__ import annotations

import json
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.euchre_night.desk import NightDesk
from firmware_host.euchre_night.session import NightSession
from firmware_host.euchre_night.views import hands_export, standings_export
from firmware_host.web.auth import hash_password
from tests.club.conftest import _need
from tests.euchre_night.outsider import rescore
from tests.euchre_night.test_pages import USERS, Table
from tests.euchre_night.test_session import hand, setup

PASSWORD = "table-talk-1"


class Club:
    """Broker, the director's server carrying the night, and the tables' clients."""

    def __init__(self, tmp: Path) -> None:
        from firmware_host.club.dashboard import Dashboard, serve
        from firmware_host.euchre_night.screens import mount

        self.broker = LocalBroker(tmp / "broker", USERS)
        self.broker.start()
        self.session = NightSession.create(tmp / "night", setup())
        self.desk = NightDesk(self.session)
        self.dash = Dashboard("127.0.0.1", self.broker.port, DASHBOARD_USER, USERS[DASHBOARD_USER],
                              {"director": hash_password(PASSWORD)})
        self.screens = mount(self.dash, self.desk)
        self.port = free_port()
        self.server = serve(self.dash, "127.0.0.1", self.port)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the director's server did not start"
            time.sleep(0.05)
        self.t1 = Table(self.broker.port, "table-01")
        self.t2 = Table(self.broker.port, "table-02")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.t1.close()
        self.t2.close()
        self.server.should_exit = True
        self.thread.join(5)
        self.broker.stop()
        self.session.close()


@pytest.fixture
def club(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    c = Club(tmp_path)
    yield c
    c.stop()


def test_without_a_login_nothing_of_the_night(club: Club) -> None:
    import httpx

    page = club.t1.wait(lambda s: s["round"] == 1 and s["page"])["page"]
    assert page.startswith("/euchre/table/table-01?key=")
    key = page.split("key=")[1]
    with httpx.Client(base_url=club.url, timeout=10) as c:
        r = c.get("/euchre", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/login?next=/euchre"
        for path in ("/euchre/events", "/api/euchre/state", "/euchre/standings.json", "/euchre/hands.json",
                     "/euchre/sheet.html"):
            r = c.get(path)
            assert r.status_code == 401 and "P1" not in r.text, path
        for path in ("/euchre/table/table-01", "/euchre/table/table-01?key=wrong",
                     f"/euchre/table/table-02?key={key}",          # table 1's key opens table 1 only
                     "/api/euchre/table/table-01", f"/euchre/table/table-09?key={key}",
                     "/euchre/table/table-01/events?key=" + key[:-1] + "x"):
            r = c.get(path)
            assert r.status_code == 404 and "P1" not in r.text, path
        r = c.post("/api/euchre/call", content=b"{}", headers={"Content-Type": "application/json"})
        assert r.status_code == 401
        assert club.session.night.called == set()
        # the table's own key opens its page and its view: its row only
        assert c.get(page).status_code == 200
        view = c.get(f"/api/euchre/table/table-01?key={key}").json()
        assert [t["table"] for t in view["tables"]] == ["table-01"] and view["standings"]
        # a login: the call through the guard (CSRF token from the page)
        r = c.post("/login", data={"username": "director", "password": PASSWORD}, follow_redirects=False)
        assert r.status_code == 303
        token = c.get("/euchre").text.split('name="csrf-token" content="')[1].split('"')[0]
        assert c.post("/api/euchre/call", content=b"{}").status_code == 403          # no CSRF token
        r = c.post("/api/euchre/call", content=b"{}", headers={"X-CSRF-Token": token})
        assert r.status_code == 200, r.text
        r = c.post("/api/euchre/call", content=b"{}", headers={"X-CSRF-Token": token})
        assert r.status_code == 409 and r.json()["error"] == "round 1 has been called already"
        assert json.loads(c.get("/euchre/standings.json").text)["format"] == "cardtable-euchre-standings/1"
    club.t1.wait(lambda s: s["called"] is True)


def _text(driver: Any, element_id: str) -> str:
    return str(driver.execute_script(
        f"const e = document.getElementById({element_id!r}); return e ? e.textContent : '';"))


def _boxes(driver: Any) -> dict[str, str]:
    """Every box of the director's "Correct a hand" form as it stands: its name and value."""
    return dict(driver.execute_script(
        "return Array.from(document.getElementById('correct').elements).filter(e => e.name)"
        ".map(e => [e.name, e.value]);"))


def test_the_standings_change_on_the_director_s_and_a_table_s_page(club: Club) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from tests.browser import chromium, missing

    if missing():
        pytest.skip(missing())
    n = club.session.night
    page = club.t2.wait(lambda s: s["round"] == 1 and s["page"])["page"]
    with tempfile.TemporaryDirectory() as pa, tempfile.TemporaryDirectory() as pb:
        director, table = chromium(pa), chromium(pb)
        try:
            director.get(club.url + "/euchre")
            assert director.current_url.endswith("/login?next=/euchre")          # the login first
            director.find_element(By.ID, "username").send_keys("director")
            director.find_element(By.ID, "password").send_keys(PASSWORD)
            director.find_element(By.ID, "login").click()
            WebDriverWait(director, 20).until(lambda d: "/login" not in d.current_url)
            director.get(club.url + "/euchre")
            table.get(club.url + page)                               # the table's key, no login
            WebDriverWait(director, 30).until(lambda d: _text(d, "round").startswith("Round 1 of"))
            WebDriverWait(table, 30).until(lambda d: "N: P5" in _text(d, "tables"))
            assert "N: P1" not in _text(table, "tables")
            assert "2.00" not in _text(director, "standings")
            club.t1.send(hand(n, 1, 1, tricks=5), 1)                 # North-South march: 2 points each
            WebDriverWait(director, 30).until(lambda d: "2.00" in _text(d, "standings"))
            WebDriverWait(table, 30).until(lambda d: "2.00" in _text(d, "standings"))
            assert "1/2" in _text(director, "tables")
            club.t1.wait(lambda s: any(a["source"] == "table-01:1" and a["status"] == "taken" for a in s["answers"]))
            club.t1.send(hand(n, 1, 2), 2)                           # round 1's last hands
            club.t2.send(hand(n, 2, 1, makers="EW", tricks=5), 1)
            club.t2.send(hand(n, 2, 2, makers="EW", tricks=4), 2)
            WebDriverWait(director, 30).until(lambda d: _text(d, "round").startswith("Round 2 of"))
            WebDriverWait(table, 30).until(lambda d: _text(d, "round").startswith("Round 2 of"))
            assert "N: P5" in _text(table, "tables")                # the foot's next seats, on the table's phone
            club.t2.wait(lambda s: s["round"] == 2 and s["seats"]["N"]["player"] == 5)
            for field, value in (("c-table", "table-01"), ("c-round", "1"), ("c-hand", "1"), ("c-tricks", "2"),
                                 ("c-why", "")):
                director.find_element(By.ID, field).send_keys(value)
            director.find_element(By.ID, "c-send").click()           # no reason: refused, said on the page
            WebDriverWait(director, 30).until(lambda d: "a correction says why" in _text(d, "c-said"))
            assert _boxes(director)["tricks"] == "2"                  # refused: kept, to be fixed
            director.find_element(By.ID, "c-why").send_keys("the makers took two tricks")
            director.find_element(By.ID, "c-send").click()           # a correction, from the page
            WebDriverWait(director, 30).until(lambda d: _text(d, "c-said") == "corrected")
            assert club.session.night.hands[(1, 1, 1)].body["tricks"] == 2
            # audit m37: taken, the form kept its choices, so the director's next correction changed the same
            # facts again unseen (an audit changed the makers without meaning to); now every box is back to
            # "as taken" (empty), a penalty's side to its first option
            WebDriverWait(director, 30).until(
                lambda d: all(v == "" for k, v in _boxes(d).items() if not k.startswith("pen-side")),
                f"the form kept {_boxes(director)}")
            # the rest of what a correction can change, from the form: hand 2 was North's lone march, on
            # which East-West reneged (law 63: 5 points in a lone hand); nobody is void
            for field, value in (("c-table", "table-01"), ("c-round", "1"), ("c-hand", "2"), ("c-tricks", "5"),
                                 ("c-pen-points-1", "5"),
                                 ("c-why", "North played alone; East reneged")):
                director.find_element(By.ID, field).send_keys(value)
            Select(director.find_element(By.ID, "c-alone")).select_by_value("N")
            Select(director.find_element(By.ID, "c-void")).select_by_value("none")
            Select(director.find_element(By.ID, "c-pen")).select_by_value("below")
            Select(director.find_element(By.ID, "c-pen-clause-1")).select_by_value("EU-63")
            Select(director.find_element(By.ID, "c-pen-side-1")).select_by_value("EW")
            director.find_element(By.ID, "c-send").click()
            WebDriverWait(director, 30).until(lambda d: _text(d, "c-said") == "corrected"
                                              and club.session.night.hands[(1, 1, 2)].body.get("alone") == "N")
            fixed = club.session.night.hands[(1, 1, 2)]
            assert fixed.body["penalties"] == [{"clause": "EU-63", "offending": "EW", "points": 5}]
            assert fixed.body["tricks"] == 5 and fixed.body["void"] == []
            assert fixed.body["corrections"][-1]["was"] == {"tricks": 3, "alone": None, "void": [], "penalties": []}
            assert {s.value: p for s, p in club.session.night.points(fixed).items()} == {"N": 9, "S": 9, "E": 0, "W": 0}
            # journaled (the tables' own rows, a hand sent again among them, may come after it). The service
            # applies a batch to its state before it commits the batch's rows (it answers only after the
            # commit), so the state above can be seen a moment before the row: wait for the row
            def corrections() -> list[dict[str, Any]]:
                return [r.body for r in club.session.journal.rows() if r.kind == "event" and r.body.get("type") == "correct"]
            WebDriverWait(director, 30).until(lambda d: corrections()[-1]["facts"].get("alone") == "N")
            ns = [r for r in standings_export(club.session.night)["standings"] if r["player"] in (1, 2)]
            assert [r["points"] for r in ns] == ["9", "9"]   # the loner's 4 and the renege's 5 (hand 1: 0 now)
            WebDriverWait(director, 30).until(lambda d: "9.00" in _text(d, "standings"))
            assert rescore(standings_export(club.session.night), hands_export(club.session.night)) == []
            director.find_element(By.ID, "call").click()             # the call, from the page, through the guard
            WebDriverWait(director, 30).until(lambda d: "(called" in _text(d, "round"))
            assert club.session.night.called == {2}
        finally:
            director.quit()
            table.quit()


def test_cardtable_club_dashboard_euchre(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The command: a folder with no night is refused (exit 2, one line); with a night, the server
    carries it: the tables get their pages' keys on their seatings and /euchre asks for the login."""
    import os
    import signal
    import subprocess
    import sys

    import httpx

    from firmware_host.cli import main
    from firmware_host.web.auth import add_user

    _need("mosquitto", "mosquitto")
    users = tmp_path / "directors"
    add_user(users, "director", PASSWORD)
    pw = tmp_path / "dash.pw"
    pw.write_text(USERS[DASHBOARD_USER] + "\n")
    base = ["club", "dashboard", "--users", str(users), "--mqtt-password-file", str(pw)]
    assert main([*base, "--euchre", str(tmp_path / "none")]) == 2
    err = capsys.readouterr().err
    assert "no euchre night there" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    NightSession.create(tmp_path / "night", setup()).close()
    broker = LocalBroker(tmp_path / "broker", USERS)
    broker.start()
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "firmware_host.cli", *base, "--broker-host", "127.0.0.1",
                             "--broker-port", str(broker.port), "--port", str(port), "--euchre",
                             str(tmp_path / "night")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
    t1 = Table(broker.port, "table-01")
    try:
        page = t1.wait(lambda s: s["page"].startswith("/euchre/table/table-01?key="), timeout=30)["page"]
        deadline = time.monotonic() + 20
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/euchre", follow_redirects=False, timeout=5)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the director's server did not start"
                time.sleep(0.1)
        assert r.status_code == 303
        assert httpx.get(f"http://127.0.0.1:{port}/api/euchre/state", timeout=5).status_code == 401
        assert httpx.get(f"http://127.0.0.1:{port}{page}", timeout=5).status_code == 200
        # the table's page still open when the server is stopped: its stream ends, no traceback is printed
        watching = threading.Event()
        stream_url = f"http://127.0.0.1:{port}" + page.replace("?key=", "/events?key=")

        def watch() -> None:
            try:
                with httpx.Client(timeout=30) as c, c.stream("GET", stream_url) as r:
                    for _ in r.iter_lines():
                        if r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream"):
                            watching.set()
            except httpx.HTTPError:
                pass
        threading.Thread(target=watch, daemon=True).start()
        assert watching.wait(10)
    finally:
        t1.close()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=20)
        broker.stop()
    assert "/euchre" in out.decode()
    assert b"Traceback" not in err and b"CancelledError" not in err, err.decode()


def test_the_director_s_correction_through_the_guard(club: Club) -> None:
    import httpx

    n = club.session.night
    # it waited 10 s for the hand's answer and failed once on a loaded machine: the hand was sent before the
    # director's server had subscribed to the tables' hands (its seatings go out first), so it was lost
    club.t1.wait(lambda s: s["round"] == 1)                          # the night's client is connected
    club.t1.send_until(hand(n, 1, 1, tricks=5), 1,
                       lambda s: any(a["source"] == "table-01:1" and a["status"] == "taken" for a in s["answers"]))
    fix = {"table": "table-01", "round": 1, "hand": 1, "facts": {"tricks": 2}, "why": "miscounted"}
    with httpx.Client(base_url=club.url, timeout=10) as c:
        assert c.post("/api/euchre/correct", json=fix).status_code == 401         # no login
        assert c.post("/login", data={"username": "director", "password": PASSWORD},
                      follow_redirects=False).status_code == 303
        token = c.get("/euchre").text.split('name="csrf-token" content="')[1].split('"')[0]
        assert c.post("/api/euchre/correct", json=fix).status_code == 403         # no CSRF token
        assert n.hands[(1, 1, 1)].body["tricks"] == 5
        r = c.post("/api/euchre/correct", json=dict(fix, why=""), headers={"X-CSRF-Token": token})
        assert r.status_code == 409 and "a correction says why" in r.json()["error"]
        r = c.post("/api/euchre/correct", json=fix, headers={"X-CSRF-Token": token})
        assert r.status_code == 200, r.text
        rows = {s["player"]: s["points"] for s in c.get("/euchre/standings.json").json()["standings"]}
        assert rows[1] == "0" and rows[3] == "2"
        got = c.get("/euchre/hands.json").json()["hands"][0]
        assert got["corrections"][0] == {"by": "director", "why": "miscounted", "was": {"tricks": 5}}


def test_the_printed_sheet_keeps_its_style_under_the_director_s_server_s_policy(club: Club) -> None:
    """/euchre/sheet.html carried its style inline, which the server's policy (style-src 'self') refuses:
    the sheet printed bare. It now links our own stylesheet, the same rules the exported file carries."""
    import httpx

    from firmware_host.euchre_night.views import sheet_html

    with httpx.Client(base_url=club.url, timeout=10) as c:
        assert c.post("/login", data={"username": "director", "password": PASSWORD},
                      follow_redirects=False).status_code == 303
        r = c.get("/euchre/sheet.html")
        assert r.status_code == 200 and "style-src 'self'" in r.headers["content-security-policy"]
        assert "<style" not in r.text and '<link rel=stylesheet href="/euchre/static/sheet.css">' in r.text
        css = c.get("/euchre/static/sheet.css")
        assert css.status_code == 200 and css.headers["content-type"].startswith("text/css")
    written = sheet_html(club.session.night)                    # the export's file: styled on its own
    assert f"<style>{css.text.strip()}</style>" in written and ".n{text-align:right}" in css.text


def test_the_director_s_substitution_through_the_guard(club: Club) -> None:
    import httpx

    sub = {"player": 5, "name": "Zoe Lane", "member": "M-77", "from_round": 1, "why": "P5 was taken ill"}
    with httpx.Client(base_url=club.url, timeout=10) as c:
        assert c.post("/api/euchre/substitute", json=sub).status_code == 401      # no login
        assert c.post("/login", data={"username": "director", "password": PASSWORD},
                      follow_redirects=False).status_code == 303
        token = c.get("/euchre").text.split('name="csrf-token" content="')[1].split('"')[0]
        assert 'id="substitute"' in c.get("/euchre").text                           # the form on the page
        assert c.post("/api/euchre/substitute", json=sub).status_code == 403      # no CSRF token
        r = c.post("/api/euchre/substitute", json=dict(sub, player=99), headers={"X-CSRF-Token": token})
        assert r.status_code == 409 and "replaces a player of the night" in r.json()["error"]
        r = c.post("/api/euchre/substitute", json=sub, headers={"X-CSRF-Token": token})
        assert r.status_code == 200, r.text
        club.t2.wait(lambda s: s["seats"]["N"] == {"player": 5, "name": "Zoe Lane"})   # on table-02's seating
        st = c.get("/euchre/standings.json").json()
        assert st["substitutions"] == [dict(sub, by="director")]
        row = next(r for r in st["standings"] if r["player"] == 5)
        assert [b["name"] for b in row["played_by"]] == ["Zoe Lane"]
        assert c.get("/euchre/hands.json").json()["substitutions"] == st["substitutions"]
    last = [r.body for r in club.session.journal.rows() if r.kind == "event"][-1]
    assert last["type"] == "substitute" and last["by"] == "director"           # journaled


def test_bench_euchre_quick_on_the_director_s_server(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from firmware_host.cli import main

    _need("mosquitto", "mosquitto")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["bench", "euchre", "--quick", "--director-server", "--json"]) == 0
    assert not list(tmp_path.glob("bench-euchre-*")), "the bench leaves its folder behind"
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["pages"].startswith("the director's server") and figures["night finished"] is True
    assert figures["hands taken"] == 80 and figures["hand -> page"]["n"] == 80


def test_a_finished_night_offers_no_call(club: Club) -> None:
    """Audit 15 F8: the finished night's page still offered "Call the round", which answered "round 3 has
    been called already"; once the night is finished the button is gone."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import chromium, missing

    if missing():
        pytest.skip(missing())
    n = club.session.night
    with tempfile.TemporaryDirectory() as pa:
        director = chromium(pa)
        try:
            director.get(club.url + "/euchre")
            director.find_element(By.ID, "username").send_keys("director")
            director.find_element(By.ID, "password").send_keys(PASSWORD)
            director.find_element(By.ID, "login").click()
            WebDriverWait(director, 20).until(lambda d: "/login" not in d.current_url)
            director.get(club.url + "/euchre")
            WebDriverWait(director, 30).until(lambda d: _text(d, "round").startswith("Round 1 of"))
            assert director.find_element(By.ID, "call").is_displayed()
            seq = 0
            for rnd in range(1, n.setup.rounds + 1):
                WebDriverWait(director, 30).until(lambda d, rnd=rnd: n.current == rnd)
                for h in (1, 2):
                    seq += 1
                    club.t1.send(hand(n, 1, h), seq)
                    club.t2.send(hand(n, 2, h), seq)
            WebDriverWait(director, 30).until(lambda d: _text(d, "round").startswith("Final standings"))
            assert n.finished and not director.find_element(By.ID, "call").is_displayed()
        finally:
            director.quit()


def test_a_table_s_page_breaks_no_column_name_and_fits_a_phone(club: Club) -> None:
    """Audit 69 F7: at 360 and 390 px the table's page on the director's server broke words inside its
    column names ("Ta ble", "Han ds", "Plac e"); docs/session.md: no word is broken inside a column's
    name. It still never scrolls sideways."""
    from tests.browser import chromium, missing
    from tests.events.test_event_screens import _at_width

    if missing():
        pytest.skip(missing())
    from selenium.webdriver.support.ui import WebDriverWait

    page = club.t2.wait(lambda s: s["round"] == 1 and s["page"])["page"]
    with tempfile.TemporaryDirectory() as pa:
        table = chromium(pa)
        try:
            for width in (360, 390):
                _at_width(table, width)
                table.get(club.url + page)
                WebDriverWait(table, 30).until(lambda d: "N: P5" in _text(d, "tables") and "P8" in _text(d, "standings"))
                broken = table.execute_script("""return [...document.querySelectorAll('th')].filter(th => {
                    const r = document.createRange(); r.selectNodeContents(th); return r.getClientRects().length > 1;
                }).map(th => th.textContent);""")
                assert broken == [], f"column names broken over lines at {width} px: {broken}"
                over = table.execute_script("return document.documentElement.scrollWidth;") - width
                assert over <= 0, f"the table's page scrolls sideways by {over} px at {width} px"
        finally:
            table.quit()


def test_the_director_s_page_and_a_table_s_page_pass_axe_on_a_laptop_and_a_phone(club: Club) -> None:
    """Audit a11 F5: axe-core on /euchre found the export links in the browser's own blue on the page's
    green (#0000ee on #0f3d24, contrast 1.3: serious) and the "Correct a hand" penalties' clause and side
    selects without a label (critical). At 1366 and 390 px, the director's page and a table's page:
    nothing serious or critical."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import chromium, missing
    from tests.club.test_director_screen import _axe
    from tests.events.test_event_screens import _at_width

    if missing():
        pytest.skip(missing())
    page = club.t2.wait(lambda s: s["round"] == 1 and s["page"])["page"]
    with tempfile.TemporaryDirectory() as pa:
        driver = chromium(pa)
        try:
            driver.get(club.url + "/login")
            driver.find_element(By.ID, "username").send_keys("director")
            driver.find_element(By.ID, "password").send_keys(PASSWORD)
            driver.find_element(By.ID, "login").click()
            WebDriverWait(driver, 20).until(lambda d: "/login" not in d.current_url)
            found = {}
            for width in (1366, 390):
                _at_width(driver, width)
                for name, path in (("director", "/euchre"), ("table", page)):
                    driver.get(club.url + path)
                    WebDriverWait(driver, 30).until(lambda d: "P8" in _text(d, "standings"))
                    bad = [(v["id"], v["nodes"]) for v in _axe(driver) if v["impact"] in ("serious", "critical")]
                    if bad:
                        found[(name, width)] = bad
                    if width == 390:   # audit m9: the exports' links were 19 px tall on a phone
                        short = driver.execute_script(
                            "return [...document.querySelectorAll('#exports a')].map(a => a.getBoundingClientRect())"
                            ".filter(r => r.width > 0 && r.height < 40).map(r => Math.round(r.height))")
                        if short:
                            found[(name, width, "links under 40 px")] = short
            assert found == {}, found
            # audit m9: "From round" left empty was sent as 0: "player 3: from_round is a round of the
            # night (1 to 2), got 0", a code name and a value nobody typed
            driver.get(club.url + "/euchre")
            WebDriverWait(driver, 30).until(lambda d: "P8" in _text(d, "standings"))
            for box, value in (("s-player", "3"), ("s-name", "Zoe Lane"), ("s-why", "taken ill")):
                driver.find_element(By.ID, box).send_keys(value)
            driver.find_element(By.ID, "s-send").click()
            WebDriverWait(driver, 30).until(lambda d: _text(d, "s-said") != "")
            assert _text(driver, "s-said").endswith("comes in from is one of the night's (1 to 3), got nothing"), \
                _text(driver, "s-said")
        finally:
            driver.quit()


def test_the_correction_form_s_refusals_are_a_person_s_words(club: Club) -> None:
    """Audit m28: the "Correct a hand" form sent with every box "as taken" was answered "facts must be an
    object of some of makers, alone, tricks, penalties, void, got {}" (code names and JSON on the
    director's page), and a penalty whose points box was left empty was sent as 0 ("EU-63 gives 3 or 5
    points, got 0", a value nobody typed)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    from tests.browser import chromium, missing

    if missing():
        pytest.skip(missing())
    n = club.session.night
    club.t1.send(hand(n, 1, 1, tricks=5), 1)
    club.t1.wait(lambda s: any(a["source"] == "table-01:1" and a["status"] == "taken" for a in s["answers"]))
    with tempfile.TemporaryDirectory() as pa:
        driver = chromium(pa)
        try:
            driver.get(club.url + "/login")
            driver.find_element(By.ID, "username").send_keys("director")
            driver.find_element(By.ID, "password").send_keys(PASSWORD)
            driver.find_element(By.ID, "login").click()
            WebDriverWait(driver, 20).until(lambda d: "/login" not in d.current_url)
            driver.get(club.url + "/euchre")
            WebDriverWait(driver, 30).until(lambda d: "P8" in _text(d, "standings"))
            for box, value in (("c-table", "table-01"), ("c-round", "1"), ("c-hand", "1"), ("c-why", "a look")):
                driver.find_element(By.ID, box).send_keys(value)
            driver.find_element(By.ID, "c-send").click()
            WebDriverWait(driver, 30).until(lambda d: _text(d, "c-said") != "")
            said = _text(driver, "c-said")
            assert said == ("table-01, round 1, hand 1: the correction changes none of the hand's facts: choose "
                            "the makers, tricks, lone player, void or penalties it corrects"), said
            driver.execute_script("document.getElementById('c-said').textContent = ''")
            Select(driver.find_element(By.ID, "c-pen")).select_by_value("below")
            Select(driver.find_element(By.ID, "c-pen-clause-1")).select_by_value("EU-63")
            driver.find_element(By.ID, "c-send").click()
            WebDriverWait(driver, 30).until(lambda d: _text(d, "c-said") != "")
            said = _text(driver, "c-said")
            assert said.endswith("EU-63 gives 3 or 5 points, got nothing"), said
        finally:
            driver.quit()
    assert "corrections" not in n.hands[(1, 1, 1)].body


def test_on_a_phone_each_box_of_the_director_s_forms_stays_beside_its_label(club: Club) -> None:
    """Audit m28: at 390 px the "Correct a hand" form read "Table [box] Round", then "[box] Hand", then
    "[box] Makers": each label broke after its word and its box went to the next line, so the word beside a
    box named the next one. Every label of the forms is now one piece: its word and its box together."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from tests.browser import chromium, missing
    from tests.events.test_event_screens import _at_width

    if missing():
        pytest.skip(missing())
    with tempfile.TemporaryDirectory() as pa:
        driver = chromium(pa)
        try:
            driver.get(club.url + "/login")
            driver.find_element(By.ID, "username").send_keys("director")
            driver.find_element(By.ID, "password").send_keys(PASSWORD)
            driver.find_element(By.ID, "login").click()
            WebDriverWait(driver, 20).until(lambda d: "/login" not in d.current_url)
            for width in (390, 1366):
                _at_width(driver, width)
                driver.get(club.url + "/euchre")
                WebDriverWait(driver, 30).until(lambda d: "P8" in _text(d, "standings"))
                split = driver.execute_script(
                    "return [...document.querySelectorAll('#correct label, #substitute label')]"
                    ".filter(l => l.getClientRects().length > 1).map(l => l.textContent.trim().slice(0, 20))")
                assert split == [], (width, split)
        finally:
            driver.quit()
