"""Results a club publishes (issue 29, item 6): the printed pages checked as pictures, and the folder.

A 7-table Mitchell of 21 boards (the issue's evening: its results.html printed 10 Letter pages, the
first holding only the title). Each page is printed by headless Chromium (``--print-to-pdf``) on A4 and
on Letter (the paper chosen as a reader's print dialog does, by a ``@page`` size added to a copy), and
the PDF turned into pictures with ``pdftoppm``: page 1 must carry ink well below the title, the
hand-record sheet at least four boards a page. The folder (``export --site``) must hold every page and
file, link only inside itself, and refuse to be written over without ``--force``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from firmware_host.cli import main
from firmware_host.duplicate.results.export import export, export_site
from firmware_host.duplicate.results.results_site import FILES
from firmware_host.session.duplicate_session import Session
from tests.duplicate.sessionkit import all_results, make_setup, rounds_called

PAPERS = ("A4", "letter")


def _need(binary: str) -> None:
    if shutil.which(binary) is None:
        pytest.skip(f"{binary} is not installed (Debian packages chromium and poppler-utils)")


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("publish")
    setup = make_setup({"kind": "mitchell", "tables": 7, "boards_per_round": 3}, seed=3)
    session = Session.create(tmp / "s", setup)
    assert all(x.taken for x in session.submit(rounds_called(setup) + all_results(setup, seed=4)))
    (tmp / "results.html").write_bytes(export(session, "html"))
    sizes = export_site(session, tmp / "site")
    yield {"tmp": tmp, "session": session, "sizes": sizes}
    session.close()


def print_pages(html: Path, paper: str, out: Path) -> list[Image.Image]:
    """The page printed on ``paper`` as pictures (greyscale, 40 dpi), one a page."""
    _need("chromium")
    _need("pdftoppm")
    copy = out / f"{html.stem}-{paper}.html"
    text = html.read_text(encoding="utf-8")
    copy.write_text(text.replace("</head>", f"<style>@page {{ size: {paper}; }}</style></head>", 1), encoding="utf-8")
    pdf = out / f"{html.stem}-{paper}.pdf"
    run = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
                          f"--print-to-pdf={pdf}", copy.as_uri()], capture_output=True, timeout=120)
    assert pdf.exists(), run.stderr[-400:]
    prefix = out / f"{html.stem}-{paper}"
    subprocess.run(["pdftoppm", "-r", "40", "-gray", "-png", str(pdf), str(prefix)], check=True, timeout=60)
    return [Image.open(p).convert("L") for p in sorted(out.glob(f"{prefix.name}-*.png"))]


def inked_rows(img: Image.Image) -> list[int]:
    """The rows of a picture with any ink (a pixel darker than light grey)."""
    w, h = img.size
    px = img.load()
    return [y for y in range(h) if any(px[x, y] < 160 for x in range(0, w, 2))]  # type: ignore[index]


def test_the_ink_check_can_fail(tmp_path: Path) -> None:
    """A page with a title alone is caught: its ink stops in the top fifth."""
    page = tmp_path / "title.html"
    page.write_text("<!doctype html><html><head><style>h1{break-after:page}</style></head><body>"
                    "<h1>Test pairs</h1><p>ranking</p></body></html>", encoding="utf-8")
    pages = print_pages(page, "letter", tmp_path)
    assert len(pages) == 2 and max(inked_rows(pages[0])) < pages[0].size[1] / 5


@pytest.mark.parametrize("paper", PAPERS)
def test_the_results_page_prints_with_the_ranking_on_page_one(published: dict[str, Any], paper: str) -> None:
    pages = print_pages(published["tmp"] / "results.html", paper, published["tmp"])
    first = pages[0]
    rows = inked_rows(first)
    assert rows and max(rows) > first.size[1] * 0.6, "page 1 holds little more than the title"
    # the ranking, 21 boards with diagrams and travellers (four a page), 14 scorecards: 13 pages today
    assert len(pages) <= 14, len(pages)
    for p in pages[:-1]:
        assert inked_rows(p), "an empty page"


@pytest.mark.parametrize("paper", PAPERS)
def test_the_hand_record_sheet_sets_at_least_four_boards_a_page(published: dict[str, Any], paper: str) -> None:
    pages = print_pages(published["tmp"] / "site" / "hands.html", paper, published["tmp"])
    assert len(pages) <= -(-21 // 4), len(pages)  # at least four boards a page (eight today)
    assert max(inked_rows(pages[0])) > pages[0].size[1] * 0.6


def test_a_board_shows_its_hands_in_the_compass_and_the_double_dummy_grid(published: dict[str, Any]) -> None:
    text = (published["tmp"] / "site" / "hands.html").read_text(encoding="utf-8")
    assert text.count('<div class="deal">') == 21 and text.count('class="dd"') == 21
    board1 = text[text.index("Board 1<br>"):text.index("Board 2<br>")]
    deal = published["session"].setup.boards[0].deal.pbn_hand
    from laws.cards import Seat
    west = deal(Seat.W).split(".")[0].replace("T", "10") or "—"
    assert f"♠</span> {west}" in text[:text.index("Board 1<br>")]  # West's spades before the centre
    assert re.search(r"<tr><th>N</th>(<td>\d+</td>){5}</tr>", board1), "the double-dummy grid's North row"


def test_every_pair_has_its_scorecard_from_its_own_side(published: dict[str, Any]) -> None:
    text = (published["tmp"] / "site" / "scorecards.html").read_text(encoding="utf-8")
    session = published["session"]
    pairs = [str(p) for p in session.state.movement.pairs()]
    assert text.count('<section class="card"') == len(pairs) == 14
    card = text[text.index('id="pair-1EW"'):]
    card = card[:card.index("</section>")]
    rows = re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td><td>(NS|EW)</td>.*?</tr>", card)
    assert len(rows) == 21 and {sat for _b, _r, sat in rows} == {"EW"}
    line = next(ln for b in session.scored().boards for ln in b.lines if ln.ew.label == "1 EW")
    assert f"<td>{-line.ns_score}</td>" in card if line.ns_score else True


def test_the_folder_is_whole_and_links_only_inside_itself(published: dict[str, Any]) -> None:
    site = published["tmp"] / "site"
    assert sorted(p.name for p in site.iterdir()) == sorted(FILES)
    for name in FILES:
        if not name.endswith(".html"):
            continue
        text = (site / name).read_text(encoding="utf-8")
        assert "<script" not in text and "http:" not in text and "https:" not in text, name
        for href in re.findall(r'href="([^"#]*)(?:#[^"]*)?"', text):
            assert href == "" or (site / href).is_file(), (name, href)
    assert (site / "results.xml").read_bytes().startswith(b"<?xml")


def test_export_site_refuses_to_write_over_without_force(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Through the command line, on a small session of its own (each command analyses its boards)."""
    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 1}, seed=3)
    session = Session.create(tmp_path / "s", setup, analyse=False)
    assert all(x.taken for x in session.submit(rounds_called(setup) + all_results(setup, seed=4)))
    session.close()
    session_dir = str(tmp_path / "s")
    out = tmp_path / "web"
    out.mkdir()
    (out / "ranking.html").write_text("last week", encoding="utf-8")
    (out / "club.css").write_text("keep", encoding="utf-8")
    rc = main(["duplicate", "export", "--session", session_dir, "--site", str(out)])
    err = capsys.readouterr().err
    assert rc == 2 and "already holds ranking.html; not replaced (--force replaces them)" in err, err
    assert (out / "ranking.html").read_text(encoding="utf-8") == "last week"
    rc = main(["duplicate", "export", "--session", session_dir, "--site", str(out), "--force"])
    assert rc == 0, capsys.readouterr().err
    assert "Ranking" in (out / "ranking.html").read_text(encoding="utf-8")
    assert (out / "club.css").read_text(encoding="utf-8") == "keep"
    (tmp_path / "r.pbn").write_text("mine", encoding="utf-8")
    rc = main(["duplicate", "export", "--session", session_dir, "--format", "pbn", "--out", str(tmp_path / "r.pbn")])
    err = capsys.readouterr().err
    assert rc == 2 and "already exists; not replaced (--force replaces it)" in err and "Traceback" not in err
    assert (tmp_path / "r.pbn").read_text(encoding="utf-8") == "mine"
    rc = main(["duplicate", "export", "--session", session_dir, "--site", str(tmp_path / "r.pbn"), "--force"])
    assert rc == 2 and "is a file; name a folder" in capsys.readouterr().err
    rc = main(["duplicate", "export", "--session", session_dir, "--site", str(out), "--format", "pbn"])
    assert rc == 2 and "give either --format and --out, or --site" in capsys.readouterr().err
    rc = main(["duplicate", "export", "--session", session_dir, "--site", str(out), "--force", "--club-id", "12\x01"])
    assert rc == 2 and "a club's number is at most 32 printable characters" in capsys.readouterr().err


def test_the_outsider_adds_up_each_scorecard_to_the_ranking(published: dict[str, Any]) -> None:
    """From the published files alone: each scorecard line's score follows from its contract, tricks and
    board (DB-77, from the pair's side), its points add up to the pair's total in results.xml, and it
    lists as many boards as the USEBIO says the pair played."""
    import html
    import xml.etree.ElementTree as ET

    from tests.duplicate import outsider as o

    site = published["tmp"] / "site"
    root = ET.parse(site / "results.xml").getroot()
    totals = {(p.findtext("PAIR_NUMBER"), p.findtext("DIRECTION")): (p.findtext("TOTAL_SCORE"), p.findtext("BOARDS_PLAYED"))
              for p in root.findall("EVENT/PARTICIPANTS/PAIR")}
    text = (site / "scorecards.html").read_text(encoding="utf-8")
    cards = re.findall(r'<section class="card" id="pair-(\d+)(NS|EW)">(.*?)</section>', text, re.S)
    assert len(cards) == len(totals) == 14
    for number, direction, body in cards:
        rows = [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)]
                for r in re.findall(r"<tr><td>.*?</tr>", body, re.S)]
        total = sum(o.Fraction(r[9]) for r in rows)
        want_total, want_boards = totals[(number, direction)]
        assert len(rows) == int(want_boards or 0)
        assert abs(total - o.Fraction(want_total)) <= o.Fraction(len(rows), 200), (number, direction)
        for board, _rnd, sat, _against, contract, by, tricks, _lead, score, *_ in rows:
            code = "Pass" if contract == "Passed out" else (
                contract[0] + {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}.get(contract[1], "NT")
                + "X" * contract.count("x"))
            ns = o.ns_score(code, by, int(tricks or 0), int(board))
            assert int(score) == (ns if sat == "NS" else -ns), (number, direction, board)


def test_the_published_pages_read_on_a_phone_a_tablet_and_a_desk(published: dict[str, Any], tmp_path: Path) -> None:
    """At 390, 800 and 1366 px no page of the folder scrolls sideways (a traveller's figures ran off a
    phone's screen): a wide table scrolls inside its own box."""
    from tests.browser import chromium, missing

    if missing():
        pytest.skip(missing())
    driver = chromium(str(tmp_path / "profile"))
    try:
        for width in (390, 800, 1366):
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                   {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": width < 600})
            for name in FILES:
                if name.endswith(".html"):
                    driver.get((published["tmp"] / "site" / name).as_uri())
                    over = driver.execute_script("const d = document.documentElement; return d.scrollWidth - d.clientWidth;")
                    assert over <= 0, f"{name} scrolls sideways by {over} px at {width} px"
    finally:
        driver.quit()


def test_a_site_written_mid_session_shows_a_board_s_hands_only_once_every_table_has_played_it(
        tmp_path: Path) -> None:
    """Mid-session, ``export --site`` (and the dashboard's HTML export) put on the website the diagram, the
    double-dummy grid and the par of boards some tables had still to play. Until the session is finished a
    board's hands are shown once every table that plays it has its line (docs/session.md, "Results out")."""
    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2}, seed=5)
    session = Session.create(tmp_path / "s", setup)
    results = all_results(setup, seed=6)
    board = results[-1]["board"]
    missing = [r for r in results if r["board"] == board][-1]          # one table has still to play it
    assert all(x.taken for x in session.submit(rounds_called(setup) + [r for r in results if r is not missing]))
    site = tmp_path / "site"
    export_site(session, site)
    travellers, sheet = ((site / n).read_text(encoding="utf-8") for n in ("travellers.html", "hands.html"))
    boards = sorted({r["board"] for r in results})
    mine = travellers[travellers.index(f'id="board-{board}"'):]
    mine = mine[:mine.index("</section>")]
    assert f"Board {board}: The hands are shown once every table has played this board." in mine
    assert 'class="deal"' not in mine and 'class="dd"' not in mine
    assert travellers.count('<div class="deal">') == sheet.count('<div class="deal">') == len(boards) - 1
    pbn = (site / "results.pbn").read_text(encoding="utf-8")
    game = pbn[pbn.index(f'[Board "{board}"]'):]
    game = game[:game.index("\n\n")]
    assert '[Deal "' in game and ':- - - -"]' in game and "OptimumScore" not in game
    assert pbn.count(f'[Board "{board}"]') == 1        # no result game: its play would show the hands
    xml = (site / "results.xml").read_text(encoding="utf-8")
    assert f"<BOARD_NUMBER>{board}</BOARD_NUMBER>" not in xml.split("<HANDSET>")[1]
    assert "The hands are shown once" in export(session, "html").decode()
    assert ':- - - -"]' not in export(session, "pbn").decode()          # the scorers' own file: every hand
    assert all(x.taken for x in session.submit([missing]))               # the last line: the session ends
    assert session.state.finished()
    export_site(session, site, force=True)
    assert (site / "travellers.html").read_text(encoding="utf-8").count('<div class="deal">') == len(boards)
    session.close()
