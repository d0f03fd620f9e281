"""Which code governs (docs/laws.md, "which code governs"; docs/laws.md): a duplicate table follows and cites
the 2017 *Laws of Duplicate Bridge*, a rubber table the rubber code. Each scenario goes through
``LawEngine.feed`` with the events a table sends; the expected rulings are written from the laws, not read
back from the engine."""

from __future__ import annotations

import random

import pytest

from laws.cards import SEATS, Seat, full_pack
from laws.duplicate.deal import Board, Deal
from laws.engine import LawEngine
from laws.events import BoardPlaced, CallMade, CardDealt, DealEnded, DealStarted, PlayerBarred
from laws.rulings import Remedy, Ruling
from tests.laws.bridge_table import calls, feed, table

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W


def duplicate_table(number: int = 1, seed: int | None = None, shoe: bool = False) -> LawEngine:
    """A duplicate table with board ``number`` (board 1: North deals) placed, its deal shuffled from
    ``seed`` (default: the number): the auction begins. With ``shoe`` the table's shoe deals the board
    from its record (every card to its record's seat), so the table knows every hand."""
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(number if seed is None else seed).shuffle(seats)
    board = Board.numbered(number, Deal(tuple(seats)))
    eng = LawEngine("duplicate-bridge")
    feed(eng, BoardPlaced(board.number, board.fingerprint, board.deal.pbn(), how="shoe" if shoe else "board",
                          section="A", table=1, round=1, ns="1", ew="2"))
    if shoe:
        assert feed(eng, DealStarted(board.dealer, "A1"),
                    *(CardDealt(board.deal.holder(c), c, False, "A1") for c in full_pack()), DealEnded()) == []
    return eng


def laws_cited(rulings: list[Ruling]) -> list[str]:
    return [r.law for r in rulings]


def test_a_rubber_tables_contract_cites_the_rubber_code() -> None:
    [r] = feed(table(), *calls(N, "1S pass pass pass"))
    assert (r.remedy, r.clause, r.law) == (Remedy.CONTRACT, "BP-22", "Rubber Bridge, law 22")


def test_a_duplicate_tables_contract_cites_the_duplicate_code() -> None:
    [r] = feed(duplicate_table(), *calls(N, "1S pass pass pass"))
    assert (r.remedy, r.clause, r.law) == (Remedy.CONTRACT, "BP-22", "Duplicate Bridge, law 22")


def test_no_ruling_at_a_rubber_table_cites_the_duplicate_code() -> None:
    eng = table()
    out = feed(eng, CallMade(S, "1S"), CallMade(N, "1H"), *calls(E, "pass 1S pass pass"), CallMade(N, "2S"))
    assert out and not [law for law in laws_cited(out) if "Duplicate" in law], laws_cited(out)


def test_duplicate_table_bid_at_partners_turn_follows_law_31B() -> None:
    """South opens at North's turn (board 1, North deals) and West does not accept (North calls): the
    bid is cancelled and nobody is barred (2017 law 31B: the partner calls as he likes). South then makes
    another call: the director judges whether it is comparable, and if not enters a one-turn bar on North."""
    eng = duplicate_table()
    [r] = feed(eng, CallMade(S, "1S"))
    assert (r.clause, r.law, r.extra["options"]) == ("BP-28-32", "Duplicate Bridge, law 31",
                                                     ["accept", "comparable", "other"])
    [cancel] = feed(eng, CallMade(N, "1H"))       # North calls freely at his turn: South's bid is cancelled
    assert (cancel.remedy, cancel.law) == (Remedy.DEAL_STANDS, "Duplicate Bridge, law 31")
    assert "bars" not in cancel.extra and eng.state.deal.bridge.auction.bars == {}  # type: ignore[union-attr]
    assert feed(eng, CallMade(E, "pass")) == []
    [judge] = feed(eng, CallMade(S, "2NT"))      # South's call in turn: comparable or not is the director's
    assert (judge.remedy, judge.clause, judge.extra["bars"]) == (Remedy.ATTENTION, "BP-28-32", [["N", 1]])
    [bar] = feed(eng, CallMade(W, "pass"), PlayerBarred(N, 1))
    assert (bar.remedy, bar.extra["bars"]) == (Remedy.PENALTY, [["N", 1]])
    assert feed(eng, CallMade(N, "pass"), CallMade(E, "3C"), CallMade(S, "3NT"), CallMade(W, "pass")) == []
    assert eng.state.deal.bridge.auction.bars == {}  # type: ignore[union-attr]
    assert feed(eng, CallMade(N, "4NT")) == []    # North's bar was one turn: he bids freely again


def test_rubber_table_bid_at_partners_turn_keeps_the_rubber_bar() -> None:
    eng = table()
    [r] = feed(eng, CallMade(S, "1S"))
    assert (r.law, r.extra["options"]) == ("Rubber Bridge, law 31", ["accept", "partner_rest"])
    [cancel] = feed(eng, CallMade(N, "pass"))
    assert (cancel.remedy, cancel.extra["bars"]) == (Remedy.PENALTY, [["N", "rest"]])


def test_the_cancelled_calls_reason_names_who_could_have_accepted() -> None:
    """South bids at North's turn; only West (South's left-hand opponent) could accept it. North calls
    at his turn: the reason must say that North called before West accepted, not that North declined."""
    [_, cancel] = feed(duplicate_table(), CallMade(S, "1S"), CallMade(N, "1H"))
    assert "North called before West accepted South's one spade" in cancel.reason, cancel.reason
    assert "instead of accepting" not in cancel.reason


def test_a_board_the_shoe_deals_takes_its_cards_in_any_order_but_only_its_dealer() -> None:
    """docs/events.md, "How the cards arrive": the card_dealt order is the shoe's reading order (any),
    each checked for its seat; the deal_start names the board's dealer (DB-2), another is refused."""
    seats = [SEATS[k % 4] for k in range(52)]
    random.Random(1).shuffle(seats)
    board = Board.numbered(1, Deal(tuple(seats)))
    pack = list(full_pack())
    random.Random(5).shuffle(pack)
    for dealer, order in ((N, pack), (N, sorted(pack, key=lambda c: c.code))):
        eng = LawEngine("duplicate-bridge")
        feed(eng, BoardPlaced(1, board.fingerprint, board.deal.pbn(), how="shoe", section="A", table=1, round=1,
                              ns="1", ew="2"))
        assert feed(eng, DealStarted(dealer, "A1"), *(CardDealt(board.deal.holder(c), c, False, "A1") for c in order),
                    DealEnded()) == []
        assert eng.state.phase.value == "auction" and eng.state.deal.bridge.known is not None  # type: ignore[union-attr]
    eng = LawEngine("duplicate-bridge")
    feed(eng, BoardPlaced(1, board.fingerprint, board.deal.pbn(), how="shoe", section="A", table=1, round=1,
                          ns="1", ew="2"))
    with pytest.raises(ValueError, match="dealt by North .* not East"):
        eng.feed(DealStarted(E, "A1"))
    assert eng.state.deal is None or eng.state.deal.dealer is not E
