"""The worked example of docs/competitions.md (its PBN rows and USEBIO match are what the files hold), the
views' fields as the document lists them, the event's journal rebuilt on reopening, and the command's
refusals (one line, exit status 2, nothing written)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.events.files import render
from firmware_host.events.session import EventSession, Unread, result_of
from firmware_host.events.views import director_view, table_view
from laws.competition.event import EventState
from laws.competition.event_spec import EventError, EventKind, EventSpec, SectionSpec
from laws.competition.table_result import TableResult
from laws.competitors import team

DOC = (Path(__file__).resolve().parents[2] / "docs" / "competitions.md").read_text()
ROUND1 = [(1, 1, "4S", "N", 10), (2, 1, "4S", "N", 9), (1, 2, "3NT", "E", 9), (2, 2, "3NT", "E", 9),
          (3, 1, "Pass", "", 0), (4, 1, "2H", "S", 8), (3, 2, "1NT", "N", 7), (4, 2, "1NT", "N", 8)]


def example() -> EventState:
    state = EventState.opened(EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2))
    for table, board, contract, declarer, tricks in ROUND1:
        state.apply(TableResult(1, table, board, contract, declarer, tricks))
    return state


def test_worked_example_is_what_the_files_hold() -> None:
    files = render(example(), "2026-12-02")
    pbn = files["results.pbn"].decode()
    block = DOC.split("```text\n", 1)[1].split("```", 1)[0].strip().split("\n")
    for line in block:
        assert line in pbn.split("\r\n"), line
    xml = re.sub(r"\s+", "", files["results.xml"].decode())
    shown = DOC.split("```xml\n", 1)[1].split("...", 1)[0]
    assert re.sub(r"\s+", "", shown) in xml
    assert "16.46–3.54" in DOC


def test_views_have_the_fields_the_document_lists() -> None:
    state = example()
    tables = ("t-a", "t-b", "t-c", "t-d")
    view = table_view(state, tables, "t-b")
    for name in ("table", "number", "section", "plays", "round", "rounds", "finished", "kind", "event", "version",
                 "boards", "seat", "entered", "released"):
        assert f"`{name}`" in DOC and name in view, name
    assert view["seat"] == {"table": 2, "north": 4, "south": 4, "east": 1, "west": 1, "match": 1, "room": "closed"}
    director = director_view(state, tables)
    for name in ("event", "kind", "version", "round", "rounds", "finished", "winner", "refusals", "standings",
                 "draws"):
        assert f"`{name}`" in DOC and name in director, name
    for name in ("round", "matches", "byes", "boards", "tables", "club_tables", "results", "due", "complete",
                 "scored"):
        assert f"`{name}`" in DOC and name in director["draws"][0], name
    assert table_view(state, tables, "t-z") == {"table": "t-z", "plays": False, "version": 0}


def test_a_knockouts_files_pages_and_view_place_the_winner_first() -> None:
    """docs/competitions.md, "Results files": a knock-out's places follow the bracket in every file and
    view. Before: team 1 (24 IMPs up in its semi-final, beaten by 1 IMP in the final) was USEBIO's PLACE 1
    and PBN's Rank 1 on its summed VPs, while the director's view said the winner was team 3."""
    state = EventState.opened(EventSpec(EventKind.KNOCKOUT, 4, 2, 1, name="Cup"))
    for r, table, board, contract, tricks in ((1, 1, 1, "7NTXX", 13), (1, 2, 1, "7NTXX", 0), (1, 3, 1, "4S", 10),
                                              (1, 4, 1, "4S", 11), (2, 1, 2, "3NT", 9), (2, 2, 2, "3NT", 10)):
        state.apply(TableResult(r, table, board, contract, "N", tricks))
    want = [("3", "1"), ("1", "2"), ("2", "3="), ("4", "3=")]
    view = director_view(state, ("q1", "q2", "q3", "q4"))
    assert view["winner"] == 3
    assert [(str(s["competitor"]), s["place"]) for s in view["standings"]] == want
    files = render(state, "2026-12-02")
    xml = files["results.xml"].decode()
    assert re.findall(r"<TEAM_NUMBER>(\d+)</TEAM_NUMBER>.*?<PLACE>([0-9=]+)</PLACE>", xml, re.S) == want
    pbn = files["results.pbn"].decode().split("\r\n")
    assert '[EventType "KO"]' in pbn
    ranking = pbn[pbn.index(next(ln for ln in pbn if ln.startswith("[TotalScoreTable"))) + 1:][:4]
    assert [tuple(row.split()[:2][::-1]) for row in ranking] == [(t, p) for t, p in want]
    html = files["index.html"].decode()
    standings = html.split("<h2>Standings</h2>", 1)[1].split("</table>", 1)[0]
    assert re.findall(r"<tr><td>([0-9=]+)</td><td>(\d+)</td>", standings) == [(p, t) for t, p in want]
    assert "<p>Winner: team 3</p>" in html


def test_teams_board_released_only_when_both_rooms_have_it() -> None:
    state = EventState.opened(EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2))
    tables = ("a", "b", "c", "d")
    state.apply(TableResult(1, 1, 1, "4S", "N", 10))
    assert table_view(state, tables, "a")["released"] == []
    assert table_view(state, tables, "b")["released"] == []
    state.apply(TableResult(1, 2, 1, "4S", "N", 10))
    assert table_view(state, tables, "b")["released"] == [{"board": 1, "home_imps": 0, "away_imps": 0}]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "firmware_host.cli", "event", *args], capture_output=True,
                          text=True, timeout=60)


def test_command_opens_refuses_and_exports(tmp_path: Path) -> None:
    folder = tmp_path / "ev"
    ok = _cli("open", str(folder), "--kind", "teams-round-robin", "--entrants", "4", "--rounds", "3", "--boards",
              "2", "--tables", "a,b,c,d", "--name", "League")
    assert ok.returncode == 0, ok.stderr
    assert "a: N 1 S 1 E 4 W 4 (open room)" in ok.stdout
    for args, words in (
            (("open", str(folder), "--kind", "swiss-teams", "--entrants", "4", "--rounds", "3", "--boards", "2",
              "--tables", "a,b,c,d"), "a session is already there"),
            (("open", str(tmp_path / "x"), "--kind", "swiss-teams", "--entrants", "4", "--rounds", "3", "--boards",
              "2", "--tables", "a,b"), "the event needs 4 club tables a round, got 2"),
            (("open", str(tmp_path / "y"), "--kind", "teams-round-robin", "--entrants", "4", "--rounds", "2",
              "--boards", "2", "--tables", "a,b,c,d"), "a round robin of 4 teams has 3 rounds, got 2"),
            (("open", str(tmp_path / "z"), "--kind", "swiss-teams", "--entrants", "4", "--rounds", "3", "--boards",
              "2", "--tables", "a,a,c,d"), "a club table is given twice"),
            (("export", str(tmp_path / "none"), "--site", str(tmp_path / "s")), "no event here")):
        r = _cli(*args)
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, (args, r.stderr)
    assert not (tmp_path / "x").exists() or not any((tmp_path / "x").iterdir())
    site = tmp_path / "site"
    assert _cli("export", str(folder), "--site", str(site)).returncode == 0
    again = _cli("export", str(folder), "--site", str(site))
    assert again.returncode == 2 and "already holds index.html" in again.stderr
    assert _cli("export", str(folder), "--site", str(site), "--force").returncode == 0
    session = EventSession.open(folder)
    assert session.event.draws[1].matches == ((team(1), team(4)), (team(2), team(3)))
    session.close()


def test_sections_views_and_files(tmp_path: Path) -> None:
    from laws.competition.event_spec import SectionSpec

    spec = EventSpec(EventKind.SECTIONS, 16, 5, 3, sections=(SectionSpec("A", 5), SectionSpec("B", 3, "howell")))
    state = EventState.opened(spec)
    tables = tuple(f"t{k}" for k in range(1, 9))
    view = table_view(state, tables, "t7")
    assert view["seat"]["section"] == "B" and view["boards"] == view["seat"]["boards"]
    state.apply(TableResult(1, 7, view["boards"][0], "3NT", "N", 9))
    director = director_view(state, tables)
    # only pairs with a result are ranked: so far the two pairs of table 7 (section B's Howell, one field)
    assert {row["field"] for row in director["standings"]} == {"B one field"}
    assert len(director["standings"]) == 2
    assert director["draws"][0]["due"]["7"] == 3
    files = render(state, "2026-12-02")        # no round complete yet: files with no board
    assert "[Board " not in files["results.pbn"].decode() and b'SECTION_ID="B"' in files["results.xml"]


def test_a_result_the_journal_cannot_take_is_not_applied_and_is_taken_when_sent_again(tmp_path: Path) -> None:
    import json
    import sqlite3

    import pytest

    from firmware_host.events.session import EventFileError

    session = EventSession.create(tmp_path / "ev", EventSpec(EventKind.SWISS_TEAMS, 4, 3, 1), ("a", "b", "c", "d"))
    body = {"section": "A", "table_number": 1, "round": 1, "board": 1, "ns": "1", "ew": "3", "contract": "4S",
            "declarer": "N", "lead": None, "tricks": 10, "record": "", "verified": False, "confirmed": {"ns": "N", "ew": "E"}}
    payload = json.dumps({"table": "a", "kind": "board", "seq": 7, "t": 1.0, "body": body}).encode()
    session.journal._conn.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(session.journal.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")                      # another writer holds the lock
    with pytest.raises(EventFileError, match="cannot be written"):
        session.offer("a", payload)
    assert session.event.results == {} and session.sources == set()
    other.execute("ROLLBACK")
    other.close()
    taken = session.offer("a", payload)                   # the table's resend
    assert taken.status == "taken" and (1, 1, 1) in session.event.results
    assert session.offer("a", payload).status == "repeat"
    session.close()
    again = EventSession.open(tmp_path / "ev")
    assert list(again.event.results) == [(1, 1, 1)]
    again.close()


def test_an_event_opened_with_hand_records_keeps_them_and_its_files_give_each_deal(tmp_path: Path) -> None:
    """``open --records FILE``: the boards are kept in the journal with their commitment (said on opening),
    the results' PBN gives each board's ``[Deal]``; a file that cannot be read, or lacks a board the event
    plays, is one line and exit 2 with nothing made."""
    from firmware_host.duplicate.handrecords.handfiles import write_hand_records
    from laws.duplicate.deal import commitment
    from tests.table.duptable import records

    recs = records(8, seed=2)
    write_hand_records(tmp_path / "night.pbn", recs.values())
    write_hand_records(tmp_path / "short.pbn", [recs[n] for n in range(1, 6)])
    (tmp_path / "bad.pbn").write_text('[Board "1"]\n[Deal "N:AKQ"]\n', encoding="utf-8")
    base = ("--kind", "swiss-teams", "--entrants", "4", "--rounds", "3", "--boards", "2", "--tables", "a,b,c,d")
    for name, words in (("short.pbn", "the event plays boards 1-6 but the hand records have no board 6"),
                        ("bad.pbn", "bad.pbn"), ("none.pbn", "none.pbn")):
        r = _cli("open", str(tmp_path / name), *base, "--records", str(tmp_path / name))
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, (name, r.stderr)
        assert len(r.stderr.strip().splitlines()) == 1
        assert not (tmp_path / name).is_dir()
    ok = _cli("open", str(tmp_path / "ev"), *base, "--records", str(tmp_path / "night.pbn"))
    assert ok.returncode == 0, ok.stderr
    night, played = tmp_path / "night.pbn", [recs[n] for n in range(1, 7)]
    assert (f"  hand records: 6 of the 8 boards of {night} are played (boards 1-6)\n"
            f"  session commitment {commitment(played)} (the boards played; check it with: cardtable boards "
            f"verify {night} --boards 1-6 --commitment {commitment(played)})\n"
            f"  file commitment {commitment(recs.values())} (all 8 boards of the file, as 'cardtable boards commit' "
            f"prints it; check it with: cardtable boards verify {night} --commitment {commitment(recs.values())})\n"
            ) in ok.stdout
    session = EventSession.open(tmp_path / "ev")
    assert session.state.setup.boards == tuple(recs.values())
    for table, board, contract, declarer, tricks in ROUND1:
        session.take({"type": "result", "source": f"{'abcd'[table - 1]}:{board}", "table": "abcd"[table - 1],
                      "board": board, "result": TableResult(1, table, board, contract, declarer, tricks).to_dict()})
    session.close()
    assert _cli("export", str(tmp_path / "ev"), "--site", str(tmp_path / "site")).returncode == 0
    pbn = (tmp_path / "site" / "results.pbn").read_text(encoding="utf-8")
    assert f'[Deal "{recs[1].deal.pbn()}"]' in pbn and f'[Deal "{recs[2].deal.pbn()}"]' in pbn
    assert '[Deal "?"]' not in pbn


def test_an_event_commits_to_the_boards_it_plays_as_a_pairs_session_and_a_table_takes_a_pin_of_either(
        tmp_path: Path) -> None:
    """One rule for a pairs session and an event: an event committed to every board of the club's file and
    a pairs session to the boards it plays, so a table pinned to what one printed refused the other's. An
    event now commits to the boards it plays (1 to rounds x boards a round) and says the file's too; its
    tables' messages carry the file's, and a table takes a pin of either, saying which matched. An event
    journaled before (its ``commitment`` the whole file's) still opens."""
    from firmware_host.events.desk import EventDesk
    from firmware_host.table.session_records import check_records
    from laws.duplicate.deal import commitment
    from laws.session.event.event_kind import EventSetup
    from tests.table.duptable import records

    recs = records(8, seed=2)
    spec = EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2)                    # plays boards 1-6
    played, whole = commitment([recs[n] for n in range(1, 7)]), commitment(recs.values())
    setup = EventSetup(spec, ("a", "b", "c", "d"), tuple(recs.values()))
    row = setup.to_dict()
    assert (row["commitment"], row["file_commitment"]) == (played, whole)
    old = {k: v for k, v in row.items() if k != "file_commitment"} | {"commitment": whole}
    assert EventSetup.from_dict(old).commitment == played                # an event journaled before
    with pytest.raises(EventError, match="not those its file commitment was made to"):
        EventSetup.from_dict(row | {"file_commitment": played})
    session = EventSession.create(tmp_path / "ev", spec, ("a", "b", "c", "d"), boards=tuple(recs.values()))
    try:
        desk = EventDesk(session)
        part = desk.records_part(desk.table_message("a"))
        assert part is not None and part["commitment"] == played and part["file"]["commitment"] == whole
        assert [n for n, _ in part["index"]] == list(range(1, 7)) and [n for n, _ in part["file"]["others"]] == [7, 8]
        for pin, matched in ((played, "session"), (whole, "file")):
            v = check_records(json.loads(json.dumps(part)), pin, configured=True)
            assert (sorted(v.taken), v.refused, v.matched) == ([1, 2], (), matched), v.said()
    finally:
        session.close()


def test_the_setup_s_hand_records_are_checked_and_their_commitment_with_them() -> None:
    """The journal's opening row keeps the boards with their commitment: a row whose boards were changed
    after the commitment was made is refused when read, as is a board given twice; an event opened without
    hand records reads as before (no ``boards``, no ``commitment``)."""
    from laws.session.event.event_kind import EventSetup
    from tests.table.duptable import records

    recs = records(7, seed=3)
    spec = EventSpec(EventKind.ROUND_ROBIN, 4, 3, 2)
    row = EventSetup(spec, ("a", "b", "c", "d"), tuple(recs.values())).to_dict()
    assert [b["number"] for b in row["boards"]] == list(range(1, 8)) and len(row["commitment"]) == 64
    tampered = row | {"boards": [row["boards"][1] | {"number": 1}, row["boards"][0] | {"number": 2}] + row["boards"][2:]}
    with pytest.raises(EventError, match="not those its commitment was made to"):
        EventSetup.from_dict(tampered)
    with pytest.raises(EventError, match="the hand records give board 3 twice"):
        EventSetup(spec, ("a", "b", "c", "d"), (*recs.values(), recs[3]))
    many = records(501, seed=3)
    with pytest.raises(EventError, match="the hand records give 501 boards; an event sends at most 500"):
        EventSetup(spec, ("a", "b", "c", "d"), tuple(many.values()))
    plain = EventSetup(spec, ("a", "b", "c", "d")).to_dict()
    assert "boards" not in plain and "commitment" not in plain and EventSetup.from_dict(plain).boards == ()


def test_a_tables_contract_not_in_its_one_spelling_is_refused_naming_the_field() -> None:
    # docs/competitions.md, "Results from the tables": a table's message as a duplicate table's (docs/mqtt.md);
    # "3nt" was taken as 3NT here while a pairs session stored it as sent
    def message(contract: str) -> bytes:
        body = {"section": "A", "table_number": 1, "round": 1, "board": 1, "ns": "home", "ew": "away",
                "contract": contract, "declarer": "N", "lead": None, "tricks": 9, "auction": [], "play": [],
                "record": "", "verified": False, "foul": None, "confirmed": {"ns": "N", "ew": "E"}}
        return json.dumps({"table": "t-a", "kind": "board", "seq": 3, "deal": 0, "secret": False, "t": 1.0,
                           "body": body}).encode()

    assert result_of("t-a", message("3NT"), ("t-a", "t-b"))[1].contract == "3NT"
    with pytest.raises(Unread) as exc:
        result_of("t-a", message("3nt"), ("t-a", "t-b"))
    assert str(exc.value).startswith("t-a:3: contract must be \"Pass\" or a level 1 to 7") and "got '3nt'" in str(exc.value)


@pytest.mark.parametrize("spec, tables, club_table, section", [
    (EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2), ("n1", "n2", "n3", "n4"), "n2", "A"),
    (EventSpec(EventKind.KNOCKOUT, 4, 2, 1), ("n1", "n2", "n3", "n4"), "n3", "A"),
    (EventSpec(EventKind.SWISS_PAIRS, 4, 3, 2), ("n1", "n2"), "n2", "A"),
    (EventSpec(EventKind.INDIVIDUAL, 8, 7, 2), ("n1", "n2"), "n1", "A"),
    (EventSpec(EventKind.SECTIONS, 12, 3, 1, sections=(SectionSpec("A", 3), SectionSpec("B", 3))),
     tuple(f"n{k}" for k in range(1, 7)), "n5", "B"),
])
def test_the_table_view_gives_the_section_a_board_message_must_name(spec: EventSpec, tables: tuple[str, ...],
                                                                    club_table: str, section: str) -> None:
    """docs/competitions.md, "Results from the tables": the wire's board body (docs/mqtt.md, shared with a
    pairs session) requires `section`, `ns` and `ew`; the table's view gives the `section` to send, and
    `ns`/`ew` are any text, not checked. Before: a teams, Swiss or individual table's view gave no
    `section`, so a table built from the document had nothing to send and was refused (`section must be
    text of 1 to 8 characters, got None`)."""
    view = table_view(EventState.opened(spec), tables, club_table)
    assert view["section"] == section

    def message(**fields: object) -> bytes:
        body = {"section": view["section"], "table_number": view["number"], "round": view["round"],
                "board": view["boards"][0], "ns": "x", "ew": "y", "contract": "Pass", "declarer": None,
                "lead": None, "tricks": 0, "auction": [], "play": [], "record": "", "verified": False,
                "foul": None, "confirmed": {"ns": "N", "ew": "E"}, **fields}
        return json.dumps({"table": club_table, "kind": "board", "seq": 1, "deal": 0, "t": 1.0,
                           "body": {k: v for k, v in body.items() if v is not ...}}).encode()

    assert result_of(club_table, message(), tables)[1].contract == "Pass"
    assert result_of(club_table, message(ns="home team", ew="99"), tables)[1].board == view["boards"][0]
    for missing, why in ((dict(section=...), "section must be text of 1 to 8 characters, got None"),
                         (dict(ns=""), "ns must be text of 1 to 16 characters, got ''")):
        with pytest.raises(Unread) as exc:
            result_of(club_table, message(**missing), tables)
        assert str(exc.value) == f"{club_table}:1: {why}"


def test_open_on_a_file_or_a_bad_scale_file_is_one_line(tmp_path: Path) -> None:
    """The folder is a file (or under one): a FileExistsError traceback, exit 1. A scale file that is not
    UTF-8: Python's codec words, the file not named."""
    a_file = tmp_path / "f"
    a_file.write_text("x")
    (tmp_path / "scale.txt").write_bytes(b"\xff\xfe0 10\n")
    base = ["--kind", "swiss-teams", "--entrants", "4", "--rounds", "3", "--boards", "2", "--tables", "a,b,c,d"]
    for folder, extra, said in ((a_file, [], "cannot be the event's folder"),
                                (a_file / "sub", [], "cannot be the event's folder"),
                                (tmp_path / "new", ["--scale", str(tmp_path / "scale.txt")],
                                 "scale.txt: the scale is not UTF-8 text")):
        done = _cli("open", str(folder), *base, *extra)
        assert done.returncode == 2 and said in done.stderr and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1


def test_a_folder_of_another_kind_of_session_is_named_for_what_it_holds(tmp_path: Path) -> None:
    """``event export`` given a duplicate pairs session's folder (and each command given another kind's)
    says what the folder holds in one line, exit 2; it said ``an event's setup has no field 'club'``."""
    from firmware_host.cli import main

    assert main(["event", "open", str(tmp_path / "ev"), "--kind", "teams-round-robin", "--entrants", "4",
                 "--rounds", "3", "--boards", "2", "--tables", "a,b,c,d"]) == 0
    assert main(["boards", "new", "--count", "6", "--out", str(tmp_path / "b.pbn")]) == 0
    assert main(["duplicate", "open", "--dir", str(tmp_path / "dup"), "--hand-records", str(tmp_path / "b.pbn"),
                 "--pairs", "6", "--movement", "mitchell", "--boards-per-round", "2"]) == 0
    (tmp_path / "p.txt").write_text("Ann\nBob\nCy\nDi\n", "utf-8")
    assert main(["euchre", "open", "--dir", str(tmp_path / "eu"), "--players", str(tmp_path / "p.txt"),
                 "--format", "rotating", "--rounds", "3"]) == 0
    held = {"dup": "a duplicate pairs session", "ev": "a teams, Swiss, individual or sections event",
            "eu": "a euchre night"}
    reader = {"dup": "cardtable duplicate", "ev": "cardtable event", "eu": "cardtable euchre"}
    commands = {"ev": ("export", "{dir}", "--site", str(tmp_path / "site")),
                "dup": ("duplicate", "export", "--session", "{dir}", "--format", "pbn", "--out", str(tmp_path / "r.pbn")),
                "eu": ("euchre", "export", "--session", "{dir}", "--out", str(tmp_path / "out"))}
    for wanted, args in commands.items():
        for folder in held:
            if folder == wanted:
                continue
            argv = [a.replace("{dir}", str(tmp_path / folder)) for a in args]
            r = _cli(*argv) if wanted == "ev" else subprocess.run(
                [sys.executable, "-m", "firmware_host.cli", *argv], capture_output=True, text=True, timeout=60)
            path = tmp_path / folder / "session.sqlite3"
            assert r.returncode == 2 and r.stderr.count("\n") == 1, (argv, r.stderr)
            assert r.stderr.endswith(f": {path}: the folder holds {held[folder]}, not {held[wanted]}; "
                                     f"{reader[folder]} reads it\n"), (argv, r.stderr)
    assert not (tmp_path / "site").exists() and not (tmp_path / "r.pbn").exists() and not (tmp_path / "out").exists()


def test_a_string_column_is_padded_to_the_width_its_header_declares() -> None:
    """PBN 2.1 (5.2): a column's minimum width is reached with spaces, after the element when it is
    left-aligned, and more than one space between elements is allowed only for that padding. The teams
    ranking's TeamName (\\20L) was written with one space after it, so a reader that takes the columns at
    their declared widths read the Names column from inside the team's name."""
    pbn = render(example(), "2026-12-02")["results.pbn"].decode()
    header = re.search(r'\[TotalScoreTable "([^"]*)"\]', pbn)
    assert header is not None
    widths = [int(re.fullmatch(r"[A-Za-z_]+\\(\d+)[LR]", c).group(1)) for c in header.group(1).split(";")]
    rows = pbn.split(header.group(0) + "\r\n", 1)[1].split("\r\n[", 1)[0].split("\r\n")
    assert len(rows) == 4
    for row in rows:
        start = 0
        for width in widths[:-1]:   # every column but the last ends where its width and a space say
            assert row[start + width:start + width + 1] == " ", (row, start, width)
            start += width + 1
        assert row[start - 1] == " " and row[start] != " ", (row, start)
