"""Results out: PBN 2.1 read back with endplay and USEBIO 1.2 with the standard library's XML parser, every
traveller line's score and matchpoints checked against an independent recomputation (``recompute``,
which uses none of the code under test); the same session exported twice gives the same bytes; the
HTML page carries the ranking and every traveller."""

from __future__ import annotations

import shlex
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from firmware_host.duplicate.results.export import ExportError, export, write_export
from firmware_host.session.duplicate_session import Session

from . import recompute
from .sessionkit import all_results, make_setup, rounds_called

MITCHELL_5 = {"kind": "mitchell", "tables": 5, "boards_per_round": 2}
FOULED = {3: 3, 7: 2}   # board -> the round from which its copy is misboarded


def expected_groups(lines: list[dict[str, Any]], from_round: int | None) -> dict[int, str]:
    """The groups the tables found, restated for the test: the record's group until the first table
    from the misboarded round on that played the board (a passed-out board shows nothing), the other
    group from there."""
    out, fouled = {}, False
    for ln in sorted(lines, key=lambda r: r["round"]):
        if from_round is not None and ln["round"] >= from_round and ln["contract"] != "Pass":
            fouled = True
        out[ln["round"]] = "B" if fouled else "A"
    return out


def expected_points(session: Session, results: list[dict[str, Any]], adjusted: dict[tuple[int, str], Any],
                    fouled: dict[int, int]) -> dict[tuple[int, str, str], tuple[int | None, Fraction, Fraction]]:
    """(board, NS pair number, EW pair number) -> (NS score or None, NS MP, EW MP), recomputed."""
    out = {}
    for board in session.state.movement.boards():
        lines = [r for r in results if r["board"] == board]
        groups = expected_groups(lines, fouled.get(board))
        due = sum(1 for s in session.state.movement.seatings
                  if s.played and board in session.state.movement.boards_of(s.group))
        rows = []
        for r in lines:
            adj = adjusted.get((board, r["ns"]))
            if adj is not None and adj[0] == "artificial":
                rows.append(recompute.Line(None, "A", (Fraction(adj[1]), Fraction(adj[2]))))
            elif adj is not None:
                rows.append(recompute.Line(adj[1], groups[r["round"]]))
            else:
                rows.append(recompute.Line(recompute.score(board, r["contract"], r["declarer"] or "", r["tricks"]),
                                           groups[r["round"]]))
        for r, ln, (ns, ew) in zip(lines, rows, recompute.matchpoints(rows, due)):
            out[(board, r["ns"].split()[0], r["ew"].split()[0])] = (ln.ns_score, ns, ew)
    return out


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> tuple[Session, list[dict[str, Any]], dict, bytes, bytes, bytes]:
    tmp = tmp_path_factory.mktemp("exports")
    setup = make_setup(MITCHELL_5, seed=11)
    session = Session.create(tmp / "s", setup, synchronous="NORMAL", clock=lambda: 1700000000.0)
    results = all_results(setup, seed=12, fouled=FOULED)
    for r in range(2, 6):
        session.take({"type": "round", "round": r, "by": "test"})
    assert all(o.taken for o in session.submit(results))
    # the director: an artificial score, an assigned score, a correction
    art, asg, fix = results[0], results[5], results[9]
    adjusted = {(art["board"], art["ns"]): ("artificial", "60", "40"), (asg["board"], asg["ns"]): ("assigned", 420)}
    session.take({"type": "adjust", "board": art["board"], "ns": art["ns"], "ew": art["ew"], "kind": "artificial",
                  "ns_value": "60", "ew_value": "40", "by": "td", "why": "slow play"})
    session.take({"type": "adjust", "board": asg["board"], "ns": asg["ns"], "ew": asg["ew"], "kind": "assigned",
                  "ns_value": "420", "ew_value": "", "by": "td"})
    corrected = dict(fix, contract="3NT", declarer="S", tricks=8)
    session.take({"type": "correct", "key": f"{fix['board']}/{fix['ns']}/{fix['ew']}", "contract": "3NT",
                  "declarer": "S", "tricks": 8, "by": "td"})
    results = [corrected if r is fix else r for r in results]
    pbn, xml, html = (export(session, f) for f in ("pbn", "usebio", "html"))
    return session, results, adjusted, pbn, xml, html


def test_the_same_session_exported_twice_gives_the_same_bytes(scored: Any, tmp_path: Path) -> None:
    session, _r, _a, pbn, xml, html = scored
    assert (export(session, "pbn"), export(session, "usebio"), export(session, "html")) == (pbn, xml, html)
    reopened = Session.open(session.journal.path)
    assert export(reopened, "pbn") == pbn and export(reopened, "usebio") == xml  # and after a restart
    assert write_export(session, "pbn", tmp_path / "r.pbn") == len(pbn)
    assert (tmp_path / "r.pbn").read_bytes() == pbn


def test_pbn_reads_back_with_endplay_and_every_traveller_line_is_right(scored: Any) -> None:
    from endplay.parsers import pbn as pbn_parser

    session, results, adjusted, pbn, _x, _h = scored
    expected = expected_points(session, results, adjusted, FOULED)
    games = pbn_parser.loads(pbn.decode("utf-8"))
    tables = [g for g in games if "ScoreTable" in g.info]
    assert [g.board_num for g in tables] == list(session.state.movement.boards())
    checked = 0
    for g in tables:
        head = [c["name"] if isinstance(c, dict) else c for c in g.info["ScoreTable"]["headers"]]
        for row in g.info["ScoreTable"]["rows"]:
            cells = dict(zip(head, row))
            score, ns, ew = expected[(g.board_num, cells["PairId_NS"], cells["PairId_EW"])]
            if score is not None:
                got = int(cells["Score_NS"]) if cells["Score_NS"] != "-" else -int(cells["Score_EW"])
                assert got == score, (g.board_num, cells)
            assert recompute.close(float(cells["MP_NS"]), float(ns)), (g.board_num, cells, float(ns))
            assert recompute.close(float(cells["MP_EW"]), float(ew)), (g.board_num, cells, float(ew))
            checked += 1
    assert checked == len(results)
    played = [g for g in games if g.contract is not None and "Table" in g.info]
    assert len(played) == len(results) - 2   # every table's result but the two adjusted
    for g in played[:10]:
        assert len(g.play) in (0, 52) and g.deal is not None
    first = games[0]
    assert "TotalScoreTable" in first.info and first.info["OptimumScore"].startswith(("NS ", "EW "))
    assert len(first.info["DoubleDummyTricks"]) == 20


def test_the_pbn_ranking_adds_up_the_recomputed_matchpoints(scored: Any) -> None:
    session, results, adjusted, pbn, _x, _h = scored
    expected = expected_points(session, results, adjusted, FOULED)
    text = pbn.decode("utf-8")
    block = text.split("[TotalScoreTable ")[1].split("\r\n[")[0].split("\r\n")[1:]
    totals: dict[tuple[str, str], Fraction] = {}
    for (_b, nsp, ewp), (_s, ns, ew) in expected.items():
        totals[(nsp, "N-S")] = totals.get((nsp, "N-S"), Fraction(0)) + ns
        totals[(ewp, "E-W")] = totals.get((ewp, "E-W"), Fraction(0)) + ew
    rows = [shlex.split(line) for line in block if line.strip()]
    assert len(rows) == 10
    for _rank, pair, direction, total, _pct, _boards, _names in rows:
        assert recompute.close(float(total), float(totals[(pair, direction)])), (pair, direction)


def test_usebio_reads_back_with_every_pair_player_board_line_and_matchpoints(scored: Any) -> None:
    session, results, adjusted, _p, xml, _h = scored
    expected = expected_points(session, results, adjusted, FOULED)
    root = ET.fromstring(xml)
    assert root.tag == "USEBIO" and root.get("Version") == "1.2"
    event = root.find("EVENT")
    assert event is not None and event.findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
    pairs = root.findall(".//PARTICIPANTS/PAIR")
    assert len(pairs) == 10 and all(len(p.findall("PLAYER/PLAYER_NAME")) == 2 for p in pairs)
    assert {p.findtext("PLAYER/PLAYER_NAME") for p in pairs} == {f"A{p}" for p in session.state.movement.pairs()}
    lines = root.findall("EVENT/BOARD/TRAVELLER_LINE")
    assert len(lines) == len(results)
    for b in root.findall("EVENT/BOARD"):
        number = int(b.findtext("BOARD_NUMBER") or 0)
        for ln in b.findall("TRAVELLER_LINE"):
            score, ns, ew = expected[(number, ln.findtext("NS_PAIR_NUMBER"), ln.findtext("EW_PAIR_NUMBER"))]
            if score is not None:
                assert int(ln.findtext("SCORE") or "x") == score
            assert recompute.close(float(ln.findtext("NS_MATCH_POINTS") or "nan"), float(ns))
            assert recompute.close(float(ln.findtext("EW_MATCH_POINTS") or "nan"), float(ew))
    hands = root.findall("HANDSET/BOARD")  # beside EVENT, where readers look
    assert len(hands) == 10 and all(len(h.findall("HAND")) == 4 for h in hands)


def test_the_html_page_has_the_ranking_and_every_traveller(scored: Any) -> None:
    session, results, _a, _p, _x, html = scored
    text = html.decode("utf-8")
    assert text.startswith("<!doctype html>") and "<script" not in text
    assert text.count('<section class="board" id="board-') == 10 and text.count('<section class="card"') == 10
    assert "North-South" in text and "East-West" in text and "A1 NS &amp; B1 NS" in text
    assert "fouled board" in text and "artificial 60/40" in text


def test_an_unknown_format_or_a_folder_is_refused(scored: Any, tmp_path: Path) -> None:
    session = scored[0]
    with pytest.raises(ExportError, match="the format is one of pbn, usebio, html, not 'csv'"):
        export(session, "csv")
    with pytest.raises(ExportError, match="is a directory; name a file"):
        write_export(session, "pbn", tmp_path)


def test_the_fouled_boards_group_column_is_where_docs_session_md_says(scored: Any) -> None:
    """docs/session.md ("Fouled boards") shows the ScoreTable's columns around ``Group``; they must be the
    file's. It said "one more column at the end", but with names known ``Group`` comes before them."""
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "session.md").read_text(encoding="utf-8")
    bullet = doc.split("* **Fouled boards.**")[1].split("\n* ")[0]
    documented = re.search(r"`\.\.\.;([^`]*Group[^`]*)`", bullet)
    assert documented is not None, bullet
    headers = re.findall(r'\[ScoreTable "([^"]*)"\]', scored[3].decode("utf-8"))
    with_group = [h for h in headers if "Group" in h and "Entry" not in h]
    assert with_group and all(h.endswith(";" + documented.group(1)) for h in with_group), (documented.group(1), with_group)


def test_pbn_results_are_utf8_without_a_byte_order_mark_as_the_documents_say(tmp_path: Path) -> None:
    """A name beyond Latin-1 is written as UTF-8 with no byte order mark, and docs/session.md and
    docs/competitions.md say so where PBN results are described (they did not say which encoding,
    and PBN's standard names ISO 8859-1)."""
    import re

    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2}, names=False)
    session = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    try:
        assert session.take({"type": "players", "pair": "1 NS", "by": "td", "players": [
            {"name": "Łukasz Żółć", "member": "", "federation": ""},
            {"name": "Antonín Dvořák", "member": "", "federation": ""}]}).taken
        assert all(o.taken for o in session.submit(rounds_called(setup) + all_results(setup)))
        pbn = export(session, "pbn")
    finally:
        session.close()
    assert not pbn.startswith(b"\xef\xbb\xbf") and "Łukasz Żółć & Antonín Dvořák".encode() in pbn
    docs = Path(__file__).resolve().parents[2] / "docs"
    session_md = (docs / "session.md").read_text(encoding="utf-8")
    assert re.search(r"\*\*PBN 2\.1\*\* \([^)]*UTF-8 without a byte order mark\)", session_md)
    assert "### PBN 2.1 (`results.pbn`, export format, CR LF, UTF-8)" in (docs / "competitions.md").read_text("utf-8")
