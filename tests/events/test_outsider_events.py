"""Every figure of an event's results files recomputed by the outsider (tests/events/outsider.py, written
from docs/competitions.md and docs/scoring.md alone), for each kind of event; and the outsider shown
failing on files tampered with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_host.events import files_pbn, files_usebio
from firmware_host.events.files import render, write_site
from laws.competition import vp
from laws.competition.event import EventState
from laws.competition.event_spec import EventKind, EventSpec, SectionSpec
from laws.competition.table_result import TableResult
from laws.duplicate.movement import howell, to_asc
from tests.events import outsider

CONTRACTS = (("4S", "N", 10), ("3NT", "E", 8), ("2HX", "S", 7), ("Pass", "", 0), ("6NT", "W", 12),
             ("1NT", "N", 9), ("5DXX", "E", 11), ("3C", "S", 9), ("4H", "W", 11), ("2S", "N", 6))


def played(spec: EventSpec, seed: int = 1) -> EventState:
    """Every round of ``spec`` played with results chosen by a fixed arithmetic rule."""
    state = EventState.opened(spec)
    k = seed
    while state.current <= spec.rounds:
        d = state.draws[state.current]
        for t in d.tables:
            for b in t.boards or d.boards:
                k += 1
                contract, declarer, tricks = CONTRACTS[(k * 7 + t.table * 3 + b) % len(CONTRACTS)]
                if contract != "Pass":
                    tricks = max(0, min(13, tricks + (k * 5 + b) % 3 - 1))
                state.apply(TableResult(d.round, t.table, b, contract, declarer, tricks))
    return state


SCALE = vp.read_discrete((Path(__file__).resolve().parents[1] / "data" / "vp" / "acbl_20_6to8.txt").read_text(),
                         "acbl")
SPECS = {
    "swiss-teams": EventSpec(EventKind.SWISS_TEAMS, 7, 4, 3, name="Swiss teams"),
    "round-robin": EventSpec(EventKind.ROUND_ROBIN, 5, 5, 2, name="League"),
    "knockout": EventSpec(EventKind.KNOCKOUT, 6, 3, 4, name="Cup"),
    "swiss-pairs-discrete": EventSpec(EventKind.SWISS_PAIRS, 10, 4, 3, SCALE, name="Swiss pairs"),
    "individual": EventSpec(EventKind.INDIVIDUAL, 12, 11, 2, name="Individual"),
    "individual-published-16": EventSpec(EventKind.INDIVIDUAL, 16, 12, 2, name="Individual",
                                         individual="published"),
    "sections-across": EventSpec(EventKind.SECTIONS, 20, 5, 2, name="Two sections", across=True,
                                 sections=(SectionSpec("A", 5), SectionSpec("B", 5, "mitchell"))),
    "sections-barometer-across": EventSpec(EventKind.SECTIONS, 20, 5, 2, name="Barometer and Mitchell", across=True,
                                           sections=(SectionSpec("A", 5, "barometer"), SectionSpec("B", 5))),
    "sections-barometer-howell": EventSpec(EventKind.SECTIONS, 16, 7, 1, name="Barometer Howell",
                                           sections=(SectionSpec("A", 4, "barometer-howell"),
                                                     SectionSpec("B", 4, "howell"))),
    "sections-asc": EventSpec(EventKind.SECTIONS, 16, 7, 1, name="ASC and Howell", across=True,
                              sections=(SectionSpec("A", 4, "asc", asc=to_asc(howell(4, 1))),
                                        SectionSpec("B", 4, "howell"))),
    "sections-within": EventSpec(EventKind.SECTIONS, 16, 5, 3, name="Two sections",
                                 sections=(SectionSpec("A", 5), SectionSpec("B", 3, "howell"))),
}


@pytest.mark.parametrize("name", sorted(SPECS))
def test_outsider_recomputes_every_figure(name: str, tmp_path: Path) -> None:
    state = played(SPECS[name])
    files = render(state, "2026-12-02", club="Test club")
    write_site(tmp_path, files)
    pbn = (tmp_path / "results.pbn").read_bytes().decode()
    xml = (tmp_path / "results.xml").read_bytes()
    assert outsider.check_pbn(pbn) == []
    assert outsider.check_usebio(xml) == []
    # the files hold what the event played
    assert pbn.count("[Board ") == SPECS[name].rounds * SPECS[name].boards_per_round
    kind = files_usebio.EVENT_TYPES.get(SPECS[name].kind, "PAIRS")
    assert b"EVENT_TYPE=\"" + kind.encode() in xml
    assert "<h1>" in (tmp_path / "index.html").read_text()


def test_only_complete_rounds_are_in_the_files() -> None:
    state = EventState.opened(EventSpec(EventKind.SWISS_TEAMS, 4, 3, 2))
    state.apply(TableResult(1, 1, 1, "4S", "N", 10))
    pbn = files_pbn.write(state, date="2026-12-02").decode()
    assert "[Board " not in pbn
    assert b"<MATCH>" not in files_usebio.write(state, date="2026-12-02")


def _tamper(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def test_outsider_fails_on_tampered_files() -> None:
    state = played(SPECS["swiss-teams"])
    files = render(state, "2026-12-02")
    pbn, xml = files["results.pbn"].decode(), files["results.xml"].decode()
    # a score line changed: the score no longer follows from the contract
    row = next(ln for ln in pbn.split("\r\n") if " Open " in ln and ln.split()[8] != "-")
    cells = row.split()
    bad = row.replace(f" {cells[8]} ", f" {int(cells[8]) + 10} ", 1)
    assert any("scores" in p for p in outsider.check_pbn(_tamper(pbn, row, bad)))
    # a VP of the ranking changed
    first = state.settled().standings()[0]
    from laws.scoring.render import present
    line = next(ln for ln in pbn.split("\r\n") if ln.split()[:3] == [first.place, str(first.competitor.number), present(first.vp)])
    assert any("recomputed" in p for p in outsider.check_pbn(_tamper(pbn, line, line.replace(present(first.vp),
                                                                                          present(first.vp + 1)))))
    # USEBIO: a match's VPs changed, and a traveller's score changed
    m = state.settled().matches(1)[0]
    tampered = _tamper(xml, f"<TEAM_SCORE>{present(m.first_vp)}</TEAM_SCORE>", "<TEAM_SCORE>20.00</TEAM_SCORE>")
    assert any("VPs" in p for p in outsider.check_usebio(tampered.encode()))
    first_score = re.search(r"<SCORE>(-?\d+)</SCORE>", xml)
    assert first_score is not None
    tampered = xml.replace(first_score.group(0), f"<SCORE>{int(first_score.group(1)) + 10}</SCORE>", 1)
    assert any("SCORE" in p for p in outsider.check_usebio(tampered.encode()))


def test_outsider_fails_on_a_tampered_individual_and_butler() -> None:
    ind = render(played(SPECS["individual"]), "2026-12-02")["results.pbn"].decode()
    row = next(ln for ln in ind.split("\r\n") if ln.startswith(" 1  1 "))
    mp = row.split()[-2]
    assert any("MPs" in p for p in outsider.check_pbn(_tamper(ind, row, row[: row.rfind(mp)] + "9.00" + row[row.rfind(mp) + len(mp):])))
    sp = render(played(SPECS["swiss-pairs-discrete"]), "2026-12-02")["results.pbn"].decode()
    row = next(ln for ln in sp.split("\r\n") if ln.startswith(" 1  1 "))
    cells = row.split()
    bad = row[: row.rfind(cells[-2])] + str(int(cells[-2]) + 1) + row[row.rfind(cells[-2]) + len(cells[-2]):]
    assert any("Butler" in p for p in outsider.check_pbn(_tamper(sp, row, bad)))


def test_outsider_fails_on_tampered_sections() -> None:
    files = render(played(SPECS["sections-across"]), "2026-12-02")
    pbn, xml = files["results.pbn"].decode(), files["results.xml"].decode()
    row = next(ln for ln in pbn.split("\r\n") if ln.startswith("A   1  1 "))
    mp = row.split()[-1]
    bad = row[: row.rfind(mp)] + ("0.00" if mp != "0.00" else "1.00")
    assert any("MPs" in p for p in outsider.check_pbn(_tamper(pbn, row, bad)))
    total = re.search(r"<TOTAL_SCORE>([0-9.]+)</TOTAL_SCORE>", xml)
    assert total is not None
    tampered = xml.replace(total.group(0), "<TOTAL_SCORE>99.00</TOTAL_SCORE>", 1)
    assert any("recomputed" in p for p in outsider.check_usebio(tampered.encode()))


AWARDS = ("A+/A-", "A+/A+", "A-/A-", "A=/A=", "A+/A=", "A-/A+")


def played_with_awards(spec: EventSpec, seed: int = 3) -> EventState:
    """As :func:`played`, with one result in six the director's average-plus/average-minus awards (at an
    open room's table in a teams event: a board of a match has one adjusted result)."""
    state = EventState.opened(spec)
    k = seed
    while state.current <= spec.rounds:
        d = state.draws[state.current]
        for t in d.tables:
            for b in t.boards or d.boards:
                k += 1
                if k % 6 == 0 and (not spec.kind.teams or t.table % 2):
                    state.apply(TableResult(d.round, t.table, b, "", adjusted=AWARDS[(k // 6) % len(AWARDS)]))
                    continue
                contract, declarer, tricks = CONTRACTS[(k * 7 + t.table * 3 + b) % len(CONTRACTS)]
                if contract != "Pass":
                    tricks = max(0, min(13, tricks + (k * 5 + b) % 3 - 1))
                state.apply(TableResult(d.round, t.table, b, contract, declarer, tricks))
    return state


@pytest.mark.parametrize("name", sorted(SPECS))
def test_outsider_recomputes_the_director_s_awards(name: str) -> None:
    state = played_with_awards(SPECS[name])
    assert any(res.adjusted for res in state.results.values())
    files = render(state, "2026-12-02", club="Test club")
    pbn, xml = files["results.pbn"].decode(), files["results.xml"]
    assert outsider.check_pbn(pbn) == []
    assert outsider.check_usebio(xml) == []
    assert b"<ADJUSTED_SCORE>" in xml
    # an award changed in the PBN (North-South's average-plus made average-minus, or the other way)
    row = next(ln for ln in pbn.split("\r\n") if re.search(r" A[+=-] +A[+=-] ", ln))
    award = re.search(r" (A[+=-]) +(A[+=-]) ", row)
    assert award is not None
    swapped = {"A+": "A-", "A-": "A+", "A=": "A+"}[award.group(1)]
    bad = row.replace(award.group(0), award.group(0).replace(award.group(1), swapped, 1), 1)
    assert outsider.check_pbn(_tamper(pbn, row, bad)) != []
    # and in the USEBIO
    text = xml.decode()
    got = re.search(r"<ADJUSTED_SCORE>(A[+=-])/", text)
    assert got is not None
    bad_xml = text.replace(got.group(0), f"<ADJUSTED_SCORE>{'A-' if got.group(1) != 'A-' else 'A+'}/", 1)
    assert outsider.check_usebio(bad_xml.encode()) != []


def test_outsider_fails_on_a_knockout_ranked_by_its_vps() -> None:
    """A knock-out's places follow the bracket (docs/competitions.md, "The event"): the outsider recomputes
    them from the matches and flags a ranking by VPs, the way the files placed a beaten finalist first."""
    files = render(played(SPECS["knockout"]), "2026-12-02")
    pbn, xml = files["results.pbn"].decode(), files["results.xml"].decode()
    assert outsider.check_pbn(pbn) == [] and outsider.check_usebio(xml.encode()) == []
    lines = pbn.split("\r\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("[TotalScoreTable"))
    first, second = lines[at + 1], lines[at + 2]      # the winner's and the beaten finalist's rows
    swapped = pbn.replace(first, "\0").replace(second, first.replace(" 1 ", " 2 ", 1)).replace(
        "\0", second.replace(" 2 ", " 1 ", 1))
    assert any("place" in p for p in outsider.check_pbn(swapped))
    assert any("PLACE" in p for p in outsider.check_usebio(_tamper(xml, "<PLACE>1</PLACE>", "<PLACE>2</PLACE>").encode()))
