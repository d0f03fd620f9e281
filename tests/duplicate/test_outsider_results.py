"""An outsider's audit of the duplicate scores and results files (issues 23 and 24).

The expectations come from LAWS.md (DB-2, DB-12, DB-77, DB-78, DB-87) and docs/scoring.md alone,
through the independent scorer in ``outsider.py`` (written without reading the scoring code or
``recompute.py``); the program is run through its documented API (``laws.scoring.score_session``) and
its documented commands. Each check is also fed a wrong answer and seen to fail.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import Seat
from laws.scoring import (
    Artificial,
    Assigned,
    Line,
    Method,
    Pair,
    Played,
    parse_contract,
    score_session,
)
from laws.scoring.session import Side
from tests.duplicate import outsider as o

METHODS = {"mp": Method.MATCHPOINTS, "mp-half": Method.MATCHPOINTS_HALF,
           "butler": Method.BUTLER, "cross": Method.CROSS_IMPS}


def ns_pair(n: int) -> Pair:
    return Pair(n, Side.NS)


def ew_pair(n: int) -> Pair:
    return Pair(n, Side.EW)


# --- one board: random lines through score_session against the outsider -------------------------

CONTRACTS = [f"{lv}{s}{x}" for lv in range(1, 8) for s in ("C", "D", "H", "S", "NT")
             for x in ("", "X", "XX")]


@st.composite
def board_lines(draw: st.DrawFn, method: str) -> tuple[int, int, list[o.OLine], list[Line]]:
    board = draw(st.integers(1, 48))
    count = draw(st.integers(1, 8))
    due = count + draw(st.integers(0, 2))
    percents = [40, 50, 60] if method in ("butler", "cross") else [40, 50, 60, 70]
    olines: list[o.OLine] = []
    lines: list[Line] = []
    for i in range(count):
        kind = draw(st.sampled_from(["played", "played", "played", "passed", "assigned",
                                     "split", "artificial"]))
        group = "A" if kind == "artificial" else draw(st.sampled_from("AAB"))
        if kind in ("played", "passed"):
            if kind == "passed":
                result = Played(None, None, 0)
                score = 0
            else:
                contract = draw(st.sampled_from(CONTRACTS))
                declarer = draw(st.sampled_from("NESW"))
                tricks = draw(st.integers(0, 13))
                result = Played(parse_contract(contract), Seat(declarer), tricks)
                score = o.ns_score(contract, declarer, tricks, board)
            ol = o.OLine(i + 1, i + 1, "played", score, score, group)
        elif kind == "assigned":
            score = draw(st.integers(-200, 200)) * 10
            result, ol = Assigned(score), o.OLine(i + 1, i + 1, "assigned", score, score, group)
        elif kind == "split":
            a, b = draw(st.integers(-200, 200)) * 10, draw(st.integers(-200, 200)) * 10
            result, ol = Assigned(a, b), o.OLine(i + 1, i + 1, "assigned", a, b, group)
        else:
            a, b = draw(st.sampled_from(percents)), draw(st.sampled_from(percents))
            result, ol = Artificial(a, b), o.OLine(i + 1, i + 1, "artificial", a, b, group)
        olines.append(ol)
        lines.append(Line(board, ns_pair(i + 1), ew_pair(i + 1), result, group))
    return board, due, olines, lines


def check_board(method: str, board: int, due: int, olines: list[o.OLine], lines: list[Line]) -> None:
    fields = {p: d for i in range(len(lines)) for p, d in ((ns_pair(i + 1), "NS"), (ew_pair(i + 1), "EW"))}
    result = score_session([board], lines, due, METHODS[method], fields)
    (scored,) = result.boards
    assert scored.number == board
    expected = o.score_board(olines, due, method)
    got = {(ln.ns.number, ln.ew.number): (ln.ns_points, ln.ew_points) for ln in scored.lines}
    for ol, want in zip(olines, expected):
        assert got[(ol.ns_pair, ol.ew_pair)] == want, (ol, want, got[(ol.ns_pair, ol.ew_pair)])
    if method.startswith("mp"):
        top = Fraction(due - 1) if method == "mp-half" else Fraction(2 * (due - 1))
        assert scored.top == top
        for ln in scored.lines:
            assert ln.ns_percent == (ln.ns_points / top * 100 if top else 50)
    for ln, ol in ((ln, ol) for ln in scored.lines for ol in olines if ol.ns_pair == ln.ns.number):
        if ol.kind != "artificial":
            assert ln.ns_score == ol.ns


@pytest.mark.parametrize("method", sorted(METHODS))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_board_scores_as_the_documents_say(method: str, data: st.DataObject) -> None:
    board, due, olines, lines = data.draw(board_lines(method))
    check_board(method, board, due, olines, lines)


# --- a session: totals, percentages and places -----------------------------------------------------

@st.composite
def sessions(draw: st.DrawFn, method: str) -> tuple[list[int], int, list[Line], list[o.OLine], bool]:
    pairs = draw(st.integers(2, 5))
    one_field = draw(st.booleans())
    boards = sorted(draw(st.sets(st.integers(1, 40), min_size=1, max_size=4)))
    lines: list[Line] = []
    olines: list[o.OLine] = []
    for board in boards:
        perm = draw(st.permutations(range(1, pairs + 1)))
        playing = draw(st.lists(st.booleans(), min_size=pairs, max_size=pairs))
        for i in range(pairs):
            if not playing[i] and any(playing):
                continue
            ew = perm[i]
            kind = draw(st.sampled_from(["small", "small", "artificial"]))
            if kind == "artificial":
                a = draw(st.sampled_from([40, 50, 60]))
                res: Played | Assigned | Artificial = Artificial(a, 100 - a)
                ol = o.OLine(i + 1, ew, "artificial", a, 100 - a)
            else:
                s = draw(st.sampled_from([-100, 0, 100]))  # few values: ties are common
                res, ol = Assigned(s), o.OLine(i + 1, ew, "assigned", s, s)
            lines.append(Line(board, ns_pair(i + 1), ew_pair(ew), res))
            olines.append(ol)
    return boards, pairs, lines, olines, one_field


@pytest.mark.parametrize("method", sorted(METHODS))
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_session_ranks_as_the_documents_say(method: str, data: st.DataObject) -> None:
    boards, pairs, lines, olines, one_field = data.draw(sessions(method))
    field_of = (lambda d: "one field") if one_field else (lambda d: d)
    fields = {p: field_of(d) for n in range(1, pairs + 1)
              for p, d in ((ns_pair(n), "NS"), (ew_pair(n), "EW"))}
    result = score_session(boards, lines, pairs, METHODS[method], fields)
    check_session(method, boards, pairs, lines, olines, fields, result)


def check_session(method: str, boards: list[int], due: int, lines: list[Line], olines: list[o.OLine],
                  fields: dict[Pair, str], result: object) -> None:
    top = Fraction(due - 1) if method == "mp-half" else Fraction(2 * (due - 1))
    total: dict[Pair, Fraction] = {}
    tops: dict[Pair, Fraction] = {}
    played: dict[Pair, int] = {}
    for board in boards:
        idx = [i for i, ln in enumerate(lines) if ln.board == board]
        points = o.score_board([olines[i] for i in idx], due, method)
        for i, (pn, pe) in zip(idx, points):
            for pair, pts in ((lines[i].ns, pn), (lines[i].ew, pe)):
                total[pair] = total.get(pair, Fraction(0)) + pts
                tops[pair] = tops.get(pair, Fraction(0)) + top
                played[pair] = played.get(pair, 0) + 1
    want: dict[str, dict[Pair, tuple[Fraction, int, str]]] = {}
    for name in sorted(set(fields.values())):
        members = [p for p in total if fields[p] == name]
        fig = {p: (total[p] / tops[p] * 100 if method.startswith("mp") and tops[p] else
                   total[p] / played[p]) for p in members}
        place = o.places(fig)  # type: ignore[arg-type]
        want[name] = {p: (total[p], played[p], place[p]) for p in members}
    got = {r.field: {s.pair: (s.total, s.boards, s.place) for s in r.standings}
           for r in result.rankings}  # type: ignore[attr-defined]
    assert {k: v for k, v in got.items() if v} == {k: v for k, v in want.items() if v}
    for r in result.rankings:  # type: ignore[attr-defined]
        order = [s.pair for s in r.standings]
        figs = [(s.percent if method.startswith("mp") else s.per_board) for s in r.standings]
        assert figs == sorted(figs, reverse=True), "ranked best first"
        for a, b, fa, fb in zip(order, order[1:], figs, figs[1:]):
            if fa == fb:
                assert a.number <= b.number, "equal figures are listed by pair number"


# --- the exports of a session with adjusted scores, a fouled board and a missing result -----------

@pytest.fixture(scope="module")
def adjusted_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, object]]:
    yield from build_adjusted(tmp_path_factory, Method.MATCHPOINTS)


def build_adjusted(tmp_path_factory: pytest.TempPathFactory, method: Method) -> Iterator[dict[str, object]]:
    """A 5-table Mitchell (2 boards a round, 5 due on each board): board 3 misboarded from round 3
    (two groups), board 1 a result short (Neuberg), board 2 an artificial 60/40, board 4 an assigned
    +420, board 5 a split assigned +420 / +140."""
    from firmware_host.duplicate.results import export
    from firmware_host.duplicate.session import Session
    from firmware_host.duplicate.spec import build_movement
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
    board5 = page[page.index("Board 5:"):page.index("Board 6:")]
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
    section = root.find("EVENT/SESSION/SECTION")
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
    section = root.find("EVENT/SESSION/SECTION")
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


# --- the checkers fail on wrong answers ----------------------------------------------------------

def test_the_outsider_board_checks_fail_on_a_wrong_answer() -> None:
    """Fed a wrong Neuberg factor, a wrong datum and a wrong vulnerability, the checks see it."""
    lines = [o.OLine(1, 1, "played", 420, 420), o.OLine(2, 2, "played", 450, 450),
             o.OLine(3, 3, "played", 170, 170)]
    right = o.score_board(lines, 4, "mp")
    assert right[1] == (Fraction(17, 3), Fraction(1, 3))  # docs/scoring.md §4's factoring, 3 of 4
    assert o.score_board(lines, 3, "mp") != right  # the due count matters
    # Butler, three results, nothing dropped: 1040 / 3 = 346.67 -> datum 350; 420 - 350 = 70 -> 2 IMPs
    assert o.score_board(lines, 4, "butler")[0] == (Fraction(2), Fraction(-2))
    with pytest.raises(AssertionError):
        check_board("mp", 1, 4, [o.OLine(1, 1, "assigned", 420, 420)],
                    [Line(1, ns_pair(1), ew_pair(1), Assigned(450))])
    assert o.vul_of(17) == "None" and o.vul_of(20) == "All" and o.dealer_of(20) == "W"


# --- DB-2, DB-77, the IMP table: every case -----------------------------------------------------

def test_every_boards_dealer_and_vulnerability() -> None:
    from laws.duplicate.boards import dealer, vulnerability
    for n in range(1, 129):
        assert (dealer(n).value, vulnerability(n).value) == (o.dealer_of(n), o.vul_of(n)), n


def test_every_contract_result_and_vulnerability_scores_as_db77() -> None:
    """All 35 contracts × 3 doublings × 14 trick counts × 4 declarers × the 16 vulnerabilities."""
    from laws.duplicate.boards import vulnerability
    from laws.scoring import board_score
    for board in range(1, 17):
        for contract in CONTRACTS:
            for declarer in "NESW":
                for tricks in range(14):
                    got = board_score(parse_contract(contract), Seat(declarer), tricks, vulnerability(board))
                    assert got == o.ns_score(contract, declarer, tricks, board), (board, contract, declarer, tricks)
    assert board_score(None, None, 0, vulnerability(1)) == 0  # a passed-out board


def test_the_imp_table_at_every_difference() -> None:
    from laws.scoring import imps
    for diff in range(-5000, 5001, 10):
        assert imps(diff) == o.imps(diff), diff
    with pytest.raises(AssertionError):  # the outsider's table fails a wrong answer
        assert o.imps(4000) == 23


def test_a_name_with_a_quote_is_one_pbn_value(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """PBN 2.1 tokens: a table cell with a quote must be a quoted string with the quote escaped, or a
    reader splits the row wrongly (a pair with one player named, the name without a space)."""
    import dataclasses

    from firmware_host.duplicate.results import export
    from firmware_host.duplicate.session import Session
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
    from firmware_host.duplicate.results import export
    from firmware_host.duplicate.session import Session
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
    from firmware_host.duplicate.duplimate import read_bri, read_dup, write_bri, write_dup
    from firmware_host.duplicate.pbnfile import read_pbn

    boards = read_pbn(adjusted_session["pbn"], "results.pbn")
    setup_boards = adjusted_session["session"].setup.boards
    assert [(b.number, b.deal) for b in boards] == [(b.number, b.deal) for b in setup_boards]
    assert [b.deal for b in read_bri(write_bri(boards), "x.bri")] == [b.deal for b in boards]
    assert [b.deal for b in read_dup(write_dup(boards), "x.dup")] == [b.deal for b in boards]


def test_a_board_repeated_with_another_deal_is_still_refused(adjusted_session: dict) -> None:
    from firmware_host.duplicate.errors import HandRecordError
    from firmware_host.duplicate.pbnfile import read_pbn

    games = adjusted_session["pbn"].split("\r\n\r\n")
    played = next(i for i, g in enumerate(games) if '[Board "1"]' in g and "[Table " in g)
    deal = o.TAG.match(next(ln for ln in games[played].split("\r\n") if ln.startswith("[Deal "))).group(2)
    hands = deal[2:].split()
    swapped = deal[:2] + " ".join([hands[1], hands[0], *hands[2:]])
    games[played] = games[played].replace(deal, swapped)
    with pytest.raises(HandRecordError, match=r"board 1 appears twice with different deals"):
        read_pbn("\r\n\r\n".join(games), "results.pbn")


def test_hand_records_numbered_from_17_are_refused_in_plain_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A movement plays boards from 1 (docs/movements.md, board groups); a BRI read from board 17 on
    lacks boards 1-10, and the message says so in plain words (it said 'no board 1-10')."""
    import subprocess
    import sys

    from firmware_host.duplicate.duplimate import write_bri
    from firmware_host.duplicate.newdeals import new_boards

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
    from firmware_host.duplicate.results import export
    from firmware_host.duplicate.session import Session
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
    from firmware_host.duplicate.results import export
    from firmware_host.duplicate.session import Session
    from firmware_host.duplicate.spec import build_movement
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
