"""The duplicate score of one board (Duplicate Bridge, law 77; ``DB-77``).

A duplicate board is scored on its own, as if it were a whole rubber: the trick points, overtricks,
undertricks, the bonus for making a doubled or redoubled contract and the slam bonuses are the rubber
figures (reused from :mod:`laws.scoring.bridge`, not written again here), honours do not count, and in
place of the rubber's games and rubber bonus the declaring side scores, for making its contract:

* 50 for a part score (trick points under 100),
* 300 for a game (trick points 100 or more) not vulnerable, 500 vulnerable;

the slam bonuses (500 / 750 small, 1000 / 1500 grand) come on top of the game bonus. A passed-out
board scores 0 to both sides.

Which side is vulnerable comes from the board (``DB-2``, :func:`laws.duplicate.boards.vulnerability`).
A result is written once, from North-South's point of view: positive when North-South score, negative
when East-West do (the sign convention of travellers and of PBN's ``[Score "NS …"]``).

Rules we state (the laws are silent or it is a matter of input):

* ``tricks`` is the number of tricks declarer's side won, 0 to 13, as PBN's ``[Result]``.
* A contract needs a declarer; a passed-out board has neither a declarer nor tricks (``tricks`` must
  be 0 there, so that a mistyped result is not silently scored as a pass).
* A passed-out board has no opening lead either (:func:`passed_out_lead`): nobody played it. The score
  does not read the lead, so :func:`board_score` does not ask; whoever takes a result with its lead
  asks (a session, a federation's line), so all of them refuse the same result with the same words.
"""

from __future__ import annotations

from laws.cards import Seat, Side
from laws.duplicate.boards import Vulnerability
from laws.errors import as_typed
from laws.scoring.bridge import (
    Contract,
    overtrick_points,
    slam_bonus,
    trick_points,
    undertrick_points,
)

LAW = "Duplicate Bridge, law 77"
CLAUSE = "DB-77"

PART_SCORE_BONUS = 50
GAME_BONUS = {False: 300, True: 500}
INSULT = (0, 50, 100)     # making a contract undoubled, doubled, redoubled
GAME_TRICK_POINTS = 100


class ScoreInputError(ValueError):
    """A board result that cannot be scored; the message names what is wrong."""


def _check_tricks(tricks: object) -> int:
    if isinstance(tricks, bool) or not isinstance(tricks, int) or not 0 <= tricks <= 13:
        raise ScoreInputError(f"tricks must be a whole number 0 to 13, got {as_typed(tricks)}")
    return tricks


def made_bonus(contract: Contract, vulnerable: bool) -> int:
    """The duplicate bonus for making ``contract``: 50 for a part score, 300 / 500 for a game."""
    if trick_points(contract) >= GAME_TRICK_POINTS:
        return GAME_BONUS[vulnerable]
    return PART_SCORE_BONUS


def declarer_score(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """The score of one played board from declarer's side's point of view (``DB-77``).

    Args:
        contract: the final contract.
        tricks: tricks won by declarer's side, 0 to 13.
        vulnerable: whether declarer's side is vulnerable on this board.

    Returns:
        Positive when declarer's side scores (contract made), negative when the defenders do.

    Raises:
        ScoreInputError: ``tricks`` is out of range.
    """
    _check_tricks(tricks)
    if tricks < contract.needed:
        return -undertrick_points(contract, contract.needed - tricks, vulnerable)
    return (trick_points(contract) + made_bonus(contract, vulnerable) + INSULT[contract.doubled]
            + overtrick_points(contract, tricks - contract.needed, vulnerable)
            + slam_bonus(contract, vulnerable))


def passed_out_lead(contract: object, lead: object) -> str:
    """Why a result's opening lead cannot stand with its contract, or ``""``: a passed-out board
    (``contract`` None or ``"Pass"``) was never played, so a lead with it is a mistyped result, refused as
    a declarer with it is (``board_score``). One rule for every place a result with its lead comes in (a
    table's or the director's result in a session, a club's line at a federation), where each once had
    its own and a federation took what a session refused. ``lead`` as given (a card's text, a ``Card``);
    none (None or ``""``) is no lead."""
    if contract in (None, "Pass") and lead not in (None, ""):
        return f"a passed-out board has no lead, got {as_typed(lead, 10)}"
    return ""


def board_score(contract: Contract | None, declarer: Seat | None, tricks: int,
                vulnerability: Vulnerability) -> int:
    """The duplicate score of one board, from North-South's point of view (``DB-77``).

    Args:
        contract: the final contract, or None for a passed-out board.
        declarer: the declarer's seat (None exactly when passed out).
        tricks: tricks won by declarer's side, 0 to 13 (0 when passed out).
        vulnerability: the board's vulnerability (``DB-2``).

    Returns:
        The score, positive when North-South score and negative when East-West do.

    Raises:
        ScoreInputError: a contract without declarer, a declarer or tricks on a passed-out board,
            tricks out of range, or arguments of the wrong kind.
    """
    _check_tricks(tricks)
    if not isinstance(vulnerability, Vulnerability):
        raise ScoreInputError(f"vulnerability must be a Vulnerability (DB-2), got {vulnerability!r}")
    if contract is None:
        if declarer is not None:
            raise ScoreInputError(f"a passed-out board has no declarer, got {as_typed(declarer)}")
        if tricks:
            raise ScoreInputError(f"a passed-out board has no tricks, got {tricks}")
        return 0
    if not isinstance(contract, Contract):
        raise ScoreInputError(f"contract must be a Contract or None, got {contract!r}")
    if not isinstance(declarer, Seat):
        raise ScoreInputError(f"contract {contract.code} needs a declarer seat (N, E, S or W), got {as_typed(declarer)}")
    side = declarer.side
    score = declarer_score(contract, tricks, vulnerability.of(side))
    return score if side is Side.NS else -score
