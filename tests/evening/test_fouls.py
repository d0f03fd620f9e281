"""The check of the fouls the tables found (``firmware_host.evening.fouls``): nothing to say when each board
played with a card against its record was ruled at its first such card, and a problem named for each way
the tables could get it wrong, fed here on purpose: a foul not ruled, a false alarm, the wrong card, the
wrong trick, a ruling twice, a ruling where no board was played."""

from __future__ import annotations

import random
from dataclasses import replace

from firmware_host.evening.boards import moved, swapped
from firmware_host.evening.fouls import FoulFound, check_fouls, first_wrong, fouls_in
from firmware_host.players import plan_hand
from laws.cards import SEATS, Card, Seat
from tests.evening.test_boards import records

RECS = records(3, seed=9)
DEALS = {n: b.deal for n, b in RECS.items()}


def _played(deal, dealer: Seat) -> tuple:
    plan = plan_hand(dealer, {s: list(deal.hand(s)) for s in SEATS}, random.Random(1))
    assert plan.plays, "the test's boards are played out"
    return plan.plays


def _evening() -> tuple[dict, list[FoulFound]]:
    """Board 1 played right at table 1; board 2 with E's and S's hands swapped at table 2 in round 3; board
    3 with the AS and 2C in each other's pockets at table 1 in round 2; and the rulings a sound table gives."""
    plays = {(1, 1, 1): _played(DEALS[1], RECS[1].dealer),
             (2, 2, 3): _played(swapped(DEALS[2], Seat.E, Seat.S), RECS[2].dealer),
             (3, 1, 2): _played(moved(DEALS[3], Card.parse("AS"), Card.parse("2C")), RECS[3].dealer)}
    found = []
    for (board, table, rnd), cards in plays.items():
        wrong = first_wrong(DEALS[board], cards)
        if wrong is not None:
            i, seat, card = wrong
            found.append(FoulFound(board, table, rnd, card.code, seat.value, DEALS[board].holder(card).value, i // 4 + 1))
    return plays, found


def test_sound_rulings_check_out_and_a_moved_card_is_caught_at_its_own_play() -> None:
    plays, found = _evening()
    assert [(f.board, f.table, f.round) for f in found] == [(2, 2, 3), (3, 1, 2)]
    assert {found[1].card} <= {"AS", "2C"}                       # only the moved cards are against the record
    assert check_fouls(DEALS, plays, found) == []


def test_each_wrong_finding_is_named() -> None:
    plays, found = _evening()
    swapped_board, moved_board = found
    cases = {
        "no foul was ruled": found[1:],
        "a false alarm": [*found, FoulFound(1, 1, 1, "AS", "N", "S", 1)],
        "but the first card against the record there was": [swapped_board, replace(moved_board, card="KD")],
        "in trick": [replace(swapped_board, trick=swapped_board.trick + 1), moved_board],
        "ruled twice there": [*found, swapped_board],
        "but no board was played there": [*found, FoulFound(1, 3, 4, "AS", "N", "S", 1)],
    }
    for words, given in cases.items():
        problems = check_fouls(DEALS, plays, given)
        assert problems and any(words in p for p in problems), (words, problems)


def test_the_rulings_read_from_a_journal_are_the_first_card_ones_not_the_directors_decision() -> None:
    bodies = [{"clause": "DB-87", "remedy": "attention", "board": 7, "table": 3, "round": 2, "card": "KS",
               "played_by": "N", "record_seat": "E", "trick": 1, "seats": ["N", "E"]},
              {"clause": "DB-87", "remedy": "deal_stands", "board": 7, "table": 3, "round": 2, "card": "KS",
               "played_by": "N", "record_seat": "E", "trick": 1, "decision": "fouled"},
              {"clause": "DB-77", "remedy": "score", "board": 7}]
    (f,) = fouls_in(bodies)
    assert f == FoulFound(7, 3, 2, "KS", "N", "E", 1)
    assert f.words() == "board 7: found at table 3, round 2, trick 1: the KS played by N, the record's E"
