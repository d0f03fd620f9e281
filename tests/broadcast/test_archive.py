"""`cardtable broadcast export`: LIN and replay pages from the tables' journals; a tampered journal,
a folder that is not empty, a path with no journal: one clear line and the exit codes docs say."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

from firmware_host.cli import main


def test_export_writes_lin_and_replay(journals: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "site"
    assert main(["broadcast", "export", "--journals", *map(str, journals), "--out", str(out), "--title", "Tuesday"]) == 0
    assert "3 boards, 9 tables' plays" in capsys.readouterr().out
    assert len(list((out / "lin").glob("board-*.lin"))) == 9
    assert len((out / "lin" / "session.lin").read_text(encoding="utf-8").splitlines()) == 9
    index = (out / "replay" / "index.html").read_text(encoding="utf-8")
    assert "Tuesday" in index and 'href="board-01.html"' in index
    page = (out / "replay" / "board-02.html").read_text(encoding="utf-8")
    assert page.count("Table ") >= 3 and "</script><script>" in page
    # a second export into the same folder is refused without --force
    assert main(["broadcast", "export", "--journals", *map(str, journals), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not empty" in err and "Traceback" not in err


def test_a_tampered_journal_is_refused(journals: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "t.sqlite3"
    shutil.copy(journals[0], copy)
    with sqlite3.connect(copy) as db:    # a card changed after the fact, as someone with the file could
        db.execute("DROP TRIGGER journal_no_update")
        db.execute("UPDATE journal SET body = replace(body, '\"card\":\"', '\"card\":\"A') WHERE seq = "
                   "(SELECT min(seq) FROM journal WHERE body LIKE '%card_played%')")
    code = main(["broadcast", "export", "--journals", str(copy), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 1 and err.startswith("cardtable broadcast export: TAMPERED")
    assert not (tmp_path / "o" / "lin").exists()


def test_a_path_with_no_journal_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["broadcast", "export", "--journals", str(tmp_path / "none"), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.strip() == f"cardtable broadcast export: {tmp_path / 'none'}: no journal there"


def test_a_journal_named_twice_is_refused(journals: list[Path], tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``--journals`` naming one table's journal twice (its folder and its file, a glob that caught both)
    wrote each of its boards twice: two identical "Table 1" tabs on each replay page and every board twice
    in ``session.lin``."""
    again = journals[0].parent          # the table's folder: the same journal
    code = main(["broadcast", "export", "--journals", *map(str, journals), str(again), "--out", str(tmp_path / "o")])
    assert code == 2
    assert capsys.readouterr().err.strip() == (f"cardtable broadcast export: {again / 'journal.sqlite3'}: named twice "
                                               f"(as {journals[0]} too); name each table's journal once")
    assert not (tmp_path / "o").exists()


def test_the_lin_names_the_players_and_the_closed_room_as_the_live_lin_does(
        session_dir: Path, journals: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/broadcast.md: ``pn`` holds the roster's names, else the pair's label, and ``qx`` is ``c`` for a
    teams match's closed room. The export read the journals alone: its LIN named every player by the pair's
    label (``1 NS``) and every room ``o``, where the live LIN of the same boards had the names and ``c``."""
    import re

    out = tmp_path / "named"
    assert main(["broadcast", "export", "--journals", *map(str, journals), "--out", str(out),
                 "--session", str(session_dir / "session")]) == 0
    first = (out / "lin" / "session.lin").read_text().splitlines()[0]
    assert re.match(r"pn\|Player \d+NS B,Player \d+EW B,Player \d+NS A,Player \d+EW A\|qx\|o\d+\|", first), first
    from firmware_host.cli import main as cli

    event = tmp_path / "ev"
    assert cli(["event", "open", str(event), "--kind", "teams-round-robin", "--entrants", "4", "--rounds", "3",
                "--boards", "2", "--tables", "table-01,table-02,table-03,table-04"]) == 0
    capsys.readouterr()
    rooms = tmp_path / "rooms"
    assert main(["broadcast", "export", "--journals", *map(str, journals), "--out", str(rooms),
                 "--event", str(event)]) == 0
    for lin in (rooms / "lin").glob("board-*-table-*.lin"):
        table = int(lin.stem.rsplit("-", 1)[1])
        assert f"|qx|{'c' if table % 2 == 0 else 'o'}" in lin.read_text(), lin.name
    assert main(["broadcast", "export", "--journals", *map(str, journals), "--out", str(tmp_path / "none"),
                 "--session", str(tmp_path)]) == 2
    assert "no duplicate session there" in capsys.readouterr().err and not (tmp_path / "none").exists()


def test_the_replay_pages_pass_axe(journals: list[Path], tmp_path: Path) -> None:
    """A board's page opens before its first card with the trick's box empty, a div with an aria-label and
    no role (axe's aria-prohibited-attr, serious); neither page had a main landmark (landmark-one-main,
    region)."""
    from tests import browser

    if browser.missing():
        pytest.skip(browser.missing())
    axe = Path(__file__).resolve().parents[2] / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
    if not axe.exists():
        pytest.fail(f"{axe} is missing: `make test` installs axe-core from npm")
    out = tmp_path / "site"
    assert main(["broadcast", "export", "--journals", *map(str, journals), "--out", str(out)]) == 0
    driver = browser.chromium(str(tmp_path / "profile"))
    try:
        driver.set_window_size(390, 900)
        for page in ("index.html", "board-01.html"):
            driver.get((out / "replay" / page).as_uri())
            driver.execute_script(axe.read_text(encoding="utf-8"))
            found = driver.execute_async_script(
                "const done = arguments[arguments.length - 1];"
                "axe.run(document, {resultTypes: ['violations']}).then((r) => done(r.violations.map("
                "(v) => [v.id, v.impact, v.nodes.map((n) => n.target.join(' '))])));")
            assert found == [], (page, found)
    finally:
        driver.quit()


def test_the_replay_steps_through_the_cards_in_a_browser(journals: list[Path], tmp_path: Path) -> None:
    from tests import browser

    if browser.missing():
        pytest.skip(browser.missing())
    out = tmp_path / "site"
    assert main(["broadcast", "export", "--journals", *map(str, journals), "--out", str(out)]) == 0
    driver = browser.chromium(str(tmp_path / "profile"))
    try:
        driver.set_window_size(390, 900)
        driver.get((out / "replay" / "board-01.html").as_uri())
        where = driver.find_element("id", "where")
        assert where.text.startswith("card 0 of ")
        driver.find_element("id", "next").click()
        assert where.text.startswith("card 1 of ")
        assert len(driver.find_element("id", "trick").find_elements("css selector", "div")) == 1
        driver.find_element("id", "last").click()
        assert "tricks NS" in where.text
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
        buttons = driver.find_elements("css selector", ".tabs button")
        buttons[-1].click()
        assert buttons[-1].get_attribute("aria-pressed") == "true"
        assert driver.find_element("id", "auction").text.startswith("West North East South")
    finally:
        driver.quit()


def test_the_published_results_link_each_traveller_to_its_replay(session_dir: Path, journals: list[Path],
                                                                tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 32 item 5: the replay sits beside the travellers in the folder a club publishes, and they link
    to it: the replay written first (`broadcast export --out SITE`), then the results (`duplicate export
    --site SITE`); a results folder written with no replay in it has no such link."""
    site = tmp_path / "site"
    assert main(["broadcast", "export", "--journals", *map(str, journals), "--out", str(site)]) == 0
    assert main(["duplicate", "export", "--session", str(session_dir / "session"), "--site", str(site)]) == 0
    capsys.readouterr()
    travellers = (site / "travellers.html").read_text(encoding="utf-8")
    for board in (1, 2, 3):
        link = f'href="replay/board-{board:02d}.html"'
        assert travellers.count(link) == 1, board
        assert (site / "replay" / f"board-{board:02d}.html").is_file()
    assert 'href="replay/index.html"' in (site / "index.html").read_text(encoding="utf-8")
    bare = tmp_path / "bare"
    assert main(["duplicate", "export", "--session", str(session_dir / "session"), "--site", str(bare)]) == 0
    assert "replay/" not in (bare / "travellers.html").read_text(encoding="utf-8")
    assert "replay/" not in (bare / "index.html").read_text(encoding="utf-8")


def test_a_hostile_pair_name_neither_runs_nor_stops_the_replay_page(tmp_path: Path) -> None:
    """A name is text from outside (a visitor's name the director typed, a roster): ``<!--<script>`` in the
    data block put Chromium's parser in the script's double-escaped state, so the block ran on over the
    page's own script and the replay drew nothing (the block escaped only ``</``)."""
    from firmware_host.broadcast.replay_html import board_page
    from laws.broadcast.feed import BoardPlay
    from laws.cards import Seat
    from tests import browser

    if browser.missing():
        pytest.skip(browser.missing())
    hands = {Seat.N: "AKQJ.AKQ.AKQ.AKQ", Seat.E: "T98.JT9.JT9.JT98", Seat.S: "765.876.876.7654",
             Seat.W: "432.5432.5432.32"}
    ns, ew = "<!--<script>", "x</script><script>window.pwned = 1</script> & <b>"
    page = tmp_path / "board-01.html"
    page.write_text(board_page("T", 1, [BoardPlay(table=1, board=1, dealer=Seat.N, vulnerable="None",
                                                  hands=hands, ns=ns, ew=ew)], [1]), encoding="utf-8")
    driver = browser.chromium(str(tmp_path / "profile"))
    try:
        driver.get(page.as_uri())
        assert driver.find_element("id", "where").text.startswith("card 0 of ")
        assert driver.find_element("id", "hN").text.startswith(f"North {ns}")
        assert driver.find_element("id", "hE").text.startswith(f"East {ew}")
        assert driver.execute_script("return window.pwned || null") is None
    finally:
        driver.quit()
