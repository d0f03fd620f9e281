"""docs/laws.md as a contract: for a sample of rows per game, a short event log written from docs/laws.md and
docs/events.md alone, and the clause id and remedy ``cardtable replay`` gives for it.

Every bridge digest clause a sensor or button detects is here, and the euchre rows 1-45 a sensor detects
(laws 2-3, 7, 8, 10-14, 22, 27-31, 33-45). Each case is (facts, expected rulings after the table's
formation), each ruling as (remedy, clause) or (remedy, clause, who deals next)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.contract.outsider import (
    EUCHRE_HANDS,
    bridge_deal,
    bridge_table,
    euchre_deal,
    euchre_table,
    game,
    left,
    played,
    replay_here,
    shuffle_and_cut,
)

Case = tuple[list[dict[str, Any]], list[tuple[str, ...]]]


def E(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **fields}


def _said(rulings: list[dict[str, Any]], expected: list[tuple[str, ...]]) -> list[tuple[str, ...]]:
    return [(r["remedy"], r["clause"], r.get("dealer")) if len(want) == 3 else (r["remedy"], r["clause"])
            for r, want in zip(rulings, expected, strict=False)] + [
        (r["remedy"], r["clause"]) for r in rulings[len(expected):]]


# --- Contract Bridge: the digest's clauses (North deals; North-South own red, East-West blue) ----------

BT = bridge_table()
BD = bridge_deal()
SC = shuffle_and_cut("N", (26, 26))
START = E("deal_start", dealer="N", pack="red")
D51 = BD[:-2] + BD[-1:]                       # North's last card never leaves the shoe


def _rubber_hand(dealer: str, declarer: str, contract: str, tricks: int) -> list[dict[str, Any]]:
    return bridge_deal(dealer) + [E("result", declarer=declarer, contract=contract, tricks=tricks)]


BRIDGE: dict[str, Case] = {
    "CB-shuffle-demand in time": (SC + [START, E("demand", seat="E", what="new_shuffle")],
                                  [("new_shuffle_and_cut", "CB-shuffle-demand", "N")]),
    "CB-shuffle-demand too late": (SC + [START, BD[3], E("demand", seat="E", what="new_shuffle")],
                                   [("deal_stands", "CB-shuffle-demand")]),
    "CB-cut-faced": ([E("shuffle", seat="S"), E("cut", seat="W", faced=True)],
                     [("new_shuffle_and_cut", "CB-cut-faced", "N")]),
    "CB-cut-faced: the cut's exposed count": ([E("shuffle", seat="S"), E("cut", seat="W", top=26, bottom=26, exposed=1)],
                                              [("new_shuffle_and_cut", "CB-cut-faced", "N")]),
    "CB-cut-practice: a packet under four": ([E("shuffle", seat="S"), E("cut", seat="W", top=3, bottom=49)],
                                             [("new_cut", "CB-cut-practice")]),
    "CB-pack-damaged by the camera": ([E("damaged_card", card="7C", pack="red")], [("replace_pack", "CB-pack-damaged")]),
    "CB-pack-damaged by the shoe": (BD[:4] + [E("card_dealt", seat="S", card=None)],
                                    [("replace_pack", "CB-pack-damaged", "N")]),
    "CB-pack-reclaim": (SC + [E("deal_start", dealer="N", pack="blue"), E("demand", seat="N", what="restore_pack")],
                        [("restore_pack", "CB-pack-reclaim")]),
    "CB-redeal-out-of-turn in time": (shuffle_and_cut("N", (26, 26)) + [
        E("deal_start", dealer="E", pack="red"), E("card_dealt", seat="S", card="AS"),
        E("demand", seat="N", what="redeal")],
        [("claim_option", "CB-redeal-out-of-turn", "N"), ("redeal", "CB-redeal-out-of-turn", "N")]),
    "CB-redeal-uncut in time": ([E("shuffle", seat="S"), START, BD[3], E("demand", seat="W", what="redeal")],
                                [("claim_option", "CB-redeal-uncut"), ("redeal", "CB-redeal-uncut", "N")]),
    "CB-redeal-uncut too late": ([BD[0]] + BD[2:] + [E("demand", seat="W", what="redeal")],
                                 [("claim_option", "CB-redeal-uncut"), ("deal_stands", "CB-redeal-uncut"),
                                  ("deal_stands", "CB-redeal-demand")]),
    "CB-redeal-incorrect: two in a row": (BD[:4] + [E("card_dealt", seat="E", card="KS")],
                                          [("redeal", "CB-redeal-incorrect", "N")]),
    "CB-redeal-incorrect: not from the dealer's left": (BD[:3] + [E("card_dealt", seat="S", card="KS")],
                                                        [("redeal", "CB-redeal-incorrect", "N")]),
    "CB-redeal-faced by the shoe": (BD[:3] + [E("card_dealt", seat="E", card="AS", face_up=True)],
                                    [("redeal", "CB-redeal-faced", "N")]),
    "CB-redeal-faced by the camera": (BD[:5] + [E("card_faced", card="AS", where="deal")],
                                      [("redeal", "CB-redeal-faced", "N")]),
    "CB-redeal-wrong-hand looked": (BD + [E("wrong_hand", seat="S", looked=True)],
                                    [("redeal", "CB-redeal-wrong-hand", "N")]),
    "CB-redeal-wrong-hand not looked": (BD + [E("wrong_hand", seat="S", looked=False)],
                                        [("deal_stands", "CB-redeal-wrong-hand")]),
    "CB-redeal-miscount": (BD + [E("hand_count", seat="S", count=14), E("hand_count", seat="W", count=12)],
                           [("attention", "CB-redeal-miscount"), ("redeal", "CB-redeal-miscount", "N")]),
    "CB-missing-found loose": (D51 + [E("missing_card", card="2C", seat="N", found="loose")],
                               [("attention", "CB-missing-search"), ("deemed_to_belong", "CB-missing-found")]),
    "CB-missing-found with the hand": (D51 + [E("missing_card", card="2C", seat="N", found="N")],
                                       [("attention", "CB-missing-search"), ("deemed_to_belong", "CB-missing-found")]),
    "CB-missing-other-hand": (D51 + [E("missing_card", card="2C", seat="N", found="E")],
                              [("attention", "CB-missing-search"), ("redeal", "CB-missing-other-hand", "N")]),
    "CB-missing-trick": (D51 + [E("missing_card", card="2C", seat="N", found="trick")],
                         [("attention", "CB-missing-search"), ("defective_trick", "CB-missing-trick")]),
    "CB-missing-not-found declared": (D51 + [E("missing_card", card="2C", seat="N", found=None)],
                                      [("attention", "CB-missing-search"), ("redeal", "CB-missing-not-found", "N")]),
    "CB-missing-not-found at the end of play": (D51 + [E("play_end")],
                                                [("attention", "CB-missing-search"),
                                                 ("redeal", "CB-missing-not-found", "N")]),
    "CB-surplus-deal: 53 cards": (BD[:-1] + [E("card_dealt", seat="E", card="AS"), E("deal_end")],
                                  [("redeal", "CB-surplus-deal", "N")]),
    "CB-surplus-deal reported": (BD + [E("surplus_card", seat="E", cause="deal")], [("redeal", "CB-surplus-deal", "N")]),
    "CB-surplus-play": (BD + [E("surplus_card", seat="E", cause="play")], [("defective_trick", "CB-surplus-play")]),
    "CB-attention": (BD + [E("demand", seat="E", what="attention")], [("attention", "CB-attention")]),
    "CB-rubber two games to none": (_rubber_hand("N", "S", "4S", 10) + _rubber_hand("E", "N", "3NT", 9),
                                    [("score", "CB-rubber"), ("game_won", "CB-rubber"), ("score", "CB-rubber"),
                                     ("game_won", "CB-rubber"), ("rubber_won", "CB-rubber")]),
}


@pytest.mark.parametrize("name", list(BRIDGE))
def test_bridge_digest_clause(name: str, tmp_path: Path) -> None:
    facts, expected = BRIDGE[name]
    rulings = replay_here(BT + facts, tmp_path)
    assert rulings[0]["remedy"] == "formation"
    assert _said(rulings[1:], expected) == expected


def test_bridge_rubber_premium_and_totals(tmp_path: Path) -> None:
    """CB-rubber: 700 when the other side won no game; the totals decide the winner."""
    facts = _rubber_hand("N", "S", "4S", 10) + _rubber_hand("E", "N", "3NT", 9)
    won = replay_here(BT + facts, tmp_path)[-1]
    assert won["remedy"] == "rubber_won" and won["premium"] == 700 and "totals" in won


# --- Euchre: rows 1-45 that a sensor detects (North deals from the table's formation) ----------------

ET = euchre_table() + [E("packs", owners={"NS": "red", "EW": "blue"})]
ED = euchre_deal("N", EUCHRE_HANDS, "JH")
ESC = shuffle_and_cut("N", (16, 16))
TWO_TWO = euchre_deal("N", EUCHRE_HANDS, "JH", rounds=(2, 2))[:-2]        # a round of twos, then twos
MIXED = ESC + [E("deal_start", dealer="N", pack="red")] + [
    E("card_dealt", seat=s, card=c) for s, c in [
        ("E", "AC"), ("E", "KC"), ("S", "7C"), ("S", "8C"), ("S", "9C"), ("W", "AH"), ("W", "KH"), ("N", "9H"),
        ("N", "TH"), ("N", "8H"), ("E", "QC"), ("E", "JC"), ("E", "TC"), ("S", "AD"), ("S", "KD"), ("W", "QH"),
        ("W", "JD"), ("W", "TD"), ("N", "7H"), ("N", "AS")]]


def _pack(events: list[dict[str, Any]], pack: str) -> list[dict[str, Any]]:
    return [dict(e, pack=pack) if e["type"] == "deal_start" else e for e in events]


def _hand(makers: str, alone: bool, tricks: int, trump_by: str = "S") -> list[dict[str, Any]]:
    return ED + [E("trump_made", seat=trump_by, suit="H", alone=alone),
                 E("result", makers=makers, alone=alone, tricks=tricks)]


def _draw(cuts: list[list[str]], **kw: Any) -> list[dict[str, Any]]:
    return [game("euchre"), E("draw", cuts=cuts, **kw)]


EUCHRE: dict[str, Case] = {
    "2: three tricks score 1": (_hand("NS", False, 3), [("score", "EU-2")]),
    "2: euchred": (_hand("NS", False, 2), [("score", "EU-2")]),
    "3: a lone march": (_hand("NS", True, 5), [("score", "EU-3")]),
    "7: a double game": (_hand("NS", False, 5)          # each side deals with its own pack (law 38)
                         + euchre_deal("E", {left(s, 1): c for s, c in EUCHRE_HANDS.items()}, "JH", pack="blue")
                         + [E("trump_made", seat="S", suit="H"), E("result", makers="NS", tricks=5)]
                         + euchre_deal("S", {left(s, 2): c for s, c in EUCHRE_HANDS.items()}, "JH")
                         + [E("trump_made", seat="S", suit="H"), E("result", makers="NS", tricks=5)],
                         [("score", "EU-2"), ("score", "EU-2"), ("score", "EU-2"), ("game_won", "EU-7")]),
    "23: a shuffle during play is noted": (ED + [E("trump_made", seat="S", suit="H")] + played(("E", "AC"))
                                           + [E("shuffle", seat="W")], [("attention", "EU-23")]),
    "24: a second shuffle by one player is noted": ([E("shuffle", seat="S"), E("shuffle", seat="S")],
                                                   [("attention", "EU-24")]),
    "22: a face shown while another shuffles": ([E("shuffle", seat="E"), E("card_faced", card="9D", where="pack")],
                                               [("attention", "EU-22")]),
    "27: a face seen while the dealer shuffles": ([E("shuffle", seat="N"), E("card_faced", card="9D", where="pack"),
                                                  E("demand", seat="W", what="new_shuffle")],
                                                 [("claim_option", "EU-27", "N"), ("reshuffle", "EU-27", "N")]),
    "28 and 40: the deal passes left; the wrong dealer is stopped": (
        _hand("NS", False, 3) + shuffle_and_cut("E", (16, 16)) + [E("deal_start", dealer="S", pack="red")]
        + [E("card_dealt", seat="W", card="AC"), E("demand", seat="W", what="new_deal")],
        [("score", "EU-2"), ("claim_option", "EU-40", "E"), ("redeal", "EU-40", "E")]),
    "29: a packet under four": ([E("shuffle", seat="S"), E("cut", seat="W", top=3, bottom=29)], [("new_cut", "EU-29")]),
    "29: a card exposed in the cut": ([E("shuffle", seat="S"), E("card_faced", card="9D", where="cut")],
                                      [("new_cut", "EU-29")]),
    "29: cut by the wrong player": ([E("shuffle", seat="S"), E("cut", seat="E", top=16, bottom=16)],
                                    [("new_cut", "EU-29")]),
    "30: the cut is final": (ESC + [E("cut", seat="W", top=10, bottom=22)], [("deal_stands", "EU-30")]),
    "31: the dealer reshuffles after the cut": (ESC + [E("shuffle", seat="N")], [("lose_deal", "EU-31", "E")]),
    "33: a card twice in the pack": (ED[:3] + [E("card_dealt", seat="E", card="AC"), E("card_dealt", seat="E", card="AC")],
                                     [("redeal", "EU-33", "N")]),
    "33: an unreadable card": (ED[:3] + [E("card_dealt", seat="E", card=None)], [("replace_pack", "EU-33", "N")]),
    "34: a card face up in the pack": (ED[:3] + [E("card_dealt", seat="E", card="AC", face_up=True)],
                                       [("redeal", "EU-34", "N")]),
    "35: the dealer exposes a card, claimed": (ED[:5] + [E("card_faced", card="AC", where="deal", by="N"),
                                                         E("demand", seat="E", what="new_deal")],
                                               [("claim_option", "EU-35", "N"), ("redeal", "EU-35", "N")]),
    "35: the claimants touched their cards": (ED[:5] + [E("card_faced", card="AC", where="deal", by="N"),
                                                        E("deal_interrupted", seat="E", how="touched"),
                                                        E("demand", seat="E", what="new_deal")],
                                              [("claim_option", "EU-35"), ("deal_stands", "EU-35")]),
    "35: an adversary exposes a card": (ED[:5] + [E("card_faced", card="AC", where="deal", by="E")],
                                        [("claim_option", "EU-35", "N")]),
    "37: one of the last cards exposed, trump turned at once": (
        ED[:-2] + [E("card_faced", card="TD", where="deal", by="N")] + ED[-2:]
        + [E("demand", seat="E", what="new_deal")],
        [("claim_option", "EU-37", "N"), ("redeal", "EU-37", "N")]),
    "38: the adversaries' pack, claimed before the turn-up": (
        _pack(ED, "blue")[:-2] + [E("demand", seat="E", what="new_deal")],
        [("claim_option", "EU-38", "N"), ("redeal", "EU-38", "N")]),
    "38: the adversaries' pack, the trump card turned": (
        # the deal stands: its ruling's dealer is who deals next (docs/events.md), East; it named North, who
        # would have dealt again had the new deal been claimed
        _pack(ED, "blue"), [("claim_option", "EU-38", "N"), ("deal_stands", "EU-38", "E")]),
    "39: a second card exposed turning trump": (ED[:-1] + [E("card_faced", card="9S", where="trump")],
                                               [("redeal", "EU-39", "N")]),
    "41-42: a round of twos then twos": (TWO_TWO, [("misdeal", "EU-41", "E")]),
    "41-42: twos and threes mixed in a round": (MIXED, [("misdeal", "EU-41", "E")]),
    "43: an adversary touched first": (TWO_TWO[:5] + [E("deal_interrupted", seat="E", how="touched")] + TWO_TWO[5:],
                                       [("redeal", "EU-43", "N")]),
    "43: the dealer's partner touched first": (
        TWO_TWO[:5] + [E("deal_interrupted", seat="S", how="touched"), E("deal_interrupted", seat="E", how="touched")]
        + TWO_TWO[5:], [("misdeal", "EU-43", "E")]),
    "42: a hand counted six before the turn-up": (ED[:-2] + [E("hand_count", seat="E", count=6)],
                                                  [("misdeal", "EU-41", "E")]),
    "90: a hand counted six after the turn-up": (ED + [E("hand_count", seat="E", count=6)],
                                                [("deal_stands", "EU-90"), ("penalty", "EU-90")]),
    "45: dealing for his partner, misdealt": (
        [dict(e, dealer="S", on_behalf_of="N") if e["type"] == "deal_start" else e for e in TWO_TWO],
        [("misdeal", "EU-45", "E")]),
}

DRAWS: dict[str, tuple[list[dict[str, Any]], list[tuple[str, str]]]] = {
    "8 and 11: the knave highest, the two highest partners": (
        _draw([["A", "AS"], ["B", "JD"], ["C", "KH"], ["D", "7C"]]), [("formation", "EU-11")]),
    "10: two cards shown": (_draw([["A", "AS"], ["B", "JD"], ["C", "KH"], ["D", "7C"]], exposed={"C": 2}),
                            [("cut_again", "EU-10")]),
    "12: seven candidates": (_draw([["A", "AS"], ["B", "JD"], ["C", "KH"], ["D", "7C"], ["E", "QS"], ["F", "TS"],
                                    ["G", "9S"]]), [("cut_again", "EU-12")]),
    "13: a tie in the middle": (_draw([["A", "JS"], ["B", "AD"], ["C", "AH"], ["D", "7C"]]), [("cut_again", "EU-13")]),
    "13: a tie of the two highest stands": (_draw([["A", "JS"], ["B", "JD"], ["C", "AH"], ["D", "7C"]]),
                                            [("formation", "EU-13")]),
    "14: three equal": (_draw([["A", "JS"], ["B", "9D"], ["C", "9H"], ["D", "9C"]]), [("cut_again", "EU-14")]),
}


@pytest.mark.parametrize("name", list(EUCHRE))
def test_euchre_row(name: str, tmp_path: Path) -> None:
    facts, expected = EUCHRE[name]
    rulings = replay_here(ET + facts, tmp_path)
    assert rulings[0]["remedy"] == "formation"
    assert _said(rulings[1:], expected) == expected


@pytest.mark.parametrize("name", list(DRAWS))
def test_euchre_draw_row(name: str, tmp_path: Path) -> None:
    facts, expected = DRAWS[name]
    assert [(r["remedy"], r["clause"]) for r in replay_here(facts, tmp_path)] == expected


def test_euchre_cut_again_names_who(tmp_path: Path) -> None:
    """Law 13: the two tied cut again; law 14: the three tied (the fourth being highest) cut again."""
    assert replay_here(DRAWS["13: a tie in the middle"][0], tmp_path)[0]["who"] == ["B", "C"]
    assert replay_here(DRAWS["14: three equal"][0], tmp_path)[0]["who"] == ["B", "C", "D"]


def test_euchre_law_44_is_the_dealers_claim(tmp_path: Path) -> None:
    """docs/laws.md ("Rights are claims") lists law 44: the dealer wrongly interrupted *may* deal again after a
    misdeal: the engine offers the claim and waits for it."""
    rulings = replay_here(ET + TWO_TWO[:5] + [E("deal_interrupted", seat="E", how="interrupted")] + TWO_TWO[5:],
                          tmp_path)
    assert rulings[1]["remedy"] == "claim_option" and rulings[1]["clause"] == "EU-44"


def test_laws_of_play_sample(tmp_path: Path) -> None:
    """Law 52 then 53: a lead out of turn the three others all follow stands as played; the claim lapses."""
    facts = ED + [E("trump_made", seat="S", suit="H")] + played(("S", "7C"), ("W", "AH"), ("N", "9H"), ("E", "AC"))
    rulings = replay_here(ET + facts, tmp_path)[1:]
    assert [(r["remedy"], r["clause"]) for r in rulings] == [("claim_option", "EU-52"), ("deal_stands", "EU-53")]


def test_who_leads_when_the_eldest_sits_out(tmp_path: Path) -> None:
    """events.md: the eldest hand leads the first trick, the next player when he sits out for a lone hand.
    West plays alone, so East (the eldest) sits out and South leads. A card East plays is in no trick and
    charges nobody (docs/laws.md, EU-lone-partner): it is no lead out of turn, whose penalty could fall on
    the lone player; South still leads."""
    alone = ED + [E("trump_made", seat="W", suit="H", alone=True)]
    assert replay_here(ET + alone + played(("S", "7C")), tmp_path)[1:] == []
    wrong = replay_here(ET + alone + played(("E", "AC"), ("S", "7C")), tmp_path)[1:]
    assert [(r["remedy"], r["clause"]) for r in wrong] == [("attention", "EU-lone-partner")]
