"""Rubber-bridge scoring: contracts, the score above and below the line, games and the rubber.

The figures follow the rubber scoring paragraph and clause ``CB-rubber`` of ``docs/laws.md`` (modern
rubber-bridge practice where the seed digest is silent). Everything here is pure: a ``RubberScore``
is fed one result at a time and answers with rulings; it never reads a clock or a file.

Points a side scores are kept as a list of :class:`Entry` items, so the totals are always the sum of
what was written on the score sheet. Once a side wins a game, both sides' part scores for that game
are closed: they still count in the totals but no longer towards the next game.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from laws.cards import Seat, Side
from laws.rulings import Remedy, Ruling

LAW = "Contract Bridge, rubber scoring"
CLAUSE = "CB-rubber"

STRAINS = ("C", "D", "H", "S", "NT")
STRAIN_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}
SEAT_NAMES = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
SIDE_NAMES = {Side.NS: "North-South", Side.EW: "East-West"}
GAME_POINTS = 100
_CONTRACT_RE = re.compile(r"^([1-7])(NT|N|[CDHS])(X{0,2})$")
_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen")


@dataclass(frozen=True)
class Contract:
    """A final contract such as ``4S`` or ``7NTXX``.

    Attributes:
        level: tricks bid over six, 1 to 7.
        strain: ``"C"``, ``"D"``, ``"H"``, ``"S"`` or ``"NT"``.
        doubled: 0 undoubled, 1 doubled, 2 redoubled.
    """

    level: int
    strain: str
    doubled: int = 0

    def __post_init__(self) -> None:
        if not 1 <= self.level <= 7:
            raise ValueError(f"contract level must be 1 to 7, got {self.level}")
        if self.strain not in STRAINS:
            raise ValueError(f"unknown strain {self.strain!r} (want C, D, H, S or NT)")
        if self.doubled not in (0, 1, 2):
            raise ValueError(f"doubled must be 0, 1 or 2, got {self.doubled}")

    @property
    def code(self) -> str:
        """The event-format spelling, e.g. ``"6HX"``."""
        return f"{self.level}{self.strain}{'X' * self.doubled}"

    @property
    def needed(self) -> int:
        """Tricks declarer's side must win to make the contract."""
        return self.level + 6

    def describe(self) -> str:
        """The contract for people, e.g. ``"4♠ doubled"``."""
        tail = ("", " doubled", " redoubled")[self.doubled]
        return f"{self.level}{STRAIN_SYMBOLS[self.strain]}{tail}"

    def __str__(self) -> str:
        return self.code


def parse_contract(text: str) -> Contract:
    """Parse a contract in event notation (``"4S"``, ``"3NT"``, ``"6HX"``, ``"7NTXX"``).

    Args:
        text: level 1-7, strain C/D/H/S/NT (``N`` is accepted for notrump), then ``X`` or ``XX``.

    Returns:
        The contract.

    Raises:
        ValueError: naming what is wrong with ``text``.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"contract {text!r}: want level, strain and optional X/XX, e.g. '4S' or '3NTX'")
    t = text.strip().upper()
    m = _CONTRACT_RE.match(t)
    if m is None:
        if not t[0].isdigit() or not 1 <= int(t[0]) <= 7:
            raise ValueError(f"contract {text!r}: the level must be a digit 1 to 7")
        rest = t[1:].rstrip("X")
        if rest not in ("C", "D", "H", "S", "NT", "N"):
            raise ValueError(f"contract {text!r}: unknown strain {rest!r} (want C, D, H, S or NT)")
        raise ValueError(f"contract {text!r}: only 'X' (doubled) or 'XX' (redoubled) may follow the strain")
    strain = "NT" if m.group(2) in ("N", "NT") else m.group(2)
    return Contract(int(m.group(1)), strain, len(m.group(3)))


def trick_points(contract: Contract) -> int:
    """Points below the line for making ``contract`` (the bid tricks only), doubling included."""
    per = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}[contract.strain]
    base = per * contract.level + (10 if contract.strain == "NT" else 0)
    return base * (1, 2, 4)[contract.doubled]


def overtrick_points(contract: Contract, overtricks: int, vulnerable: bool) -> int:
    """Points above the line for ``overtricks`` tricks beyond the contract."""
    if contract.doubled == 0:
        return overtricks * (20 if contract.strain in ("C", "D") else 30)
    each = 200 if vulnerable else 100
    return overtricks * each * contract.doubled


def undertrick_points(contract: Contract, undertricks: int, vulnerable: bool) -> int:
    """Points the defenders score above the line when declarer falls ``undertricks`` short."""
    if contract.doubled == 0:
        return undertricks * (100 if vulnerable else 50)
    total = 0
    for k in range(1, undertricks + 1):
        if vulnerable:
            total += 200 if k == 1 else 300
        else:
            total += 100 if k == 1 else 200 if k <= 3 else 300
    return total * contract.doubled


def slam_bonus(contract: Contract, vulnerable: bool) -> int:
    """Premium for a slam bid and made: small 500/750, grand 1000/1500; 0 below the six level."""
    if contract.level == 6:
        return 750 if vulnerable else 500
    if contract.level == 7:
        return 1500 if vulnerable else 1000
    return 0


@dataclass(frozen=True)
class Entry:
    """One item written on the score sheet.

    Attributes:
        hand: the hand it was scored on (1-based; 0 for the unfinished-rubber awards).
        game: the game of the rubber it was scored in (1-based).
        side: who scores it.
        line: ``"below"`` (trick points towards game) or ``"above"``.
        points: how many.
        item: what for: ``tricks``, ``overtricks``, ``insult``, ``slam``, ``undertricks``, ``honours``,
            ``rubber``, ``unfinished_game`` or ``unfinished_part_score``.
    """

    hand: int
    game: int
    side: Side
    line: str
    points: int
    item: str

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "game": self.game, "side": self.side.value, "line": self.line,
                "points": self.points, "item": self.item}


def _per_side(values: dict[Side, int]) -> dict[str, int]:
    return {side.value: values.get(side, 0) for side in Side}


def _count(n: int) -> str:
    return _COUNT_WORDS[n] if n < len(_COUNT_WORDS) else str(n)


class RubberScore:
    """The score of one rubber, fed one hand's result at a time."""

    def __init__(self) -> None:
        self.entries: list[Entry] = []
        self.games: dict[Side, int] = {Side.NS: 0, Side.EW: 0}
        self.hands = 0
        self.game = 1
        self.over = False
        self.premium_side: Side | None = None

    # -- state -------------------------------------------------------------------------------------

    def vulnerable(self, side: Side) -> bool:
        """A side is vulnerable once it has won a game of this rubber."""
        return self.games[side] >= 1

    @property
    def below(self) -> dict[Side, int]:
        """Trick points each side has towards the game in progress."""
        return self.below_in(self.game)

    def below_in(self, game: int) -> dict[Side, int]:
        """Trick points each side scored below the line in ``game`` (1-based)."""
        return self._sum(lambda e: e.line == "below" and e.game == game)

    @property
    def above(self) -> dict[Side, int]:
        """Points each side has above the line."""
        return self._sum(lambda e: e.line == "above")

    @property
    def totals(self) -> dict[Side, int]:
        """Every point each side has scored in this rubber."""
        return self._sum(lambda e: True)

    @property
    def winner(self) -> Side | None:
        """The side with more total points once the rubber is over (None if level or not over)."""
        if not self.over:
            return None
        t = self.totals
        if t[Side.NS] == t[Side.EW]:
            return None
        return Side.NS if t[Side.NS] > t[Side.EW] else Side.EW

    def _sum(self, keep: Callable[[Entry], bool]) -> dict[Side, int]:
        out = {Side.NS: 0, Side.EW: 0}
        for e in self.entries:
            if keep(e):
                out[e.side] += e.points
        return out

    def snapshot(self) -> dict[str, Any]:
        """The score for display: games, lines, vulnerability, totals (JSON-ready)."""
        below_by_game = [_per_side(self.below_in(g)) for g in range(1, self.game + 1)]
        winner = self.winner
        return {
            "hands": self.hands, "game": self.game, "over": self.over,
            "games": _per_side(self.games), "below": _per_side(self.below),
            "below_by_game": below_by_game, "above": _per_side(self.above),
            "vulnerable": {side.value: self.vulnerable(side) for side in Side},
            "totals": _per_side(self.totals),
            "premium_side": None if self.premium_side is None else self.premium_side.value,
            "winner": None if winner is None else winner.value,
        }

    # -- scoring -----------------------------------------------------------------------------------

    def record(self, declarer: Seat, contract: Contract, tricks: int,
               honours: tuple[Side, int] | None = None,
               players: Mapping[Side, Sequence[str]] | None = None) -> list[Ruling]:
        """Score one played hand.

        Args:
            declarer: the declarer's seat.
            contract: the final contract.
            tricks: tricks won by declarer's side, 0 to 13.
            honours: the side holding honours and their value (100 or 150), if claimed.
            players: who plays for each side, where the table knows it: a ``rubber_won`` this hand brings
                names them (``extra["players"]``, side -> names), as an unfinished rubber's does, since the
                rubber's score is theirs and the next draw may seat them elsewhere.

        Returns:
            A ``score`` ruling, then ``game_won`` if a game was completed, then ``rubber_won`` if that
            was a side's second game.

        Raises:
            ValueError: the rubber is over, or ``tricks`` or ``honours`` is out of range.
        """
        if self.over:
            raise ValueError("the rubber is over; start a new RubberScore for the next rubber")
        if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
            raise ValueError(f"tricks must be a whole number 0 to 13, got {tricks!r}")
        if honours is not None and honours[1] not in (100, 150):
            raise ValueError(f"honours are worth 100 or 150, got {honours[1]!r}")
        if honours is not None and contract.strain == "NT" and honours[1] != 150:
            raise ValueError("at notrump only four aces count as honours, worth 150")
        self.hands += 1
        side = declarer.side
        vul = self.vulnerable(side)
        made = tricks >= contract.needed
        new: list[Entry] = []

        def add(who: Side, line: str, points: int, item: str) -> None:
            if points:
                new.append(Entry(self.hands, self.game, who, line, points, item))

        extra: dict[str, Any] = {"contract": contract.code, "declarer": declarer.value, "tricks": tricks,
                                 "made": made, "vulnerable": vul, "game": self.game}
        if made:
            over = tricks - contract.needed
            add(side, "below", trick_points(contract), "tricks")
            add(side, "above", (0, 50, 100)[contract.doubled], "insult")
            add(side, "above", overtrick_points(contract, over, vul), "overtricks")
            add(side, "above", slam_bonus(contract, vul), "slam")
            extra["overtricks"] = over
        else:
            under = contract.needed - tricks
            add(side.other, "above", undertrick_points(contract, under, vul), "undertricks")
            extra["undertricks"] = under
        if honours is not None:
            add(honours[0], "above", honours[1], "honours")
        self.entries.extend(new)
        extra["below"] = _per_side(self._hand_sum(new, "below"))
        extra["above"] = _per_side(self._hand_sum(new, "above"))
        extra["items"] = [e.to_dict() for e in new]
        extra["totals"] = _per_side(self.totals)
        rulings = [Ruling(Remedy.SCORE, LAW, CLAUSE, self._reason(declarer, contract, made, extra, new),
                          seat=declarer, side=side, extra=extra)]
        if self.below[side] >= GAME_POINTS:
            rulings.extend(self._game_won(side, players))
        return rulings

    @staticmethod
    def _hand_sum(new: list[Entry], line: str) -> dict[Side, int]:
        out = {Side.NS: 0, Side.EW: 0}
        for e in new:
            if e.line == line:
                out[e.side] += e.points
        return out

    def _reason(self, declarer: Seat, contract: Contract, made: bool, extra: dict[str, Any],
                new: list[Entry]) -> str:
        who = SEAT_NAMES[declarer]
        vul = ", vulnerable," if extra["vulnerable"] else ""
        parts: list[str] = []
        labels = {"tricks": "below", "overtricks": "for the overtrick", "insult": "for the insult",
                  "slam": "for the slam", "honours": "for honours"}
        if made:
            over = extra["overtricks"]
            if over == 1:
                trick_words = " with one overtrick"
            elif over > 1:
                trick_words = f" with {_count(over)} overtricks"
                labels["overtricks"] = "for the overtricks"
            else:
                trick_words = ""
            head = f"{who}{vul} made {contract.describe()}{trick_words}"
            for e in new:
                to = "" if e.side == declarer.side else f" to {SIDE_NAMES[e.side]}"
                parts.append(f"{e.points} {labels[e.item]}{to}")
        else:
            under = extra["undertricks"]
            head = f"{who}{vul} went {_count(under)} down in {contract.describe()}"
            for e in new:
                label = "for the undertricks" if e.item == "undertricks" else labels[e.item]
                parts.append(f"{e.points} {label} to {SIDE_NAMES[e.side]}")
        return f"{head}: {', '.join(parts)}." if parts else f"{head}."

    def _game_won(self, side: Side, players: Mapping[Side, Sequence[str]] | None = None) -> list[Ruling]:
        game_no = self.game
        points = self.below[side]
        self.games[side] += 1
        extra: dict[str, Any] = {"game": game_no, "value": 1, "points": points,
                                 "games": _per_side(self.games)}
        text = f"{SIDE_NAMES[side]} reached {points} trick points and won game {game_no}"
        if self.games[side] < 2:
            self.game += 1
            text += "; it is now vulnerable and both sides start the next game with no part score."
            return [Ruling(Remedy.GAME_WON, LAW, CLAUSE, text, side=side, extra=extra)]
        out = [Ruling(Remedy.GAME_WON, LAW, CLAUSE, text + ", its second game of the rubber.",
                      side=side, extra=extra)]
        premium = 700 if self.games[side.other] == 0 else 500
        self.entries.append(Entry(self.hands, game_no, side, "above", premium, "rubber"))
        self.over = True
        self.premium_side = side
        out.append(self._final(side, premium, unfinished=False, players=players))
        return out

    def _final(self, side: Side | None, premium: int, unfinished: bool,
               awards: dict[str, dict[str, int]] | None = None,
               players: Mapping[Side, Sequence[str]] | None = None) -> Ruling:
        """The ``rubber_won`` ruling, finished or unfinished, naming each side's players where known."""
        totals = self.totals
        winner = self.winner
        named = {s: list(players[s]) for s in Side if players and players.get(s)}
        extra: dict[str, Any] = {"premium": premium, "games": _per_side(self.games),
                                 "totals": _per_side(totals),
                                 "winner": None if winner is None else winner.value,
                                 "margin": abs(totals[Side.NS] - totals[Side.EW]),
                                 "unfinished": unfinished, "next": "draw"}
        if awards is not None:
            extra["awards"] = awards
        if named:
            extra["players"] = {s.value: names for s, names in named.items()}
        score = f"totals North-South {totals[Side.NS]}, East-West {totals[Side.EW]}"
        if unfinished or side is None:
            won = [f"{_side_words(s, named)} {_award_words((awards or {}).get(s.value, {}))}" for s in Side
                   if (awards or {}).get(s.value)]
            verdict = ("the totals are level" if winner is None
                       else f"{_side_words(winner, named)} win the rubber on points")
            reason = (f"The rubber ended unfinished: "
                      f"{'; '.join(won) if won else 'neither side had a game or a part score'}"
                      f"; {score}, so {verdict}.")
        else:
            verdict = ("the totals are level" if winner is None
                       else f"{_side_words(winner, named)} wins the rubber on points")
            lost = self.games[side.other]
            head = (f"{_side_words(side, named)} won two games to {'none' if lost == 0 else _count(lost)}"
                    f" and scores the {premium} rubber premium")
            reason = f"{head}; {score}, so {verdict} and a new draw for partners follows."
        return Ruling(Remedy.RUBBER_WON, LAW, CLAUSE, reason, side=side, extra=extra)

    def unfinished(self, players: Mapping[Side, Sequence[str]] | None = None) -> list[Ruling]:
        """Close a rubber that is stopped before a side has won two games (a new draw at the table).

        A side that has won a game scores 300; a side with a part score in the unfinished game scores
        50 (each side that has one). Then the totals decide, as in a finished rubber.

        Args:
            players: who played for each side in this rubber, where the table knows it: the ruling names
                them, since a new draw may seat them elsewhere (``extra["players"]``, side -> names).

        Returns:
            One ``rubber_won`` ruling with ``unfinished`` true (``side`` is the side ahead on points,
            or None when level), carrying the awards in ``extra["awards"]``.

        Raises:
            ValueError: the rubber is already over.
        """
        if self.over:
            raise ValueError("the rubber is already over")
        part = self.below
        awards: dict[str, dict[str, int]] = {}
        for side in Side:
            got: dict[str, int] = {}
            if self.games[side]:
                got["game"] = 300 * self.games[side]
                self.entries.append(Entry(0, self.game, side, "above", got["game"], "unfinished_game"))
            if part[side] > 0:
                got["part_score"] = 50
                self.entries.append(Entry(0, self.game, side, "above", 50, "unfinished_part_score"))
            awards[side.value] = got
        self.over = True
        return [self._final(self.winner, 0, unfinished=True, awards=awards, players=players)]


def _side_words(side: Side, players: Mapping[Side, Sequence[str]]) -> str:
    names = players.get(side)
    return f"{SIDE_NAMES[side]} ({' and '.join(names)})" if names else SIDE_NAMES[side]


def _award_words(got: Mapping[str, int]) -> str:
    parts = []
    if "game" in got:
        parts.append(f"{got['game']} for their game")
    if "part_score" in got:
        parts.append(f"{got['part_score']} for their part score")
    return "score " + " and ".join(parts)
