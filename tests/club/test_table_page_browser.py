"""Audit 65: a table's page for its players in headless Chromium (the set-up of
``test_duplicate_phones``: a broker, the dashboard with a 5-table Mitchell, no tables; a table's status
given to the dashboard's club state as the link would give it). "At the table" shows the ruling waiting
with its law and the lamps lit, wraps on a phone (no sideways scroll, nothing under 12 px), says when the
table's device is offline; "Enter a result" pressed twice gives one result and one answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.duplicate.views import director_view
from firmware_host.session.duplicate_session import SessionDesk
from tests.duplicate.sessionkit import all_results

from .test_director_screen import _axe
from .test_duplicate_phones import Room, _browser, _wait, room  # noqa: F401  (the fixture)


def _page(room: Room, tmp_path: Path, width: int, tid: str = "table-02") -> Any:  # noqa: F811
    from selenium.webdriver.common.by import By

    d = _browser(tmp_path, width)
    desk: SessionDesk = room.desk
    d.get(room.url + f"duplicate/table/{tid}?key={desk.table_key(tid)}")
    _wait(d).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#conn.live"))
    return d


def test_enter_pressed_twice_gives_one_result_and_keeps_the_success(room: Room, tmp_path: Path) -> None:  # noqa: F811
    """F8: the second press went out while the first was on its way; its 409 ("has a result already ...
    correct it instead") replaced "Entered". The button is disabled while the request is on its way."""
    from selenium.webdriver.common.by import By

    for rec in all_results(room.setup):      # round 1 but table 2's board 3: its device failed
        if rec["round"] == 1 and (rec["table_number"], rec["board"]) != (2, 3):
            assert room.desk.session.take(rec).taken
    d = _page(room, tmp_path, 390)
    try:
        _wait(d).until(lambda d: d.find_element(By.ID, "enter-part").is_displayed())
        form = d.find_element(By.ID, "enter")
        for name, value in (("contract", "3nt"), ("lead", "s4"), ("tricks", "9")):
            form.find_element(By.NAME, name).send_keys(value)
        form.find_element(By.CSS_SELECTOR, "select[name=declarer] option[value=N]").click()
        d.execute_script("const f = document.getElementById('enter'); f.requestSubmit(); f.requestSubmit();")
        _wait(d).until(lambda d: not form.find_element(By.CSS_SELECTOR, "button[type=submit]").get_attribute("disabled")
                       and d.find_element(By.ID, "enter-answer").text != "")
        answer = d.find_element(By.ID, "enter-answer")
        assert answer.text == "Entered: the director sees it as entered by hand.", answer.text
        assert "refused" not in answer.get_attribute("class")
        assert room.session.state.entries["3/2 NS/2 EW"].hand
        with room.desk.lock:
            refusals = director_view(room.session)["refusals"]
        assert not any("has a result already" in x["why"] for x in refusals), refusals
    finally:
        d.quit()


SMALL = """
const out = [];
const walker = document.createTreeWalker(document.getElementById('game-section'), NodeFilter.SHOW_TEXT);
while (walker.nextNode()) {
  const n = walker.currentNode, e = n.parentElement;
  if (!n.textContent.trim() || !e.getClientRects().length) continue;
  const px = parseFloat(getComputedStyle(e).fontSize);
  if (px < 12) out.push(e.tagName.toLowerCase() + ' "' + n.textContent.trim().slice(0, 30) + '" at ' + px.toFixed(2) + ' px');
}
return out;
"""


def test_at_the_table_shows_the_ruling_wraps_on_a_phone_and_says_offline(room: Room, tmp_path: Path) -> None:  # noqa: F811
    """F1: the ruling waiting, its law and clause, the lamp lit. F2: at 360 and 390 px the block was a
    <pre> of 73-76 characters and the page scrolled sideways. F3: its text was 11.05 px. F7: the table's
    device stopped and the page still showed its last game as live."""
    import json

    from selenium.webdriver.common.by import By

    from .test_table_page_game import _status_with_an_insufficient_bid

    ruling, status = _status_with_an_insufficient_bid(tmp_path / "t")
    room.dash.state.ingest("cardtable/t9/ruling", json.dumps(ruling).encode(), 0.0)
    room.dash.state.ingest("cardtable/t9/status", json.dumps(status).encode(), 0.0)
    for width in (360, 390):
        d = _page(room, tmp_path, width)
        try:
            _wait(d).until(lambda d: d.find_element(By.ID, "ruling").is_displayed())
            assert d.find_element(By.ID, "ruling-headline").text == "Ruling: INSUFFICIENT BID"
            assert d.find_element(By.ID, "ruling-reason").text.startswith("East bid one club")
            assert d.find_element(By.ID, "ruling-law").text == "Duplicate Bridge, law 27 [BP-27]"
            assert d.find_element(By.ID, "lamps").text == "Lamps lit: ATTENTION South"
            game = d.find_element(By.ID, "game").text
            assert "An irregularity waits for a ruling (above); the director is called." in game
            assert [c.text for c in d.find_elements(By.CSS_SELECTOR, "#game table.auction th")] == \
                ["West", "North", "East", "South"]
            assert not d.find_elements(By.CSS_SELECTOR, "#game-section pre")
            over = d.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
            assert over <= 0, f"at {width} px the page scrolls sideways by {over} px"
            assert d.execute_script(SMALL) == []
            assert not d.find_element(By.ID, "offline").is_displayed()
            bad = [v for v in _axe(d) if v["impact"] in ("serious", "critical")]
            assert not bad, bad
        finally:
            d.quit()
    d = _page(room, tmp_path, 390)
    try:
        room.dash.state.ingest("cardtable/t9/online", json.dumps({"table": "t9", "online": False}).encode(), 1.0)
        _wait(d).until(lambda d: d.find_element(By.ID, "offline").is_displayed())
        assert d.find_element(By.ID, "offline").text.startswith("This table's device is offline: what is shown "
                                                               "here is the last it sent")
    finally:
        d.quit()
