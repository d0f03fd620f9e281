"""The director's correction of a hand (docs/euchre.md, "The director's correction"): journaled, in the
hand's points, the standings and the exports (the outsider's scorer agrees from the files alone), the
same after a restart; refused with the reason and nothing journaled when it names no hand, says no
reason, changes nothing or cannot be scored; the table's own copy sent again is still a repeat."""

from __future__ import annotations

from pathlib import Path

from firmware_host.euchre_night.session import NightSession
from firmware_host.euchre_night.views import hands_export, standings_export
from tests.euchre_night.outsider import rescore
from tests.euchre_night.test_session import hand, message, setup


def _points(s: NightSession) -> dict[int, str]:
    return {r["player"]: r["points"] for r in standings_export(s.night)["standings"]}


def test_a_correction_reaches_the_points_the_standings_and_the_exports(tmp_path: Path) -> None:
    s = NightSession.create(tmp_path / "n", setup())
    n = s.night
    s.take([message(hand(n, 1, 1, tricks=5), 1)])              # NS march: 2 each to players 1 and 2
    assert _points(s)[1] == "2" and _points(s)[3] == "0"
    rows = len(list(s.journal.rows()))
    assert s.correct("table-01", 1, 1, {"tricks": 2}, "the makers took two tricks, not five", "director") == ""
    assert len(list(s.journal.rows())) == rows + 1
    assert _points(s)[1] == "0" and _points(s)[3] == "2"        # euchred: 2 each to East-West
    exported = hands_export(n, s.head())["hands"][0]
    assert exported["tricks"] == 2 and exported["points"] == {"N": 0, "S": 0, "E": 2, "W": 2}
    assert exported["corrections"] == [{"by": "director", "why": "the makers took two tricks, not five",
                                        "was": {"tricks": 5}}]
    assert rescore(standings_export(n, s.head()), hands_export(n, s.head())) == []
    # the table's own copy, sent again under a new journal row, is still a repeat
    answers = s.take([message(hand(n, 1, 1, tricks=5), 2)])
    assert [a.status for _, a in answers] == ["repeat"]
    before = _points(s)
    s.close()
    again = NightSession.open(tmp_path / "n")
    assert _points(again) == before and again.night.hands[(1, 1, 1)].body["tricks"] == 2
    again.close()


def test_a_correction_that_cannot_be_taken_is_refused_and_nothing_is_journaled(tmp_path: Path) -> None:
    s = NightSession.create(tmp_path / "n", setup())
    n = s.night
    s.take([message(hand(n, 1, 1, tricks=3), 1)])
    rows = len(list(s.journal.rows()))
    cases = [
        (("table-01", 1, 2, {"tricks": 2}, "x"), "the night has no hand 2 of round 1 from it"),
        (("table-09", 1, 1, {"tricks": 2}, "x"), "which is not one of this night's tables"),
        (("table-01", "1", 1, {"tricks": 2}, "x"), "round and hand are whole numbers"),
        (("table-01", 1, 1, {"tricks": 2}, " "), "a correction says why"),
        (("table-01", 1, 1, {"plays": []}, "x"), "facts must be an object of some of makers"),
        (("table-01", 1, 1, {}, "x"), "the correction changes none of the hand's facts: choose the makers"),
        (("table-01", 1, 1, {"tricks": 3}, "x"), "the correction changes nothing"),
        (("table-01", 1, 1, {"tricks": 6}, "x"), "the makers' tricks are 0 to 5, got 6"),
        (("table-01", 1, 1, {"makers": "XX"}, "x"), "makers must be NS or EW"),
    ]
    for args, want in cases:
        why = s.correct(*args, by="director")
        assert want in why, (args, why)
    assert len(list(s.journal.rows())) == rows
    assert n.hands[(1, 1, 1)].body["tricks"] == 3 and "corrections" not in n.hands[(1, 1, 1)].body
    s.close()


def test_the_outsider_fails_on_a_corrected_hand_s_points_left_as_they_were(tmp_path: Path) -> None:
    s = NightSession.create(tmp_path / "n", setup())
    n = s.night
    s.take([message(hand(n, 1, 1, tricks=5), 1)])
    standings_before = standings_export(n, s.head())
    assert s.correct("table-01", 1, 1, {"tricks": 2}, "miscounted", "director") == ""
    assert rescore(standings_before, hands_export(n, s.head()))     # stale standings against corrected hands
    s.close()
