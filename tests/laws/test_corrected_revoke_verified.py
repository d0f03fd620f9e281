"""A duplicate board whose revoke was corrected is still checked card by card (docs/laws.md DB-7, BP-62): the
card a ``correct`` entry puts in the trick is a card played from that seat, so it is checked against the
board's record like any other, and a board whose 52 cards were all played from their record's seats is
verified. (The check said "51 cards were seen, 1 not played; it is not verified card by card".)"""

from __future__ import annotations

import random

from laws.cards import Seat
from laws.events import CardPlayed, RevokeCorrected
from laws.games.duplicate_board import board_of
from laws.rulings import Remedy, Ruling
from tests.laws.bridge_table import calls, feed, play_out
from tests.laws.test_code_governs import duplicate_table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def _revoke_then_correct(seed: int) -> list[Ruling]:
    """Board 1 (North deals; the table's shoe dealt it, so every hand is known) in 3NT by North; East leads a suit West holds; South (dummy) follows; West
    discards another suit (a revoke) and corrects it with a card of the suit led; the rest is played out
    with legal cards."""
    eng = duplicate_table(1, seed, shoe=True)
    board = board_of(eng.state)
    assert board is not None
    deal = board.record.deal
    hands = {s: sorted(deal.hand(s)) for s in Seat}
    out = feed(eng, *calls(N, "3NT pass pass pass"))
    suit = next(c.suit for c in hands[E] if any(x.suit == c.suit for x in hands[W])
                and any(x.suit != c.suit for x in hands[W]) and any(x.suit == c.suit for x in hands[S]))
    lead = next(c for c in hands[E] if c.suit == suit)
    follow = next(c for c in hands[S] if c.suit == suit)
    revoke = next(c for c in hands[W] if c.suit != suit)
    right = next(c for c in hands[W] if c.suit == suit)
    out += feed(eng, CardPlayed(E, lead), CardPlayed(S, follow), CardPlayed(W, revoke))
    out += feed(eng, RevokeCorrected(W, right))
    last = next((c for c in hands[N] if c.suit == suit), hands[N][0])
    out += feed(eng, CardPlayed(N, last))
    return out + play_out(eng, hands, random.Random(seed), tricks=12)   # it leaves out the cards played


def test_a_board_whose_revoke_was_corrected_is_verified() -> None:
    out = _revoke_then_correct(3)
    assert [r.clause for r in out if r.clause in ("BP-61", "BP-62")] == ["BP-61", "BP-62"]
    [checked] = [r for r in out if r.clause == "DB-7"]
    assert checked.remedy is Remedy.CHECKED
    assert (checked.extra["verified"], checked.extra["seen"]) == (True, 52), checked.reason
    assert "verified" in checked.reason and "not verified" not in checked.reason
