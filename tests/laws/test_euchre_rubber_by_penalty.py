"""Found by the soak: a rubber that ends on penalty points (law 90's wrong count here; a revoke, law 63,
or law 50 the same way) starts the next rubber like one ended by a hand's result. Before, the score
stayed that of the finished rubber and every later result was refused ("the rubber is over")."""

from __future__ import annotations

from laws.cards import Seat
from laws.engine import LawEngine
from laws.rulings import Remedy
from tests.laws.streams import E, euchre_known_deal


def _hands() -> dict[Seat, list[str]]:
    return {Seat.N: ["AH", "AS", "KS", "QS", "TS"], Seat.E: ["9H", "KH", "AC", "KC", "9D"],
            Seat.S: ["7H", "8S", "9S", "QC", "7C"], Seat.W: ["AD", "KD", "QD", "8D", "7D"]}


def test_EU_90_a_rubber_won_on_penalty_points_starts_the_next_one() -> None:
    eng = LawEngine("euchre")
    score = eng.state.game_state["score"]
    score.record(score_side := Seat.N.side, False, 5)  # NS: 2 points
    rubber_won = []
    for _ in range(20):  # wrong counts by East-West until North-South win the rubber on them alone
        eng.state.next_dealer = Seat.N
        events = euchre_known_deal(Seat.N, _hands(), "8H")
        eng.feed_all(events + [E("trump_made", seat="E", suit="H")])
        rulings = eng.feed(E("hand_count", seat="E", count=4))
        rubber_won += [r for r in rulings if r.remedy is Remedy.RUBBER_WON]
        if rubber_won:
            break
    assert rubber_won and rubber_won[0].side is score_side
    fresh = eng.state.game_state["score"]
    assert fresh is not score and fresh.snapshot()["games_won"] == {"NS": 0, "EW": 0}


def test_EU_4_a_rubber_won_on_penalty_points_during_a_deal_still_scores_that_hand() -> None:
    """Found by the euchre night's demo: penalty points that won the rubber during play put the table
    back to forming the next rubber at once, so the rest of the hand's cards and its result were ignored
    and the hand was never scored (the night's table waited for it for ever). The deal is played out and
    its result scored (law 4: the penalty first, then the hand); the table forms between deals."""
    eng = LawEngine("euchre")
    eng.state.game_state["score"].record(Seat.N.side, False, 5)
    for _ in range(20):
        eng.state.next_dealer = Seat.N
        eng.feed_all(euchre_known_deal(Seat.N, _hands(), "8H") + [E("trump_made", seat="E", suit="H")])
        if any(r.remedy is Remedy.RUBBER_WON for r in eng.feed(E("hand_count", seat="E", count=4))):
            break
    rulings = eng.feed(E("result", makers="EW", tricks=1))
    assert [r.remedy for r in rulings if r.remedy is Remedy.SCORE] == [Remedy.SCORE]
    assert eng.state.game_state["score"].snapshot()["score"]["NS"] == 2   # euchred: into the new rubber
