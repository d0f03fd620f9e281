"""Bridge scenarios an outside audit wrote from docs/laws.md and docs/events.md (logs in ``tests/laws/logs``,
``bridge_*``), and variants of them built here, each run by ``cardtable replay`` as a tester would: what
the documents say the table rules.

The deal of the concession logs is the PBN standard's example deal; South plays four hearts after North's
one diamond, South's one heart, North's two clubs; West's king of spades wins trick 1. The hearts then:
North 6 3, East K Q 5, South J 9 8 7 4 2, West A 10."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from laws.duplicate.deal import Deal
from tests.contract.outsider import played, replay, replay_here

LOGS = Path(__file__).parent / "logs"
CONCEDE = LOGS / "bridge_bp71_concede_AH.jsonl"
PBN = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"


def _log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _after_trick_1(game: str = "contract-bridge") -> list[dict[str, Any]]:
    """The audit's log up to the end of trick 1 (its claim and reply left off); at a duplicate table the
    same deal as board 1 (North deals, nobody vulnerable), dealt by the shoe from its record."""
    events = _log(CONCEDE)[:-2]
    if game == "contract-bridge":
        return events
    dealt = [e for e in events if e["type"] == "card_dealt"]
    rest = events[events.index(dealt[-1]) + 2:]          # after deal_end: the auction and trick 1
    board = {"type": "board", "board": 1, "record": Deal.from_pbn(PBN).fingerprint, "deal": PBN, "how": "shoe"}
    return [{"type": "game", "game": "duplicate-bridge"}, board, {"type": "deal_start", "dealer": "N", "pack": "A1"},
            *({**e, "pack": "A1"} for e in dealt), {"type": "deal_end"}, *rest]


def _claim(seat: str, tricks: int, answer: str) -> list[dict[str, Any]]:
    return [{"type": "claim", "seat": seat, "tricks": tricks}, {"type": "claim_reply", "seat": answer, "agree": True}]


def _cancelled(rulings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in rulings if r.get("clause") == "BP-68-71" and r.get("law", "").endswith("law 71")]


def _score(rulings: list[dict[str, Any]]) -> dict[str, Any]:
    [score] = [r for r in rulings if r.get("remedy") == "score" and "tricks" in r and "confirmed" not in r]
    return score


def test_BP_71_the_audit_log_west_concedes_twelve_holding_the_ace_of_trumps() -> None:
    """Found by the audit: West conceded all twelve tricks left with the ace of hearts, the top trump, in
    his hand; the table only recorded the agreement and scored twelve tricks (180)."""
    run = replay(CONCEDE.read_text(encoding="utf-8"))
    assert run.code == 0, run.err
    [k] = _cancelled(run.rulings)
    assert k["remedy"] == "attention" and k["law"] == "Rubber Bridge, law 71" and k["side"] == "EW"
    assert (k["claimer"], k["claimed"], k["tricks"], k["remaining"], k["restored"], k["to_side"], k["sure"]) == \
        ("W", 0, 1, 12, 1, "EW", ["AH"])
    assert "West's ace of hearts" in k["reason"] and "1 trick goes back to East-West" in k["reason"], k["reason"]
    assert "director" in k["reason"]
    order = [(r["remedy"], r["clause"]) for r in run.rulings if r.get("event") == 74]
    assert order[:3] == [("deal_stands", "BP-68-71"), ("attention", "BP-68-71"), ("score", "CB-rubber")], order
    score = _score(run.rulings)
    assert score["tricks"] == 11 and score["totals"] == {"NS": 150, "EW": 0}, score


def test_BP_71_only_the_trumps_above_every_other_hand_count_when_partners_split_them(tmp_path: Path) -> None:
    """East-West hold the ace (West), king and queen (East) of hearts; East concedes. Only the ace is
    higher than every trump in the other three hands: East's king and queen lie under his partner's ace."""
    out = replay_here(_after_trick_1() + _claim("E", 0, "S"), tmp_path)
    [k] = _cancelled(out)
    assert (k["claimer"], k["sure"], k["restored"], k["tricks"], k["side"]) == ("E", ["AH"], 1, 1, "EW"), k
    assert _score(out)["tricks"] == 11


def test_BP_71_an_agreed_claim_concedes_for_the_side_that_agrees(tmp_path: Path) -> None:
    """South claims all twelve; West agrees, conceding the ace of hearts' trick: it goes back."""
    out = replay_here(_after_trick_1() + _claim("S", 12, "W"), tmp_path)
    [k] = _cancelled(out)
    assert (k["claimer"], k["claimed"], k["tricks"], k["restored"], k["to_side"]) == ("S", 12, 11, 1, "EW"), k
    assert _score(out)["tricks"] == 11


def test_BP_71_declarer_conceding_with_the_top_trumps_gets_them_back(tmp_path: Path) -> None:
    """The defenders draw trumps: West's ace and ten, East's queen and king win tricks 2-4. South then holds
    the only hearts left (jack, nine, eight) and claims two of the nine tricks left: three are sure."""
    play = played(("W", "AH"), ("N", "3H"), ("E", "5H"), ("S", "2H"),
                  ("W", "TH"), ("N", "6H"), ("E", "QH"), ("S", "4H"),
                  ("E", "KH"), ("S", "7H"), ("W", "2D"), ("N", "3C"))
    out = replay_here(_after_trick_1() + play + _claim("S", 2, "W"), tmp_path)
    [k] = _cancelled(out)
    assert (k["claimer"], k["claimed"], k["tricks"], k["remaining"], k["restored"], k["side"]) == \
        ("S", 2, 3, 9, 1, "NS"), k
    assert k["sure"] == ["JH", "9H", "8H"] and "the 3 highest trumps (South's" in k["reason"], k["reason"]
    assert _score(out)["tricks"] == 3


def test_BP_71_a_concession_that_gives_no_sure_trick_away_stands(tmp_path: Path) -> None:
    """West concedes eleven of twelve, keeping one: the ace of hearts' trick is his; nothing is cancelled."""
    out = replay_here(_after_trick_1() + _claim("W", 1, "S"), tmp_path)
    assert _cancelled(out) == [] and _score(out)["tricks"] == 11


def test_BP_71_at_no_trumps_no_card_is_counted(tmp_path: Path) -> None:
    """North plays three notrump; East, on lead with the ace of spades, concedes all thirteen. A top card
    may be discarded at notrump, so nothing is certain: the concession stands."""
    events = _log(CONCEDE)
    deal_end = next(i for i, e in enumerate(events) if e["type"] == "deal_end")
    auction = [{"type": "call", "seat": s, "call": c} for s, c in
               zip("NESWNESW", ["1D", "pass", "1H", "pass", "3NT", "pass", "pass", "pass"], strict=True)]
    out = replay_here(events[:deal_end + 1] + auction + _claim("E", 0, "S"), tmp_path)
    assert _cancelled(out) == []
    score = _score(out)
    assert (score["contract"], score["declarer"], score["tricks"]) == ("3NT", "N", 13), score


def test_BP_71_at_a_duplicate_table_cites_the_duplicate_code_and_scores_the_tricks_given_back(tmp_path: Path) -> None:
    out = replay_here(_after_trick_1("duplicate-bridge") + _claim("W", 0, "S"), tmp_path)
    [k] = _cancelled(out)
    assert k["law"] == "Duplicate Bridge, law 71" and (k["sure"], k["restored"]) == (["AH"], 1), k
    score = _score(out)
    assert (score["clause"], score["tricks"], score["score"]) == ("DB-77", 11, 450), score


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


def test_BP_71_a_hand_still_to_play_to_a_trick_a_higher_trump_holds_counts_one_fewer(tmp_path: Path) -> None:
    """East ruffs North's king of diamonds with the king of hearts; South, still to play to that trick,
    holds the four hearts left (jack, nine, eight, seven) and claims two of the eight tricks left. One of
    his hearts may have to go on East's king, so three are sure, not four."""
    play = played(("W", "AH"), ("N", "3H"), ("E", "5H"), ("S", "2H"),
                  ("W", "TH"), ("N", "6H"), ("E", "QH"), ("S", "4H"),
                  ("E", "QC"), ("S", "4C"), ("W", "8C"), ("N", "AC"),
                  ("N", "AD"), ("E", "TD"), ("S", "3D"), ("W", "2D"),
                  ("N", "KD"), ("E", "KH"))
    out = replay_here(_after_trick_1() + play + _claim("S", 2, "W"), tmp_path)
    [k] = _cancelled(out)
    assert (k["sure"], k["remaining"], k["restored"], k["tricks"]) == (["JH", "9H", "8H"], 8, 1, 3), k
    assert _score(out)["tricks"] == 5
