"""Issue 29, item 1: the club's roster, the players file of ``duplicate open --players``, the ``players``
record in the session (journaled, replayed, on the screens and exports), and a table told only the names
of the players seated at it."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.cli import main
from firmware_host.duplicate.views import director_view, table_view, who
from firmware_host.session.duplicate_session import Session, SessionDesk
from firmware_host.session.roster import RosterError, parse_roster, read_players, read_roster
from laws.session.duplicate.spec import label, pair_of_label
from tests.duplicate.sessionkit import make_setup

SPEC = {"kind": "mitchell", "tables": 3, "boards_per_round": 2}
ROSTER = b"Member,Name,Federation\r\n1021,Ann Smith,EBU-77\r\n1045,Bob Jones\r\n1102,Cy Young,\r\n\r\n2001,\xc3\x89mile Zola,\r\n"
PAIRS = ["1 NS", "2 NS", "3 NS", "1 EW", "2 EW", "3 EW"]


def test_a_roster_reads_with_or_without_a_header() -> None:
    r = parse_roster(ROSTER, "roster.csv")
    assert len(r) == 4 and r.members["2001"].name == "Émile Zola" and r.members["1021"].federation == "EBU-77"
    assert len(parse_roster(b"\xef\xbb\xbf1021,Ann Smith\n", "r.csv")) == 1      # BOM, no header
    assert r.player("1021") == {"name": "Ann Smith", "member": "1021", "federation": "EBU-77"}
    assert r.player(" Jane Visitor ") == {"name": "Jane Visitor", "member": "", "federation": ""}


@pytest.mark.parametrize("data, message", [
    (b"1021,Ann Smith\n1021,Bob Jones\n", "roster.csv: line 2: member number 1021 is on line 1 too"),
    (b"1021,Ann Smith\n10 22,Bob\n", "roster.csv: line 2: '10 22' is not a member number"),
    (b"1021\n", "roster.csv: line 1: 1 fields; a member is 'member number,name'"),
    (b"1021,Ann,EBU,extra\n", "roster.csv: line 1: 4 fields"),
    (b"1021,Ann\n1022,\"Bob\nJones\"\n", "roster.csv: line 3: the name 'Bob\\nJones' holds a control character (U+000A)"),
    (b"1021,Ann\x1b[31mRed\n", "roster.csv: line 1: the name 'Ann\\x1b[31mRed' holds a control character (U+001B)"),
    (b"1021,Ann\n1022,B\xffb\n", "roster.csv: line 2: not UTF-8 text (byte ff)"),
    (b"1021,Ann,EBU 77\n", "roster.csv: line 1: 'EBU 77' is not a federation number"),
    (b"Member,Name\n", "roster.csv: no member in it"),
    # the results join a pair's names with " & " (an event's with " - "): a name holding one could not be
    # told from two players (PBN's "Smith & Wesson & Ann O'Neil")
    (b"1021,Ann\n1022,Smith & Wesson\n", "roster.csv: line 2: the name 'Smith & Wesson' holds ' & ', which the "
                                        "results write between the players of a pair or team; write it another way"),
    (b"1021,Ann - Marie Lee\n", "roster.csv: line 1: the name 'Ann - Marie Lee' holds ' - '"),
])
def test_a_bad_roster_row_is_refused_naming_its_line(data: bytes, message: str) -> None:
    with pytest.raises(RosterError) as info:
        parse_roster(data, "roster.csv")
    assert str(info.value).startswith(message), str(info.value)


def _players(tmp_path: Path, text: str) -> list[dict]:
    p = tmp_path / "players.csv"
    p.write_text(text, encoding="utf-8")
    return read_players(p, parse_roster(ROSTER, "roster.csv"), PAIRS, lambda t: label(pair_of_label(t)))


def test_a_players_file_names_members_and_visitors(tmp_path: Path) -> None:
    recs = _players(tmp_path, "pair,player,player\n1NS,1021,1045\n2 EW,2001,Jane Visitor\n")
    assert [r["pair"] for r in recs] == ["1 NS", "2 EW"]
    assert recs[1]["players"] == [{"name": "Émile Zola", "member": "2001", "federation": ""},
                                  {"name": "Jane Visitor", "member": "", "federation": ""}]


@pytest.mark.parametrize("text, message", [
    ("1 NS,1021,9999\n", "line 1: member number 9999 is not in the roster (roster.csv)"),
    ("1 NS,1021,1045\n2 EW,1102,1021\n", "line 2: pair 2 EW: member 1021 (Ann Smith) already plays in pair 1 NS; "
                                         "one player cannot be at two tables"),
    ("1 NS,1021,1021\n", "line 1: pair 1 NS: member 1021 is named twice in the pair"),
    ("1 NS,1021,1045\n1NS,1102,Jane\n", "line 2: pair 1 NS is on line 1 too"),
    ("4 NS,1021,1045\n", "line 1: '4 NS' is not a pair of this session"),
    ("1 NS,1021,1045\nx,1,2\n", "line 2: 'x' is not a pair (want '3 NS', or '5' in a Howell)"),
    ("1 NS,1021,Jane\tVisitor\n", "line 1: the name 'Jane\\tVisitor' holds a control character (U+0009); type the name again"),
    ("1 NS,1021\n", "line 1: 2 fields; a line is 'pair,player,player'"),
    ("1 NS,1021,Jane & Joe\n", "line 1: the name 'Jane & Joe' holds ' & ', which the results write between the "
                               "players of a pair or team; write it another way ('and', or without the spaces)"),
    # an empty file, or one with its header only, was taken as naming no one (open went on, exit 0)
    ("", "no pair in it (a line is 'pair,player,player')"),
    ("\n\n", "no pair in it (a line is 'pair,player,player')"),
    ("pair,player,player\n", "no pair in it (a line is 'pair,player,player')"),
])
def test_a_bad_players_file_is_refused_with_one_message(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(RosterError) as info:
        _players(tmp_path, text)
    assert str(info.value) == f"{tmp_path / 'players.csv'}: {message}"


def test_the_session_journals_players_and_tells_each_table_only_its_own(tmp_path: Path) -> None:
    setup = make_setup(SPEC, names=False)
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"))
    (tmp_path / "s" / "roster.csv").write_bytes(ROSTER)
    ann = read_roster(tmp_path / "s" / "roster.csv").player("1021")
    jane = {"name": "Jane Visitor", "member": "", "federation": ""}
    assert desk.director({"type": "players", "pair": "1 NS", "players": [ann, jane], "by": "td"}).taken
    # one player at two tables, a control character, an unknown pair: refused, each with one message
    for rec, why in (
        ({"pair": "2 EW", "players": [ann, jane]}, "pair 2 EW: member 1021 (Ann Smith) already plays in pair 1 NS"),
        ({"pair": "2 EW", "players": [{"name": "Bo\u200bb"}, jane]}, "holds a control character (U+200B)"),
        ({"pair": "9 NS", "players": [jane, jane]}, "'9 NS' is not a pair of this session"),
    ):
        outcome = desk.director({"type": "players", "by": "td", **rec})
        assert outcome.status == "refused" and why in outcome.why
    assert [r["why"] for r in desk.session.refusals][-1].endswith("is not a pair of this session")
    msgs = dict(desk.messages())
    t1 = msgs["cardtable/session/table/table-01"]
    assert t1["players"] == {"ns": [{"name": "Ann Smith", "member": "1021"}, {"name": "Jane Visitor", "member": ""}],
                             "ew": []}
    assert "Ann Smith" not in str(msgs["cardtable/session/table/table-02"])
    assert table_view(desk.session, 1)["ns_names"] == "Ann Smith (1021) & Jane Visitor"
    view = director_view(desk.session)
    assert {"pair": "1 NS", "players": [ann, jane]} in view["players"]
    assert view["progress"][0]["ns_names"] == "Ann Smith (1021) & Jane Visitor"          # the director's progress
    desk.session.close()
    again = Session.open(tmp_path / "s", analyse=False)                  # replayed from the journal
    assert again.setup.names["1 NS"] == ("Ann Smith", "Jane Visitor")     # what the exports write
    assert who(again, "1 NS") == "Ann Smith (1021) & Jane Visitor"     # the ranking's and travellers' words
    again.close()


def test_duplicate_open_with_a_roster_and_players(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["boards", "new", "--count", "6", "--out", str(tmp_path / "b.pbn")]) == 0
    (tmp_path / "roster.csv").write_bytes(ROSTER)
    (tmp_path / "players.csv").write_text("1 NS,1021,1045\n1 EW,1102,Jane Visitor\n", encoding="utf-8")
    base = ["duplicate", "open", "--hand-records", str(tmp_path / "b.pbn"), "--pairs", "6", "--movement", "mitchell",
            "--boards-per-round", "2", "--roster", str(tmp_path / "roster.csv")]
    capsys.readouterr()
    assert main([*base, "--dir", str(tmp_path / "s"), "--players", str(tmp_path / "players.csv")]) == 0
    assert "players: 2 pairs named (roster of 4 members kept in roster.csv)" in capsys.readouterr().out
    s = Session.open(tmp_path / "s", analyse=False, readonly=True)
    assert s.state.players_of("1 EW")[1]["name"] == "Jane Visitor" and (tmp_path / "s" / "roster.csv").exists()
    s.close()
    assert main(["duplicate", "show", "--session", str(tmp_path / "s")]) == 0
    assert ("table 1: round 1, 1 NS (Ann Smith (1021) & Bob Jones (1045)) v 1 EW (Cy Young (1102) & Jane Visitor)"
            in capsys.readouterr().out)
    (tmp_path / "bad.csv").write_text("1 NS,1021,1045\n1 EW,1102,7777\n", encoding="utf-8")
    assert main([*base, "--dir", str(tmp_path / "s2"), "--players", str(tmp_path / "bad.csv")]) == 2
    err = capsys.readouterr().err
    assert err == f"cardtable duplicate open: {tmp_path / 'bad.csv'}: line 2: member number 7777 is not in the roster " \
                  f"({tmp_path / 'roster.csv'})\n"
    assert not (tmp_path / "s2").exists()                                 # nothing made
    (tmp_path / "r2.csv").write_bytes(b"1021,Ann\n1021,Bob\n")
    assert main([*base[:-1], str(tmp_path / "r2.csv"), "--dir", str(tmp_path / "s3")]) == 2
    assert "r2.csv: line 2: member number 1021 is on line 1 too" in capsys.readouterr().err


def test_the_exports_carry_the_rosters_federation_numbers(tmp_path: Path) -> None:
    """A pair named from the roster has its federation numbers in USEBIO (the file and the site's
    results.xml, as ``duplicate export`` writes them); they were written empty, the export reading
    the setup's names only."""
    import xml.etree.ElementTree as ET

    from firmware_host.duplicate.results.export import export, export_site
    from tests.duplicate.sessionkit import all_results, rounds_called

    setup = make_setup(SPEC, names=False)
    s = Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL")
    roster = parse_roster(ROSTER, "roster.csv")
    for pair, members in (("1 NS", ("1021", "1045")), ("1 EW", ("1102", "Jane Visitor"))):
        assert s.take({"type": "players", "pair": pair, "players": [roster.player(m) for m in members],
                       "by": "director"}).taken
    assert all(o.taken for o in s.submit(rounds_called(setup) + all_results(setup)))
    export_site(s, tmp_path / "web")
    for xml in (export(s, "usebio"), (tmp_path / "web" / "results.xml").read_bytes()):
        pairs = {(p.findtext("PAIR_NUMBER"), p.findtext("DIRECTION")): p for p in ET.fromstring(xml).iter("PAIR")}
        assert [(q.findtext("PLAYER_NAME"), q.findtext("NATIONAL_ID_NUMBER")) for q in pairs[("1", "NS")].iter("PLAYER")] \
            == [("Ann Smith", "EBU-77"), ("Bob Jones", "")]
        assert [(q.findtext("PLAYER_NAME"), q.findtext("NATIONAL_ID_NUMBER")) for q in pairs[("1", "EW")].iter("PLAYER")] \
            == [("Cy Young", ""), ("Jane Visitor", "")]
    s.close()


def test_a_substitute_named_at_the_table_names_the_rounds_he_played_only(tmp_path: Path) -> None:
    """Audit 65: after round 3, pair 2 EW was named again on its table's page (Kay Lamb & Tom Uhl, where
    Lou Moss had played rounds 1-3). Every file then named Tom Uhl for the whole evening: the PBN games
    of rounds 1-3 had [West "Tom Uhl"], and Lou Moss appeared nowhere. A naming at a table in round N
    names who sits there from round N on; each line names who sat in its round; the ranking and USEBIO
    list everyone who played for the pair."""
    import xml.etree.ElementTree as ET

    from firmware_host.club.club_players import name_players
    from firmware_host.duplicate.results.export import export
    from firmware_host.duplicate.views import rankings, traveller
    from tests.duplicate import outsider as o
    from tests.duplicate.sessionkit import all_results

    spec = {"kind": "mitchell", "tables": 5, "boards_per_round": 1}
    setup = make_setup(spec, names=False)
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"))
    s = desk.session
    visitor = lambda name: {"name": name, "member": "", "federation": ""}  # noqa: E731
    assert desk.director({"type": "players", "pair": "2 EW", "players": [visitor("Kay Lamb"), visitor("Lou Moss")],
                          "by": "director"}).taken
    results = all_results(setup)
    early = [r for r in results if r["round"] <= 3]
    late = [r for r in results if r["round"] > 3]
    assert all(o.taken for o in s.submit(early + [{"type": "round", "round": r, "by": "td"} for r in (2, 3, 4)]))
    # round 4: pair 2 EW sits at table 5; its players name themselves on the table's page
    assert s.state.table_round(5) == 4 and str(s.state.movement.at(4, 5).ew) == "2 EW"
    status, answer = name_players(desk, {"side": "ew", "players": ["Kay Lamb", "Tom Uhl"], "confirm": True},
                                  table=("table-05", 5))
    assert status == 200, answer
    seating = dict(desk.messages())["cardtable/session/table/table-05"]
    assert [p["name"] for p in seating["players"]["ew"]] == ["Kay Lamb", "Tom Uhl"]   # who sits there now
    assert all(o.taken for o in s.submit(late + [{"type": "round", "round": 5, "by": "td"}]))
    desk.session.close()

    s = Session.open(tmp_path / "s", analyse=False)      # replayed from the journal: the same
    try:
        board_of = {r["round"]: r["board"] for r in results if r["ew"] == "2 EW"}
        pbn = export(s, "pbn", analysis_timeout=0).decode("utf-8")
        xml = export(s, "usebio", analysis_timeout=0)
        html = export(s, "html", analysis_timeout=0).decode("utf-8")
        live = traveller(s, next(b for b in s.scored().boards if b.number == board_of[2]))   # the director's page
        live_names = next(ln["ew_names"] for ln in live["lines"] if ln["ew"] == "2 EW")
        live_ranking = {r["pair"]: r["names"] for f in rankings(s) for r in f["rows"]}   # the pages' ranking
    finally:
        s.close()
    games = o.read_pbn(pbn)
    for rnd, board in board_of.items():   # each game of pair 2 EW names who sat for it in that round
        game = next(g for g in games if g.tags.get("Board") == str(board) and g.tags.get("Round") == str(rnd))
        assert (game.tags["East"], game.tags["West"]) == ("Kay Lamb", "Lou Moss" if rnd <= 3 else "Tom Uhl"), rnd
        row = next(r for r in o.table_rows(next(g for g in games if g.tags.get("Board") == str(board)
                                                and "ScoreTable" in g.tags), "ScoreTable") if r["PairId_EW"] == "2")
        assert row["Names_EW"] == ("Kay Lamb & Lou Moss" if rnd <= 3 else "Kay Lamb & Tom Uhl"), rnd
    first = next(g for g in games if "TotalScoreTable" in g.tags)
    ranking = {(r["Direction"], r["PairId"]): r for r in o.table_rows(first, "TotalScoreTable")}
    assert ranking[("E-W", "2")]["Names"] == "Kay Lamb & Lou Moss & Tom Uhl"
    pairs = {(p.findtext("PAIR_NUMBER"), p.findtext("DIRECTION")): p for p in ET.fromstring(xml).iter("PAIR")}
    assert [q.findtext("PLAYER_NAME") for q in pairs[("2", "EW")].iter("PLAYER")] == ["Kay Lamb", "Lou Moss", "Tom Uhl"]
    assert "Kay Lamb &amp; Lou Moss &amp; Tom Uhl" in html
    assert live_names == "Kay Lamb & Lou Moss"
    # audit a11 #10: the pages' live ranking named the newest naming ("Kay Lamb & Tom Uhl") where the
    # files list everyone who sat: one rule, as the files
    assert live_ranking["2 EW"] == "Kay Lamb & Lou Moss & Tom Uhl"


def test_a_naming_from_a_round_the_movement_does_not_have_is_refused(tmp_path: Path) -> None:
    desk = SessionDesk(Session.create(tmp_path / "s", make_setup(SPEC, names=False), analyse=False,
                                      synchronous="NORMAL"))
    jo = [{"name": "Jo", "member": "", "federation": ""}, {"name": "Al", "member": "", "federation": ""}]
    for first in (0, 4, "2", True):
        outcome = desk.director({"type": "players", "pair": "1 NS", "players": jo, "round": first, "by": "td"})
        assert outcome.status == "refused" and outcome.why == (
            f"pair 1 NS: the round the players sit from is one of the movement's rounds (1-3), not {first!r}")
    assert desk.director({"type": "players", "pair": "1 NS", "players": jo, "round": 3, "by": "td"}).taken
    from firmware_host.club.club_players import name_players

    # the director's form may say from which round (a substitute the director names); without it, round 1
    assert name_players(desk, {"pair": "1 EW", "players": ["Di Lane", "Ed Moor"], "round": 2}, by="td")[0] == 200
    assert name_players(desk, {"pair": "2 EW", "players": ["Fay Nunn", "Gus Orr"]}, by="td")[0] == 200
    assert desk.session.state.namings["1 EW"] == [(2, tuple(desk.session.state.players["1 EW"]))]
    assert desk.session.state.namings["2 EW"][0][0] == 1
    assert desk.session.state.players_in("1 EW", 1) == []
    desk.session.close()


def test_the_directors_progress_line_says_which_pair_it_names_when_only_one_is_named(tmp_path: Path) -> None:
    """Audit m34: 4 EW named and 4 NS not, the director's page showed "4 NS v 4 EW" over a bare "Kay Lamb &
    Lou Moss", read as North-South's. The names line now says whose names they are, and that the other
    pair is not named yet; with both named it reads as before."""
    setup = make_setup(SPEC, names=False)
    desk = SessionDesk(Session.create(tmp_path / "s", setup, analyse=False, synchronous="NORMAL"))
    kay = {"name": "Kay Lamb", "member": "", "federation": ""}
    lou = {"name": "Lou Moss", "member": "", "federation": ""}
    assert desk.director({"type": "players", "pair": "1 EW", "players": [kay, lou], "by": "td"}).taken
    row = director_view(desk.session)["progress"][0]
    assert (row["ns"], row["ew"]) == ("1 NS", "1 EW")
    assert row["names"] == "1 EW: Kay Lamb & Lou Moss; 1 NS not named yet"
    assert director_view(desk.session)["progress"][1]["names"] == ""                 # nobody named there
    assert desk.director({"type": "players", "pair": "1 NS", "players": [
        {"name": "Ann Smith", "member": "", "federation": ""}, {"name": "Bob Jones", "member": "", "federation": ""}],
        "by": "td"}).taken
    assert director_view(desk.session)["progress"][0]["names"] == "Ann Smith & Bob Jones v Kay Lamb & Lou Moss"
    desk.session.close()
