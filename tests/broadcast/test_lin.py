"""LIN records of a session's boards, read back by endplay's LIN parser and compared with the journals
and the session's own PBN (docs/broadcast.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_host.broadcast.archive import table_boards
from laws.broadcast.feed import BoardPlay
from laws.broadcast.lin import LinError, lin_call, lin_card, lin_hand, lin_record
from laws.cards import Seat

endplay_lin = pytest.importorskip("endplay.parsers.lin")


def _seat(player: object) -> str:
    return str(player.name)[0].upper()  # type: ignore[attr-defined]


def test_every_board_reads_back_in_endplay_as_the_table_played_it(journals: list[Path]) -> None:
    boards = table_boards(journals)
    assert boards and sum(len(p) for p in boards.values()) == 9
    for number, plays in boards.items():
        for b in plays:
            parsed = endplay_lin.loads(lin_record(b))
            assert len(parsed) == 1
            got = parsed[0]
            assert got.board_num == number
            assert _seat(got.dealer) == b.dealer.value
            # the deal, hand by hand, in PBN as our board event gave it
            assert got.deal.to_pbn().split(":", 1)[1].split() == [b.hands[s] for s in (Seat.N, Seat.E, Seat.S, Seat.W)]
            calls = [str(c) for c in got.auction]
            assert len(calls) == len(b.auction or [])
            assert [str(c) for c in got.play] and len(got.play) == len(b.cards) or b.contract == "Pass"
            ours = [c[1] + c[0] for _s, c in b.cards]
            theirs = [f"{str(c)[0]}{str(c)[1:]}".replace("10", "T") for c in got.play]
            suits = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
            theirs = [suits.get(t[0], t[0]) + t[1:] for t in theirs]
            assert theirs == ours
            if b.contract and b.contract != "Pass":
                assert got.contract is not None and _seat(got.contract.declarer) == b.declarer.value  # type: ignore[union-attr]
                assert got.contract.level == int(b.contract[0])


def test_lin_matches_the_sessions_pbn(session_dir: Path, journals: list[Path]) -> None:
    """Round trip against our PBN of the same boards (read by endplay's PBN parser): the deal of each
    board is the same, and each table's LIN contract is one of that board's traveller contracts."""
    endplay_pbn = pytest.importorskip("endplay.parsers.pbn")
    pbn_boards = {b.board_num: b for b in endplay_pbn.loads((session_dir / "results.pbn").read_text(encoding="utf-8"))}
    for number, plays in table_boards(journals).items():
        theirs = pbn_boards[number]
        for b in plays:
            got = endplay_lin.loads(lin_record(b))[0]
            assert got.deal.to_pbn() == theirs.deal.to_pbn()
            if b.contract == "Pass":
                assert got.contract is None or got.contract.is_passout()
            else:
                assert got.contract.level == int(b.contract[0])  # type: ignore[union-attr]
                assert got.contract.denom.name[0].upper() == b.contract[1]  # type: ignore[union-attr]


def test_a_claim_gives_declarers_total() -> None:
    b = BoardPlay(1, 1, Seat.N, "None", {Seat.N: "AKQJ.AKQ.AKQ.AKQ", Seat.E: "T987.JT9.JT9.JT9",
                                        Seat.S: "654.8765.876.876", Seat.W: "32.432.5432.5432"})
    b.auction, b.contract, b.declarer = ["7N", "pass", "pass", "pass"], "7N", Seat.N
    b.cards = [(Seat.E, "TS"), (Seat.S, "4S"), (Seat.W, "2S"), (Seat.N, "AS")]
    b.claim, b.claim_tricks = (Seat.N, 12), 12
    rec = lin_record(b)
    assert rec.endswith("mc|13|") and "md|3S654H8765D876C876,S32H432D5432C5432,SAKQJHAKQDAKQCAKQ,ST987" in rec
    b.claim, b.claim_tricks = (Seat.E, 1), 1     # a defender claims one of the twelve left
    assert lin_record(b).endswith("mc|12|")


@pytest.mark.parametrize("bad, call", [("8S", lin_call), ("XS", lin_card), ("A.K.Q", lin_hand)])
def test_what_has_no_lin_form_is_refused(bad: str, call: object) -> None:
    with pytest.raises(LinError):
        call(bad)  # type: ignore[operator]


def test_names_cannot_break_the_record() -> None:
    b = BoardPlay(1, 2, Seat.E, "NS", {Seat.N: "AKQJ.AKQ.AKQ.AKQ", Seat.E: "T987.JT9.JT9.JT9",
                                       Seat.S: "654.8765.876.876", Seat.W: "32.432.5432.5432"})
    rec = lin_record(b, {Seat.S: "Ann|md|1", Seat.W: "Bo,b", Seat.N: "Cy", Seat.E: "Di"})
    assert rec.startswith("pn|Annmd1,Bob,Cy,Di|qx|o2|md|4") and "sv|n|" in rec
