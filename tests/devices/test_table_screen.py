"""The table's terminal panel as a person sees it: a real duplicate table's status on a live
``TerminalDisplay`` in a real terminal (tmux), captured with ``capture-pane`` (issue 30, section 1), and
the same lines for a rubber table and one that does not see the game (``table_view``, pure)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_host.devices.table_view import auction_grid, game_lines, status_line

ROOT = Path(__file__).resolve().parent.parent.parent
needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (Debian package tmux; `make test` installs it)")


def screen(stage: str, folder: Path) -> tuple[str, str]:
    """What a person sees on an 80-column terminal with the table at ``stage``, and the log file."""
    name = f"cardtable-screen-{stage}-{id(folder)}"
    # a tmux server of its own (its own socket): a new session on the shared default server can fail with
    # "server exited unexpectedly" while the server the previous test's last session ended is going away
    tmux = ["tmux", "-L", name]
    cmd = f"{sys.executable} -m tests.devices.screen_driver {stage} {folder} 2>{folder / 'stderr'}"
    subprocess.run([*tmux, "new-session", "-d", "-s", name, "-x", "80", "-y", "40", "-c", str(ROOT), cmd],
                   check=True, timeout=30)
    try:
        for _ in range(300):                      # the driver says when its panel is up
            if (folder / "shown").exists():
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the panel never came up: " + (folder / "stderr").read_text(errors="replace"))
        shown = subprocess.run([*tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True,
                               check=True, timeout=30).stdout
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True, timeout=30)
    log = folder / "cardtable.log"
    return shown, log.read_text() if log.exists() else ""


@needs_tmux
def test_the_panel_shows_the_auction(tmp_path: Path) -> None:
    shown, log = screen("auction", tmp_path)
    for want in ("Board 1   Dealer North   Vulnerable: none",
                 "Round 2, table 3 (section A): North-South pair 1, East-West pair 11",
                 "West     North    East     South",
                 "1NT      Pass     3NT",
                 "Pass     Pass     ?",
                 "The auction: East to call.",
                 "board 1  [████████████] 52/52 dealt"):
        assert want in shown, (want, shown)
    assert "waiting for" not in shown and "deal 1" not in shown
    assert "THIS WARNING" not in shown and "WARNING" not in shown        # warnings go to the log
    assert "THIS WARNING BELONGS IN THE LOG" in log
    # and to stderr where it is no terminal: under systemd it is the journal, which hardware/SETUP.md sends
    # the installer to (journalctl -u cardtable); the display muted it there too
    assert "THIS WARNING BELONGS IN THE LOG" in (tmp_path / "stderr").read_text()
    assert all(len(line) <= 80 for line in shown.splitlines())


@needs_tmux
def test_the_panel_shows_the_play_and_the_trick_on_the_table(tmp_path: Path) -> None:
    shown, _ = screen("play", tmp_path)
    for want in ("Contract: 3NT by North (North-South); dummy South",
                 "Tricks won: North-South 0, East-West 0; trick 1, 13 to play",
                 "On the table: East ", "2/52 played", "The play: West to play."):
        assert want in shown, (want, shown)
    assert "waiting for" not in shown


@needs_tmux
def test_the_panel_shows_the_result_and_how_to_confirm_it(tmp_path: Path) -> None:
    shown, _ = screen("result", tmp_path)
    for want in ("Result: 3NT by North, ", "To confirm it, one player of each side presses his seat button.",
                 "52/52 played", "Play is over: the result is the cards'."):
        assert want in shown, (want, shown)
    assert "Tricks won: North-South " in shown and "waiting for" not in shown


def test_a_rubber_table_shows_its_deal_vulnerability_and_bar() -> None:
    snap = {"game": "contract-bridge", "phase": "auction", "deal": 4, "dealer": "E",
            "score": {"vulnerable": {"NS": True, "EW": False}},
            "bridge": {"dealer": "E", "calls": [["E", "1S"], ["S", "pass"]], "turn": "W", "contract": None,
                       "bars": [["N", "rest"]], "waiting": None}}
    lines = game_lines(snap)
    assert lines[0] == "Deal 4   Dealer East   Vulnerable: North-South"
    assert lines[1:] == ["  West     North    East     South", "                    1S       Pass",
                         "  ?", "Bar: North must pass for the rest of the auction."]
    assert status_line(snap) == "The auction: West to call."


def test_a_table_that_does_not_see_the_game_still_waits_for_its_result() -> None:
    snap = {"game": "contract-bridge", "phase": "play", "deal": 2, "dealer": "N", "bridge": None}
    assert status_line(snap) == "the hand is being played; waiting for its result"
    assert game_lines(snap) == ["Deal 2   Dealer North   Vulnerable: none"]


def test_the_grid_starts_on_the_dealers_column() -> None:
    rows = auction_grid({"dealer": "W", "calls": [["W", "pass"], ["N", "1C"]], "turn": "E"})
    assert rows[1] == "  Pass     1C       ?"
    assert auction_grid({"dealer": "S", "calls": [], "turn": "S"})[1] == "                             ?"


def test_only_a_log_stream_on_a_terminal_is_muted_under_the_panel() -> None:
    import io
    import logging

    from firmware_host.devices.display import _on_a_terminal

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    assert _on_a_terminal(logging.StreamHandler(Tty()))             # it would tear through the screen
    assert not _on_a_terminal(logging.StreamHandler(io.StringIO()))  # the journal, a file, a pipe: kept
    closed = io.StringIO()
    closed.close()
    assert not _on_a_terminal(logging.StreamHandler(closed))


def test_before_the_first_call_the_dealer_is_to_call() -> None:
    """Audit 65 F4: a duplicate table before its board's first call (phase auction, no ``bridge`` yet)
    said "the deal is out; waiting for the hand's result (the director's dashboard)", though it records
    the auction. A euchre table's auction is not ours to name."""
    snap = {"game": "duplicate-bridge", "phase": "auction", "deal": 1, "dealer": "N", "bridge": None,
            "duplicate": {"board": 1, "dealer": "N", "vulnerable": "None", "table": 1, "round": 1}}
    assert status_line(snap) == "The auction: North to call."
    assert status_line({**snap, "game": "contract-bridge", "dealer": "W"}) == "The auction: West to call."
    assert "waiting" in status_line({**snap, "game": "euchre", "duplicate": None})


@pytest.mark.parametrize("status, said", [("pending", "A claim waits for the other side's answer."),
                                          ("disputed", "A claim is disputed: the director rules.")])
def test_a_claim_that_stopped_play_is_said(status: str, said: str) -> None:
    """Audit 65 F5: a claim stops play (``to_play`` null), and the claim's sentences sat behind
    ``to_play``: the page said "the hand is being played; waiting for its result"."""
    snap = {"game": "duplicate-bridge", "phase": "play", "deal": 1, "dealer": "N",
            "bridge": {"dealer": "N", "calls": [["N", "1NT"], ["E", "pass"], ["S", "pass"], ["W", "pass"]],
                       "turn": None, "contract": "1NT", "declarer": "N", "trick": 3, "to_play": None,
                       "tricks": {"NS": 1, "EW": 1}, "tricks_left": 11, "waiting": None, "result": None,
                       "claim": {"seat": "N", "tricks": 11, "remaining": 11, "status": status}}}
    assert status_line(snap) == said


def test_the_sides_that_confirmed_are_named() -> None:
    """Audit 65 F6: ``duplicate.confirmed`` holds sides (``["ns"]``, docs/mqtt.md) and was read as seats:
    "(confirmed: -)"."""
    snap = {"game": "duplicate-bridge", "phase": "scoring", "deal": 1, "dealer": "N",
            "bridge": {"dealer": "N", "calls": [], "contract": "3NT", "declarer": "N", "tricks": {"NS": 9, "EW": 4},
                       "result": {"contract": "3NT", "declarer": "N", "tricks": 9}},
            "duplicate": {"board": 1, "stage": "scored", "confirmed": ["ns"], "score": 400}}
    assert "To confirm it, one player of each side presses his seat button (confirmed: North-South)." \
        in game_lines(snap)
