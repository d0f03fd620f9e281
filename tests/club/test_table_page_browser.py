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
