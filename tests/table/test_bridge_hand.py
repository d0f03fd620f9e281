"""A bridge hand as it is played, through the controller with a real journal: from the first call to the
score with nothing typed; bad input noted and nothing lost; a restart mid-auction and mid-play (and a
kill -9 mid-play) ends with the same score as a table that never stopped.

The scenario ``tests/data/bridge-hand.jsonl`` is the PBN 2.1 example deal, North dealing: West's
insufficient 1D accepted by North, South in four hearts, East's revoke in trick 1 corrected (his club a
penalty card), nine tricks played and South's claim of three of the last four agreed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.table.controller import LawInput, TableController
from laws.cards import Card, Seat
from laws.engine import LawEngine
from laws.events import CardPlayed, Event, HandSpread, TricksClaimed, event_from_dict
from tests.table.test_controller import Clock

ROOT = Path(__file__).resolve().parent.parent.parent
SCENARIO = ROOT / "tests" / "data" / "bridge-hand.jsonl"


def _events() -> list[Event]:
    lines = [json.loads(x) for x in SCENARIO.read_text().splitlines() if x.strip()]
    return [event_from_dict(o) for o in lines[1:]]


def _controller(path: Path) -> tuple[TableController, Journal]:
    j = Journal.open(path)
    return TableController(game="contract-bridge", journal=j, panel=None, clock=Clock()), j



def _scored(ctl: TableController) -> Any:
    d = ctl.engine.state.deal
    return d.bridge.scored if d is not None and d.bridge is not None else None


def _uninterrupted() -> tuple[Any, dict[str, Any]]:
    eng = LawEngine("contract-bridge")
    for e in _events():
        eng.feed(e)
    return eng.state.deal.bridge.scored, eng.state.game_state["score"].snapshot()  # type: ignore[union-attr]


def test_a_whole_hand_from_the_first_call_to_the_score(tmp_path: Path) -> None:
    ctl, j = _controller(tmp_path)
    rulings = []
    for e in _events():
        rulings += ctl.process(LawInput(e, "camera" if e.TYPE == "card_played" else "director"))
    said = [(r.remedy.value, r.clause) for r in rulings]
    assert said[:3] == [("formation", "CB-draw"), ("attention", "BP-27"), ("deal_stands", "BP-27")]
    assert ("contract", "BP-22") in said and ("attention", "BP-61") in said and ("penalty", "BP-62") in said
    assert said[-2:] == [("deal_stands", "BP-68-71"), ("score", "CB-rubber")]
    assert _scored(ctl) == _uninterrupted()[0]
    snap = ctl.snapshot()
    assert snap["phase"] == "scoring" and snap["bridge"]["contract"] == "4H"
    assert snap["bridge"]["calls"][:4] == [["N", "1D"], ["E", "pass"], ["S", "1H"], ["W", "1D"]]
    assert snap["score"]["hands"] == 1
    j.close()


def _at_the_opening_lead(tmp_path: Path) -> tuple[TableController, Journal, list[Event], int, list[str]]:
    """A table whose auction is over, the opening lead to come; its events, the first card's index, and
    the notes it shows from now on."""
    ctl, j = _controller(tmp_path)
    events = _events()
    first_card = next(i for i, e in enumerate(events) if e.TYPE == "card_played")
    for e in events[:first_card]:
        ctl.process(LawInput(e, "director"))
    notes: list[str] = []
    ctl.out.note = notes.append  # type: ignore[method-assign]
    return ctl, j, events, first_card, notes


def test_bad_input_is_noted_and_nothing_is_lost(tmp_path: Path) -> None:
    ctl, j, events, first_card, notes = _at_the_opening_lead(tmp_path)
    before = ctl.seq
    assert ctl.process(LawInput(CardPlayed(Seat.W, Card.parse("JS")), "camera")) == []   # South's card
    assert ctl.process(LawInput(TricksClaimed(Seat.S, 14), "director")) == []
    assert len(notes) == 2 and "West does not hold" in notes[0] and "only 13 remain" in notes[1]
    bodies = [b for b in j.events()][-2:]
    assert [b["type"] for b in bodies] == ["card_played", "claim"]   # journaled, not applied
    assert ctl.seq > before
    for e in events[first_card:]:
        ctl.process(LawInput(e, "camera"))
    assert _scored(ctl) == _uninterrupted()[0]
    j.close()
    again, j2 = _controller(tmp_path)   # the refused rows replay as refused: the same state
    assert _scored(again) == _uninterrupted()[0]
    j2.close()


def test_a_spread_before_the_opening_lead_is_noted_refused_not_ignored(tmp_path: Path) -> None:
    """docs/events.md: a ``spread`` with no defender's opening lead out of turn waiting is refused, as the
    other bad bridge entries are ("not applied"), in every phase; before the opening lead the table used to
    journal it ``ignored`` as out of its phase."""
    ctl, j, _events_, _first, notes = _at_the_opening_lead(tmp_path)
    assert ctl.process(LawInput(HandSpread(Seat.S), "director")) == []
    assert len(notes) == 1 and "spread from director not applied" in notes[0], notes
    assert "opening lead out of turn" in notes[0] and ctl.engine.ignored == 0
    assert [b["type"] for b in j.events()][-1] == "spread"          # journaled
    j.close()


def test_restart_mid_auction_and_mid_play(tmp_path: Path) -> None:
    events = _events()
    calls = [i for i, e in enumerate(events) if e.TYPE == "call"]
    cards = [i for i, e in enumerate(events) if e.TYPE == "card_played"]
    stops = [calls[3] + 1, cards[17] + 1, len(events)]
    done = 0
    for stop in stops:
        ctl, j = _controller(tmp_path)
        for e in events[done:stop]:
            ctl.process(LawInput(e, "script"))
        done = stop
        if stop == stops[0]:
            assert ctl.engine.state.deal.bridge.pending is not None  # type: ignore[union-attr]
        j.close()
    ctl, j = _controller(tmp_path)
    scored, score = _uninterrupted()
    assert _scored(ctl) == scored and ctl.engine.state.game_state["score"].snapshot() == score
    j.close()


def test_kill_minus_nine_mid_play_ends_with_the_same_score(tmp_path: Path) -> None:
    lines = SCENARIO.read_text().splitlines()
    kill_after = next(i for i, x in enumerate(lines) if '"card_played"' in x) + 20
    proc = subprocess.Popen([sys.executable, "-m", "tests.table.controller_worker", str(tmp_path),
                             str(SCENARIO), "1"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.startswith("done") and int(line.split()[1]) >= kill_after:
            os.kill(proc.pid, signal.SIGKILL)
            break
    proc.wait(timeout=30)
    proc.stdout.close()
    with Journal.open(tmp_path) as j:
        start = len([b for b in j.events() if b["type"] != "game"]) + 1
    assert start > kill_after
    subprocess.run([sys.executable, "-m", "tests.table.controller_worker", str(tmp_path), str(SCENARIO),
                    str(start)], cwd=ROOT, check=True, capture_output=True, timeout=60)
    ctl, j = _controller(tmp_path)
    scored, score = _uninterrupted()
    assert _scored(ctl) == scored and ctl.engine.state.game_state["score"].snapshot() == score
    assert j.verify().ok
    j.close()
