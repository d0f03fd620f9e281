"""A real duplicate table's terminal panel, for ``test_table_screen.py`` to look at in tmux: a duplicate
table (controller, journal, its procedure placing board 1 of round 2) is played to ``STAGE`` by calls
and cards, its status goes to a live ``TerminalDisplay`` on this terminal, a warning is logged, and the
panel stays up until the test has captured it.

Run: ``python -m tests.devices.screen_driver STAGE FOLDER`` (stage: auction, play, result)."""

from __future__ import annotations

import logging
import sys
import time
from pathlib import Path

from firmware_host.devices.display import TerminalDisplay
from firmware_host.table.controller import LawInput
from firmware_host.table.duplicate import TableRound
from laws.cards import Seat, clockwise_from
from laws.events import CallMade, CardPlayed
from tests.table.duptable import records, table


def main(stage: str, folder: Path) -> None:
    logging.basicConfig(level=logging.INFO, handlers=[logging.StreamHandler(sys.stderr)])
    recs = records(2)
    ctl, _, _ = table(folder / "journal", recs, TableRound("A", 3, 2, "1", "11", (1, 2)))
    board = recs[1]
    dealer = board.dealer
    calls = ["1NT", "pass", "3NT", "pass", "pass"] + ([] if stage == "auction" else ["pass"])
    for i, call in enumerate(calls):
        ctl.process(LawInput(CallMade(clockwise_from(dealer)[i % 4], call), "camera"))
    if stage in ("play", "result"):
        held = {s: sorted(board.deal.hand(s)) for s in Seat}
        leader = dealer.left
        for n in range(13 if stage == "result" else 1):
            trick: list[tuple[Seat, object]] = []
            for seat in clockwise_from(leader):
                led = trick[0][1].suit if trick else None  # type: ignore[attr-defined]
                card = next((c for c in held[seat] if c.suit == led), held[seat][0])
                held[seat].remove(card)
                ctl.process(LawInput(CardPlayed(seat, card), "camera"))
                trick.append((seat, card))
                if stage == "play" and n == 0 and len(trick) == 2:
                    break
            if stage == "play":
                break
            play = ctl.engine.state.deal.bridge.play  # type: ignore[union-attr]
            leader = play.to_play or leader
    display = TerminalDisplay(title="cardtable — table 3", log_path=str(folder / "cardtable.log"))
    display.status(ctl.snapshot())
    logging.getLogger("cardtable.test").warning("THIS WARNING BELONGS IN THE LOG")
    display.status(ctl.snapshot())
    (folder / "shown").write_text("ok")
    time.sleep(60)
    display.close()


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
