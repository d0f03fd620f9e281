"""The director's bridge answers, without a broker: the table's status says what waits (``bridge_choices
.open_bridge``), the dashboard offers exactly the answers that settle it, in words (``bridge_answers
.bridge_view``), checks an answer only as far as the event format goes (``check_answer``), and the table
turns it into the event its engine judges (``director_answer``). Each situation is made by the engine from
docs/events.md's worked examples (the PBN 2.1 standard's example deal, North deals)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from firmware_host.club.bridge_answers import AnswerError, bridge_view, check_answer
from firmware_host.table.bridge_choices import ANSWERS, AnswerRefused, director_answer, open_bridge
from firmware_host.table.choices import CHECKED
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import event_from_dict, event_to_dict
from tests.laws.bridge_table import MIXED, calls, table

AUCTION = "1D pass 1H pass 2C pass 4H pass pass pass"  # South declares four hearts; West leads


def engine(*lines: dict[str, Any], auction: bool = True) -> LawEngine:
    eng = table(MIXED)
    if auction:
        for e in calls(Seat.N, AUCTION):
            eng.feed(e)
    for line in lines:
        eng.feed(event_from_dict(line))
    return eng


def C(seat: str, call: str) -> dict[str, Any]:
    return {"type": "call", "seat": seat, "call": call}


def P(seat: str, card: str) -> dict[str, Any]:
    return {"type": "card_played", "seat": seat, "card": card}


def view(eng: LawEngine) -> dict[str, Any]:
    raw = json.loads(json.dumps(open_bridge(eng.state)))  # as it travels
    v = bridge_view("contract-bridge", eng.state.phase.value, raw)
    assert v is not None
    return v


def offers(v: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {o["kind"]: o for o in v["offers"]}


def seats(o: dict[str, Any]) -> list[str]:
    return [s["seat"] for s in o["seats"]]


def test_an_insufficient_bid_offers_its_acceptance_to_the_next_player_only() -> None:
    eng = engine(C("N", "1S"), C("E", "1H"), auction=False)
    raw = open_bridge(eng.state)
    assert raw is not None and raw["waiting"]["law"] == "Rubber Bridge, law 27"
    v = view(eng)
    assert list(offers(v)) == ["accept", "decline"]
    assert seats(offers(v)["accept"]) == ["S"] and offers(v)["accept"]["label"] == "Accept it"
    assert seats(offers(v)["decline"]) == ["S"] and offers(v)["decline"]["label"] == "Not accepted"
    assert "East's one heart: an insufficient bid" in v["said"][0]
    assert any("enter the call made instead" in line for line in v["said"])  # not accepted: a new call
    for o in v["offers"]:  # words only: no code name on the page
        assert "insufficient_bid" not in json.dumps(o) and "BP-27" not in o["title"]


def test_a_replacement_the_director_judges_offers_the_bar_the_laws_name() -> None:
    eng = engine(C("N", "1S"), C("E", "1H"), C("E", "3H"), auction=False)  # not the lowest sufficient
    o = offers(view(eng))["bar"]
    assert o["seat"] == "W" and "West must pass for the rest of the auction" in o["why"]
    assert o["law"] == "Rubber Bridge, law 27" and seats(o) == ["N", "E", "S", "W"]
    eng.feed(event_from_dict({"type": "bar", "seat": "W", "rounds": "rest"}))
    assert "bar" not in offers(view(eng))  # entered: nothing more to bar
    # the lowest sufficient bid brings nothing more: no bar to judge
    assert "bar" not in offers(view(engine(C("N", "1S"), C("E", "1H"), C("E", "2H"), auction=False)))


def test_a_change_of_call_lets_the_director_bar_with_no_bar_named() -> None:
    eng = engine(C("N", "1S"), C("N", "2S"), auction=False)
    o = offers(view(eng))["bar"]
    assert o["why"] == "" and o["seat"] is None


def test_a_lead_out_of_turn_offers_acceptance_to_declarer_and_taking_it_back() -> None:
    v = view(engine(P("E", "AS")))
    assert set(offers(v)) == {"accept", "withdraw", "spread"}  # spread: declarer may become dummy (law 54)
    assert seats(offers(v)["accept"]) == ["S"] and seats(offers(v)["withdraw"]) == ["E"]
    assert "East's card: a lead out of turn" in v["said"][0]
    assert "claim" not in offers(v)  # no claim while a card waits for its ruling


def test_a_premature_play_can_only_be_taken_back() -> None:
    v = view(engine(P("W", "KS"), P("N", "3H"), P("E", "4S"), P("S", "3S"), P("N", "AD"), P("W", "2D")))
    assert list(offers(v)) == ["withdraw"] and seats(offers(v)["withdraw"]) == ["W"]


def test_a_revoke_offers_its_correction_with_the_cards_of_the_suit_led() -> None:
    eng = engine(P("W", "KS"), P("N", "2C"), P("E", "6C"))
    o = offers(view(eng))["correct_revoke"]
    assert seats(o) == ["E"] and "East's revoke in trick 1 (spades were led)" in o["title"]
    assert [c["card"] for c in o["cards"]][:2] == ["AS", "KS"] and o["cards"][0]["words"] == "ace of spades"
    eng.feed(event_from_dict({"type": "correct", "seat": "E", "card": "4S"}))
    assert "correct_revoke" not in offers(view(eng))


def test_a_claim_is_offered_in_play_then_its_answer_then_its_ruling() -> None:
    eng = engine(P("W", "KS"), P("N", "3H"), P("E", "4S"), P("S", "3S"))
    o = offers(view(eng))["claim"]
    assert seats(o) == ["E", "S", "W"] and o["most"] == 12  # dummy (North) does not claim
    eng.feed(event_from_dict({"type": "claim", "seat": "S", "tricks": 12}))
    v = view(eng)
    assert list(offers(v)) == ["claim_reply"] and seats(offers(v)["claim_reply"]) == ["E", "W"]
    assert v["claim"] == "South claims 12 of the last 12 tricks — waiting for the other side's answer"
    eng.feed(event_from_dict({"type": "claim_reply", "seat": "E", "agree": False}))
    v = view(eng)
    assert list(offers(v)) == ["claim_ruled"] and offers(v)["claim_ruled"]["most"] == 12
    eng.feed(event_from_dict({"type": "claim_ruled", "tricks": 9}))
    assert view(eng)["offers"] == []


def test_nothing_is_offered_in_an_ordinary_auction_or_at_another_game() -> None:
    eng = engine(C("N", "1S"), auction=False)
    assert view(eng)["offers"] == [] and view(eng)["said"] == []
    assert bridge_view("euchre", "auction", open_bridge(eng.state)) is None
    assert bridge_view("contract-bridge", "auction", None) is None


JSON = st.recursive(st.none() | st.booleans() | st.integers(-5, 60) | st.sampled_from(
    ["N", "E", "S", "W", "S", "accept", "withdraw", "1H", "pending", "disputed", "hidden", "rest", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from(
        ["waiting", "revokes", "bar", "claim", "seat", "options", "accept_by", "call", "kind", "trick", "suit",
         "bars", "tricks", "remaining", "status", "tricks_left", "declarer", "to_play", "law"]), inner, max_size=8),
    max_leaves=30)


@settings(max_examples=300, deadline=None)
@given(raw=JSON, phase=st.sampled_from(["auction", "play", "scoring", "shuffle"]))
@example(raw={"bar": {"bars": True}}, phase="auction")  # found by this test: bars not a list
@example(raw={"waiting": {"seat": "N", "options": ["accept"], "accept_by": 7}}, phase="auction")
def test_a_malformed_status_never_breaks_the_view(raw: Any, phase: str) -> None:
    v = bridge_view("contract-bridge", phase, raw)
    assert v is None or all(o["label"] and o["title"] for o in v["offers"])


@pytest.mark.parametrize(("game", "phase", "kind", "data", "words"), [
    ("euchre", "play", "accept", {"seat": "S"}, "an acceptance is entered at a bridge table"),
    ("contract-bridge", "shuffle", "accept", {"seat": "S"}, "in its shuffle phase: an acceptance is entered in the auction or play phase"),
    ("contract-bridge", "play", "bar", {"seat": "S", "rounds": 1}, "a bar is entered in the auction phase"),
    ("contract-bridge", "auction", "bar", {"seat": "S", "rounds": 0}, "field 'rounds'"),
    ("contract-bridge", "auction", "bar", {"seat": "S", "rounds": "always"}, "field 'rounds'"),
    ("contract-bridge", "play", "accept", {"seat": "south"}, "field 'seat'"),
    ("contract-bridge", "play", "withdraw", {}, "missing field 'seat'"),
    ("contract-bridge", "play", "withdraw", {"seat": "E", "card": "1S"}, "field 'card'"),
    ("contract-bridge", "play", "correct_revoke", {"seat": "E"}, "missing field 'card'"),
    ("contract-bridge", "play", "claim", {"seat": "S", "tricks": "ten"}, "field 'tricks'"),
    ("contract-bridge", "play", "claim_reply", {"seat": "E", "agree": "yes"}, "field 'agree'"),
    ("contract-bridge", "play", "claim_ruled", {"tricks": -1}, "field 'tricks'"),
])
def test_the_dashboard_checks_an_answer_as_far_as_the_event_format_goes(
        game: str, phase: str, kind: str, data: dict[str, Any], words: str) -> None:
    with pytest.raises(AnswerError, match=words.replace("(", r"\(")):
        check_answer(game, phase, kind, data)


def test_the_dashboard_sends_the_events_fields() -> None:
    assert check_answer("contract-bridge", "play", "withdraw", {"seat": "E", "table": "t1"}) == {"seat": "E"}
    assert check_answer("contract-bridge", "play", "correct_revoke", {"seat": "E", "card": "4s"}) == \
        {"seat": "E", "card": "4S"}
    assert check_answer("contract-bridge", "auction", "bar", {"seat": "W", "rounds": "rest"}) == \
        {"seat": "W", "rounds": "rest"}
    assert check_answer("contract-bridge", "scoring", "correct_revoke", {"seat": "E", "card": "4S"})  # 12th trick
    assert check_answer("contract-bridge", "play", "claim_ruled", {"tricks": 9, "seat": "N"}) == {"tricks": 9}
    assert set(ANSWERS) <= set(CHECKED)


def test_the_table_fills_in_the_waiting_card_of_a_withdraw_and_nothing_else() -> None:
    eng = engine(P("E", "AS"))
    e = director_answer(eng.state, "withdraw", {"seat": "E"})
    assert event_to_dict(e) == {"type": "withdraw", "seat": "E", "card": "AS"}
    with pytest.raises(AnswerRefused, match="no card of West's is waiting for a ruling"):
        director_answer(eng.state, "withdraw", {"seat": "W"})
    # a card named is the director's: the engine judges it (not the waiting one: its refusal)
    assert event_to_dict(director_answer(eng.state, "withdraw", {"seat": "E", "card": "KS"}))["card"] == "KS"
    e = director_answer(eng.state, "correct_revoke", {"seat": "E", "card": "4S"})
    assert event_to_dict(e) == {"type": "correct", "seat": "E", "card": "4S"}
    with pytest.raises(AnswerRefused, match="a bar is entered in the auction phase; the table is in its play"):
        director_answer(eng.state, "bar", {"seat": "E", "rounds": 1})
    euchre = LawEngine("euchre")
    with pytest.raises(AnswerRefused, match="at a bridge table, and this table plays euchre"):
        director_answer(euchre.state, "accept", {"seat": "E"})


MQTT_DOC = (__import__("pathlib").Path(__file__).resolve().parents[2] / "docs" / "mqtt.md").read_text()


def _doc_object(start: str) -> dict[str, Any]:
    """The JSON object docs/mqtt.md's "Bridge answers" example writes from ``start`` (``"bridge":{``...)."""
    text = " ".join(MQTT_DOC[MQTT_DOC.index("**Bridge answers.**"):].split("\n  "))
    i = text.index(start) + len(start) - 1
    depth = 0
    for j, ch in enumerate(text[i:], i):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth == 0:
            return dict(json.loads(text[i:j + 1]))
    raise AssertionError(start)


def test_the_documented_status_is_the_tables() -> None:
    """docs/mqtt.md's worked example of the status's ``bridge`` is what the table says, exactly; and the
    lead out of turn's ``waiting`` is what the club receives (the card held back)."""
    from firmware_host.tablelink.secrecy import hide_cards

    assert _doc_object('"bridge":{') == open_bridge(engine(C("N", "1S"), C("E", "1H"), auction=False).state)
    raw = open_bridge(engine(P("E", "AS")).state)
    assert raw is not None and _doc_object('reads `"waiting":{') == hide_cards(raw["waiting"])
