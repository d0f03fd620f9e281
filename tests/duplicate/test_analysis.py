"""Double-dummy tricks and par, on a deal whose answers are worked out by hand (each hand one whole suit)."""

from __future__ import annotations

import pytest

from firmware_host.session import analysis
from firmware_host.session.analysis import SOLVED, Analyser, SolvedDeals, analyse
from laws.cards import Seat
from laws.duplicate.deal import Board, Deal

# North all spades, East all hearts, South all diamonds, West all clubs.
SUITS = Board.numbered(1, Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"))
EAST_WEST = Board.numbered(2, Deal.from_pbn("N:65432.765.765.T9 AKQJ.AKQJ.AKQ.AK T987.T98.JT9.QJ8 .432.8432.765432"))


def test_a_deal_of_whole_suits_by_hand() -> None:
    (a,) = analyse([SUITS])
    # In notrump the opening leader runs his suit; in a suit the side holding the trumps takes all 13.
    assert a.tricks[Seat.N] == {"NT": 0, "S": 13, "H": 0, "D": 13, "C": 0}
    assert a.tricks[Seat.S] == {"NT": 0, "S": 13, "H": 0, "D": 13, "C": 0}
    assert a.tricks[Seat.E] == {"NT": 0, "S": 0, "H": 13, "D": 0, "C": 13}
    assert a.tricks[Seat.W] == {"NT": 0, "S": 0, "H": 13, "D": 0, "C": 13}
    assert a.dd_hex == "0d0d00d0d000d0d00d0d"   # declarers N, S, E, W; strains NT, S, H, D, C
    # Both sides make a grand; North-South's is in the higher suit, and 7NT by East-West costs more.
    assert a.par_score == 1510 and a.optimum_score == "NS 1510"
    assert set(a.par_contracts) == {"7SN=", "7SS="}


def test_par_from_east_west_is_negative() -> None:
    (a,) = analyse([EAST_WEST])
    assert a.par_score < 0 and a.optimum_score.startswith("EW ")
    assert a.tricks[Seat.E]["NT"] == 13 and a.to_dict()["board"] == 2


def test_the_analyser_works_in_the_background() -> None:
    an = Analyser([SUITS, EAST_WEST]).start()
    assert an.all(timeout=60).keys() == {1, 2}
    assert an.ready and an.get(1) is not None and an.get(7) is None and an.problem is None


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The boards each call of the solver is given, by number (the cache answers the rest)."""
    solve, calls = analysis._solve, []

    def counted(boards):  # type: ignore[no-untyped-def]
        calls.append([b.number for b in boards])
        return solve(boards)

    monkeypatch.setattr(analysis, "_solve", counted)
    return calls


def test_a_deal_solved_before_is_served_from_the_cache_as_solved_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    SOLVED.clear()
    calls = _counting(monkeypatch)
    first = analyse([SUITS, EAST_WEST])
    assert calls == [[1, 2]]
    again = analyse([EAST_WEST, SUITS, SUITS])
    assert calls == [[1, 2]] and again == [first[1], first[0], first[0]]
    SOLVED.clear()
    assert analyse([SUITS, EAST_WEST]) == first and calls == [[1, 2], [1, 2]]    # afresh: the same answers
    # The same deal as another board of the same dealer and vulnerability (board 17 is board 1's): the
    # analysis is the deal's, the number the asking board's.
    (seventeen,) = analyse([Board(17, SUITS.dealer, SUITS.vulnerability, SUITS.deal)])
    assert calls == [[1, 2], [1, 2]] and seventeen.number == 17 and seventeen.tricks == first[0].tricks
    with pytest.raises(TypeError):     # one analysis is handed to every asker: nobody may change it
        seventeen.tricks[Seat.N]["S"] = 0  # type: ignore[index]


def test_the_cache_is_keyed_by_the_deal_and_by_what_par_depends_on(monkeypatch: pytest.MonkeyPatch) -> None:
    SOLVED.clear()
    calls = _counting(monkeypatch)
    (one,) = analyse([SUITS])
    # Another deal (North's spades and East's hearts swapped) is solved, not served board 1's answers.
    swapped = Board(1, SUITS.dealer, SUITS.vulnerability,
                    Deal.from_pbn("N:.AKQJT98765432.. AKQJT98765432... ..AKQJT98765432. ...AKQJT98765432"))
    (other,) = analyse([swapped])
    assert calls == [[1], [1]] and other.tricks[Seat.N]["S"] == 0 and other.tricks[Seat.N]["H"] == 13
    # The same deal as board 2 (East deals, North-South vulnerable): the same tricks, its own par,
    # 7 spades vulnerable: 210 + 500 + 1500.
    (two,) = analyse([Board.numbered(2, SUITS.deal)])
    assert calls == [[1], [1], [2]] and two.tricks == one.tricks
    assert (one.par_score, two.par_score) == (1510, 2210)


def test_the_cache_keeps_at_most_its_size_the_oldest_out_first() -> None:
    cache = SolvedDeals(size=2)
    a, b = analyse([SUITS, EAST_WEST])
    cache.put(SUITS, a)
    cache.put(EAST_WEST, b)
    assert cache.get(SUITS) == a             # now the newest used
    cache.put(Board.numbered(2, SUITS.deal), a)
    assert len(cache) == 2 and cache.get(EAST_WEST) is None and cache.get(SUITS) == a


TWO_AT_ONCE = """
import random, threading
from laws.cards import SEATS
from laws.duplicate.deal import Board, Deal
from firmware_host.session import analysis
from firmware_host.session.analysis import Analyser, analyse
rng = random.Random(3)
boards = []
for n in range(1, 13):
    seats = [SEATS[k % 4] for k in range(52)]
    rng.shuffle(seats)
    boards.append(Board.numbered(n, Deal(tuple(seats))))
alone = {a.number: a for a in analyse(boards)}
analysis.SOLVED.clear()     # else both would be served from the cache, never meeting at the solver
both = [Analyser(boards).start(), Analyser(boards).start()]
assert all(an.all(timeout=120) == alone and an.problem is None for an in both)
print("same")
"""


def test_two_sessions_analysers_in_one_process_take_turns_at_the_solver() -> None:
    """DDS is not safe for two solves at once (on main: its "Sum n is not four", then a crash); two
    sessions' analysers in one process (the duplicate demo's, one after another in the tests) take turns.
    Run in a process of its own: a crash must fail this test, not stop the suite."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", TWO_AT_ONCE], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == "same", (proc.returncode, proc.stdout[-300:], proc.stderr[-300:])
