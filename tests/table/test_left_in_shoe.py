"""A rubber bridge deal of all 52 cards that ends with a card still in the shoe's well (DEAL_FINISHED
``left_in_shoe`` 1; the virtual shoe's ``surplus`` fault puts a second copy of a card under the pack): the
pack held 53 cards, so the deal is void and the same dealer deals again (``CB-surplus-deal``), the redeal
lamp lit and the players told to take that card out. Before, the table ignored the flag and the players
bid and played with a card too many in the shoe. The flag is on the journal's ``deal_end`` row, so a
table restarted right after the ruling rebuilds the same void deal from its journal and lights the same
lamp, and no second ruling is made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from firmware_host.records.journal import Journal
from firmware_host.shoe.virtual import VirtualShoe
from laws.state import Phase, TableState
from tests.table.livetable import LiveTable, rulings


def _voided_first_deal(s: TableState) -> bool:
    return s.deals_started == 1 and s.deal is not None and s.deal.void


def _second_deal_bid(s: TableState) -> bool:
    return s.deals_started == 2 and s.phase is Phase.AUCTION


def _rows(data: Path) -> list[tuple[str, dict[str, Any]]]:
    with Journal.open_readonly(data) as j:
        return [(r.kind, r.body) for r in j.rows()]


def _check_the_ruling(data: Path) -> None:
    rows = _rows(data)
    ends = [b for k, b in rows if k == "event" and b["type"] == "deal_end"]
    assert ends[0]["src"] == "shoe" and ends[0]["left_in_shoe"] is True, ends[0]
    (r,) = rulings(data)
    assert (r["remedy"], r["clause"], r["law"], r["deal"]) == ("redeal", "CB-surplus-deal",
                                                               "Contract Bridge, Surplus Card", 1)
    assert "Take the card left in the shoe out and look at it" in r["reason"], r["reason"]
    at = next(i for i, (k, b) in enumerate(rows) if k == "ruling" and b["clause"] == "CB-surplus-deal")
    assert rows[at + 1][0] == "lamp" and rows[at + 1][1]["redeal"] is True
    # the redeal: the same dealer, a sound pack, no ruling; the card left over never reached a seat
    starts = [b for k, b in rows if k == "event" and b["type"] == "deal_start"]
    assert len(starts) == 2 and starts[1]["dealer"] == starts[0]["dealer"] == r["dealer"]
    assert [b.get("left_in_shoe", False) for b in ends[1:]] == [False]


def test_a_card_left_in_the_shoe_after_52_is_a_redeal_with_its_lamp(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=5, inject=["surplus@9"]) as shoe:
        with LiveTable(data, shoe.path) as table:
            table.wait(_voided_first_deal)
            assert table.state.phase is not Phase.AUCTION
            table.wait(_second_deal_bid)
    _check_the_ruling(data)


def test_a_table_restarted_after_the_ruling_keeps_it_and_deals_again(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with VirtualShoe("contract-bridge", seed=6, inject=["surplus@30"]) as shoe:
        with LiveTable(data, shoe.path) as table:
            table.crash_when(_voided_first_deal)
        restored: list[tuple[bool, bool]] = []    # seen before the restarted table takes any input
        with LiveTable(data, shoe.path, before=lambda t: restored.append(
                (_voided_first_deal(t.ctl.engine.state), t.ctl.lamps["redeal"]))) as table:
            table.wait(_second_deal_bid)
    assert restored == [(True, True)]
    _check_the_ruling(data)
