"""A bench's checks decide its exit status: a figure that breaks a promise is exit 1 and one line naming
it (``report.ChecksFailed`` through ``bench.run``), never exit 0, a traceback or a bare ``assert`` that
``python -O`` drops. The parts are replaced by their figures, so only the exit rule runs."""

from __future__ import annotations

import argparse
from typing import Any

import pytest

from firmware_host import bench
from firmware_host.bench import broadcast as bb

ARGS = argparse.Namespace(quick=True, json=True)
LIVE = {"items drawn not in journals": 0, "spectator: items differing": 0, "spectator: items early": 0,
        "cards committed": 10, "cards drawn per browser": [10, 10, 10]}
ATTACK = {"items committed": 50, "spectator: items shown": 50, "spectator: shown before release": 0,
          "spectator: differing": 0, "spectator: other topics": 0,
          "table's login: play or released messages": 0, "no login / wrong password: refused": True}
SOAK = {"soak: every invariant holds": True, "items committed / shown": "40 / 40",
        "cards shown differing from the journals": 0, "items shown early": 0}


def _broadcast(monkeypatch: pytest.MonkeyPatch, live: dict[str, Any], attack: dict[str, Any],
               soak: dict[str, Any]) -> None:
    monkeypatch.setattr(bb, "report", lambda *a, **k: None)
    monkeypatch.setattr(bb, "_live", lambda root, q: LIVE | live)
    monkeypatch.setattr(bb, "_attack", lambda root, q: ATTACK | attack)
    monkeypatch.setattr(bb, "_soak", lambda root, q: SOAK | soak)


def test_an_honest_broadcast_exits_0(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _broadcast(monkeypatch, {}, {}, {})
    assert bench.run("broadcast", ARGS) == 0
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("live, attack, soak, said", [
    ({"items drawn not in journals": 1}, {}, {}, "live: items drawn not in journals 1"),
    ({"spectator: items differing": 2}, {}, {}, "live: spectator: items differing 2"),
    ({"spectator: items early": 1}, {}, {}, "live: spectator: items early 1"),
    ({"cards drawn per browser": [9, 10, 10]}, {}, {}, "live: cards drawn per browser [9, 10, 10] of 10"),
    ({}, {"table's login: play or released messages": 7}, {}, "attack: table's login: play or released messages 7"),
    ({}, {"spectator: other topics": 3}, {}, "attack: spectator: other topics 3"),
    ({}, {"spectator: shown before release": 1}, {}, "attack: spectator: shown before release 1"),
    ({}, {"spectator: differing": 1}, {}, "attack: spectator: differing 1"),
    ({}, {"no login / wrong password: refused": False}, {}, "attack: no login or a wrong password was not refused"),
    ({}, {"spectator: items shown": 49}, {}, "attack: spectator shown 49 of 50"),
    ({}, {}, {"soak: every invariant holds": False}, "soak: an invariant of the soak does not hold"),
    ({}, {}, {"items committed / shown": "40 / 39"}, "soak: spectator shown 39 of 40"),
    ({}, {}, {"cards shown differing from the journals": 1}, "soak: cards shown differing from the journals 1"),
    ({}, {}, {"items shown early": 1}, "soak: items shown early 1"),
])
def test_each_leak_or_miss_fails_the_broadcast_bench_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], live: dict[str, Any],
        attack: dict[str, Any], soak: dict[str, Any], said: str) -> None:
    _broadcast(monkeypatch, live, attack, soak)
    assert bench.run("broadcast", ARGS) == 1
    err = capsys.readouterr().err
    assert err.startswith("cardtable bench broadcast: FAILED: ") and said in err, err
    assert len(err.splitlines()) == 1, err


def test_federation_views_that_differ_fail_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    import laws.scoring.session as scoring
    from firmware_host.bench import federation

    real = scoring.rank_boards

    def one_row_short(*a: Any, **k: Any) -> Any:     # the whole way only: its ranking loses its last row
        r = real(*a, **k)
        return r[:-1] if len(r) > 1 else r

    monkeypatch.setattr(scoring, "rank_boards", one_row_short)
    monkeypatch.setattr(federation, "rescore", lambda n: {})
    monkeypatch.setattr(federation, "live", lambda **k: {})
    assert bench.run("federation", ARGS) == 1
    err = capsys.readouterr().err
    assert err == ("cardtable bench federation: FAILED: message 1: the incremental view is not the whole "
                   "ranking's\n"), err


class _Session:
    """A session whose live ranking, once board 2 is scored again, is not the full rescore's."""

    def __init__(self) -> None:
        self._stale: set[int] = set()

    def rescore_all(self) -> dict[str, Any]:
        return {"ranking": [1, 2]}

    def scored(self) -> dict[str, Any]:
        return {"ranking": [2, 1] if 2 in self._stale else [1, 2]}


def test_duplicate_live_rankings_that_differ_fail_in_one_line(monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    from firmware_host.bench import duplicate_live

    monkeypatch.setattr(duplicate_live, "measure", lambda *a: dict(zip(("rescore", "one_board"),
                                                                       duplicate_live.rescore_costs(_Session(), [1, 2]))))
    assert bench.run("duplicate-live", ARGS) == 1
    err = capsys.readouterr().err
    assert err == ("cardtable bench duplicate-live: FAILED: repeat 2: the live ranking, board 2 scored again, is not "
                   "the full rescore's\n"), err


def test_duplicate_live_rankings_that_agree_are_measured() -> None:
    from firmware_host.bench import duplicate_live

    class Same(_Session):
        def scored(self) -> dict[str, Any]:
            return self.rescore_all()

    rescore, one_board = duplicate_live.rescore_costs(Same(), [1, 2], repeats=3)
    assert len(rescore) == len(one_board) == 3
