"""DB-2: a board's dealer and vulnerability follow from its number alone."""

from __future__ import annotations

import pytest

from laws.cards import Seat, Side
from laws.duplicate.boards import Vulnerability, dealer, vulnerability, vulnerable

# docs/laws.md's table, written out by hand (not computed from the cycle under test).
TABLE = {1: "None", 2: "NS", 3: "EW", 4: "All", 5: "NS", 6: "EW", 7: "All", 8: "None", 9: "EW",
         10: "All", 11: "None", 12: "NS", 13: "All", 14: "None", 15: "NS", 16: "EW"}


@pytest.mark.parametrize("n", range(1, 37))
def test_cycle_repeats_every_sixteen(n: int) -> None:
    assert vulnerability(n).value == TABLE[(n - 1) % 16 + 1]


def test_dealers() -> None:
    assert [dealer(n) for n in (1, 2, 3, 4, 5, 28)] == [Seat.N, Seat.E, Seat.S, Seat.W, Seat.N, Seat.W]


def test_vulnerable_sides() -> None:
    assert vulnerable(2, Side.NS) and not vulnerable(2, Side.EW)
    assert vulnerable(4, Side.EW) and vulnerable(4, Side.NS)
    assert not vulnerable(1, Side.NS) and not vulnerable(17, Side.EW)
    assert Vulnerability.ALL.words == "both sides vulnerable"


@pytest.mark.parametrize("bad", [0, -3, 1.0, True, "1"])
def test_bad_numbers(bad: object) -> None:
    with pytest.raises(ValueError, match="board number"):
        dealer(bad)  # type: ignore[arg-type]
