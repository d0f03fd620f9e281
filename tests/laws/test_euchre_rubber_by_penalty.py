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
