"""A euchre table's seat names follow its roster (docs/events.md, "The roster"; laws 15-19): a substitute
sits in the leaver's seat by his own name, so every ruling that names the seat names him, and the absent
player has it back when the rubber ends (law 18). A rubber won names who played it."""

from __future__ import annotations

from laws.cards import Seat, Side
from laws.engine import LawEngine
from laws.formation import EuchreRoster
from laws.rulings import Remedy
from tests.laws.streams import E, euchre_known_deal

# Ann deals from North, Bob sits South, Cy East, Di West.
DRAW = E("draw", cuts=[["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "7C"]])


def _table() -> LawEngine:
    eng = LawEngine("euchre")
    eng.feed(E("packs", owners={"NS": "red", "EW": "blue"}))
    eng.feed(DRAW)
    return eng


def _names(eng: LawEngine) -> dict[str, str]:
    return {seat.value: name for seat, name in eng.state.players.items()}


def test_a_substitute_is_named_at_the_seat_he_sits_in() -> None:
    """After Ed sat in for Cy (law 18) the roster said Ed and the seat still said Cy, so a ruling about
    East named Cy, who had gone."""
    eng = _table()
    [entry] = eng.feed(E("leave", name="Cy", substitute="Ed", consent=True))
    assert entry.remedy is Remedy.ENTRY and entry.clause == "EU-18" and entry.seat is Seat.E
    assert _names(eng) == {"N": "Ann", "S": "Bob", "E": "Ed", "W": "Di"}
    eng.feed(E("shuffle", seat="E"))
    [twice] = eng.feed(E("shuffle", seat="E"))
    assert twice.reason.startswith("East (Ed) shuffled a second time")
    # a second substitute, for Ed, takes the same seat; a refused one changes nothing
    [refused] = eng.feed(E("leave", name="Ed", substitute="Fay"))
    assert refused.seat is None and _names(eng)["E"] == "Ed"
    [entry] = eng.feed(E("leave", name="Ed", substitute="Fay", consent=True))
    assert entry.seat is Seat.E and _names(eng)["E"] == "Fay"


def test_a_seat_left_empty_loses_its_name_until_a_candidate_takes_it() -> None:
    eng = _table()
    [vacant] = eng.feed(E("leave", name="Di"))                          # nobody waits (law 19)
    assert vacant.extra["vacant"] == "Di" and _names(eng) == {"N": "Ann", "S": "Bob", "E": "Cy"}
    [entry] = eng.feed(E("candidate", name="Gus"))
    assert entry.clause == "EU-19" and entry.seat is Seat.W and _names(eng)["W"] == "Gus"
    eng.feed(E("candidate", name="Hal"))                                 # waits in the queue
    [entry] = eng.feed(E("leave", name="Bob"))                          # Hal takes Bob's seat
    assert entry.extra["name"] == "Hal" and entry.seat is Seat.S and _names(eng)["S"] == "Hal"


def _hands() -> dict[Seat, list[str]]:
    return {Seat.N: ["AH", "AS", "KS", "QS", "TS"], Seat.E: ["9H", "KH", "AC", "KC", "9D"],
            Seat.S: ["7H", "8S", "9S", "QC", "7C"], Seat.W: ["AD", "KD", "QD", "8D", "7D"]}


def test_the_rubber_won_names_its_players_and_the_absent_player_comes_back() -> None:
    """North-South two games up and 3 points into game 3, Ed sitting in for Cy: East's wrong count
    (law 90) gives North-South the 2 that win the rubber."""
    eng = _table()
    score = eng.state.game_state["score"]
    for hand in [(True, 5), (False, 3)] * 2 + [(False, 3)] * 3:        # two double games, then 3 points
        score.record(Side.NS, *hand)
    eng.feed(E("leave", name="Cy", substitute="Ed", consent=True))
    eng.feed_all(euchre_known_deal(Seat.N, _hands(), "8H") + [E("trump_made", seat="E", suit="H")])
    [won] = [r for r in eng.feed(E("hand_count", seat="E", count=4)) if r.remedy is Remedy.RUBBER_WON]
    assert won.side is Side.NS and won.extra["players"] == {"NS": ["Ann", "Bob"], "EW": ["Ed", "Di"]}
    assert won.reason == ("North-South (Ann and Bob) won the rubber with 3 of 3 games and add 2, for rubber "
                          "points North-South 8, East-West 0.")
    assert _names(eng)["E"] == "Cy"                                      # law 18: back for the next rubber


def _roster(eng: LawEngine) -> EuchreRoster:
    return eng.state.game_state["roster"]


def test_a_waiting_candidate_who_sits_in_is_seated_once_and_keeps_his_place() -> None:
    """Ed waited to enter and sat in for Cy (law 18); when Di then left, Ed, still first in the queue, was
    given Di's seat as well (law 19), so he sat East and West at once. He sits in one seat; Di's stays
    empty (nobody else waits), and Ed keeps his place in the queue for the end of the rubber."""
    eng = LawEngine("euchre")
    eng.feed(E("packs", owners={"NS": "red", "EW": "blue"}))
    eng.feed(E("candidate", name="Ed"))
    eng.feed(DRAW)
    eng.feed(E("leave", name="Cy", substitute="Ed", consent=True))
    [left] = eng.feed(E("leave", name="Di"))
    assert left.remedy is Remedy.ATTENTION and left.clause == "EU-19" and left.extra["vacant"] == "Di"
    assert _names(eng) == {"N": "Ann", "S": "Bob", "E": "Ed"}
    assert [c.name for c in _roster(eng).queue] == ["Ed"]


def test_the_absent_player_does_not_declare_as_a_candidate() -> None:
    """Cy, whose seat Ed keeps until the rubber ends, declared and was queued: at the end of the rubber he
    had his seat back and was also the candidate the others cut to let in."""
    eng = _table()
    eng.feed(E("leave", name="Cy", substitute="Ed", consent=True))
    try:
        eng.feed(E("candidate", name="Cy"))
    except ValueError as err:
        assert str(err) == ("'Cy' has a seat at this table (Ed keeps it for him until the rubber ends, law 18), "
                            "so he does not declare as a candidate")
    else:
        raise AssertionError("the absent player was taken as a candidate")
    assert _roster(eng).queue == []


def test_a_substitute_who_leaves_keeps_the_seat_for_the_absent_player() -> None:
    """Ed, sitting in for Cy, left: the ruling said 'Cy left' and Cy lost his seat for good. The seat is
    kept for Cy (law 18): empty until a candidate declares, who sits in for Cy, and Cy's at the end of
    the rubber; one waiting sits in at once."""
    eng = _table()
    eng.feed(E("leave", name="Cy", substitute="Ed", consent=True))
    [left] = eng.feed(E("leave", name="Ed"))
    assert left.clause == "EU-18" and left.extra == {"vacant": "Ed", "absent": "Cy"}
    assert left.reason == ("Ed, who sat in for Cy, left and nobody is waiting, so the seat stays empty until a "
                           "candidate declares; Cy has it back when the rubber ends.")
    [entry] = eng.feed(E("candidate", name="Gus"))
    assert entry.clause == "EU-18" and entry.seat is Seat.E and entry.extra["replaces"] == "Cy"
    assert _names(eng)["E"] == "Gus" and [c.name for c in _roster(eng).queue] == ["Gus"]
    eng.feed(E("candidate", name="Hal"))
    [entry] = eng.feed(E("leave", name="Gus"))                           # Hal, waiting, sits in at once
    assert entry.clause == "EU-18" and entry.seat is Seat.E and entry.extra["name"] == "Hal"
    assert entry.reason == ("Gus, who sat in for Cy, left; Hal, the first waiting, sits in for Cy until the end "
                            "of this rubber and keeps his place in the queue.")
    [back] = eng.feed(E("leave", name="Hal", substitute="Cy", consent=True))
    assert back.reason == "Cy takes his seat back from Hal." and _names(eng)["E"] == "Cy"
    assert _roster(eng).substitutes == {}


def test_a_rubber_won_with_a_seat_left_empty_is_scored() -> None:
    """Di left for good with nobody waiting (law 19) and the rubber was won: replay stopped on the
    winning line, 'the table is not full'. The rubber is scored; the empty seat stays empty."""
    eng = _table()
    score = eng.state.game_state["score"]
    for hand in [(True, 5), (False, 3)] * 2 + [(False, 3)] * 3:
        score.record(Side.NS, *hand)
    eng.feed(E("leave", name="Di"))
    eng.feed_all(euchre_known_deal(Seat.N, _hands(), "8H") + [E("trump_made", seat="E", suit="H")])
    [won] = [r for r in eng.feed(E("hand_count", seat="E", count=4)) if r.remedy is Remedy.RUBBER_WON]
    assert won.extra["players"] == {"NS": ["Ann", "Bob"], "EW": ["Cy"]}
    assert _names(eng) == {"N": "Ann", "S": "Bob", "E": "Cy"}


def test_a_draw_with_a_newcomer_makes_him_a_player_of_the_roster() -> None:
    """Di went and the table drew again with Ed: the seats said Ed, the roster still Di, so Ed's leave was
    refused ('Ed' does not play at this table) and Di's return as a candidate too ('Di' already plays)."""
    eng = LawEngine("euchre")
    eng.feed(E("packs", owners={"NS": "red", "EW": "blue"}))
    eng.feed(E("candidate", name="Ed"))
    eng.feed(DRAW)
    eng.feed(E("draw", cuts=[["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Ed", "7C"]]))
    assert _names(eng) == {"N": "Ann", "S": "Bob", "E": "Cy", "W": "Ed"}
    roster = _roster(eng)
    assert sorted(p for p in roster.players if p) == ["Ann", "Bob", "Cy", "Ed"] and roster.queue == []
    [entry] = eng.feed(E("candidate", name="Di"))
    assert entry.clause == "EU-16" and entry.extra["position"] == 1
    [entry] = eng.feed(E("leave", name="Ed"))                           # Di, waiting, takes West
    assert entry.clause == "EU-19" and entry.seat is Seat.W and _names(eng)["W"] == "Di"
