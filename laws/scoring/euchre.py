"""Euchre scoring: points per hand, games, laps and the rubber (Somerset Club laws 1-7, 62-71, 90).

How the laws are read here (our interpretation, stated once):

* Points (laws 2-3). Makers who take all five tricks (a march) score 2, or 4 playing alone; three or
  four tricks score 1 either way; fewer than three and they are euchred: the opponents score 2, or 4 when
  the euchred makers played alone (as ``docs/laws.md`` paraphrases law 3).
* Games (law 7). A game is won by the first side to reach 5 points. It counts 2 (a double game) when
  the losers have no point in it, else 1. Points beyond 5 (a lap) start the winner's score in the next
  game; the losers start it at 0.
* The rubber (laws 1 and 7). Best of three games decides who wins the rubber: after three games one
  side has won at least two. The third game is played even when one side won the first two, and its
  game points count. If the third game ends with a lap, a fourth game is played, starting from that lap;
  its game points count too, but a lap at the end of the fourth game is not carried anywhere (the
  rubber is over). The rubber winner adds 2. A side's rubber points are its game values plus those 2.
  So the rubber winner never has fewer rubber points than the losers, and nobody can score more than
  10 (four double games and the rubber), as law 7 says.
* Revoke (laws 4, 62-71). The penalty is 3 points, 5 when a lone hand is played (by either side). We
  read it as points added to the non-offending side's score, and law 4 as: the penalty is scored
  before the hand's own points (call :meth:`EuchreRubber.revoke` before :meth:`EuchreRubber.record`).
  A penalty can win a game, with a lap like any other points.
* Corrections (law 5). The last hand can be scored again with corrected facts until the next trump
  card is turned (:meth:`EuchreRubber.correct_last`, closed by :meth:`EuchreRubber.trump_turned`).
  Equal revokes on both sides cancel (laws 62-71): the caller then simply scores no penalty.
* Wrong count in play (law 90). The deal holds; "forfeits 2 (4 in a lone hand)" is read the same way
  as the revoke penalty: the opponents add 2 (4 when the hand was played alone), so no score ever goes
  below zero. The offending side scores nothing on that hand: the next :meth:`EuchreRubber.record`
  gives it no points (see :meth:`EuchreRubber.void_hand_for`).
* Whose score it is. A rubber's score belongs to the players who earned it, not to their seats: the
  ``rubber_won`` names each side's players where the table knows them (``players``). A new draw while a
  rubber is under way (laws 8-14 form a new table, whose partnerships may differ) ends it unfinished
  (:meth:`EuchreRubber.unfinished`): the Somerset laws score a rubber only when it is won (laws 1, 7) and
  give nothing for one left unfinished, so nobody wins it and nobody scores for it, and the new
  partnerships start a rubber of their own from 0.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laws.cards import Side
from laws.rulings import Remedy, Ruling

GAME = 5
RUBBER_BONUS = 2
SIDE_NAMES = {Side.NS: "North-South", Side.EW: "East-West"}
_POINTS_WORD = {1: "1 point"}
Players = Mapping[Side, Sequence[str]]


def _law(n: int) -> tuple[str, str]:
    return f"Euchre, law {n}", f"EU-{n}"


def _pts(n: int) -> str:
    return _POINTS_WORD.get(n, f"{n} points")


def hand_points(alone: bool, tricks: int) -> tuple[bool, int]:
    """Who scores what on one hand (laws 2-3).

    Args:
        alone: the hand was played alone by one of the makers.
        tricks: tricks won by the makers, 0 to 5.

    Returns:
        ``(makers_score, points)``: True when the makers score, False when the opponents do.
    """
    if tricks == 5:
        return True, 4 if alone else 2
    if tricks >= 3:
        return True, 1
    return False, 4 if alone else 2


@dataclass(frozen=True)
class GameResult:
    """A finished game of the rubber."""

    number: int
    winner: Side
    value: int
    loser_points: int
    lap: int

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.number, "winner": self.winner.value, "value": self.value,
                "loser_points": self.loser_points, "lap": self.lap}


def _per_side(values: dict[Side, int]) -> dict[str, int]:
    return {side.value: values.get(side, 0) for side in Side}


def _named(players: Players | None) -> dict[Side, list[str]]:
    """Each side's players where known (a side with none is left out), North-South first."""
    return {side: [str(n) for n in players[side]] for side in Side if players and players.get(side)}


def _side_words(side: Side, named: Mapping[Side, Sequence[str]]) -> str:
    """``North-South (Ann and Bob)``, or ``North-South`` where the players are not known."""
    names = named.get(side)
    return f"{SIDE_NAMES[side]} ({' and '.join(names)})" if names else SIDE_NAMES[side]


def _games_word(n: int) -> str:
    return "no game" if n == 0 else "1 game" if n == 1 else f"{n} games"


class EuchreRubber:
    """The score of one euchre rubber, fed hands and penalties one at a time."""

    def __init__(self) -> None:
        self.points: dict[Side, int] = {Side.NS: 0, Side.EW: 0}
        self.game = 1
        self.results: list[GameResult] = []
        self.hands = 0
        self.over = False
        self.winner: Side | None = None
        self._void: set[Side] = set()
        self._void_law = 90           # the law that voided the next hand's points (90, or 50)
        self._before_last: dict[str, Any] | None = None

    # -- state -------------------------------------------------------------------------------------

    def games_won(self) -> dict[Side, int]:
        """How many games each side has won so far."""
        out = {Side.NS: 0, Side.EW: 0}
        for r in self.results:
            out[r.winner] += 1
        return out

    def rubber_points(self) -> dict[Side, int]:
        """Game values won so far, plus the 2 for the rubber once it is over (law 7)."""
        out = {Side.NS: 0, Side.EW: 0}
        for r in self.results:
            out[r.winner] += r.value
        if self.winner is not None:
            out[self.winner] += RUBBER_BONUS
        return out

    @property
    def started(self) -> bool:
        """A hand or a penalty has been scored in this rubber (it is under way, or over)."""
        return self.hands > 0 or bool(self.results) or any(self.points.values())

    def void_hand_for(self, side: Side) -> None:
        """Make the next :meth:`record` give ``side`` no points (law 90: it scores nothing that hand)."""
        self._void.add(side)

    def snapshot(self) -> dict[str, Any]:
        """The score for display (JSON-ready)."""
        return {
            "hands": self.hands, "game": self.game, "over": self.over,
            "score": _per_side(self.points), "games_won": _per_side(self.games_won()),
            "games": [r.to_dict() for r in self.results],
            "rubber_points": _per_side(self.rubber_points()),
            "winner": None if self.winner is None else self.winner.value,
            "void": sorted(s.value for s in self._void),
        }

    def _state(self) -> dict[str, Any]:
        return {"points": dict(self.points), "game": self.game, "results": list(self.results),
                "hands": self.hands, "over": self.over, "winner": self.winner, "void": set(self._void)}

    def trump_turned(self) -> None:
        """Tell the score that the next trump card is turned: the last hand can no longer be
        corrected (law 5)."""
        self._before_last = None

    def correct_last(self, makers: Side, alone: bool, tricks: int,
                     players: Players | None = None) -> list[Ruling]:
        """Re-score the last hand with corrected facts (law 5: allowed until the next trump is turned).

        Penalties scored before that hand stand. Returns a ``score`` ruling under law 5 announcing the
        correction (``extra["corrected"]`` holds the points that were undone), then what
        :meth:`record` returns for the corrected hand.

        Raises:
            ValueError: nothing to correct, or the next trump card has been turned.
        """
        before = self._before_last
        if before is None:
            raise ValueError("the score can no longer be corrected: no hand recorded since the last "
                             "trump card was turned (law 5)")
        self.points, self.game = before["points"], before["game"]
        self.results, self.hands = before["results"], before["hands"]
        self.over, self.winner, self._void = before["over"], before["winner"], before["void"]
        self._before_last = None
        law, clause = _law(5)
        note = Ruling(Remedy.SCORE, law, clause, "The last hand is scored again with corrected facts, "
                      "before the next trump card was turned.", side=makers,
                      extra={"corrected": True, "score": _per_side(self.points), "game": self.game})
        return [note, *self.record(makers, alone, tricks, players=players)]

    def _check_open(self) -> None:
        if self.over:
            raise ValueError("the rubber is over; start a new EuchreRubber for the next rubber")

    # -- hands and penalties -----------------------------------------------------------------------

    def record(self, makers: Side, alone: bool, tricks: int, players: Players | None = None) -> list[Ruling]:
        """Score one hand (laws 2-3), then any game or rubber it completes (laws 1, 7).

        Args:
            makers: the side that made the trump.
            alone: one of the makers played alone.
            tricks: tricks won by the makers, 0 to 5.
            players: who plays for each side, where the table knows it: a ``rubber_won`` this hand
                brings names them (``extra["players"]``, side -> names), as the rubber's score is theirs
                and the next draw may seat them elsewhere. The penalties take it too.

        Returns:
            A ``score`` ruling, then ``game_won`` and ``rubber_won`` rulings as they follow.

        Raises:
            ValueError: the rubber is over or ``tricks`` is out of range.
        """
        self._check_open()
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 5:
            raise ValueError(f"euchre tricks must be a whole number 0 to 5, got {tricks!r}")
        self._before_last = self._state()
        self.hands += 1
        makers_score, points = hand_points(alone, tricks)
        scorer = makers if makers_score else makers.other
        voided = scorer in self._void
        void_law, self._void_law = self._void_law, 90
        self._void = set()
        if voided:
            points = 0
        law, clause = _law(3 if alone else 2)
        outcome = "march" if tricks == 5 else "made" if makers_score else "euchred"
        who = SIDE_NAMES[makers] + (" alone" if alone else "")
        if outcome == "march":
            head = f"{who} took all five tricks"
        elif outcome == "made":
            head = f"{who} took {tricks} tricks"
        else:
            head = f"{who} took {tricks} trick{'' if tricks == 1 else 's'} and were euchred"
        if voided and void_law == 50:
            law, clause = _law(50)
            tail = "nobody scores more on this hand: the lone hand was already scored under law 50"
        elif voided:
            law, clause = _law(90)
            tail = f"{SIDE_NAMES[scorer]} score nothing on this hand because of the wrong count"
        else:
            tail = f"{SIDE_NAMES[scorer]} score {_pts(points)}"
        extra: dict[str, Any] = {"makers": makers.value, "alone": alone, "tricks": tricks,
                                 "outcome": outcome, "scored_by": scorer.value, "points": points,
                                 "voided": voided, "game": self.game}
        rulings = self._add(scorer, points, players)
        extra["score"] = _per_side(self._score_before_reset(rulings))
        score = Ruling(Remedy.SCORE, law, clause, f"{head}, so {tail}.", side=scorer, extra=extra)
        return [score, *rulings]

    def revoke(self, offending: Side, against_lone: bool, players: Players | None = None) -> list[Ruling]:
        """Score a revoke penalty (laws 62-71), before the hand's own points (law 4).

        Args:
            offending: the side that revoked.
            against_lone: a lone hand was being played (law 63: five points whichever side revoked).

        Returns:
            A ``penalty`` ruling (``side`` is the offending side; ``extra["scored_by"]`` gains the
            points), then ``game_won``/``rubber_won`` if the penalty completes a game.
        """
        self._check_open()
        points = 5 if against_lone else 3
        law, clause = _law(63)
        against = " in a lone hand" if against_lone else ""
        reason = (f"A revoke by {SIDE_NAMES[offending]}{against} was established, so "
                  f"{SIDE_NAMES[offending.other]} add {_pts(points)}, scored before the hand itself.")
        return self._penalty(offending, points, law, clause, reason, {"against_lone": against_lone}, players)

    def wrong_count(self, offending: Side, lone: bool, players: Players | None = None) -> list[Ruling]:
        """Apply law 90: a hand with more or fewer than five cards found during play.

        The deal holds; the opponents add 2 (4 when the hand is played alone) and the offending side
        scores nothing on this hand (the next :meth:`record` gives it nothing).

        Args:
            offending: the side whose player held the wrong number of cards.
            lone: the hand is being played alone.

        Returns:
            A ``penalty`` ruling, then ``game_won``/``rubber_won`` if the points complete a game.
        """
        self._check_open()
        points = 4 if lone else 2
        self.void_hand_for(offending)
        law, clause = _law(90)
        kind = " in a lone hand" if lone else ""
        reason = (f"A player of {SIDE_NAMES[offending]} held the wrong number of cards{kind}, so the deal "
                  f"holds, {SIDE_NAMES[offending.other]} add {_pts(points)}, and "
                  f"{SIDE_NAMES[offending]} score nothing on this hand.")
        return self._penalty(offending, points, law, clause, reason, {"lone": lone}, players)

    def lone_abandoned(self, offending: Side, players: Players | None = None) -> list[Ruling]:
        """Apply law 50: an adversary of a lone player laid his hand down or failed to play to a trick.

        The lone player's side scores 5 for the hand, and the hand's result then adds nothing.

        Args:
            offending: the side opposed to the lone player.
        """
        self._check_open()
        self._void = {Side.NS, Side.EW}
        self._void_law = 50
        law, clause = _law(50)
        reason = (f"{SIDE_NAMES[offending]} abandoned their play against a lone hand, so "
                  f"{SIDE_NAMES[offending.other]} score 5 for the hand.")
        return self._penalty(offending, 5, law, clause, reason, {"lone": True}, players)

    def _penalty(self, offending: Side, points: int, law: str, clause: str, reason: str,
                 more: dict[str, Any], players: Players | None = None) -> list[Ruling]:
        extra: dict[str, Any] = {"points": points, "scored_by": offending.other.value,
                                 "offending": offending.value, "game": self.game, **more}
        rulings = self._add(offending.other, points, players)
        extra["score"] = _per_side(self._score_before_reset(rulings))
        return [Ruling(Remedy.PENALTY, law, clause, reason, side=offending, extra=extra), *rulings]

    # -- games and the rubber ----------------------------------------------------------------------

    def _score_before_reset(self, rulings: list[Ruling]) -> dict[Side, int]:
        """The score of the game the points went into, as it stood before a won game reset it."""
        for r in rulings:
            if r.remedy is Remedy.GAME_WON:
                return {Side(k): v for k, v in r.extra["final_score"].items()}
        return dict(self.points)

    def _add(self, side: Side, points: int, players: Players | None = None) -> list[Ruling]:
        self.points[side] += points
        out: list[Ruling] = []
        while not self.over and self.points[side] >= GAME:
            out.extend(self._game_won(side, players))
        return out

    def _game_won(self, side: Side, players: Players | None = None) -> list[Ruling]:
        number = self.game
        final = dict(self.points)
        lap = final[side] - GAME
        loser = final[side.other]
        value = 2 if loser == 0 else 1
        self.results.append(GameResult(number, side, value, loser, lap))
        wins = self.games_won()
        if number < 3:
            next_game: int | None = number + 1
        elif number == 3 and lap > 0:
            next_game = 4
        else:
            next_game = None
        kind = "a double game, as" if value == 2 else "worth 1, as"
        scored = "scored nothing" if loser == 0 else f"had {_pts(loser)}"
        text = (f"{SIDE_NAMES[side]} reached {final[side]} points and won game {number}, {kind} "
                f"{SIDE_NAMES[side.other]} {scored}")
        law, clause = _law(7)
        if next_game is not None:
            self.game = next_game
            self.points = {side: lap, side.other: 0}
            if lap:
                text += f"; the lap of {_pts(lap)} starts game {next_game}"
            if number == 2 and wins[side] == 2:
                law, clause = _law(1)
                text += "; the third game is still played"
            if next_game == 4:
                law, clause = _law(1)
                text += " because the third game lapped"
        else:
            self.over = True
            if lap:
                text += f"; the lap of {_pts(lap)} is not carried, as the rubber is over"
        extra: dict[str, Any] = {"game": number, "value": value, "lap": lap, "loser_points": loser,
                                 "final_score": _per_side(final), "next_game": next_game,
                                 "games_won": _per_side(wins)}
        out = [Ruling(Remedy.GAME_WON, law, clause, text + ".", side=side, extra=extra)]
        if self.over:
            out.append(self._rubber_won(players))
        return out

    def _rubber_won(self, players: Players | None = None) -> Ruling:
        first_three = {Side.NS: 0, Side.EW: 0}
        for r in self.results[:3]:
            first_three[r.winner] += 1
        winner = Side.NS if first_three[Side.NS] >= 2 else Side.EW
        self.winner = winner
        totals = self.rubber_points()
        wins = self.games_won()
        law, clause = _law(7)
        named = _named(players)
        reason = (f"{_side_words(winner, named)} won the rubber with {wins[winner]} of {len(self.results)} "
                  f"games and add 2, for rubber points North-South {totals[Side.NS]}, "
                  f"East-West {totals[Side.EW]}.")
        extra: dict[str, Any] = {"points": RUBBER_BONUS, "totals": _per_side(totals),
                                 "games_won": _per_side(wins),
                                 "games": [r.to_dict() for r in self.results]}
        if named:
            extra["players"] = {side.value: names for side, names in named.items()}
        return Ruling(Remedy.RUBBER_WON, law, clause, reason, side=winner, extra=extra)

    def unfinished(self, players: Players | None = None) -> list[Ruling]:
        """Close a rubber that a new draw stops before it is won (laws 8-14 form a new table).

        The Somerset laws score a rubber only when it is won (laws 1, 7) and give nothing for one left
        unfinished: nobody wins it and nobody scores for it, not even for the games already won, and the
        new partnerships start from 0. The ruling says what each side's players had, since the new draw
        may seat them elsewhere and their points would otherwise pass to whoever took their seats.

        Args:
            players: who played for each side in this rubber, where the table knows it.

        Returns:
            One ``rubber_won`` ruling with ``unfinished`` true, ``winner`` null and no ``side``;
            ``points`` 0 and ``totals`` 0 to 0; ``games``, ``games_won``, ``game`` (the one under way)
            and ``score`` (its points) as they stood; ``players`` where known. The rubber is then over.

        Raises:
            ValueError: the rubber is already over.
        """
        self._check_open()
        named = _named(players)
        wins = self.games_won()
        had = []
        for side in Side:
            points = self.points[side]
            won = f"had won {_games_word(wins[side])}" if self.results else ""
            now = f"{_pts(points) if points else 'no points'} in game {self.game}"
            had.append(f"{_side_words(side, named)} {won + ' and had ' if won else 'had '}{now}")
        self.over = True
        self._before_last = None
        law, clause = _law(7)
        reason = (f"The table drew again before the rubber was won: {'; '.join(had)}. An unfinished rubber "
                  "scores nothing, so nobody wins it or scores for it, and the new partnerships start "
                  "from 0.")
        extra: dict[str, Any] = {"unfinished": True, "winner": None, "points": 0,
                                 "totals": _per_side({}), "games_won": _per_side(wins),
                                 "games": [r.to_dict() for r in self.results], "game": self.game,
                                 "score": _per_side(self.points)}
        if named:
            extra["players"] = {side.value: names for side, names in named.items()}
        return [Ruling(Remedy.RUBBER_WON, law, clause, reason, extra=extra)]
