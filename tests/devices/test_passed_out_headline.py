"""A passed-out deal's headline names who deals next, as a redeal's does: at a rubber table the ruling
carries ``dealer`` (West after North's deal), but the live display, the dashboard and ``replay --format
text`` read only "PASSED OUT" while "REDEAL — West deals" said it (docs/events.md, "Example": ``— West
deals`` follows the headline where a dealer applies). At a duplicate table the next board's number names
its dealer, so the ruling names none and the headline stays bare."""

from __future__ import annotations

from firmware_host.club.words import headline as dashboard_headline
from firmware_host.devices.display_text import ruling_text, title
from laws.cards import Seat
from laws.rulings import Remedy, Ruling
from tests.laws.bridge_table import calls, feed, table


def _passed_out(rulings: list[Ruling]) -> Ruling:
    [r] = [r for r in rulings if r.remedy is Remedy.CONTRACT]
    assert r.extra.get("passed_out")
    return r


def test_a_passed_out_deal_names_the_next_dealer() -> None:
    r = _passed_out(feed(table(), *calls(Seat.N, "pass pass pass pass")))
    assert r.dealer is Seat.E
    assert title(r) == "PASSED OUT — East deals"
    assert ruling_text(r, line=9).startswith("[line 9] PASSED OUT — East deals\n    Rubber Bridge, law 22 [BP-22]: ")
    assert dashboard_headline(r.to_dict()) == "PASSED OUT — East deals"   # one source of words


def test_a_passed_out_board_names_no_dealer() -> None:
    body = {"remedy": "contract", "law": "Duplicate Bridge, law 22", "clause": "BP-22", "reason": "x",
            "passed_out": True, "contract": "Pass"}
    assert dashboard_headline(body) == "PASSED OUT"
