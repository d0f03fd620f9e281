"""Issue 29, items 4 and 5, in headless Chromium: the director's page and a table's page at a phone's
(390 px), a tablet's (800 px) and a laptop's (1366 px) width, every traveller open: no word broken inside a
column's name or a contract, no table running off the right of its box, no sideways scroll, a fouled
board's rows no taller than the others', axe-core clean; full-page screenshots in tests/artifacts/ (not
kept in git). Then the director's forms used as a director would: a traveller row clicked fills them, a
result entered by hand as typed, "Move for round N" asked first and undone, a table's own page entering
its result."""

from __future__ import annotations

import re
import secrets
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from firmware_host.club.broker import DASHBOARD_USER, LocalBroker, free_port
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.web.auth import hash_password
from firmware_host.wire.subscribed import stop_loop
from tests.browser import chromium, missing
from tests.duplicate.sessionkit import all_results, make_setup

from .conftest import _need, browser_login
from .test_director_screen import ARTIFACTS, _axe

WIDTHS = (390, 800, 1366)

# every traveller open; each problem in words: a header or contract on more than one line, a table wider
# than its box, a fouled board's row taller than half as much again as the other boards' rows
LAYOUT = """
document.querySelectorAll('details').forEach((d) => { d.open = true; });
const out = [];
const lines = (node) => { const r = document.createRange(); r.selectNodeContents(node);
  return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size; };
for (const table of document.querySelectorAll('table')) {
  if (!table.offsetParent) continue;
  const heads = [...table.querySelectorAll('thead th')];
  heads.forEach((th) => { if (lines(th) > 1) out.push('the header ' + JSON.stringify(th.textContent) + ' takes ' + lines(th) + ' lines'); });
  const c = heads.findIndex((th) => th.textContent === 'Contract');
  if (c >= 0) for (const tr of table.tBodies[0].rows) {
    const td = tr.cells[c];
    if (td && td.textContent && lines(td) > 1) out.push('the contract ' + JSON.stringify(td.textContent) + ' takes ' + lines(td) + ' lines');
  }
}
for (const box of document.querySelectorAll('.scroll')) {
  if (box.offsetParent && box.scrollWidth > box.clientWidth + 1) out.push('a table runs ' + (box.scrollWidth - box.clientWidth) + ' px off the right of its box');
}
const fouled = [], other = [];
for (const d of document.querySelectorAll('details.board')) {
  const rows = [...d.querySelectorAll('tbody tr')].map((tr) => tr.getBoundingClientRect().height);
  (d.querySelector('summary').textContent.includes('fouled') ? fouled : other).push(...rows);
}
other.sort((a, b) => a - b);
const usual = other.length ? other[Math.floor(other.length / 2)] : 0;
for (const h of fouled) if (h > usual * 1.5) out.push('a fouled board row is ' + Math.round(h) + ' px tall, the others ' + Math.round(usual) + ' px');
const over = document.documentElement.scrollWidth - window.innerWidth;
if (over > 0) out.push('the page scrolls sideways by ' + over + ' px');
return [out, fouled.length, other.length];
"""


class Room:
    """A broker, the dashboard with a session (a 5-table Mitchell), and a browser's login: no tables, the
    session's records taken straight (the pages read the session as any desk's)."""

    def __init__(self, tmp: Path, spec: dict[str, Any] | None = None) -> None:
        from firmware_host.club.dashboard import Dashboard, serve

        self.setup = make_setup(spec or {"kind": "mitchell", "tables": 5, "boards_per_round": 2}, seed=8)
        self.passwords = {tid: secrets.token_urlsafe(9) for tid in self.setup.tables} | {DASHBOARD_USER: "dash-pw-1"}
        self.broker = LocalBroker(tmp / "broker", self.passwords)
        self.broker.start()
        self.session = Session.create(tmp / "session", self.setup, analyse=False, synchronous="NORMAL")
        self.desk = SessionDesk(self.session)
        self.dash = Dashboard("127.0.0.1", self.broker.port, DASHBOARD_USER, self.passwords[DASHBOARD_USER],
                              {"director": hash_password("table-talk-1")}, duplicate=self.desk)
        self.port = free_port()
        self.server = serve(self.dash, "127.0.0.1", self.port)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the dashboard did not start"
            time.sleep(0.05)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def play_all(self) -> None:
        """Every round; board 1's copy misboarded in the last round (a group of one: average-plus, the
        longest note), a split assigned score, a result entered by hand, a correction."""
        records: list[dict[str, Any]] = [{"type": "round", "round": r, "by": "td"} for r in range(2, 6)]
        records += all_results(self.setup, fouled={1: 5})
        records = [r for r in records if (r.get("board"), r.get("ns")) != (4, "1 NS")]
        assert all(o.taken for o in self.desk.session.submit(records))
        key4 = next(e.key for e in self.session.state.entries.values() if e.board == 3)
        more = [{"type": "result", "hand": True, "by": "director", "table": "table-02", "section": "A",
                 "table_number": 2, "round": 5, "board": 4, "ns": "2 NS", "ew": "4 EW", "contract": "3NT",
                 "declarer": "N", "lead": "4S", "tricks": 9, "why": "the table's device failed"}]
        s = next(s for s in self.session.state.movement.seatings if s.played and s.ns and s.ns.number == 1
                 and 4 in self.session.state.movement.boards_of(s.group))
        more[0].update({"table": f"table-0{s.table}", "table_number": s.table, "round": s.round,
                        "ns": str(s.ns), "ew": str(s.ew)})
        more += [{"type": "correct", "key": key4, "tricks": 7, "by": "director", "why": "table miscounted"}]
        e2 = next(e for e in self.session.state.entries.values() if e.board == 2)
        more += [{"type": "adjust", "board": 2, "ns": str(e2.ns), "ew": str(e2.ew), "kind": "assigned",
                  "ns_value": "420", "ew_value": "140", "by": "director", "why": "misinformation"}]
        outcomes = self.desk.session.submit(more)
        assert all(o.taken for o in outcomes), [o.why for o in outcomes]
        assert self.session.state.finished()

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5)
        self.broker.stop()
        self.session.close()


@pytest.fixture
def room(tmp_path: Path) -> Any:
    _need("mosquitto", "mosquitto")
    if missing():
        pytest.skip(missing())
    r = Room(tmp_path)
    yield r
    r.stop()


def _browser(tmp_path: Path, width: int, mobile: bool | None = None) -> Any:
    """A headless Chromium ``width`` px wide; ``mobile`` (under 600 px unless said) is a phone's overlay
    scrollbar, otherwise the page's scrollbar takes its room from the page, as a narrowed desktop window's."""
    driver = chromium(tempfile.mkdtemp(dir=tmp_path))
    driver.set_script_timeout(30)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1,
                            "mobile": width < 600 if mobile is None else mobile})
    return driver


def _screenshot(driver: Any, width: int, name: str) -> None:
    height = min(int(driver.execute_script("return document.documentElement.scrollHeight;")), 8000)
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    ARTIFACTS.mkdir(exist_ok=True)
    driver.save_screenshot(str(ARTIFACTS / f"phones-{width}-{name}.png"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})


def _wait(driver: Any) -> Any:
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, 20, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))


def _director(room: Room, tmp_path: Path, width: int, mobile: bool | None = None) -> Any:
    from selenium.webdriver.common.by import By

    d = _browser(tmp_path, width, mobile)
    browser_login(d, room.url)
    _wait(d).until(lambda d: d.current_url == room.url and d.find_elements(By.ID, "queue"))
    d.get(room.url + "duplicate")
    _wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live"))
    return d


def _at(driver: Any, width: int) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
    driver.refresh()


def test_the_pages_read_at_every_width_with_every_traveller_open(room: Room, tmp_path: Path) -> None:
    """One login and one browser a page, each width in turn (the page reloaded at it)."""
    from selenium.webdriver.common.by import By

    room.play_all()
    director = _director(room, tmp_path, WIDTHS[0])
    tid = "table-02"
    players = _browser(tmp_path, WIDTHS[0])
    players.get(room.url + f"duplicate/table/{tid}?key={room.desk.table_key(tid)}")
    try:
        for width in WIDTHS:
            _at(director, width)
            _at(players, width)
            assert director.execute_script("return window.innerWidth") == width
            _wait(director).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live") and
                                  len(d.find_elements(By.CSS_SELECTOR, "#travellers details.board")) == 10)
            _wait(players).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live") and
                                 d.find_elements(By.CSS_SELECTOR, "#travellers details.board"))
            for name, driver in (("director", director), ("table", players)):
                problems, fouled, other = driver.execute_script(LAYOUT)
                _screenshot(driver, width, name)
                assert problems == [], f"{name}'s page at {width} px: {problems}"
                assert other > 0
                if name == "director":
                    assert fouled > 0, "the fouled board's traveller is on the director's page"
                bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
                assert not bad, (name, width, bad)
            assert director.find_element(By.ID, "finished").is_displayed()
            assert players.find_element(By.ID, "finished").is_displayed()
    finally:
        director.quit()
        players.quit()


def test_a_fouled_boards_traveller_fits_a_phone_that_keeps_room_for_its_scrollbar(room: Room, tmp_path: Path) -> None:
    """Audit a11 F1: at 390 px with the page's scrollbar taking its room (a box 349 px wide), a fouled
    board's traveller (its Group column) ran 11 px off the right of its box on the director's page and the
    table's, the column cut to "Grou", and axe-core found the table page's box scrollable but out of reach
    of the keyboard (scrollable-region-focusable, serious). Every traveller fits; axe-core is clean."""
    from selenium.webdriver.common.by import By

    room.play_all()
    director = _director(room, tmp_path, 390, mobile=False)
    tid = "table-02"
    players = _browser(tmp_path, 390, mobile=False)
    players.get(room.url + f"duplicate/table/{tid}?key={room.desk.table_key(tid)}")
    try:
        _wait(director).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#travellers details.board")) == 10)
        _wait(players).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live") and
                             d.find_elements(By.CSS_SELECTOR, "#travellers details.board"))
        for name, driver in (("director", director), ("table", players)):
            assert driver.execute_script("return document.documentElement.clientWidth") < 390   # a scrollbar
            problems, fouled, other = driver.execute_script(LAYOUT)
            assert fouled > 0 and other > 0, (name, fouled, other)
            assert problems == [], f"{name}'s page: {problems}"
            bad = [v for v in _axe(driver) if v["impact"] in ("serious", "critical")]
            assert not bad, (name, bad)
    finally:
        director.quit()
        players.quit()


# a big field's widest traveller lines: a grand slam redoubled by a long-named pair sitting the other way
LONG_NAMES = [{"name": "Maximilian Featherstonehaugh-Worthington", "member": "10203045", "federation": ""},
              {"name": "Bartholomew Kowalczyk-Vandenberghe", "member": "10203046", "federation": ""}]


def test_a_fouled_boards_traveller_with_the_longest_lines_wraps_rather_than_overflows(tmp_path: Path) -> None:
    """At 390 px with the page's scrollbar (a box 349 px wide) a fouled board's traveller had 11 px to
    spare with a 5-table field's lines. A 13-table Mitchell's switched pairs (``12 EW`` under NS, ``11 NS``
    under EW), 7NTXX by North down 13 vulnerable (-7600) and a split assigned score (-2220/1430) ran 62 px
    off its box on the director's page and the table's: the switched pair's direction and a split score's
    second half now go onto a second line there, no word broken, and nothing runs off."""
    from selenium.webdriver.common.by import By

    _need("mosquitto", "mosquitto")
    if missing():
        pytest.skip(missing())
    room = Room(tmp_path, {"kind": "mitchell", "tables": 13, "boards_per_round": 1, "arrow_switch_rounds": [12, 13]})
    director = players = None
    try:
        records: list[dict[str, Any]] = [{"type": "round", "round": r, "by": "td"} for r in range(2, 14)]
        results = all_results(room.setup, fouled={10: 12})          # board 10 misboarded from round 12 on
        grand = next(r for r in results if r["board"] == 10 and r["round"] == 13)
        assert (grand["ns"], grand["ew"]) == ("12 EW", "11 NS")
        assert room.setup.boards[9].vulnerability.value == "All"                    # down 13 redoubled: -7600
        grand.update({"contract": "7NTXX", "declarer": "N", "tricks": 0, "lead": None, "auction": [], "play": []})
        split = next(r for r in results if r["board"] == 10 and r["round"] == 12)
        assert (split["ns"], split["ew"]) == ("1 EW", "12 NS")
        records += results
        records += [{"type": "players", "pair": pair, "players": [dict(p, member=p["member"] + pair[:2].strip())
                                                                  for p in LONG_NAMES], "by": "td"}
                    for pair in ("12 EW", "11 NS")]
        records.append({"type": "adjust", "board": 10, "ns": "1 EW", "ew": "12 NS", "kind": "assigned",
                        "ns_value": "-2220", "ew_value": "-1430", "by": "td", "why": "misinformation"})
        outcomes = room.desk.session.submit(records)
        assert all(o.taken for o in outcomes), [o.why for o in outcomes if not o.taken]
        director = _director(room, tmp_path, 390, mobile=False)
        players = _browser(tmp_path, 390, mobile=False)
        players.get(room.url + f"duplicate/table/table-11?key={room.desk.table_key('table-11')}")
        _wait(director).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#travellers details.board")) == 13)
        _wait(players).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#travellers details.board[data-board="10"]'))
        for name, driver in (("director", director), ("table", players)):
            assert driver.execute_script("return document.documentElement.clientWidth") < 390   # a scrollbar
            problems, fouled, _other = driver.execute_script(LAYOUT)
            tall = [re.fullmatch(r"a fouled board row is (\d+) px tall, the others (\d+) px", p) for p in problems]
            assert all(int(m[1]) <= 2 * int(m[2]) for m in tall if m), problems   # wrapped: two lines at most
            problems = [p for p, m in zip(problems, tall, strict=True) if not m]
            assert fouled > 0 and problems == [], f"{name}'s page: {problems}"
            rows = [tr.get_attribute("textContent") for tr in
                    driver.find_elements(By.CSS_SELECTOR, 'details.board[data-board="10"] tbody tr')]
            assert any("7NTxx" in r and "-7600" in r and "12 EW" in r and "11 NS" in r for r in rows), (name, rows)
            assert any("-2220/1430" in r and "12 NS" in r for r in rows), (name, rows)
            row = driver.find_element(By.XPATH, '//details[@data-board="10"]//tr[contains(., "-7600")]')
            assert "Maximilian Featherstonehaugh-Worthington" in row.find_elements(By.TAG_NAME, "td")[1].get_attribute("title")
            _screenshot(driver, 390, f"{name}-longest")
    finally:
        for d in (director, players):
            if d is not None:
                d.quit()
        room.stop()


def _boxes(driver: Any, form_id: str) -> dict[str, str]:
    """Every box of one of the director's forms as it stands: its name and value (a select's option)."""
    return dict(driver.execute_script(
        "return Array.from(document.getElementById(arguments[0]).elements).filter(e => e.name)"
        ".map(e => [e.name, e.value]);", form_id))


def test_the_directors_forms_as_a_director_uses_them(room: Room, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    st = room.session.state
    for rec in all_results(room.setup):   # round 1 but table 1's board 1 and table 2's board 3: their devices failed
        if rec["round"] == 1 and (rec["table_number"], rec["board"]) not in ((1, 1), (2, 3)):
            assert room.desk.session.take(rec).taken
    director = _director(room, tmp_path, 800)
    wait = _wait(director)
    try:
        # a row clicked fills the forms
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, 'tr[data-key="2/1 NS/1 EW"]'))
        director.find_element(By.CSS_SELECTOR, 'details.board[data-board="2"] summary').click()
        director.find_element(By.CSS_SELECTOR, 'tr[data-key="2/1 NS/1 EW"]').click()
        for form in ("enter", "correct", "regroup"):
            assert director.find_element(By.CSS_SELECTOR, f"#{form} input[name=key]").get_attribute("value") == "2/1 NS/1 EW"
        adjust = director.find_element(By.ID, "adjust")
        assert [adjust.find_element(By.NAME, n).get_attribute("value") for n in ("board", "ns", "ew")] == ["2", "1 NS", "1 EW"]
        # table 1's device failed: board 1 entered by hand, the line typed as people type it
        enter = director.find_element(By.ID, "enter")
        key = enter.find_element(By.NAME, "key")
        key.clear()
        key.send_keys("1 1ns 1ew")
        for name, value in (("contract", "4s"), ("lead", "ha"), ("tricks", "10"), ("why", "device failed")):
            enter.find_element(By.NAME, name).send_keys(value)
        enter.find_element(By.CSS_SELECTOR, "select[name=declarer] option[value=S]").click()
        enter.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: d.find_element(By.ID, "entry-answer").text.startswith("Done") or "refused" in
                   d.find_element(By.ID, "entry-answer").get_attribute("class"))
        # the answer names the line as journaled, not as typed (the form is emptied: "Done." named nothing)
        assert director.find_element(By.ID, "entry-answer").text == "Done: line 1/1 NS/1 EW."
        assert st.entries["1/1 NS/1 EW"].hand and st.entries["1/1 NS/1 EW"].contract == "4S"
        wait.until(lambda d: "entered by hand by director (device failed)" in
                   d.find_element(By.CSS_SELECTOR, 'details.board[data-board="1"]').get_attribute("textContent"))
        # audit m37: a form taken kept its boxes, so the director's next record carried them again unseen
        # (/euchre's correction changed the makers a second time); taken, a form is emptied
        wait.until(lambda d: not any(_boxes(d, "enter").values()), f"the form kept {_boxes(director, 'enter')}")
        # a typo of the director's own is listed apart from the tables' refusals
        key.send_keys("1/9NS/9EW")
        for name, value in (("contract", "4s"), ("tricks", "10"), ("why", "device failed")):
            enter.find_element(By.NAME, name).send_keys(value)
        enter.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#mine li"))
        assert "pairs 9 NS and 9 EW do not play board 1" in director.find_element(By.ID, "mine").text
        assert _boxes(director, "enter")["key"] == "1/9NS/9EW"   # refused: kept, to be fixed
        assert director.find_element(By.ID, "refused").text == ""
        # a split assigned score typed as each side's own, labelled so; then the line taken off for the director
        adjust.find_element(By.CSS_SELECTOR, "select[name=kind] option[value=assigned]").click()
        assert director.find_element(By.ID, "ew-value-label").text == "East-West's own score (a split score only)"
        for name, value in (("ns_value", "420"), ("ew_value", "-140"), ("why", "misinformation")):
            adjust.find_element(By.NAME, name).clear()
            adjust.find_element(By.NAME, name).send_keys(value)
        adjust.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: st.entries["2/1 NS/1 EW"].kind == "assigned")
        assert st.entries["2/1 NS/1 EW"].adjusted == ("420", "140")
        wait.until(lambda d: "420/-140" in d.find_element(By.CSS_SELECTOR, 'tr[data-key="2/1 NS/1 EW"]').text)
        wait.until(lambda d: _boxes(d, "adjust") == {"board": "", "ns": "", "ew": "", "kind": "artificial",
                                                     "ns_value": "", "ew_value": "", "why": ""},
                   f"the form kept {_boxes(director, 'adjust')}")
        assert director.find_element(By.ID, "ew-value-label").text == "East-West: A+, A=, A- or %"
        correct = director.find_element(By.ID, "correct")
        emptied = {"key": "", "contract": "", "declarer": "", "lead": "", "tricks": "", "why": "", "then": "replay"}
        for name, value in (("key", "1/1ns/1ew"), ("tricks", "9"), ("why", "miscounted")):
            correct.find_element(By.NAME, name).clear()
            correct.find_element(By.NAME, name).send_keys(value)
        correct.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait.until(lambda d: st.entries["1/1 NS/1 EW"].tricks == 9)
        wait.until(lambda d: _boxes(d, "correct") == emptied, f"the form kept {_boxes(director, 'correct')}")
        correct.find_element(By.NAME, "key").send_keys("4/2ns/2ew")
        correct.find_element(By.CSS_SELECTOR, "select[name=then] option[value=director]").click()
        director.find_element(By.ID, "cancel-line").click()
        wait.until(lambda d: "taken off, for you to score: board 4" in d.find_element(By.ID, "progress").text)
        wait.until(lambda d: _boxes(d, "correct") == emptied, f"the form kept {_boxes(director, 'correct')}")
        # "Move for round 2" asks first; "Not yet" leaves it; the call can be undone
        director.find_element(By.ID, "move").click()
        assert director.find_element(By.ID, "move-question").text == "Call round 2? Every table moves."
        director.find_element(By.ID, "move-no").click()
        assert st.called == 1 and not director.find_element(By.ID, "move-confirm").is_displayed()
        # audit m9: the question hidden, the keyboard's focus was left on its hidden button (Tab went on
        # from the top of the page); it goes back to "Move for round N"
        focused = director.switch_to.active_element
        assert focused.get_attribute("id") == "move", focused.get_attribute("outerHTML")[:80]
        director.find_element(By.ID, "move").click()
        director.find_element(By.ID, "move-yes").click()
        wait.until(lambda d: "Round 2 of 5 called" in d.find_element(By.ID, "round-words").text)
        assert director.switch_to.active_element.get_attribute("id") == "move"
        undo = director.find_element(By.ID, "undo")
        wait.until(lambda d: undo.is_displayed())
        assert undo.text == "Undo the call of round 2"
        undo.click()
        wait.until(lambda d: "Round 1 of 5 called" in d.find_element(By.ID, "round-words").text)
        assert st.called == 1
        # a table's own page enters its result (as at a Bridgemate), on a phone
        players = _browser(tmp_path, 390)
        try:
            players.get(room.url + f"duplicate/table/table-02?key={room.desk.table_key('table-02')}")
            pw = _wait(players)
            pw.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live"))
            pw.until(lambda d: d.find_element(By.ID, "enter-part").is_displayed())
            bad = [v for v in _axe(players) if v["impact"] in ("serious", "critical")]
            assert not bad, bad                             # the page with its form shown
            form = players.find_element(By.ID, "enter")
            options = [o.get_attribute("value") for o in form.find_elements(By.CSS_SELECTOR, "select[name=key] option")]
            assert options == ["3/2 NS/2 EW"]
            for name, value in (("contract", "3nt"), ("lead", "s4"), ("tricks", "9")):
                form.find_element(By.NAME, name).send_keys(value)
            form.find_element(By.CSS_SELECTOR, "select[name=declarer] option[value=N]").click()
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            pw.until(lambda d: d.find_element(By.ID, "enter-answer").text != "")
            assert players.find_element(By.ID, "enter-answer").text.startswith("Entered"), \
                players.find_element(By.ID, "enter-answer").text
            e = st.entries["3/2 NS/2 EW"]
            assert e.hand and e.by == "table-02's page" and (e.contract, e.lead, e.tricks) == ("3NT", "4S", 9)
            wait.until(lambda d: "entered by hand by table-02's page" in
                       d.find_element(By.CSS_SELECTOR, 'details.board[data-board="3"]').get_attribute("textContent"))
        finally:
            players.quit()
    finally:
        director.quit()


def test_refused_from_the_tables_says_which_table_and_board(room: Room, tmp_path: Path) -> None:
    """Audit 15 F5: "Refused from the tables" said only why ("lead: 'SA' is not a card ..."), never which
    table sent it nor which board; the journal's refusal keeps the club table and the message as it came."""
    import json

    from selenium.webdriver.common.by import By

    rec = next(r for r in all_results(room.setup) if r["table"] == "table-02" and r["round"] == 1)
    body = {k: rec[k] for k in ("section", "table_number", "round", "board", "ns", "ew", "contract", "declarer",
                                "tricks", "record", "verified", "foul", "auction", "play")}
    body.update({"lead": "SA", "confirmed": {"ns": "N", "ew": "E"}})
    message = {"table": "table-02", "kind": "board", "seq": 1, "deal": 1, "secret": True, "t": 1000.0,
               "body": body, "prev": 0}
    room.desk.offer("cardtable/table-02/board", json.dumps(message).encode())
    room.desk.tick()
    wrong = dict(rec, source="table-02:2", ew="9 EW")                 # pairs the movement does not seat there
    assert not room.desk.session.take(wrong).taken
    # the table's member cards, refused by the naming rules: the table's, labelled so (they were listed
    # under "Your entries refused", as the director's own players form is)
    cards = {"type": "players", "pair": "9 NS", "players": [], "by": "table-02 (member cards)", "round": 1,
             "table": "table-02", "source": "table-02:3"}
    assert room.desk.session.submit([cards])[0].status == "refused"
    room.desk.tick()
    # audit m9: member cards the link refused with a reason that names the table ("table-02: member cards
    # read, but ...", "table-02's member cards: ...") read "Table 2 (table-02), member cards refused:
    # table-02: member cards read, ...", the table named twice
    seen = {"table": "table-02", "kind": "players", "seq": 4, "prev": 1, "deal": 0, "secret": False, "t": 1001.0,
            "body": {"section": "A", "table_number": 2, "round": 1, "side": "ns", "pair": "2 NS",
                     "members": ["1021", "1045"]}}
    room.desk.offer("cardtable/table-02/players", json.dumps(seen).encode())
    room.desk.tick()
    director = _director(room, tmp_path, 390)
    try:
        _wait(director).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#refused li")) == 4)
        rows = [li.text for li in director.find_elements(By.CSS_SELECTOR, "#refused li")]
        board = rec["board"]
        assert rows[0].startswith("table-02: member cards read, but the session has no roster"), rows
        assert rows[0].count("table-02") == 1 and "Table 2" not in rows[0], rows
        assert rows[1].startswith("Table 2 (table-02), member cards refused: "), rows
        assert rows[2].startswith(f"table 2, round 1, board {board}: the movement seats"), rows   # named already
        assert rows[3].startswith(f"Table 2 (table-02), board {board}: lead:"), rows
        assert director.find_element(By.ID, "no-mine").is_displayed()            # none of the director's
    finally:
        director.quit()


TOUCH = """
const out = [];
const seen = (e) => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
  return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
for (const e of document.querySelectorAll('button, input, select, textarea, summary, a[href], tr[tabindex]')) {
  if (!seen(e)) continue;   // a traveller's row the director taps (it fills the forms) is a control too
  const r = e.getBoundingClientRect();
  const box = (e.type === 'checkbox' || e.type === 'radio') ? (e.closest('label') || e).getBoundingClientRect() : r;
  const name = `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${(e.textContent || e.value || e.name || '').trim().slice(0, 30)}"`;
  if (box.height < 40) out.push(`${name} is ${Math.round(box.height)} px tall`);
  if (box.width < 40) out.push(`${name} is ${Math.round(box.width)} px wide`);
  if (box !== r) {   // a tick box: the box itself is a target too (WCAG 2.5.8, 24 px), its label the 44 px one
    if (Math.min(r.width, r.height) < 24) out.push(`${name}'s box is ${Math.round(r.width)} x ${Math.round(r.height)} px`);
    if (Math.min(box.width, box.height) < 44) out.push(`${name}'s label is ${Math.round(box.width)} x ${Math.round(box.height)} px`);
  }
}
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
const small = new Set();
while (walker.nextNode()) {
  const n = walker.currentNode, e = n.parentElement;
  if (!n.textContent.trim() || !e || !seen(e)) continue;
  const px = parseFloat(getComputedStyle(e).fontSize);
  if (px < 12) small.add(`${e.tagName.toLowerCase()}.${e.className} "${n.textContent.trim().slice(0, 30)}" at ${px.toFixed(1)} px`);
}
return out.concat([...small]);
"""


def _ruling_at(room: Room, tid: str) -> Any:
    """``tid`` as a table: a damaged card ruled (the lamp "NEW PACK" lit, its law and clause id), its
    status retained. The client, still connected (the caller disconnects it)."""
    import json

    from .conftest import mqtt_client

    client, rc = mqtt_client(room.broker.port, tid, room.passwords[tid], client_id=tid)
    assert rc == 0, rc
    ruling = {"remedy": "replace_pack", "law": "Duplicate Bridge, law 13", "clause": "CB-damaged",
              "reason": "A damaged card was dealt.", "dealer": "E"}
    now = time.time()
    client.publish(f"cardtable/{tid}/ruling", json.dumps(
        {"table": tid, "kind": "ruling", "seq": 1, "prev": 0, "deal": 1, "secret": False, "t": now, "body": ruling}),
        qos=1).wait_for_publish()
    status = {"table": tid, "name": "Table 1", "game": "duplicate-bridge", "phase": "play", "deal": 1, "dealer": "E",
              "lamps": {"replace_pack": True}, "offline": {}, "counts": {}, "players": {}, "ruling": ruling,
              "claims": [], "answers": [], "bridge": None, "duplicate": None, "set_aside": []}
    client.publish(f"cardtable/{tid}/status", json.dumps(
        {"table": tid, "kind": "status", "seq": 2, "deal": 1, "secret": False, "t": now, "done": [], "body": status}),
        qos=1, retain=True).wait_for_publish()
    return client


def test_a_phone_gets_touch_targets_and_text_it_can_use(room: Room, tmp_path: Path) -> None:
    """At 390 px every control, link and tick box (with its label) is at least 40 px tall and 40 px wide,
    and no text is under 12 px, on the director's duplicate page and the club's page (a director's evening
    on a phone). Audit a11 F7: with a ruling at a table, the club's page had its "law id" details 25-30 px
    tall in 9.8-11.5 px text, the lamp "NEW PACK" in 11.6 px, the sound tick box 22 px, the feed's "All"
    39 px wide; the duplicate page's traveller rows, which a director taps to fill the forms, 20 px tall.
    The sound tick box itself was still 22 px in its 44 px label: a tick box is at least 24 px each way
    (WCAG 2.5.8), its label at least 44 px each way."""
    from selenium.webdriver.common.by import By

    room.play_all()
    table = _ruling_at(room, "table-01")
    director = _director(room, tmp_path, 390)
    try:
        _wait(director).until(lambda d: len(d.find_elements(By.CSS_SELECTOR, "#travellers details.board")) == 10)
        director.execute_script("document.querySelectorAll('details.board').forEach((d) => { d.open = true; });")
        assert director.find_elements(By.CSS_SELECTOR, "#travellers tr[tabindex]")
        problems = director.execute_script(TOUCH)
        director.get(room.url)
        _wait(director).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live") and
                              "NEW PACK" in d.find_element(By.TAG_NAME, "main").text)
        assert director.find_elements(By.CSS_SELECTOR, "details.clause summary")
        problems += director.execute_script(TOUCH)
        _screenshot(director, 390, "club")
        assert problems == [], "\n".join(problems)
    finally:
        director.quit()
        table.disconnect()
        stop_loop(table)


def test_a_substitute_named_on_the_directors_form_from_round_2_on(room: Room, tmp_path: Path) -> None:
    """The "Players" form had no round: a director recording a substitute mid-evening renamed the pair for
    the whole evening (round 1 too). "From round" 2 names who sits from round 2 on, round 1 keeps the
    setup's players; left empty, the naming is for the whole evening. On a phone: every control 40 px,
    no text under 12 px, axe-core clean."""
    from selenium.webdriver.common.by import By

    st = room.session.state
    director = _director(room, tmp_path, 390)
    wait = _wait(director)
    try:
        bad = [v for v in _axe(director) if v["impact"] in ("serious", "critical")]
        assert not bad, bad
        assert director.execute_script(TOUCH) == []
        form = director.find_element(By.ID, "players")
        assert form.find_element(By.NAME, "round").get_attribute("value") == ""     # nothing prefilled

        def name(pair: str, p1: str, p2: str, first: str) -> str:
            for field, value in (("pair", pair), ("p1", p1), ("p2", p2), ("round", first)):
                form.find_element(By.NAME, field).clear()
                form.find_element(By.NAME, field).send_keys(value)
            director.execute_script("document.getElementById('entry-answer').textContent = '';")
            form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            wait.until(lambda d: d.find_element(By.ID, "entry-answer").text != "")
            return str(director.find_element(By.ID, "entry-answer").text)

        assert name("2 EW", "A2 EW", "Tom Uhl", "2") == "Done."                      # a substitute from round 2
        names = {r: [p["name"] for p in st.players_in("2 EW", r)] for r in range(1, 6)}
        assert names == {1: ["A2 EW", "B2 EW"]} | {r: ["A2 EW", "Tom Uhl"] for r in range(2, 6)}, names
        assert name("3 NS", "Kay Lamb", "Lou Moss", "") == "Done."                   # the whole evening
        names = {r: [p["name"] for p in st.players_in("3 NS", r)] for r in range(1, 6)}
        assert names == {r: ["Kay Lamb", "Lou Moss"] for r in range(1, 6)}, names
        assert name("4 NS", "Di Lane", "Ed Moor", "9") == (                          # not one of the rounds
            "pair 4 NS: the round the players sit from is one of the movement's rounds (1-5), not 9")
    finally:
        director.quit()


def test_a_form_the_browser_does_not_send_says_so_not_the_last_refusal(room: Room, tmp_path: Path) -> None:
    """Audit a11 F12: a result entered by hand with the contract 8S was refused ("the contract '8S' is a
    level 1-7 ..."); the director fixed the contract and typed tricks 14, or "nine": the browser kept the
    form back (the number box is 0-13) and the old refusal stayed under the form, as if about this one.
    Now the answer says the form was not sent, which box and the browser's own reason."""
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.common.by import By

    director = _director(room, tmp_path, 800)
    wait = _wait(director)
    try:
        enter = director.find_element(By.ID, "enter")
        answer = director.find_element(By.ID, "entry-answer")

        def send(expect: str, **values: str) -> str:
            """Fill ``values`` in, press the button; the answer once it starts with ``expect``."""
            for name, value in values.items():
                enter.find_element(By.NAME, name).clear()
                enter.find_element(By.NAME, name).send_keys(value)
            enter.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
            try:
                wait.until(lambda d: str(answer.get_attribute("textContent")).startswith(expect))
            except TimeoutException:
                raise AssertionError(f"the answer under the form: {answer.get_attribute('textContent')!r}") from None
            assert "refused" in str(answer.get_attribute("class"))
            return str(answer.get_attribute("textContent"))

        enter.find_element(By.CSS_SELECTOR, "select[name=declarer] option[value=N]").click()
        send("the contract '8S' is", key="1 1ns 1ew", contract="8S", lead="SA", tricks="9", why="device failed")
        assert "8S" not in send("Not sent: Tricks: ", contract="3NT", tricks="14")
        assert "Tricks" not in send("Not sent: Line: ", key="")          # another box the browser holds back
        enter.find_element(By.NAME, "key").send_keys("1 1ns 1ew")
        send("Not sent: Tricks: ", tricks="nine")                         # the number box takes no word
        assert room.session.state.entries.get("1/1 NS/1 EW") is None
    finally:
        director.quit()
