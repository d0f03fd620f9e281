"""The panel's "Tricks won" line once play has ended by a claim: it counted only the tricks played, so
after North's agreed claim of the last 10 tricks (East declarer in 1D, North-South 3 tricks played) a
player read "Tricks won: North-South 3, East-West 0" right above "Result: 1D by East, 0 tricks: down 7."
(audit p12). Once the hand has its result the line gives the tricks the result counts, claimed (or moved
by a revoke) ones included, as table_view says: the tricks each side has won."""

from __future__ import annotations

from firmware_host.devices.table_view import game_lines
from firmware_host.table.bridge_choices import open_bridge
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import CardPlayed, ClaimAnswered, TricksClaimed
from tests.laws.bridge_table import SUITED, calls, feed, table


def _lines(eng: LawEngine) -> list[str]:
    s = eng.state
    return game_lines({"phase": s.phase.value, "deal": 1, "game": "contract-bridge", "dealer": "N",
                       "bridge": open_bridge(s), "lamps": {}, "counts": {}, "cards_dealt": 52})


def _won(lines: list[str]) -> str:
    return next(line for line in lines if line.startswith("Tricks won:"))


def test_a_claim_agreed_before_the_lead_counts_the_claimed_tricks() -> None:
    eng = table()
    feed(eng, *calls(Seat.N, "1S pass pass pass"), TricksClaimed(Seat.N, 13), ClaimAnswered(Seat.E, True))
    lines = _lines(eng)
    assert any(line.startswith("Result: 1S by North, 13 tricks") for line in lines), lines
    assert _won(lines) == "Tricks won: North-South 13, East-West 0", lines


def test_a_claim_after_a_trick_counts_the_played_and_the_claimed_tricks() -> None:
    eng = table()
    feed(eng, *calls(Seat.N, "1S pass pass pass"))
    for seat in (Seat.E, Seat.S, Seat.W, Seat.N):      # East leads a heart; North ruffs with a spade
        feed(eng, CardPlayed(seat, SUITED[seat][0]))
    assert _won(_lines(eng)).startswith("Tricks won: North-South 1, East-West 0; trick 2"), _lines(eng)
    feed(eng, TricksClaimed(Seat.N, 12), ClaimAnswered(Seat.E, True))
    assert _won(_lines(eng)) == "Tricks won: North-South 13, East-West 0", _lines(eng)


def test_play_in_progress_still_counts_the_tricks_played() -> None:
    eng = table()
    feed(eng, *calls(Seat.N, "1S pass pass pass"), CardPlayed(Seat.E, SUITED[Seat.E][0]))
    assert _won(_lines(eng)).startswith("Tricks won: North-South 0, East-West 0; trick 1"), _lines(eng)


