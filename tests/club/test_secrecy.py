"""The secrecy filter: card identities of an open deal never leave; the whole deal is released after."""

from __future__ import annotations

from firmware_host.tablelink.secrecy import (
    HIDDEN,
    SecrecyFilter,
    hide_cards,
    is_card_code,
    names_a_card,
)


def test_card_codes_are_recognised() -> None:
    assert is_card_code("TS") and is_card_code("qh") and is_card_code("10D")
    assert not is_card_code("3NT") and not is_card_code("N") and not is_card_code("red")


def test_an_open_deal_hides_every_card_and_keeps_the_rest() -> None:
    f = SecrecyFilter()
    out = f.event({"type": "card_dealt", "seat": "E", "card": "TS", "pack": "red"}, 1, 10)
    assert out == {"type": "card_dealt", "seat": "E", "card": HIDDEN, "pack": "red"}
    unreadable = f.event({"type": "card_dealt", "seat": "S", "card": None}, 1, 11)
    assert unreadable["card"] is None  # "unreadable" says nothing about the card


def test_ruling_text_and_nested_values_are_hidden() -> None:
    f = SecrecyFilter()
    ruling = {"remedy": "redeal", "reason": "The ten of spades left the pack face up towards North.",
              "law": "Contract Bridge, Redeal", "extra": {"cards": ["AS", "KH"], "seen": "QD"}}
    out = f.body(ruling, 3)
    assert not names_a_card(out, ["TS", "AS", "KH", "QD"])
    assert out["law"] == "Contract Bridge, Redeal"
    # worded as a person says it (issue 21), not a placeholder in brackets
    assert out["reason"] == "A card (shown when the hand is over) left the pack face up towards North."
    assert "[" not in out["reason"]


def test_deal_over_releases_in_order_and_later_events_pass() -> None:
    f = SecrecyFilter()
    f.event({"type": "card_dealt", "seat": "N", "card": "AS"}, 2, 1)
    f.event({"type": "shuffle", "seat": "N"}, 2, 2)
    f.event({"type": "card_played", "seat": "N", "card": "AS"}, 2, 3)
    released = f.deal_over(2)
    assert [r["seq"] for r in released] == [1, 3] and released[0]["card"] == "AS"
    assert f.event({"type": "result", "declarer": "S", "contract": "4S", "tricks": 10}, 2, 4)["contract"] == "4S"
    assert f.event({"type": "card_dealt", "seat": "N", "card": "2C"}, 3, 5)["card"] == HIDDEN


def test_the_draw_is_public_and_the_club_may_opt_in() -> None:
    f = SecrecyFilter()
    draw = {"type": "draw", "cuts": [["Ann", "AS"], ["Bob", "KH"]]}
    assert f.event(draw, 0, 1) == draw
    assert SecrecyFilter(reveal=True).event({"type": "card_dealt", "seat": "N", "card": "AS"}, 1, 2)["card"] == "AS"


def test_hide_cards_leaves_non_card_values() -> None:
    body = {"phase": "play", "counts": {"N": 13}, "lamps": {"redeal": True}, "contract": "3NT"}
    assert hide_cards(body) == body


def test_a_score_during_an_open_deal_keeps_its_contract_and_hand_numbers() -> None:
    """A contract such as 4S is a bid, not a card; a hand number under ``hand`` is not a card either."""
    f = SecrecyFilter()
    score = {"remedy": "score", "reason": "North made 4♠: 120 below.", "contract": "4S",
             "items": [{"hand": 1, "points": 120}], "hand": ["AS", "KS"]}
    out = f.body(score, 5)
    assert out["contract"] == "4S" and out["items"] == [{"hand": 1, "points": 120}]
    assert out["hand"] == [HIDDEN, HIDDEN]


def test_a_bridge_call_is_public_while_the_deal_is_open() -> None:
    """The auction is heard by everyone: a bid of two hearts is "2H", not the two of hearts, and leaves
    the table as it is; a card played in the same deal is still held back."""
    f = SecrecyFilter()
    assert f.event({"type": "call", "seat": "N", "call": "2H"}, 3, 10) == {"type": "call", "seat": "N", "call": "2H"}
    assert f.event({"type": "call", "seat": "E", "call": "3NT"}, 3, 11)["call"] == "3NT"
    assert f.event({"type": "card_played", "seat": "E", "card": "2H"}, 3, 12)["card"] == "hidden"
