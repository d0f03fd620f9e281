"""Substitutes (docs/euchre.md, "Substitutes"; docs/scoring.md 14, "A substitute", our house rule): the
director replaces a player from a round on; the number keeps its line and everything scored at it, the
line says who played which rounds and scored what, the seats name who holds each number; journaled,
replayed after a restart, in both exports, and checked by the outsider, which fails on a tampered one."""

from __future__ import annotations

import copy
from fractions import Fraction
from pathlib import Path

import pytest

from firmware_host.euchre_night.desk import NightDesk
from firmware_host.euchre_night.session import NightSession
from firmware_host.euchre_night.views import hands_export, standings_export
from laws.euchre_night.night import Format
from tests.euchre_night.outsider import rescore
from tests.euchre_night.test_session import hand, message, setup


def _play_round(s: NightSession, seq: int) -> int:
    n = s.night
    rnd = n.current
    for k in (1, 2):
        for j in (1, 2):
            seq += 1
            s.take([message(hand(n, k, j, makers="NS" if (k + j + rnd) % 2 else "EW", tricks=5 if j == 1 else 3), seq)])
    return seq


def test_a_substitute_plays_under_the_number_and_the_line_says_who_scored_what(tmp_path: Path) -> None:
    s = NightSession.create(tmp_path / "n", setup(Format.ROTATING, players=9, rounds=3, hands=2))
    n = s.night
    seq = _play_round(s, 0)
    assert n.current == 2
    p = n.round(2).tables[0][0]                       # north at table 1 in round 2
    why = s.substitute(p, "Zoe Lane", "", 1, "ill", "director")
    assert "a substitute comes in from round 2 on, not 1" in why            # round 1 is over
    assert "says why" in s.substitute(p, "Zoe Lane", "", 2, " ", "director")
    assert "1 to 60 characters" in s.substitute(p, "", "", 2, "ill", "director")
    assert "replaces a player of the night (1 to 9)" in s.substitute(10, "Zoe", "", 2, "ill", "director")
    events = len([r for r in s.journal.rows() if r.kind == "event"])
    s.take([message(hand(n, 1, 1), seq + 1)])        # his table has begun round 2: the substitute waits
    assert "from round 3 on, not 2" in s.substitute(p, "Zoe Lane", "", 2, "ill", "director")
    assert s.substitute(p, "Zoe Lane", "Z-1", 3, "ill", "director") == ""
    assert len([r for r in s.journal.rows() if r.kind == "event"]) == events + 2   # the hand, the substitution
    assert "a new one comes later" in s.substitute(p, "Max", "", 3, "again", "director")
    assert NightDesk(s).seating(n.setup.tables[0]).seats["N"] == (p, n.name_in(p, 2)) != (p, "Zoe Lane")
    while not n.finished:
        for k in range(1, len(n.round(n.current).tables) + 1):
            for j in range(n.played(n.current, k) + 1, 3):
                seq += 1
                s.take([message(hand(n, k, j, tricks=4), seq)])
    st, hd = standings_export(n), hands_export(n)
    assert rescore(st, hd) == []
    # the night is over: nobody comes in, and no finished line is rewritten (a sit-out of the last round was
    # taken, and credited the round's mean to the newcomer)
    out = n.round(3).out[0] if n.round(3).out else p
    assert s.substitute(out, "After Fact", "", 3, "late", "director") == (
        "the night is over: a substitute comes in for a round still to be played")
    row = next(r for r in st["standings"] if r["player"] == p)
    first, second = row["played_by"]
    assert (first["from_round"], first["to_round"], second["name"], second["member"], second["from_round"],
            second["to_round"]) == (1, 2, "Zoe Lane", "Z-1", 3, 3)
    assert Fraction(first["points"]) + Fraction(second["points"]) == Fraction(row["points"])   # one line, all of it
    assert Fraction(second["points"]) == n.round_points(p)[3]
    assert row["shown"] == f"{n.setup.players[p - 1].name} (rounds 1-2); Zoe Lane (rounds 3-3)"
    names3 = {x["player"]: x["name"] for r in st["rounds"] if r["round"] == 3
              for t in r["tables"] for x in t["seats"].values()} | {
        x["player"]: x["name"] for r in st["rounds"] if r["round"] == 3 for x in r["out"]}
    assert names3[p] == "Zoe Lane"
    s.close()
    again = NightSession.open(tmp_path / "n")         # a restart replays the substitution
    assert standings_export(again.night) == st
    again.close()

    tampered = copy.deepcopy(st)                      # the outsider fails on a tampered export
    row = next(r for r in tampered["standings"] if r["player"] == p)
    row["played_by"][1]["points"] = str(Fraction(row["played_by"][1]["points"]) + 1)
    assert any("played_by" in x for x in rescore(tampered, hd))
    tampered = copy.deepcopy(st)
    for r in tampered["rounds"]:
        for t in r["tables"]:
            for seat in t["seats"].values():
                if seat["player"] == p and r["round"] == 3:
                    seat["name"] = "Someone Else"
        for x in r["out"]:
            if x["player"] == p and r["round"] == 3:
                x["name"] = "Someone Else"
    assert any("held by 'Zoe Lane'" in x for x in rescore(tampered, hd))
    tampered_hands = copy.deepcopy(hd)
    tampered_hands["substitutions"][0]["from_round"] = 2
    assert rescore(st, tampered_hands)


@pytest.mark.parametrize(("rec", "says"), [
    ({"player": 99, "name": "Sue", "from_round": 2}, "a substitute replaces a player of the night (1 to 8), got 99"),
    ({"player": "99", "name": "Sue", "from_round": 2}, "a substitute replaces a player of the night (1 to 8), got '99'"),
    ({"player": 5, "name": "Sue", "from_round": 9},
     "player 5: the round the substitute comes in from is one of the night's (1 to 7), got 9"),
    # audit m9: the page's "From round" left empty was sent as 0 and refused in code words, "player 3:
    # from_round is a round of the night (1 to 2), got 0": a code name, and a value nobody typed
    ({"player": 5, "name": "Sue", "from_round": None},
     "player 5: the round the substitute comes in from is one of the night's (1 to 7), got nothing"),
    ({"player": None, "name": "Sue", "from_round": 2}, "a substitute replaces a player of the night (1 to 8), got nothing"),
])
def test_a_wrong_substitution_is_refused_in_the_documents_words(rec: dict, says: str) -> None:
    """docs/euchre.md gives ``... (1 to 12), got 99``: a number as it is. The number came quoted (``'99'``)."""
    from laws.euchre_night.substitutes import check_substitution

    assert check_substitution(rec, 8, 7, 1, 0, ()) == says


def test_a_substitute_for_the_whole_night_is_the_name_on_his_line(tmp_path: Path) -> None:
    """Audit m28: player 1 sat out round 1 and was replaced from round 1 (he went home); his line's
    ``played_by`` named the substitute alone, but ``shown`` (the name the pages and the sheet print) and
    ``cardtable euchre show`` named the player, who played nothing of the night."""
    import subprocess
    import sys

    s = NightSession.create(tmp_path / "n", setup(Format.ROTATING, players=9, rounds=3, hands=2))
    n = s.night
    assert n.round(1).out == (1,)
    assert s.substitute(1, "Zoe Lane", "Z-1", 1, "P1 went home", "director") == ""
    while not n.finished:
        for k in range(1, len(n.round(n.current).tables) + 1):
            for j in range(n.played(n.current, k) + 1, 3):
                s.take([message(hand(n, k, j, tricks=4), 100 * n.current + 10 * k + j)])
            if n.current == 2 and k == 1:
                break                                  # round 2 still in play at table 2 below
        if n.current == 2:
            break
    st = standings_export(n)
    row = next(r for r in st["standings"] if r["player"] == 1)
    assert [b["name"] for b in row["played_by"]] == ["Zoe Lane"]
    assert row["shown"] == "Zoe Lane"
    assert rescore(st, hands_export(n)) == []
    s.close()
    root = Path(__file__).resolve().parent.parent.parent
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "euchre", "show", "--session", str(tmp_path / "n")],
                       cwd=root, capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    lines = [x for x in p.stdout.splitlines() if x.endswith(" loners")]
    assert any(" Zoe Lane " in x for x in lines) and not any(" P1 " in x for x in lines), p.stdout
    seats = p.stdout.split("round 2:")[1]              # the round in play names who holds each number now
    assert "Zoe Lane" in seats and " P1," not in seats + "," and "out: P1" not in seats, p.stdout
