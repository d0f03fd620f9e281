"""Bridge scenarios an outside audit wrote from docs/laws.md and docs/events.md (logs in ``tests/laws/logs``,
``bridge_*``), and variants of them built here, each run by ``cardtable replay`` as a tester would: what
the documents say the table rules."""

from __future__ import annotations

from pathlib import Path

from tests.contract.outsider import replay

LOGS = Path(__file__).parent / "logs"


def test_BP_22_a_passed_out_board_names_no_next_dealer_at_a_duplicate_table() -> None:
    """Found by the audit: board 1 passed out said "North deals next" (board 2: "East"), its own dealer;
    the next board's dealer comes from its number, and the next board played need not be the next one."""
    for log in ("bridge_db_passout.jsonl", "bridge_db_passout_b2.jsonl"):
        run = replay((LOGS / log).read_text(encoding="utf-8"))
        [c] = [r for r in run.rulings if r.get("remedy") == "contract"]
        assert c["passed_out"] is True and "dealer" not in c, c
        assert "deals next" not in c["reason"] and "the next board's dealer" in c["reason"], c["reason"]
        assert [r["score"] for r in run.rulings if r.get("clause") == "DB-77"] == [0]

def test_BP_22_a_passed_out_deal_at_a_rubber_table_still_names_the_next_dealer() -> None:
    run = replay((LOGS / "bridge_bp_passout.jsonl").read_text(encoding="utf-8"))
    [c] = [r for r in run.rulings if r.get("remedy") == "contract"]
    assert c["dealer"] == "E" and c["reason"].endswith("East deals next."), c
