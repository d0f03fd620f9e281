"""Forming the table: bridge draw (CB-draw), euchre draw (laws 8-14), cutting out and entry (15-21)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from laws.cards import Card, Seat, full_pack
from laws.formation import EuchreDraw, EuchreRoster, bridge_draw, cut_rank
from laws.rulings import Remedy, Ruling

C = Card.parse
EUCHRE_PACK = full_pack("AKQJT987")


def cuts(**named: str) -> list[tuple[str, Card]]:
    return [(name, C(code)) for name, code in named.items()]


# -- bridge ---------------------------------------------------------------------------------------

def test_cut_rank_bridge_ace_high_then_suit() -> None:
    order = ["AS", "AH", "AD", "AC", "KS", "2S", "2C"]
    keys = [cut_rank("contract-bridge", C(c)) for c in order]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == len(keys)


def test_cut_rank_unknown_game() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        cut_rank("whist", C("AS"))


def test_CB_draw_highest_deals_and_partners_second() -> None:
    (f,) = bridge_draw(cuts(Ann="9H", Bob="QC", Cy="3D", Di="QS"))
    assert f.remedy is Remedy.FORMATION and f.clause == "CB-draw"
    assert f.law == "Contract Bridge, draw for partners (modern practice)"
    assert f.extra["players"] == ["Di", "Bob", "Ann", "Cy"]
    assert f.extra["partners"] == [["Di", "Bob"], ["Ann", "Cy"]] and f.extra["dealer_name"] == "Di"
    assert f.extra["seats"] == {"Di": "N", "Bob": "S", "Ann": "E", "Cy": "W"} and f.dealer is Seat.N
    assert f.extra["sides"] == {"NS": ["Di", "Bob"], "EW": ["Ann", "Cy"]}
    assert "Di drew the highest card (queen of spades)" in f.reason


def test_CB_draw_equal_ranks_broken_by_suit() -> None:
    (f,) = bridge_draw(cuts(Ann="KC", Bob="KH", Cy="KD", Di="KS"))
    assert f.extra["players"] == ["Di", "Bob", "Cy", "Ann"]


def test_CB_draw_more_than_four_the_four_highest_play() -> None:
    (f,) = bridge_draw(cuts(Ann="2C", Bob="TH", Cy="JD", Di="4S", Ed="AC", Flo="3H"))
    assert f.extra["players"] == ["Ed", "Cy", "Bob", "Di"] and f.extra["left_out"] == ["Flo", "Ann"]
    assert "Flo and Ann drew lower and wait." in f.reason


def test_CB_draw_uses_the_dealers_seats() -> None:
    seats = {"Di": Seat.E, "Bob": Seat.W, "Ann": Seat.S, "Cy": Seat.N}
    (f,) = bridge_draw(cuts(Ann="9H", Bob="QC", Cy="3D", Di="QS"), seats)
    assert f.dealer is Seat.E and f.extra["sides"] == {"NS": ["Ann", "Cy"], "EW": ["Di", "Bob"]}


@pytest.mark.parametrize("seats,words", [
    ({"Di": Seat.E, "Bob": Seat.N, "Ann": Seat.S, "Cy": Seat.W}, "opposite"),
    ({"Di": Seat.E, "Bob": Seat.W, "Ann": Seat.S}, "no seat given for 'Cy'"),
    ({"Di": Seat.E, "Bob": Seat.E, "Ann": Seat.S, "Cy": Seat.N}, "share a seat"),
])
def test_CB_draw_bad_seats_named(seats: dict[str, Seat], words: str) -> None:
    with pytest.raises(ValueError, match=words):
        bridge_draw(cuts(Ann="9H", Bob="QC", Cy="3D", Di="QS"), seats)


def test_CB_draw_bad_seats_message_names_seats_as_typed() -> None:
    """Audit a3 finding 9: the message showed Python's spelling of the seats (``<Seat.N: 'N'>``)."""
    from laws.engine import LawEngine
    from laws.events import event_from_dict
    draw = event_from_dict({"type": "draw", "cuts": [["Ann", "AS"], ["Bob", "KH"], ["Cy", "7D"], ["Di", "2C"]],
                            "seats": {"Ann": "N", "Bob": "E", "Cy": "S", "Di": "W"}})
    with pytest.raises(ValueError) as err:
        LawEngine("contract-bridge").feed(draw)
    assert str(err.value) == ("seats: partners must sit opposite each other (Ann with Bob, Cy with Di), "
                              "got Ann N, Bob E, Cy S, Di W")
    with pytest.raises(ValueError) as err:
        bridge_draw(cuts(Ann="9H", Bob="QC", Cy="3D", Di="QS"), {"Ann": Seat.N, "Bob": Seat.N, "Cy": Seat.E,
                                                                 "Di": Seat.W})
    assert str(err.value) == "seats: two players share a seat in Ann N, Bob N, Cy E, Di W"


def test_euchre_roster_messages_name_players_as_typed() -> None:
    """The roster's refusals list the names, not a Python list (``['Ann', 'Ann']``)."""
    with pytest.raises(ValueError) as err:
        EuchreRoster(["Ann", "Ann", "Bob", "Cy"])
    assert str(err.value) == "a euchre table has four different players, got Ann, Ann, Bob, Cy"


def test_CB_draw_same_card_twice_draws_again() -> None:
    (r,) = bridge_draw(cuts(Ann="9H", Bob="9H", Cy="3D", Di="QS"))
    assert r.remedy is Remedy.CUT_AGAIN and r.extra["who"] == ["Ann", "Bob"]


def test_CB_draw_input_checked() -> None:
    with pytest.raises(ValueError, match="at least 4"):
        bridge_draw(cuts(Ann="9H", Bob="QC", Cy="3D"))
    with pytest.raises(ValueError, match="'Ann' appears twice"):
        bridge_draw([("Ann", C("9H")), ("Ann", C("QC")), ("Cy", C("3D")), ("Di", C("2D"))])


# -- euchre draw ----------------------------------------------------------------------------------

def test_EU_8_knave_highest_suits_equal() -> None:
    order = ["JC", "AS", "KS", "QS", "TS", "9S", "8S", "7S"]
    keys = [cut_rank("euchre", C(c)) for c in order]
    assert keys == sorted(keys, reverse=True) and len(set(keys)) == 8
    assert cut_rank("euchre", C("JS")) == cut_rank("euchre", C("JD"))
    with pytest.raises(ValueError, match="not in the 32-card euchre pack"):
        cut_rank("euchre", C("6S"))


def test_EU_9_one_pack_same_card_twice_rejected() -> None:
    d = EuchreDraw()
    with pytest.raises(ValueError, match="B and A both cut the jack of spades.*same pack"):
        d.cut(cuts(A="JS", B="JS", C="9D", D="7C"))
    with pytest.raises(ValueError, match="6D is not in the 32-card euchre pack"):
        d.cut(cuts(A="JS", B="JH", C="6D", D="7C"))
    (f,) = d.cut(cuts(A="JS", B="JH", C="9D", D="7C"))   # bad input left nothing behind
    assert f.remedy is Remedy.FORMATION


def test_EU_10_exposing_more_than_one_card_cuts_again() -> None:
    d = EuchreDraw()
    (r,) = d.cut(cuts(A="JS", B="AH", C="9D", D="7C"), exposed={"B": 2, "C": 1})
    assert r.remedy is Remedy.CUT_AGAIN and r.clause == "EU-10" and r.extra["who"] == ["B"]
    assert d.waiting_for == ["B"]
    (f,) = d.cut(cuts(B="8H"))
    assert f.remedy is Remedy.FORMATION and f.extra["partners"] == [["A", "C"], ["B", "D"]]


def test_EU_11_two_highest_play_against_two_lowest_highest_deals() -> None:
    (f,) = EuchreDraw().cut(cuts(A="7S", B="QH", C="JD", D="9C"))
    assert f.clause == "EU-11" and f.law == "Euchre, law 11"
    assert f.extra["partners"] == [["C", "B"], ["D", "A"]] and f.extra["dealer_name"] == "C"
    assert f.dealer is Seat.N and f.extra["seats"]["C"] == "N"


def test_EU_11_more_than_four_select_then_cut_for_partners() -> None:
    d = EuchreDraw()
    (r,) = d.cut(cuts(A="7S", B="QH", C="JD", D="9C", E="AS"))
    assert r.remedy is Remedy.CUT_AGAIN and r.clause == "EU-11"
    assert r.extra["players"] == ["C", "E", "B", "D"] and r.extra["next_in"] == ["A"]
    assert sorted(d.waiting_for) == ["B", "C", "D", "E"]
    with pytest.raises(ValueError, match="expected cuts from"):
        d.cut(cuts(A="7S", B="QH", C="JD", D="9C"))
    (f,) = d.cut(cuts(B="JS", C="7H", D="8C", E="KD"), seats={"B": Seat.W, "E": Seat.E, "D": Seat.N,
                                                              "C": Seat.S})
    assert f.extra["partners"] == [["B", "E"], ["D", "C"]] and f.dealer is Seat.W
    assert f.extra["next_in"] == ["A"]
    with pytest.raises(ValueError, match="already formed"):
        d.cut(cuts(B="JS"))


def test_EU_11_earliest_arrival_keeps_the_last_place() -> None:
    (r,) = EuchreDraw().cut(cuts(A="JS", B="9H", C="AD", D="KC", E="9S"))
    assert r.extra["players"] == ["A", "C", "D", "B"] and r.extra["next_in"] == ["E"]
    assert "B keeps the last place over E by arriving earlier" in r.reason


def test_EU_12_fifth_and_sixth_belong_to_the_table() -> None:
    (r,) = EuchreDraw().cut(cuts(A="7S", B="8H", C="9D", D="TC", E="QS", F="KH", G="AD"))
    assert r.clause == "EU-12" and r.extra["players"] == ["G", "F", "E", "D"]
    assert r.extra["next_in"] == ["C", "B"] and r.extra["left_out"] == ["A"]


def test_EU_13_two_equal_across_the_line_cut_again() -> None:
    d = EuchreDraw()
    (r,) = d.cut(cuts(A="JS", B="QH", C="QD", D="7C"))
    assert r.remedy is Remedy.CUT_AGAIN and r.clause == "EU-13" and r.extra["who"] == ["B", "C"]
    (f,) = d.cut(cuts(B="8H", C="KD"))
    assert f.extra["partners"] == [["A", "C"], ["B", "D"]] and f.clause == "EU-13"


def test_EU_13_two_highest_equal_need_no_recut() -> None:
    (f,) = EuchreDraw().cut(cuts(A="9S", B="JH", C="7D", D="JC"))
    assert f.remedy is Remedy.FORMATION and f.clause == "EU-13"
    assert f.extra["partners"] == [["B", "D"], ["A", "C"]] and f.extra["dealer_name"] == "B"
    assert "arrived first" in f.reason


def test_EU_13_two_lowest_equal_need_no_recut() -> None:
    (f,) = EuchreDraw().cut(cuts(A="9S", B="JH", C="9D", D="AC"))
    assert f.remedy is Remedy.FORMATION and f.extra["partners"] == [["B", "D"], ["A", "C"]]


def test_EU_14_three_equal_fourth_highest() -> None:
    d = EuchreDraw()
    (r,) = d.cut(cuts(A="JS", B="9H", C="9D", D="9C"))
    assert r.clause == "EU-14" and r.extra["who"] == ["B", "C", "D"]
    (f,) = d.cut(cuts(C="KD", B="8H", D="7C"))
    # the two lowest of the new cut (B, D) are partners; their opponents (A, C) deal, A highest.
    assert f.extra["partners"] == [["A", "C"], ["B", "D"]] and f.extra["dealer_name"] == "A"
    assert f.clause == "EU-14"


def test_EU_14_three_equal_fourth_lowest() -> None:
    d = EuchreDraw()
    d.cut(cuts(A="7S", B="KH", C="KD", D="KC"))
    (f,) = d.cut(cuts(B="9H", C="AD", D="QC"))
    # the two highest of the new cut (C, D) are partners and deal; B partners A.
    assert f.extra["partners"] == [["C", "D"], ["B", "A"]] and f.extra["dealer_name"] == "C"


def test_EU_14_new_cut_ties_again_across_the_line() -> None:
    d = EuchreDraw()
    d.cut(cuts(A="JS", B="9H", C="9D", D="9C"))
    (r,) = d.cut(cuts(B="AH", C="8D", D="8C"))      # B joins A; C and D equal but both below the line
    assert r.remedy is Remedy.FORMATION and r.extra["partners"] == [["A", "B"], ["C", "D"]]
    d = EuchreDraw()
    d.cut(cuts(A="JS", B="9H", C="9D", D="9C"))
    (r,) = d.cut(cuts(B="AH", C="AD", D="8C"))      # B and C equal for the place beside A
    assert r.remedy is Remedy.CUT_AGAIN and r.extra["who"] == ["B", "C"] and r.clause == "EU-13"
    (f,) = d.cut(cuts(B="7H", C="TD"))
    assert f.extra["partners"] == [["A", "C"], ["B", "D"]]


def test_EU_14_four_equal_all_cut_again() -> None:
    d = EuchreDraw()
    (r,) = d.cut(cuts(A="JS", B="JH", C="JD", D="JC"))
    assert r.remedy is Remedy.CUT_AGAIN and r.extra["who"] == ["A", "B", "C", "D"]
    (f,) = d.cut(cuts(A="7S", B="8H", C="9D", D="TC"))
    assert f.extra["partners"] == [["D", "C"], ["B", "A"]]


@settings(max_examples=200, deadline=None)
@given(st.integers(4, 9), st.data())
def test_EU_11_euchre_draw_properties(n: int, data: st.DataObject) -> None:
    names = [f"P{i}" for i in range(n)]
    d = EuchreDraw()
    first = data.draw(st.permutations(EUCHRE_PACK).map(lambda p: p[:n]))
    history: list[list[tuple[str, Card]]] = [list(zip(names, first))]
    rulings = d.cut(history[0])
    for _ in range(12):
        if d.done:
            break
        who = rulings[0].extra["who"]
        assert sorted(who) == sorted(d.waiting_for)
        cards = data.draw(st.permutations(EUCHRE_PACK))
        history.append(list(zip(who, cards[:len(who)])))
        rulings = d.cut(history[-1])
    if not d.done:
        return
    f = rulings[0]
    assert f.remedy is Remedy.FORMATION and d.formation is f
    players = f.extra["players"]
    assert sorted(sum(f.extra["partners"], [])) == sorted(players) and len(set(players)) == 4
    assert f.extra["dealer_name"] == players[0] == f.extra["partners"][0][0]
    rank = {nm: cut_rank("euchre", c) for nm, c in history[0]}
    partner_cut = dict(history[0] if n == 4 else history[1])
    if len(history) == (1 if n == 4 else 2):       # no tie needed a re-cut: cards alone decide
        top = {cut_rank("euchre", partner_cut[p]) for p in f.extra["partners"][0]}
        low = {cut_rank("euchre", partner_cut[p]) for p in f.extra["partners"][1]}
        assert min(top) >= max(low)
        assert cut_rank("euchre", partner_cut[players[0]]) == max(top)
    if n > 4:
        assert min(rank[p] for p in players) >= max(rank[p] for p in names if p not in players)
        assert len(f.extra["next_in"]) == min(2, n - 4)
    json.dumps(f.to_dict())
    again = EuchreDraw()
    replay: list[Ruling] = []
    for round_ in history:
        replay = again.cut(round_)
    assert replay[0] == f


# -- cutting out and entry ------------------------------------------------------------------------

def _roster() -> EuchreRoster:
    return EuchreRoster(["A", "B", "C", "D"])


def test_EU_15_no_claimant_no_change() -> None:
    r = _roster()
    assert r.rubber_ended() == [] and r.consecutive == {"A": 1, "B": 1, "C": 1, "D": 1}


def test_EU_15_most_consecutive_rubbers_go_out() -> None:
    r = _roster()
    r.consecutive.update(A=3, B=2, C=2, D=1)
    r.declare("E")
    out, entry = r.rubber_ended()
    assert out.remedy is Remedy.CUT_OUT and out.clause == "EU-15"
    assert out.extra == {"out": ["A"], "in": ["E"], "players": ["E", "B", "C", "D"]}
    assert entry.remedy is Remedy.ENTRY and entry.extra["name"] == "E" and r.consecutive["E"] == 0


def test_EU_15_equal_counts_cut_and_lowest_goes_out() -> None:
    r = _roster()
    r.consecutive.update(A=2, B=1, C=1, D=1)
    r.declare("E")
    r.declare("F")
    (cut,) = r.rubber_ended()
    assert cut.remedy is Remedy.CUT_AGAIN and cut.extra["who"] == ["B", "C", "D"]
    assert cut.extra["places"] == 1 and cut.extra["out"] == ["A"]
    with pytest.raises(ValueError, match="expected cuts from"):
        r.cut(cuts(A="JS"))
    with pytest.raises(ValueError, match="same pack"):
        r.cut(cuts(B="AS", C="AS", D="KD"))
    out, *_ = r.cut(cuts(B="AS", C="7H", D="KD"))
    assert out.extra["out"] == ["A", "C"] and out.extra["in"] == ["E", "F"]
    assert r.players == ["E", "B", "F", "D"] and r.queue == []


def test_EU_16_late_declaration_refused() -> None:
    r = _roster()
    r.declare("E")
    r.rubber_ended()                       # all have played one rubber: they must cut
    (late,) = r.declare("F")
    assert late.clause == "EU-16" and late.extra["accepted"] is False
    assert [c.name for c in r.queue] == ["E"]
    (tie,) = r.cut(cuts(A="9S", B="9H", C="AD", D="KC"))
    assert tie.extra["who"] == ["A", "B"] and tie.clause == "EU-13"
    r.cut(cuts(A="QS", B="8H"))
    assert "B" not in r.players and "E" in r.players
    (ok,) = r.declare("F")
    assert ok.extra["accepted"] is True and ok.extra["position"] == 1


def test_EU_17_fresh_candidates_enter_first() -> None:
    r = EuchreRoster()
    for name, fresh in (("A", True), ("B", False), ("C", True), ("D", False), ("E", True)):
        r.declare(name, fresh=fresh)
    (cut,) = r.form_table()
    assert cut.clause == "EU-17" and cut.extra["who"] == ["B", "D"] and cut.extra["places"] == 1
    (entry,) = r.cut(cuts(B="7S", D="JH"))
    assert entry.remedy is Remedy.ENTRY and entry.extra["players"] == ["A", "C", "E", "D"]
    assert r.players == ["A", "C", "E", "D"] and [c.name for c in r.queue] == ["B"]


def test_EU_17_more_than_four_fresh_go_to_the_draw() -> None:
    r = EuchreRoster()
    for name in "ABCDE":
        r.declare(name)
    (entry,) = r.form_table()
    assert entry.extra["players"] == ["A", "B", "C", "D", "E"] and r.players == []
    d = EuchreDraw()
    d.cut(cuts(A="7S", B="QH", C="JD", D="9C", E="AS"))
    r.seat(d.players)
    assert sorted(p for p in r.players if p) == ["B", "C", "D", "E"] and [c.name for c in r.queue] == ["A"]
    with pytest.raises(ValueError, match="four players; 2 declared"):
        fresh = EuchreRoster()
        fresh.declare("X")
        fresh.declare("Y")
        fresh.form_table()


def test_EU_18_substitute_needs_consent_and_plays_that_rubber() -> None:
    r = _roster()
    (no,) = r.leave("B", substitute="S", consent=False)
    assert no.clause == "EU-18" and no.extra["accepted"] is False and r.players[1] == "B"
    (yes,) = r.leave("B", substitute="S", consent=True)
    assert yes.extra == {"name": "S", "accepted": True, "replaces": "B", "until": "end_of_rubber"}
    assert r.players == ["A", "S", "C", "D"]
    r.rubber_ended()
    assert r.players == ["A", "B", "C", "D"] and r.consecutive["B"] == 1 and r.substitutes == {}


def test_EU_19_replacement_inherits_the_count() -> None:
    r = _roster()
    r.consecutive["C"] = 1                    # C has played one of his two rubbers
    r.declare("E")
    (entry,) = r.leave("C")
    assert entry.clause == "EU-19" and entry.extra["replaces"] == "C" and entry.extra["consecutive"] == 1
    assert r.players == ["A", "B", "E", "D"]
    r.declare("F")
    out, _ = r.rubber_ended()                 # E counts two rubbers, the others one: E goes out
    assert out.extra["out"] == ["E"] and out.extra["in"] == ["F"]


def test_EU_19_empty_seat_until_someone_declares() -> None:
    r = _roster()
    r.rubber_ended()
    (att,) = r.leave("D")
    assert att.remedy is Remedy.ATTENTION and att.extra["vacant"] == "D" and r.players[3] is None
    assert r.rubber_ended() == [] and r.players[3] is None   # a rubber won meanwhile: the seat stays empty
    assert r.consecutive == {"A": 2, "B": 2, "C": 2}
    (entry,) = r.declare("E")
    assert entry.extra["seat_index"] == 3 and r.players == ["A", "B", "C", "E"] and r.consecutive["E"] == 1


def test_EU_20_cutting_into_another_table_forfeits_reentry() -> None:
    r = _roster()
    r.declare("E")
    r.forfeit_reentry("E")
    assert r.queue == []
    (no,) = r.declare("E")
    assert no.clause == "EU-20" and no.extra["accepted"] is False


def test_EU_21_broken_table_players_have_priority() -> None:
    r = _roster()
    r.declare("E")
    (pri,) = r.declare("F", fresh=False, broken_table=True)
    assert pri.clause == "EU-21" and pri.extra["position"] == 1
    assert [c.name for c in r.queue] == ["F", "E"]


def test_roster_input_checked() -> None:
    with pytest.raises(ValueError, match="four different players"):
        EuchreRoster(["A", "B", "C"])
    r = _roster()
    with pytest.raises(ValueError, match="already plays"):
        r.declare("A")
    with pytest.raises(ValueError, match="does not play"):
        r.leave("Z")
    with pytest.raises(ValueError, match="no cut is pending"):
        r.cut(cuts(A="JS"))
    with pytest.raises(ValueError, match="already plays"):
        r.leave("A", substitute="B", consent=True)
    with pytest.raises(ValueError, match="fresh table"):
        r.form_table()
    with pytest.raises(ValueError, match="already has players"):
        r.seat(["A", "B", "C", "D"])
    r.declare("E")
    with pytest.raises(ValueError, match="already declared"):
        r.declare("E")
    r.rubber_ended()
    assert r.snapshot()["cut_pending"] == ["A", "B", "C", "D"]
    with pytest.raises(ValueError, match="a cut is pending: A, B, C and D must cut first"):
        r.rubber_ended()
    with pytest.raises(ValueError, match="four different waiting candidates"):
        EuchreRoster().seat(["A", "B", "C", "D"])
    json.dumps(r.snapshot())


def test_EU_17_the_draw_at_a_new_table_lets_fresh_candidates_in_first() -> None:
    """Issue 20: at a table being formed, candidates who have played at no other table have the prior
    right of entry; the draw selects among the others only for the places left. Here Ed (fresh) cuts
    the lowest card and must still play; Bob and Di, who have played elsewhere, cut for one place."""
    from laws.engine import LawEngine
    from tests.laws.streams import E

    eng = LawEngine("euchre")
    for name, fresh in (("Ann", True), ("Bob", False), ("Cy", True), ("Di", False), ("Ed", True)):
        assert eng.feed(E("candidate", name=name, fresh=fresh))[0].extra["accepted"] is True
    (sel,) = eng.feed(E("draw", cuts=[["Ann", "JS"], ["Bob", "JH"], ["Cy", "AD"], ["Di", "KC"], ["Ed", "7C"]]))
    assert (sel.remedy, sel.clause) == (Remedy.CUT_AGAIN, "EU-17")
    assert sorted(sel.extra["players"]) == ["Ann", "Bob", "Cy", "Ed"] and sel.extra["next_in"] == ["Di"]
    assert "Ed" in sel.reason and "fresh" in sel.reason
    (form,) = eng.feed(E("draw", cuts=[["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Ed", "7C"]]))
    assert form.remedy is Remedy.FORMATION and sorted(form.extra["players"]) == ["Ann", "Bob", "Cy", "Ed"]
    roster = eng.state.game_state["roster"]
    assert sorted(p for p in roster.players if p) == ["Ann", "Bob", "Cy", "Ed"]
    assert [c.name for c in roster.queue] == ["Di"]


def test_EU_17_four_fresh_candidates_take_the_table_without_the_others() -> None:
    from laws.engine import LawEngine
    from tests.laws.streams import E

    eng = LawEngine("euchre")
    for name, fresh in (("Ann", False), ("Bob", True), ("Cy", True), ("Di", True), ("Ed", True)):
        eng.feed(E("candidate", name=name, fresh=fresh))
    (sel,) = eng.feed(E("draw", cuts=[["Ann", "JS"], ["Bob", "7H"], ["Cy", "8D"], ["Di", "9C"], ["Ed", "TC"]]))
    assert sel.clause == "EU-17" and sorted(sel.extra["players"]) == ["Bob", "Cy", "Di", "Ed"]
    assert sel.extra["next_in"] == ["Ann"]
    # without any candidate who has played elsewhere the draw is law 11's, as before
    eng = LawEngine("euchre")
    (sel,) = eng.feed(E("draw", cuts=[["Ann", "JS"], ["Bob", "7H"], ["Cy", "8D"], ["Di", "9C"], ["Ed", "TC"]]))
    assert sel.clause == "EU-11" and sorted(sel.extra["players"]) == ["Ann", "Cy", "Di", "Ed"]
