"""The terminal's status line after the auction has closed: the law engine keeps its auction phase until
the opening lead (its play phase begins with the first card), and the line printed it as it was, so under
THE CONTRACT, with a claim made before the lead, a player read ``deal 7 [····] 0/52 played phase auction``
(audit 69). It says ``opening lead`` from the contract to the lead, then ``play``."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from firmware_host.devices.display import TerminalDisplay, progress_text
from firmware_host.table.bridge_choices import open_bridge
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import CardPlayed, TricksClaimed
from tests.laws.bridge_table import SUITED, calls, feed, table


def _snap(eng: LawEngine) -> dict[str, Any]:
    """The parts of ``TableController.snapshot`` the status line reads."""
    s = eng.state
    return {"phase": s.phase.value, "deal": 1, "bridge": open_bridge(s), "lamps": {}, "counts": {},
            "cards_dealt": 52}


def test_the_status_line_says_opening_lead_between_the_contract_and_the_lead() -> None:
    eng = table()
    feed(eng, *calls(Seat.N, "1S"))
    assert progress_text(_snap(eng), 52).plain.endswith("phase auction")      # the auction is on
    feed(eng, *calls(Seat.E, "pass pass pass"))                               # 1S by North: East leads
    line = progress_text(_snap(eng), 52).plain
    assert "0/52 played" in line and line.endswith("phase opening lead"), line
    feed(eng, TricksClaimed(Seat.N, 13))                                      # a claim before the lead
    assert progress_text(_snap(eng), 52).plain.endswith("phase opening lead")


def test_the_status_line_says_play_once_the_lead_is_made() -> None:
    eng = table()
    feed(eng, *calls(Seat.N, "1S pass pass pass"), CardPlayed(Seat.E, SUITED[Seat.E][0]))
    assert progress_text(_snap(eng), 52).plain.endswith("1/52 played  phase play")


def test_a_display_without_its_live_panel_prints_the_line_when_the_auction_closes() -> None:
    """Without a live panel the line is printed when the phase it shows changes: the close of the auction
    is such a change, though the engine's phase is the same."""
    eng = table()
    buf = io.StringIO()
    display = TerminalDisplay(Console(file=buf, width=80, force_terminal=False), live=False)
    feed(eng, *calls(Seat.N, "1S pass pass"))
    display.status(_snap(eng))
    feed(eng, *calls(Seat.W, "pass"))
    display.status(_snap(eng))
    printed = [ln for ln in buf.getvalue().splitlines() if " phase " in ln]
    assert [ln.split("  phase ")[-1] for ln in printed] == ["auction", "opening lead"], printed
