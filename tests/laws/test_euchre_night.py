"""A euchre night's formats, scoring and standings (laws/euchre_night), proved by their properties and
worked examples (docs/scoring.md and docs/movements.md, "Euchre nights")."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest

from laws.cards import Seat, Side
from laws.euchre_night import formats, scoring, standings
from laws.euchre_night.scoring import Hand, Rules, Scoring


@pytest.mark.parametrize("players", [8, 12, 16, 20, 24, 9, 13, 17])
def test_rotating_partners_everyone_partners_everyone_once(players: int) -> None:
    rounds = formats.rotating(players)
    counts = formats.partner_counts(rounds)
    assert set(counts.values()) == {1} and len(counts) == players * (players - 1) // 2
    assert all(formats.check_round(r, players) == [] for r in rounds)


@pytest.mark.parametrize("players", [6, 7, 10, 11, 14, 15, 18, 19, 22, 23, 27, 31, 43, 79])
def test_rotating_partners_when_the_numbers_do_not_allow_it_exactly(players: int) -> None:
    rounds = formats.rotating(players)
    counts = formats.partner_counts(rounds)
    assert set(counts.values()) == {1}                       # nobody partners anyone twice
    # as docs/euchre.md says: a partnership sits out each round, with the odd player when n is odd
    assert {len(r.out) for r in rounds} == {2 if players % 2 == 0 else 3}
    assert len(counts) == players * (players - 1) // 2 - len(rounds)
    outs = Counter(p for r in rounds for p in r.out)
    assert max(outs.values()) - min(outs.get(p, 0) for p in range(1, players + 1)) <= 2
    assert all(formats.check_round(r, players) == [] for r in rounds)


def test_the_check_can_fail() -> None:
    bad = formats.Round(1, ((1, 2, 3, 4), (5, 6, 7, 1)))
    assert formats.check_round(bad, 8) != []


def test_progressive_winners_move_up_and_partners_split() -> None:
    # docs/movements.md: 12 players; NS win at tables 1 and 3, EW at table 2.
    r1 = formats.progressive_first(12)
    r2 = formats.progressive_next(r1, {1: True, 2: False, 3: True})
    assert r2.tables == ((1, 7, 2, 8), (5, 9, 6, 10), (11, 3, 12, 4))
    partners_before = formats.partner_counts([r1])
    for pair in formats.partner_counts([r2]):
        assert pair not in partners_before                   # every partnership is new
    assert formats.check_round(r2, 12) == []


def test_progressive_sit_outs_come_in_at_the_foot() -> None:
    r = formats.progressive_first(10)
    assert r.tables == ((1, 2, 3, 4), (5, 6, 7, 8)) and r.out == (9, 10)
    r2 = formats.progressive_next(r, {1: True, 2: True}, Counter(r.out))    # docs/movements.md's example
    assert r2.tables == ((1, 5, 2, 6), (9, 3, 10, 4)) and r2.out == (7, 8)
    sat: Counter[int] = Counter(r.out)
    seen = [r]
    for _ in range(7):
        r = formats.progressive_next(r, {1: True, 2: False}, sat)
        assert formats.check_round(r, 10) == []
        sat.update(r.out)
        seen.append(r)
    assert 9 in seen[1].tables[-1] and 10 in seen[1].tables[-1]     # the sit-outs play next, at the foot
    assert all(not set(a.out) & set(b.out) for a, b in zip(seen, seen[1:]))   # nobody sits out twice running
    assert max(sat.values()) - min(sat.get(p, 0) for p in range(1, 11)) <= 2


def test_progressive_refuses_what_it_cannot_seat() -> None:
    with pytest.raises(formats.FormatError, match="a euchre night needs at least 4 players, got 3"):
        formats.progressive_first(3)
    with pytest.raises(formats.FormatError, match="no winner given for table 2"):
        formats.progressive_next(formats.progressive_first(8), {1: True})


@pytest.mark.parametrize("alone, tricks, expect", [
    (None, 5, {Seat.N: 2, Seat.S: 2}), (None, 3, {Seat.N: 1, Seat.S: 1}), (None, 2, {Seat.E: 2, Seat.W: 2}),
    (Seat.N, 5, {Seat.N: 4, Seat.S: 4}), (Seat.N, 4, {Seat.N: 1, Seat.S: 1}), (Seat.N, 1, {Seat.E: 4, Seat.W: 4}),
])
def test_somerset_points(alone: Seat | None, tricks: int, expect: dict[Seat, int]) -> None:
    got = scoring.seat_points(Hand(Side.NS, alone, tricks))
    assert {s: p for s, p in got.items() if p} == expect


def test_house_rules_for_a_loner() -> None:
    five = Rules(Scoring.HOUSE, loner=5, loner_partner=0)
    assert scoring.seat_points(Hand(Side.EW, Seat.W, 5), five) == {Seat.N: 0, Seat.S: 0, Seat.E: 0, Seat.W: 5}
    same = Rules(Scoring.HOUSE, loner=5)
    assert scoring.seat_points(Hand(Side.EW, Seat.W, 5), same)[Seat.E] == 5
    with pytest.raises(scoring.HandError, match="4 or 5"):
        Rules(Scoring.HOUSE, loner=6)
    with pytest.raises(scoring.HandError, match="4 or 5"):     # docs/euchre.md's --loner 4|5 (taken before)
        Rules(Scoring.SOMERSET, loner=6)


def test_a_renege_scores_the_law_penalty_to_the_other_side_and_the_hand_as_it_fell() -> None:
    # law 63: 3 (5 in a lone hand) to the other side, per renege; law 4: then the hand's own points
    renege = scoring.Penalty("EU-63", Side.NS, 3)
    got = scoring.seat_points(Hand(Side.NS, None, 5, (renege,)))
    assert got == {Seat.N: 2, Seat.S: 2, Seat.E: 3, Seat.W: 3}
    lone = scoring.Penalty("EU-63", Side.NS, 5)
    assert scoring.seat_points(Hand(Side.NS, Seat.S, 5, (lone,)))[Seat.W] == 5
    two = scoring.seat_points(Hand(Side.NS, None, 1, (scoring.Penalty("EU-63", Side.EW, 3),) * 2))
    assert two[Seat.N] == 6 and two[Seat.E] == 2
    with pytest.raises(scoring.HandError, match="EU-63 gives 3 or 5"):
        scoring.Penalty("EU-63", Side.NS, 4)


def test_a_wrong_count_voids_the_offending_side_and_lone_abandoned_voids_both() -> None:
    count = scoring.Penalty("EU-90", Side.NS, 2)
    got = scoring.seat_points(Hand(Side.NS, None, 4, (count,), frozenset({Side.NS})))
    assert got == {Seat.N: 0, Seat.S: 0, Seat.E: 2, Seat.W: 2}
    gone = scoring.Penalty("EU-50", Side.EW, 5)
    got = scoring.seat_points(Hand(Side.NS, Seat.N, 5, (gone,), frozenset({Side.NS, Side.EW})))
    assert got == {Seat.N: 5, Seat.S: 5, Seat.E: 0, Seat.W: 0}


def test_bad_hands_are_refused() -> None:
    with pytest.raises(scoring.HandError, match="0 to 5"):
        Hand(Side.NS, None, 6)
    with pytest.raises(scoring.HandError, match="not one of the makers"):
        Hand(Side.NS, Seat.E, 5)


def test_standings_worked_example() -> None:
    # 8 players rotating, round 1: table 1 (1-8 v 2-7) NS march; table 2 (3-6 v 4-5) EW euchre NS alone.
    rounds = formats.rotating(8)[:1]
    hands = [standings.HandPlayed(1, 1, Hand(Side.NS, None, 5)),
             standings.HandPlayed(1, 2, Hand(Side.NS, Seat.N, 2))]
    table = standings.standings(8, rounds, hands)
    by = {s.player: s for s in table}
    assert (by[4].points, by[5].points, by[1].points, by[8].points, by[3].points) == (4, 4, 2, 2, 0)
    assert [s.place for s in table][:4] == ["1=", "1=", "3=", "3="]
    assert by[1].hands_won == 1 and by[3].hands_won == 0 and by[1].rounds == 1


def test_a_sit_out_gets_the_rounds_mean() -> None:
    rounds = formats.rotating(9)[:1]                 # 9 players: player 1 sits out round 1
    assert rounds[0].out == (1,)
    hands = [standings.HandPlayed(1, 1, Hand(Side.NS, None, 5)), standings.HandPlayed(1, 2, Hand(Side.EW, None, 3))]
    by = {s.player: s for s in standings.standings(9, rounds, hands)}
    assert by[1].points == Fraction(2 * 2 + 1 * 2, 8) and by[1].rounds == 0


def test_docs_worked_example_a_renege() -> None:
    # docs/scoring.md 14: NS make it with three tricks, North reneged (law 63): N, S 1 each; E, W 3 each
    got = scoring.seat_points(Hand(Side.NS, None, 3, (scoring.Penalty("EU-63", Side.NS, 3),)))
    assert got == {Seat.N: 1, Seat.S: 1, Seat.E: 3, Seat.W: 3}
