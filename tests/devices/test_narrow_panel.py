"""The panel on a narrow terminal (40 columns, a small screen on the table's edge): the game's lines were
cut with an ellipsis, so a player read "Deal 2   Dealer North   Vulnerable:…" with the vulnerability gone,
and a duplicate board's "Round 2, table 3 (section A): North-South pair 1, East-West pair 11" lost its
pairs (audit p12). The lines now wrap: nothing of them is cut, whatever the width."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from firmware_host.devices.display import TerminalDisplay


def _shown(snap: dict[str, Any], width: int) -> str:
    buf = io.StringIO()
    display = TerminalDisplay(Console(file=buf, width=width, force_terminal=False), live=False)
    display._snap = snap
    display.console.print(display._render())
    return " ".join(line.strip("│ ") for line in buf.getvalue().splitlines())


RUBBER = {"phase": "auction", "deal": 2, "dealer": "N", "game": "contract-bridge", "lamps": {},
          "score": {"game": 1, "vulnerable": {"NS": True, "EW": False}, "totals": {}, "below": {}}}
BOARD = {"phase": "auction", "deal": 1, "dealer": "E", "game": "duplicate-bridge", "lamps": {},
         "duplicate": {"board": 14, "dealer": "E", "vulnerable": "None", "round": 2, "table": 3,
                       "section": "A", "ns": "1", "ew": "11"}}


def test_a_40_column_panel_keeps_the_vulnerability_and_the_pairs() -> None:
    shown = _shown(RUBBER, 40)
    assert "…" not in shown, shown
    assert "Vulnerable: North-South" in " ".join(shown.split()), shown
    board = " ".join(_shown(BOARD, 40).split())
    assert "Vulnerable: none" in board and "North-South pair 1, East-West pair 11" in board, board


def test_an_80_column_panel_is_as_before() -> None:
    buf_lines = _shown(BOARD, 80)
    assert "Board 14   Dealer East   Vulnerable: none" in buf_lines, buf_lines
