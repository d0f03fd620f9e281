"""USEBIO and PBN as their readers take them (issue 29, item 7).

The USEBIO checks restate what four public readers and writers need (docs/session.md names them): a
``CLUB_ID_NUMBER``; ``EVENT_TYPE="PAIRS"`` with a ``BOARD_SCORING_METHOD`` from the format's list;
``PARTICIPANTS`` and ``BOARD`` straight under ``EVENT`` and ``HANDSET`` beside it; every ``PLAYER`` with a
``NATIONAL_ID_NUMBER``; a ``SCORE`` on every line, an artificial score's as ``A6040``. The PBN checks:
``[Date "YYYY.MM.DD"]`` in the hand records too, the players' names, and no table's ``[Auction]`` or
``[Play]`` that contradicts the result after the director corrected it. Every figure is then
recomputed by the outsider (``outsider.py``) from the files alone.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from firmware_host.duplicate.results.export import Player, export
from firmware_host.session.duplicate_session import Session
from laws.scoring import Method
from tests.duplicate import outsider as o
from tests.duplicate.sessionkit import all_results, make_setup, rounds_called

MITCHELL = {"kind": "mitchell", "tables": 5, "boards_per_round": 2}


def _roster(setup: Any) -> dict[str, tuple[Player, ...]]:
    """A roster's players for every pair but 5 EW (a pair nobody named: written empty, never made up)."""
    out: dict[str, tuple[Player, ...]] = {}
    for i, label in enumerate(sorted(setup.names)):
        if label != "5 EW":
            out[label] = (Player(f"Ann {label}", f"M{i}", f"{1000 + 2 * i}"), Player(f"Bob {label}", "", ""))
    return out


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A 5-table Mitchell: board 2 has an artificial 60/40, board 4 an assigned +420, board 1's line of
    round 1 was corrected by the director to 7NT by North making 13, and board 6's line of round 1 was
    entered by hand (no table sent it)."""
    setup = make_setup(MITCHELL, seed=3)
    session = Session.create(tmp_path_factory.mktemp("readers") / "s", setup, analyse=False)
    results = all_results(setup, seed=4)
    by_hand = next(r for r in results if r["board"] == 6)
    results.remove(by_hand)
    typed = {k: v for k, v in by_hand.items() if k not in ("source", "table", "auction", "play", "record")}
    assert all(x.taken for x in session.submit(rounds_called(setup) + results + [dict(typed, by="td")]))
    b1 = next(r for r in results if r["board"] == 1)
    b2 = next(r for r in results if r["board"] == 2)
    b4 = next(r for r in results if r["board"] == 4)
    fixes = [{"type": "correct", "key": f"1/{b1['ns']}/{b1['ew']}", "contract": "7NT", "declarer": "N", "tricks": 13,
              "by": "td", "why": "typed wrong"},
             {"type": "adjust", "board": 2, "ns": b2["ns"], "ew": b2["ew"], "kind": "artificial", "ns_value": 60,
              "ew_value": 40, "by": "td", "why": "slow play"},
             {"type": "adjust", "board": 4, "ns": b4["ns"], "ew": b4["ew"], "kind": "assigned", "ns_value": 420,
              "by": "td", "why": "misinformation"}]
    assert all(x.taken for x in session.submit(fixes))
    players = _roster(setup)
    yield {"session": session, "setup": setup, "players": players, "corrected": b1, "by_hand": typed,
           "usebio": export(session, "usebio", players=players, club_id="4321").decode("utf-8"),
           "pbn": export(session, "pbn", players=players).decode("utf-8"),
           "html": export(session, "html", players=players).decode("utf-8")}
    session.close()


# --- USEBIO ---------------------------------------------------------------------------------------

def test_usebio_sits_where_the_readers_look(files: dict[str, Any]) -> None:
    root = ET.fromstring(files["usebio"])
    assert [c.tag for c in root] == ["CLUB", "EVENT", "HANDSET"]
    assert root.findtext("CLUB/CLUB_ID_NUMBER") == "4321" and root.findtext("CLUB/CLUB_NAME") == "Test club"
    event = root.find("EVENT")
    assert event is not None and event.get("EVENT_TYPE") == "PAIRS"
    assert event.findtext("BOARD_SCORING_METHOD") == "MATCH_POINTS"
    assert event.findtext("DATE") == "30/11/2025"
    assert root.find("EVENT/SESSION") is None and len(root.findall("EVENT/PARTICIPANTS/PAIR")) == 10
    assert len(root.findall("EVENT/BOARD")) == 10 and len(root.findall("HANDSET/BOARD")) == 10


def test_usebio_names_every_player_with_a_national_number_element(files: dict[str, Any]) -> None:
    """Readers index PLAYER_NAME and NATIONAL_ID_NUMBER of both players: both are always there, empty
    when not known (pair 5 EW here), and filled from the roster when it has them."""
    root = ET.fromstring(files["usebio"])
    seen = {}
    for pair in root.findall("EVENT/PARTICIPANTS/PAIR"):
        players = pair.findall("PLAYER")
        assert len(players) == 2
        assert all(p.find("PLAYER_NAME") is not None and p.find("NATIONAL_ID_NUMBER") is not None for p in players)
        seen[(pair.findtext("PAIR_NUMBER"), pair.findtext("DIRECTION"))] = [
            (p.findtext("PLAYER_NAME"), p.findtext("NATIONAL_ID_NUMBER")) for p in players]
    want = files["players"]["3 NS"]
    assert seen[("3", "NS")] == [(want[0].name, want[0].federation), (want[1].name, "")]
    assert seen[("5", "EW")] == [("", ""), ("", "")]
    assert "M" not in "".join(n or "" for v in seen.values() for _, n in v)  # member numbers stay home


@pytest.mark.parametrize(("method", "word"), [(Method.BUTLER, "BUTLER_IMPS"), (Method.CROSS_IMPS, "CROSS_IMPS"),
                                              (Method.MATCHPOINTS_HALF, "MATCH_POINTS")])
def test_every_method_is_a_pairs_event_with_its_scoring_method(tmp_path: Path, method: Method, word: str) -> None:
    setup = make_setup({"kind": "howell", "tables": 4, "boards_per_round": 1}, seed=5, method=method)
    session = Session.create(tmp_path / "s", setup, analyse=False)
    try:
        assert all(x.taken for x in session.submit(rounds_called(setup) + all_results(setup, seed=6)))
        root = ET.fromstring(export(session, "usebio"))
    finally:
        session.close()
    assert root.find("EVENT").get("EVENT_TYPE") == "PAIRS"  # type: ignore[union-attr]
    assert root.findtext("EVENT/BOARD_SCORING_METHOD") == word
    assert root.findtext("CLUB/CLUB_ID_NUMBER") == ""  # no number given: there, empty


def test_every_usebio_line_has_a_score_a_reader_can_use(files: dict[str, Any]) -> None:
    """A played line's SCORE is North-South's score; an assigned one's its North-South value; an
    artificial one ``A6040`` (never empty: readers convert it)."""
    lines = o.usebio_lines(ET.fromstring(files["usebio"]))
    for board, rows in lines.items():
        for r in rows:
            assert re.fullmatch(r"-?\d+|A\d{4}", r["SCORE"]), (board, r)
    (art,) = [r for r in lines[2] if r["SCORE"].startswith("A")]
    assert (art["SCORE"], art["CONTRACT"]) == ("A6040", "")
    assert "420" in [r["SCORE"] for r in lines[4]]


@pytest.mark.parametrize("board", [1, 2, 4, 6])
def test_the_outsider_recomputes_usebio_travellers_from_the_file_alone(files: dict[str, Any], board: int) -> None:
    """Matchpoints of every line, from SCORE (played scores checked against contract and tricks,
    ``A6040`` as 60 % / 40 % of the top): the corrected, artificial, assigned and hand-entered boards."""
    rows = o.usebio_lines(ET.fromstring(files["usebio"]))[board]
    due = files["session"].state.movement.due(board)
    got = [(r["NS_MATCH_POINTS"], r["EW_MATCH_POINTS"]) for r in rows]
    want = [(o.fmt(a), o.fmt(b)) for a, b in o.score_board([o.usebio_oline(r, board) for r in rows], due, "mp")]
    assert got == want


def test_the_outsider_reader_refuses_a_score_that_does_not_follow_from_the_contract(files: dict[str, Any]) -> None:
    """The outsider's USEBIO check can fail: a line whose SCORE is not what its contract scores."""
    rows = o.usebio_lines(ET.fromstring(files["usebio"]))[1]
    played = next(r for r in rows if r["CONTRACT"] not in ("", "PASS"))
    with pytest.raises(AssertionError):
        o.usebio_oline(dict(played, SCORE=str(int(played["SCORE"]) + 10)), 1)


# --- PBN ------------------------------------------------------------------------------------------

def _table_games(pbn: str) -> list[o.Game]:
    return [g for g in o.read_pbn(pbn) if "Table" in g.tags]


def test_no_table_game_says_two_things_after_a_correction(files: dict[str, Any]) -> None:
    """Board 1's line was corrected to 7NT by North making 13: its game must not keep the table's auction
    (which ends in another contract) or play (another declarer, other tricks). Every other game's
    auction ends in its [Contract] by its [Declarer], and its play gives its [Result]."""
    games = _table_games(files["pbn"])
    c = files["corrected"]
    (fixed,) = [g for g in games if g.tags["Board"] == "1" and g.tags["Round"] == str(c["round"])
                and g.tags["Table"] == str(c["table_number"])]
    assert (fixed.tags["Contract"], fixed.tags["Declarer"], fixed.tags["Result"]) == ("7NT", "N", "13")
    assert "Auction" not in fixed.tags and "Play" not in fixed.tags
    checked = 0
    for g in games:
        if "Auction" in g.tags:
            assert o.auction_result(g) == (g.tags["Contract"], g.tags["Declarer"]), g.tags
        if "Play" in g.tags:
            won, lost, complete = o.play_tricks(g)
            result = int(g.tags["Result"])
            assert won == result if complete else (won <= result and lost <= 13 - result), g.tags
            checked += 1
    assert checked >= 40


def test_auction_and_play_sections_separate_their_tokens_by_one_space(files: dict[str, Any]) -> None:
    """PBN's export format separates the tokens of a section by a single space: the calls were padded
    to four characters (``Pass 2S   Pass Pass``) and the cards to two (``-  SA``)."""
    section, seen = "", {"Auction": 0, "Play": 0}
    for line in files["pbn"].split("\r\n"):
        if line.startswith("[") or not line:
            section = line[1:].split(" ")[0] if line.startswith(("[Auction ", "[Play ")) else ""
            continue
        if section:
            seen[section] += 1
            assert line == " ".join(line.split()), (section, line)
    assert seen["Auction"] >= 40 and seen["Play"] >= 40, seen


def test_the_outsider_auction_check_can_fail(files: dict[str, Any]) -> None:
    g = next(g for g in _table_games(files["pbn"]) if "Auction" in g.tags and g.tags["Contract"] != "Pass")
    assert o.auction_result(g) != ("7NT" if g.tags["Contract"] != "7NT" else "1C", g.tags["Declarer"])


def test_pbn_dates_are_pbn_dates_in_the_results_and_the_hand_records(files: dict[str, Any], tmp_path: Path) -> None:
    """PBN's date is YYYY.MM.DD (a reader fails on 2025-11-30); the demo writes its hand records with the
    session's ISO date through write_hand_records."""
    from firmware_host.duplicate.handrecords.handfiles import write_hand_records

    assert set(re.findall(r'\[Date "([^"]*)"\]', files["pbn"])) == {"2025.11.30"}
    write_hand_records(tmp_path / "boards.pbn", files["setup"].boards, event="Test pairs", date="2025-11-30")
    text = (tmp_path / "boards.pbn").read_text(encoding="utf-8")
    assert set(re.findall(r'\[Date "([^"]*)"\]', text)) == {"2025.11.30"}


def test_players_are_named_in_the_seats_and_the_traveller(files: dict[str, Any]) -> None:
    games = o.read_pbn(files["pbn"])
    c = files["corrected"]
    g = next(g for g in games if g.tags["Board"] == "1" and g.tags.get("Round") == str(c["round"]))
    ns, ew = files["players"][c["ns"]], files["players"].get(c["ew"], ())
    assert (g.tags["North"], g.tags["South"]) == (ns[0].name, ns[1].name)
    assert (g.tags["East"], g.tags["West"]) == ((ew[0].name, ew[1].name) if ew else ("", ""))
    rows = [r for g in games if "ScoreTable" in g.tags for r in o.table_rows(g, "ScoreTable")]
    named = {r["PairId_NS"]: r["Names_NS"] for r in rows}
    assert named["3"] == "Ann 3 NS & Bob 3 NS"
    assert {r["Names_EW"] for r in rows if r["PairId_EW"] == "5"} == {"-"}


def test_a_line_entered_by_hand_is_marked_so(files: dict[str, Any]) -> None:
    typed = files["by_hand"]
    games = o.read_pbn(files["pbn"])
    (board6,) = [g for g in games if g.tags["Board"] == "6" and "Table" not in g.tags]
    marks = {(r["PairId_NS"], r["Entry"]) for r in o.table_rows(board6, "ScoreTable")}
    assert (typed["ns"].split()[0], "hand") in marks and sum(m == "hand" for _p, m in marks) == 1
    html = files["html"]
    board = html[html.index('id="board-6"'):html.index('id="board-7"')]
    assert board.count("entered by hand") == 1
