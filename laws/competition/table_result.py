"""One board's result at one table of an event's round (``TableResult``), as the event journals it and a
table's message, the director's form or a file gives it: a contract played, an assigned score, or an
artificial adjusted one; the awards' worth (``AWARDS``), and which team an award is at a teams match.

Kept apart from ``laws.competition.event`` (which imports it back) so the event's state stays one module of
its own size (tests/test_layout.py's rule).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from laws.cards import Seat
from laws.competition.event_spec import EventError
from laws.duplicate.boards import vulnerability
from laws.errors import as_typed
from laws.scoring.bridge import parse_contract
from laws.scoring.duplicate import ScoreInputError, board_score

SEATS = {"N": Seat.N, "E": Seat.E, "S": Seat.S, "W": Seat.W}
# An artificial adjusted score's award (DB-12): its IMPs (teams, Swiss pairs) and its percentage
# (matchpoints: an individual, pairs in sections).
AWARDS: Mapping[str, tuple[int, int]] = {"A+": (3, 60), "A=": (0, 50), "A-": (-3, 40)}


@dataclass(frozen=True)
class TableResult:
    """One board's result at one table of one round: the contract (``"4S"``, ``"3NTX"``, ``"Pass"``),
    declarer (``N``/``E``/``S``/``W``, empty when passed out) and tricks won by declarer's side; or, with
    ``contract`` empty, the director's assigned North-South score in ``assigned``; or, with ``contract``
    empty, the director's artificial adjusted score in ``adjusted``: North-South's award and East-West's,
    ``"A+/A-"`` (each of ``A+``, ``A=``, ``A-``: average-plus, average, average-minus; ``DB-12``)."""

    round: int
    table: int
    board: int
    contract: str
    declarer: str = ""
    tricks: int = 0
    assigned: int | None = None
    adjusted: str = ""

    @property
    def awards(self) -> tuple[str, str]:
        """An adjusted result's awards, North-South's and East-West's (``("", "")`` for any other)."""
        if not self.adjusted:
            return ("", "")
        ns, ew = self.adjusted.split("/")
        return (ns, ew)

    @property
    def ns_score(self) -> int:
        """North-South's score (``DB-77``); an adjusted result has none (:class:`EventError`)."""
        if self.adjusted:
            raise EventError(f"round {self.round}, table {self.table}, board {self.board}: an adjusted "
                             f"result ({self.adjusted}) has no score")
        if self.assigned is not None:
            return self.assigned
        if self.contract == "Pass":
            return 0
        return board_score(parse_contract(self.contract), SEATS[self.declarer], self.tricks,
                           vulnerability(self.board))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"round": self.round, "table": self.table, "board": self.board,
                               "contract": self.contract, "declarer": self.declarer, "tricks": self.tricks}
        if self.assigned is not None:
            out["assigned"] = self.assigned
        if self.adjusted:
            out["adjusted"] = self.adjusted
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableResult:
        """A result from its JSON form; :class:`EventError` names what is wrong."""
        if not isinstance(data, Mapping):
            raise EventError(f"a result is an object, got {type(data).__name__}")
        unknown = set(data) - {"round", "table", "board", "contract", "declarer", "tricks", "assigned", "adjusted"}
        if unknown:
            raise EventError(f"a result has no field '{as_typed(sorted(unknown)[0], 40)}'")   # a field's name, quoted
        for name in ("round", "table", "board"):
            v = data.get(name)
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 9999:
                raise EventError(f"a result's {name} is a whole number from 1, got {as_typed(v)}")
        where = f"round {data['round']}, table {data['table']}, board {data['board']}"
        contract, declarer, tricks = data.get("contract", ""), data.get("declarer", ""), data.get("tricks", 0)
        assigned = data.get("assigned")
        if not isinstance(contract, str) or not isinstance(declarer, str):
            raise EventError(f"{where}: contract and declarer are text")
        if isinstance(tricks, bool) or not isinstance(tricks, int):
            raise EventError(f"{where}: tricks is a whole number, got {as_typed(tricks)}")
        adjusted = data.get("adjusted", "")
        result = cls(data["round"], data["table"], data["board"], contract, declarer, tricks,
                     assigned if assigned is not None else None, adjusted if isinstance(adjusted, str) else "")
        if adjusted != "":
            parts = adjusted.split("/") if isinstance(adjusted, str) else []
            if contract or declarer or tricks or assigned is not None or len(parts) != 2 \
                    or any(p not in AWARDS for p in parts):
                raise EventError(f"{where}: an adjusted result is North-South's and East-West's awards, each "
                                 f"A+, A= or A- (\"A+/A-\"), with no contract or assigned score, got {as_typed(adjusted)}")
            return result
        if assigned is not None:
            if contract or declarer or tricks or isinstance(assigned, bool) or not isinstance(assigned, int) \
                    or assigned % 10 or abs(assigned) > 7600:
                raise EventError(f"{where}: an assigned score is North-South's, a multiple of 10, with no "
                                 f"contract, got {as_typed(assigned)}")
            return result
        if contract == "Pass":
            if declarer or tricks:
                raise EventError(f"{where}: a passed-out board has no declarer or tricks")
            return result
        if contract == "":
            raise EventError(f"{where}: a result gives a contract (Pass for a passed-out board), an assigned "
                             f"score or an adjusted one")
        if declarer not in SEATS:
            raise EventError(f"{where}: declarer is N, E, S or W, got {as_typed(declarer)}")
        try:
            result.ns_score  # noqa: B018 - the score is the check of contract and tricks
        except (ValueError, ScoreInputError) as exc:
            raise EventError(f"{where}: {exc}") from None
        # kept in its one spelling ("3n", " 4sx" as typed at the director's page are 3NT and 4SX), which the
        # results files print (docs/competitions.md)
        return replace(result, contract=parse_contract(contract).code)


def team_awards(result: TableResult) -> tuple[str, str]:
    """An adjusted teams result's awards as (home team's, away team's): the open room's (odd table)
    North-South is the home team, the closed room's the away team."""
    ns, ew = result.awards
    return (ns, ew) if result.table % 2 else (ew, ns)
