"""An outsider's audit of the duplicate scores and results files (issues 23 and 24).

Sessions are made through the session's records (docs/session.md) and exported; the files are read
with the reader in ``outsider.py`` (written from PBN 2.1, USEBIO 1.2 and our docs, without reading the
exporters, the scoring code or ``recompute.py``) and every figure is recomputed from the file alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest

from laws.scoring import Method
from tests.duplicate import outsider as o

METHODS = {"mp": Method.MATCHPOINTS, "mp-half": Method.MATCHPOINTS_HALF,
           "butler": Method.BUTLER, "cross": Method.CROSS_IMPS}


# --- the exports of a session with adjusted scores, a fouled board and a missing result -----------

@pytest.fixture(scope="module")
def adjusted_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    yield from build_adjusted(tmp_path_factory, Method.MATCHPOINTS)


def build_adjusted(tmp_path_factory: pytest.TempPathFactory, method: Method) -> Iterator[dict[str, object]]:
    """A 5-table Mitchell (2 boards a round, 5 due on each board): board 3 misboarded from round 3
    (two groups), board 1 a result short (Neuberg), board 2 an artificial 60/40, board 4 an assigned
    +420, board 5 a split assigned +420 / +140."""
    from firmware_host.duplicate.results.export import export
    from firmware_host.session.duplicate_session import Session
    from laws.session.duplicate.spec import build_movement
    from tests.duplicate.sessionkit import all_results, make_setup, rounds_called

    setup = make_setup({"kind": "mitchell", "tables": 5, "boards_per_round": 2}, seed=3, method=method)
    movement = build_movement(setup.movement)
    folder = tmp_path_factory.mktemp("adjusted") / "session"
    session = Session.create(folder, setup, analyse=False)
    drop = {(1, "1 NS"), (2, "1 NS"), (4, "2 NS"), (5, "3 NS")}
    results = [r for r in all_results(setup, seed=4, fouled={3: 3}) if (r["board"], r["ns"]) not in drop]
    assert all(o.taken for o in session.submit(rounds_called(setup) + results))

    def opponents(board: int, ns: str) -> str:
        return next(str(s.ew) for s in movement.seatings
                    if s.played and board in movement.boards_of(s.group) and str(s.ns) == ns)

    adjust = [
        {"type": "adjust", "board": 2, "ns": "1 NS", "ew": opponents(2, "1 NS"), "kind": "artificial",
         "ns_value": 60, "ew_value": 40, "by": "td", "why": "slow play"},
        {"type": "adjust", "board": 4, "ns": "2 NS", "ew": opponents(4, "2 NS"), "kind": "assigned",
         "ns_value": 420, "by": "td", "why": "misinformation"},
        {"type": "adjust", "board": 5, "ns": "3 NS", "ew": opponents(5, "3 NS"), "kind": "assigned",
         "ns_value": 420, "ew_value": 140, "by": "td", "why": "split"},
    ]
    outcomes = session.submit(adjust)
    assert all(o.taken for o in outcomes), [o.why for o in outcomes]
    files = {"pbn": export(session, "pbn").decode("utf-8"), "usebio": export(session, "usebio").decode("utf-8"),
             "html": export(session, "html").decode("utf-8"),
             "movement": movement, "opponents": opponents, "session": session}
    yield files
    session.close()


def traveller(pbn: str, board: int) -> list[dict[str, str]]:
    games = o.read_pbn(pbn)
    (game,) = [g for g in games if g.tags["Board"] == str(board) and "Table" not in g.tags]
    return o.table_rows(game, "ScoreTable")


def test_a_split_assigned_score_shows_both_sides_scores_in_the_pbn(adjusted_session: dict) -> None:
    """docs/scoring.md §5: East-West are compared on their own assigned score; the traveller must
    carry it, or no reader can check their matchpoints. Score_EW is East-West's own score."""
    rows = traveller(adjusted_session["pbn"], 5)
    (split,) = [r for r in rows if r["PairId_NS"] == "3"]
    assert split["Score_NS"] == "420"
    assert split["Score_EW"] == "-140"  # East-West's own score: North-South's view +140


def test_the_results_page_shows_both_scores_of_a_split_line(adjusted_session: dict) -> None:
    """The printable page is a traveller too: a split line shows North-South's and East-West's
    assigned scores (North-South's view, as `cardtable duplicate show` writes it: 420/140)."""
    import re
    page = adjusted_session["html"]
    board5 = page[page.index('id="board-5"'):page.index('id="board-6"')]
    rows = [re.sub(r"<[^>]+>", " ", r) for r in re.findall(r"<tr>.*?</tr>", board5, re.S)]
    (split,) = [r for r in rows if "split" in r]
    assert "420/140" in split.split()


def outsider_lines(rows: list[dict[str, str]]) -> list[o.OLine]:
    out = []
    for r in rows:
        group = r.get("Group", "A")
        if r["Contract"].startswith("A") and "/" in r["Contract"]:
            a, b = r["Contract"][1:].split("/")
            out.append(o.OLine(int(r["PairId_NS"]), int(r["PairId_EW"]), "artificial", int(a), int(b), group))
            continue
        ns = int(r["Score_NS"]) if r["Score_NS"] != "-" else -int(r["Score_EW"])
        ew = -int(r["Score_EW"]) if r["Score_EW"] != "-" else ns
        out.append(o.OLine(int(r["PairId_NS"]), int(r["PairId_EW"]), "assigned", ns, ew, group))
    return out


@pytest.mark.parametrize("board", [1, 2, 3, 4, 5])
def test_every_traveller_recomputes_from_the_pbn_alone(adjusted_session: dict, board: int) -> None:
    """From the file alone (its scores, its groups, the top its lines add up to), every matchpoint."""
    rows = traveller(adjusted_session["pbn"], board)
    due = adjusted_session["movement"].due(board)
    got = [(r["MP_NS"], r["MP_EW"]) for r in rows]
    want = [(o.fmt(a), o.fmt(b)) for a, b in o.score_board(outsider_lines(rows), due, "mp")]
    assert got == want


def test_a_fouled_boards_groups_are_in_the_pbn(adjusted_session: dict) -> None:
    """DB-87: board 3 is scored in two groups (its copy misboarded from round 3 on); the traveller
    says which line is in which, so a scorer can recompute it."""
    rows = traveller(adjusted_session["pbn"], 3)
    assert {r["Round"]: r["Group"] for r in rows} == {"1": "A", "2": "A", "3": "B", "4": "B", "5": "B"}
    assert "Group" not in traveller(adjusted_session["pbn"], 1)[0], "an unfouled board keeps the plain table"


def test_an_assigned_score_with_a_null_east_west_value_is_unsplit(adjusted_session: dict) -> None:
    """docs/session.md: `ew_value` is given for a split score; a JSON null is no value."""
    session = adjusted_session["session"]
    ew = adjusted_session["opponents"](4, "2 NS")
    (out,) = session.submit([{"type": "adjust", "board": 4, "ns": "2 NS", "ew": ew, "kind": "assigned",
                              "ns_value": 400, "ew_value": None, "by": "td", "why": "corrected"}])
    assert out.taken, out.why


def home(pid: str, seat: str) -> tuple[str, str]:
    """A traveller's PairId as (home direction, number): "3" in PairId_NS is 3 NS; "3EW" in PairId_NS
    is pair 3 EW sitting North-South (an arrow-switched round, docs/session.md)."""
    if pid.endswith(("NS", "EW")):
        return pid[-2:], pid[:-2]
    return seat, pid


def file_ranking(pbn: str, one_field: bool = False, howell: bool = False
                 ) -> dict[tuple[str, str], tuple[str, str, str, int]]:
    """(direction, pair) -> (place, total, percentage, boards), from the travellers alone (a Howell's
    pairs have no direction: "-")."""
    from collections import defaultdict
    games = [g for g in o.read_pbn(pbn) if "Table" not in g.tags]
    total: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    tops: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    boards: dict[tuple[str, str], int] = defaultdict(int)
    for g in games:
        rows = o.table_rows(g, "ScoreTable")
        unsplit = [r for r in rows if r["Score_NS"] == "-" or r["Score_EW"] in ("-", "0")]
        top = Fraction(unsplit[0]["MP_NS"]) + Fraction(unsplit[0]["MP_EW"])
        for r in rows:
            for seat, pid, mp in (("NS", r["PairId_NS"], r["MP_NS"]), ("EW", r["PairId_EW"], r["MP_EW"])):
                key = ("-", pid) if howell else home(pid, seat)
                total[key] += Fraction(mp)  # two decimals each: exact enough for the check below
                tops[key] += top
                boards[key] += 1
    out = {}
    for side in (("NS", "EW", "-"),) if one_field or howell else (("NS",), ("EW",)):
        keys = [k for k in total if k[0] in side]
        pct = {k: total[k] / tops[k] * 100 for k in keys}
        place = o.places(pct)  # type: ignore[arg-type]
        for k in keys:
            out[k] = (place[k], o.fmt(total[k]), o.fmt(pct[k]), boards[k])
    return out


def test_the_ranking_follows_from_the_travellers(adjusted_session: dict) -> None:
    """TotalScoreTable and USEBIO's PARTICIPANTS say what the travellers add up to (a pair's total
    over the tops of the boards it has a score on, ranked per field)."""
    pbn = adjusted_session["pbn"]
    want = file_ranking(pbn)
    first = next(g for g in o.read_pbn(pbn) if "TotalScoreTable" in g.tags)
    got = {({"N-S": "NS", "E-W": "EW"}[r["Direction"]], r["PairId"]):
           (r["Rank"], r["TotalScoreMP"], r["TotalPercentage"], int(r["NrBoards"]))
           for r in o.table_rows(first, "TotalScoreTable")}
    assert_close(got, want)
    root = o.ET.fromstring(adjusted_session["usebio"])
    section = root.find("EVENT")
    assert section is not None
    usebio = {(p.findtext("DIRECTION"), p.findtext("PAIR_NUMBER")):
              (p.findtext("PLACE"), p.findtext("TOTAL_SCORE"), p.findtext("PERCENTAGE"),
               int(p.findtext("BOARDS_PLAYED") or 0)) for p in section.iter("PAIR")}
    assert_close(usebio, want)


def assert_close(got: dict, want: dict) -> None:
    """Places and boards exact; totals and percentages to the rounding of the figures summed (the
    travellers show two decimals, so a sum of them may be a few hundredths off the exact total)."""
    assert set(got) == set(want)
    for key, (place, total, pct, boards) in want.items():
        g_place, g_total, g_pct, g_boards = got[key]
        assert (g_place, g_boards) == (place, boards), key
        assert abs(Fraction(g_total) - Fraction(total)) <= Fraction(boards, 200), key
        assert abs(Fraction(g_pct) - Fraction(pct)) <= Fraction(5, 100), key


def test_usebio_travellers_say_what_the_pbn_says(adjusted_session: dict) -> None:
    root = o.ET.fromstring(adjusted_session["usebio"])
    section = root.find("EVENT")
    assert section is not None
    for board in section.findall("BOARD"):
        rows = traveller(adjusted_session["pbn"], int(board.findtext("BOARD_NUMBER") or 0))
        lines = board.findall("TRAVELLER_LINE")
        assert len(lines) == len(rows)
        for r, x in zip(rows, lines):
            assert (x.findtext("NS_PAIR_NUMBER"), x.findtext("EW_PAIR_NUMBER")) == (r["PairId_NS"], r["PairId_EW"])
            assert (x.findtext("NS_MATCH_POINTS"), x.findtext("EW_MATCH_POINTS")) == (r["MP_NS"], r["MP_EW"])
            if not r["Contract"].startswith("A"):
                ns = r["Score_NS"] if r["Score_NS"] != "-" else f"-{r['Score_EW']}"
                assert x.findtext("SCORE") == ns



def test_a_name_with_a_quote_is_one_pbn_value(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """PBN 2.1 tokens: a table cell with a quote must be a quoted string with the quote escaped, or a
    reader splits the row wrongly (a pair with one player named, the name without a space)."""
    import dataclasses

    from firmware_host.duplicate.results.export import export
    from firmware_host.session.duplicate_session import Session
    from tests.duplicate.sessionkit import all_results, make_setup, rounds_called

    setup = make_setup({"kind": "mitchell", "tables": 3, "boards_per_round": 2}, seed=3)
    names = dict(setup.names)
    names["1 NS"] = ('Jo"e', "")
    setup = dataclasses.replace(setup, names=names)
    session = Session.create(tmp_path / "s", setup, analyse=False)
    try:
        assert all(o.taken for o in session.submit(rounds_called(setup) + all_results(setup, seed=4)))
        pbn = export(session, "pbn").decode("utf-8")
    finally:
        session.close()
    first = next(g for g in o.read_pbn(pbn) if "TotalScoreTable" in g.tags)
    rows = {(r["Direction"], r["PairId"]): r for r in o.table_rows(first, "TotalScoreTable")}
    assert rows[("N-S", "1")]["Names"] == 'Jo\\"e'  # the escaped quote, inside one quoted value


def test_an_arrow_switched_round_says_which_pair_sat_where(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A 5-table Mitchell arrow-switched in round 5 (one field): pair 2 NS sits East-West against
    pair 3 EW at table 2. Mitchell numbers repeat across directions (3 NS and 3 EW are two pairs), so
    the traveller must say it is 3 EW sitting North-South, or the ranking cannot be recomputed."""
    from firmware_host.duplicate.results.export import export
    from firmware_host.session.duplicate_session import Session
    from tests.duplicate.sessionkit import all_results, make_setup, rounds_called

    setup = make_setup({"kind": "mitchell", "tables": 5, "boards_per_round": 2, "arrow_switch_rounds": [5]},
                       seed=3)
    session = Session.create(tmp_path / "s", setup, analyse=False)
    try:
        assert all(o.taken for o in session.submit(rounds_called(setup) + all_results(setup, seed=4)))
        pbn = export(session, "pbn").decode("utf-8")
    finally:
        session.close()
    row = next(r for r in traveller(pbn, 1) if r["Round"] == "5" and r["Table"] == "2")
    assert (row["PairId_NS"], row["PairId_EW"]) == ("3EW", "2NS")
    assert next(r for r in traveller(pbn, 1) if r["Round"] == "1")["PairId_NS"] == "1"  # at home: plain
    first = next(g for g in o.read_pbn(pbn) if "TotalScoreTable" in g.tags)
    got = {({"N-S": "NS", "E-W": "EW"}[r["Direction"]], r["PairId"]):
           (r["Rank"], r["TotalScoreMP"], r["TotalPercentage"], int(r["NrBoards"]))
           for r in o.table_rows(first, "TotalScoreTable")}
    assert_close(got, file_ranking(pbn, one_field=True))


@pytest.mark.parametrize("method", ["mp-half", "butler", "cross"])
def test_every_traveller_recomputes_at_every_method(tmp_path_factory: pytest.TempPathFactory, method: str) -> None:
    """The same session at the ½-point scale, Butler and cross-IMPs: the artificial 60/40 is +3/-3
    IMPs, the small and the factored groups and the assigned scores as docs/scoring.md says, every
    figure of every traveller recomputed from the PBN alone."""
    built = build_adjusted(tmp_path_factory, METHODS[method])
    files = next(built)
    try:
        for board in range(1, 11):
            rows = traveller(files["pbn"], board)  # type: ignore[arg-type]
            due = files["movement"].due(board)  # type: ignore[attr-defined]
            col = "MP" if method == "mp-half" else "IMP"
            got = [(r[f"{col}_NS"], r[f"{col}_EW"]) for r in rows]
            want = [(o.fmt(a), o.fmt(b)) for a, b in o.score_board(outsider_lines(rows), due, method)]
            assert got == want, board
    finally:
        next(built, None)


# --- hand records: a results file is a hand record too --------------------------------------------

def test_a_results_pbn_reads_back_as_the_hand_records(adjusted_session: dict) -> None:
    """Issue 23: hand records come from PBN files 'as scorers write them'; a scorer's results file has
    a game per table played, the same board again with the same deal. Ours must read back as the
    session's boards (and round-trip through BRI and DUP)."""
    from firmware_host.duplicate.handrecords.duplimate import read_bri, read_dup, write_bri, write_dup
    from firmware_host.duplicate.handrecords.pbnfile import read_pbn

    boards = read_pbn(adjusted_session["pbn"], "results.pbn")
    setup_boards = adjusted_session["session"].setup.boards
    assert [(b.number, b.deal) for b in boards] == [(b.number, b.deal) for b in setup_boards]
    assert [b.deal for b in read_bri(write_bri(boards), "x.bri")] == [b.deal for b in boards]
    assert [b.deal for b in read_dup(write_dup(boards), "x.dup")] == [b.deal for b in boards]


def test_a_board_repeated_with_another_deal_is_still_refused(adjusted_session: dict) -> None:
    from firmware_host.duplicate.handrecords.errors import HandRecordError
    from firmware_host.duplicate.handrecords.pbnfile import read_pbn

    games = adjusted_session["pbn"].split("\r\n\r\n")
    played = next(i for i, g in enumerate(games) if '[Board "1"]' in g and "[Table " in g)
    deal = o.TAG.match(next(ln for ln in games[played].split("\r\n") if ln.startswith("[Deal "))).group(2)
    hands = deal[2:].split()
    swapped = deal[:2] + " ".join([hands[1], hands[0], *hands[2:]])
    games[played] = games[played].replace(deal, swapped)
    with pytest.raises(HandRecordError, match=r"board 1 appears twice: \[Board\] on lines \d+ and \d+; the two give different deals"):
        read_pbn("\r\n\r\n".join(games), "results.pbn")


def test_hand_records_numbered_from_17_are_refused_in_plain_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A movement plays boards from 1 (docs/movements.md, board groups); a BRI read from board 17 on
    lacks boards 1-10, and the message says so in plain words (it said 'no board 1-10')."""
    import subprocess
    import sys

    from firmware_host.duplicate.handrecords.duplimate import write_bri
    from firmware_host.duplicate.handrecords.newdeals import new_boards

    bri = tmp_path / "h.bri"
    bri.write_bytes(write_bri(new_boards(10, 1)))
    run = subprocess.run([sys.executable, "-m", "firmware_host.cli", "duplicate", "open", "--dir", str(tmp_path / "s"),
                          "--hand-records", str(bri), "--first", "17", "--pairs", "10", "--movement", "mitchell",
                          "--boards-per-round", "2", "--date", "2025-11-30"], capture_output=True, text=True)
    assert run.returncode == 2
    assert "the hand records have no boards 1-10" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("spec", [{"kind": "howell", "tables": 4, "boards_per_round": 2},
                                  {"kind": "barometer", "tables": 3, "boards_per_round": 1},
                                  {"kind": "mitchell", "tables": 5, "boards_per_round": 2, "half_table": True}])
def test_other_movements_rank_from_the_travellers(tmp_path, spec) -> None:  # type: ignore[no-untyped-def]
    """A Howell (one field, pairs numbered 1 to 2n, no direction), a barometer and a half-table
    Mitchell (a pair sits out each round): the ranking recomputed from the PBN's travellers."""
    from firmware_host.duplicate.results.export import export
    from firmware_host.session.duplicate_session import Session
    from tests.duplicate.sessionkit import all_results, make_setup, rounds_called

    setup = make_setup(spec, seed=5)
    session = Session.create(tmp_path / "s", setup, analyse=False)
    try:
        assert all(o.taken for o in session.submit(rounds_called(setup) + all_results(setup, seed=6)))
        pbn = export(session, "pbn").decode("utf-8")
    finally:
        session.close()
    howell = spec["kind"] == "howell"
    first = next(g for g in o.read_pbn(pbn) if "TotalScoreTable" in g.tags)
    got = {({"N-S": "NS", "E-W": "EW"}.get(r["Direction"], "-"), r["PairId"]):
           (r["Rank"], r["TotalScoreMP"], r["TotalPercentage"], int(r["NrBoards"]))
           for r in o.table_rows(first, "TotalScoreTable")}
    assert_close(got, file_ranking(pbn, howell=howell))


def test_the_directors_regroup_and_correction_reach_the_pbn(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """docs/session.md: `regroup` puts a line in another group, `correct` changes a result; the
    traveller then shows the group and the corrected score, and its figures follow from the file."""
    from firmware_host.duplicate.results.export import export
    from firmware_host.session.duplicate_session import Session
    from laws.session.duplicate.spec import build_movement
    from tests.duplicate.sessionkit import all_results, make_setup, rounds_called

    setup = make_setup({"kind": "mitchell", "tables": 5, "boards_per_round": 2}, seed=3)
    movement = build_movement(setup.movement)
    session = Session.create(tmp_path / "s", setup, analyse=False)
    try:
        results = all_results(setup, seed=4)
        assert all(o.taken for o in session.submit(rounds_called(setup) + results))
        b1 = [r for r in results if r["board"] == 1]
        key = lambda r: f"1/{r['ns']}/{r['ew']}"  # noqa: E731
        records = [{"type": "regroup", "key": key(b1[0]), "group": "B"},
                   {"type": "regroup", "key": key(b1[1]), "group": "B"},
                   {"type": "regroup", "key": key(b1[2]), "group": "B"},
                   {"type": "correct", "key": key(b1[3]), "contract": "7NT", "declarer": "N", "tricks": 13,
                    "by": "td", "why": "typed wrong"}]
        outcomes = session.submit(records)
        assert all(o.taken for o in outcomes), [o.why for o in outcomes]
        pbn = export(session, "pbn").decode("utf-8")
    finally:
        session.close()
    rows = traveller(pbn, 1)
    assert sorted(r["Group"] for r in rows) == ["A", "A", "B", "B", "B"]
    corrected = next(r for r in rows if r["PairId_NS"] == b1[3]["ns"].split()[0])
    assert (corrected["Contract"], corrected["Score_NS"]) == ("7NT", "1520")
    got = [(r["MP_NS"], r["MP_EW"]) for r in rows]
    want = [(o.fmt(a), o.fmt(b)) for a, b in o.score_board(outsider_lines(rows), movement.due(1), "mp")]
    assert got == want
