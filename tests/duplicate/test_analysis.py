"""Double-dummy tricks and par, on a deal whose answers are worked out by hand (each hand one whole suit)."""

from __future__ import annotations

from firmware_host.session.analysis import Analyser, analyse
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


TWO_AT_ONCE = """
import random, threading
from laws.cards import SEATS
from laws.duplicate.deal import Board, Deal
from firmware_host.session.analysis import Analyser, analyse
rng = random.Random(3)
boards = []
for n in range(1, 13):
    seats = [SEATS[k % 4] for k in range(52)]
    rng.shuffle(seats)
    boards.append(Board.numbered(n, Deal(tuple(seats))))
alone = {a.number: a for a in analyse(boards)}
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
