"""A bid above seven (docs/laws.md BP-35-36; the 2017 law 35 names it an inadmissible call, law 38 rectifies
it): no bidding card names one, but a player may say one, so the event format takes it and the director
(at the table or on the dashboard) and a replay can enter it; the laws cancel it and the offending side
must pass for the rest of the auction."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host.club.claims import bridge_calls, check_entry
from firmware_host.devices.display_text import waiting_words
from firmware_host.table.choices import director_entry
from laws.cards import SEATS, Seat
from laws.duplicate.deal import Board, Deal
from laws.events import BoardPlaced, CallMade, EventFormatError, event_from_dict, event_to_dict
from laws.rulings import Remedy
from tests.laws.bridge_table import feed, table
from tests.laws.test_code_governs import duplicate_table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def test_the_event_format_takes_a_bid_above_seven() -> None:
    assert event_from_dict({"type": "call", "seat": "E", "call": "8s"}).call == "8S"  # type: ignore[attr-defined]
    assert event_from_dict({"type": "call", "seat": "E", "call": "9n"}).call == "9NT"  # type: ignore[attr-defined]
    assert event_from_dict({"type": "call", "seat": "E", "call": "12C"}).call == "12C"  # type: ignore[attr-defined]
    for bad in ("0S", "100S", "8Z"):
        with pytest.raises(EventFormatError, match="'call'"):
            event_from_dict({"type": "call", "seat": "E", "call": bad})


@pytest.mark.parametrize("game", ["duplicate", "rubber"])
def test_a_bid_above_seven_is_cancelled_and_the_side_passes_for_the_rest(game: str) -> None:
    eng = duplicate_table() if game == "duplicate" else table()
    code = "Duplicate Bridge" if game == "duplicate" else "Rubber Bridge"
    assert feed(eng, CallMade(N, "1S")) == []
    [r] = feed(eng, CallMade(E, "8H"))
    assert (r.remedy, r.clause, r.law) == (Remedy.PENALTY, "BP-35-36", f"{code}, law 38")
    assert r.extra["detail"] == "above_seven" and r.extra["call"] == "8H"
    assert sorted(map(tuple, r.extra["bars"])) == [("E", "rest"), ("W", "rest")]
    assert "East bid eight hearts" in r.reason and "East-West must pass for the rest of the auction" in r.reason
    a = eng.state.deal.bridge.auction  # type: ignore[union-attr]
    assert a.turn is E and a.cancelled[-1] == (E, "8H", "BP-35-36") and [c.call.code for c in a.calls] == ["1S"]
    [bad] = feed(eng, CallMade(E, "2H"))               # barred: only a pass
    assert (bad.clause, bad.extra["detail"]) == ("BP-35-36", "must_pass")
    assert feed(eng, CallMade(E, "pass"), CallMade(S, "2S"), CallMade(W, "pass"), CallMade(N, "pass"),
                CallMade(E, "pass"))[-1].extra["contract"] == "2S"


def test_a_bid_above_seven_out_of_turn_says_whose_turn_it_is() -> None:
    eng = duplicate_table()
    [r] = feed(eng, CallMade(S, "8NT"))                # North (the dealer) to call
    assert r.clause == "BP-35-36" and "It is North's turn to call." in r.reason
    assert "South calls again" not in r.reason


def test_a_bid_above_seven_after_the_close_is_cancelled() -> None:
    eng = duplicate_table()
    feed(eng, CallMade(N, "1S"), CallMade(E, "pass"), CallMade(S, "pass"), CallMade(W, "pass"))
    [r] = feed(eng, CallMade(E, "8C"))
    assert (r.clause, r.extra["call"]) == ("BP-39", "8C")


def test_the_director_enters_one_at_the_table_and_on_the_dashboard() -> None:
    for eng in (table(), duplicate_table()):
        e = director_entry(eng.state, "call", {"seat": "E", "call": "8S"})
        assert isinstance(e, CallMade) and e.call == "8S"
        assert check_entry(eng.state.game, "auction", "call", {"seat": "E", "call": "8S"}) == \
            {"seat": "E", "call": "8S"}
    offered = {c["call"]: c["words"] for c in bridge_calls()}
    assert offered["8S"] == "eight spades (above seven)" and offered["7NT"] == "seven notrump"
    assert len(offered) == 38 + 5
    assert waiting_words("inadmissible_call", "E", "8S").startswith("East's eight spades")


def test_a_replay_rules_on_it(tmp_path: Path) -> None:
    board = event_to_dict(_board_event())
    lines = [{"type": "game", "game": "duplicate-bridge"}, board,
             {"type": "call", "seat": "N", "call": "1S"}, {"type": "call", "seat": "E", "call": "8D"}]
    f = tmp_path / "above.jsonl"
    f.write_text("".join(json.dumps(x) + "\n" for x in lines))
    p = subprocess.run([sys.executable, "-m", "firmware_host.cli", "replay", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    rulings = [json.loads(line) for line in p.stdout.splitlines()]
    assert [(r["clause"], r["remedy"]) for r in rulings][-1] == ("BP-35-36", "penalty")
    assert rulings[-1]["law"] == "Duplicate Bridge, law 38"


def _board_event() -> BoardPlaced:
    """Board 1 (North deals), as tests/laws/test_code_governs.py places it."""
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(1).shuffle(seats)
    board = Board.numbered(1, Deal(tuple(seats)))
    return BoardPlaced(board.number, board.fingerprint, board.deal.pbn(), how="board", section="A",
                       table=1, round=1, ns="1", ew="2")
