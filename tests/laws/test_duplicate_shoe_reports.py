"""What a board's shoe reports, checked by the table as hardware/shoe/PROTOCOL.md 7.2 says a host must: a
report that does not add up (a board ended short naming cards the table saw placed or leaving out cards it
never saw, a card placed twice or with no code, a card of another pack than the pockets') leaves the
pockets unknown, so the board is remade from its record (``DB-6``), never finished from them or played."""

from __future__ import annotations

from laws.cards import full_pack
from laws.duplicate.deal import Board
from laws.engine import LawEngine
from laws.events import BoardShort, CardDealt, DealEnded, DealStarted
from laws.rulings import Remedy, Ruling
from tests.laws.test_duplicate_engine import _deal, placed

PACK = full_pack()


def _dealing(n: int = 30, pack: str = "A1") -> tuple[LawEngine, Board]:
    board = Board.numbered(5, _deal(21))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board, how="shoe"))
    eng.feed(DealStarted(board.dealer, pack))
    for card in PACK[:n]:
        assert eng.feed(CardDealt(board.deal.holder(card), card, False, pack)) == []
    return eng, board


def _remade(rulings: list[Ruling], eng: LawEngine, board: Board) -> Ruling:
    (r,) = rulings
    assert (r.clause, r.remedy, r.dealer) == ("DB-6", Remedy.REDEAL, board.dealer)
    assert eng.state.deal is not None and eng.state.deal.void
    assert "which cards are in its pockets is not known" in r.reason and "dealt again" in r.reason
    return r


def test_a_board_short_naming_a_card_the_table_saw_placed_leaves_the_pockets_unknown() -> None:
    eng, board = _dealing()
    named = (PACK[3], *PACK[30:])                  # the shoe names a card the table saw it place
    r = _remade(eng.feed(BoardShort(named)), eng, board)
    assert f"the shoe named the {PACK[3].name} missing, which the table saw placed" in r.reason
    assert r.extra["missing"] == [c.code for c in named] and r.extra["board"] == 5


def test_a_board_short_leaving_out_cards_the_table_never_saw_leaves_the_pockets_unknown() -> None:
    eng, board = _dealing()
    r = _remade(eng.feed(BoardShort(tuple(PACK[31:]))), eng, board)
    assert f"it did not name the {PACK[30].name}, which the table never saw placed" in r.reason


def test_a_board_short_naming_exactly_the_cards_not_seen_is_still_found_and_finished() -> None:
    eng, board = _dealing()
    (r,) = eng.feed(BoardShort(tuple(PACK[30:])))
    assert (r.clause, r.remedy) == ("DB-14", Remedy.ATTENTION) and not eng.state.deal.void  # type: ignore[union-attr]


def test_a_card_placed_twice_leaves_the_pockets_unknown_and_never_passes_for_the_52nd() -> None:
    """A shoe that reports a card placed again (51 cards and a repeat make 52 reports) must not have its
    board taken as whole: one card is in no pocket, or a pocket holds two of one card."""
    eng, board = _dealing(n=51)
    again = PACK[7]
    r = _remade(eng.feed(CardDealt(board.deal.holder(again), again, False, "A1")), eng, board)
    assert f"the {again.name} in" in r.reason and "a second time" in r.reason
    assert r.extra["card"] == again.code and r.extra["pocket"] == board.deal.holder(again).value
    assert eng.feed(DealEnded()) == [] and eng.state.phase.value != "auction"


def test_a_card_placed_with_no_code_leaves_the_pockets_unknown() -> None:
    eng, board = _dealing(n=10)
    r = _remade(eng.feed(CardDealt(board.dealer, None, False, "A1")), eng, board)
    assert "a card with no code read in" in r.reason and r.extra["card"] is None


def test_a_card_of_another_pack_than_the_pockets_leaves_the_pockets_unknown() -> None:
    """The shoe rejects a card of another pack (PROTOCOL.md 7.1, reason 2); one it reports placed anyway
    puts a card of another back in the board, and the board is not taken as dealt."""
    eng, board = _dealing(n=20)
    stray = PACK[20]
    r = _remade(eng.feed(CardDealt(board.deal.holder(stray), stray, False, "Z9")), eng, board)
    assert f"the {stray.name} of pack Z9" in r.reason and "of pack A1" in r.reason
    assert (r.extra["pack"], r.extra["pockets_pack"]) == ("Z9", "A1")


def test_cards_whose_code_names_no_pack_are_not_compared() -> None:
    eng, board = _dealing(n=20)
    assert eng.feed(CardDealt(board.deal.holder(PACK[20]), PACK[20], False, None)) == []


def test_the_cards_found_for_a_short_board_may_be_of_another_pack() -> None:
    """Law 14A: a missing card may be replaced from another pack; the finish is an attempt of its own."""
    eng, board = _dealing(n=50)
    (r,) = eng.feed(BoardShort(tuple(PACK[50:])))
    assert r.clause == "DB-14"
    for card in PACK[50:]:
        assert eng.feed(CardDealt(board.deal.holder(card), card, False, "B7")) == []
    assert eng.feed(DealEnded()) == [] and eng.state.phase.value == "auction"


def test_a_damaged_card_at_a_duplicate_table_is_journaled_not_ruled() -> None:
    """docs/events.md: no DB- clause covers it, and the rubber table's new pack is not a board's."""
    from laws.events import DamagedCardFound

    board = Board.numbered(5, _deal(21))
    eng = LawEngine("duplicate-bridge")
    eng.feed(placed(board))
    assert eng.feed(DamagedCardFound(PACK[0], "A1", True)) == []
    assert eng.feed(DamagedCardFound(None, "A1", False)) == []


def test_a_whole_board_with_a_card_left_in_the_shoe_stands_and_calls_the_director() -> None:
    """BOARD_FINISHED whole with ``left_in_shoe`` 1: the 52 cards are in their pockets as the record gives
    them, and the well still holds one. Law 13: a card not of the deal is removed; the board is right, so
    it stands (no remaking, ``DB-6``), and the director is called to the pack that held a card too many.
    Before, the table went straight to the auction and said nothing of it."""
    eng, board = _dealing(n=52)
    (r,) = eng.feed(DealEnded(left_in_shoe=True))
    assert (r.clause, r.remedy, r.law) == ("DB-13", Remedy.ATTENTION, "Duplicate Bridge, law 13")
    assert r.extra["board"] == 5 and r.extra["left_in_shoe"] is True
    assert "left in the shoe" in r.reason and "take it out of the shoe and look at it" in r.reason, r.reason
    assert eng.state.deal is not None and not eng.state.deal.void
    assert eng.state.phase.name == "AUCTION"


def test_a_whole_board_with_the_well_empty_is_no_ruling() -> None:
    eng, board = _dealing(n=52)
    assert eng.feed(DealEnded()) == []


def test_the_rest_of_the_pack_a_short_board_was_finished_from_is_no_surplus() -> None:
    """A board ended short is finished from a pack put in the well (law 14A): once its missing cards are
    placed, the rest of that pack is still there (BOARD_FINISHED ``left_in_shoe`` 1) as it should be; no
    card too many, no ruling."""
    eng, board = _dealing(n=51)
    (r,) = eng.feed(BoardShort(tuple(PACK[51:])))
    assert r.clause == "DB-14"
    assert eng.feed(CardDealt(board.deal.holder(PACK[51]), PACK[51], False, "B7")) == []
    assert eng.feed(DealEnded(left_in_shoe=True)) == [] and eng.state.phase.value == "auction"
