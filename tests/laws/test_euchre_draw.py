"""A euchre table and a draw entered after the shoe has dealt (docs/laws.md EU-11, docs/events.md ``draw``):
the new table does not play the old one's hand, which is set aside unscored and said so, as at a rubber
bridge table (tests/laws/test_rubber_draw.py)."""

from __future__ import annotations

import random

import pytest

from firmware_host.devices.display_text import ruling_text
from laws.cards import Seat
from laws.engine import LawEngine
from laws.events import Event
from laws.rulings import Remedy
from laws.state import Phase
from tests.laws.streams import EUCHRE_PACK, E, euchre_deal, euchre_play, prelude, shuffled

# Ann and Bob cut the two highest: Ann deals from North, Bob sits South, Cy East, Di West.
DRAW = E("draw", cuts=[["Ann", "JS"], ["Bob", "AH"], ["Cy", "9D"], ["Di", "7C"]])
# The same four cut again: Di and Cy now cut the highest, so Di deals from North, Cy sits South.
REDRAW = E("draw", cuts=[["Ann", "7S"], ["Bob", "8H"], ["Cy", "AD"], ["Di", "JC"]])
SET_ASIDE = ("Deal 1 was dealt before the table was formed, so it is set aside unscored; the cards are "
             "shuffled, cut and dealt again, by Di.")


def _hand(seed: int) -> tuple[list[Event], list[Event]]:
    """North's deal (the prelude, the cards, the trump card turned), then its play: East orders it up."""
    deal, hands, turned = euchre_deal(Seat.N, shuffled(EUCHRE_PACK, random.Random(seed)))
    play, _ = euchre_play(hands, Seat.N, turned.suit, turned, Seat.E, False, random.Random(seed))
    return prelude(Seat.N) + deal, play


def _dealt_then(n_played: int, *more: Event) -> tuple[LawEngine, list[Event]]:
    """A table formed, deal 1 dealt by North (Ann), the first ``n_played`` events of its play, then
    ``more``; also the rest of its play."""
    eng = LawEngine("euchre")
    eng.feed(E("packs", owners={"NS": "red", "EW": "blue"}))
    eng.feed(DRAW)
    deal, play = _hand(1)
    for e in (*deal, *play[:n_played], *more):
        eng.feed(e)
    return eng, play[n_played:]


@pytest.mark.parametrize("n_played", [0, 1, 3], ids=["trump not yet made", "trump made", "in the play"])
def test_a_draw_after_the_deal_sets_the_dealt_hand_aside_and_says_so(n_played: int) -> None:
    """The draw formed the table and the dealt hand vanished with no word: the deal was not marked void,
    and the old hand's trump and cards were then dropped unexplained."""
    eng, rest = _dealt_then(n_played)
    [formed] = eng.feed(REDRAW)
    assert formed.remedy is Remedy.FORMATION and formed.clause == "EU-11"
    assert formed.extra["deal_set_aside"] == 1 and formed.extra["dealer_name"] == "Di"
    assert formed.reason.endswith(SET_ASIDE)
    assert ruling_text(formed).endswith(SET_ASIDE)                       # what the display shows
    d = eng.state.deal
    assert d is not None and d.void and eng.state.phase is Phase.SHUFFLE
    ignored = eng.ignored
    assert eng.feed(rest[0]) == [] and eng.ignored == ignored + 1        # the old hand's next fact: not taken
    # a revoke alleged in the old hand is told the deal was set aside, and under which law
    [told] = eng.feed(E("demand", seat="E", what="revoke"))
    assert "set aside by the ruling under Euchre, law" in told.reason
    # the new table's first deal, by Di (North), is dealt, played and scored as usual
    deal, play = _hand(2)
    for e in (*deal, *play):
        eng.feed(e)
    rulings = eng.feed(E("result", tricks=3, makers="EW"))
    assert eng.state.deal is not None and eng.state.deal.number == 2
    assert [r.remedy for r in rulings][-1] in (Remedy.SCORE, Remedy.GAME_WON)


def test_a_draw_while_the_result_is_awaited_sets_the_hand_aside() -> None:
    eng, rest = _dealt_then(100)                                         # played to the end; no result yet
    assert not rest and eng.state.phase is Phase.SCORING
    [formed] = eng.feed(REDRAW)
    assert formed.extra["deal_set_aside"] == 1 and formed.reason.endswith(SET_ASIDE)
    assert eng.feed(E("result", tricks=3, makers="EW")) == []           # its result: not scored


def test_a_draw_after_the_hand_is_over_sets_nothing_aside() -> None:
    """A hand scored, or dead (all four passed twice, law 77), is over: the draw says nothing of it."""
    scored, _ = _dealt_then(100, E("result", tricks=3, makers="EW"))
    dead = LawEngine("euchre")
    dead.feed(E("packs", owners={"NS": "red", "EW": "blue"}))
    dead.feed(DRAW)
    deal, _ = _hand(1)
    for e in (*deal, *[E("bid", seat=s, call="pass") for s in "ESWN" * 2]):
        dead.feed(e)
    assert dead.state.deal is not None and dead.state.deal.void_by == "Euchre, law 77"
    for eng in (scored, dead):
        formed = eng.feed(REDRAW)[-1]
        assert formed.remedy is Remedy.FORMATION and "deal_set_aside" not in formed.extra
        assert "set aside" not in formed.reason
    assert scored.state.deal is not None and not scored.state.deal.void


def test_a_draw_before_any_deal_sets_nothing_aside() -> None:
    eng = LawEngine("euchre")
    [formed] = eng.feed(DRAW)
    assert "deal_set_aside" not in formed.extra and "set aside" not in formed.reason


UNFINISHED = ("The table drew again before the rubber was won: North-South (Ann and Bob) had 2 points in game 1; "
              "East-West (Cy and Di) had no points in game 1. An unfinished rubber scores nothing, so nobody "
              "wins it or scores for it, and the new partnerships start from 0.")


def test_a_draw_mid_rubber_ends_it_unfinished_and_the_new_partnerships_start_from_0() -> None:
    """Ann and Bob (North-South) scored 2; a new draw seated Di and Cy North-South, and they had the 2."""
    eng = LawEngine("euchre")
    eng.feed(E("packs", owners={"NS": "red", "EW": "blue"}))
    eng.feed(DRAW)
    deal, play = _hand(2)                                                # East orders up and is euchred
    for e in (*deal, *play):
        eng.feed(e)
    [scored] = eng.feed(E("result", tricks=0, makers="EW"))
    assert scored.extra["score"] == {"NS": 2, "EW": 0}
    closed, formed = eng.feed(REDRAW)
    assert closed.remedy is Remedy.RUBBER_WON and closed.clause == "EU-7" and closed.extra["unfinished"]
    assert closed.side is None and closed.extra["winner"] is None and closed.extra["points"] == 0
    assert closed.extra["totals"] == {"NS": 0, "EW": 0} and closed.extra["score"] == {"NS": 2, "EW": 0}
    assert closed.extra["players"] == {"NS": ["Ann", "Bob"], "EW": ["Cy", "Di"]}
    assert closed.reason == UNFINISHED and ruling_text(closed).endswith(UNFINISHED)
    assert formed.remedy is Remedy.FORMATION and formed.extra["sides"]["NS"] == ["Di", "Cy"]
    assert eng.state.game_state["score"].snapshot()["score"] == {"NS": 0, "EW": 0}
    # Di's first deal is scored from 0 for the new partnerships
    deal, play = _hand(3)
    for e in (*deal, *play):
        eng.feed(e)
    [scored] = [r for r in eng.feed(E("result", tricks=3, makers="EW")) if r.remedy is Remedy.SCORE]
    assert sum(scored.extra["score"].values()) == scored.extra["points"]
    # a draw straight after it closes that rubber, not the one the first draw ended
    closed, _ = eng.feed(DRAW)
    assert closed.extra["players"] == {"NS": ["Di", "Cy"], "EW": ["Bob", "Ann"]}


def test_a_draw_mid_hand_with_nothing_scored_closes_no_rubber() -> None:
    """A hand set aside by the draw scores nothing, so the rubber it was the first hand of had not begun."""
    eng, _ = _dealt_then(3)
    assert [r.remedy for r in eng.feed(REDRAW)] == [Remedy.FORMATION]
